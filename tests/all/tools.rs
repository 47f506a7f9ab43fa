//! The tool-call API around the fixtures: options, result shape, schemas,
//! retry context, status column and prompt.

use editblocks::tools::{
    apply_tool_calls, file_status, retry_context, system_prompt, system_prompt_for,
    tool_call_paths, tool_schemas, DiffMode, FileHistory, Local, Matching, RetryInput, SchemaApi,
    ToolApplyResult, ToolCall, ToolOptions, TrailingNewline,
};
use editblocks::{ErrorKind, Status};
use editblocks::{HostOp, MemoryHost, Undo};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn edit(path: &str, old: &str, new: &str) -> Value {
    json!({ "path": path, "old_string": old, "new_string": new })
}

fn multi(edits: Vec<Value>) -> ToolCall {
    ToolCall::new("edit_file", json!({ "edits": edits }))
}

fn exact() -> ToolOptions {
    ToolOptions {
        matching: Matching::Exact,
        ..ToolOptions::default()
    }
}

/// `calls` on `path` holding `file`: refused with `matching: 'exact'`, the
/// file left as it was, then applied with the default (tolerant) matching;
/// returns that result's assumptions of its first call and the file after.
fn refused_exact_then_tolerant(
    calls: &[ToolCall],
    path: &str,
    file: &str,
) -> (Vec<String>, String) {
    let mut host = MemoryHost::with_files([(path, file)]);
    let refused = apply_tool_calls(calls, &mut host, &exact());
    assert!(!refused.ok, "exact matching applied {calls:?}");
    assert_eq!(
        host.text(path).unwrap(),
        file,
        "a refused call changed {path}"
    );
    let tolerant = apply_tool_calls(calls, &mut host, &ToolOptions::default());
    assert!(tolerant.ok, "{:?}", tolerant.errors);
    (
        tolerant.results[0].edit.assumed.clone(),
        host.text(path).unwrap(),
    )
}

#[test]
fn dry_run_validates_and_writes_nothing() {
    let mut host = MemoryHost::with_files([("a.txt", "one\ntwo\n")]);
    let calls = [
        multi(vec![edit("a.txt", "two", "three")]),
        ToolCall::new("write_file", json!({"path": "b.txt", "content": "new"})),
    ];
    let result = apply_tool_calls(
        &calls,
        &mut host,
        &ToolOptions {
            dry_run: true,
            ..ToolOptions::default()
        },
    );
    assert!(result.ok);
    assert!(result
        .results
        .iter()
        .all(|r| r.edit.status == Status::Validated));
    assert_eq!(result.files_modified, ["a.txt"]);
    assert_eq!(result.files_created, ["b.txt"]);
    assert!(host.ops.is_empty());
    assert_eq!(host.text("a.txt").unwrap(), "one\ntwo\n");
}

#[test]
fn writes_together_and_stages_when_asked() {
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let calls = [
        ToolCall::new("write_file", json!({"path": "dir/new.txt", "content": "x"})),
        multi(vec![edit("a.txt", "one", "uno")]),
    ];
    let result = apply_tool_calls(
        &calls,
        &mut host,
        &ToolOptions {
            stage: true,
            ..ToolOptions::default()
        },
    );
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(
        host.ops,
        [
            // In the order the reply first touched them; a new file gets a final newline.
            // A created file is undone by deleting it, an edited one by
            // writing back its text.
            HostOp::Write {
                path: "dir/new.txt".into(),
                content: "x\n".into(),
                undo: Undo::Delete,
            },
            HostOp::Write {
                path: "a.txt".into(),
                content: "uno\n".into(),
                undo: Undo::WriteBackText,
            },
            HostOp::Stage {
                paths: vec!["dir/new.txt".into(), "a.txt".into()]
            },
        ]
    );
    assert_eq!(result.results[1].edit.estimated_line, Some(1));
    assert_eq!(result.results[1].edit.matched_by.as_deref(), Some("exact"));
}

#[test]
fn an_edit_undone_later_in_the_reply_writes_nothing() {
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let calls = [multi(vec![
        edit("a.txt", "one", "two"),
        edit("a.txt", "two", "one"),
    ])];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(result.ok);
    assert!(host.ops.is_empty());
    assert!(result.files_modified.is_empty());
}

/// Each edit of a batch is located in the text the earlier ones left: a
/// later edit finds text an earlier one wrote, an occurrence on the last
/// line without a newline or spanning lines is still a whole-line match,
/// and an edit made ambiguous by an earlier one refuses the whole call.
#[test]
fn batched_edits_see_the_text_earlier_edits_wrote() {
    let file = "fn a() {\n    one();\n}\nfn b() {\n    two();\n}";
    let mut host = MemoryHost::with_files([("f.rs", file)]);
    let calls = [multi(vec![
        edit("f.rs", "one();", "uno();\n    extra();"),
        edit("f.rs", "extra();\n}\nfn b", "more();\n}\nfn b"),
        edit("f.rs", "uno", "first"),
        edit("f.rs", "}\nfn b() {\n    two();\n}", "}"),
    ])];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(
        host.text("f.rs").unwrap(),
        "fn a() {\n    first();\n        more();\n}"
    );

    let mut host = MemoryHost::with_files([("f.rs", file)]);
    let calls = [multi(vec![
        edit("f.rs", "two();", "one();"),
        edit("f.rs", "one();", "three();"),
    ])];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(!result.ok);
    assert_eq!(
        result.errors,
        ["call 1 (edit_file), edit 2, f.rs: old_string is not unique (with whitespace matching: lines 2 and 5); include more surrounding lines so it matches one place only, or set replace_all to change every occurrence."]
    );
    assert_eq!(host.text("f.rs").unwrap(), file);
}

