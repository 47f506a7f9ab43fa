//! HTML for a streaming block drawn in place in its file, whole or as what
//! changed since the last call.
//!
//! Layout (class names stable, everything from the reply or the file escaped):
//!
//! ```text
//! div.eb-block.eb-block-pending.eb-status-pending.eb-preview  [data-file-path]
//!   div.eb-header.eb-preview-header  [data-preview-state, data-line]   ← swapped (outerHTML)
//!     span.eb-path, span.eb-preview-state, span.eb-badge, div.eb-reason (when it cannot apply)
//!   div.eb-diff
//!     div.eb-preview-above   context lines before the located place
//!     div.eb-preview-rows    one div.eb-line per line of the block   ← appended; rows swapped by data-row
//!     div.eb-preview-partial the line being typed                    ← innerHTML swapped
//!     div.eb-preview-below   context lines after it                  ← innerHTML swapped
//! ```
//!
//! Rows are `eb-line-old` while the old text streams (which of its lines
//! stay is known only once the new text starts), then `eb-line-context`,
//! `eb-line-removed` and `eb-line-added`, with real file line numbers once
//! the block is located, and the changed spans (`eb-change`) of each new
//! line against the old line it replaces.

use serde::Serialize;

use super::{BlockPreview, Phase, PreviewState};

use crate::diff::changed_spans_ref;
use crate::render::{is_partial_marker, marker, push_line_text, sign_cell, Attrs, Theme};

/// Lines of context shown above and below a located block.
const CONTEXT: usize = 3;

/// What changed since the last [`BlockPreview::render_delta`]. When
/// `reset` is set it is the whole preview (replace the element); otherwise
/// apply the other fields, each only present when something changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewHtml {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reset: Option<String>,
    /// The new `.eb-preview-header` element (outerHTML).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Rows to append to `.eb-preview-rows`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub append: String,
    /// Rows to swap: `[data-row value, outerHTML]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<(String, String)>,
    /// The new content of `.eb-preview-partial`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// The new content of `.eb-preview-below`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below: Option<String>,
}

/// What the last render showed.
#[derive(Debug, Default)]
pub(super) struct Cursor {
    layout: Option<(u8, Option<usize>, bool, Theme)>,
    seq: usize,
    new: usize,
    trailing: usize,
    prefix: usize,
    /// What the header, the context below and the typed line were drawn from.
    state: Option<PreviewState>,
    below: Option<(usize, usize, i64)>,
    partial: Option<String>,
}

fn layout(p: &BlockPreview) -> (u8, Option<usize>, bool, Theme) {
    let phase = match p.phase {
        Phase::Old => 0,
        Phase::New => 1,
        Phase::Trailing => 2,
        Phase::Complete => 3,
    };
    (phase, p.located_start(), p.failure.is_some(), p.theme)
}

pub(super) fn delta(p: &mut BlockPreview, partial: Option<&str>) -> PreviewHtml {
    let key = layout(p);
    if p.cursor.layout != Some(key) {
        let html = full(p, partial);
        let c = Cursor {
            layout: Some(key),
            seq: p.seq.len(),
            new: p.new.len(),
            trailing: p.trailing.len(),
            prefix: p.prefix,
            state: Some(p.state()),
            below: below_key(p),
            partial: partial.map(String::from),
        };
        p.cursor = c;
        return PreviewHtml {
            reset: Some(html),
            ..PreviewHtml::default()
        };
    }
    let mut out = PreviewHtml::default();
    let state = p.state();
    if p.cursor.state.as_ref() != Some(&state) {
        out.header = Some(header(p));
        p.cursor.state = Some(state);
    }
    let mut append = String::new();
    for i in p.cursor.seq..p.seq.len() {
        seq_row(&mut append, p, i, None);
    }
    // edit-repl: new lines equal to the old ones turn those rows into context.
    for i in p.cursor.prefix..p.prefix.min(p.seq.len()) {
        let mut row = String::new();
        seq_row(&mut row, p, i, None);
        out.replace.push((format!("s{i}"), row));
    }
    for j in p.cursor.new..p.new.len() {
        new_row(&mut append, Some(&mut out.replace), p, j);
    }
    for t in p.cursor.trailing..p.trailing.len() {
        trailing_row(&mut append, p, t);
    }
    out.append = append;
    p.cursor.seq = p.seq.len();
    p.cursor.new = p.new.len();
    p.cursor.trailing = p.trailing.len();
    p.cursor.prefix = p.prefix;
    let b = below_key(p);
    if b != p.cursor.below {
        out.below = Some(below(p));
        p.cursor.below = b;
    }
    if p.cursor.partial.as_deref() != partial {
        out.partial = Some(partial_row(p, partial));
        p.cursor.partial = partial.map(String::from);
    }
    out
}

