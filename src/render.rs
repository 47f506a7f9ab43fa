//! Escaped HTML for edit blocks, blocks still being written, and summaries.
//!
//! Every renderer returns a string of HTML. Everything that comes from a
//! reply or a file (paths, lines, reasons, shell commands) is escaped, in
//! text and in attribute values alike, so a path or a line holding markup
//! shows as text and never runs. Class names start with `eb-` and are
//! stable; style them with the package's `style.css` or your own.
//!
//! # Class names
//!
//! | element | classes |
//! |---|---|
//! | a block | `eb-block`, `eb-status-<status>` (`applied`, `validated`, `failed`, `skipped`, `not-in-context`, `none` without a result, `pending` while streaming), `eb-block-create` for a new file, `eb-block-pending` while streaming |
//! | its header | `eb-header`, holding `eb-path` (the file path), `eb-tag-create`, `eb-stats` (`eb-stat-added`, `eb-stat-removed`) and `eb-badge eb-badge-<status>` |
//! | the failure reason | `eb-reason` (with `data-error-kind`) |
//! | the diff | `eb-diff`, one `eb-line eb-line-<context\|removed\|added>` per line holding `eb-num eb-num-old`, `eb-num eb-num-new`, `eb-sign` and `eb-text`; changed spans inside `eb-text` are `eb-change` |
//! | streaming | `eb-line-old` (old section before the separator is written), `eb-divider`, `eb-cursor` |
//! | the summary | `eb-summary` (`eb-summary-ok`, `eb-summary-failed`), `eb-summary-counts` with `eb-count eb-count-<status>`, `eb-summary-section` with `eb-summary-title`, `eb-file-list` of `eb-file` (`eb-file-tag`), `eb-failure-list` of `eb-failure eb-failure-<status>` (`eb-failure-kind`, `eb-failure-reason`), `eb-shell-list` of `eb-shell`, `eb-more` (closes a list cut at 1,000 entries), `eb-retry-note` |
//!
//! # Click targets
//!
//! Elements a user may click carry `data-action` and where to go:
//! `data-file-path` (always), `data-line` (1-based file line, when known) and
//! `data-block-index` (when the result has one).
//!
//! | `data-action` | on | meaning |
//! |---|---|---|
//! | `open-file` | `.eb-path` in a block header, `.eb-file` in the summary | open the file at the edit |
//! | `show-edit` | the badge of an applied or validated block | go to the applied edit |
//! | `show-error` | the badge of a failed or skipped block, `.eb-failure` in the summary | show the error context |
//!
//! Every `.eb-line` of a diff also has `data-old-line` / `data-new-line`:
//! numbers within the block when there is no result, file lines counted from
//! `estimatedLine` when the edit applied or validated, and none when it
//! failed or was skipped (where it was aimed is only a guess).

use serde::{Deserialize, Serialize};

use crate::block::{preview, EditBlock};
use crate::diff::{diff_block, DiffLine, LineKind};
use crate::parser::{PendingSection, Section};
use crate::result::{ApplyResult, EditResult};

/// Escapes text for HTML content and double- or single-quoted attributes.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    push_escaped(&mut out, text);
    out
}

/// Escapes a line of a file or a reply (or a path, a reason, a command)
/// for display. Some characters would hide what an edit changes: control
/// characters other than tab vanish (NUL) or break the line (a lone CR), and
/// C1 controls, bidirectional overrides and isolates, zero-width characters
/// and line separators reorder or hide text on screen (a Trojan Source
/// edit). Each shows as a visible mark, in a span `eb-ctrl` with the code
/// point as its title: C0 controls and DEL as their Unicode control pictures
/// (U+2400…), the others as `<U+202E>`, as the CLI prints them.
pub(crate) fn push_line_text(out: &mut String, text: &str) {
    if !text.contains(is_hidden) {
        push_escaped(out, text);
        return;
    }
    let mut prev = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = prev.replace(c);
        if !is_hidden(c) || joins_letters(c, last, next) {
            push_escaped(out, c.encode_utf8(&mut [0; 4]));
            continue;
        }
        let code = u32::from(c);
        out.push_str("<span class=\"eb-ctrl\" title=\"U+");
        push_hex4(out, code);
        out.push_str("\">");
        if code < 0x20 {
            out.push(char::from_u32(0x2400 + code).unwrap_or('\u{fffd}'));
        } else if code == 0x7f {
            out.push('\u{2421}');
        } else {
            out.push_str("&lt;U+");
            push_hex4(out, code);
            out.push_str("&gt;");
        }
        out.push_str("</span>");
    }
}

/// A character [`push_line_text`] draws as a mark: see there.
/// A zero-width joiner or non-joiner between two visible non-ASCII
/// characters is part of the writing, not a hiding place: it builds emoji
/// sequences (`👩\u{200D}💻`) and Persian and Indic words, and marking it
/// would break them on screen. Next to ASCII, a space, another hidden
/// character or the line's end (`"admin\u{200D}"`) it is marked.
fn joins_letters(c: char, prev: Option<char>, next: Option<char>) -> bool {
    let visible =
        |x: Option<char>| x.is_some_and(|x| !x.is_ascii() && !x.is_whitespace() && !is_hidden(x));
    matches!(c, '\u{200C}' | '\u{200D}') && visible(prev) && visible(next)
}

fn is_hidden(c: char) -> bool {
    (c < ' ' && c != '\t')
        || c == '\u{7f}'
        || (c >= '\u{80}' && (c <= '\u{9f}' || crate::path::is_invisible(c)))
}

