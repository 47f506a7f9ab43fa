//! Text-format blocks through the engine over a MemoryHost: every reply and
//! file applies or fails without a panic, in every mode; a block that does
//! not apply leaves the content unchanged.
#![no_main]

use editblocks::engine::{
    apply_edits, apply_to_content, validate_edit, ApplyOptions, Matching, Mode, NewlinePolicy,
};
use editblocks::MemoryHost;
use editblocks::parser::{parse_edits, ParseOptions};
use editblocks::Status;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 3);
    let (reply, first, second) = (&parts[0], &parts[1], &parts[2]);
    let options = ApplyOptions {
        dry_run: flags & 1 != 0,
        stage: flags & 2 != 0,
        mode: if flags & 4 != 0 {
            Mode::Atomic
        } else {
            Mode::Sequential
        },
        matching: if flags & 8 != 0 {
            Matching::Tolerant
        } else {
            Matching::Exact
        },
        trailing_newline: if flags & 16 != 0 {
            NewlinePolicy::Ensure
        } else {
            NewlinePolicy::Preserve
        },
        overwrite: flags & 32 != 0,
        in_context: if flags & 64 != 0 {
            Some(vec!["a.txt".into()])
        } else {
            None
        },
        formats: Vec::new(),
        // The folder left out: the file a missing path resolves to.
        known_files: if flags & 128 != 0 {
            Some(vec!["a.txt".into(), "src/b.txt".into()])
        } else {
            None
        },
        allow_folders: if flags & 64 != 0 {
            vec![".git/info".into()]
        } else {
            Vec::new()
        },
    };
    let blocks = parse_edits(reply, &ParseOptions::default());
    // Every path the reply names holds one of the two files (so edits meet content).
    let mut host = MemoryHost::new();
    for (i, block) in blocks.iter().enumerate() {
        let content = if i % 2 == 0 { first } else { second };
        host.files
            .entry(block.file_path.clone())
            .or_insert_with(|| content.as_bytes().to_vec());
    }
    host.files.insert("a.txt".into(), first.as_bytes().to_vec());
    let before = host.files.clone();
    let result = apply_edits(&blocks, &mut host, &options);
    if options.dry_run || result.results.iter().all(|r| r.status != Status::Applied) {
        assert_eq!(host.files, before, "nothing applied, yet files changed");
    }
    for block in blocks.iter().take(8) {
        let _ = validate_edit(block, first, &options);
        let (content, result) = apply_to_content(block, first, &options);
        if result.status == Status::Failed || result.status == Status::Skipped {
            assert_eq!(&content, first, "a failed block changed the content");
        }
    }
});