/// The parts of a preview, each already HTML, in the layout above.
pub(super) struct Frame<'a> {
    pub path: &'a str,
    /// Extra classes of the outer element (`eb-preview-patch`).
    pub class: &'a str,
    pub header: &'a str,
    pub above: &'a str,
    pub rows: &'a str,
    pub partial: &'a str,
    pub below: &'a str,
    pub theme: Theme,
}

/// The whole preview element around its parts (a text block's and a patch section's).
pub(super) fn frame(f: &Frame) -> String {
    let class = format!(
        "eb-block eb-block-pending eb-status-pending eb-preview{}{}{}",
        if f.class.is_empty() { "" } else { " " },
        f.class,
        f.theme.class()
    );
    let attrs = Attrs::new()
        .add("class", &class)
        .add("data-file-path", f.path)
        .add("data-status", "pending")
        .add("aria-busy", "true");
    format!(
        "<div{}>{}<div class=\"eb-diff\"><div class=\"eb-preview-above\">{}</div><div class=\"eb-preview-rows\">{}</div><div class=\"eb-preview-partial\">{}</div><div class=\"eb-preview-below\">{}</div></div></div>",
        attrs.0, f.header, f.above, f.rows, f.partial, f.below
    )
}

pub(super) fn full(p: &BlockPreview, partial: Option<&str>) -> String {
    let mut above = String::new();
    if let Some(s) = p.located_start() {
        for i in s.saturating_sub(CONTEXT)..s {
            file_row(&mut above, p, i, i as i64 - s as i64);
        }
    }
    let mut html = String::new();
    for i in 0..p.seq.len() {
        match (p.phase != Phase::Old).then(|| pair(p, i)).flatten() {
            Some(spans) => {
                let old_spans: Vec<(&str, bool)> =
                    spans.old.iter().map(|s| (s.text, s.changed)).collect();
                seq_row(&mut html, p, i, Some(&old_spans));
            }
            None => seq_row(&mut html, p, i, None),
        }
    }
    for j in 0..p.new.len() {
        new_row(&mut html, None, p, j);
    }
    for t in 0..p.trailing.len() {
        trailing_row(&mut html, p, t);
    }
    frame(&Frame {
        path: &p.path,
        class: "",
        header: &header(p),
        above: &above,
        rows: &html,
        partial: &partial_row(p, partial),
        below: &below(p),
        theme: p.theme,
    })
}

fn header(p: &BlockPreview) -> String {
    header_html(&p.path, &p.state(), None)
}

/// What the header says of a state.
fn label(state: &PreviewState) -> String {
    match state {
        PreviewState::Waiting => "waiting for the old lines".to_string(),
        PreviewState::Searching { count, .. } => {
            format!("searching: the old lines so far occur at {count} places")
        }
        PreviewState::Located { line } => format!("located at line {line}"),
        PreviewState::Ambiguous { lines, .. } => {
            format!("ambiguous: matches at lines {}", join_lines(lines))
        }
        PreviewState::NoMatch {
            since: 0,
            error_kind,
            ..
        } => format!("cannot apply: {error_kind}"),
        PreviewState::NoMatch { since, .. } => {
            format!("no match since line {since} of the old text")
        }
        PreviewState::Create => "new file".to_string(),
        PreviewState::Delete => "file deleted".to_string(),
        PreviewState::Unlocated => String::new(),
    }
}

