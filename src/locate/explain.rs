//! The one explainer for an edit that was not located: the nearest lines with
//! their similarity, whitespace differences named, the quoting and listing
//! of lines, and "the new text is already there".
//!
//! The file is held as lines (no line terminators). An edit's location is the
//! sequence anchor + old + trailing, which must occur exactly once as whole,
//! consecutive lines.

use crate::result::{clip, Diagnostics, ErrorKind, NearLine, MAX_QUOTED_CHARS};

/// The three parts of an edit, each as lines.
pub(crate) struct Parts<'a> {
    pub anchor: Vec<&'a str>,
    pub old: Vec<&'a str>,
    pub trailing: Vec<&'a str>,
}

impl<'a> Parts<'a> {
    /// The whole sequence that must occur in the file.
    pub fn sequence(&self) -> Vec<&'a str> {
        let mut seq = Vec::with_capacity(self.anchor.len() + self.old.len() + self.trailing.len());
        seq.extend_from_slice(&self.anchor);
        seq.extend_from_slice(&self.old);
        seq.extend_from_slice(&self.trailing);
        seq
    }
}

/// A failure to locate an edit, explained.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LocateFailure {
    pub kind: ErrorKind,
    pub reason: String,
    pub estimated_line: Option<u32>,
    pub diagnostics: Diagnostics,
}

/// `{path} has no line `x``, or `has no blank line there` for a blank one
/// (never "has no line a blank line").
fn no_such_line(path: &str, expected: &str) -> String {
    if expected.trim().is_empty() {
        format!("{path} has no blank line there")
    } else {
        format!("{path} has no line {}", quote(expected))
    }
}

/// Quotes a line for a message, shortened when long (the one quoting of
/// lines in messages).
pub(crate) fn quote(text: &str) -> String {
    if text.is_empty() {
        return "a blank line".to_string();
    }
    format!("`{}`", crate::result::clip(text, 80))
}

/// Why a piece of text the model quoted (`what`: "old_string", "the
/// anchor") is not in `body`: the first of its non-blank lines that occurs
/// nowhere in the file (compared trimmed), as `(that line, a sentence naming
/// it)`; when every line occurs but not together, the first line and a
/// sentence saying so. The file's lines are gathered once, so a long quote
/// against a long file stays linear.
pub(crate) fn first_missing_line(body: &str, lines: &[&str], what: &str) -> (String, String) {
    let in_file: std::collections::HashSet<&str> = crate::text::body_lines(body)
        .into_iter()
        .map(str::trim)
        .collect();
    let mut non_empty = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    match non_empty.clone().find(|(_, l)| !in_file.contains(l.trim())) {
        Some((k, l)) if lines.len() > 1 => (
            l.to_string(),
            format!(
                " Line {} of {what}, {}, is not in the file.",
                k + 1,
                quote(l)
            ),
        ),
        Some((_, l)) => (l.to_string(), String::new()),
        None => {
            let first = non_empty
                .next()
                .map(|(_, l)| l.to_string())
                .unwrap_or_default();
            let hint = if lines.len() > 1 {
                format!(" Each of its lines occurs in the file, but not together in this order; copy {what} as one piece.")
            } else {
                String::new()
            };
            (first, hint)
        }
    }
}

/// "3", "3 and 9", "3, 9 and 15" (at most ten numbers, then "and N more").
pub(crate) fn list_lines(lines: &[u32]) -> String {
    const MAX: usize = 10;
    let shown: Vec<String> = lines.iter().take(MAX).map(|n| n.to_string()).collect();
    let more = lines.len().saturating_sub(MAX);
    match (shown.as_slice(), more) {
        ([], _) => String::new(),
        ([one], _) => one.clone(),
        (many, 0) => format!(
            "{} and {}",
            many[..many.len() - 1].join(", "),
            many[many.len() - 1]
        ),
        (many, more) => format!("{} and {more} more", many.join(", ")),
    }
}

