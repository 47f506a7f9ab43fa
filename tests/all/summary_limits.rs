//! A summary of very many results stays a banner: each list shows at most
//! `MAX_SUMMARY_ITEMS` entries and counts the rest, and building it is linear.

use editblocks::render::{
    render_edits_summary, ResultView, SummaryOptions, SummaryView, MAX_SUMMARY_ITEMS,
};

fn result(i: usize, status: &str) -> ResultView {
    serde_json::from_value(serde_json::json!({
        "blockIndex": i, "filePath": format!("src/f{i}.rs"), "status": status,
        "errorKind": if status == "failed" { Some("anchor-not-found") } else { None },
        "reason": if status == "failed" { Some("Leading anchor not found.") } else { None },
        "estimatedLine": 3
    }))
    .unwrap()
}

#[test]
fn long_lists_are_cut_and_counted() {
    let n = MAX_SUMMARY_ITEMS + 1500;
    let results: Vec<ResultView> = (0..2 * n)
        .map(|i| result(i, if i % 2 == 0 { "applied" } else { "failed" }))
        .collect();
    let html = render_edits_summary(&SummaryView::from(results), &SummaryOptions::default());
    assert_eq!(
        html.matches("<li class=\"eb-failure ").count(),
        MAX_SUMMARY_ITEMS
    );
    assert_eq!(html.matches("class=\"eb-file\"").count(), MAX_SUMMARY_ITEMS);
    assert_eq!(
        html.matches("\u{2026} and 1500 more</li>").count(),
        2,
        "both lists say how many are not shown"
    );
    assert!(
        html.contains(&format!("<strong>{n}</strong> applied"))
            && html.contains(&format!("<strong>{n}</strong> failed")),
        "the counts cover every result"
    );
}

#[test]
fn short_lists_are_whole() {
    let results: Vec<ResultView> = (0..10).map(|i| result(i, "failed")).collect();
    let html = render_edits_summary(&SummaryView::from(results), &SummaryOptions::default());
    assert_eq!(html.matches("<li class=\"eb-failure ").count(), 10);
    assert!(!html.contains("eb-more"));
}
