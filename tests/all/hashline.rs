//! Core behaviour of hashline edits beyond the fixtures: neighbouring
//! operations, what the success message promises, host failures, staging.

use editblocks::hashline::{apply_hashline_edit, format_hashlines, line_id, HashlineOptions};
use editblocks::{ErrorKind, Status};
use editblocks::{HostOp, MemoryHost, Undo};
use serde_json::{json, Value};

fn a(lines: &str, n: usize) -> String {
    format!("{n}#{}", line_id(lines.lines().nth(n - 1).unwrap(), 3))
}

fn run(text: &str, edits: Value) -> (editblocks::hashline::HashlineResult, MemoryHost) {
    let mut host = MemoryHost::with_files([("f.txt", text)]);
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "edits": edits }),
        &mut host,
        &HashlineOptions::default(),
    );
    (r, host)
}

const TEN: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

#[test]
fn neighbouring_operations_are_not_overlaps() {
    let (r, host) = run(
        TEN,
        json!([
            { "target": a(TEN, 2), "new_content": null },
            { "target": a(TEN, 3), "new_content": ["three"] },
            { "after": a(TEN, 5), "inserted_lines": ["5.5"] },
            { "target": a(TEN, 6), "new_content": ["six"] },
            { "before": a(TEN, 1), "inserted_lines": ["0"] },
            { "after": a(TEN, 10), "inserted_lines": ["11"] }
        ]),
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(
        host.text("f.txt").unwrap(),
        "0\n1\nthree\n4\n5\n5.5\nsix\n7\n8\n9\n10\n11\n"
    );
}

#[test]
fn two_inserts_into_one_gap_are_refused() {
    let (r, host) = run(
        TEN,
        json!([
            { "after": a(TEN, 4), "inserted_lines": ["x"] },
            { "before": a(TEN, 5), "inserted_lines": ["y"] }
        ]),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::Overlap));
    assert_eq!(r.operation, Some(1));
    assert!(r.message.contains("edits[0] (insert between lines 4 and 5) overlaps edits[1] (insert between lines 4 and 5)"), "{}", r.message);
    assert!(host.ops.is_empty());
}

#[test]
fn success_message_anchors_are_valid_in_the_new_file() {
    let (r, host) = run(
        TEN,
        json!([
            { "first": a(TEN, 4), "last": a(TEN, 5), "new_content": ["four", "five", "five and a half"] },
            { "target": a(TEN, 9), "new_content": null }
        ]),
    );
    assert_eq!(r.status, Status::Applied);
    assert_eq!(r.line, Some(4));
    let now = host.text("f.txt").unwrap();
    let view = format_hashlines(&now, 1, None, 3);
    let shown: Vec<&str> = r.message.lines().filter(|l| l.contains('|')).collect();
    assert!(shown.len() >= 5, "{}", r.message);
    for line in shown {
        assert!(
            view.lines().any(|v| v == line),
            "{line:?} is not in the new view:\n{view}"
        );
    }
}

#[test]
fn several_stale_anchors_are_all_listed_with_context() {
    let now = TEN.replace("3\n", "three\n").replace("8\n", "eight\n");
    let mut host = MemoryHost::with_files([("f.txt", now.as_str())]);
    let call = json!({ "path": "f.txt", "edits": [
        { "target": a(TEN, 8), "new_content": ["x"] },
        { "target": a(TEN, 3), "new_content": ["y"] },
        { "after": a(TEN, 5), "inserted_lines": ["z"] }
    ]});
    let r = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
    assert_eq!(r.error_kind, Some(ErrorKind::StaleAnchor));
    assert_eq!(r.stale.iter().map(|s| s.line).collect::<Vec<_>>(), [3, 8]);
    let body = r
        .message
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("Retry"))
        .collect::<Vec<_>>();
    let expected: Vec<String> = (1..=10)
        .map(|n| {
            let text = now.lines().nth(n - 1).unwrap();
            let mark = if n == 3 || n == 8 { ">>> " } else { "    " };
            format!("{mark}{n}#{}|{text}", line_id(text, 3))
        })
        .collect();
    assert_eq!(
        body, expected,
        "lines 1-5 and 6-10 touch, so no '...' between them"
    );
    assert!(host.ops.is_empty());
}

#[test]
fn binary_files_and_failing_hosts_are_refused_cleanly() {
    let mut host = MemoryHost::new();
    host.files.insert("bin".into(), b"a\0b\n".to_vec());
    let r = apply_hashline_edit(
        &json!({ "path": "bin", "edits": [{ "target": "1#abc", "new_content": ["x"] }] }),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::Binary));

    let mut host = MemoryHost::with_files([("f.txt", TEN)]);
    host.unreadable
        .insert("f.txt".into(), "permission denied".into());
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "edits": [{ "target": a(TEN, 1), "new_content": ["x"] }] }),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::HostError));
    assert!(r.message.contains("permission denied"));

    // A host that cannot delete: the rename's new file is written, and the message says what is left to do.
    let mut host = MemoryHost::with_files([("f.txt", TEN)]);
    host.can_delete = false;
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "rename": "g.txt", "edits": [] }),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::HostError));
    assert!(
        r.message.contains("Delete f.txt to finish the rename"),
        "{}",
        r.message
    );
}

