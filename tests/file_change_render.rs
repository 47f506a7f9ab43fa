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
