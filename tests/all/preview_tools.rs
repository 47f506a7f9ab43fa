//! The live preview of tool calls whose arguments stream
//! (`ToolCallPreview`), against its fixtures
//! (`tests/fixtures/preview_tools/<case>/`: `tool.txt`, `arguments.json`
//! as the model streamed it, the files under `files/`, `expected.json`):
//! the state after each line of decoded text, the events, the final state
//! and the file. Fed in any chunking (escapes and surrogate pairs split
//! anywhere), the events, final state and file are the same; the file the
//! preview composed from the streamed text equals what the tool applier
//! makes of the complete call; no input panics.
//! `UPDATE_FIXTURES=1 cargo test --test all preview_tools` writes `expected.json` for review.

use crate::fixture_support;
use fixture_support::{
    brief, case_name, check_expected, read_case_text, read_text_tree, run_cases, same,
};

use crate::parser_support;

use editblocks::preview::{PreviewState, ToolCallPreview};
use parser_support::{chunkings, cut_at};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Expected {
    /// The state after each piece of the arguments ending in an escaped
    /// newline (`\n`), repeats left out.
    states: Vec<String>,
    events: Vec<serde_json::Value>,
    #[serde(rename = "final")]
    last: String,
    content: Option<String>,
}

struct Run {
    states: Vec<String>,
    events: Vec<serde_json::Value>,
    last: PreviewState,
    content: Option<String>,
    /// The state and file just before the last chunk.
    before_last: (PreviewState, Option<String>),
}

fn run(tool: &str, files: &[(String, String)], chunks: &[&str]) -> Run {
    run_with(tool, files, chunks, false)
}

/// `lazy`: the files are given only when asked for, after each chunk (as
/// the JavaScript wrapper gives them from a host).
fn run_with(tool: &str, files: &[(String, String)], chunks: &[&str], lazy: bool) -> Run {
    let mut p = if lazy {
        ToolCallPreview::new(tool)
    } else {
        ToolCallPreview::with_files(tool, files.iter().cloned())
    };
    let mut states: Vec<String> = Vec::new();
    let mut events = Vec::new();
    let mut before_last = (PreviewState::Waiting, None);
    for (i, c) in chunks.iter().enumerate() {
        if i + 1 == chunks.len() {
            before_last = (p.state(), p.content_after());
        }
        events.extend(p.feed(c));
        while let (true, Some(want)) = (lazy, p.wanted_file()) {
            let content = files
                .iter()
                .find(|(f, _)| *f == want)
                .map(|(_, c)| c.as_str());
            events.extend(p.provide_file(&want, content));
        }
        let s = brief(&p.state());
        if states.last() != Some(&s) {
            states.push(s);
        }
    }
    events.extend(p.finish());
    Run {
        states,
        events: events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect(),
        last: p.state(),
        content: p.content_after(),
        before_last,
    }
}

