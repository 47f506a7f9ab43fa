//! Line ends and a leading byte-order mark: the reply is read with every CR
//! before a LF (or at the very end) dropped and leading U+FEFF removed. The
//! normalisation is idempotent, so spans computed on the normalised reply
//! (what `js/parser.js` hands over) are the spans of the raw reply, and they
//! index the normalised text.

use editblocks::parser::{parse_edits, parse_spans, ParseOptions};

/// The documented normalisation, written out independently.
fn normalise(text: &str) -> String {
    let text = text.trim_start_matches('\u{feff}');
    let mut out = String::new();
    let mut crs = 0;
    for c in text.chars() {
        match c {
            '\r' => crs += 1,
            '\n' => {
                crs = 0;
                out.push('\n');
            }
            _ => {
                out.extend(std::iter::repeat('\r').take(crs));
                crs = 0;
                out.push(c);
            }
        }
    }
    out
}

const EDIT: &str = "src/app.py\n««« EDIT\ndef f():\n    return 1\n═══════ REPL\ndef f():\n    return 2\n»»» EDIT END\n";

fn cases() -> Vec<String> {
    vec![
        format!("Some notes\r\r\n{EDIT}"),
        format!("Some notes\r\r\r\n{}", EDIT.replace('\n', "\r\r\n")),
        format!("\u{feff}{EDIT}"),
        format!("\u{feff}\u{feff}x\r\n{}", EDIT.replace('\n', "\r\n")),
        format!("a\rb\r\r\n{}\r\r", EDIT.trim_end()),
        format!("{}\r\n{}", EDIT.replace("return 1", "return 1\r"), EDIT),
    ]
}

#[test]
fn spans_of_the_reply_index_the_normalised_reply() {
    let options = ParseOptions::default();
    for text in cases() {
        let norm = normalise(&text);
        assert_eq!(normalise(&norm), norm, "idempotent");
        let spans = parse_spans(&text, &options);
        assert_eq!(
            spans,
            parse_spans(&norm, &options),
            "{text:?}: spans of the raw and the normalised reply differ"
        );
        let blocks = parse_edits(&text, &options);
        assert_eq!(blocks, parse_edits(&norm, &options), "{text:?}");
        assert_eq!(blocks.len(), spans.len());
        for (b, s) in blocks.iter().zip(&spans) {
            let at = |(x, y): (usize, usize)| &norm[x..y];
            assert_eq!(b.file_path, "src/app.py", "{text:?}");
            assert_eq!(at(s.path), b.file_path, "{text:?}");
            assert_eq!(at(s.anchor), b.anchor, "{text:?}");
            assert_eq!(at(s.old), b.old_lines, "{text:?}");
            assert_eq!(at(s.new), b.new_lines, "{text:?}");
            assert_eq!(at(s.raw), b.raw_block, "{text:?}");
        }
    }
}

#[test]
fn double_cr_line_end_reads_as_one_line_end() {
    let blocks = parse_edits(&format!("Some notes\r\r\n{EDIT}"), &ParseOptions::default());
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].file_path, "src/app.py");
    assert_eq!(blocks[0].line_number, 2);
    assert_eq!(blocks[0].anchor, "def f():");
    assert_eq!(blocks[0].old_lines, "    return 1");
    assert_eq!(blocks[0].raw_block, EDIT.trim_end());
}

#[test]
fn leading_byte_order_mark_is_not_part_of_the_path() {
    let blocks = parse_edits(&format!("\u{feff}{EDIT}"), &ParseOptions::default());
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].file_path, "src/app.py");
    assert_eq!(
        editblocks::parser::detect_format("\u{feff}««« EDIT\n═══════ REPL\n"),
        Some(editblocks::Format::EditRepl)
    );
}