#[test]
fn failure_marks_the_good_changes_atomic_aborted() {
    let mut host = MemoryHost::with_files([("a.txt", "alpha\nbeta\n"), ("b.txt", "gamma\n")]);
    let calls = [multi(vec![
        edit("a.txt", "alpha", "ALPHA"),
        edit("b.txt", "delta", "DELTA"),
    ])];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(!result.ok);
    assert!(host.ops.is_empty());
    let good = &result.results[0];
    assert_eq!(
        (good.edit.status, good.edit.error_kind),
        (Status::Skipped, Some(ErrorKind::AtomicAborted))
    );
    assert_eq!(good.edit.matched_by.as_deref(), Some("exact"));
    assert!(good
        .edit
        .reason
        .as_deref()
        .unwrap()
        .contains("call 1 (b.txt) failed"));
    let bad = &result.results[1];
    assert_eq!(
        (bad.edit.status, bad.edit.error_kind),
        (Status::Failed, Some(ErrorKind::AnchorNotFound))
    );
    assert_eq!(
        (bad.call_index, bad.change_index, bad.tool.as_str()),
        (0, Some(1), "edit_file")
    );
    assert_eq!(
        result.errors.len(),
        1,
        "only real failures are errors: {:?}",
        result.errors
    );
}

#[test]
fn refused_paths_are_never_read() {
    let calls = [
        ToolCall::new("write_file", json!({"path": "../x", "content": "x"})),
        multi(vec![
            edit("./src//a.rs", "a", "b"),
            edit("src/a.rs", "b", "c"),
        ]),
    ];
    assert_eq!(
        tool_call_paths(&calls, &ToolOptions::default()),
        ["src/a.rs"]
    );
    let mut host = MemoryHost::with_files([("src/a.rs", "a\n")]);
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert_eq!(host.reads, ["src/a.rs"]);
    assert_eq!(
        result.results[0].edit.error_kind,
        Some(ErrorKind::PathEscape)
    );
    assert!(host.ops.is_empty());
}

#[test]
fn exact_matching_option_refuses_what_tolerant_repairs() {
    let file = "fn f() {\n    go();\n}\n";
    let calls = [multi(vec![edit("f.rs", "go();\n", "stop();\n")])];
    let mut host = MemoryHost::with_files([("f.rs", file)]);
    let exact = apply_tool_calls(&calls, &mut host, &exact());
    assert!(exact.ok, "a raw substring is exact: {:?}", exact.errors);
    assert_eq!(host.text("f.rs").unwrap(), "fn f() {\n    stop();\n}\n");

    let calls = [multi(vec![edit(
        "f.rs",
        "fn f() {\n  go();",
        "fn g() {\n  go();",
    )])];
    let (_, after) = refused_exact_then_tolerant(&calls, "f.rs", file);
    assert_eq!(after, "fn g() {\n    go();\n}\n");
}

#[test]
fn trailing_newline_ensure() {
    let mut host = MemoryHost::with_files([("a.txt", "one")]);
    let options = ToolOptions {
        trailing_newline: TrailingNewline::Ensure,
        ..ToolOptions::default()
    };
    assert!(
        apply_tool_calls(
            &[multi(vec![edit("a.txt", "one", "two")])],
            &mut host,
            &options
        )
        .ok
    );
    assert_eq!(host.text("a.txt").unwrap(), "two\n");
}

#[test]
fn call_envelopes_of_each_api() {
    let args = json!({"path": "a", "content": "x"});
    for value in [
        json!({"name": "write_file", "arguments": args}),
        json!({"name": "write_file", "arguments": args.to_string()}),
        json!({"type": "function", "function": {"name": "write_file", "arguments": args.to_string()}}),
        json!({"type": "tool_use", "id": "t1", "name": "write_file", "input": args}),
        json!({"name": "write_file", "args": args}),
    ] {
        let call = ToolCall::from_value(&value).expect("a call");
        assert_eq!(call.name, "write_file");
        assert_eq!(call.echo().arguments, args, "{value}");
    }
}

