//! `diff_block` against the readable fixtures in `tests/fixtures/render/diff/`.
//!
//! Each fixture has `=== old`, `=== new` and `=== expected` sections. An
//! expected line is `<sign> <old line or .> <new line or .> | <text>`, where
//! the sign is ` ` (context), `-` (removed) or `+` (added) and changed spans
//! are wrapped in `⟦` `⟧`.

use std::fs;
use std::path::Path;

use editblocks::diff::{
    changed_spans, diff_block, diff_block_with, DiffLimits, DiffLine, LineKind,
};
use unicode_segmentation::UnicodeSegmentation;

fn sections(text: &str) -> (String, String, String) {
    let mut current: Option<&str> = None;
    let (mut old, mut new, mut expected) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.split('\n') {
        match line {
            "=== old" | "=== new" | "=== expected" => current = Some(line),
            _ => match current {
                Some("=== old") => old.push(line),
                Some("=== new") => new.push(line),
                Some("=== expected") => expected.push(line),
                _ => {}
            },
        }
    }
    let trim = |mut v: Vec<&str>| {
        while v.last() == Some(&"") {
            v.pop();
        }
        v.join("\n")
    };
    (trim(old), trim(new), trim(expected))
}

fn describe(lines: &[DiffLine]) -> String {
    lines
        .iter()
        .map(|l| {
            let sign = match l.kind {
                LineKind::Context => ' ',
                LineKind::Removed => '-',
                LineKind::Added => '+',
            };
            let num = |n: Option<u32>| n.map_or(".".to_string(), |n| n.to_string());
            let text: String = match &l.spans {
                Some(spans) => spans
                    .iter()
                    .map(|s| {
                        if s.changed {
                            format!("⟦{}⟧", s.text)
                        } else {
                            s.text.clone()
                        }
                    })
                    .collect(),
                None => l.text.clone(),
            };
            format!("{sign} {} {} | {text}", num(l.old_line), num(l.new_line))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/render/diff");
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    assert!(entries.len() >= 10, "fixtures missing in {}", dir.display());
    let mut failures = Vec::new();
    for path in entries {
        let text = fs::read_to_string(&path).unwrap();
        let (old, new, expected) = sections(&text);
        let got = describe(&diff_block(&old, &new));
        if got != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- got\n{got}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn is_grapheme_boundary(text: &str, at: usize) -> bool {
    at == 0 || at == text.len() || text.grapheme_indices(true).any(|(i, _)| i == at)
}

/// Spans rebuild their line and every cut falls on a grapheme boundary.
fn check_spans(lines: &[DiffLine]) {
    for line in lines {
        if let Some(spans) = &line.spans {
            let joined: String = spans.iter().map(|s| s.text.as_str()).collect();
            assert_eq!(joined, line.text);
            let mut at = 0;
            for s in spans {
                assert!(
                    is_grapheme_boundary(&line.text, at),
                    "cut inside a grapheme at byte {at} of {:?}",
                    line.text
                );
                at += s.text.len();
            }
        }
    }
}

#[test]
fn line_numbers_count_each_side() {
    let lines = diff_block("a\nb\nc\n", "a\nB\nc\nd\n");
    let old: Vec<u32> = lines.iter().filter_map(|l| l.old_line).collect();
    let new: Vec<u32> = lines.iter().filter_map(|l| l.new_line).collect();
    assert_eq!(old, [1, 2, 3]);
    assert_eq!(new, [1, 2, 3, 4]);
    for l in &lines {
        match l.kind {
            LineKind::Context => assert!(l.old_line.is_some() && l.new_line.is_some()),
            LineKind::Removed => assert!(l.old_line.is_some() && l.new_line.is_none()),
            LineKind::Added => assert!(l.old_line.is_none() && l.new_line.is_some()),
        }
    }
}

#[test]
fn zwj_families_and_keycaps_stay_whole() {
    let p = changed_spans("x 👨‍👩‍👧 1️⃣ y", "x 👨‍👩‍👦 2️⃣ y", None).unwrap();
    let changed: Vec<&str> = p
        .new
        .iter()
        .filter(|s| s.changed)
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(changed.concat().graphemes(true).count(), 3, "{changed:?}");
    assert!(changed.concat().contains("👨‍👩‍👦"));
}

#[test]
fn a_spent_budget_degrades_to_line_level_and_still_covers_every_line() {
    let old: String = (0..10_000)
        .map(|i| format!("old line number {i} with some words\n"))
        .collect();
    let new: String = (0..10_000)
        .map(|i| format!("new text {} in another shape\n", i * 7))
        .collect();
    let limits = DiffLimits {
        line_cells: 0,
        span_cells: 0,
        ..DiffLimits::default()
    };
    let diff = diff_block_with(&old, &new, &limits);
    assert!(!diff.complete);
    assert!(diff.lines.iter().all(|l| l.spans.is_none()));
    assert_eq!(
        diff.lines
            .iter()
            .filter(|l| l.kind != LineKind::Added)
            .count(),
        10_000
    );
    assert_eq!(
        diff.lines
            .iter()
            .filter(|l| l.kind != LineKind::Removed)
            .count(),
        10_000
    );
}

#[test]
fn long_lines_are_not_diffed_inside() {
    let old = "a".repeat(20_000);
    let new = format!("{old}b");
    let lines = diff_block(&old, &new);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.spans.is_none()));
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "b", "word", " ", "_", "(", "é", "e\u{301}", "👋🏽", "🇫🇷", "🇮", "\u{200d}",
                "👩", "<", "&", "\r", "\t",
            ]),
            0..12,
        )
        .prop_map(|parts| parts.concat())
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(line(), 0..8).prop_map(|lines| lines.join("\n"))
    }

    proptest! {
        #![proptest_config(crate::prop_support::config(256))]

        #[test]
        fn spans_rebuild_lines_on_grapheme_boundaries(old in text(), new in text()) {
            let lines = diff_block(&old, &new);
            check_spans(&lines);
            let old_side: Vec<&str> = lines.iter().filter(|l| l.kind != LineKind::Added).map(|l| l.text.as_str()).collect();
            let new_side: Vec<&str> = lines.iter().filter(|l| l.kind != LineKind::Removed).map(|l| l.text.as_str()).collect();
            prop_assert_eq!(old_side, editblocks::diff::split_lines(&old));
            prop_assert_eq!(new_side, editblocks::diff::split_lines(&new));
        }

        #[test]
        fn pair_spans_cover_both_lines(a in line(), b in line()) {
            let a = a.replace('\r', "");
            let b = b.replace('\r', "");
            let p = changed_spans(&a, &b, None).unwrap();
            prop_assert_eq!(p.old.iter().map(|s| s.text.as_str()).collect::<String>(), a.clone());
            prop_assert_eq!(p.new.iter().map(|s| s.text.as_str()).collect::<String>(), b.clone());
            let unchanged = |spans: &[editblocks::diff::Span]| spans.iter().filter(|s| !s.changed).map(|s| s.text.clone()).collect::<Vec<_>>();
            prop_assert_eq!(unchanged(&p.old), unchanged(&p.new));
        }
    }
}