/// Appends `n` in decimal. The renderers write numbers and HTML with plain
/// pushes, not `format!`: the formatting machinery it instantiates is a
/// large part of a small module (`editblocks/lite`).
pub(crate) fn push_num(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in digits.get(at..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// Appends `code` in upper-case hexadecimal, at least four digits (`{:04X}`).
fn push_hex4(out: &mut String, code: u32) {
    let mut started = false;
    for shift in (0..8).rev() {
        let digit = (code >> (shift * 4)) & 0xf;
        if digit != 0 || started || shift < 4 {
            started = true;
            out.push(char::from_digit(digit, 16).map_or('0', |c| c.to_ascii_uppercase()));
        }
    }
}

fn push_all(out: &mut String, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// An edit result as the renderers read it: every field optional, so results
/// built by hand (or by an older version) render too.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultView {
    pub block_index: Option<usize>,
    /// Results name it `path` (older ones `filePath`).
    #[serde(alias = "path")]
    pub file_path: String,
    /// `applied`, `validated`, `failed`, `skipped` or `not-in-context`.
    pub status: String,
    pub error_kind: Option<String>,
    pub reason: Option<String>,
    pub estimated_line: Option<u32>,
    pub anchor_preview: Option<String>,
    pub old_preview: Option<String>,
    pub new_preview: Option<String>,
}

impl From<&EditResult> for ResultView {
    fn from(r: &EditResult) -> Self {
        ResultView {
            block_index: Some(r.block_index),
            file_path: r.path.clone(),
            status: status_name(r.status).to_string(),
            error_kind: r.error_kind.map(|k| k.as_str().to_string()),
            reason: r.reason.clone(),
            estimated_line: r.estimated_line,
            anchor_preview: Some(r.anchor_preview.clone()),
            old_preview: Some(r.old_preview.clone()),
            new_preview: Some(r.new_preview.clone()),
        }
    }
}

fn status_name(status: crate::result::Status) -> &'static str {
    use crate::result::Status::*;
    match status {
        Applied => "applied",
        Validated => "validated",
        Failed => "failed",
        Skipped => "skipped",
        NotInContext => "not-in-context",
    }
}

/// What a summary is drawn from: a whole apply result or just its results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SummaryView {
    pub results: Vec<ResultView>,
    pub files_modified: Option<Vec<String>>,
    pub files_created: Vec<String>,
    pub files_auto_added: Vec<String>,
    pub shell_suggestions: Vec<String>,
    pub retry_prompt: Option<String>,
}

impl From<&ApplyResult> for SummaryView {
    fn from(r: &ApplyResult) -> Self {
        SummaryView {
            results: r.results.iter().map(ResultView::from).collect(),
            files_modified: Some(r.files_modified.clone()),
            files_created: r.files_created.clone(),
            files_auto_added: r.files_auto_added.clone(),
            shell_suggestions: r.shell_suggestions.clone(),
            retry_prompt: r.retry_prompt.clone(),
        }
    }
}

/// The two shapes a summary accepts: a list of results or an apply result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SummaryInput {
    Results(Vec<ResultView>),
    Apply(SummaryView),
}

impl From<SummaryInput> for SummaryView {
    fn from(input: SummaryInput) -> Self {
        match input {
            SummaryInput::Results(results) => results.into(),
            SummaryInput::Apply(summary) => summary,
        }
    }
}

impl From<Vec<ResultView>> for SummaryView {
    fn from(results: Vec<ResultView>) -> Self {
        SummaryView {
            results,
            ..SummaryView::default()
        }
    }
}

/// Choices for [`render_edits_summary`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SummaryOptions {
    /// Show the retry note even when the summary has no `retry_prompt`
    /// (when you only pass results but did prepare a prompt).
    pub retry_prompt_prepared: bool,
    /// The retry note's text, instead of the default sentence.
    pub retry_note: Option<String>,
    /// `light` or `dark` forces the summary's colours; `auto` (the default)
    /// follows the system.
    pub theme: Theme,
}

/// The default retry note.
pub const RETRY_NOTE: &str =
    "A retry prompt for the ambiguous edits has been prepared; review it before sending.";

/// Which colours a rendered root takes (`style.css`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// The system's preference (`prefers-color-scheme`), or an ancestor's
    /// `eb-light` / `eb-dark` class.
    #[default]
    Auto,
    /// Light, whatever the system prefers (`eb-light` on the root).
    Light,
    /// Dark, whatever the system prefers (`eb-dark` on the root).
    Dark,
}

impl Theme {
    /// Every name [`Theme::from_name`] takes, in the order refusals list them.
    pub const NAMES: [&'static str; 3] = ["light", "dark", "auto"];

    /// `'light'`, `'dark'` or `'auto'`.
    pub fn from_name(name: &str) -> Option<Theme> {
        match name {
            "auto" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// The class the root carries, with its leading space (none for `Auto`).
    pub(crate) fn class(self) -> &'static str {
        match self {
            Theme::Auto => "",
            Theme::Light => " eb-light",
            Theme::Dark => " eb-dark",
        }
    }
}

/// How the rows of a diff are laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// One column: removed lines, then the added lines that replace them.
    #[default]
    LineByLine,
    /// Two columns, old and new, a removed line beside the added line that
    /// replaces it.
    SideBySide,
}

impl Layout {
    /// Every name [`Layout::from_name`] takes, in the order refusals list them.
    pub const NAMES: [&'static str; 2] = ["line-by-line", "side-by-side"];

    /// `'line-by-line'` or `'side-by-side'`.
    pub fn from_name(name: &str) -> Option<Layout> {
        match name {
            "line-by-line" => Some(Layout::LineByLine),
            "side-by-side" => Some(Layout::SideBySide),
            _ => None,
        }
    }
}

/// Lines of unchanged context [`render_file_change`] keeps around each
/// change by default; the rest is folded.
pub const FILE_CHANGE_CONTEXT: u32 = 3;

/// Choices for [`render_edit_block_with`] and [`render_file_change_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawOptions {
    pub theme: Theme,
    pub layout: Layout,
    /// [`render_file_change_with`] only: the unchanged lines kept around each
    /// change (the others fold behind an `expand` action); `None` draws the
    /// whole file.
    pub context: Option<u32>,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            theme: Theme::Auto,
            layout: Layout::LineByLine,
            context: Some(FILE_CHANGE_CONTEXT),
        }
    }
}

/// The statuses we know, for class names: anything else is `other`, so no
/// outside string ever lands in a class attribute unchecked.
fn status_class(status: &str) -> &'static str {
    match status {
        "applied" => "applied",
        "validated" => "validated",
        "failed" => "failed",
        "skipped" => "skipped",
        "not-in-context" => "not-in-context",
        "" => "none",
        _ => "other",
    }
}

fn status_label(status: &str) -> &'static str {
    match status {
        "applied" => "Applied",
        "validated" => "Would apply",
        "failed" => "Failed",
        "skipped" => "Skipped",
        "not-in-context" => "Not in context",
        _ => "Unknown",
    }
}

/// Builds an attribute list; values are escaped.
pub(crate) struct Attrs(pub(crate) String);

