//! Walks `tests/fixtures/patch/`: each folder is one case of the patch
//! formats (`apply-patch`, `unified-diff`) with
//!
//! - `reply.md`: the model's reply, parsed by the real parser;
//! - `before/`: the files before;
//! - `after/`: every file afterwards, byte for byte (absent: nothing may change);
//! - `options.json`: `ApplyOptions` in camelCase (optional);
//! - `expected.json`: `{ result, discarded }`: the `ApplyResult` exactly
//!   (but its `discarded`) and the reasons of the blocks the parser
//!   discarded, which the result's `discarded` must list;
//! - `README`: what the case checks, in a line.
//!
//! Each reply is also parsed in random chunkings, which must give the
//! blocks and discards of the one-shot parse. The same folders run through
//! the npm package in `tests/js/patch.test.mjs`.
//!
//! `BLESS=1 cargo test --test all patch_fixtures` rewrites `expected.json`
//! (review the diff before committing).

use crate::fixture_support;
use fixture_support::{check_expected, run_cases};

use crate::apply_support;
use apply_support::{apply_case, read_apply_case};

use crate::parser_support;
use parser_support::chunkings;

use std::path::Path;

use editblocks::parser::{parse_edits, EditStream, ParseOptions, StreamEvent};

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

fn run_case(dir: &Path) -> Result<(), String> {
    let case = read_apply_case(dir)?;
    let (name, reply) = (&case.name, &case.reply);
    let one_shot = parse_edits(reply, &ParseOptions::default());
    let (whole, discarded) = streamed(&[reply]);
    if whole != one_shot {
        return Err(format!(
            "{name}: the stream fed once differs from parse_edits"
        ));
    }
    for chunks in chunkings(reply, 0x9a7c_b10c, 40, 23) {
        let (blocks, d) = streamed(&chunks);
        if blocks != one_shot || d != discarded {
            return Err(format!(
                "{name}: chunking {chunks:?} gives other blocks or discards"
            ));
        }
    }
    let (mut result, _) = apply_case(&case)?;
    // The result lists the blocks the stream discarded, each with its
    // reason (checked here against `discarded`, not repeated in the file).
    let listed: Vec<String> = result
        .as_object_mut()
        .and_then(|r| r.remove("discarded"))
        .and_then(|d| d.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|d| d["reason"].as_str().unwrap_or_default().to_string())
        .collect();
    if listed != discarded {
        return Err(format!(
            "{name}: the result's discarded {listed:?} differ from the stream's {discarded:?}"
        ));
    }
    let actual = serde_json::json!({ "result": result, "discarded": discarded });
    check_expected(dir, &actual).map(|_| ())
}

#[test]
fn patch_fixtures() {
    run_cases("patch", 30, run_case);
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