#[test]
fn each_sdk_shape_keeps_its_id_and_api() {
    use editblocks::tools::CallKind;
    let args = json!({"path": "a", "content": "x"});
    let cases = [
        (
            json!({"id": "call_1", "type": "function", "function": {"name": "write_file", "arguments": args.to_string()}}),
            "call_1",
            SchemaApi::Openai,
            CallKind::Function,
        ),
        (
            json!({"id": "call_2", "type": "custom", "custom": {"name": "write_file", "input": args.to_string()}}),
            "call_2",
            SchemaApi::Openai,
            CallKind::Custom,
        ),
        (
            json!({"type": "function_call", "id": "fc_1", "call_id": "call_3", "name": "write_file", "arguments": args.to_string()}),
            "call_3",
            SchemaApi::OpenaiResponses,
            CallKind::Function,
        ),
        (
            json!({"type": "custom_tool_call", "call_id": "call_4", "name": "write_file", "input": args.to_string()}),
            "call_4",
            SchemaApi::OpenaiResponses,
            CallKind::Custom,
        ),
        (
            json!({"type": "tool_use", "id": "toolu_5", "name": "write_file", "input": args}),
            "toolu_5",
            SchemaApi::Anthropic,
            CallKind::Function,
        ),
        (
            json!({"functionCall": {"id": "g6", "name": "write_file", "args": args}}),
            "g6",
            SchemaApi::Gemini,
            CallKind::Function,
        ),
        (
            json!({"id": "g7", "name": "write_file", "args": args}),
            "g7",
            SchemaApi::Gemini,
            CallKind::Function,
        ),
    ];
    for (value, id, api, kind) in cases {
        let call = ToolCall::from_value(&value).expect("a call");
        assert_eq!(
            (
                call.name.as_str(),
                call.id.as_deref(),
                call.dialect,
                call.kind
            ),
            ("write_file", Some(id), api, kind),
            "{value}"
        );
        assert_eq!(call.echo().arguments, args, "{value}");
    }
    let patch = ToolCall::from_value(&json!({"type": "apply_patch_call", "id": "apc_1", "call_id": "call_8", "status": "completed",
        "operation": {"type": "delete_file", "path": "a"}}))
    .unwrap();
    assert_eq!(
        (patch.name.as_str(), patch.id.as_deref(), patch.kind),
        ("apply_patch", Some("call_8"), CallKind::ApplyPatch)
    );
    // Items of a model's output that are not calls are passed over, keeping the others' order.
    let output = [
        json!({"type": "reasoning", "id": "rs_1", "summary": []}),
        json!({"type": "message", "role": "assistant", "content": []}),
        json!({"type": "text", "text": "Let me fix that."}),
        json!({"text": "a Gemini text part"}),
        json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}),
        json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
        json!({"type": "mcp_call", "id": "mcp_1", "name": "lookup", "arguments": "{}", "server_label": "s"}),
        json!({"type": "tool_use", "id": "toolu_9", "name": "write_file", "input": args}),
    ];
    let calls = ToolCall::from_values(&output);
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].0, calls[0].1.id.as_deref()), (7, Some("toolu_9")));
}

#[test]
fn schemas_per_mode_and_api() {
    let names = |mode| {
        tool_schemas(mode, SchemaApi::Plain)
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(DiffMode::SearchReplaceMulti),
        ["write_file", "edit_file"]
    );
    assert_eq!(names(DiffMode::SearchReplace), ["write_file", "edit_file"]);
    assert_eq!(names(DiffMode::Anchored), ["write_file", "edit_file"]);
    assert_eq!(names(DiffMode::Off), ["write_file"]);

    let edit_params = |mode| tool_schemas(mode, SchemaApi::Plain)[1]["parameters"].clone();
    assert_eq!(
        edit_params(DiffMode::SearchReplaceMulti)["required"],
        json!(["edits"])
    );
    assert_eq!(
        edit_params(DiffMode::SearchReplaceMulti)["properties"]["edits"]["items"]["required"],
        json!(["path", "old_string", "new_string"])
    );
    assert_eq!(
        edit_params(DiffMode::SearchReplace)["required"],
        json!(["path", "old_string", "new_string"])
    );
    assert_eq!(
        edit_params(DiffMode::Anchored)["required"],
        json!(["path", "changes"])
    );
    assert_eq!(
        edit_params(DiffMode::Anchored)["properties"]["changes"]["items"]["properties"]["start"]
            ["maxItems"],
        json!(4)
    );

    let plain = &tool_schemas(DiffMode::SearchReplaceMulti, SchemaApi::Plain)[1];
    let openai = &tool_schemas(DiffMode::SearchReplaceMulti, SchemaApi::Openai)[1];
    assert_eq!(openai["type"], "function");
    assert_eq!(openai["function"], *plain);
    let responses = &tool_schemas(DiffMode::SearchReplaceMulti, SchemaApi::OpenaiResponses)[1];
    // The Responses API's tools are strict: every property required, optional ones nullable.
    assert_eq!(
        (responses["type"].as_str(), &responses["strict"]),
        (Some("function"), &json!(true))
    );
    let item = &responses["parameters"]["properties"]["edits"]["items"];
    assert_eq!(
        item["required"],
        json!(["path", "old_string", "new_string", "replace_all"])
    );
    assert_eq!(
        item["properties"]["replace_all"]["type"],
        json!(["boolean", "null"])
    );
    assert_eq!(
        item["properties"]["path"],
        plain["parameters"]["properties"]["edits"]["items"]["properties"]["path"]
    );
    let anthropic = &tool_schemas(DiffMode::SearchReplaceMulti, SchemaApi::Anthropic)[1];
    assert_eq!(anthropic["input_schema"], plain["parameters"]);
    assert!(anthropic.get("parameters").is_none());

    // The JSON text keeps the reading order: path, old_string, new_string.
    let text = editblocks::tools::tool_schemas_json(DiffMode::SearchReplace, SchemaApi::Anthropic);
    let at = |key: &str| text.find(&format!("\"{key}\": {{")).unwrap();
    assert!(
        at("path") < at("old_string")
            && at("old_string") < at("new_string")
            && at("new_string") < at("replace_all")
    );
    for mode in [
        DiffMode::SearchReplaceMulti,
        DiffMode::SearchReplace,
        DiffMode::Anchored,
        DiffMode::Off,
    ] {
        for api in [
            SchemaApi::Plain,
            SchemaApi::Openai,
            SchemaApi::OpenaiResponses,
            SchemaApi::Anthropic,
        ] {
            let parsed: Value =
                serde_json::from_str(&editblocks::tools::tool_schemas_json(mode, api)).unwrap();
            assert_eq!(parsed, Value::Array(tool_schemas(mode, api)));
        }
        assert_eq!(
            editblocks::tools::tool_defs(mode).len(),
            if mode == DiffMode::Off { 1 } else { 2 }
        );
    }

    // Every required property exists and every property is described.
    fn check(schema: &Value, at: &str) {
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for req in schema["required"].as_array().unwrap() {
                assert!(
                    props.contains_key(req.as_str().unwrap()),
                    "{at}: required {req} missing"
                );
            }
            for (name, prop) in props {
                assert!(
                    prop["description"].as_str().is_some_and(|d| d.len() > 10),
                    "{at}.{name} undescribed"
                );
                check(prop, &format!("{at}.{name}"));
            }
        }
        if let Some(items) = schema.get("items") {
            check(items, &format!("{at}[]"));
        }
    }
    for mode in [
        DiffMode::SearchReplaceMulti,
        DiffMode::SearchReplace,
        DiffMode::Anchored,
        DiffMode::Off,
    ] {
        for tool in tool_schemas(mode, SchemaApi::Plain) {
            assert!(tool["description"].as_str().unwrap().len() > 100);
            check(&tool["parameters"], tool["name"].as_str().unwrap());
        }
    }
}

