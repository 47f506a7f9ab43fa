//! Text-format blocks through the engine over a MemoryHost: every reply and
//! file applies or fails without a panic, in every mode; a block that does
//! not apply leaves the content unchanged.
#![no_main]

use editblocks::apply_edits;
use editblocks::engine::{apply_to_content, validate_edit, ApplyOptions, Matching, Mode, TrailingNewline};
use editblocks::MemoryHost;
use editblocks::parser::{parse_edits, ParseOptions};
use editblocks::Status;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use common::pick;

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 3);
    let (reply, first, second) = (&parts[0], &parts[1], &parts[2]);
    let options = ApplyOptions {
        dry_run: flags & 1 != 0,
        stage: flags & 2 != 0,
        mode: pick(flags, 4, Mode::Atomic, Mode::Sequential),
        matching: pick(flags, 8, Matching::Tolerant, Matching::Exact),
        trailing_newline: pick(flags, 16, TrailingNewline::Ensure, TrailingNewline::Preserve),
        overwrite: flags & 32 != 0,
        in_context: pick(flags, 64, Some(vec!["a.txt".into()]), None),
        formats: Vec::new(),
        // The folder left out: the file a missing path resolves to.
        known_files: pick(flags, 128, Some(vec!["a.txt".into(), "src/b.txt".into()]), None),
        allow_folders: common::allowed_folders(flags, 64),
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
