//! A reply must not hide what it does on the reviewer's screen: every HTML
//! renderer shows the characters that reorder or hide text (bidirectional
//! overrides and isolates, zero-width characters, line and paragraph
//! separators, C1 controls) as a visible `<U+202E>` mark, and escapes markup,
//! in paths, `@@` section headers, hunk lines, reasons, shell commands, the
//! summary and the live preview of a streaming patch. The same text inside an
//! attribute (`data-file-path`) keeps its characters, escaped: it is never
//! drawn, and it must name the real file.

use editblocks::apply::FileChange;
use editblocks::parser::{parse_edits, EditStream, ParseOptions};
use editblocks::parser::{PendingSection, Section};
use editblocks::preview::PreviewSession;
use editblocks::render::{
    render_edit_block, render_edits_summary, render_file_change, render_in_progress_edit_block,
    render_pending_sections, ResultView, SummaryOptions, SummaryView,
};
use editblocks::{EditBlock, Format};

/// The characters a Trojan Source edit uses, and a C1 control and a separator.
const HIDDEN: [char; 9] = [
    '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200B}', '\u{200D}', '\u{FEFF}', '\u{2028}',
    '\u{85}',
];
const MARKUP: &str = "<img src=x onerror=alert(1)>";

/// `text` with `[H]` standing for every hidden character and `[M]` for the markup.
fn hostile(text: &str) -> String {
    text.replace("[H]", &HIDDEN.iter().collect::<String>())
        .replace("[M]", MARKUP)
}