#[test]
fn calls_written_to_the_schema_apply() {
    // A call shaped exactly as each schema describes is accepted.
    let file = "a\nb\n";
    let per_mode = [
        json!({"edits": [{"path": "f", "old_string": "a", "new_string": "A", "replace_all": false}]}),
        json!({"path": "f", "old_string": "a", "new_string": "A", "replace_all": false}),
        json!({"path": "f", "changes": [{"start": ["a"], "end": ["b"], "content": ["A", "b"]}]}),
    ];
    for args in per_mode {
        let mut host = MemoryHost::with_files([("f", file)]);
        let result = apply_tool_calls(
            &[ToolCall::new("edit_file", args.clone())],
            &mut host,
            &ToolOptions::default(),
        );
        assert!(result.ok, "{args}: {:?}", result.errors);
        assert_eq!(host.text("f").unwrap(), "A\nb\n");
    }
}

#[test]
fn retry_context_block() {
    let mut host = MemoryHost::with_files([("a.py", "x = 1\nx = 1\n")]);
    let calls = [ToolCall::new(
        "edit_file",
        json!(r#"{"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}"#.to_string()),
    )];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    let input: RetryInput = serde_json::from_value(serde_json::to_value(&result).unwrap()).unwrap();
    let block = retry_context(&input);
    let expected_error = "- call 1 (edit_file), a.py: old_string is not unique (lines 1 and 2); include more surrounding lines so it matches one place only, or set replace_all to change every occurrence.\n";
    assert!(block.starts_with("@retry_context\n"), "{block}");
    assert!(block.ends_with("@end retry_context\n"), "{block}");
    assert!(block.contains(expected_error), "{block}");
    // The calls come back as JSON, string arguments parsed.
    assert!(block.contains("\"old_string\": \"x = 1\""), "{block}");
    assert_eq!(
        retry_context(&RetryInput {
            ok: true,
            ..RetryInput::default()
        }),
        ""
    );
}

#[test]
fn status_column() {
    let rows = [
        (Some("a"), Local::Text("a"), None, ""),
        (Some("a"), Local::Text("a"), Some("b"), "M"),
        (None, Local::Missing, Some("b"), "A"),
        (Some("a"), Local::Text("changed"), None, "~"),
        (Some("a"), Local::Text("changed"), Some("b"), "~M"),
        // Seed 002: `~M` is "local differs from context AND LLM has output",
        // even output identical to the context.
        (
            Some("v1\n"),
            Local::Text("v1 + user edit\n"),
            Some("v1\n"),
            "~M",
        ),
        (Some("v1\n"), Local::Missing, Some("v1\n"), "~M"),
        (Some("v1\n"), Local::Text("v1\n"), Some("v1\n"), ""),
    ];
    for (context, local, output, want) in rows {
        assert_eq!(
            file_status(context, local, output),
            want,
            "{context:?} {local:?} {output:?}"
        );
    }
}

#[test]
fn prompt_carries_the_guidance() {
    let prompt = system_prompt();
    for needle in [
        "write_file",
        "edit_file",
        "1-4 lines",
        "must not overlap",
        "five lines",
        "Do not use write_file and edit_file on the same file",
        "@retry_context",
        "signatures",
        "exactly once",
        "replace_all",
    ] {
        assert!(prompt.contains(needle), "prompt lacks {needle:?}");
    }
    assert!(!system_prompt_for(DiffMode::SearchReplaceMulti).contains("start and end are anchors"));
    assert!(!system_prompt_for(DiffMode::Off).contains("edit_file"));
    assert_eq!(editblocks::system_prompt("tools"), Some(prompt));
}

#[cfg(not(target_arch = "wasm32"))]
mod no_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::prop_support::config(300))]

        #[test]
        fn matching_never_panics(content in "[ \ta-c{}\n\u{e9}\u{3000}]{0,60}", old in "[ \ta-c{}\n\u{e9}]{0,12}", new in "[ \tx{}\n]{0,12}") {
            if let Ok(m) = editblocks::locate::find_unique_tolerant(&content, &old, &new) {
                prop_assert!(content.is_char_boundary(m.start) && content.is_char_boundary(m.end) && m.start <= m.end);
            }
            if let Ok(all) = editblocks::locate::find_all_tolerant(&content, &old, &new) {
                prop_assert!(all.windows(2).all(|w| w[0].end <= w[1].start));
            }
        }

        #[test]
        fn apply_never_panics(content in "[ a-c{}\n]{0,40}", start in "[ a-c{}]{0,6}", end in "[ a-c}]{0,4}", old in "[ a-c\n]{0,8}") {
            let mut host = MemoryHost::with_files([("f", content.as_str())]);
            let calls = [
                ToolCall::new("edit_file", json!({"path": "f", "changes": [{"start": [start], "end": [end], "content": ["z"]}, {"start": ["a"], "content": []}]})),
                ToolCall::new("edit_file", json!({"edits": [{"path": "f", "old_string": old, "new_string": "q", "replace_all": true}]})),
            ];
            let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
            if !result.ok {
                prop_assert_eq!(host.text("f").unwrap(), content);
            }
        }

        /// Shell commands built from the pieces of the accepted shapes and
        /// their near misses: never a panic, and a refused call writes nothing.
        #[test]
        fn shell_calls_never_panic(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "apply_patch", "applypatch", " ", "<<", "'EOF'", "\"EOF\"", "EOF", "\n", "cd ", "é", "&&", ";", "|", "$(", "'", "\"",
                "*** Begin Patch\n", "*** End Patch\n", "*** Update File: f\n", "*** Add File: g\n", "*** Delete File: f\n",
                "*** Move to: h\n", "@@\n", "-a\n", "+b\n", " a\n", "web", "..", "/",
            ]), 0..24),
            argv in any::<bool>(),
            workdir in prop::option::of("[a-z./é~]{0,6}"),
        ) {
            let script: String = pieces.concat();
            let command = if argv { json!(["bash", "-lc", script]) } else { json!(script) };
            let mut args = json!({ "command": command });
            if let Some(dir) = workdir {
                args["workdir"] = json!(dir);
            }
            let before = [("f", "a\n"), ("web/f", "a\n")];
            let mut host = MemoryHost::with_files(before);
            let result = apply_tool_calls(&[ToolCall::new("shell", args)], &mut host, &ToolOptions::default());
            if !result.ok {
                prop_assert!(host.changes().is_empty());
                for (path, text) in before {
                    prop_assert_eq!(host.text(path), Some(text.to_string()));
                }
            }
        }
    }
}

