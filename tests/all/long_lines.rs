//! A file line of megabytes is never copied whole into a reason or a
//! diagnostic: every path quotes its start and names its length.

use editblocks::engine::{apply_to_content, ApplyOptions};
use editblocks::hashline::{apply_hashline_edit, HashlineOptions};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::ErrorKind;
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format};
use serde_json::json;

const HUGE: usize = 5 * 1024 * 1024;

fn huge_file() -> String {
    format!("first\n{}\nlast\n", "x".repeat(HUGE))
}

fn message_size(value: &impl serde::Serialize) -> usize {
    serde_json::to_string(value).unwrap().len()
}

#[test]
fn a_stale_hashline_anchor_quotes_the_start_of_a_huge_line() {
    let mut host = MemoryHost::with_files([("f", huge_file().as_str())]);
    let r = apply_hashline_edit(
        &json!({ "path": "f", "edits": [{ "target": "2#ZZZ", "new_content": ["y"] }] }),
        &mut host,
        &HashlineOptions::default(),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::StaleAnchor), "{}", r.message);
    assert!(
        r.message.contains("(5,242,880 characters)"),
        "{}",
        &r.message[..r.message.len().min(600)]
    );
    assert!(
        message_size(&r) < 4_000,
        "result is {} bytes",
        message_size(&r)
    );
}

#[test]
fn a_missing_edit_near_a_huge_line_quotes_its_start() {
    let near = format!("{}y", "x".repeat(HUGE - 1));
    let block = EditBlock {
        format: Format::SearchReplace,
        file_path: "f".into(),
        anchor: String::new(),
        old_lines: near.clone(),
        new_lines: "z".into(),
        trailing_anchor: String::new(),
        raw_block: String::new(),
        line_number: 1,
        assumed: Vec::new(),
        line_hint: None,
        patch: None,
    };
    let (_, r) = apply_to_content(&block, &huge_file(), &ApplyOptions::default());
    assert_eq!(r.error_kind, Some(ErrorKind::OldMismatch));
    assert!(
        message_size(&r) < 4_000,
        "result is {} bytes",
        message_size(&r)
    );

    let mut host = MemoryHost::with_files([("f", huge_file().as_str())]);
    let r = apply_tool_calls(
        &[ToolCall::new(
            "edit_file",
            json!({ "path": "f", "old_string": near, "new_string": "z" }),
        )],
        &mut host,
        &ToolOptions::default(),
    );
    assert!(!r.ok);
    assert!(
        message_size(&r.results) < 4_000,
        "results are {} bytes",
        message_size(&r.results)
    );
}
