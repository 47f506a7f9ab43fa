//! `render_file_change`: any style's before/after drawn like a text block.

use editblocks::apply::FileChange;
use editblocks::render::render_file_change;

fn change(before: Option<&str>, after: Option<&str>) -> FileChange {
    FileChange {
        path: "src/a.py".into(),
        before: before.map(str::to_string),
        after: after.map(str::to_string),
        moved_from: None,
    }
}

#[test]
fn a_change_is_the_whole_file_diff_numbered_by_file_line() {
    let html = render_file_change(
        &change(
            Some("\u{feff}a\r\nb\r\nc\r\n"),
            Some("\u{feff}a\r\nB\r\nc\r\n"),
        ),
        Some("applied"),
    );
    assert!(html.contains("eb-status-applied"), "{html}");
    assert!(html.contains("data-file-path=\"src/a.py\""));
    assert!(
        html.contains("+1</span>") && html.contains("\u{2212}1</span>"),
        "{html}"
    );
    // The BOM and CR are line-model details, not content: they are not drawn.
    assert!(!html.contains('\u{feff}') && !html.contains('\r'));
    assert!(!html.contains("eb-block-create"));
}

#[test]
fn created_and_deleted_files() {
    let created = render_file_change(&change(None, Some("x\n")), None);
    assert!(created.contains("eb-block-create") && created.contains("new file"));
    assert!(!created.contains("eb-badge"), "no status, no badge");
    let deleted = render_file_change(&change(Some("x\ny\n"), None), Some("validated"));
    assert!(
        deleted.contains("+0</span>") && deleted.contains("\u{2212}2</span>"),
        "{deleted}"
    );
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn one_changed_line_of_a_long_file_folds_the_rest_with_real_hunk_numbers() {
    use editblocks::render::{render_file_change_with, DrawOptions};
    let before = numbered(3000);
    let after = before.replace("line 1500\n", "line fifteen hundred\n");
    let html = render_file_change(&change(Some(&before), Some(&after)), Some("applied"));
    let rows = html.matches("class=\"eb-line eb-line-").count();
    assert_eq!(rows, 3 + 2 + 3, "the change and three lines each side");
    assert!(
        html.contains(">@@ -1497,7 +1497,7 @@</span>"),
        "hunk header with file lines: {html}"
    );
    // The folds before and after the hunk name their ranges in both files.
    assert!(html.contains(
        "class=\"eb-line eb-fold\" data-action=\"expand\" data-old-line=\"1\" data-new-line=\"1\" data-count=\"1496\" role=\"button\" tabindex=\"0\""
    ));
    assert!(html.contains("data-old-line=\"1504\" data-new-line=\"1504\" data-count=\"1497\""));
    assert!(html.len() < 8_000, "{} bytes", html.len());
    // The whole file on request.
    let whole = render_file_change_with(
        &change(Some(&before), Some(&after)),
        None,
        &DrawOptions {
            context: None,
            ..DrawOptions::default()
        },
    );
    assert_eq!(whole.matches("class=\"eb-line eb-line-").count(), 3001);
    assert!(!whole.contains("eb-fold") && !whole.contains("eb-hunk"));
}

#[test]
fn changes_close_together_share_a_hunk_and_a_short_file_is_not_folded() {
    let before = numbered(40);
    let after = before
        .replace("line 10\n", "ten\n")
        .replace("line 15\n", "fifteen\n")
        .replace("line 35\n", "");
    let html = render_file_change(&change(Some(&before), Some(&after)), None);
    assert_eq!(html.matches("eb-hunk").count(), 2, "{html}");
    assert!(html.contains(">@@ -7,12 +7,12 @@<"), "{html}");
    assert!(html.contains(">@@ -32,7 +32,6 @@<"), "{html}");
    let short = render_file_change(
        &change(Some("a\nb\nc\n"), Some("a\nB\nc\n")),
        Some("applied"),
    );
    assert!(!short.contains("eb-fold") && !short.contains("eb-hunk"));
}

#[test]
fn themes_and_the_two_column_layout_mark_the_root() {
    use editblocks::render::{render_file_change_with, DrawOptions, Layout, Theme};
    let c = change(Some("a\nb\nc\n"), Some("a\nB\nc\nd\n"));
    let dark = render_file_change_with(
        &c,
        None,
        &DrawOptions {
            theme: Theme::Dark,
            layout: Layout::SideBySide,
            ..DrawOptions::default()
        },
    );
    assert!(
        dark.starts_with("<div class=\"eb-block eb-status-none eb-side-by-side eb-dark\""),
        "{dark}"
    );
    // b beside B, d beside nothing; a and c on both sides.
    assert_eq!(dark.matches("eb-line-pair").count(), 4, "{dark}");
    assert!(dark.contains("<div class=\"eb-half eb-half-old eb-line-removed\"><span class=\"eb-num eb-num-old\">2</span>"));
    assert!(dark.contains("<div class=\"eb-half eb-half-new eb-line-added\"><span class=\"eb-num eb-num-new\">2</span>"));
    assert!(dark.contains("<div class=\"eb-half eb-half-old eb-line-empty\">"));
    let light = render_file_change_with(
        &c,
        None,
        &DrawOptions {
            theme: Theme::Light,
            ..DrawOptions::default()
        },
    );
    assert!(
        light.starts_with("<div class=\"eb-block eb-status-none eb-light\""),
        "{light}"
    );
    let auto = render_file_change(&c, None);
    assert!(!auto.contains("eb-light") && !auto.contains("eb-dark"));
}