#[test]
fn staging_and_overwrite() {
    let mut host = MemoryHost::with_files([("f.txt", TEN), ("g.txt", "old\n")]);
    let options = HashlineOptions {
        stage: true,
        overwrite: true,
        ..HashlineOptions::default()
    };
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "rename": "g.txt", "edits": [] }),
        &mut host,
        &options,
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(r.files_modified, ["g.txt"]);
    assert_eq!(
        host.ops,
        vec![
            // Each change says how it would be put back: both files were text.
            HostOp::Write {
                path: "g.txt".into(),
                content: TEN.into(),
                undo: Undo::WriteBackText,
            },
            HostOp::Delete {
                path: "f.txt".into(),
                undo: Undo::WriteBackText,
            },
            HostOp::Stage {
                paths: vec!["g.txt".into(), "f.txt".into()]
            },
        ]
    );
}

#[test]
fn content_replace_across_lines_and_at_the_end() {
    let options = HashlineOptions {
        allow_replace_text: true,
        ..HashlineOptions::default()
    };
    let mut host = MemoryHost::with_files([("f.txt", "a\nb\nc")]);
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "edits": [{ "old_text": "b\nc", "new_text": "bc" }] }),
        &mut host,
        &options,
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(host.text("f.txt").unwrap(), "a\nbc");

    let mut host = MemoryHost::with_files([("f.txt", "keep\ndrop\nkeep\n")]);
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "edits": [{ "old_text": "drop\n", "new_text": "" }] }),
        &mut host,
        &options,
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(host.text("f.txt").unwrap(), "keep\nkeep\n");

    let mut host = MemoryHost::with_files([("f.txt", "x\n")]);
    let r = apply_hashline_edit(
        &json!({ "path": "f.txt", "edits": [{ "old_text": "y", "new_text": "z" }] }),
        &mut host,
        &options,
    );
    assert_eq!(r.error_kind, Some(ErrorKind::AnchorNotFound));
}

#[test]
fn an_edit_that_ends_where_it_started_is_a_no_op() {
    let text = "a\nb\n";
    let (r, _) = run(
        text,
        json!([{ "first": a(text, 1), "last": a(text, 2), "new_content": ["a", "b"] }]),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::NoOp));
    let (r, _) = run(text, json!([]));
    assert_eq!(r.error_kind, Some(ErrorKind::NoOp));
}

#[test]
fn a_call_as_json_text_and_a_large_change() {
    let lines: String = (1..=100).map(|i| format!("row {i}\n")).collect();
    let mut host = MemoryHost::with_files([("f.txt", lines.as_str())]);
    let replacement: Vec<String> = (1..=90).map(|i| format!("new {i}")).collect();
    let call = json!({ "path": "f.txt", "edits": [{ "first": a(&lines, 1), "last": a(&lines, 90), "new_content": replacement }] });
    let r = apply_hashline_edit(
        &Value::String(call.to_string()),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert!(r.message.contains("read f.txt again"), "{}", r.message);
    let r = apply_hashline_edit(
        &Value::String("{\"path\": \"f.txt\", \"edits\": 3}".into()),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(
        (r.error_kind, r.path.as_str()),
        (Some(ErrorKind::Malformed), "f.txt")
    );
}

#[test]
fn a_final_newline_in_content_ends_its_last_line() {
    let file = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    let want = "def a():\n    x = 1\n    return x\n\ndef b():\n    return 2\n";
    // One string ending in "\n", and array items ending in "\n" (CRLF too).
    for content in [
        json!("    x = 1\n    return x\n"),
        json!(["    x = 1\n", "    return x\n"]),
        json!("    x = 1\r\n    return x\r\n"),
    ] {
        let (r, host) = run(
            file,
            json!([{ "target": a(file, 2), "new_content": content }]),
        );
        assert_eq!(r.status, Status::Applied, "{}", r.message);
        assert_eq!(host.text("f.txt").unwrap(), want, "new_content {content}");
    }
    let (r, host) = run(
        file,
        json!([{ "after": a(file, 2), "inserted_lines": "    pass\n" }]),
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(
        host.text("f.txt").unwrap(),
        "def a():\n    return 1\n    pass\n\ndef b():\n    return 2\n"
    );
    // A blank line is still a blank line, however it is written.
    for blank in [json!([""]), json!(["\n"]), json!("\n")] {
        let (r, host) = run(
            file,
            json!([{ "after": a(file, 1), "inserted_lines": blank }]),
        );
        assert_eq!(r.status, Status::Applied, "{}", r.message);
        assert_eq!(
            host.text("f.txt").unwrap(),
            "def a():\n\n    return 1\n\ndef b():\n    return 2\n",
            "inserted_lines {blank}"
        );
    }
}

#[test]
fn a_call_deletes_a_file_when_it_deletes_or_renames_as_the_call_is_read() {
    use editblocks::hashline::deletes_a_file;
    assert!(deletes_a_file(&json!({"path": "a.txt", "delete": true})));
    assert!(deletes_a_file(
        &json!({"path": "a.txt", "rename": "b.txt", "edits": []})
    ));
    // Its JSON text reads the same.
    assert!(deletes_a_file(&json!(
        r#"{"path": "a.txt", "delete": true}"#
    )));
    // A blank rename is no rename (the call is refused); not JSON, no call.
    assert!(!deletes_a_file(
        &json!({"path": "a.txt", "rename": "  ", "edits": []})
    ));
    assert!(!deletes_a_file(
        &json!({"path": "a.txt", "delete": false, "edits": []})
    ));
    assert!(!deletes_a_file(&json!("{not json")));
    assert!(!deletes_a_file(&json!({"path": "a.txt", "edits": []})));
}
