//! Binding tests for the hashline feature: the core compiled for wasm32
//! gives the same IDs and the same results as on the host.

use editblocks::hashline::{apply_hashline_edit, format_hashlines, line_id, HashlineOptions};
use editblocks::Status;
use editblocks::{HostOp, MemoryHost, Undo};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn line_ids_match_the_host_values() {
    // The same fixed values the host and JS tests assert.
    assert_eq!(line_id("fn main() {", 3), "rj3");
    assert_eq!(line_id("let answer = 42;", 8), "b4edwj5z");
    assert_eq!(line_id("fn main() {  \r", 3), "rj3");
}

#[wasm_bindgen_test]
fn stale_call_writes_nothing_and_fresh_call_applies() {
    let read = "a\nb\nc\n";
    let call = serde_json::json!({ "path": "f.txt", "edits": [
        { "target": format!("2#{}", line_id("b", 3)), "new_content": ["B"] }
    ]});
    let mut stale = MemoryHost::with_files([("f.txt", "a\nb!\nc\n")]);
    let refused = apply_hashline_edit(&call, &mut stale, &HashlineOptions::default());
    assert_eq!(refused.status, Status::Failed);
    assert!(stale.changes().is_empty());
    let mut fresh = MemoryHost::with_files([("f.txt", read)]);
    let applied = apply_hashline_edit(&call, &mut fresh, &HashlineOptions::default());
    assert_eq!(applied.status, Status::Applied);
    assert_eq!(
        fresh.ops,
        vec![
            HostOp::Write {
                path: "f.txt".into(),
                content: "a\nB\nc\n".into(),
                undo: Undo::WriteBackText,
            },
            HostOp::Stage {
                paths: vec!["f.txt".into()]
            }
        ]
    );
    assert!(format_hashlines(read, 2, Some(2), 3).starts_with("2#"));
}