/// The failure for an edit whose whole sequence occurs more than once.
pub(crate) fn ambiguous(path: &str, starts: &[u32], pass: Option<&str>) -> LocateFailure {
    let how = match pass {
        Some(p) if p != "exact" => format!(" (with {p} matching)"),
        _ => String::new(),
    };
    let reason = format!(
        "Edit location is ambiguous (matches at lines {}). Ambiguous anchor: the context lines occur {} times in {path}{how}; \
         include a distinctive line before the change (a function name, class definition or unique comment) so they match one place only.",
        list_lines(starts),
        starts.len()
    );
    LocateFailure {
        kind: ErrorKind::Ambiguous,
        reason,
        estimated_line: starts.first().copied(),
        diagnostics: Diagnostics {
            match_count: Some(starts.len() as u32),
            match_lines: starts.to_vec(),
            ..Diagnostics::default()
        },
    }
}

/// Explains why `parts` occurs nowhere in `lines`.
pub(crate) fn explain_not_found(path: &str, lines: &[String], parts: &Parts<'_>) -> LocateFailure {
    let seq = parts.sequence();
    let (a, o) = (parts.anchor.len(), parts.old.len());
    // The longest prefix of the sequence that occurs anywhere, and where.
    let mut best: Option<(usize, usize)> = None;
    if let Some(first) = seq.first() {
        for (i, line) in lines.iter().enumerate() {
            if line != first {
                continue;
            }
            let k = lines[i..]
                .iter()
                .zip(&seq)
                .take_while(|(l, s)| l.as_str() == **s)
                .count();
            if best.map_or(true, |(_, bk)| k > bk) {
                best = Some((i, k));
            }
        }
    }
    let matched = best.map_or(0, |(_, k)| k);
    let Some(expected) = seq.get(matched).copied() else {
        // Cannot happen (the whole sequence would have matched); say so plainly.
        return LocateFailure {
            kind: ErrorKind::OldMismatch,
            reason: format!("The edit could not be located in {path}."),
            estimated_line: None,
            diagnostics: Diagnostics::default(),
        };
    };
    let (kind, part) = if matched < a {
        (ErrorKind::AnchorNotFound, "anchor")
    } else if matched < a + o {
        (ErrorKind::OldMismatch, "old")
    } else {
        (ErrorKind::TrailingMismatch, "trailing")
    };
    let part_start = match part {
        "anchor" => 0,
        "old" => a,
        _ => a + o,
    };
    let mut diagnostics = Diagnostics {
        failed_part: Some(part.to_string()),
        expected_line: Some(clip(expected, MAX_QUOTED_CHARS).into_owned()),
        ..Diagnostics::default()
    };
    let heading = match kind {
        ErrorKind::AnchorNotFound => "Leading anchor not found in file",
        ErrorKind::OldMismatch if a == 0 => "Old lines not found in file",
        ErrorKind::OldMismatch => "Old lines don't match content after anchor",
        _ => "Trailing anchor not found after old lines",
    };
    let fix = match part {
        "anchor" => "Copy the context lines exactly from the current file.",
        "old" => "Copy the lines to replace exactly from the current file.",
        _ => "Copy the lines that follow the change exactly from the current file.",
    };

    let mut estimated_line;
    let detail;
    let target_index; // 0-based file line the expected line was compared with, if any
    match best {
        Some((pos, k)) if k > part_start || (k == part_start && k > 0) => {
            // The alignment reached the failing part: compare line by line.
            estimated_line = Some((pos + part_start + 1) as u32);
            let at = pos + k;
            match lines.get(at) {
                Some(actual) => {
                    target_index = Some(at);
                    let ws = whitespace_difference(expected, actual, at + 1);
                    detail = format!(
                        "{} line{} match{} from line {} of {path}, but line {} is {} where the edit has {}{}",
                        k,
                        if k == 1 { "" } else { "s" },
                        if k == 1 { "es" } else { "" },
                        pos + 1,
                        at + 1,
                        quote(actual),
                        quote(expected),
                        ws.as_ref().map(|w| format!(" (only whitespace differs: {w})")).unwrap_or_default()
                    );
                    diagnostics.whitespace = ws;
                }
                None => {
                    target_index = None;
                    detail = format!(
                        "{} line{} match{} from line {} of {path}, but the file ends at line {} where the edit expects {}",
                        k,
                        if k == 1 { "" } else { "s" },
                        if k == 1 { "es" } else { "" },
                        pos + 1,
                        lines.len(),
                        quote(expected)
                    );
                }
            }
        }
        _ => {
            // The first line of the failing part occurs nowhere after what matched.
            estimated_line = None;
            let ws_match = lines.iter().enumerate().find_map(|(i, l)| {
                (l != expected && squeeze(l) == squeeze(expected) && !squeeze(expected).is_empty())
                    .then(|| whitespace_difference(expected, l, i + 1).map(|w| (i, w)))
                    .flatten()
            });
            match ws_match {
                Some((i, w)) => {
                    target_index = Some(i);
                    estimated_line = Some((i + 1).saturating_sub(part_start.min(i)) as u32);
                    detail = format!(
                        "{}; line {} differs only in whitespace: {w}",
                        no_such_line(path, expected),
                        i + 1
                    );
                    diagnostics.whitespace = Some(w);
                }
                None => {
                    target_index = None;
                    detail = no_such_line(path, expected);
                }
            }
        }
    }

    diagnostics.nearest = nearest_lines(lines, expected, target_index, NEAR_COUNT);
    if estimated_line.is_none() {
        estimated_line = diagnostics
            .nearest
            .first()
            .filter(|n| n.similarity >= 0.6)
            .map(|n| n.line);
    }
    let near = match diagnostics.nearest.first() {
        Some(n)
            if diagnostics.whitespace.is_none() && Some((n.line - 1) as usize) != target_index =>
        {
            format!(
                " The closest line is {}: {} ({}% alike).",
                n.line,
                quote(&n.text),
                (n.similarity * 100.0).round()
            )
        }
        _ => String::new(),
    };
    LocateFailure {
        kind,
        reason: format!("{heading}: {detail}.{near} {fix}"),
        estimated_line,
        diagnostics,
    }
}