/// The arguments cut after every escaped newline.
fn by_line(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = args;
    while let Some(i) = rest.find("\\n") {
        out.push(&rest[..i + 2]);
        rest = &rest[i + 2..];
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

#[test]
fn tool_fixtures_give_their_states_in_any_chunking() {
    run_cases("preview_tools", 12, |case| {
        let name = case_name(case);
        let tool = read_case_text(case, "tool.txt")?;
        let tool = tool.trim();
        let args = read_case_text(case, "arguments.json")?;
        let files = read_text_tree(&case.join("files"));
        let r = run(tool, &files, &by_line(&args));
        let actual = Expected {
            states: r.states,
            events: r.events,
            last: brief(&r.last),
            content: r.content,
        };
        let Some(expected) = check_expected(case, &actual)? else {
            return Ok(());
        };
        for (k, chunks) in chunkings(&args, 0x7001_ca11, 40, 7).iter().enumerate() {
            // Every other run is given the files only when it asks for them.
            let lazy = k % 2 == 1;
            let c = run_with(tool, &files, chunks, lazy);
            same(
                (&c.events, brief(&c.last), &c.content),
                (&expected.events, expected.last.clone(), &expected.content),
                format!("{name}: chunks {chunks:?} (files given when asked: {lazy})"),
            )?;
        }
        Ok(())
    });
}

/// A file of lines from a small set (old text often occurs at several
/// places), and an edit whose old text is a run of its lines, sometimes changed.
fn edit_case() -> impl Strategy<Value = (String, String, String, bool, Vec<usize>)> {
    let words = ["a", "b", "}", "", "  x = 1", "fn f() {", "c é", "😀 d"];
    (
        prop::collection::vec(0..words.len(), 1..30),
        0usize..30,
        1usize..5,
        0usize..4,
        prop::bool::ANY,
        prop::collection::vec(1usize..12, 1..60),
    )
        .prop_map(move |(idx, at, n, change, all, cuts)| {
            let lines: Vec<&str> = idx.iter().map(|&i| words[i]).collect();
            let file = lines.join("\n") + "\n";
            let at = at % lines.len();
            let n = n.min(lines.len() - at);
            let mut old: Vec<String> = lines[at..at + n].iter().map(|s| s.to_string()).collect();
            if change == 1 {
                old[n / 2].push('!');
            }
            let old = old.join("\n") + if change == 2 { "" } else { "\n" };
            (
                file,
                old,
                "new \"text\"\n\u{1F600}\n".to_string(),
                all,
                cuts,
            )
        })
}

/// `s` as a JSON string with every non-ASCII character and some ASCII ones
/// escaped as `\uXXXX` (surrogate pairs for astral characters), so that
/// chunk cuts land inside escapes.
fn escaped(s: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if !c.is_ascii() || i % 5 == 0 => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_chunking_gives_the_same_preview((file, old, new, all, cuts) in edit_case()) {
        let args = format!(
            "{{\"path\": \"f.txt\", \"old_string\": {}, \"new_string\": {}, \"replace_all\": {all}}}",
            escaped(&old),
            escaped(&new)
        );
        let files = vec![("f.txt".to_string(), file.clone())];
        let whole = run("edit_file", &files, &[&args]);
        let chunked = run("edit_file", &files, &cut_at(&args, &cuts));
        prop_assert_eq!(&chunked.events, &whole.events);
        prop_assert_eq!(&chunked.last, &whole.last);
        prop_assert_eq!(&chunked.content, &whole.content);
        let lines = run("edit_file", &files, &by_line(&args));
        prop_assert_eq!(&lines.events, &whole.events);
        let lazy = run_with("edit_file", &files, &cut_at(&args, &cuts), true);
        prop_assert_eq!(&lazy.events, &whole.events);
        prop_assert_eq!(&lazy.content, &whole.content);
        // What the preview composed before the call closed is what the applier made.
        if let ((PreviewState::Located { .. }, Some(before)), PreviewState::Located { .. }) =
            (&chunked.before_last, &chunked.last)
        {
            prop_assert_eq!(Some(before), chunked.content.as_ref());
        }
        // Events at most one of each, and a located edit is never unmatched at the end.
        let located = whole.events.iter().filter(|e| e["type"] == "block-located").count();
        let unmatched = whole.events.iter().filter(|e| e["type"] == "block-unmatched").count();
        prop_assert!(located <= 1 && unmatched <= 1);
        if unmatched == 1 {
            prop_assert!(!matches!(whole.last, PreviewState::Located { .. }), "{:?}", whole.events);
        }
    }

    #[test]
    fn hostile_arguments_do_not_panic(s in "\\PC{0,200}", cuts in prop::collection::vec(1usize..9, 1..20)) {
        let files = vec![("f.txt".to_string(), "a\nb\n".to_string())];
        let _ = run("edit_file", &files, &cut_at(&s, &cuts));
        let json_ish = format!("{{\"path\":\"f.txt\",\"old_string\":\"{s}");
        let _ = run("edit_file", &files, &cut_at(&json_ish, &cuts));
    }
}

/// A file the host refused to read (a link leading out of the root) is
/// given as that refusal, and the preview says what the applier says of
/// it: path-escape, not "the file does not exist".
#[test]
fn a_refused_read_gives_the_appliers_verdict() {
    use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
    use editblocks::MemoryHost;
    let refusal = "refused \"out.txt\": a symbolic link leads outside the project root";
    for (tool, args) in [
        (
            "edit_file",
            r#"{"path":"out.txt","old_string":"a\n","new_string":"b\n"}"#,
        ),
        (
            "str_replace_based_edit_tool",
            r#"{"command":"str_replace","path":"out.txt","old_str":"a\n","new_str":"b\n"}"#,
        ),
    ] {
        let mut host = MemoryHost::new();
        host.unreadable.insert("out.txt".into(), refusal.into());
        host.escapes.insert("out.txt".into());
        let call = ToolCall::new(tool, serde_json::from_str(args).unwrap());
        let applied = apply_tool_calls(&[call], &mut host, &ToolOptions::default());
        let expected = &applied.results[0].edit;
        assert_eq!(expected.error_kind.map(|k| k.as_str()), Some("path-escape"));

        let mut p = ToolCallPreview::new(tool);
        let mut events = p.feed(args);
        let wanted = p.wanted_file();
        assert_eq!(wanted.as_deref(), Some("out.txt"), "{tool}");
        events.extend(p.provide_refused("out.txt", refusal, true));
        events.extend(p.finish());
        match p.state() {
            PreviewState::NoMatch {
                error_kind, reason, ..
            } => {
                assert_eq!(error_kind, "path-escape", "{tool}");
                assert_eq!(Some(reason), expected.reason.clone(), "{tool}");
            }
            other => panic!("{tool}: {other:?}"),
        }
        assert!(!events.is_empty(), "{tool}: {events:?}");
    }
}