#[test]
fn gemini_schemas_leave_out_additional_properties() {
    fn keys(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => map.iter().for_each(|(k, x)| {
                out.push(k.clone());
                keys(x, out)
            }),
            Value::Array(items) => items.iter().for_each(|x| keys(x, out)),
            _ => {}
        }
    }
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("additionalProperties");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    assert_eq!(SchemaApi::from_name("gemini"), Some(SchemaApi::Gemini));
    for mode in [
        DiffMode::SearchReplaceMulti,
        DiffMode::SearchReplace,
        DiffMode::Anchored,
        DiffMode::Off,
    ] {
        let gemini = tool_schemas(mode, SchemaApi::Gemini);
        let mut plain = tool_schemas(mode, SchemaApi::Plain);
        assert!(!gemini.is_empty());
        let mut all = Vec::new();
        keys(&Value::Array(gemini.clone()), &mut all);
        assert!(!all.iter().any(|k| k == "additionalProperties"), "{mode:?}");
        // Nothing else changes, but the key: Gemini's `parametersJsonSchema`
        // takes JSON Schema (its `parameters` wants the SDK's enum-typed Schema).
        plain.iter_mut().for_each(strip);
        for tool in plain.iter_mut() {
            let schema = tool.as_object_mut().unwrap().remove("parameters").unwrap();
            tool.as_object_mut()
                .unwrap()
                .insert("parametersJsonSchema".into(), schema);
        }
        assert_eq!(gemini, plain, "{mode:?}");
        // The text keeps the reading order.
        let text = editblocks::tools::tool_schemas_json(mode, SchemaApi::Gemini);
        assert!(text.find("\"path\"").unwrap() < text.find("\"required\"").unwrap());
    }
}

#[test]
fn anchor_messages_say_what_is_wrong() {
    let file =
        "import os\n\ndef hello():\n    print(\"hi\")\n\ndef goodbye():\n    print(\"bye\")\n";
    let run = |changes: Value| {
        let mut host = MemoryHost::with_files([("m.py", file)]);
        let r = apply_tool_calls(
            &[ToolCall::new(
                "modify_file",
                json!({ "path": "m.py", "changes": changes }),
            )],
            &mut host,
            &ToolOptions::default(),
        );
        assert!(!r.ok);
        assert_eq!(host.text("m.py").unwrap(), file);
        r.errors[0].clone()
    };
    assert_eq!(
        run(json!([{ "start": ["def goodbye():"], "end": ["def hello():"], "content": [] }])),
        "call 1 (modify_file), change 1, m.py: end anchor `def hello():` is only before the start anchor (at line 3; start is line 6): the end anchor must come after start. Swap them, or anchor on lines after line 6."
    );
    assert_eq!(
        run(json!([{ "start": [""], "content": ["# x"] }])),
        "call 1 (modify_file), change 1, m.py: start anchor not unique (lines 2 and 5): a blank line matches more than one place; use a more distinctive line, such as a function signature, or add lines to the anchor (up to 4)."
    );
}

