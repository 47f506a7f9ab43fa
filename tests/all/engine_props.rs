//! Properties of the engine on arbitrary input: it never panics, a failed
//! edit leaves the content byte for byte as it was, and an edit that applies
//! was located at exactly one place.

use editblocks::apply_edits;
use editblocks::engine::{apply_to_content, validate_edit, ApplyOptions, Matching};
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format, Status};
use proptest::prelude::*;

// Few distinct lines, so matches, near misses and ambiguity are all common.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("a".to_string()),
        Just("  a".to_string()),
        Just("\ta".to_string()),
        Just("a  ".to_string()),
        Just("b".to_string()),
        Just("é✓".to_string()),
        Just("x\r".to_string()),
        "[a-c \\t✓é]{0,6}",
    ]
}

fn section() -> impl Strategy<Value = String> {
    prop::collection::vec(line(), 0..4).prop_map(|lines| lines.join("\n"))
}

fn content() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(line(), 0..12),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, final_nl, crlf, bom)| {
            let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
            if final_nl && !text.is_empty() {
                text.push_str(if crlf { "\r\n" } else { "\n" });
            }
            if bom {
                text.insert(0, '\u{feff}');
            }
            text
        })
}

fn block() -> impl Strategy<Value = EditBlock> {
    (
        prop::sample::select(Format::ALL.to_vec()),
        section(),
        section(),
        section(),
        section(),
    )
        .prop_map(|(format, anchor, old, new, trailing)| EditBlock {
            format,
            file_path: "f.txt".into(),
            anchor,
            old_lines: old,
            new_lines: new,
            trailing_anchor: if format == Format::Anchored {
                trailing
            } else {
                String::new()
            },
            raw_block: String::new(),
            line_number: 1,
            assumed: Vec::new(),
            line_hint: None,
            patch: None,
        })
}

/// Counts where the block's lines occur in the file, read the way DESIGN.md
/// and the one line model (`text.rs`) say: a BOM is not content, every LF
/// with the CRs right before it (mixed endings too) is read as LF, the CRs
/// ending the file are not content, any other CR is, and a block's CRLF is
/// read as LF.
fn count_occurrences(content: &str, b: &EditBlock) -> usize {
    let body = content.strip_prefix('\u{feff}').unwrap_or(content);
    let body = body.trim_end_matches('\r');
    let mut lf = String::new();
    for (i, piece) in body.split('\n').enumerate() {
        if i > 0 {
            lf.push('\n');
        }
        let is_last = i == body.split('\n').count() - 1;
        lf.push_str(if is_last {
            piece
        } else {
            piece.trim_end_matches('\r')
        });
    }
    let body = lf;
    let trimmed = body.strip_suffix('\n').unwrap_or(&body);
    let lines: Vec<&str> = if body.is_empty() {
        vec![]
    } else {
        trimmed.split('\n').collect()
    };
    let seq: Vec<&str> = [&b.anchor, &b.old_lines, &b.trailing_anchor]
        .iter()
        .filter(|s| !s.is_empty())
        .flat_map(|s| s.split('\n'))
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if seq.is_empty() || seq.len() > lines.len() {
        return 0;
    }
    (0..=lines.len() - seq.len())
        .filter(|&i| lines[i..i + seq.len()] == seq[..])
        .count()
}

proptest! {
    #![proptest_config(crate::prop_support::config(500))]

    #[test]
    fn never_panics_and_failures_change_nothing(content in content(), b in block(), tolerant in any::<bool>()) {
        let opts = ApplyOptions { matching: if tolerant { Matching::Tolerant } else { Matching::Exact }, ..ApplyOptions::default() };
        let (out, result) = apply_to_content(&b, &content, &opts);
        let v = validate_edit(&b, &content, &opts);
        prop_assert_eq!(v.ok, result.status == Status::Applied || result.status == Status::Skipped);
        if result.status != Status::Applied {
            prop_assert_eq!(&out, &content);
            prop_assert!(result.reason.as_deref().is_some_and(|r| !r.is_empty()));
        } else if !tolerant && !b.is_create() {
            prop_assert_eq!(count_occurrences(&content, &b), 1, "applied at a place that is not unique");
        }
        if result.error_kind == Some(editblocks::ErrorKind::Ambiguous) && !tolerant {
            prop_assert!(count_occurrences(&content, &b) >= 2);
        }
    }

    #[test]
    fn text_round_trips_with_mixed_endings(lines in prop::collection::vec((line(), any::<bool>()), 0..12), final_nl in any::<bool>()) {
        // Each line picks its own ending: uniform and mixed files alike come back byte for byte.
        let mut text = String::new();
        for (i, (l, crlf)) in lines.iter().enumerate() {
            text.push_str(l);
            if i + 1 < lines.len() || final_nl {
                text.push_str(if *crlf { "\r\n" } else { "\n" });
            }
        }
        let file = editblocks::text::TextFile::from_text(&text);
        let back = file.encode(&file.body, file.has_final_newline(), editblocks::text::TrailingNewline::Preserve);
        prop_assert_eq!(back, text);
    }

    #[test]
    fn a_failed_reply_leaves_every_file_as_it_was(files in prop::collection::vec(content(), 1..3), blocks in prop::collection::vec(block(), 1..5)) {
        let names = ["f.txt", "g.txt", "h.txt"];
        let mut host = MemoryHost::new();
        for (name, text) in names.iter().zip(&files) {
            host.files.insert(name.to_string(), text.as_bytes().to_vec());
        }
        let blocks: Vec<EditBlock> = blocks.into_iter().enumerate().map(|(i, mut b)| { b.file_path = names[i % 3].into(); b }).collect();
        let before = host.files.clone();
        let atomic = ApplyOptions { mode: editblocks::engine::Mode::Atomic, ..ApplyOptions::default() };
        let result = apply_edits(&blocks, &mut host, &atomic);
        if result.results.iter().any(|r| r.status == Status::Failed) {
            prop_assert_eq!(&host.files, &before);
        }
    }
}