impl Attrs {
    pub(crate) fn new() -> Self {
        Attrs(String::new())
    }
    pub(crate) fn add(mut self, name: &str, value: &str) -> Self {
        self.0.push(' ');
        self.0.push_str(name);
        self.0.push_str("=\"");
        push_escaped(&mut self.0, value);
        self.0.push('"');
        self
    }
    /// An attribute holding a number, when there is one.
    pub(crate) fn num(mut self, name: &str, value: Option<u64>) -> Self {
        if let Some(v) = value {
            push_all(&mut self.0, &[" ", name, "=\""]);
            push_num(&mut self.0, v);
            self.0.push('"');
        }
        self
    }
    /// An attribute holding a text, when there is one.
    pub(crate) fn text(self, name: &str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.add(name, v),
            None => self,
        }
    }
    pub(crate) fn opt<T: ToString>(self, name: &str, value: Option<T>) -> Self {
        match value {
            Some(v) => self.add(name, &v.to_string()),
            None => self,
        }
    }
}

/// Picks the result that belongs to `block`: the one at `index` when given,
/// else the first for the same file whose previews match the block, else the
/// first for the same file.
pub fn find_result<'a>(
    block: &EditBlock,
    results: &'a [ResultView],
    index: Option<usize>,
) -> Option<&'a ResultView> {
    if let Some(i) = index {
        if let Some(r) = results.iter().find(|r| r.block_index == Some(i)) {
            return Some(r);
        }
        return results
            .get(i)
            .filter(|r| r.block_index.is_none() && same_path(&r.file_path, &block.file_path));
    }
    let same_file = || {
        results
            .iter()
            .filter(|r| same_path(&r.file_path, &block.file_path))
    };
    let previews = (
        preview(&block.anchor, 50),
        preview(&block.old_lines, 50),
        preview(&block.new_lines, 50),
    );
    same_file()
        .find(|r| {
            r.anchor_preview.as_deref() == Some(previews.0.as_str())
                && r.old_preview.as_deref() == Some(previews.1.as_str())
                && r.new_preview.as_deref() == Some(previews.2.as_str())
        })
        .or_else(|| same_file().next())
}

/// Results carry normalised paths and blocks the path as written (`./a//b`),
/// so both are compared the way the engine normalises them.
fn same_path(a: &str, b: &str) -> bool {
    let clean =
        |p: &str| crate::path::normalize_path(p.trim()).unwrap_or_else(|_| p.trim().to_string());
    a == b || clean(a) == clean(b)
}

fn join_sections(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The diff a block makes: its context and old lines against its context and
/// new lines.
pub fn block_diff(block: &EditBlock) -> Vec<DiffLine> {
    let old = join_sections(&[&block.anchor, &block.old_lines, &block.trailing_anchor]);
    let new = join_sections(&[&block.anchor, &block.new_lines, &block.trailing_anchor]);
    diff_block(&old, &new)
}

/// A whole edit block: header with the file path and status badge, the
/// failure reason, and the diff with changed spans.
///
/// The gutter shows file lines counted from `estimated_line` when the edit
/// applied or validated, lines within the block when there is no result, and
/// nothing when the edit failed or was skipped.
pub fn render_edit_block(block: &EditBlock, result: Option<&ResultView>) -> String {
    render_edit_block_with(block, result, &DrawOptions::default())
}

/// [`render_edit_block`] with a theme and a layout (`options.context` is
/// not used: a block is drawn whole).
pub fn render_edit_block_with(
    block: &EditBlock,
    result: Option<&ResultView>,
    options: &DrawOptions,
) -> String {
    draw_block(block, &block_diff(block), result, options, false)
}

/// A block's header, reason and diff. `whole_file`: the diff is of whole
/// files, numbered by file line whatever the status, and folded to
/// `options.context` lines around the changes.
fn draw_block(
    block: &EditBlock,
    lines: &[DiffLine],
    result: Option<&ResultView>,
    options: &DrawOptions,
    whole_file: bool,
) -> String {
    let status = result.map_or("", |r| r.status.as_str());
    let class = status_class(status);
    let file_line = result.and_then(|r| r.estimated_line);
    // An applied or validated edit's `estimatedLine` is its first context
    // line, so the gutter counts file lines from it. A failed edit's
    // `estimatedLine` only says where it was aimed (often the part that did
    // not match), so its lines get no numbers rather than wrong ones.
    let numbering = match (result, file_line) {
        _ if whole_file => Some(0),
        (None, _) => Some(0),
        (Some(_), Some(line)) if matches!(class, "applied" | "validated") => {
            Some(line.saturating_sub(1))
        }
        (Some(_), None) if matches!(class, "applied" | "validated") => Some(0),
        _ => None,
    };
    let block_index = result.and_then(|r| r.block_index);
    let create = block.is_create();

    let mut html =
        String::with_capacity(256 + lines.iter().map(|l| l.text.len() + 160).sum::<usize>());
    let block_class = [
        "eb-block eb-status-",
        class,
        if create { " eb-block-create" } else { "" },
        if options.layout == Layout::SideBySide {
            " eb-side-by-side"
        } else {
            ""
        },
        options.theme.class(),
    ]
    .concat();
    let attrs = Attrs::new()
        .add("class", &block_class)
        .add("data-file-path", &block.file_path)
        .add(
            "data-status",
            if status.is_empty() { "none" } else { class },
        )
        .add("data-format", block.format.as_str())
        .num("data-line", file_line.map(u64::from))
        .num("data-block-index", block_index.map(|i| i as u64));
    push_all(&mut html, &["<div", &attrs.0, ">"]);

    // Header: path, new-file tag, +/- counts, badge.
    html.push_str("<div class=\"eb-header\">");
    let mut title = ["Open ", &block.file_path].concat();
    if let Some(l) = file_line {
        title.push_str(" at line ");
        push_num(&mut title, u64::from(l));
    }
    let path_attrs = Attrs::new()
        .add("class", "eb-path")
        .add("data-action", "open-file")
        .add("data-file-path", &block.file_path)
        .num("data-line", file_line.map(u64::from))
        .add("title", &title);
    push_all(
        &mut html,
        &["<span", &path_attrs.0, " role=\"link\" tabindex=\"0\">"],
    );
    push_line_text(&mut html, &block.file_path);
    html.push_str("</span>");
    if create {
        html.push_str("<span class=\"eb-tag-create\">new file</span>");
    }
    let added = lines.iter().filter(|l| l.kind == LineKind::Added).count();
    let removed = lines.iter().filter(|l| l.kind == LineKind::Removed).count();
    html.push_str("<span class=\"eb-stats\"><span class=\"eb-stat-added\">+");
    push_num(&mut html, added as u64);
    html.push_str("</span><span class=\"eb-stat-removed\">\u{2212}");
    push_num(&mut html, removed as u64);
    html.push_str("</span></span>");
    if let Some(r) = result {
        let action = match class {
            "applied" | "validated" => "show-edit",
            _ => "show-error",
        };
        let badge = Attrs::new()
            .add("class", &["eb-badge eb-badge-", class].concat())
            .add("data-action", action)
            .add("data-status", class)
            .add("data-file-path", &block.file_path)
            .num("data-line", file_line.map(u64::from))
            .num("data-block-index", block_index.map(|i| i as u64))
            .text("data-error-kind", r.error_kind.as_deref())
            .text("title", r.reason.as_deref());
        push_all(
            &mut html,
            &[
                "<span",
                &badge.0,
                " role=\"button\" tabindex=\"0\">",
                status_label(&r.status),
                "</span>",
            ],
        );
    }
    html.push_str("</div>");

    if let Some(r) = result {
        if let Some(reason) = r.reason.as_deref().filter(|s| !s.is_empty()) {
            let attrs = Attrs::new()
                .add("class", "eb-reason")
                .text("data-error-kind", r.error_kind.as_deref());
            push_all(&mut html, &["<div", &attrs.0, " role=\"note\">"]);
            if let Some(kind) = r.error_kind.as_deref() {
                html.push_str("<span class=\"eb-reason-kind\">");
                push_escaped(&mut html, kind);
                html.push_str("</span> ");
            }
            push_line_text(&mut html, reason);
            html.push_str("</div>");
        }
    }

    html.push_str("<div class=\"eb-diff\">");
    let context = if whole_file { options.context } else { None };
    for part in fold(lines, context) {
        match part {
            Part::Lines(run) => push_rows(&mut html, run, numbering, options.layout),
            Part::Hunk(h) => push_hunk_header(&mut html, &h),
            Part::Fold(f) => push_fold(&mut html, &f),
        }
    }
    html.push_str("</div></div>");
    html
}

/// What a diff is drawn as: runs of rows, hunk headers and folds.
enum Part<'a> {
    Lines(&'a [DiffLine]),
    Hunk(Span),
    Fold(Span),
}

/// Lines `old_start..old_start + old_count` of the old file and
/// `new_start..new_start + new_count` of the new one (1-based).
struct Span {
    old_start: u32,
    old_count: u32,
    new_start: u32,
    new_count: u32,
}

/// The span of a run of diff lines; `before` are the file lines before it
/// (old, new).
fn span_of(run: &[DiffLine], before: (u32, u32)) -> Span {
    let old_count = run.iter().filter(|l| l.old_line.is_some()).count() as u32;
    let new_count = run.iter().filter(|l| l.new_line.is_some()).count() as u32;
    Span {
        old_start: before.0 + 1,
        old_count,
        new_start: before.1 + 1,
        new_count,
    }
}

/// Splits `lines` into hunks: each change with `context` unchanged lines
/// around it, the unchanged lines between hunks folded. `None`, or a diff
/// without changes worth folding, is one run of every line.
fn fold(lines: &[DiffLine], context: Option<u32>) -> Vec<Part<'_>> {
    let Some(context) = context.map(|c| c as usize) else {
        return vec![Part::Lines(lines)];
    };
    let changed: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].kind != LineKind::Context)
        .collect();
    // Which lines show: within `context` of a change.
    let mut shown = vec![false; lines.len()];
    for &i in &changed {
        let from = i.saturating_sub(context);
        let to = (i + context + 1).min(lines.len());
        for s in &mut shown[from..to] {
            *s = true;
        }
    }
    if changed.is_empty() || shown.iter().all(|s| *s) {
        return vec![Part::Lines(lines)];
    }
    let mut parts = Vec::new();
    // File lines (old, new) before index `at`.
    let mut before = (0u32, 0u32);
    let mut at = 0;
    while at < lines.len() {
        let visible = shown[at];
        let end = (at..lines.len())
            .find(|&i| shown[i] != visible)
            .unwrap_or(lines.len());
        let run = &lines[at..end];
        let span = span_of(run, before);
        if visible {
            parts.push(Part::Hunk(span));
            parts.push(Part::Lines(run));
        } else {
            parts.push(Part::Fold(span));
        }
        before.0 += run.iter().filter(|l| l.old_line.is_some()).count() as u32;
        before.1 += run.iter().filter(|l| l.new_line.is_some()).count() as u32;
        at = end;
    }
    parts
}