#[test]
fn escaped_tool_call_text_is_read_unescaped_in_tolerant_matching_only() {
    let file = "let s = \"a\\\\b\";\nlet t = 'x';\n";
    // The model escaped the text once more: `\\\\` for `\\`, `\\'`, and `\\n` between lines.
    let calls = [multi(vec![edit(
        "f.rs",
        "let s = \\\"a\\\\\\\\b\\\";\\nlet t = \\'x\\';",
        "let s = \\\"a\\\\\\\\c\\\";\\nlet t = \\'y\\';",
    )])];
    let (assumed, after) = refused_exact_then_tolerant(&calls, "f.rs", file);
    assert_eq!(assumed, ["unescaped"]);
    assert_eq!(after, "let s = \"a\\\\c\";\nlet t = 'y';\n");
    // Unique only: two places that match once unescaped are ambiguous, and nothing changes.
    let twice = "x = 'a'\nx = 'a'\n";
    let calls = [multi(vec![edit("g.py", "x = \\'a\\'", "x = \\'b\\'")])];
    let mut host = MemoryHost::with_files([("g.py", twice)]);
    assert!(!apply_tool_calls(&calls, &mut host, &ToolOptions::default()).ok);
    assert_eq!(host.text("g.py").unwrap(), twice);
}

/// A session as a Rust caller keeps it: every text, updated after each reply.
fn run_with_session(
    calls: &[ToolCall],
    host: &mut MemoryHost,
    session: &mut BTreeMap<String, FileHistory>,
) -> ToolApplyResult {
    let options = ToolOptions {
        history: session.clone(),
        ..ToolOptions::default()
    };
    let result = apply_tool_calls(calls, host, &options);
    for (path, update) in result.history.clone() {
        session.entry(path).or_default().apply(update);
    }
    result
}

fn editor(input: serde_json::Value) -> ToolCall {
    ToolCall::from_value(&json!({"type": "tool_use", "id": "t", "name": "str_replace_based_edit_tool", "input": input}))
        .unwrap()
}

#[test]
fn undo_edit_goes_back_through_the_history_it_is_given_and_returns_the_new_one() {
    use editblocks::tools::HISTORY_DEPTH;
    let undo = |path: &str| editor(json!({"command": "undo_edit", "path": path}));
    let mut host = MemoryHost::with_files([("a.txt", "now\r\n")]);
    let mut session = BTreeMap::new();
    session.insert(
        "a.txt".to_string(),
        FileHistory {
            before: vec![None, Some("zero\r\none\r\n".into())],
            ..FileHistory::default()
        },
    );
    let result = run_with_session(&[undo("a.txt")], &mut host, &mut session);
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(
        host.text("a.txt").unwrap(),
        "zero\r\none\r\n",
        "the earlier text, byte for byte"
    );
    assert_eq!(session["a.txt"].before, vec![None]);
    // The oldest entry says the file did not exist: undoing it deletes the file.
    let result = run_with_session(&[undo("a.txt")], &mut host, &mut session);
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(host.text("a.txt"), None);
    assert_eq!(result.files_deleted, vec!["a.txt".to_string()]);
    // Every change pushes the text before it; the history keeps the last HISTORY_DEPTH.
    let mut host = MemoryHost::with_files([("b.txt", "0\n")]);
    let mut session = BTreeMap::new();
    for i in 0..HISTORY_DEPTH + 5 {
        let call = editor(
            json!({"command": "str_replace", "path": "b.txt", "old_str": format!("{i}\n"), "new_str": format!("{}\n", i + 1)}),
        );
        let result = run_with_session(&[call], &mut host, &mut session);
        assert!(result.ok, "{:?}", result.errors);
        // A reply hands back the text before its own change only.
        assert_eq!(result.history["b.txt"].pushed, vec![Some(format!("{i}\n"))]);
    }
    let kept = &session["b.txt"].before;
    assert_eq!(kept.len(), HISTORY_DEPTH);
    assert_eq!(
        kept.last().unwrap().as_deref(),
        Some(format!("{}\n", HISTORY_DEPTH + 4).as_str())
    );
}

#[test]
fn a_reply_is_given_only_the_texts_its_undos_go_back_to() {
    let calls = [
        editor(json!({"command": "undo_edit", "path": "./a.txt"})),
        editor(json!({"command": "undo_edit", "path": "a.txt"})),
        editor(json!({"command": "str_replace", "path": "b.txt", "old_str": "x", "new_str": "y"})),
        editor(json!({"command": "undo_edit", "path": "../out.txt"})),
    ];
    let counts = editblocks::tools::tool_undo_counts(&calls, &ToolOptions::default());
    assert_eq!(counts, BTreeMap::from([("a.txt".to_string(), 2)]));
    // Given the two most recent of five texts (the session holds five), two
    // undos go back two steps; the session is told to take two off the end.
    let mut host = MemoryHost::with_files([("a.txt", "5\n")]);
    let given = FileHistory {
        before: vec![Some("3\n".into()), Some("4\n".into())],
        depth: 5,
        written: Some(editblocks::tools::fingerprint(Some(b"5\n"))),
    };
    let options = ToolOptions {
        history: BTreeMap::from([("a.txt".to_string(), given)]),
        ..ToolOptions::default()
    };
    let result = apply_tool_calls(&calls[..2], &mut host, &options);
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(host.text("a.txt").unwrap(), "3\n");
    let update = &result.history["a.txt"];
    assert_eq!(
        (update.undone, update.pushed.len(), update.drop_oldest),
        (2, 0, 0)
    );
    assert_eq!(update.written, editblocks::tools::fingerprint(Some(b"3\n")));
}

