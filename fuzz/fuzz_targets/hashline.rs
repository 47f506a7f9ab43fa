//! LINE#ID edits over a MemoryHost: any call (JSON or not) against any file
//! applies or is refused without a panic; a refused call writes nothing. The
//! read view of any content renders.
#![no_main]

use editblocks::hashline::{
    apply_hashline_edit, format_hashlines, hashline_paths, HashlineOptions,
};
use editblocks::MemoryHost;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 2);
    let (call_text, content) = (&parts[0], &parts[1]);
    let call = serde_json::from_str::<Value>(call_text)
        .unwrap_or_else(|_| Value::String(call_text.clone()));
    let width = 1 + usize::from(flags >> 5) % 12;
    let options = HashlineOptions {
        width,
        allow_replace_text: flags & 1 != 0,
        dry_run: flags & 2 != 0,
        overwrite: flags & 4 != 0,
        stage: flags & 8 != 0,
        allow_folders: common::allowed_folders(flags, 16),
    };
    let mut host = MemoryHost::new();
    for path in hashline_paths(&call, &options) {
        host.files.insert(path, content.as_bytes().to_vec());
    }
    let before = host.files.clone();
    let result = apply_hashline_edit(&call, &mut host, &options);
    if !result.ok() || options.dry_run {
        assert_eq!(host.files, before, "a refused or dry call changed files");
    }
    let start = usize::from(flags & 7);
    let _ = format_hashlines(
        content,
        start,
        if flags & 16 != 0 {
            Some(start + 3)
        } else {
            None
        },
        width,
    );
});