/// `@@ -l,n +l,n @@`, as a unified diff states a hunk.
fn push_hunk_header(html: &mut String, h: &Span) {
    let mut text = String::from("@@ -");
    push_num(&mut text, u64::from(h.old_start));
    text.push(',');
    push_num(&mut text, u64::from(h.old_count));
    text.push_str(" +");
    push_num(&mut text, u64::from(h.new_start));
    text.push(',');
    push_num(&mut text, u64::from(h.new_count));
    text.push_str(" @@");
    let attrs = Attrs::new()
        .add("class", "eb-line eb-hunk")
        .num("data-old-start", Some(u64::from(h.old_start)))
        .num("data-old-count", Some(u64::from(h.old_count)))
        .num("data-new-start", Some(u64::from(h.new_start)))
        .num("data-new-count", Some(u64::from(h.new_count)));
    push_all(
        html,
        &[
            "<div",
            &attrs.0,
            "><span class=\"eb-num eb-num-old\"></span><span class=\"eb-num eb-num-new\"></span><span class=\"eb-sign\"></span><span class=\"eb-text\">",
            &text,
            "</span></div>",
        ],
    );
}

/// Unchanged lines left out: a button (`data-action="expand"`) naming
/// their range in both files, for the app to draw them.
fn push_fold(html: &mut String, f: &Span) {
    let attrs = Attrs::new()
        .add("class", "eb-line eb-fold")
        .add("data-action", "expand")
        .num("data-old-line", Some(u64::from(f.old_start)))
        .num("data-new-line", Some(u64::from(f.new_start)))
        .num("data-count", Some(u64::from(f.old_count)));
    let mut label = String::new();
    push_num(&mut label, u64::from(f.old_count));
    label.push_str(if f.old_count == 1 {
        " unchanged line"
    } else {
        " unchanged lines"
    });
    push_all(
        html,
        &[
            "<div",
            &attrs.0,
            " role=\"button\" tabindex=\"0\" aria-label=\"Show ",
            &label,
            "\"><span class=\"eb-num eb-num-old\"></span><span class=\"eb-num eb-num-new\"></span><span class=\"eb-sign\">\u{22ef}</span><span class=\"eb-text\">",
            &label,
            "</span></div>",
        ],
    );
}

