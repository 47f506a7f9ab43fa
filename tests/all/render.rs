//! The HTML renderers against the fixtures in `tests/fixtures/render/html/`.
//!
//! Each fixture has `=== kind` (`block`, `in-progress`, `pending` — what
//! `EditStream.pending()` gives — or `summary`),
//! `=== input` (JSON, as the JavaScript functions receive it) and
//! `=== expected` (the HTML, with line breaks added before `<div` and `<li`
//! for reading; they are not part of the output). Run with
//! `RENDER_BLESS=1` to rewrite the expected sections, then review the diff.

use std::fs;
use std::path::Path;

use editblocks::parser::{PendingSection, Section};
use editblocks::render::{
    find_result, render_edit_block, render_edits_summary, render_in_progress_edit_block,
    render_pending_sections, ResultView, SummaryInput, SummaryOptions, SummaryView,
};
use editblocks::EditBlock;
use serde_json::Value;

fn section<'a>(text: &'a str, name: &str) -> &'a str {
    let marker = format!("=== {name}\n");
    let Some(start) = text.find(&marker).map(|i| i + marker.len()) else {
        return "";
    };
    let rest = &text[start..];
    rest.find("\n=== ")
        .map_or(rest, |end| &rest[..end])
        .trim_end_matches('\n')
}

fn render(kind: &str, input: &Value) -> String {
    match kind {
        "block" => {
            let block: EditBlock = serde_json::from_value(input["block"].clone()).unwrap();
            let results: Vec<ResultView> = serde_json::from_value(
                input
                    .get("results")
                    .cloned()
                    .unwrap_or(Value::Array(vec![])),
            )
            .unwrap();
            render_edit_block(&block, find_result(&block, &results, None))
        }
        "in-progress" => {
            let path = input["filePath"].as_str().unwrap();
            let lines: Vec<String> = serde_json::from_value(input["partialLines"].clone()).unwrap();
            render_in_progress_edit_block(path, &lines)
        }
        "pending" => {
            let path = input["filePath"].as_str().unwrap();
            let sections: Vec<PendingSection> =
                serde_json::from_value(input["sections"].clone()).unwrap();
            render_pending_sections(
                path,
                &sections,
                input.get("partialLine").and_then(Value::as_str),
            )
        }
        "summary" => {
            let summary: SummaryInput = serde_json::from_value(input["summary"].clone()).unwrap();
            let options: SummaryOptions =
                serde_json::from_value(input.get("options").cloned().unwrap_or(Value::Null))
                    .unwrap_or_default();
            render_edits_summary(&SummaryView::from(summary), &options)
        }
        other => panic!("unknown fixture kind {other}"),
    }
}

fn pretty(html: &str) -> String {
    html.replace("<div", "\n<div")
        .replace("<li", "\n<li")
        .trim_start()
        .to_string()
}