/// A large pair whose lines all differ: the line diff would need an edit
/// distance of 20,000 (about 200 million cells of Myers), past the budget.
fn every_line_different() -> (String, String) {
    let old: String = (0..10_000)
        .map(|i| format!("old line number {i} with some words\n"))
        .collect();
    let new: String = (0..10_000)
        .map(|i| format!("new text {} in another shape\n", i * 7))
        .collect();
    (old, new)
}

/// A 4,000-line file with one line in seven rewritten: a realistic edit.
fn large_edit() -> (String, String) {
    let old: String = (0..4_000)
        .map(|i| format!("    let value_{i} = compute({i}, {});\n", i % 13))
        .collect();
    let new: String = (0..4_000)
        .map(|i| match i % 7 {
            3 => format!("    let value_{i} = compute_all({i}, {}, extra);\n", i % 13),
            5 => format!(
                "    // inserted before {i}\n    let value_{i} = compute({i}, {});\n",
                i % 13
            ),
            _ => format!("    let value_{i} = compute({i}, {});\n", i % 13),
        })
        .collect();
    (old, new)
}

#[test]
fn the_same_large_pair_gives_the_same_diff_every_run() {
    for (old, new) in [large_edit(), every_line_different()] {
        let first = diff_block_with(&old, &new, &DiffLimits::default());
        for _ in 0..3 {
            assert_eq!(diff_block_with(&old, &new, &DiffLimits::default()), first);
        }
    }
}