/// Where the text an edit would leave (its `result`: context and new
/// lines, as they stand after the edit) already occurs, 0-based, when it
/// occurs at exactly one place: the edit looks applied already (a model
/// re-sending an edit it made before). `None` when `result` has no non-blank
/// line, or occurs nowhere, or at several places.
pub(crate) fn already_applied<S: AsRef<str>>(lines: &[S], result: &[&str]) -> Option<usize> {
    if result.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    match super::locate(
        lines,
        result,
        &super::ANCHOR_PASSES,
        0,
        super::Prefer::Nothing,
    ) {
        super::Located::Unique { start, .. } => Some(start),
        _ => None,
    }
}

/// The words for an edit whose new text is already there: `what` is the
/// text that was not found ("the old lines", "old_string"), `line` the
/// 1-based line where the new text stands.
pub(crate) fn already_applied_reason(path: &str, what: &str, line: usize) -> String {
    format!(
        "The new text is already there: it stands at line {line} of {path}, and {what} is nowhere, so this edit looks applied already (sent twice?). Drop it; if a further change is meant, copy the current lines from the file."
    )
}

/// For text edits (`old` and `new` as text that may cover parts of lines,
/// LF): the 1-based line where `new` already stands at exactly one place
/// (literally, else as whole lines up to whitespace), when `old` was not
/// found. `None` for a blank `new` or one equal to `old`.
pub(crate) fn already_applied_text(body: &str, old: &str, new: &str) -> Option<usize> {
    if new.trim().is_empty() || old == new {
        return None;
    }
    match super::tolerant::literal_starts(body, new).as_slice() {
        [one] => return Some(super::tolerant::line_of(body, *one) as usize),
        [] => {}
        _ => return None,
    }
    let lines = crate::text::body_lines(body);
    already_applied(&lines, &crate::text::split_lines(new)).map(|at| at + 1)
}