/// The sign column of a row of `kind`, and for added and removed rows the
/// kind in words for screen readers (`eb-sr`, hidden on screen): a sign or
/// a colour alone does not say what changed.
pub(crate) fn sign_cell(kind: &str) -> &'static str {
    match kind {
        "added" => "<span class=\"eb-sign\">+</span><span class=\"eb-sr\">added: </span>",
        "removed" => "<span class=\"eb-sign\">-</span><span class=\"eb-sr\">removed: </span>",
        _ => "<span class=\"eb-sign\"> </span>",
    }
}

/// Rows of a run of diff lines in `layout`.
fn push_rows(html: &mut String, run: &[DiffLine], numbering: Option<u32>, layout: Layout) {
    match layout {
        Layout::LineByLine => {
            for line in run {
                push_diff_line(html, line, numbering);
            }
        }
        Layout::SideBySide => push_side_by_side(html, run, numbering),
    }
}

/// One file's change from any edit style ([`crate::apply::FileChange`]:
/// blocks, tool calls, hashline calls, patches), drawn as a text block is:
/// the diff of the whole file before and after, numbered by file line.
/// `status` (`applied`, `validated`, …) adds the badge.
pub fn render_file_change(change: &crate::apply::FileChange, status: Option<&str>) -> String {
    render_file_change_with(change, status, &DrawOptions::default())
}

/// [`render_file_change`] with a theme, a layout and the context kept
/// around each change: by default the unchanged lines further than
/// [`FILE_CHANGE_CONTEXT`] lines from a change fold behind an `eb-fold`
/// (`data-action="expand"`, the range in `data-old-line`, `data-new-line`,
/// `data-count`), and each hunk starts with its `@@ -l,n +l,n @@` header.
pub fn render_file_change_with(
    change: &crate::apply::FileChange,
    status: Option<&str>,
    options: &DrawOptions,
) -> String {
    let lines = |text: &Option<String>| match text {
        None => String::new(),
        Some(t) => {
            let body = crate::text::TextFile::from_text(t).body;
            body.strip_suffix('\n').map(str::to_string).unwrap_or(body)
        }
    };
    let block = EditBlock::new(
        crate::block::Format::EditRepl,
        change.path.clone(),
        lines(&change.before),
        lines(&change.after),
    );
    let result = status.map(|s| ResultView {
        file_path: change.path.clone(),
        status: s.to_string(),
        ..ResultView::default()
    });
    draw_block(&block, &block_diff(&block), result.as_ref(), options, true)
}

/// `numbering`: the file line before the block's first line, or `None` for no numbers.
fn push_diff_line(html: &mut String, line: &DiffLine, numbering: Option<u32>) {
    let shift = |n: Option<u32>| numbering.and_then(|base| n.map(|n| n.saturating_add(base)));
    let (old, new) = (shift(line.old_line), shift(line.new_line));
    let kind = line.kind.as_str();
    let attrs = Attrs::new()
        .add("class", &["eb-line eb-line-", kind].concat())
        .num("data-old-line", old.map(u64::from))
        .num("data-new-line", new.map(u64::from));
    push_all(
        html,
        &["<div", &attrs.0, "><span class=\"eb-num eb-num-old\">"],
    );
    if let Some(n) = old {
        push_num(html, u64::from(n));
    }
    html.push_str("</span><span class=\"eb-num eb-num-new\">");
    if let Some(n) = new {
        push_num(html, u64::from(n));
    }
    html.push_str("</span>");
    push_all(
        html,
        &[sign_cell(line.kind.as_str()), "<span class=\"eb-text\">"],
    );
    push_line_spans(html, line);
    html.push_str("</span></div>");
}

/// A line's text, its changed spans marked.
fn push_line_spans(html: &mut String, line: &DiffLine) {
    match &line.spans {
        Some(spans) => {
            for span in spans {
                if span.changed {
                    html.push_str("<span class=\"eb-change\">");
                    push_line_text(html, &span.text);
                    html.push_str("</span>");
                } else {
                    push_line_text(html, &span.text);
                }
            }
        }
        None => push_line_text(html, &line.text),
    }
}

/// Two columns, old and new: context on both sides, each removed line of a
/// change beside the added line at the same place in it (an empty cell
/// where one side has more lines).
fn push_side_by_side(html: &mut String, run: &[DiffLine], numbering: Option<u32>) {
    let shift = |n: Option<u32>| numbering.and_then(|base| n.map(|n| n.saturating_add(base)));
    let mut at = 0;
    while at < run.len() {
        if run[at].kind == LineKind::Context {
            let line = &run[at];
            push_pair(html, Some(line), Some(line), shift);
            at += 1;
            continue;
        }
        let removed_end = (at..run.len())
            .find(|&i| run[i].kind != LineKind::Removed)
            .unwrap_or(run.len());
        let added_end = (removed_end..run.len())
            .find(|&i| run[i].kind != LineKind::Added)
            .unwrap_or(run.len());
        let removed = &run[at..removed_end];
        let added = &run[removed_end..added_end];
        for k in 0..removed.len().max(added.len()) {
            push_pair(html, removed.get(k), added.get(k), shift);
        }
        at = added_end;
    }
}

/// One row of the two columns.
fn push_pair(
    html: &mut String,
    old: Option<&DiffLine>,
    new: Option<&DiffLine>,
    shift: impl Fn(Option<u32>) -> Option<u32>,
) {
    let old_line = old.and_then(|l| shift(l.old_line));
    let new_line = new.and_then(|l| shift(l.new_line));
    let attrs = Attrs::new()
        .add("class", "eb-line eb-line-pair")
        .num("data-old-line", old_line.map(u64::from))
        .num("data-new-line", new_line.map(u64::from));
    push_all(html, &["<div", &attrs.0, ">"]);
    for (side, line, number) in [("old", old, old_line), ("new", new, new_line)] {
        let kind = match line.map(|l| l.kind) {
            None => "empty",
            Some(LineKind::Context) => "context",
            Some(LineKind::Removed) => "removed",
            Some(LineKind::Added) => "added",
        };
        push_all(
            html,
            &[
                "<div class=\"eb-half eb-half-",
                side,
                " eb-line-",
                kind,
                "\"><span class=\"eb-num eb-num-",
                side,
                "\">",
            ],
        );
        if let Some(n) = number {
            push_num(html, u64::from(n));
        }
        push_all(
            html,
            &["</span>", sign_cell(kind), "<span class=\"eb-text\">"],
        );
        if let Some(line) = line {
            push_line_spans(html, line);
        }
        html.push_str("</span></div>");
    }
    html.push_str("</div>");
}