/// The HTML's text as drawn: tags (and the attributes in them) left out,
/// entities read.
fn drawn(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Nothing hidden is drawn as is, every hidden character is marked, and no markup got through.
fn check(what: &str, html: &str, marked_at_least: usize) {
    assert!(!html.contains("<img"), "{what}: markup got through: {html}");
    let text = drawn(html);
    for c in HIDDEN {
        assert!(
            !text.contains(c),
            "{what}: U+{:04X} is drawn as is: {text}",
            c as u32
        );
    }
    let marks = HIDDEN
        .iter()
        .map(|&c| text.matches(&format!("<U+{:04X}>", c as u32)).count())
        .min()
        .unwrap_or(0);
    assert!(
        marks >= marked_at_least,
        "{what}: each hidden character should be marked at least {marked_at_least} time(s), found {marks}: {text}"
    );
    assert!(
        text.contains(MARKUP),
        "{what}: the markup shows as text: {text}"
    );
}

fn patch_reply() -> String {
    hostile(
        "*** Begin Patch\n*** Update File: src/a[H][M].py\n@@ def f(): [H][M]\n-    check = False [H][M]\n+    check = True [H][M]\n*** End Patch\n",
    )
}

#[test]
fn finished_blocks_of_every_format_show_hidden_characters() {
    let replies = [
        patch_reply(),
        hostile("```diff\n--- a/a[H][M].txt\n+++ b/a[H][M].txt\n@@ -1 +1 @@ [H][M]\n-one [H][M]\n+two [H][M]\n```\n"),
    ];
    let mut cases: Vec<(String, EditBlock)> = replies
        .iter()
        .map(|reply| {
            let blocks = parse_edits(reply, &ParseOptions::default());
            assert_eq!(blocks.len(), 1, "{reply}");
            (reply.clone(), blocks[0].clone())
        })
        .collect();
    // A text block as an object (its file-name line could not hold a line separator).
    cases.push((
        "an EditBlock object".into(),
        EditBlock::new(
            Format::SearchReplace,
            hostile("a[H][M].txt"),
            hostile("one [H][M]"),
            hostile("two [H][M]"),
        ),
    ));
    for (reply, block) in cases {
        let blocks = [block];
        let result = ResultView {
            file_path: blocks[0].file_path.clone(),
            status: "failed".into(),
            error_kind: Some("old-mismatch".into()),
            reason: Some(hostile("the host said [H][M]")),
            ..ResultView::default()
        };
        // Path, old and new lines (and the `@@` header of a patch); then the reason too.
        check(&reply, &render_edit_block(&blocks[0], None), 3);
        check(&reply, &render_edit_block(&blocks[0], Some(&result)), 4);
    }
}

#[test]
fn blocks_being_written_show_hidden_characters() {
    let lines: Vec<String> = ["<<<<<<< SEARCH", "one [H][M]", "=======", "two [H][M]"]
        .iter()
        .map(|l| hostile(l))
        .collect();
    check(
        "render_in_progress_edit_block",
        &render_in_progress_edit_block(&hostile("a[H][M].txt"), &lines),
        3,
    );
    let sections = vec![
        PendingSection {
            section: Section::Search,
            lines: vec![hostile("one [H][M]")],
        },
        PendingSection {
            section: Section::Replace,
            lines: vec![hostile("two [H][M]")],
        },
    ];
    check(
        "render_pending_sections",
        &render_pending_sections(
            &hostile("a[H][M].txt"),
            &sections,
            Some(&hostile("par[H][M]")),
        ),
        4,
    );
}

#[test]
fn the_summary_and_a_file_change_show_hidden_characters() {
    let path = hostile("a[H][M].txt");
    let summary = SummaryView {
        results: vec![ResultView {
            file_path: path.clone(),
            status: "failed".into(),
            error_kind: Some("old-mismatch".into()),
            reason: Some(hostile("no line `[H][M]`")),
            ..ResultView::default()
        }],
        files_modified: Some(vec![path.clone()]),
        files_created: vec![hostile("b[H][M].txt")],
        files_auto_added: vec![hostile("c[H][M].txt")],
        shell_suggestions: vec![hostile("rm -rf build [H][M]")],
        retry_prompt: None,
    };
    // The failed path and its reason, the modified, created and auto-added files, the command.
    check(
        "render_edits_summary",
        &render_edits_summary(&summary, &SummaryOptions::default()),
        6,
    );
    let change = FileChange {
        path: path.clone(),
        before: Some(hostile("one [H][M]\n")),
        after: Some(hostile("two [H][M]\n")),
        moved_from: None,
    };
    check("render_file_change", &render_file_change(&change, None), 3);
}

#[test]
fn the_live_preview_of_a_streaming_patch_shows_hidden_characters() {
    let reply = patch_reply();
    let file = hostile("def f(): [H][M]\n    check = False [H][M]\n");
    let path = editblocks::normalize_path(&hostile("src/a[H][M].py"));
    // The path itself is refused (an invisible character), so the preview names it unlocated:
    // try it both under that name and with a plain one.
    for (reply, name) in [
        (reply.clone(), hostile("src/a[H][M].py")),
        (
            reply.replace(&hostile("src/a[H][M].py"), "src/a.py"),
            "src/a.py".to_string(),
        ),
    ] {
        assert!(path.is_err());
        let mut session = PreviewSession::new([(name.clone(), file.clone())]);
        let mut stream = EditStream::new(&ParseOptions::default());
        // Up to the middle of the `+` line: the section is open, its new line partly written.
        let cut = reply.find("+    check").unwrap() + 8;
        for line in reply[..cut].split_inclusive('\n') {
            for e in stream.feed(line) {
                session.on_event(&e);
            }
        }
        let preview = session.patch_preview().expect("a patch preview");
        let partial = hostile("+    chec[H][M]");
        check(
            &format!("preview of {name}"),
            &preview.render_full(Some(&partial)),
            2,
        );
    }
}

/// Joiners that build emoji and words are drawn as written; the same
/// joiner next to ASCII (where it could make `admin` and `admin\u{200D}`
/// look alike) is marked.
#[test]
fn joiners_inside_emoji_and_words_are_drawn_but_not_next_to_ascii() {
    let block = |new: &str| {
        let reply = format!(
            "x.js\n```js\n<<<<<<< SEARCH\nlet a = 1;\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
        );
        let blocks = parse_edits(&reply, &ParseOptions::default());
        assert_eq!(blocks.len(), 1, "{reply}");
        drawn(&render_edit_block(&blocks[0], None))
    };
    let emoji = "let who = \"\u{1F469}\u{200D}\u{1F4BB}\";";
    assert!(block(emoji).contains(emoji), "{}", block(emoji));
    let persian =
        "let word = \"\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}\";";
    assert!(block(persian).contains(persian), "{}", block(persian));
    for hiding in [
        "let user = \"admin\u{200D}\";",
        "let a = \u{200C}1;",
        "let b = \"\u{1F469}\u{200D}\";",
    ] {
        let text = block(hiding);
        assert!(
            !text.contains(['\u{200C}', '\u{200D}']),
            "drawn as is: {text}"
        );
        assert!(text.contains("<U+200"), "not marked: {text}");
    }
}