/// [`explain_not_found`], saying "the new text is already there" when the
/// edit's result (anchor, `new`, trailing) stands in the file at one place.
pub(crate) fn explain_not_found_with_new(
    path: &str,
    lines: &[String],
    parts: &Parts<'_>,
    new: &[&str],
) -> LocateFailure {
    let mut failure = explain_not_found(path, lines, parts);
    if parts.old.as_slice() == new {
        return failure;
    }
    let mut result = parts.anchor.clone();
    result.extend_from_slice(new);
    result.extend_from_slice(&parts.trailing);
    if let Some(at) = already_applied(lines, &result) {
        let line = at + parts.anchor.len() + 1;
        failure.reason = already_applied_reason(path, "the old text", line);
        failure.estimated_line = Some(line as u32);
    }
    failure
}

/// The line with every whitespace character removed.
pub(crate) fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

use super::tolerant::leading_ws;

/// Names a difference between `expected` (from the edit) and `actual` (line
/// `line_no` of the file) when it is whitespace only.
pub(crate) fn whitespace_difference(
    expected: &str,
    actual: &str,
    line_no: usize,
) -> Option<String> {
    if expected == actual || squeeze(expected) != squeeze(actual) {
        return None;
    }
    let (e_lead, a_lead) = (leading_ws(expected), leading_ws(actual));
    if expected.trim_start() == actual.trim_start() || expected.trim() == actual.trim() {
        if e_lead != a_lead {
            let (e_tab, a_tab) = (e_lead.contains('\t'), a_lead.contains('\t'));
            if e_tab != a_tab {
                let (file_uses, edit_uses) = if a_tab {
                    ("tabs", "spaces")
                } else {
                    ("spaces", "tabs")
                };
                return Some(format!("tabs vs spaces: line {line_no} of the file indents with {file_uses}, the edit with {edit_uses}"));
            }
            return Some(format!(
                "indentation depth: line {line_no} of the file is indented by {} {}, the edit by {}",
                a_lead.chars().count(),
                if a_tab { "tabs" } else { "spaces" },
                e_lead.chars().count()
            ));
        }
        // Same indentation: the difference is at the end of the line.
        return Some(if actual.len() > expected.len() {
            format!("trailing whitespace: line {line_no} of the file ends with whitespace that the edit lacks")
        } else {
            format!("trailing whitespace: the edit ends the line with whitespace that line {line_no} of the file lacks")
        });
    }
    Some(format!(
        "whitespace inside the line: line {line_no} of the file spaces its words differently"
    ))
}

pub(crate) use super::tolerant::dice_bigrams as similarity;

/// The one cut-off of "nearest lines": how alike (0 to 1) a file line must
/// be to the line an edit expected to be shown.
pub const NEAR_CUTOFF: f32 = 0.4;
/// The one count of "nearest lines" shown.
pub const NEAR_COUNT: usize = 3;

/// The [`NEAR_COUNT`] lines of an LF body most like `wanted` (see [`nearest_lines`]).
pub(crate) fn nearest_in_body(body: &str, wanted: &str) -> Vec<NearLine> {
    nearest_lines(&crate::text::body_lines(body), wanted, None, NEAR_COUNT)
}