/// Where a streamed line belongs while the block is being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Before any separator: old text (or, for `edit-repl`, context and old).
    Old,
    New,
    Trailing,
}

/// What a marker line does to a block being drawn, as the parser classifies
/// it ([`crate::parser::classify`]: 5–9 box-drawing or conflict characters,
/// exactly three guillemets): a line the parser reads as content (a `────`
/// under a heading, a `«««` in prose) is content here too.
pub(crate) fn marker(line: &str) -> Option<&'static str> {
    use crate::parser::Marker as M;
    match crate::parser::classify(line.trim()) {
        M::EditStart | M::Search => Some("start"),
        M::EditEnd | M::ShortEnd | M::Replace => Some("end"),
        M::ReplSeparator | M::HeavyRule | M::Divider => Some("separator"),
        M::LightRule => Some("anchor-rule"),
        M::None | M::NearSearch | M::NearReplace | M::NearEditStart | M::NearEditEnd => None,
    }
}

const MARKERS: [&str; 7] = [
    "««« EDIT",
    "═══════ REPL",
    "»»» EDIT END",
    "───────",
    "<<<<<<< SEARCH",
    "=======",
    ">>>>>>> REPLACE",
];

pub(crate) fn is_partial_marker(line: &str) -> bool {
    let t = line.trim_start();
    // "═══════" is whole (the anchored separator) though "═══════ REPL" starts with it.
    !t.is_empty() && marker(line).is_none() && MARKERS.iter().any(|m| m.starts_with(t))
}

/// The lines of a block being written, sorted by the part they belong to.
#[derive(Debug, Default)]
struct PendingParts<'a> {
    /// The anchored format's leading anchor.
    leading: Vec<&'a str>,
    /// Old text (for `edit-repl`, context and old) or everything before a separator.
    old: Vec<&'a str>,
    new: Vec<&'a str>,
    trailing: Vec<&'a str>,
    /// The new section has begun.
    separator_seen: bool,
    anchored: bool,
}

/// A block still being streamed: the file path, a "writing" badge, and the
/// lines so far. `partial_lines` are the block's lines after the path line,
/// as the model wrote them (markers included or not), so the parts are
/// guessed from marker lines; when the parser's sections are at hand, use
/// [`render_pending_sections`], which never mistakes content for a marker.
/// Once the new section has begun, lines shared by both sections show as
/// context, like the finished block will; before that, the old section shows
/// neutrally.
pub fn render_in_progress_edit_block(file_path: &str, partial_lines: &[String]) -> String {
    render_in_progress_edit_block_with(file_path, partial_lines, Theme::Auto)
}

/// [`render_in_progress_edit_block`] with a theme.
pub fn render_in_progress_edit_block_with(
    file_path: &str,
    partial_lines: &[String],
    theme: Theme,
) -> String {
    let mut parts = PendingParts::default();
    let mut section = Side::Old;
    let count = partial_lines.len();
    for (index, line) in partial_lines.iter().enumerate() {
        let line = crate::text::strip_line_end(line);
        // The line being typed may be a marker cut short ("═══════ R"):
        // leave it out until it is complete rather than flash it as content.
        if index + 1 == count && is_partial_marker(line) {
            continue;
        }
        match marker(line) {
            Some("start") => continue,
            Some("end") => break,
            Some("separator") => {
                section = Side::New;
                parts.separator_seen = true;
                continue;
            }
            Some("anchor-rule") => {
                if !parts.separator_seen && !parts.anchored {
                    // Anchored format: what came so far was the leading anchor.
                    parts.anchored = true;
                    parts.leading.append(&mut parts.old);
                    section = Side::Old;
                } else if parts.separator_seen {
                    section = Side::Trailing;
                }
                continue;
            }
            _ => {}
        }
        match section {
            Side::Old => parts.old.push(line),
            Side::New => parts.new.push(line),
            Side::Trailing => parts.trailing.push(line),
        }
    }
    render_pending_parts(file_path, &parts, theme)
}

/// A block still being streamed, drawn from the parser's own sections: every
/// line is content, whatever it looks like (a `=======` heading underline, a
/// merge-conflict marker in the text being edited). `partial_line`, the line
/// being typed, joins the last section unless it may be a marker cut short.
pub fn render_pending_sections(
    file_path: &str,
    sections: &[PendingSection],
    partial_line: Option<&str>,
) -> String {
    render_pending_sections_with(file_path, sections, partial_line, Theme::Auto)
}

/// [`render_pending_sections`] with a theme.
pub fn render_pending_sections_with(
    file_path: &str,
    sections: &[PendingSection],
    partial_line: Option<&str>,
    theme: Theme,
) -> String {
    let mut parts = PendingParts::default();
    let mut last: Option<Section> = None;
    for s in sections {
        let lines = s.lines.iter().map(|l| crate::text::strip_line_end(l));
        match s.section {
            Section::Anchor => {
                parts.anchored = true;
                parts.leading.extend(lines);
            }
            Section::Old | Section::Edit | Section::Search => parts.old.extend(lines),
            Section::New | Section::Repl | Section::Replace => {
                parts.separator_seen = true;
                parts.new.extend(lines);
            }
            Section::TrailingAnchor => {
                parts.separator_seen = true;
                parts.trailing.extend(lines);
            }
            // A patch operation (apply-patch, unified-diff): lines as written.
            Section::Patch => {
                for line in lines {
                    patch_line(&mut parts, line);
                }
            }
        }
        last = Some(s.section);
    }
    if last == Some(Section::Patch) {
        if let Some(line) = partial_line.filter(|l| !l.is_empty()) {
            patch_line(&mut parts, line);
        }
        return render_pending_parts(file_path, &parts, theme);
    }
    if let Some(line) =
        partial_line.filter(|l| !l.is_empty() && !is_partial_marker(l) && marker(l).is_none())
    {
        match last {
            Some(Section::Anchor) => parts.leading.push(line),
            Some(Section::New | Section::Repl | Section::Replace) => parts.new.push(line),
            Some(Section::TrailingAnchor) => parts.trailing.push(line),
            _ => parts.old.push(line),
        }
    }
    render_pending_parts(file_path, &parts, theme)
}

