//! Property tests for the parser: generated replies (prose, paths with
//! decoration, fences, blocks of the three formats, broken and unclosed
//! blocks, CRLF, multi-byte text) and every fixture, fed to `EditStream` in
//! random chunkings, give exactly what `parse_edits` gives; and no input at
//! all makes the parser panic.

use crate::parser_support;

use crate::parser_records;
use editblocks::parser::{parse_edits, parse_spans, EditStream, ParseOptions, StreamEvent};
use editblocks::Format;
use parser_support::{check_events, fixtures};
use proptest::prelude::*;

/// Pieces a reply is made of; some are deliberately broken.
fn word() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "x = 1",
        "    return a + b",
        "",
        "héllo wörld",
        "日本語 🎉",
        "\tindented",
        "fn main() {",
        "}",
        "a ═══════ REPL b",
        "#",
        "- item",
    ])
}

fn path() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "src/a.py",
        "`src/b.rs`",
        "**src/c.md**:",
        "### src/d.txt",
        "Makefile",
        "docs/My Notes.md",
        "// not/a/path",
        "Here is the fix:",
        "> quoted.py",
    ])
}

fn piece() -> impl Strategy<Value = String> {
    let marker = prop::sample::select(vec![
        "««« EDIT",
        "═══════ REPL",
        "»»» EDIT END",
        "───────",
        "═══════",
        "»»»",
        "<<<<<<< SEARCH",
        "=======",
        ">>>>>>> REPLACE",
        "```",
        "```python",
        "  ««« EDIT  ",
        "<<<<<<< SEARCH>",
        "<< SEARCH",
        ">>>>>>> REPLACE>>",
        "------- SEARCH",
        "+++++++ REPLACE",
        "«« EDIT",
        ":start_line:3",
        "-------",
        "...",
    ]);
    prop_oneof![
        3 => word().prop_map(String::from),
        2 => path().prop_map(String::from),
        3 => marker.prop_map(String::from),
        1 => (path(), prop::collection::vec(word(), 0..3), prop::collection::vec(word(), 0..3)).prop_map(|(p, a, b)| {
            format!("{p}\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE", a.join("\n"), b.join("\n"))
        }),
        1 => (path(), prop::collection::vec(word(), 0..3), prop::collection::vec(word(), 0..3)).prop_map(|(p, a, b)| {
            format!("{p}\n««« EDIT\n{}\n═══════ REPL\n{}\n»»» EDIT END", a.join("\n"), b.join("\n"))
        }),
        1 => (path(), word(), word(), word(), word()).prop_map(|(p, a, o, n, t)| format!("{p}\n««« EDIT\n{a}\n───────\n{o}\n═══════\n{n}\n───────\n{t}\n»»»")),
    ]
}

fn reply() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(piece(), 0..40),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(pieces, crlf, final_newline)| {
            let mut text = pieces.join("\n");
            if final_newline {
                text.push('\n');
            }
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            text
        })
}

fn options() -> impl Strategy<Value = ParseOptions> {
    prop::sample::subsequence(Format::ALL.to_vec(), 0..=3).prop_map(|formats| ParseOptions {
        formats,
        ..Default::default()
    })
}

/// Splits at the given byte positions, moved forward to char boundaries.
fn split_at<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let mut c = c % (text.len() + 1);
            while !text.is_char_boundary(c) {
                c += 1;
            }
            c
        })
        .collect();
    points.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0;
    for p in points {
        out.push(&text[last..p]);
        last = p;
    }
    out.push(&text[last..]);
    out
}

fn streamed(text_chunks: &[&str], options: &ParseOptions) -> Vec<StreamEvent> {
    let mut stream = EditStream::new(options);
    let mut events = Vec::new();
    for c in text_chunks {
        events.extend(stream.feed(c));
    }
    events.extend(stream.finish());
    events
}

proptest! {
    #![proptest_config(crate::prop_support::config(400))]

    #[test]
    fn any_chunking_of_a_generated_reply_gives_the_blocks_of_parse_edits(text in reply(), cuts in prop::collection::vec(any::<usize>(), 0..30), options in options()) {
        let whole = parse_edits(&text, &options);
        let (one_feed, discards) = check_events(&streamed(&[&text], &options));
        prop_assert_eq!(&one_feed, &whole);
        let (chunked, chunked_discards) = check_events(&streamed(&split_at(&text, &cuts), &options));
        prop_assert_eq!(&chunked, &whole);
        prop_assert_eq!(chunked_discards, discards);
        // The byte spans describe the same blocks, in the LF-normalised text.
        let normal = text.replace("\r\n", "\n");
        let normal = normal.strip_suffix('\r').unwrap_or(&normal);
        let spans = parse_spans(&text, &options);
        prop_assert_eq!(spans.len(), whole.len());
        for (s, b) in spans.iter().zip(&whole) {
            prop_assert_eq!(&normal[s.raw.0..s.raw.1], b.raw_block.as_str());
            prop_assert_eq!(&normal[s.path.0..s.path.1], b.file_path.as_str());
            prop_assert_eq!(&normal[s.old.0..s.old.1], b.old_lines.as_str());
            prop_assert_eq!(&normal[s.new.0..s.new.1], b.new_lines.as_str());
            prop_assert_eq!(&normal[s.anchor.0..s.anchor.1], b.anchor.as_str());
            prop_assert_eq!(editblocks::parser::assumed_names(s.assumed), b.assumed.clone());
            prop_assert_eq!((s.line_hint != 0).then_some(s.line_hint), b.line_hint);
        }
    }

    #[test]
    fn fixtures_in_random_chunkings_give_the_same_blocks(index in any::<prop::sample::Index>(), cuts in prop::collection::vec(any::<usize>(), 0..40)) {
        let all = fixtures();
        let fixture = index.get(&all);
        let options = ParseOptions::default();
        let whole = parse_edits(&fixture.reply, &options);
        let (chunked, _) = check_events(&streamed(&split_at(&fixture.reply, &cuts), &options));
        prop_assert_eq!(chunked, whole);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(?s).{0,400}", cuts in prop::collection::vec(any::<usize>(), 0..10)) {
        let whole = parse_edits(&text, &ParseOptions::default());
        let (chunked, _) = check_events(&streamed(&split_at(&text, &cuts), &ParseOptions::default()));
        prop_assert_eq!(chunked, whole);
        let _ = editblocks::parser::detect_format(&text);
    }
}

