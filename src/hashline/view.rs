//! The read view (`N#ID|content`) and the excerpts shown in errors and
//! success messages.

use super::id::line_id;
use crate::text::TextFile;

pub use crate::text::body_lines;

/// A line as the view shows it: a stray `\r` ending the file's last line is not shown.
fn shown(line: &str) -> &str {
    crate::text::strip_line_end(line)
}

/// One line of the view: `N#ID|content`.
pub fn hashline(number: usize, line: &str, width: usize) -> String {
    format!("{number}#{}|{}", line_id(line, width), shown(line))
}

/// The read view of `content`: one `N#ID|content` line per line, numbered
/// from 1, joined by `\n` with no final newline.
///
/// A BOM is not shown and CRLF is read as LF. `start_line` and `end_line`
/// (1-based, inclusive) select a range; both are clamped to the file, so a
/// range past the end gives an empty string.
///
/// ```
/// use editblocks::hashline::{format_hashlines, line_id};
/// let view = format_hashlines("let a = 1;\nlet b = 2;\n", 2, None, 3);
/// assert_eq!(view, format!("2#{}|let b = 2;", line_id("let b = 2;", 3)));
/// ```
pub fn format_hashlines(
    content: &str,
    start_line: usize,
    end_line: Option<usize>,
    width: usize,
) -> String {
    let file = TextFile::from_text(content);
    let lines = body_lines(&file.body);
    let first = start_line.max(1);
    let last = end_line.unwrap_or(lines.len()).min(lines.len());
    if first > last {
        return String::new();
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate().take(last).skip(first - 1) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&hashline(i + 1, line, width));
    }
    out
}

/// Lines `marked` (0-based indices) with `context` lines around each, in the
/// view's form. Marked lines start with `marker`, the others with as many
/// spaces; `...` separates excerpts that are not adjacent.
pub fn excerpt(
    lines: &[&str],
    marked: &[usize],
    context: usize,
    width: usize,
    marker: &str,
) -> String {
    let mut shown_lines: Vec<usize> = Vec::new();
    for &m in marked {
        let from = m.saturating_sub(context);
        let to = (m + context).min(lines.len().saturating_sub(1));
        shown_lines.extend(from..=to);
    }
    shown_lines.retain(|&i| i < lines.len());
    shown_lines.sort_unstable();
    shown_lines.dedup();
    let pad = " ".repeat(marker.chars().count());
    let mut out = String::new();
    let mut previous: Option<usize> = None;
    for i in shown_lines {
        if let Some(p) = previous {
            if i > p + 1 {
                out.push_str("...\n");
            }
        }
        let prefix = if marked.contains(&i) {
            marker
        } else {
            pad.as_str()
        };
        out.push_str(prefix);
        // Messages quote at most a line's start; the ID still names the whole line.
        let line = lines[i];
        out.push_str(&format!(
            "{}#{}|{}",
            i + 1,
            line_id(line, width),
            crate::result::clip(shown(line), crate::result::MAX_QUOTED_CHARS)
        ));
        out.push('\n');
        previous = Some(i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_lines_cases() {
        assert_eq!(body_lines(""), Vec::<&str>::new());
        assert_eq!(body_lines("\n"), vec![""]);
        assert_eq!(body_lines("a\nb"), vec!["a", "b"]);
        assert_eq!(body_lines("a\nb\n"), vec!["a", "b"]);
        assert_eq!(body_lines("a\n\n"), vec!["a", ""]);
    }

    #[test]
    fn view_ranges_are_clamped() {
        let text = "a\nb\nc\n";
        assert_eq!(format_hashlines(text, 1, None, 3).lines().count(), 3);
        assert_eq!(format_hashlines(text, 0, Some(99), 3).lines().count(), 3);
        assert_eq!(format_hashlines(text, 4, None, 3), "");
        assert_eq!(format_hashlines(text, 3, Some(2), 3), "");
        assert!(format_hashlines(text, 2, Some(2), 3).starts_with("2#"));
        assert_eq!(
            format_hashlines("\u{feff}x\r\ny\r\n", 1, None, 2),
            format_hashlines("x\ny\n", 1, None, 2)
        );
    }

    #[test]
    fn excerpts_mark_and_separate() {
        let lines: Vec<&str> = (1..=20).map(|_| "x").collect();
        let text = excerpt(&lines, &[1, 15], 2, 2, ">>> ");
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 4 + 1 + 5);
        assert!(rows[1].starts_with(">>> 2#"));
        assert!(rows[0].starts_with("    1#"));
        assert_eq!(rows[4], "...");
    }
}
