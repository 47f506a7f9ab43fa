//! Tool calls (write_file, edit_file, modify_file) over a MemoryHost: any
//! calls, as JSON or as a string of arguments, apply or fail without a panic;
//! a failed batch writes nothing.
#![no_main]

use editblocks::MemoryHost;
use editblocks::tools::{
    apply_tool_calls, retry_context, tool_call_paths, RetryInput, ToolCall, ToolOptions,
};
use editblocks::tools::{Matching, NewlinePolicy};
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
        trailing_newline: pick(flags, 16, NewlinePolicy::Ensure, NewlinePolicy::Preserve),
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
    let _ = retry_context(&RetryInput {
        ok: result.ok,
        errors: result.errors.clone(),
        calls: calls.clone(),
    });
});