/// One body line of a patch being written: context before the first
/// change leads, `-` is old, `+` is new, context after a change trails;
/// `@@` lines and markers only locate.
fn patch_line<'a>(parts: &mut PendingParts<'a>, line: &'a str) {
    match line.as_bytes().first() {
        Some(b'-') => parts.old.push(line.get(1..).unwrap_or("")),
        Some(b'+') => {
            parts.separator_seen = true;
            parts.new.push(line.get(1..).unwrap_or(""));
        }
        Some(b' ') if parts.old.is_empty() && parts.new.is_empty() => {
            parts.anchored = true;
            parts.leading.push(line.get(1..).unwrap_or(""));
        }
        Some(b' ') => parts.trailing.push(line.get(1..).unwrap_or("")),
        _ => {}
    }
}

fn render_pending_parts(file_path: &str, parts: &PendingParts<'_>, theme: Theme) -> String {
    let PendingParts {
        leading,
        old,
        new,
        trailing,
        separator_seen,
        anchored,
    } = parts;
    let (separator_seen, anchored) = (*separator_seen, *anchored);
    let mut html = String::new();
    let attrs = Attrs::new()
        .add(
            "class",
            &["eb-block eb-block-pending eb-status-pending", theme.class()].concat(),
        )
        .add("data-file-path", file_path)
        .add("data-status", "pending")
        .add("aria-busy", "true");
    push_all(&mut html, &["<div", &attrs.0, ">"]);
    html.push_str("<div class=\"eb-header\">");
    let path_attrs = Attrs::new()
        .add("class", "eb-path")
        .add("data-action", "open-file")
        .add("data-file-path", file_path)
        .add("title", &["Open ", file_path].concat());
    push_all(
        &mut html,
        &["<span", &path_attrs.0, " role=\"link\" tabindex=\"0\">"],
    );
    push_line_text(&mut html, file_path);
    html.push_str("</span><span class=\"eb-badge eb-badge-pending\" data-status=\"pending\">Writing\u{2026}</span></div>");
    html.push_str("<div class=\"eb-diff\">");

    let mut rows: Vec<(&str, &str)> = Vec::new();
    for l in leading {
        rows.push(("context", l));
    }
    if separator_seen {
        // edit-repl: the common prefix of both sections is context.
        let shared = if anchored {
            0
        } else {
            old.iter()
                .zip(new.iter())
                .take_while(|(a, b)| a == b)
                .count()
        };
        for l in old.iter().take(shared) {
            rows.push(("context", l));
        }
        for l in old.iter().skip(shared) {
            rows.push(("removed", l));
        }
        for l in new.iter().skip(shared) {
            rows.push(("added", l));
        }
    } else {
        for l in old {
            rows.push(("old", l));
        }
    }
    for l in trailing {
        rows.push(("context", l));
    }
    let last = rows.len();
    for (i, (kind, text)) in rows.into_iter().enumerate() {
        push_all(
            &mut html,
            &[
                "<div class=\"eb-line eb-line-",
                kind,
                "\"><span class=\"eb-num eb-num-old\"></span><span class=\"eb-num eb-num-new\"></span>",
                sign_cell(kind),
                "<span class=\"eb-text\">",
            ],
        );
        push_line_text(&mut html, text);
        if i + 1 == last {
            html.push_str("<span class=\"eb-cursor\" aria-hidden=\"true\"></span>");
        }
        html.push_str("</span></div>");
    }
    if last == 0 {
        html.push_str("<div class=\"eb-line eb-line-old\"><span class=\"eb-num eb-num-old\"></span><span class=\"eb-num eb-num-new\"></span><span class=\"eb-sign\"> </span><span class=\"eb-text\"><span class=\"eb-cursor\" aria-hidden=\"true\"></span></span></div>");
    }
    html.push_str("</div></div>");
    html
}

/// Counts per status, in display order.
/// The most entries a summary list shows; the rest are counted in an
/// `eb-more` line, so a reply of a million edits draws a banner, not a book.
pub const MAX_SUMMARY_ITEMS: usize = 1000;

/// The closing `… and N more` entry of a list cut at [`MAX_SUMMARY_ITEMS`].
fn push_more(html: &mut String, total: usize) {
    if total > MAX_SUMMARY_ITEMS {
        let more = (total - MAX_SUMMARY_ITEMS) as u64;
        html.push_str("<li class=\"eb-more\" data-count=\"");
        push_num(html, more);
        html.push_str("\">\u{2026} and ");
        push_num(html, more);
        html.push_str(" more</li>");
    }
}

fn counts(results: &[ResultView]) -> [(&'static str, &'static str, usize); 5] {
    let n = |s: &str| results.iter().filter(|r| r.status == s).count();
    [
        ("applied", "applied", n("applied")),
        ("failed", "failed", n("failed")),
        ("skipped", "skipped", n("skipped")),
        ("validated", "would apply", n("validated")),
        ("not-in-context", "not in context", n("not-in-context")),
    ]
}

/// What the summary knows of each path it lists, found through one map
/// (the diff's string interning map: one hash table instantiation in the
/// module, no SipHash).
#[derive(Default)]
struct FileFacts<'a> {
    ids: crate::diff::StrIds<'a>,
    facts: Vec<PathFacts>,
}

#[derive(Default)]
struct PathFacts {
    /// The estimated line of the first applied result for the path.
    first_applied: Option<Option<u32>>,
    listed: bool,
    created: bool,
}

impl<'a> FileFacts<'a> {
    fn of(&mut self, path: &'a str) -> &mut PathFacts {
        let next = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        let id = *self.ids.entry(path).or_insert(next) as usize;
        if id >= self.facts.len() {
            self.facts.resize_with(id + 1, PathFacts::default);
        }
        &mut self.facts[id]
    }
}