#[test]
fn huge_lines_and_lone_markers_are_fine() {
    let long = "x".repeat(3_000_000);
    assert!(parse_edits(&long, &ParseOptions::default()).is_empty());
    for lone in [
        "««« EDIT",
        "<<<<<<< SEARCH",
        "»»»",
        "=======",
        "\r",
        "\r\n\r\n",
        "a\n««« EDIT\n═══════ REPL",
    ] {
        assert!(
            parse_edits(lone, &ParseOptions::default()).is_empty(),
            "{lone:?}"
        );
    }
    let mut stream = EditStream::new(&ParseOptions::default());
    stream.feed("src/a.py\n<<<<<<< SEARCH\n");
    for _ in 0..1000 {
        stream.feed(&"y".repeat(1000));
    }
    let events = stream.finish();
    assert!(
        matches!(events.last(), Some(StreamEvent::BlockDiscarded { .. })),
        "an unclosed block is discarded at finish"
    );
}

/// Blocks rebuilt from compact-mode records (what `js/parser.js` does):
/// paths and texts sliced out of the normalised reply by UTF-16 offsets.
fn compact_blocks(
    chunks: &[&str],
    options: &ParseOptions,
) -> Vec<(String, String, String, String, String, String, u32)> {
    use parser_records::{
        CompactStream, RECORD_COMPLETE, RECORD_JSON, RECORD_PATCH, RECORD_START, RECORD_UPDATE,
    };
    // The documented normalisation: leading BOMs dropped, every CR before a
    // LF or at the very end dropped.
    let joined = chunks.concat();
    let mut normal = String::new();
    for (i, line) in joined
        .trim_start_matches('\u{feff}')
        .split('\n')
        .enumerate()
    {
        if i > 0 {
            normal.push('\n');
        }
        normal.push_str(line.trim_end_matches('\r'));
    }
    let units: Vec<u16> = normal.encode_utf16().collect();
    let slice = |s: u32, e: u32| {
        String::from_utf16_lossy(
            units
                .get(s as usize..e as usize)
                .expect("offsets inside the reply"),
        )
    };
    let mut stream = CompactStream::new(options);
    let mut records = Vec::new();
    for c in chunks {
        stream.feed_in_place(c);
        records.extend_from_slice(&stream.sink().records);
    }
    records.extend(stream.finish().records);
    let mut out = Vec::new();
    let mut path = String::new();
    let mut i = 0;
    while i < records.len() {
        match records[i] {
            RECORD_UPDATE => i += 5,
            RECORD_JSON => i += 2,
            RECORD_START => {
                if records[i + 3] != u32::MAX {
                    path = slice(records[i + 3], records[i + 4]);
                }
                i += 5;
            }
            RECORD_PATCH => i += 18,
            RECORD_COMPLETE => {
                let r = &records[i + 2..i + 18];
                out.push((
                    path.clone(),
                    slice(r[4], r[5]),
                    slice(r[6], r[7]),
                    slice(r[8], r[9]),
                    slice(r[10], r[11]),
                    slice(r[12], r[13]),
                    r[1],
                ));
                i += 18;
            }
            other => panic!("unknown record {other}"),
        }
    }
    out
}

proptest! {
    #![proptest_config(crate::prop_support::config(300))]

    #[test]
    fn compact_records_rebuild_the_blocks_of_parse_edits(text in reply(), cuts in prop::collection::vec(any::<usize>(), 0..30), options in options()) {
        // Compact mode keeps CRLF pairs whole (the JS wrapper holds a trailing CR).
        let chunks: Vec<&str> = split_at(&text, &cuts).into_iter().collect();
        let mut joined: Vec<String> = Vec::new();
        for c in chunks {
            match joined.last_mut() {
                Some(last) if last.ends_with('\r') => last.push_str(c),
                _ => joined.push(c.to_string()),
            }
        }
        let pieces: Vec<&str> = joined.iter().map(String::as_str).collect();
        let expected: Vec<_> = parse_edits(&text, &options)
            .into_iter()
            .map(|b| (b.file_path, b.anchor, b.old_lines, b.new_lines, b.trailing_anchor, b.raw_block, b.line_number))
            .collect();
        prop_assert_eq!(compact_blocks(&pieces, &options), expected);
    }
}