/// The `count` lines most like `expected` (at least [`NEAR_CUTOFF`] alike),
/// best first; ties go to the line nearest `near`.
pub(crate) fn nearest_lines<S: AsRef<str>>(
    lines: &[S],
    expected: &str,
    near: Option<usize>,
    count: usize,
) -> Vec<NearLine> {
    if expected.trim().is_empty() {
        // A blank line is like every blank line: only the line it was compared with helps.
        return near
            .and_then(|i| {
                lines.get(i).map(|l| NearLine {
                    line: (i + 1) as u32,
                    text: clip(l.as_ref(), MAX_QUOTED_CHARS).into_owned(),
                    similarity: similarity(expected, l.as_ref()),
                })
            })
            .into_iter()
            .collect();
    }
    let expected_pairs = expected.chars().count().saturating_sub(1);
    let mut best: Vec<(f32, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.as_ref();
        // Upper bound of the Dice coefficient from the lengths alone: skip hopeless lines cheaply.
        let pairs = line.len().saturating_sub(1);
        let bound = if pairs + expected_pairs == 0 {
            0.0
        } else {
            (2 * pairs.min(expected_pairs * 4)) as f32 / (pairs + expected_pairs) as f32
        };
        let floor = if best.len() == count {
            best.last().map_or(NEAR_CUTOFF, |b| b.0)
        } else {
            NEAR_CUTOFF
        };
        if bound < floor && line.chars().count() >= expected.chars().count() {
            continue;
        }
        let s = similarity(expected, line);
        if s < NEAR_CUTOFF {
            continue;
        }
        best.push((s, i));
        let target = near.unwrap_or(0);
        best.sort_by(|x, y| {
            y.0.total_cmp(&x.0)
                .then_with(|| x.1.abs_diff(target).cmp(&y.1.abs_diff(target)))
        });
        best.truncate(count);
    }
    best.into_iter()
        .map(|(s, i)| NearLine {
            line: (i + 1) as u32,
            text: clip(lines[i].as_ref(), MAX_QUOTED_CHARS).into_owned(),
            similarity: (s * 100.0).round() / 100.0,
        })
        .collect()
}

// The refusals of the tolerant matcher, in words.

use super::tolerant::{MatchError, TolerantError};
use super::Pass;

impl std::fmt::Display for TolerantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TolerantError::NotFound => write_not_found(f),
            TolerantError::Ambiguous { pass, lines } => write_ambiguous(f, *pass, lines),
        }
    }
}

impl std::error::Error for TolerantError {}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::NotFound => write_not_found(f),
            MatchError::Ambiguous { pass, lines } => write_ambiguous(f, *pass, lines),
            MatchError::CutShort { line } => write!(
                f,
                "the old text ends part-way through line {line} and the new text does not say where the rest of that line goes; quote the whole line"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

fn write_not_found(f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    f.write_str("the text was not found in the file")
}

fn write_ambiguous(f: &mut std::fmt::Formatter<'_>, pass: Pass, lines: &[u32]) -> std::fmt::Result {
    write!(
        f,
        "the text matches {} places ({} pass) at lines {}; add surrounding lines to make it unique",
        lines.len(),
        pass.as_str(),
        list_lines(lines)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn names_whitespace_differences() {
        assert!(whitespace_difference("    x", "\tx", 4)
            .unwrap()
            .starts_with("tabs vs spaces: line 4 of the file indents with tabs"));
        assert!(whitespace_difference("    x", "        x", 2)
            .unwrap()
            .starts_with(
                "indentation depth: line 2 of the file is indented by 8 spaces, the edit by 4"
            ));
        assert!(whitespace_difference("x", "x  ", 1)
            .unwrap()
            .starts_with("trailing whitespace: line 1 of the file ends"));
        assert!(whitespace_difference("a b", "a  b", 1)
            .unwrap()
            .starts_with("whitespace inside the line"));
        assert_eq!(whitespace_difference("a", "b", 1), None);
    }

    #[test]
    fn similarity_ranks_near_lines() {
        assert_eq!(similarity("abc", "abc"), 1.0);
        assert!(
            similarity("return a + b", "return a * b") > similarity("return a + b", "import os")
        );
        let file = lines("import os\n    return a * b\nprint(x)");
        let near = nearest_lines(&file, "    return a + b", None, 3);
        assert_eq!(near.first().map(|n| n.line), Some(2));
    }

    #[test]
    fn lists_lines_readably() {
        assert_eq!(list_lines(&[3, 9]), "3 and 9");
        assert_eq!(list_lines(&[3, 9, 15]), "3, 9 and 15");
        assert_eq!(
            list_lines(&(1..=12).collect::<Vec<_>>()),
            "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more"
        );
    }

    #[test]
    fn a_blank_line_is_named_as_such() {
        assert_eq!(no_such_line("a.py", ""), "a.py has no blank line there");
        assert_eq!(no_such_line("a.py", "x"), "a.py has no line `x`");
    }
}
