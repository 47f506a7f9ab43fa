//! Property tests of the patch formats: any chunking of a reply holding
//! `apply-patch` and `unified-diff` patches (valid, cut short, malformed,
//! mixed with prose and the other formats) gives the blocks and discards of
//! `parse_edits`; the binding's span parse gives the same blocks; applying
//! never panics, and a patch that fails leaves every file as it was.

use crate::prop_support;

// The binding's record sink, as the binding compiles it.
use crate::parser_records;

use editblocks::apply_edits;
use editblocks::engine::ApplyOptions;
use editblocks::parser::{
    parse_edits, parse_spans_and_patches, EditStream, ParseOptions, StreamEvent,
};
use editblocks::MemoryHost;
use editblocks::{Format, Status};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c ]{0,6}".prop_map(|s| s),
        Just(String::new()),
        Just("x = 1".to_string()),
        Just("    return a".to_string()),
    ]
}

fn body_line() -> impl Strategy<Value = String> {
    (prop_oneof![Just(' '), Just('-'), Just('+')], line()).prop_map(|(c, l)| format!("{c}{l}"))
}

fn v4a_op() -> impl Strategy<Value = String> {
    prop_oneof![
        (prop::collection::vec(line(), 0..4)).prop_map(|ls| format!(
            "*** Add File: a.txt\n{}",
            ls.iter().map(|l| format!("+{l}\n")).collect::<String>()
        )),
        Just("*** Delete File: b.txt\n".to_string()),
        (
            prop::option::of(Just("*** Move to: c.txt\n")),
            prop::collection::vec(
                (
                    prop::option::of("@@( [a-c]{1,3})?"),
                    prop::collection::vec(body_line(), 0..5),
                    prop_oneof![5 => Just(false), 1 => Just(true)]
                ),
                0..3
            )
        )
            .prop_map(|(mv, sections)| {
                let mut t = String::from("*** Update File: a.txt\n");
                if let Some(m) = mv {
                    t.push_str(m);
                }
                for (at, lines, eof) in sections {
                    t.push_str(&at.unwrap_or_else(|| "@@".into()));
                    t.push('\n');
                    for l in lines {
                        t.push_str(&l);
                        t.push('\n');
                    }
                    if eof {
                        t.push_str("*** End of File\n");
                    }
                }
                t
            }),
    ]
}

fn v4a_patch() -> impl Strategy<Value = String> {
    let mostly = || prop_oneof![6 => Just(true), 1 => Just(false)];
    let op = prop_oneof![12 => v4a_op(), 1 => line().prop_map(|l| format!("{l}\n"))];
    (
        mostly(),
        prop::collection::vec(op, 0..4),
        mostly(),
        any::<bool>(),
    )
        .prop_map(|(begin, ops, end, fence)| {
            let mut t = String::new();
            if fence {
                t.push_str("```\napply_patch <<'EOF'\n");
            }
            if begin {
                t.push_str("*** Begin Patch\n");
            }
            for op in ops {
                t.push_str(&op);
            }
            if end {
                t.push_str("*** End Patch\n");
            }
            if fence {
                t.push_str("EOF\n```\n");
            }
            t
        })
}

fn unified() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(
            (
                prop::option::of((0u32..5, 0u32..4, 0u32..5, 0u32..4)),
                prop::collection::vec(
                    prop_oneof![
                        body_line(),
                        Just(String::new()),
                        Just("\\ No newline at end of file".to_string()),
                        Just("--- a/x".to_string())
                    ],
                    0..6,
                ),
            ),
            0..3,
        ),
        0u8..3,
    )
        .prop_map(|(git, hunks, minus)| {
            let mut t = String::new();
            if git {
                t.push_str("diff --git a/a.txt b/a.txt\nindex 1..2 100644\n");
            }
            // The `---` line may name another file (the block's `oldPath`).
            t.push_str(match minus {
                0 => "--- /dev/null\n",
                1 => "--- a/a.txt\n",
                _ => "--- a/b.txt\n",
            });
            t.push_str("+++ b/a.txt\n");
            for (nums, lines) in hunks {
                match nums {
                    Some((a, b, c, d)) => t.push_str(&format!("@@ -{a},{b} +{c},{d} @@\n")),
                    None => t.push_str("@@ ... @@\n"),
                }
                for l in lines {
                    t.push_str(&l);
                    t.push('\n');
                }
            }
            t
        })
}

fn reply() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            v4a_patch(),
            unified(),
            line().prop_map(|l| format!("{l}\n")),
            Just("a.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n".to_string()),
            Just("```diff\n".to_string()),
            Just("```\n".to_string()),
        ],
        0..5,
    )
    .prop_flat_map(|parts| (Just(parts.concat()), any::<bool>()))
    .prop_map(|(t, crlf)| if crlf { t.replace('\n', "\r\n") } else { t })
}