/// The summary banner: applied, failed and skipped counts (and validated or
/// not-in-context ones when there are any), the modified and created files,
/// each failure with its reason, files added to context, suggested shell
/// commands, and a note when a retry prompt was prepared.
pub fn render_edits_summary(summary: &SummaryView, options: &SummaryOptions) -> String {
    let results = &summary.results;
    let counts = counts(results);
    let failed = results
        .iter()
        .any(|r| r.status == "failed" || r.status == "skipped");
    let mut attrs = Attrs::new().add(
        "class",
        &[
            if failed {
                "eb-summary eb-summary-failed"
            } else {
                "eb-summary eb-summary-ok"
            },
            options.theme.class(),
        ]
        .concat(),
    );
    for (status, _, n) in counts {
        attrs = attrs.num(&["data-", status].concat(), Some(n as u64));
    }
    let mut html = ["<div", &attrs.0, " role=\"status\">"].concat();

    html.push_str("<div class=\"eb-summary-counts\">");
    for (status, label, n) in counts {
        if n == 0 && matches!(status, "validated" | "not-in-context") {
            continue;
        }
        push_all(
            &mut html,
            &[
                "<span class=\"eb-count eb-count-",
                status,
                "\" data-count=\"",
            ],
        );
        push_num(&mut html, n as u64);
        html.push_str("\"><strong>");
        push_num(&mut html, n as u64);
        push_all(&mut html, &["</strong> ", label, "</span>"]);
    }
    html.push_str("</div>");

    // Modified files: the apply result's list when given, else the files of
    // applied results, in order, once each. Sets and a map keep this linear
    // in the number of results.
    let mut files = FileFacts::default();
    let mut modified: Vec<&str> = Vec::new();
    for r in results.iter().filter(|r| r.status == "applied") {
        let f = files.of(r.file_path.as_str());
        f.first_applied.get_or_insert(r.estimated_line);
        if summary.files_modified.is_none() && !f.listed {
            f.listed = true;
            modified.push(r.file_path.as_str());
        }
    }
    for file in summary.files_modified.iter().flatten() {
        files.of(file).listed = true;
        modified.push(file);
    }
    for file in &summary.files_created {
        let f = files.of(file);
        f.created = true;
        if !f.listed {
            f.listed = true;
            modified.push(file);
        }
    }
    if !modified.is_empty() {
        html.push_str("<div class=\"eb-summary-section eb-summary-files\"><div class=\"eb-summary-title\">Modified files</div><ul class=\"eb-file-list\">");
        for &file in modified.iter().take(MAX_SUMMARY_ITEMS) {
            let f = files.of(file);
            let line = f.first_applied.flatten();
            let created = f.created;
            let a = Attrs::new()
                .add("class", "eb-file")
                .add("data-action", "open-file")
                .add("data-file-path", file)
                .num("data-line", line.map(u64::from));
            push_all(
                &mut html,
                &["<li><span", &a.0, " role=\"link\" tabindex=\"0\">"],
            );
            push_line_text(&mut html, file);
            html.push_str("</span>");
            if created {
                html.push_str(" <span class=\"eb-file-tag\">new</span>");
            }
            html.push_str("</li>");
        }
        push_more(&mut html, modified.len());
        html.push_str("</ul></div>");
    }

    let problems: Vec<&ResultView> = results
        .iter()
        .filter(|r| matches!(r.status.as_str(), "failed" | "skipped" | "not-in-context"))
        .collect();
    if !problems.is_empty() {
        html.push_str("<div class=\"eb-summary-section eb-summary-failures\"><div class=\"eb-summary-title\">Not applied</div><ul class=\"eb-failure-list\">");
        for r in problems.iter().take(MAX_SUMMARY_ITEMS) {
            let class = status_class(&r.status);
            let a = Attrs::new()
                .add("class", &["eb-failure eb-failure-", class].concat())
                .add("data-action", "show-error")
                .add("data-file-path", &r.file_path)
                .add("data-status", class)
                .num("data-line", r.estimated_line.map(u64::from))
                .num("data-block-index", r.block_index.map(|i| i as u64))
                .text("data-error-kind", r.error_kind.as_deref());
            // Focusable; no role: a list item keeps its own.
            push_all(
                &mut html,
                &["<li", &a.0, " tabindex=\"0\"><span class=\"eb-path\">"],
            );
            push_line_text(&mut html, &r.file_path);
            push_all(
                &mut html,
                &[
                    "</span> <span class=\"eb-badge eb-badge-",
                    class,
                    "\">",
                    status_label(&r.status),
                    "</span> ",
                ],
            );
            if let Some(kind) = r.error_kind.as_deref() {
                html.push_str("<span class=\"eb-failure-kind\">");
                push_escaped(&mut html, kind);
                html.push_str("</span> ");
            }
            if let Some(reason) = r.reason.as_deref() {
                html.push_str("<span class=\"eb-failure-reason\">");
                push_line_text(&mut html, reason);
                html.push_str("</span>");
            }
            html.push_str("</li>");
        }
        push_more(&mut html, problems.len());
        html.push_str("</ul></div>");
    }

    if !summary.files_auto_added.is_empty() {
        html.push_str("<div class=\"eb-summary-section eb-summary-auto-added\"><div class=\"eb-summary-title\">Added to context \u{2014} ask again to edit them</div><ul class=\"eb-file-list\">");
        for file in summary.files_auto_added.iter().take(MAX_SUMMARY_ITEMS) {
            let a = Attrs::new()
                .add("class", "eb-file")
                .add("data-action", "open-file")
                .add("data-file-path", file);
            push_all(
                &mut html,
                &["<li><span", &a.0, " role=\"link\" tabindex=\"0\">"],
            );
            push_line_text(&mut html, file);
            html.push_str("</span></li>");
        }
        push_more(&mut html, summary.files_auto_added.len());
        html.push_str("</ul></div>");
    }

    if !summary.shell_suggestions.is_empty() {
        html.push_str("<div class=\"eb-summary-section eb-summary-shell\"><div class=\"eb-summary-title\">Suggested commands</div><ul class=\"eb-shell-list\">");
        for cmd in summary.shell_suggestions.iter().take(MAX_SUMMARY_ITEMS) {
            html.push_str("<li><code class=\"eb-shell\">");
            push_line_text(&mut html, cmd);
            html.push_str("</code></li>");
        }
        push_more(&mut html, summary.shell_suggestions.len());
        html.push_str("</ul></div>");
    }

    if summary.retry_prompt.is_some() || options.retry_prompt_prepared {
        html.push_str("<div class=\"eb-summary-note eb-retry-note\">");
        push_escaped(
            &mut html,
            options.retry_note.as_deref().unwrap_or(RETRY_NOTE),
        );
        html.push_str("</div>");
    }
    html.push_str("</div>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_finds_its_result_under_the_normalised_path() {
        assert!(same_path("a/b.rs", "./a//b.rs"));
        assert!(same_path("a/b.rs", "a\\x\\..\\b.rs"));
        assert!(!same_path("a/b.rs", "a/c.rs"));
        assert!(
            same_path("/etc/passwd", "/etc/passwd"),
            "refused paths still match themselves"
        );
    }

    #[test]
    fn escapes_every_special_character() {
        assert_eq!(
            escape_html(r#"<a href="x" onclick='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn unknown_statuses_never_reach_a_class() {
        assert_eq!(status_class("x\" onmouseover=\"alert(1)"), "other");
    }
}
