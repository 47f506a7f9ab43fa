//! Binding tests for the diff and render features, compiled for wasm32.
use wasm_bindgen_test::*;

use editblocks::diff::{diff_block, diff_block_with, DiffLimits, LineKind};

#[wasm_bindgen_test]
fn deadlines_read_the_clock_on_wasm_without_panicking() {
    // Over 2,000 lines: the line diff gets a deadline; long paired lines get
    // one inside their own diff; both read `Instant::now()` (web-time here).
    let old: String = (0..3000)
        .map(|i| format!("{} {i}\n", "x".repeat(300)))
        .collect();
    let new: String = (0..3000)
        .map(|i| format!("{} {i} changed\n", "x".repeat(300)))
        .collect();
    let diff = diff_block_with(&old, &new, &DiffLimits::default());
    assert_eq!(
        diff.lines
            .iter()
            .filter(|l| l.kind != LineKind::Added)
            .count(),
        3000
    );
}

#[wasm_bindgen_test]
fn a_spent_budget_degrades_to_line_level() {
    let old: String = (0..5000).map(|i| format!("old {i}\n")).collect();
    let new: String = (0..5000).map(|i| format!("new {}\n", i * 3)).collect();
    let limits = DiffLimits {
        line_cells: 0,
        span_cells: 0,
        ..DiffLimits::default()
    };
    let diff = diff_block_with(&old, &new, &limits);
    assert!(!diff.complete);
    assert!(diff.lines.iter().all(|l| l.spans.is_none()));
}

#[wasm_bindgen_test]
fn graphemes_survive_the_wasm_build() {
    let lines = diff_block("flag 🇫🇷", "flag 🇫🇮");
    let changed: Vec<String> = lines[1]
        .spans
        .as_ref()
        .unwrap()
        .iter()
        .filter(|s| s.changed)
        .map(|s| s.text.clone())
        .collect();
    assert_eq!(changed, ["🇫🇮"]);
}

#[wasm_bindgen_test]
fn summary_html_escapes_on_wasm_too() {
    use editblocks::render::{render_edits_summary, ResultView, SummaryOptions, SummaryView};
    let r = ResultView {
        file_path: "<img src=x onerror=alert(1)>".into(),
        status: "failed".into(),
        ..ResultView::default()
    };
    let html = render_edits_summary(&SummaryView::from(vec![r]), &SummaryOptions::default());
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!html.contains("<img"));
}