fn split_at<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| c % (text.len() + 1))
        .filter(|&c| text.is_char_boundary(c))
        .collect();
    points.sort_unstable();
    points.dedup();
    let mut out = Vec::new();
    let mut start = 0;
    for p in points {
        out.push(&text[start..p]);
        start = p;
    }
    out.push(&text[start..]);
    out
}

fn streamed(chunks: &[&str]) -> (Vec<editblocks::EditBlock>, Vec<String>) {
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut events = Vec::new();
    for c in chunks {
        events.extend(stream.feed(c));
    }
    events.extend(stream.finish());
    let (mut blocks, mut discards) = (Vec::new(), Vec::new());
    for e in events {
        match e {
            StreamEvent::BlockComplete { index, block } => {
                assert_eq!(index, blocks.len());
                blocks.push(block);
            }
            StreamEvent::BlockDiscarded { reason, .. } => discards.push(reason),
            _ => {}
        }
    }
    (blocks, discards)
}

/// A patch block rebuilt from its record at `r` (`PATCH_FIELDS`), the
/// texts and hunks of its call, as `js/parser.js` rebuilds it.
fn patch_block(r: &[u32], text: &str, hunks: &[u32]) -> editblocks::EditBlock {
    use parser_records::{HUNK_FIELDS, NONE};
    use serde_json::{json, Value};
    let units: Vec<u16> = text.encode_utf16().collect();
    let slice = |s: u32, e: u32| String::from_utf16(&units[s as usize..e as usize]).unwrap();
    let mut hs = Vec::new();
    let mut h = r[14] as usize;
    let mut old_path = None;
    if r[10] & parser_records::OLD_PATH_FIRST != 0 {
        old_path = Some(slice(hunks[h], hunks[h + 1]));
        h += 2;
    }
    for _ in 0..r[15] {
        let flags = hunks[h];
        let mut hunk = serde_json::Map::new();
        let n = hunks[h + 7] as usize;
        let anchors: Vec<String> = (0..n)
            .map(|a| slice(hunks[h + 8 + 2 * a], hunks[h + 9 + 2 * a]))
            .collect();
        hunk.insert("anchors".into(), json!(anchors));
        for (bit, (name, at)) in [
            ("oldStart", 1),
            ("oldCount", 2),
            ("newStart", 3),
            ("newCount", 4),
        ]
        .into_iter()
        .enumerate()
        {
            if flags & (8 << bit) != 0 {
                hunk.insert(name.into(), json!(hunks[h + at]));
            }
        }
        let body = slice(hunks[h + 5], hunks[h + 6]);
        let lines: Vec<&str> = if body.is_empty() {
            vec![]
        } else {
            body.split('\n').collect()
        };
        hunk.insert("lines".into(), json!(lines));
        hunk.insert("endOfFile".into(), json!(flags & 1 != 0));
        hunk.insert("noNewlineOld".into(), json!(flags & 2 != 0));
        hunk.insert("noNewlineNew".into(), json!(flags & 4 != 0));
        hs.push(Value::Object(hunk));
        h += HUNK_FIELDS.len() + 2 * n;
    }
    let operation = ["add", "delete", "update"][(r[10] & 255) as usize];
    let mut block = json!({
        "format": Format::ALL[r[0] as usize].as_str(),
        "filePath": slice(r[2], r[3]),
        "oldLines": slice(r[6], r[7]),
        "newLines": slice(r[8], r[9]),
        "rawBlock": slice(r[12], r[13]),
        "lineNumber": r[1],
        "operation": operation,
        "hunks": hs,
        "patch": r[11],
    });
    if r[4] != NONE {
        block["moveTo"] = json!(slice(r[4], r[5]));
    }
    if let Some(old_path) = old_path {
        block["oldPath"] = json!(old_path);
    }
    serde_json::from_value(block).unwrap()
}