#[test]
fn undo_edit_refuses_when_another_writer_changed_the_file_since() {
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let mut session = BTreeMap::new();
    let edit = editor(
        json!({"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"}),
    );
    assert!(run_with_session(&[edit], &mut host, &mut session).ok);
    // Another writer adds a line after the edit.
    host.files
        .insert("a.txt".into(), b"two\nadded by another writer\n".to_vec());
    let undo = editor(json!({"command": "undo_edit", "path": "a.txt"}));
    let result = run_with_session(std::slice::from_ref(&undo), &mut host, &mut session);
    assert!(!result.ok);
    assert_eq!(
        result.results[0].edit.error_kind,
        Some(ErrorKind::FileChanged)
    );
    assert_eq!(
        result.call_results[0].output,
        "a.txt changed after the last edit made through this edit session (another writer changed it), so undo_edit would discard that change; nothing was undone. View the file and change it with str_replace or insert."
    );
    assert_eq!(
        host.text("a.txt").unwrap(),
        "two\nadded by another writer\n",
        "left as it was"
    );
    assert_eq!(session["a.txt"].before.len(), 1, "the history is kept");
    // Once the file holds what the session wrote again, undo goes back.
    host.files.insert("a.txt".into(), b"two\n".to_vec());
    assert!(run_with_session(std::slice::from_ref(&undo), &mut host, &mut session).ok);
    assert_eq!(host.text("a.txt").unwrap(), "one\n");
    // An edit and an undo in one reply undo that edit, whatever the file held before.
    let mut host = MemoryHost::with_files([("b.txt", "one\n")]);
    let mut session = BTreeMap::new();
    let edit = editor(
        json!({"command": "str_replace", "path": "b.txt", "old_str": "one", "new_str": "two"}),
    );
    assert!(run_with_session(std::slice::from_ref(&edit), &mut host, &mut session).ok);
    host.files.insert("b.txt".into(), b"one changed\n".to_vec());
    let undo = editor(json!({"command": "undo_edit", "path": "b.txt"}));
    let result = run_with_session(&[edit, undo], &mut host, &mut session);
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(host.text("b.txt").unwrap(), "one changed\n");
    // The texts from before the other writer's change no longer lead back
    // from what the file holds: once the reply changed it, they are dropped.
    assert_eq!(session["b.txt"].before, Vec::<Option<String>>::new());
    let undo = editor(json!({"command": "undo_edit", "path": "b.txt"}));
    let result = run_with_session(&[undo], &mut host, &mut session);
    assert_eq!(result.results[0].edit.error_kind, Some(ErrorKind::NoOp));
    assert_eq!(host.text("b.txt").unwrap(), "one changed\n");
}

/// Odd arguments to every provider tool: answered, never a panic, and a
/// refused reply changes nothing.
#[test]
fn provider_tools_answer_odd_arguments_without_panicking() {
    let files = [
        ("e.txt", ""),
        ("nl.txt", "\n"),
        ("u.txt", "é✓🙂\r\nzweite\u{200b}Zeile"),
        ("bin.dat", "a\0b"),
    ];
    let numbers = [
        json!(i64::MIN),
        json!(-2),
        json!(-1),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(i64::MAX),
        json!(1.5),
        json!(1e300),
        json!("2"),
        json!(null),
        json!([1]),
        json!({}),
    ];
    let texts = [
        json!(""),
        json!("\n"),
        json!("é"),
        json!("🙂\r\n"),
        json!(null),
        json!(7),
        json!(["a"]),
    ];
    let mut inputs: Vec<Value> = Vec::new();
    for path in [
        "e.txt",
        "nl.txt",
        "u.txt",
        "bin.dat",
        "missing.txt",
        ".",
        "",
        "../x",
        "/etc/passwd",
        "a\u{0}b",
    ] {
        for a in &numbers {
            for b in &numbers {
                inputs.push(json!({"command": "view", "path": path, "view_range": [a, b]}));
            }
            for t in &texts {
                inputs.push(
                    json!({"command": "insert", "path": path, "insert_line": a, "insert_text": t}),
                );
                inputs.push(json!({"name": "replace", "file_path": path, "old_string": t, "new_string": "x", "expected_replacements": a}));
                inputs.push(json!({"name": "read", "path": path, "start_line": a, "end_line": a}));
            }
        }
        for t in &texts {
            inputs
                .push(json!({"command": "str_replace", "path": path, "old_str": t, "new_str": t}));
            inputs.push(json!({"command": "create", "path": path, "file_text": t}));
            inputs.push(json!({"command": "undo_edit", "path": path}));
            inputs.push(json!({"apply_patch": {"type": "create_file", "path": path, "diff": t}}));
            inputs.push(json!({"apply_patch": {"type": "update_file", "path": path, "diff": t}}));
            inputs.push(json!({"apply_patch": {"type": "delete_file", "path": path}}));
            inputs.push(
                json!({"name": "edit", "path": path, "edits": [{"target": t, "new_content": [t]}]}),
            );
        }
    }
    for input in inputs {
        let call = match (
            input.get("name").and_then(Value::as_str),
            input.get("apply_patch"),
        ) {
            (_, Some(op)) => json!({"type": "apply_patch_call", "call_id": "c", "operation": op}),
            (Some(name), _) => json!({"functionCall": {"name": name, "args": input}}),
            _ => {
                json!({"type": "tool_use", "id": "t", "name": "str_replace_based_edit_tool", "input": input})
            }
        };
        let calls: Vec<ToolCall> = ToolCall::from_values(std::slice::from_ref(&call))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        let mut host = MemoryHost::with_files(files);
        let before = host.files.clone();
        let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
        assert_eq!(result.call_results.len(), 1, "{call}");
        assert!(!result.call_results[0].output.is_empty(), "{call}");
        if !result.ok {
            assert_eq!(host.files, before, "{call}");
        }
    }
}

