//! Walks `tests/fixtures/patch/`: each folder is one case of the patch
//! formats (`apply-patch`, `unified-diff`) with
//!
//! - `reply.md`: the model's reply, parsed by the real parser;
//! - `before/`: the files before;
//! - `after/`: every file afterwards, byte for byte (absent: nothing may change);
//! - `options.json`: `ApplyOptions` in camelCase (optional);
//! - `expected.json`: `{ result, discarded }`: the `ApplyResult` exactly and
//!   the reasons of the blocks the parser discarded;
//! - `README`: what the case checks, in a line.
//!
//! Each reply is also parsed in random chunkings, which must give the
//! blocks and discards of the one-shot parse. The same folders run through
//! the npm package in `tests/js/patch.test.mjs`.
//!
//! `BLESS=1 cargo test --test patch_fixtures` rewrites `expected.json`
//! (review the diff before committing).

mod fixture_support;
use fixture_support::{case_dirs, read_tree, show_tree};

mod apply_support;

use std::fs;
use std::path::Path;

use editblocks::engine::{apply_reply, ApplyOptions};
use editblocks::parser::{parse_edits, EditStream, ParseOptions, StreamEvent};
use editblocks::MemoryHost;

/// Blocks and discard reasons from a stream fed `chunks`.
fn streamed(chunks: &[&str]) -> (Vec<editblocks::EditBlock>, Vec<String>) {
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut events = Vec::new();
    for c in chunks {
        events.extend(stream.feed(c));
    }
    events.extend(stream.finish());
    let mut blocks = Vec::new();
    let mut discards = Vec::new();
    let mut started = 0;
    for e in events {
        match e {
            StreamEvent::BlockStart { .. } => started += 1,
            StreamEvent::BlockComplete { block, index } => {
                assert_eq!(index, blocks.len());
                blocks.push(block)
            }
            StreamEvent::BlockDiscarded { reason, .. } => discards.push(reason),
            StreamEvent::BlockUpdate { .. } => {}
        }
    }
    assert!(started >= blocks.len(), "every complete block was started");
    (blocks, discards)
}

/// A small deterministic generator (no extra dependency).
fn splits(text: &str, seed: u64) -> Vec<&str> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut out = Vec::new();
    let mut start = 0;
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|i| text.is_char_boundary(*i))
        .collect();
    let mut k = 0;
    while k < bounds.len() - 1 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let step = 1 + (x % 23) as usize;
        k = (k + step).min(bounds.len() - 1);
        out.push(&text[start..bounds[k]]);
        start = bounds[k];
    }
    out
}

fn run_case(dir: &Path) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let reply =
        fs::read_to_string(dir.join("reply.md")).map_err(|e| format!("{name}: reply.md: {e}"))?;
    let before = read_tree(&dir.join("before"));
    let after = if dir.join("after").is_dir() {
        read_tree(&dir.join("after"))
    } else {
        before.clone()
    };
    let options: ApplyOptions = match fs::read_to_string(dir.join("options.json")) {
        Ok(text) => {
            serde_json::from_str(&text).map_err(|e| format!("{name}: options.json: {e}"))?
        }
        Err(_) => ApplyOptions::default(),
    };

    let one_shot = parse_edits(&reply, &ParseOptions::default());
    let (whole, discarded) = streamed(&[&reply]);
    if whole != one_shot {
        return Err(format!(
            "{name}: the stream fed once differs from parse_edits"
        ));
    }
    for seed in 1..40u64 {
        let chunks = splits(&reply, seed);
        let (blocks, d) = streamed(&chunks);
        if blocks != one_shot || d != discarded {
            return Err(format!(
                "{name}: chunking {chunks:?} gives other blocks or discards"
            ));
        }
    }

    let mut host = MemoryHost::new();
    host.files = before.clone();
    let result = apply_reply(&reply, &mut host, &options);
    if host.files != after {
        return Err(format!(
            "{name}: files after applying differ.\nexpected:\n{}\nactual:\n{}\nresult: {result:#?}",
            show_tree(&after),
            show_tree(&host.files)
        ));
    }
    apply_support::check_file_changes(
        &name,
        &result.file_changes,
        &before,
        &host.files,
        options.dry_run,
    )?;
    let mut actual = serde_json::json!({ "result": result, "discarded": discarded });
    // `fileChanges` is checked against `before/` and the files afterwards
    // above, not repeated in expected.json.
    if let Some(map) = actual["result"].as_object_mut() {
        map.remove("fileChanges");
    }
    let expected_path = dir.join("expected.json");
    if std::env::var_os("BLESS").is_some() {
        fs::write(
            &expected_path,
            serde_json::to_string_pretty(&actual).unwrap() + "\n",
        )
        .unwrap();
        return Ok(());
    }
    let expected: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(&expected_path).map_err(|e| format!("{name}: expected.json: {e}"))?,
    )
    .map_err(|e| format!("{name}: expected.json: {e}"))?;
    if actual != expected {
        return Err(format!(
            "{name}: result differs.\nexpected: {}\nactual: {}",
            serde_json::to_string_pretty(&expected).unwrap(),
            serde_json::to_string_pretty(&actual).unwrap()
        ));
    }
    Ok(())
}

#[test]
fn patch_fixtures() {
    let dirs = case_dirs("patch", 30);
    let failures: Vec<String> = dirs.iter().filter_map(|d| run_case(d).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}

#[test]
fn pending_shows_the_patch_operation_being_written() {
    use editblocks::parser::Section;
    let mut stream = EditStream::new(&ParseOptions::default());
    stream.feed("*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    ret");
    let p = stream.pending().expect("an operation is being written");
    assert_eq!(p.file_path, "a.py");
    assert_eq!(p.format, Some(editblocks::Format::ApplyPatch));
    assert_eq!(p.line_number, 2);
    assert_eq!(p.sections.len(), 1);
    assert_eq!(p.sections[0].section, Section::Patch);
    assert_eq!(p.sections[0].lines, ["@@ def f():", "-    return 1"]);
    assert_eq!(p.partial_line, "+    ret");

    let mut stream = EditStream::new(&ParseOptions::default());
    stream.feed("diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n");
    let p = stream.pending().expect("a diff is being written");
    assert_eq!(
        (p.file_path.as_str(), p.format),
        ("x.txt", Some(editblocks::Format::UnifiedDiff))
    );
    assert_eq!(p.sections[0].lines, ["@@ -1 +1 @@", "-a"]);
}
