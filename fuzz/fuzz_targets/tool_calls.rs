//! Tool calls (write_file, edit_file, modify_file) over a MemoryHost: any
//! calls, as JSON or as a string of arguments, apply or fail without a panic;
//! a failed batch writes nothing.
#![no_main]

use editblocks::MemoryHost;
use editblocks::tools::{
    apply_tool_calls, retry_context, tool_call_paths, RetryInput, ToolCall, ToolOptions,
};
use editblocks::tools::{Matching, TrailingNewline};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[path = "common.rs"]
mod common;
use common::pick;

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 2);
    let (calls_text, content) = (&parts[0], &parts[1]);
    let calls: Vec<ToolCall> = match serde_json::from_str::<Value>(calls_text) {
        Ok(Value::Array(items)) => items.iter().filter_map(ToolCall::from_value).collect(),
        Ok(one @ Value::Object(_)) => ToolCall::from_value(&one).into_iter().collect(),
        // Arguments as the text a model streamed, valid JSON or not.
        _ => vec![ToolCall::new(
            pick(flags, 64, "modify_file", "edit_file"),
            Value::String(calls_text.clone()),
        )],
    };
    let options = ToolOptions {
        dry_run: flags & 1 != 0,
        stage: flags & 2 != 0,
        matching: pick(flags, 8, Matching::Tolerant, Matching::Exact),
        trailing_newline: pick(flags, 16, TrailingNewline::Ensure, TrailingNewline::Preserve),
        allow_folders: common::allowed_folders(flags, 32),
        overwrite: flags & 4 != 0,
        ..ToolOptions::default()
    };
    let mut host = MemoryHost::new();
    for path in tool_call_paths(&calls, &options) {
        host.files.insert(path, content.as_bytes().to_vec());
    }
    let before = host.files.clone();
    let result = apply_tool_calls(&calls, &mut host, &options);
    if !result.ok || options.dry_run {
        assert_eq!(host.files, before, "a failed or dry batch changed files");
    }
    // Many edits to one file in one call (placed in one pass over the file):
    // each two lines of the text an old and a new text.
    let lines: Vec<&str> = calls_text.split('\n').collect();
    if lines.len() >= 16 {
        let edits: Vec<Value> = lines
            .chunks_exact(2)
            .map(|pair| serde_json::json!({ "path": "a.txt", "old_string": pair[0], "new_string": pair[1] }))
            .collect();
        let call = ToolCall::new("edit_file", serde_json::json!({ "edits": edits }));
        let mut host = MemoryHost::new();
        host.files.insert("a.txt".into(), content.as_bytes().to_vec());
        let before = host.files.clone();
        let batched = apply_tool_calls(&[call], &mut host, &options);
        if !batched.ok || options.dry_run {
            assert_eq!(host.files, before, "a failed or dry batch changed files");
        }
    }
    let _ = retry_context(&RetryInput {
        ok: result.ok,
        errors: result.errors.clone(),
        calls: calls.clone(),
    });
});