#[test]
fn the_budget_reports_a_pathological_pair_cut_short_and_a_normal_one_complete() {
    let (old, new) = large_edit();
    let normal = diff_block_with(&old, &new, &DiffLimits::default());
    assert!(normal.complete);
    let context = normal
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Context)
        .count();
    // Every seventh line (i % 7 == 3) is rewritten: 571 of 4,000.
    assert_eq!(context, 4_000 - 571);
    assert!(normal.lines.iter().any(|l| l.spans.is_some()));

    let (old, new) = every_line_different();
    let cut = diff_block_with(&old, &new, &DiffLimits::default());
    assert!(!cut.complete);
    let removed = cut.lines.iter().filter(|l| l.kind == LineKind::Removed);
    let added = cut.lines.iter().filter(|l| l.kind == LineKind::Added);
    assert_eq!((removed.count(), added.count()), (10_000, 10_000));
}

#[test]
fn a_line_budget_cut_keeps_the_common_head_and_tail() {
    let (old, new) = every_line_different();
    let old = format!("head\n{old}tail\n");
    let new = format!("head\n{new}tail\n");
    let limits = DiffLimits {
        line_cells: 1_000,
        ..DiffLimits::default()
    };
    let diff = diff_block_with(&old, &new, &limits);
    assert!(!diff.complete);
    let first = diff.lines.first().unwrap();
    let last = diff.lines.last().unwrap();
    assert_eq!(
        (first.kind, first.text.as_str()),
        (LineKind::Context, "head")
    );
    assert_eq!((last.kind, last.text.as_str()), (LineKind::Context, "tail"));
    assert_eq!(last.old_line, Some(10_002));
}

#[test]
fn a_token_budget_leaves_a_long_pair_without_spans() {
    let a = "alpha beta gamma delta ".repeat(40);
    let b = "one two three four five ".repeat(40);
    assert!(changed_spans(&a, &b, Some(100)).is_none());
    assert!(changed_spans(&a, &b, None).is_some());
}

/// A pair whose line diff spends the default budget: the same texts give the
/// same diff, cut short, every time (no clock decides it), and the diff
/// still turns the old text into the new one.
#[test]
fn a_budget_cut_is_the_same_on_every_run_and_still_a_correct_diff() {
    let old: String = (0..10_000)
        .map(|i| format!("old line number {i} with some words\n"))
        .collect();
    let new: String = (0..10_000)
        .map(|i| {
            if i % 3 == 0 {
                format!("old line number {i} with some words\n")
            } else {
                format!("new text {} in another shape\n", i * 7)
            }
        })
        .collect();
    let first = diff_block_with(&old, &new, &DiffLimits::default());
    assert!(!first.complete, "this pair is meant to spend the budget");
    for _ in 0..3 {
        assert_eq!(diff_block_with(&old, &new, &DiffLimits::default()), first);
    }
    let side = |skip: LineKind| -> String {
        first
            .lines
            .iter()
            .filter(|l| l.kind != skip)
            .map(|l| format!("{}\n", l.text))
            .collect()
    };
    assert_eq!(side(LineKind::Added), old);
    assert_eq!(side(LineKind::Removed), new);
    // Lines called context are equal on both sides.
    for l in first.lines.iter().filter(|l| l.kind == LineKind::Context) {
        let (o, n) = (l.old_line.unwrap() as usize, l.new_line.unwrap() as usize);
        assert_eq!(old.lines().nth(o - 1), new.lines().nth(n - 1));
    }
}

/// An ordinary large edit (4,000 lines, one in eleven changed) stays within
/// the budget: the diff is complete and as minimal as Myers makes it.
#[test]
fn a_realistic_large_edit_is_not_cut_short() {
    let old: String = (0..4000)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    let new: String = (0..4000)
        .map(|i| {
            if i % 11 == 10 {
                format!("let value_{i} = compute({i}) + 1; // changed\n")
            } else {
                format!("let value_{i} = compute({i});\n")
            }
        })
        .collect();
    let diff = diff_block_with(&old, &new, &DiffLimits::default());
    assert!(diff.complete);
    let removed = diff
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Removed)
        .count();
    assert_eq!(removed, 4000 / 11);
    assert!(diff
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Context)
        .all(|l| l.spans.is_some()));
}

/// A long text against a short one: Myers walks every diagonal at each step
/// even where the edit graph is two columns wide, so the budget must count
/// that walk. 40,000 identical lines against two others used to take seconds.
#[test]
fn a_long_text_against_a_short_one_is_bounded_by_the_budget() {
    let old = "y\n".repeat(40_000);
    let diff = diff_block_with(&old, "a\nc", &DiffLimits::default());
    assert_eq!(diff.lines.len(), 40_002);
    assert_eq!(
        diff.lines
            .iter()
            .filter(|l| l.kind == LineKind::Removed)
            .count(),
        40_000
    );
}