/// The `.eb-preview-header` of a block (or of a patch's open `section`).
pub(super) fn header_html(path: &str, state: &PreviewState, section: Option<u32>) -> String {
    let line = match state {
        PreviewState::Located { line } => Some(*line),
        _ => None,
    };
    let label = match section {
        Some(k) if k > 0 => format!("section {k}: {}", label(state)),
        _ => label(state),
    };
    let attrs = Attrs::new()
        .add("class", "eb-header eb-preview-header")
        .add("data-preview-state", state.name())
        .opt("data-line", line)
        .opt("data-section", section.filter(|k| *k > 0));
    let mut html = format!("<div{}>", attrs.0);
    let attrs = Attrs::new()
        .add("class", "eb-path")
        .add("data-action", "open-file")
        .add("data-file-path", path)
        .opt("data-line", line);
    html.push_str(&format!("<span{} role=\"link\" tabindex=\"0\">", attrs.0));
    push_line_text(&mut html, path);
    html.push_str("</span><span class=\"eb-preview-state\">");
    push_line_text(&mut html, &label);
    html.push_str("</span><span class=\"eb-badge eb-badge-pending\" data-status=\"pending\">Writing\u{2026}</span>");
    match state {
        PreviewState::NoMatch {
            error_kind, reason, ..
        } => reason_div(&mut html, "no-match", error_kind, reason),
        PreviewState::Ambiguous { reason, .. } => {
            reason_div(&mut html, "ambiguous", "ambiguous", reason)
        }
        _ => {}
    }
    html.push_str("</div>");
    html
}

fn reason_div(html: &mut String, _state: &str, kind: &str, reason: &str) {
    html.push_str(&format!(
        "<div{}>",
        Attrs::new()
            .add("class", "eb-reason")
            .add("data-error-kind", kind)
            .0
    ));
    push_line_text(html, reason);
    html.push_str("</div>");
}

fn join_lines(lines: &[u32]) -> String {
    let shown: Vec<String> = lines.iter().take(10).map(|l| l.to_string()).collect();
    let more = lines.len().saturating_sub(10);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// One row. `old`/`new`: file line numbers (1-based) when known.
pub(super) fn row(
    html: &mut String,
    id: Option<&str>,
    kind: &str,
    old: Option<usize>,
    new: Option<usize>,
    spans: Option<&[(&str, bool)]>,
    text: &str,
) {
    let attrs = Attrs::new()
        .add("class", &format!("eb-line eb-line-{kind}"))
        .opt("data-row", id)
        .opt("data-old-line", old)
        .opt("data-new-line", new);
    html.push_str(&format!("<div{}>", attrs.0));
    let num = |n: Option<usize>| n.map_or(String::new(), |n| n.to_string());
    html.push_str(&format!(
        "<span class=\"eb-num eb-num-old\">{}</span><span class=\"eb-num eb-num-new\">{}</span>{}<span class=\"eb-text\">",
        num(old),
        num(new),
        sign_cell(kind)
    ));
    match spans {
        Some(spans) => {
            for (t, changed) in spans {
                if *changed {
                    html.push_str("<span class=\"eb-change\">");
                    push_line_text(html, t);
                    html.push_str("</span>");
                } else {
                    push_line_text(html, t);
                }
            }
        }
        None => push_line_text(html, text),
    }
    html.push_str("</span></div>");
}

/// A line of the file outside the block, `offset` lines from the block's start.
fn file_row(html: &mut String, p: &BlockPreview, i: usize, _offset: i64) {
    let Some(text) = p.lines.get(i) else { return };
    // Above the block old and new numbers agree; below, `below` passes the shifted number.
    row(html, None, "context", Some(i + 1), Some(i + 1), None, text);
}

fn seq_row(html: &mut String, p: &BlockPreview, i: usize, spans: Option<&[(&str, bool)]>) {
    let Some(text) = p.seq.get(i) else { return };
    let start = p.located_start();
    let old = start.map(|s| s + i + 1);
    let id = format!("s{i}");
    if p.phase == Phase::Old {
        row(html, Some(&id), "old", old, None, spans, text);
    } else if i < p.kept_prefix() {
        row(html, Some(&id), "context", old, old, None, text);
    } else {
        row(html, Some(&id), "removed", old, None, spans, text);
    }
}

/// The changed spans of old line `old_index` and the new line that replaces it, when they are alike.
fn pair(p: &BlockPreview, old_index: usize) -> Option<crate::diff::PairSpansRef<'_>> {
    let kept = p.kept_prefix();
    if old_index < kept {
        return None;
    }
    let p_len = if p.shares_prefix() { p.prefix } else { 0 };
    let old = p.seq.get(old_index)?;
    let new = p.new.get(p_len + old_index - kept)?;
    if old.len() > 400 || new.len() > 400 || old == new {
        return None;
    }
    changed_spans_ref(old, new, None).filter(|s| s.similarity >= 0.5)
}

