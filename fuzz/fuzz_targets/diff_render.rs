//! Diffs and HTML: any two texts diff without a panic, the diff accounts for
//! every line of both, and the HTML of any block, pending block or summary
//! is made only of the renderer's own tags (the input stays text).
#![no_main]

use editblocks::diff::{diff_block_with, split_lines, DiffLimits, LineKind};
use editblocks::render::{
    escape_html, render_edit_block, render_edits_summary, render_in_progress_edit_block,
    ResultView, SummaryOptions, SummaryView,
};
use editblocks::{EditBlock, Format};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

const TAGS: &[&str] = &[
    "div", "span", "code", "ul", "li", "strong", "u", "button", "pre", "details", "summary",
];
const ATTRIBUTES: &[&str] = &["class", "title", "role", "tabindex"];

/// The HTML is made only of the renderer's own tags and attributes, with
/// every attribute value quoted and free of quotes and angle brackets, and
/// no `>` in text: whatever the input, it stayed text.
fn assert_inert(html: &str) {
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        assert!(!rest[..open].contains('>'), "a raw > in text: {html}");
        let len = rest[open..]
            .find('>')
            .unwrap_or_else(|| panic!("an unclosed tag: {html}"));
        let tag = &rest[open + 1..open + len];
        let tag = tag.strip_prefix('/').unwrap_or(tag);
        let (name, mut attrs) = tag.split_once(' ').map_or((tag, ""), |(n, a)| (n, a));
        assert!(
            TAGS.contains(&name),
            "a tag the renderer does not write: <{tag}> in {html}"
        );
        while !attrs.is_empty() {
            let (attr, after) = attrs
                .split_once("=\"")
                .unwrap_or_else(|| panic!("an attribute without a quoted value: <{tag}>"));
            let prefixed = |prefix: &str| {
                attr.strip_prefix(prefix).is_some_and(|n| {
                    !n.is_empty() && n.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                })
            };
            assert!(
                ATTRIBUTES.contains(&attr) || prefixed("data-") || prefixed("aria-"),
                "an attribute the renderer does not write: {attr} in <{tag}>"
            );
            let close = after
                .find('"')
                .unwrap_or_else(|| panic!("an unterminated attribute value: <{tag}>"));
            attrs = after[close + 1..]
                .strip_prefix(' ')
                .unwrap_or(&after[close + 1..]);
        }
        rest = &rest[open + len + 1..];
    }
    assert!(!rest.contains('>'), "a raw > in text: {html}");
}

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 3);
    let (old, new, path) = (&parts[0], &parts[1], &parts[2]);
    let diff = diff_block_with(old, new, &DiffLimits::default());
    let olds = diff
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Added)
        .count();
    let news = diff
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Removed)
        .count();
    assert_eq!(olds, split_lines(old).len(), "old lines lost");
    assert_eq!(news, split_lines(new).len(), "new lines lost");
    let escaped = escape_html(old);
    assert!(!escaped.contains('<') && !escaped.contains('>') && !escaped.contains('"'));

    let format =
        [Format::EditRepl, Format::Anchored, Format::SearchReplace][usize::from(flags % 3)];
    let mut block = EditBlock::new(format, path.clone(), old.clone(), new.clone());
    if flags & 4 != 0 {
        block.anchor = new.clone();
    }
    let result = ResultView {
        block_index: Some(0),
        file_path: path.clone(),
        status: [
            "applied",
            "failed",
            "skipped",
            "validated",
            "not-in-context",
            "nonsense",
        ][usize::from(flags >> 3) % 6]
            .to_string(),
        reason: Some(new.clone()),
        ..ResultView::default()
    };
    assert_inert(&render_edit_block(
        &block,
        if flags & 64 != 0 { Some(&result) } else { None },
    ));
    let lines: Vec<String> = new.split('\n').map(String::from).collect();
    assert_inert(&render_in_progress_edit_block(path, &lines));
    let summary = SummaryView {
        results: vec![result.clone(), result],
        shell_suggestions: vec![old.clone()],
        retry_prompt: Some(new.clone()),
        ..SummaryView::default()
    };
    assert_inert(&render_edits_summary(
        &summary,
        &SummaryOptions {
            retry_prompt_prepared: flags & 128 != 0,
            retry_note: Some(path.clone()),
            ..Default::default()
        },
    ));
});
