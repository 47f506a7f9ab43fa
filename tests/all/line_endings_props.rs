//! In a file with mixed line endings, every line an edit does not replace
//! keeps its own bytes, its own ending included.

use crate::prop_support;

use editblocks::engine::{apply_to_content, ApplyOptions};
use editblocks::hashline::{apply_hashline_edit, line_id, HashlineOptions};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format, Status};
use proptest::prelude::*;
use serde_json::json;

fn block(old: &str, new: &str) -> EditBlock {
    EditBlock::new(Format::SearchReplace, "f.txt", old, new)
}

#[test]
fn the_reported_case() {
    // The surviving `a` had LF; it used to come back with the first `a`'s CRLF.
    let (out, r) = apply_to_content(&block("a\nb", ""), "a\r\nb\na\n", &ApplyOptions::default());
    assert_eq!(r.status, Status::Applied);
    assert_eq!(out, "a\n");
    let (out, _) = apply_to_content(
        &block("b\na", "c"),
        "a\nb\r\na\r\nb\r\n",
        &ApplyOptions::default(),
    );
    assert_eq!(
        out, "a\nc\r\nb\r\n",
        "a new line takes the majority ending; kept lines their own"
    );
}

#[test]
fn the_reported_case_through_tool_calls_and_hashline() {
    let file = "a\r\nb\na\n";
    for call in [
        ToolCall::new(
            "edit_file",
            json!({ "path": "f", "old_string": "a\nb\n", "new_string": "" }),
        ),
        ToolCall::new(
            "modify_file",
            json!({ "path": "f", "changes": [{ "start": ["a", "b"], "content": [] }] }),
        ),
    ] {
        let mut host = MemoryHost::with_files([("f", file)]);
        let r = apply_tool_calls(
            std::slice::from_ref(&call),
            &mut host,
            &ToolOptions::default(),
        );
        assert!(r.ok, "{:?}", r.errors);
        assert_eq!(host.text("f").as_deref(), Some("a\n"), "{}", call.name);
    }
    let mut host = MemoryHost::with_files([("f", file)]);
    let first = format!("1#{}", line_id("a", 3));
    let second = format!("2#{}", line_id("b", 3));
    let r = apply_hashline_edit(
        &json!({ "path": "f", "edits": [{ "first": first, "last": second, "new_content": null }] }),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(host.text("f").as_deref(), Some("a\n"));
}

// Few distinct lines, so the same text occurs with different endings.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just(String::new()),
        Just("c".to_string()),
        "[a-d]{1,3}"
    ]
}

proptest! {
    #![proptest_config(prop_support::config(600))]
    #[test]
    fn kept_lines_keep_their_own_bytes(
        lines in prop::collection::vec((line(), any::<bool>()), 2..14),
        cut in (0usize..14, 1usize..4),
        new in prop::collection::vec(line(), 0..4),
        final_newline in any::<bool>(),
    ) {
        let n = lines.len();
        // An empty last line without an ending is no line at all.
        let final_newline = final_newline || lines[n - 1].0.is_empty();
        let from = cut.0 % n;
        let to = (from + cut.1).min(n);
        let piece = |range: std::ops::Range<usize>, last_ends: bool| -> String {
            let mut s = String::new();
            let end = range.end;
            for i in range {
                s.push_str(&lines[i].0);
                if i + 1 < end || last_ends {
                    s.push_str(if lines[i].1 { "\r\n" } else { "\n" });
                }
            }
            s
        };
        let file = piece(0..n, final_newline);
        let old: Vec<&str> = lines[from..to].iter().map(|l| l.0.as_str()).collect();
        let new_text = new.join("\n");
        prop_assume!(old.join("\n") != new_text && !old.join("\n").is_empty());
        let (out, r) = apply_to_content(&block(&old.join("\n"), &new_text), &file, &ApplyOptions::default());
        prop_assume!(r.status == Status::Applied);
        // The file's final-newline convention applies to whatever line is last now.
        let before = piece(0..from, !(to == n && new_text.is_empty() && !final_newline));
        prop_assert!(out.starts_with(&before), "{file:?} -> {out:?}: lines before the edit changed");
        if to < n {
            let after = piece(to..n, final_newline);
            prop_assert!(out.ends_with(&after), "{file:?} -> {out:?}: lines after the edit changed");
        }

        // The same edit as a hashline range replace, by line numbers.
        let mut host = MemoryHost::with_files([("f", file.as_str())]);
        let anchor = |i: usize| format!("{}#{}", i + 1, line_id(&lines[i].0, 3));
        let content = if new_text.is_empty() { serde_json::Value::Null } else { json!(new) };
        let r = apply_hashline_edit(&json!({ "path": "f", "edits": [{ "first": anchor(from), "last": anchor(to - 1), "new_content": content }] }), &mut host, &HashlineOptions::default());
        if r.status == Status::Applied {
            let out = host.text("f").unwrap_or_default();
            prop_assert!(out.starts_with(&before), "hashline {file:?} -> {out:?}: lines before the edit changed");
            if to < n {
                prop_assert!(out.ends_with(&piece(to..n, final_newline)), "hashline {file:?} -> {out:?}: lines after the edit changed");
            }
        }
    }
}
