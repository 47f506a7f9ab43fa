//! The one line model: every way the crate splits text
//! into lines agrees with `text::LineText`, and splitting then joining gives
//! the text back byte for byte, whatever mix of `\r`, `\r\n`, `\r\r\n`, BOM
//! and final newline it has.

use editblocks::diff::split_lines as diff_split_lines;
use editblocks::hashline::body_lines;
use editblocks::text::{
    line_end_len, split_joined, split_lines, strip_line_end, to_lf, LineText, TextFile,
    TrailingNewline,
};
use proptest::prelude::*;

/// Text built from pieces that exercise every CR case.
fn texty() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("a".to_string()),
        Just("bé".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r\r\n".to_string()),
        Just("\r".to_string()),
        Just("\u{feff}".to_string()),
    ];
    (any::<bool>(), prop::collection::vec(piece, 0..24)).prop_map(|(bom, pieces)| {
        let body = pieces.concat();
        if bom {
            format!("\u{feff}{body}")
        } else {
            body
        }
    })
}

#[test]
fn the_empty_text_is_no_lines_everywhere() {
    assert!(LineText::parse("").is_empty());
    assert!(LineText::parse("\u{feff}").is_empty());
    assert!(split_lines("").is_empty());
    assert!(split_joined("").is_empty());
    assert!(body_lines("").is_empty());
    assert!(diff_split_lines("").is_empty());
    assert_eq!(split_lines("\n"), [""]);
    assert_eq!(split_joined("\n"), ["", ""]);
    assert!(LineText::parse("").final_newline());
}

#[test]
fn the_cr_rule() {
    let t = LineText::parse("\u{feff}a\r\r\nb\rc\r\nd\ne\r");
    assert!(t.bom);
    assert_eq!(t.lines(), ["a", "b\rc", "d", "e"]);
    assert_eq!(
        (0..t.len()).map(|i| t.ending(i)).collect::<Vec<_>>(),
        ["\r\r\n", "\r\n", "\n", ""]
    );
    assert_eq!(t.tail, 1, "the CRs ending the text are its tail");
    assert!(!t.final_newline());
    assert_eq!(split_lines("a\n\r"), ["a"]);
    assert!(split_lines("\r\r").is_empty());
    assert_eq!(line_end_len(b"x\r\r\n"), 3);
    assert_eq!(line_end_len(b"x\r"), 0);
    assert_eq!(strip_line_end("x\r\r\n"), "x");
    assert_eq!(to_lf("a\r\r\nb\rc\r\n"), "a\nb\rc\n");
    let file = TextFile::from_text("x\r\ny\r");
    assert_eq!(file.body, "x\ny");
    assert_eq!(
        file.encode("x\nz", false, TrailingNewline::Preserve),
        "x\r\nz\r",
        "the tail is written back"
    );
}

#[test]
fn a_file_with_several_crs_before_lf_keeps_them() {
    let file = TextFile::from_text("a\r\r\nb\r\n");
    assert_eq!(file.body, "a\nb\n");
    assert_eq!(
        file.encode(&file.body, true, TrailingNewline::Preserve),
        "a\r\r\nb\r\n"
    );
    assert_eq!(
        file.encode("a\nb\nc\n", true, TrailingNewline::Preserve),
        "a\r\r\nb\r\nc\r\n",
        "a new line takes the majority's ending"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn split_then_join_round_trips(text in texty()) {
        let t = LineText::parse(&text);
        prop_assert_eq!(t.join(), text.clone());
        // Every line's ending is what `line_end_len` says of the line with it.
        for i in 0..t.len() {
            let with_end = format!("{}{}", t.line(i), t.ending(i));
            prop_assert_eq!(line_end_len(with_end.as_bytes()), t.ending(i).len());
            prop_assert!(!t.line(i).contains('\n'));
            prop_assert!(!t.line(i).ends_with('\r'), "no line ends in a CR");
        }
    }

    #[test]
    fn every_splitter_agrees(text in texty()) {
        let bodyless = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let model = LineText::without_bom(bodyless).lines();
        prop_assert_eq!(&split_lines(bodyless), &model);
        prop_assert_eq!(&diff_split_lines(bodyless), &model);
        prop_assert_eq!(&body_lines(bodyless), &model);
        // Joined lines (sections): the inverse of join("\n").
        let joined = split_joined(bodyless);
        if !model.is_empty() {
            let back = joined.join("\n");
            let lf = to_lf(bodyless).into_owned();
            prop_assert_eq!(back, lf);
        }
        // A file: the body is the LF text, the lines are the model's, and
        // writing the body back unchanged gives the bytes read.
        let file = TextFile::from_text(&text);
        prop_assert_eq!(&file.body, &LineText::parse(&text).to_lf());
        prop_assert_eq!(body_lines(&file.body), LineText::parse(&text).lines());
        let final_nl = file.has_final_newline();
        prop_assert_eq!(file.encode(&file.body, final_nl, TrailingNewline::Preserve), text.clone());
    }
}
