//! No edit vanishes without a reason: in any generated reply, every line
//! that looks like a start or end marker of an enabled format (exact,
//! loosely written, or almost one) is part of a parsed block or covered by
//! a `block-discarded` event, fed line by line and in random chunks.
//!
//! Dividers and rules (`=======`, `───────`) alone are not counted: outside
//! a block they are Markdown (a heading underline, a rule).

use crate::parser_support;

use editblocks::parser::{EditStream, ParseOptions, StreamEvent};
use editblocks::Format;
use parser_support::{check_events, random_chunks, Rng};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "src/a.py",
        "`src/b.rs`",
        "Makefile",
        "...",
        "Then:",
        "Also",
        "Here is the fix:",
        "x = 1",
        "",
        "```",
        "```python",
        "<<<<<<< SEARCH",
        "<<<<<<< SEARCH>",
        "<<<<<<<SEARCH",
        "<< SEARCH",
        "<<<<<<< SEARCH>>",
        "------- SEARCH",
        "=======",
        ">>>>>>> REPLACE",
        ">>>>>>> REPLACE>",
        ">> REPLACE",
        "+++++++ REPLACE",
        ":start_line:4",
        "-------",
        "««« EDIT",
        "«« EDIT",
        "═══════ REPL",
        "───────",
        "═══════",
        "»»» EDIT END",
        "»» EDIT END",
        "»»»",
    ])
}

/// Start or end markers of `formats` (all when empty), loosely: what a
/// reader would take for one.
fn looks_like_marker(t: &str, formats: &[Format]) -> bool {
    let on = |f: Format| formats.is_empty() || formats.contains(&f);
    let search = t.trim_start_matches(['<', '-', '>', '+']);
    let word = search.trim().trim_end_matches('>').trim();
    let sr = search.len() < t.len()
        && (word.eq_ignore_ascii_case("SEARCH") || word.eq_ignore_ascii_case("REPLACE"));
    let edit = t.trim_start_matches(['«', '»']);
    let er = edit.len() < t.len()
        && (edit.trim().eq_ignore_ascii_case("EDIT")
            || edit.trim().eq_ignore_ascii_case("EDIT END")
            || edit.is_empty());
    (sr && on(Format::SearchReplace)) || (er && (on(Format::EditRepl) || on(Format::Anchored)))
}

/// Events with the 1-based line whose end produced them (finish: one past
/// the last line).
fn events_by_line(lines: &[&str], options: &ParseOptions) -> Vec<(u32, StreamEvent)> {
    let mut stream = EditStream::new(options);
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        for e in stream.feed(&format!("{l}\n")) {
            out.push((i as u32 + 1, e));
        }
    }
    for e in stream.finish() {
        out.push((lines.len() as u32 + 1, e));
    }
    out
}

fn uncovered(lines: &[&str], options: &ParseOptions) -> Vec<u32> {
    let events = events_by_line(lines, options);
    let mut covered = vec![false; lines.len() + 2];
    let mut cover = |from: u32, to: u32| {
        for l in from..=to.min(lines.len() as u32) {
            covered[l as usize] = true;
        }
    };
    // A refusal without a path: its block is read silently to its end,
    // so lines up to the next event belong to it.
    let mut refusal_from: Option<u32> = None;
    for (at, e) in &events {
        if let Some(from) = refusal_from.take() {
            cover(from, at.saturating_sub(1));
        }
        match e {
            StreamEvent::BlockComplete { block, .. } => {
                let n = block.raw_block.split('\n').count() as u32;
                // The block's text is the reply's lines from its line number on.
                let from = block.line_number as usize - 1;
                assert_eq!(
                    lines.get(from..from + n as usize).map(|l| l.join("\n")),
                    Some(block.raw_block.clone()),
                    "raw block at line {}",
                    block.line_number
                );
                cover(block.line_number, block.line_number + n - 1);
                // A `>>>>>>> REPLACE` right after a block closed by a
                // second `=======` is that block's leftover.
                if block.raw_block.ends_with("=======") {
                    let mut l = block.line_number + n;
                    while (l as usize) <= lines.len()
                        && matches!(lines[l as usize - 1].trim(), "" | "```" | "```python")
                    {
                        l += 1;
                    }
                    cover(l, l);
                }
            }
            StreamEvent::BlockDiscarded {
                file_path,
                line_number,
                ..
            } => {
                cover(*line_number, *at);
                if file_path.is_none() {
                    refusal_from = Some(*at);
                }
            }
            StreamEvent::BlockStart { .. } | StreamEvent::BlockUpdate { .. } => {}
        }
    }
    if let Some(from) = refusal_from {
        cover(from, lines.len() as u32);
    }
    (1..=lines.len() as u32)
        .filter(|&l| {
            looks_like_marker(lines[l as usize - 1].trim(), &options.formats)
                && !covered[l as usize]
        })
        .collect()
}

proptest! {
    #![proptest_config(crate::prop_support::config(600))]

    #[test]
    fn every_marker_line_is_in_a_block_or_named_by_a_discard(lines in prop::collection::vec(line(), 0..40), formats in prop::sample::subsequence(Format::ALL.to_vec(), 0..=3), seed in any::<u64>()) {
        let options = ParseOptions { formats, ..Default::default() };
        let missing = uncovered(&lines, &options);
        prop_assert!(missing.is_empty(), "lines {:?} of {:#?} are neither in a block nor named by a discard", missing, lines);
        // Streamed in random chunks: the same blocks and discards.
        let text = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let whole = check_events(&{ let mut s = EditStream::new(&options); let mut e = s.feed(&text); e.extend(s.finish()); e });
        let mut rng = Rng(seed | 1);
        let chunks = random_chunks(&text, &mut rng, 9);
        let chunked = check_events(&{ let mut s = EditStream::new(&options); let mut e = Vec::new(); for c in &chunks { e.extend(s.feed(c)); } e.extend(s.finish()); e });
        prop_assert_eq!(whole, chunked);
    }
}

#[test]
fn the_checker_can_fail() {
    // A marker line outside any event's reach is reported.
    assert!(looks_like_marker(">>>>>>> REPLACE>>", &[]));
    assert!(!looks_like_marker("=======", &[]));
    assert!(!looks_like_marker(">>>>>>> REPLACE", &[Format::EditRepl]));
}