/// A shell call's patch deletes and moves files (the fixtures list only the
/// files written), keeps a moved file's CRLF endings, and a move onto an
/// existing file applies only with `overwrite`.
#[test]
fn shell_call_patches_delete_and_move_files() {
    let patch = "*** Begin Patch\n*** Delete File: old.txt\n*** Update File: a.txt\n*** Move to: b/a.txt\n@@\n-one\n+ONE\n*** End Patch\n";
    let call = ToolCall::new("shell", json!({ "command": ["apply_patch", patch] }));
    let mut host = MemoryHost::with_files([("old.txt", "x\n"), ("a.txt", "one\r\ntwo\r\n")]);
    let result = apply_tool_calls(
        std::slice::from_ref(&call),
        &mut host,
        &ToolOptions::default(),
    );
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(host.text("old.txt"), None);
    assert_eq!(host.text("a.txt"), None);
    assert_eq!(host.text("b/a.txt").as_deref(), Some("ONE\r\ntwo\r\n"));
    assert_eq!(result.files_deleted, ["old.txt", "a.txt"]);

    let onto = "*** Begin Patch\n*** Update File: b/a.txt\n*** Move to: c.txt\n*** End Patch\n";
    let call = ToolCall::new("shell", json!({ "command": ["apply_patch", onto] }));
    let mut host = MemoryHost::with_files([("b/a.txt", "a\n"), ("c.txt", "c\n")]);
    let refused = apply_tool_calls(
        std::slice::from_ref(&call),
        &mut host,
        &ToolOptions::default(),
    );
    assert!(!refused.ok);
    assert_eq!(host.text("c.txt").as_deref(), Some("c\n"));
    let options = ToolOptions {
        overwrite: true,
        ..ToolOptions::default()
    };
    let moved = apply_tool_calls(std::slice::from_ref(&call), &mut host, &options);
    assert!(moved.ok, "{:?}", moved.errors);
    assert_eq!(host.text("c.txt").as_deref(), Some("a\n"));
    assert_eq!(host.text("b/a.txt"), None);
}

#[test]
fn apply_patch_calls_follow_the_trailing_newline_policy() {
    let call = |op: Value| {
        ToolCall::from_value(&json!({"type": "apply_patch_call", "call_id": "c", "operation": op}))
            .unwrap()
    };
    let calls = [
        call(json!({"type": "update_file", "path": "a.txt", "diff": "@@\n a\n-b\n+B\n"})),
        call(json!({"type": "create_file", "path": "n.txt", "diff": "+one\n+two"})),
    ];
    for (policy, updated) in [
        (TrailingNewline::Ensure, "a\nB\n"),
        (TrailingNewline::Preserve, "a\nB"),
    ] {
        let mut host = MemoryHost::with_files([("a.txt", "a\nb")]);
        let options = ToolOptions {
            trailing_newline: policy,
            ..ToolOptions::default()
        };
        let result = apply_tool_calls(&calls, &mut host, &options);
        assert!(
            result
                .results
                .iter()
                .all(|r| r.edit.status == Status::Applied),
            "{policy:?}: {result:?}"
        );
        assert_eq!(host.text("a.txt").unwrap(), updated, "{policy:?}");
        assert!(host.text("n.txt").unwrap().ends_with("two\n"), "{policy:?}");
    }
}

#[test]
fn an_update_file_diff_that_moves_the_file_is_refused_and_the_file_kept() {
    let call = ToolCall::from_value(
        &json!({"type": "apply_patch_call", "call_id": "c", "operation":
        {"type": "update_file", "path": "a.txt", "diff": "*** Move to: b.txt\n@@\n a\n-b\n+B\n"}}),
    )
    .unwrap();
    let mut host = MemoryHost::with_files([("a.txt", "a\nb\n")]);
    let result = apply_tool_calls(&[call], &mut host, &ToolOptions::default());
    assert!(!result.ok);
    assert_eq!(
        result.results[0].edit.error_kind,
        Some(ErrorKind::Malformed)
    );
    let reason = result.results[0].edit.reason.as_deref().unwrap_or_default();
    assert!(reason.contains("`*** Move to:`"), "{reason}");
    assert_eq!(host.text("a.txt").as_deref(), Some("a\nb\n"));
    assert_eq!(host.text("b.txt"), None);
}

#[test]
fn the_diff_mode_and_provider_tool_names_name_every_mode_once() {
    use editblocks::tools::DiffMode;
    let names: Vec<&str> = DiffMode::DIFF_MODE_NAMES
        .iter()
        .chain(&DiffMode::PROVIDER_TOOL_NAMES)
        .copied()
        .collect();
    let modes: Vec<DiffMode> = names
        .iter()
        .map(|n| DiffMode::from_name(n).unwrap_or_else(|| panic!("{n} names no mode")))
        .collect();
    for (i, mode) in modes.iter().enumerate() {
        assert!(
            !modes[..i].contains(mode),
            "{} names a mode twice",
            names[i]
        );
        // No catch-all: a new variant stops this compiling until it is
        // named here, and then the count below until it is in a list.
        match mode {
            DiffMode::SearchReplaceMulti
            | DiffMode::SearchReplace
            | DiffMode::Anchored
            | DiffMode::Off
            | DiffMode::TextEditor
            | DiffMode::TextEditor20250124
            | DiffMode::GeminiCli
            | DiffMode::Hashline
            | DiffMode::ApplyPatch => {}
        }
    }
    assert_eq!(modes.len(), 9);
    assert_eq!(
        DiffMode::from_name(DiffMode::DIFF_MODE_NAMES[0]),
        Some(DiffMode::default())
    );
}