/// New line `j`; with `swaps`, the old line it pairs with is drawn again with its spans.
fn new_row(
    html: &mut String,
    swaps: Option<&mut Vec<(String, String)>>,
    p: &BlockPreview,
    j: usize,
) {
    let Some(text) = p.new.get(j) else { return };
    let p_len = if p.shares_prefix() { p.prefix } else { 0 };
    if j < p_len {
        return; // shown by the context row it equals
    }
    let kept = p.kept_prefix();
    let r = j - p_len;
    let new_line = p.located_start().map(|s| s + kept + r + 1);
    let old_index = kept + r;
    match pair(p, old_index) {
        Some(spans) => {
            let new_spans: Vec<(&str, bool)> =
                spans.new.iter().map(|s| (s.text, s.changed)).collect();
            row(html, None, "added", None, new_line, Some(&new_spans), text);
            if let Some(swaps) = swaps {
                let old_spans: Vec<(&str, bool)> =
                    spans.old.iter().map(|s| (s.text, s.changed)).collect();
                let mut old_row = String::new();
                seq_row(&mut old_row, p, old_index, Some(&old_spans));
                swaps.push((format!("s{old_index}"), old_row));
            }
        }
        None => row(html, None, "added", None, new_line, None, text),
    }
}

fn trailing_row(html: &mut String, p: &BlockPreview, t: usize) {
    let Some(text) = p.trailing.get(t) else {
        return;
    };
    let start = p.located_start();
    let old = start.map(|s| s + p.seq.len() + t + 1);
    let new = start.map(|s| s + p.kept_prefix() + p.replacement().len() + t + 1);
    row(html, None, "context", old, new, None, text);
}

/// What the context below depends on: where it starts in the file and how
/// far the new lines shift its numbers.
fn below_key(p: &BlockPreview) -> Option<(usize, usize, i64)> {
    let s = p.located_start()?;
    let end = s + p.seq.len() + p.trailing.len();
    let shift = if p.phase == Phase::Old {
        0
    } else {
        p.replacement().len() as i64 - (p.seq.len() - p.kept_prefix()) as i64
    };
    Some((s, end, shift))
}

/// Context rows after the block, once located.
fn below(p: &BlockPreview) -> String {
    let mut html = String::new();
    let Some((_, end, shift)) = below_key(p) else {
        return html;
    };
    for i in end..(end + CONTEXT).min(p.lines.len()) {
        let new = (i as i64 + 1 + shift).max(1) as usize;
        row(
            &mut html,
            None,
            "context",
            Some(i + 1),
            Some(new),
            None,
            &p.lines[i],
        );
    }
    html
}

/// The line being typed (left out while it may be a marker cut short),
/// ending in the cursor.
fn partial_row(p: &BlockPreview, partial: Option<&str>) -> String {
    let line = partial
        .filter(|l| !is_partial_marker(l) && marker(l).is_none())
        .unwrap_or("");
    let kind = match p.phase {
        Phase::Old => "old",
        Phase::New => "added",
        _ => "context",
    };
    typing_row(kind, line)
}

/// The row of the line being typed (`eb-preview-typing`), laid out as the
/// other rows (empty number columns, the sign of its kind) and ending in the
/// cursor.
pub(super) fn typing_row(kind: &str, text: &str) -> String {
    let mut html = String::new();
    let attrs = Attrs::new().add(
        "class",
        &format!("eb-line eb-line-{kind} eb-preview-typing"),
    );
    html.push_str(&format!("<div{}><span class=\"eb-num eb-num-old\"></span><span class=\"eb-num eb-num-new\"></span>{}<span class=\"eb-text\">", attrs.0, sign_cell(kind)));
    push_line_text(&mut html, text);
    html.push_str("<span class=\"eb-cursor\" aria-hidden=\"true\"></span></span></div>");
    html
}
