//! Anchored changes (`modify_file`): `start` and optional `end` anchors of
//! 1-4 lines locate a region of whole lines; `content` replaces it.
//!
//! Each anchor is located as consecutive lines by [`crate::locate::locate`]
//! with [`ANCHOR_PASSES`] (exact, trailing whitespace ignored, all
//! surrounding whitespace ignored); the first pass with any candidate
//! decides, and it must have exactly one.

use super::ops::AnchoredChange;
use crate::locate::{locate as locate_lines, Located, Prefer, ANCHOR_PASSES};

/// Why an anchor did not locate one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnchorError {
    NotFound,
    /// 1-based first lines of every candidate.
    NotUnique(Vec<u32>),
}

impl std::fmt::Display for AnchorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnchorError::NotFound => f.write_str("the anchor lines were not found in the file"),
            AnchorError::NotUnique(lines) => write!(
                f,
                "the anchor lines occur {} times (lines {}); add lines to make them unique",
                lines.len(),
                lines
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::error::Error for AnchorError {}

/// Finds `anchor` (consecutive lines) in `lines` at or after line index
/// `from`: [`crate::locate::locate`] with [`ANCHOR_PASSES`].
pub fn find_anchor(lines: &[&str], anchor: &[String], from: usize) -> Result<usize, AnchorError> {
    let needle: Vec<&str> = anchor.iter().map(String::as_str).collect();
    match locate_lines(lines, &needle, &ANCHOR_PASSES, from, Prefer::Nothing) {
        Located::Unique { start, .. } => Ok(start),
        Located::Ambiguous { starts, .. } => Err(AnchorError::NotUnique(
            starts.iter().map(|&i| i as u32 + 1).collect(),
        )),
        Located::NotFound => Err(AnchorError::NotFound),
    }
}

/// A located region: 0-based inclusive line indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub first: usize,
    pub last: usize,
}

/// Which anchor failed, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocateError {
    pub part: &'static str,
    pub error: AnchorError,
    /// For the end anchor: the 1-based line where start was found.
    pub start_line: Option<u32>,
}

impl std::fmt::Display for LocateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} anchor: {}", self.part, self.error)?;
        if let Some(line) = self.start_line {
            write!(f, " after the start anchor at line {line}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LocateError {}

pub fn locate(lines: &[&str], change: &AnchoredChange) -> Result<Region, LocateError> {
    let first = find_anchor(lines, &change.start, 0).map_err(|error| LocateError {
        part: "start",
        error,
        start_line: None,
    })?;
    let after_start = first + change.start.len();
    let last = match &change.end {
        None => after_start - 1,
        Some(end) => {
            let at = find_anchor(lines, end, after_start).map_err(|error| LocateError {
                part: "end",
                error,
                start_line: Some(first as u32 + 1),
            })?;
            at + end.len() - 1
        }
    };
    Ok(Region { first, last })
}

/// Replaces each region with its content (regions must not overlap); keeps
/// the body's final newline. Also returns the byte ranges of `body` that were
/// replaced and the length of their new text, for [`crate::text::Provenance`].
pub fn splice(
    body: &str,
    mut edits: Vec<(Region, &[String])>,
) -> (String, Vec<(usize, usize, usize)>) {
    // Byte offset where each line starts, plus the end of the body.
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    if starts.last() == Some(&body.len()) && !body.is_empty() {
        starts.pop();
    }
    let line_count = if body.is_empty() { 0 } else { starts.len() };
    let text_end = |i: usize| starts.get(i + 1).map_or(body.len(), |s| s - 1);
    edits.sort_by_key(|e| e.0.first);
    // Each region as a byte range of the body and the text replacing it.
    let mut replaced: Vec<(usize, usize, String)> = Vec::new();
    for (region, content) in edits {
        let last = region.last.min(line_count.saturating_sub(1));
        if region.first > last || region.first >= line_count {
            continue;
        }
        let (mut start, mut end) = (starts[region.first], text_end(last));
        if content.is_empty() {
            // The lines go with one of their line breaks: the one after them, else the one before.
            if end < body.len() {
                end += 1;
            } else {
                start = start.saturating_sub(1);
            }
        }
        replaced.push((start, end, content.join("\n")));
    }
    let mut out = String::with_capacity(body.len());
    let mut at = 0;
    for (start, end, text) in &replaced {
        out.push_str(&body[at..*start]);
        out.push_str(text);
        at = *end;
    }
    out.push_str(&body[at..]);
    let ranges = replaced.iter().map(|(s, e, t)| (*s, *e, t.len())).collect();
    (out, ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(start: &[&str], end: Option<&[&str]>, content: &[&str]) -> AnchoredChange {
        let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        AnchoredChange {
            start: v(start),
            end: end.map(v),
            content: v(content),
        }
    }

    #[test]
    fn start_and_end_region() {
        let body = "def a():\n    pass\n\ndef b():\n    pass\n";
        let lines: Vec<&str> = crate::text::body_lines(body);
        let c = change(
            &["def a():"],
            Some(&["def b():"]),
            &["def a(x):", "    return x", "", "def b():"],
        );
        let r = locate(&lines, &c).unwrap();
        assert_eq!(r, Region { first: 0, last: 3 });
        assert_eq!(
            splice(body, vec![(r, &c.content)]).0,
            "def a(x):\n    return x\n\ndef b():\n    pass\n"
        );
    }

    #[test]
    fn anchors_tolerate_indentation_and_report_candidates() {
        let lines = ["if x:", "        y = 1", "}", "z", "}"];
        assert_eq!(find_anchor(&lines, &["    y = 1".to_string()], 0), Ok(1));
        assert_eq!(
            find_anchor(&lines, &["}".to_string()], 0),
            Err(AnchorError::NotUnique(vec![3, 5]))
        );
        assert_eq!(find_anchor(&lines, &["}".to_string()], 3), Ok(4));
        assert_eq!(
            find_anchor(&lines, &["nope".to_string()], 0),
            Err(AnchorError::NotFound)
        );
    }
}