/// The patch blocks of a reply fed to the binding's record stream in `chunks`.
fn record_patches(chunks: &[&str]) -> Vec<(usize, editblocks::EditBlock)> {
    use parser_records::{
        CompactStream, RECORD_COMPLETE, RECORD_JSON, RECORD_PATCH, RECORD_START, RECORD_UPDATE,
    };
    let mut stream = CompactStream::new(&ParseOptions::default());
    let mut out = Vec::new();
    let ends = chunks.iter().map(|c| Some(*c)).chain([None]);
    for chunk in ends {
        let o = match chunk {
            Some(c) => stream.feed(c),
            None => stream.finish(),
        };
        let r = &o.records;
        let mut i = 0;
        while i < r.len() {
            match r[i] {
                RECORD_UPDATE | RECORD_START => i += 5,
                RECORD_JSON => i += 2,
                RECORD_COMPLETE => i += 18,
                RECORD_PATCH => {
                    out.push((
                        r[i + 1] as usize,
                        patch_block(&r[i + 2..i + 18], &o.patch_text, &o.patch_hunks),
                    ));
                    i += 18;
                }
                other => panic!("record {other}"),
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(prop_support::config(300))]

    #[test]
    fn patch_records_rebuild_the_blocks_of_parse_edits(text in reply(), cuts in prop::collection::vec(any::<usize>(), 0..30)) {
        let whole = parse_edits(&text, &ParseOptions::default());
        let expected: Vec<(usize, editblocks::EditBlock)> = whole.iter().cloned().enumerate().filter(|(_, b)| b.format.is_patch()).collect();
        // The binding holds a trailing CR back until the next chunk.
        let mut chunks: Vec<String> = Vec::new();
        for c in split_at(&text, &cuts) {
            match chunks.last_mut() {
                Some(last) if last.ends_with('\r') => last.push_str(c),
                _ => chunks.push(c.to_string()),
            }
        }
        let chunks: Vec<&str> = chunks.iter().map(String::as_str).collect();
        prop_assert_eq!(&record_patches(&[&text]), &expected);
        prop_assert_eq!(&record_patches(&chunks), &expected);
        // One-shot: the same encoder over the span parse's patch blocks.
        let (_, patches) = parse_spans_and_patches(&text, &ParseOptions::default());
        let mut encoder = parser_records::PatchEncoder::default();
        let records: Vec<[u32; 16]> = patches.iter().map(|(_, b)| encoder.block(b, None)).collect();
        for ((index, block), r) in patches.iter().zip(&records) {
            prop_assert_eq!(&patch_block(r, &encoder.text, &encoder.hunks), block);
            prop_assert_eq!(&whole[*index], block);
        }
    }

    #[test]
    fn any_chunking_gives_the_blocks_of_parse_edits(text in reply(), cuts in prop::collection::vec(any::<usize>(), 0..30)) {
        let whole = parse_edits(&text, &ParseOptions::default());
        let (one, discards) = streamed(&[&text]);
        prop_assert_eq!(&one, &whole);
        let (chunked, chunked_discards) = streamed(&split_at(&text, &cuts));
        prop_assert_eq!(&chunked, &whole);
        prop_assert_eq!(chunked_discards, discards);
        let (spans, patches) = parse_spans_and_patches(&text, &ParseOptions::default());
        prop_assert_eq!(spans.len() + patches.len(), whole.len());
        for (index, block) in patches {
            prop_assert_eq!(&whole[index], &block);
            prop_assert!(block.format.is_patch());
        }
    }

    #[test]
    fn applying_never_panics_and_a_failed_patch_writes_nothing(text in reply(), a in prop::collection::vec(line(), 0..6), atomic in any::<bool>()) {
        let blocks: Vec<_> = parse_edits(&text, &ParseOptions { formats: vec![Format::ApplyPatch, Format::UnifiedDiff], ..Default::default() });
        let content: String = a.iter().map(|l| format!("{l}\n")).collect();
        let mut host = MemoryHost::with_files([("a.txt", content.as_str()), ("b.txt", "b\n")]);
        let before = host.files.clone();
        let options = ApplyOptions { mode: if atomic { editblocks::engine::Mode::Atomic } else { editblocks::engine::Mode::Sequential }, ..ApplyOptions::default() };
        let result = apply_edits(&blocks, &mut host, &options);
        prop_assert_eq!(result.results.len(), blocks.len());
        let failed = result.results.iter().any(|r| r.status == Status::Failed);
        if failed && (atomic || blocks.iter().all(|b| b.patch.as_ref().map(|p| p.patch) == blocks[0].patch.as_ref().map(|p| p.patch))) {
            prop_assert_eq!(host.files, before);
        }
    }
}

/// The generator reaches what it is meant to test: complete blocks of both
/// patch formats, and discarded patches.
#[test]
fn the_generator_makes_patches_of_both_formats_and_broken_ones() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut v4a, mut uni, mut discarded) = (0, 0, 0);
    for _ in 0..300 {
        let text = reply().new_tree(&mut runner).unwrap().current();
        let blocks = parse_edits(&text, &ParseOptions::default());
        v4a += blocks
            .iter()
            .filter(|b| b.format == Format::ApplyPatch)
            .count();
        uni += blocks
            .iter()
            .filter(|b| b.format == Format::UnifiedDiff)
            .count();
        discarded += streamed(&[&text]).1.len();
    }
    assert!(
        v4a > 50 && uni > 50 && discarded > 50,
        "apply-patch {v4a}, unified-diff {uni}, discarded {discarded}"
    );
}