#[test]
fn fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/render/html");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert!(paths.len() >= 10);
    let bless = std::env::var_os("RENDER_BLESS").is_some();
    let mut failures = Vec::new();
    for path in paths {
        let text = fs::read_to_string(&path).unwrap();
        let input: Value = serde_json::from_str(section(&text, "input"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let got = render(section(&text, "kind"), &input);
        check_markup(&got);
        let expected = section(&text, "expected").replace('\n', "");
        if bless {
            let head = &text[..text.find("=== expected\n").unwrap() + "=== expected\n".len()];
            fs::write(&path, format!("{head}{}\n", pretty(&got))).unwrap();
        } else if got != expected {
            failures.push(format!(
                "{}:\n--- expected\n{}\n--- got\n{}",
                path.display(),
                pretty(&expected),
                pretty(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every tag in the output is one we write, with attributes we write, and
/// every attribute value is quoted: nothing from the input became markup.
fn check_markup(html: &str) {
    const TAGS: &[&str] = &["div", "span", "ul", "li", "strong", "code"];
    const ATTRS: &[&str] = &[
        "class",
        "title",
        "role",
        "tabindex",
        "aria-busy",
        "aria-hidden",
        "data-file-path",
        "data-line",
        "data-status",
        "data-format",
        "data-block-index",
        "data-action",
        "data-error-kind",
        "data-old-line",
        "data-new-line",
        "data-count",
        "data-applied",
        "data-failed",
        "data-skipped",
        "data-validated",
        "data-not-in-context",
    ];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after.find('>').expect("unclosed tag");
        let tag = &after[..close];
        rest = &after[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert!(TAGS.contains(&name), "closing tag {name:?}");
            continue;
        }
        let name = tag.split(' ').next().unwrap();
        assert!(TAGS.contains(&name), "tag {name:?} in {html}");
        let mut attrs = &tag[name.len()..];
        while !attrs.is_empty() {
            let a = attrs
                .strip_prefix(' ')
                .unwrap_or_else(|| panic!("bad attribute list {attrs:?}"));
            let eq = a.find("=\"").unwrap();
            let attr = &a[..eq];
            assert!(ATTRS.contains(&attr), "attribute {attr:?}");
            let value_end = a[eq + 2..].find('"').unwrap();
            let value = &a[eq + 2..eq + 2 + value_end];
            assert!(
                !value.contains('<') && !value.contains('>'),
                "unescaped value {value:?}"
            );
            attrs = &a[eq + 2 + value_end + 1..];
        }
    }
}

#[test]
fn a_hostile_reply_renders_only_our_markup() {
    let evil = r#"<script>alert(1)</script>"><img src=x onerror=alert(2)>'"&"#;
    let block = EditBlock {
        format: editblocks::Format::EditRepl,
        file_path: evil.into(),
        anchor: evil.into(),
        old_lines: format!("a {evil}"),
        new_lines: format!("b {evil}"),
        trailing_anchor: String::new(),
        raw_block: String::new(),
        line_number: 1,
        assumed: Vec::new(),
        line_hint: None,
        patch: None,
    };
    let result = ResultView {
        file_path: evil.into(),
        status: "failed".into(),
        error_kind: Some(evil.into()),
        reason: Some(evil.into()),
        ..ResultView::default()
    };
    for html in [
        render_edit_block(&block, Some(&result)),
        render_in_progress_edit_block(
            evil,
            &[evil.to_string(), "═══════ REPL".into(), evil.to_string()],
        ),
        render_edits_summary(
            &SummaryView {
                results: vec![result.clone()],
                shell_suggestions: vec![evil.into()],
                files_auto_added: vec![evil.into()],
                files_created: vec![evil.into()],
                ..Default::default()
            },
            &SummaryOptions {
                retry_prompt_prepared: true,
                retry_note: Some(evil.into()),
                ..Default::default()
            },
        ),
    ] {
        check_markup(&html);
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&quot;&amp;"), "{html}");
    }
}

#[test]
fn results_are_matched_to_their_block() {
    let block = |old: &str| EditBlock {
        format: editblocks::Format::EditRepl,
        file_path: "a.txt".into(),
        anchor: String::new(),
        old_lines: old.into(),
        new_lines: "x".into(),
        trailing_anchor: String::new(),
        raw_block: String::new(),
        line_number: 1,
        assumed: Vec::new(),
        line_hint: None,
        patch: None,
    };
    let result = |i: usize, old: &str, status: &str| ResultView {
        block_index: Some(i),
        file_path: "./a.txt".into(),
        status: status.into(),
        anchor_preview: Some(String::new()),
        old_preview: Some(old.into()),
        new_preview: Some("x".into()),
        ..ResultView::default()
    };
    let results = vec![result(0, "first", "applied"), result(1, "second", "failed")];
    assert_eq!(
        find_result(&block("second"), &results, None)
            .unwrap()
            .status,
        "failed"
    );
    assert_eq!(
        find_result(&block("unknown"), &results, None)
            .unwrap()
            .status,
        "applied"
    );
    assert_eq!(
        find_result(&block("first"), &results, Some(1))
            .unwrap()
            .status,
        "failed"
    );
    assert!(find_result(&block("first"), &results, Some(7)).is_none());
}

#[test]
fn summary_counts_every_status() {
    let r = |status: &str| ResultView {
        file_path: "f".into(),
        status: status.into(),
        ..ResultView::default()
    };
    let summary = SummaryView::from(vec![
        r("applied"),
        r("applied"),
        r("failed"),
        r("skipped"),
        r("validated"),
    ]);
    let html = render_edits_summary(&summary, &SummaryOptions::default());
    for needle in [
        r#"data-applied="2""#,
        r#"data-failed="1""#,
        r#"data-skipped="1""#,
        r#"data-validated="1""#,
        r#"data-not-in-context="0""#,
    ] {
        assert!(html.contains(needle), "{needle} missing in {html}");
    }
    assert!(!html.contains("eb-retry-note"));
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn piece() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a",
                " ",
                "<",
                ">",
                "&",
                "\"",
                "'",
                "=",
                "«««",
                "»»»",
                "═══════",
                "───────",
                "REPL",
                "EDIT",
                "<script>",
                "\u{301}",
                "👋🏽",
                "\r",
                "\n",
                "\0",
            ]),
            0..10,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(crate::prop_support::config(256))]

        #[test]
        fn any_input_renders_only_our_markup(path in piece(), lines in prop::collection::vec(piece(), 0..8), status in piece(), reason in piece()) {
            let block = EditBlock {
                format: editblocks::Format::Anchored,
                file_path: path.clone(),
                anchor: lines.first().cloned().unwrap_or_default(),
                old_lines: lines.get(1).cloned().unwrap_or_default(),
                new_lines: lines.get(2).cloned().unwrap_or_default(),
                trailing_anchor: lines.get(3).cloned().unwrap_or_default(),
                raw_block: String::new(),
                line_number: 1,
                assumed: Vec::new(),
                line_hint: None,
                patch: None,
            };
            let result = ResultView { file_path: path.clone(), status, reason: Some(reason), estimated_line: Some(u32::MAX), ..ResultView::default() };
            check_markup(&render_edit_block(&block, Some(&result)));
            check_markup(&render_in_progress_edit_block(&path, &lines));
            check_markup(&render_edits_summary(&SummaryView::from(vec![result]), &SummaryOptions::default()));
        }
    }
}

#[test]
fn every_renderer_puts_the_theme_it_is_asked_for_on_its_root() {
    use editblocks::render::{
        render_edit_block_with, render_in_progress_edit_block_with, render_pending_sections_with,
        DrawOptions, Theme,
    };
    let block = EditBlock::new(editblocks::Format::EditRepl, "a.py", "x = 1", "x = 2");
    for (theme, class) in [(Theme::Light, " eb-light\""), (Theme::Dark, " eb-dark\"")] {
        let options = DrawOptions {
            theme,
            ..DrawOptions::default()
        };
        let summary = render_edits_summary(
            &SummaryView::default(),
            &SummaryOptions {
                theme,
                ..SummaryOptions::default()
            },
        );
        let lines = ["x = 1".to_string()];
        let pending = [PendingSection {
            section: Section::Edit,
            lines: lines.to_vec(),
        }];
        for html in [
            render_edit_block_with(&block, None, &options),
            summary,
            render_in_progress_edit_block_with("a.py", &lines, theme),
            render_pending_sections_with("a.py", &pending, None, theme),
        ] {
            let root = &html[..html.find('>').unwrap()];
            assert!(root.contains(class), "{root}");
        }
    }
    let auto = render_edit_block(&block, None);
    assert!(!auto.contains("eb-light") && !auto.contains("eb-dark"));
}
