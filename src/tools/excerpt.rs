//! Numbered excerpts of a file, as the tools show them: `cat -n` lines,
//! the lines around one, the lines nearest a text that was not found, and
//! the candidates of an ambiguous one.

use crate::result::NearLine;

/// Lines as `cat -n` shows them: the 1-based number right-aligned in six
/// columns, a tab, the line.
pub fn numbered(lines: &[&str], first_number: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&format!("{:>6}\t{}\n", first_number + i, line));
    }
    out
}

/// Lines `center - radius ..= center + radius` (1-based, clamped), numbered.
pub(super) fn around(body: &str, center: usize, radius: usize) -> String {
    let lines: Vec<&str> = crate::text::body_lines(body);
    if lines.is_empty() {
        return String::new();
    }
    let first = center.saturating_sub(radius).max(1);
    let last = (center + radius).min(lines.len());
    if first > last {
        return String::new();
    }
    // A snippet shows lines to read or copy; a huge line (minified code, data)
    // is cut with its length named, so one answer never carries megabytes.
    let shown: Vec<std::borrow::Cow<str>> = lines[first - 1..last]
        .iter()
        .map(|l| crate::result::clip(l, SNIPPET_LINE_MAX))
        .collect();
    numbered(&shown.iter().map(|l| l.as_ref()).collect::<Vec<_>>(), first)
}

/// The longest line a snippet quotes whole.
const SNIPPET_LINE_MAX: usize = 1_000;

/// The lines of `body` nearest to `wanted`, numbered, as a block to copy.
pub(super) fn current_lines(body: &str, wanted: &str) -> (String, Vec<NearLine>) {
    let probe = wanted
        .split('\n')
        .find(|l| !l.trim().is_empty())
        .unwrap_or(wanted);
    let near: Vec<NearLine> = crate::locate::explain::nearest_in_body(body, probe);
    let Some(best) = near.first() else {
        return (String::new(), near);
    };
    let span = wanted.split('\n').count().max(1);
    let block = around(body, best.line as usize + span / 2, span / 2 + 2);
    (block, near)
}

pub(super) fn candidates(body: &str, lines: &[u32]) -> String {
    lines
        .iter()
        .take(5)
        .map(|&l| around(body, l as usize, 1))
        .collect::<Vec<_>>()
        .join("   ...\n")
}
