//! Validate and apply text-format edit blocks (`edit-repl`, `anchored`,
//! `search-replace`).
//!
//! An edit is located by its sequence anchor + old lines + trailing anchor,
//! which must occur **exactly once** in the file as whole, consecutive lines.
//! Zero matches fail and say which part did not match and what the file has
//! there; two or more fail as [`ErrorKind::Ambiguous`] naming the lines.
//! Nothing is ever applied at a guessed location: `matching: tolerant` only
//! adds the unique-only passes of [`crate::locate`].
//!
//! ```
//! use editblocks::apply_edits;
//! use editblocks::engine::ApplyOptions;
//! use editblocks::MemoryHost;
//! use editblocks::{EditBlock, Format, Status};
//!
//! let mut host = MemoryHost::with_files([("src/math.py", "def multiply(a, b):\n    return a + b\n")]);
//! let block = EditBlock {
//!     format: Format::EditRepl,
//!     file_path: "src/math.py".into(),
//!     anchor: "def multiply(a, b):".into(),
//!     old_lines: "    return a + b".into(),
//!     new_lines: "    return a * b".into(),
//!     trailing_anchor: String::new(),
//!     raw_block: String::new(),
//!     line_number: 1,
//!     assumed: Vec::new(),
//!     line_hint: None,
//!     patch: None,
//! };
//! let result = apply_edits(&[block], &mut host, &ApplyOptions::default());
//! assert_eq!(result.results[0].status, Status::Applied);
//! assert_eq!(host.text("src/math.py").unwrap(), "def multiply(a, b):\n    return a * b\n");
//! ```

pub(crate) mod locate;
mod resolve;
mod rewrite;
pub(crate) use rewrite::unescape;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::apply::{CommitOptions, HostFailure, Loaded, Scope, Staged, Unit};
use crate::block::{EditBlock, Format};
use crate::host::FileHost;
use crate::path::{confine, normalize_path};
use crate::result::{ApplyResult, Diagnostics, EditResult, ErrorKind, Status};
use crate::text::TextFile;

use crate::locate::index::{Line, Lines};
use locate::{explain_not_found_with_new, section_lines, LocateFailure, Parts};

/// How failures affect the rest of a reply, and how strictly old text must
/// match: one meaning for every style ([`crate::apply`]). Text blocks match
/// whole lines.
pub use crate::apply::{Matching, Mode};

/// The final-newline policy (`'preserve' | 'ensure'`), shared with every edit path.
pub use crate::text::TrailingNewline;

/// Options for validating and applying edits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ApplyOptions {
    /// Validate only: statuses become `validated`, nothing is written.
    pub dry_run: bool,
    /// After writing, ask the host to stage modified and created files.
    pub stage: bool,
    pub mode: Mode,
    pub matching: Matching,
    /// When set, edits to files not listed are `not-in-context` (seed 000);
    /// creating a file is always attempted.
    pub in_context: Option<Vec<String>>,
    pub trailing_newline: TrailingNewline,
    /// Let a create block replace a non-empty existing file.
    pub overwrite: bool,
    /// Formats to parse when the input is a reply; empty means all.
    pub formats: Vec<Format>,
    /// Files the caller knows (root-relative). An edit to a file that does
    /// not exist is redirected to the one known file it fits (its folder
    /// left out, or slightly misspelt), named `path-resolved` in `assumed`;
    /// when several fit, the reason lists them.
    pub known_files: Option<Vec<String>>,
    /// Folders inside version-control metadata that may be written, named
    /// exactly (`.git/info`); everything else there is `path-escape`
    /// ([`crate::path::confine`]).
    pub allow_folders: Vec<String>,
}

impl Default for ApplyOptions {
    fn default() -> ApplyOptions {
        ApplyOptions {
            dry_run: false,
            stage: crate::apply::STAGE_BY_DEFAULT,
            mode: crate::apply::TEXT_BLOCKS_MODE,
            matching: crate::apply::TEXT_BLOCKS_MATCHING,
            in_context: None,
            trailing_newline: TrailingNewline::Preserve,
            overwrite: false,
            formats: Vec::new(),
            known_files: None,
            allow_folders: Vec::new(),
        }
    }
}

/// The outcome of [`validate_edit`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Diagnostics>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

/// A file being edited: its lines (no terminators) and how to write it back.
struct Doc {
    text: TextFile,
    /// The lines, each with a hash (finding an edit compares 8-byte values,
    /// starting from the rarest line) and the line of the file as read that
    /// it is (so a kept line keeps its own ending).
    lines: Lines,
    final_newline: bool,
}

impl Doc {
    fn from_text_file(mut text: TextFile) -> Doc {
        let final_newline = text.body.ends_with('\n') || text.body.is_empty();
        let lines = crate::text::body_lines(&text.body)
            .into_iter()
            .enumerate()
            .map(|(i, l)| Line::new(l, Some(i as u32)))
            .collect();
        text.body = String::new(); // the lines hold the content now
        Doc {
            text,
            lines: Lines::from_lines(lines),
            final_newline,
        }
    }

    fn set_lines(&mut self, lines: &[&str]) {
        self.lines = Lines::from_lines(lines.iter().map(|l| Line::new(l, None)).collect());
    }

    /// Replaces lines `range` by `new`. Lines the two have in common at
    /// either end are kept as they are (they stay the file's own lines).
    fn splice(&mut self, range: std::ops::Range<usize>, new: &[&str]) {
        let old = self.lines.texts(range.clone());
        let same_start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let same_end = old[same_start..]
            .iter()
            .rev()
            .zip(new[same_start..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let new = &new[same_start..new.len() - same_end];
        let range = range.start + same_start..range.end - same_end;
        self.lines
            .splice(range, new.iter().map(|l| Line::new(l, None)).collect());
    }

    /// Every 0-based index where `seq` occurs as consecutive whole lines.
    fn find_all(&mut self, seq: &[&str]) -> Vec<usize> {
        self.lines.find_all(seq)
    }

    /// The lines' texts, for messages and the tolerant passes.
    fn texts(&self) -> Vec<String> {
        self.lines.iter().map(|l| l.text.clone()).collect()
    }

    fn is_blank(&self) -> bool {
        self.lines.iter().all(|l| l.text.trim().is_empty())
    }

    /// The file's bytes as text. Lines not named by an edit are kept, a blank
    /// last line included; the file's final-newline convention applies to
    /// whatever line is last now. So `"a\n\nb"` (no final newline) minus
    /// `b` is `"a\n"`: lines `a` and a blank line, the blank one unterminated.
    /// A line kept from the file keeps its own line ending.
    fn encode(&self, policy: TrailingNewline) -> String {
        let final_newline =
            self.lines.len() > 0 && (self.final_newline || policy == TrailingNewline::Ensure);
        self.text.encode_kept_lines(
            self.lines
                .iter()
                .map(|l| (l.text.as_str(), l.origin.map(|o| o as usize))),
            final_newline,
        )
    }
}

/// A successful location and what the edit does there.
struct Located {
    /// 1-based line where the sequence starts.
    line: u32,
    pass: String,
    no_op: bool,
    /// Set when equal candidates were told apart by the block's line hint.
    by_hint: bool,
}

/// Applies one non-create block to `doc` in place. On failure `doc` is untouched.
fn apply_block_to_doc(
    block: &EditBlock,
    path: &str,
    doc: &mut Doc,
    matching: Matching,
) -> Result<Located, Box<LocateFailure>> {
    let parts = Parts {
        anchor: section_lines(&block.anchor),
        old: section_lines(&block.old_lines),
        trailing: section_lines(&block.trailing_anchor),
    };
    let new = section_lines(&block.new_lines);
    let seq = parts.sequence();
    let starts = doc.find_all(&seq);
    // One place; or equal candidates, of which the block's line hint (Roo
    // Code's `:start_line:`) picks the one nearest to it, when exactly one is.
    let found = match starts.as_slice() {
        [pos] => Some((*pos, false)),
        many => nearest_to_hint(many, parts.anchor.len(), block.line_hint).map(|pos| (pos, true)),
    };
    if let Some((pos, by_hint)) = found {
        let from = pos + parts.anchor.len();
        let to = from + parts.old.len();
        let no_op = parts.old == new;
        if !no_op {
            doc.splice(from..to, &new);
        }
        return Ok(Located {
            line: (pos + 1) as u32,
            pass: "exact".into(),
            no_op,
            by_hint,
        });
    }
    match starts.as_slice() {
        [] if matching == Matching::Tolerant => apply_tolerant(doc, path, &parts, &new),
        [] => Err(Box::new(explain_not_found_with_new(
            path,
            &doc.texts(),
            &parts,
            &new,
        ))),
        many => Err(Box::new(locate::ambiguous(
            path,
            &many.iter().map(|&i| (i + 1) as u32).collect::<Vec<_>>(),
            None,
        ))),
    }
}

/// The tolerant passes, tried only when the exact pass found nothing.
///
/// The anchor, old and trailing lines of these formats are whole lines, so
/// only the line passes are used (never the raw-substring pass, which could
/// find an anchor inside a longer line). The match only locates the edit:
/// the file's own anchor and trailing lines are kept byte for byte and just
/// the old lines are replaced, by the new lines as the pass repaired them.
fn apply_tolerant(
    doc: &mut Doc,
    path: &str,
    parts: &Parts<'_>,
    new: &[&str],
) -> Result<Located, Box<LocateFailure>> {
    use crate::locate::tolerant::{find_with, TolerantError};
    use crate::locate::BLOCK_PASSES as LINE_PASSES;
    let seq = parts.sequence();
    // Every line, the last included, ends in '\n', and so does the sequence:
    // the passes then compare exactly `seq.len()` whole lines, blank ones too.
    let lines = doc.texts();
    let mut content = lines.join("\n");
    content.push('\n');
    let mut old_text = seq.join("\n");
    old_text.push('\n');
    let mut new_seq: Vec<&str> = parts.anchor.clone();
    new_seq.extend_from_slice(new);
    new_seq.extend_from_slice(&parts.trailing);
    let new_text = new_seq.join("\n");
    let (a, o) = (parts.anchor.len(), parts.old.len());
    let not_found = || Box::new(explain_not_found_with_new(path, &lines, parts, new));
    // A sequence that is literally in the file, but (the exact pass failed)
    // not as whole lines, is a partial-line edit: refuse it rather than let
    // the boundary-prefix pass read it as a cut-off line and drop the rest.
    let passes = if content.contains(old_text.trim_end_matches('\n')) {
        &LINE_PASSES[..3]
    } else {
        &LINE_PASSES[..]
    };
    let m = match find_with(&content, &old_text, &new_text, passes, false) {
        Ok(mut found) if found.len() == 1 => found.remove(0),
        Ok(_) | Err(TolerantError::NotFound) => return Err(not_found()),
        Err(TolerantError::Ambiguous { pass, lines }) => {
            return Err(Box::new(locate::ambiguous(
                path,
                &lines,
                Some(pass.as_str()),
            )))
        }
    };
    // A line pass starts at a line start; anything else is not a whole-line match.
    let start = crate::locate::tolerant::line_of(&content, m.start) as usize - 1;
    let starts_a_line =
        m.start == 0 || content.as_bytes().get(m.start.wrapping_sub(1)) == Some(&b'\n');
    if !starts_a_line || start + seq.len() > lines.len() {
        return Err(not_found());
    }
    // The new lines as repaired: the middle of the replacement, which holds
    // the anchor, new and trailing lines in that order.
    let repaired: Vec<String> = if new.is_empty() {
        Vec::new()
    } else {
        let all: Vec<&str> = section_lines(&m.replacement);
        if all.len() == new_seq.len() {
            all[a..a + new.len()]
                .iter()
                .map(|l| l.to_string())
                .collect()
        } else {
            new.iter().map(|l| l.to_string()).collect()
        }
    };
    let (from, to) = (start + a, start + a + o);
    let no_op = lines
        .get(from..to)
        .is_some_and(|old| old == repaired.as_slice());
    if !no_op {
        let refs: Vec<&str> = repaired.iter().map(String::as_str).collect();
        doc.splice(from..to, &refs);
    }
    Ok(Located {
        line: (start + 1) as u32,
        pass: m.pass.as_str().to_string(),
        no_op,
        by_hint: false,
    })
}

/// Among equal candidate starts (0-based), the one whose old lines begin
/// nearest to `hint` (1-based), when no other is as near.
pub(crate) fn nearest_to_hint(
    starts: &[usize],
    anchor_len: usize,
    hint: Option<u32>,
) -> Option<usize> {
    let hint = hint? as i64;
    let distance = |s: usize| ((s + anchor_len + 1) as i64 - hint).abs();
    let best = starts.iter().map(|&s| distance(s)).min()?;
    let mut nearest = starts.iter().filter(|&&s| distance(s) == best);
    match (nearest.next(), nearest.next()) {
        (Some(&s), None) => Some(s),
        _ => None,
    }
}

fn refuse(mut r: EditResult, status: Status, kind: ErrorKind, reason: String) -> EditResult {
    r.status = status;
    r.error_kind = Some(kind);
    r.reason = Some(reason);
    r
}

fn fail_with(mut r: EditResult, f: LocateFailure) -> EditResult {
    r.status = Status::Failed;
    r.error_kind = Some(f.kind);
    r.reason = Some(f.reason);
    r.estimated_line = f.estimated_line;
    r.diagnostics = Some(f.diagnostics);
    r
}

fn no_op_reason(path: &str, line: u32) -> String {
    format!("The edit changes nothing: its old and new lines are identical (at line {line} of {path}). Put the intended new lines in the replacement section.")
}

pub(crate) fn file_exists_reason(path: &str) -> String {
    format!(
        "File already exists: {path} is not empty, so this block (an empty edit section, which creates a file) was refused. \
         To change the file, include context lines copied from it; to replace it entirely, apply with overwrite."
    )
}

/// What applying one block to an in-memory document did.
enum Outcome {
    Applied,
    Created,
    /// Located, but changes nothing (`skipped`, `no-op`): the file goes on.
    NoOp,
    Failed,
}

/// Applies `block` to `doc`; `existed` says whether the file was there before.
fn apply_one(
    index: usize,
    path: &str,
    block: &EditBlock,
    doc: &mut Doc,
    opts: &ApplyOptions,
) -> (EditResult, Outcome) {
    let base = EditResult::for_block(index, path, block, Status::Applied);
    // A line escaped as Roo Code defines (`\:start_line:`) is written as text.
    let unescaped = crate::parser::roo_unescaped(block);
    let block = unescaped.as_ref().unwrap_or(block);
    if block.is_create() {
        if !doc.is_blank() && !opts.overwrite {
            return (
                refuse(
                    base,
                    Status::Failed,
                    ErrorKind::FileExists,
                    file_exists_reason(path),
                ),
                Outcome::Failed,
            );
        }
        doc.set_lines(&section_lines(&block.new_lines));
        doc.final_newline = true; // new files end with a newline
        let mut r = base;
        r.estimated_line = Some(1);
        return (r, Outcome::Created);
    }
    let mut rewritten = None;
    let found = match apply_block_to_doc(block, path, doc, opts.matching) {
        Err(f) if opts.matching == Matching::Tolerant && f.kind != ErrorKind::Ambiguous => {
            // What models paste into sections (line numbers, a wrapper, a
            // blank first line, escapes): tried only when nothing matched,
            // each accepted only where the rewritten block matches once.
            let tried = rewrite::REWRITES.iter().find_map(|(name, rewrite)| {
                let b = rewrite(block)?;
                apply_block_to_doc(&b, path, doc, opts.matching)
                    .ok()
                    .map(|located| (*name, located))
            });
            match tried {
                Some((name, located)) => {
                    rewritten = Some(name);
                    Ok(located)
                }
                None => Err(f),
            }
        }
        other => other,
    };
    let base = match rewritten {
        Some(name) => {
            let mut r = base;
            r.assumed.push(name.to_string());
            r
        }
        None => base,
    };
    match found {
        Ok(located) if located.no_op => {
            let mut r = refuse(
                base,
                Status::Skipped,
                ErrorKind::NoOp,
                no_op_reason(path, located.line),
            );
            r.estimated_line = Some(located.line);
            r.matched_by = Some(located.pass);
            if located.by_hint {
                r.assumed.push("line-hint-tie-break".into());
            }
            (r, Outcome::NoOp)
        }
        Ok(located) => {
            let mut r = base;
            r.estimated_line = Some(located.line);
            r.matched_by = Some(located.pass);
            if located.by_hint {
                r.assumed.push("line-hint-tie-break".into());
            }
            (r, Outcome::Applied)
        }
        Err(f) => (fail_with(base, *f), Outcome::Failed),
    }
}

/// Checks one block against `content` without changing anything.
pub fn validate_edit(block: &EditBlock, content: &str, opts: &ApplyOptions) -> Validation {
    let (_, result) = apply_to_content(block, content, opts);
    let ok = matches!(result.status, Status::Applied) || result.error_kind == Some(ErrorKind::NoOp);
    Validation {
        ok,
        error_kind: if ok { None } else { result.error_kind },
        reason: if ok { None } else { result.reason },
        estimated_line: result.estimated_line,
        diagnostics: result.diagnostics,
        matched_by: result.matched_by,
        assumed: result.assumed,
    }
}

/// Applies one block to `content` (an empty string for a file that does not
/// exist yet). On failure the content comes back unchanged.
pub fn apply_to_content(
    block: &EditBlock,
    content: &str,
    opts: &ApplyOptions,
) -> (String, EditResult) {
    let path = normalize_path(&block.file_path).unwrap_or_else(|_| block.file_path.clone());
    if crate::text::is_binary(content.as_bytes()) {
        let base = EditResult::for_block(0, &path, block, Status::Failed);
        return (
            content.to_string(),
            refuse(
                base,
                Status::Failed,
                ErrorKind::Binary,
                crate::apply::binary_reason(&path),
            ),
        );
    }
    let text = if content.is_empty() {
        TextFile::new_file()
    } else {
        TextFile::from_text(content)
    };
    let mut doc = Doc::from_text_file(text);
    let (result, outcome) = apply_one(0, &path, block, &mut doc, opts);
    match outcome {
        Outcome::Applied | Outcome::Created => (doc.encode(opts.trailing_newline), result),
        Outcome::NoOp | Outcome::Failed => (content.to_string(), result),
    }
}

/// Why a block is not attempted before any file is read.
enum Precheck {
    Go(String),
    Refused(Box<EditResult>),
}

fn precheck(
    index: usize,
    block: &EditBlock,
    confined: Option<&str>,
    in_context: Option<&crate::apply::PathSet>,
    allow_folders: &[String],
) -> Precheck {
    let path = match confined {
        Some(p) => Ok(p.to_string()),
        None => confine(&block.file_path, allow_folders),
    };
    match path {
        Err(e) => Precheck::Refused(Box::new(refuse(
            EditResult::for_block(index, &block.file_path, block, Status::Skipped),
            Status::Skipped,
            ErrorKind::PathEscape,
            e.reason,
        ))),
        Ok(path) => match in_context {
            Some(list) if !block.is_create() && !list.contains(&path) => {
                let mut r = EditResult::for_block(index, &path, block, Status::NotInContext);
                r.reason = Some(crate::apply::not_in_context(&path));
                Precheck::Refused(Box::new(r))
            }
            _ => Precheck::Go(path),
        },
    }
}

/// The paths in context, normalised, as a set: a reply of thousands of
/// files must not compare each path with every path in context.
pub(crate) fn normalized_context(opts: &ApplyOptions) -> Option<crate::apply::PathSet> {
    opts.in_context.as_ref().map(|list| {
        list.iter()
            .filter_map(|p| confine(p, &opts.allow_folders).ok())
            .collect()
    })
}

/// Each block's path, normalised and confined ([`confine`]); `None` when
/// refused (the refusal's reason is worked out again for the result that
/// gives it). [`crate::ConfinedEdits`] works this out once for both the
/// paths to read and every run.
pub(crate) fn confined_paths(blocks: &[EditBlock], opts: &ApplyOptions) -> Vec<Option<String>> {
    blocks
        .iter()
        .map(|b| confine(&b.file_path, &opts.allow_folders).ok())
        .collect()
}

/// A set of paths borrowed or owned, hashed as the transaction hashes paths.
pub(crate) type CowPathSet<'a> = std::collections::HashSet<
    Cow<'a, str>,
    std::hash::BuildHasherDefault<crate::apply::PathHasher>,
>;

/// The paths a reply of text blocks reads (see [`crate::required_paths`]),
/// each block's path already confined ([`confined_paths`]), borrowed from
/// them where it can be.
pub(crate) fn text_paths_of<'a>(
    blocks: &[EditBlock],
    confined: &'a [Option<String>],
    opts: &ApplyOptions,
) -> Vec<Cow<'a, str>> {
    let context = normalized_context(opts);
    let mut paths: Vec<Cow<'a, str>> = Vec::new();
    // Found by hash: a reply of thousands of blocks must not compare each
    // path with every path listed before it.
    let mut seen = CowPathSet::default();
    let mut add = |p: String| {
        if !seen.contains(p.as_str()) {
            seen.insert(Cow::Owned(p.clone()));
            paths.push(Cow::Owned(p));
        }
    };
    for (i, block) in blocks.iter().enumerate() {
        let path = confined[i].as_deref();
        if let Precheck::Go(path) = precheck(i, block, path, context.as_ref(), &opts.allow_folders)
        {
            // The file a missing path may resolve to is read too.
            if let (Some(known), false) = (&opts.known_files, block.is_create()) {
                if let resolve::Resolution::Resolved(p) =
                    resolve::resolve(&path, known, &opts.allow_folders)
                {
                    add(p);
                }
            }
            add(path);
        }
    }
    paths
}

/// How a reply to apply is read: the formats asked for, and the files the
/// caller knows (a line naming one is a path line even without a folder or
/// an extension, as [`crate::parse_edits`] reads it with them).
pub(crate) fn parse_options(opts: &ApplyOptions) -> crate::parser::ParseOptions {
    crate::parser::ParseOptions {
        formats: opts.formats.clone(),
        known_files: opts.known_files.clone().unwrap_or_default(),
    }
}

/// Applies a reply with no patch block (see [`crate::apply_edits`]).
pub(crate) fn apply_text_edits(
    blocks: &[EditBlock],
    confined: &[Option<String>],
    host: &mut dyn FileHost,
    opts: &ApplyOptions,
) -> ApplyResult {
    let context = normalized_context(opts);
    let policy = opts.trailing_newline;
    let mut out = ApplyResult::default();
    // Each file's document as the blocks leave it; a block that fails leaves
    // it untouched, so nothing is rolled back (atomic writes nothing).
    let mut staged: Staged<Doc> = Staged::with_capacity(blocks.len());

    for (index, block) in blocks.iter().enumerate() {
        let confined = confined[index].as_deref();
        let path = match precheck(
            index,
            block,
            confined,
            context.as_ref(),
            &opts.allow_folders,
        ) {
            Precheck::Refused(r) => {
                if r.status == Status::NotInContext && !out.files_auto_added.contains(&r.path) {
                    out.files_auto_added.push(r.path.clone());
                }
                out.results.push(*r);
                continue;
            }
            Precheck::Go(path) => path,
        };
        let mut resolved = false;
        let path = match (
            &opts.known_files,
            block.is_create(),
            staged.get(&path).is_some(),
        ) {
            // Only a path that names no file is resolved.
            (Some(known), false, false) if matches!(staged.read(host, &path), Loaded::Missing) => {
                match resolve::resolve(&path, known, &opts.allow_folders) {
                    resolve::Resolution::Keep => path,
                    resolve::Resolution::Resolved(p) => {
                        resolved = true;
                        p
                    }
                    resolve::Resolution::Ambiguous(candidates) => {
                        let reason = format!(
                        "File not found: {path}. Several known files fit it: {}; write the path in full.",
                        candidates.join(", ")
                    );
                        out.results.push(refuse(
                            EditResult::for_block(index, &path, block, Status::Failed),
                            Status::Failed,
                            ErrorKind::FileNotFound,
                            reason,
                        ));
                        continue;
                    }
                }
            }
            _ => path,
        };
        let base = EditResult::for_block(index, &path, block, Status::Failed);

        if staged.get(&path).is_none() {
            let slot = staged.load(host, &path, |text| Doc::from_text_file(text.clone()));
            if let Some(u) = &slot.unusable {
                let status = crate::apply::refusal_status(u.kind);
                out.results
                    .push(refuse(base, status, u.kind, u.reason(&path)));
                if let Some(slot) = staged.get_mut(&path) {
                    slot.failed_at = Some(index);
                }
                continue;
            }
        }
        let Some(state) = staged.get_mut(&path) else {
            continue;
        };

        if let Some(first) = state.failed_at {
            let reason = crate::apply::previous_failed(&Unit::Block.at(first));
            out.results.push(refuse(
                EditResult::for_block(index, &path, block, Status::Skipped),
                Status::Skipped,
                ErrorKind::PreviousFailed,
                reason,
            ));
            continue;
        }
        if state.doc.is_none() {
            if !block.is_create() {
                out.results.push(refuse(
                    base,
                    Status::Failed,
                    ErrorKind::FileNotFound,
                    file_not_found(&path),
                ));
                state.failed_at = Some(index);
                continue;
            }
            state.doc = Some(Doc::from_text_file(TextFile::new_file()));
        }
        let Some(doc) = state.doc.as_mut() else {
            continue;
        };
        let (mut result, outcome) = apply_one(index, &path, block, doc, opts);
        if resolved {
            result.assumed.push("path-resolved".into());
        }
        match outcome {
            Outcome::Applied | Outcome::Created => {
                state.changed = true;
                staged.touch(&path);
                if opts.dry_run {
                    result.status = Status::Validated;
                }
            }
            Outcome::NoOp => {}
            Outcome::Failed => state.failed_at = Some(index),
        }
        out.results.push(result);
    }

    let aborted = opts.mode == Mode::Atomic
        && crate::apply::abort_unit(&mut out.results, Scope::Reply).is_some();
    if !aborted {
        let finished = staged.finish(
            host,
            CommitOptions {
                dry_run: opts.dry_run,
                stage: opts.stage,
            },
            |doc, existed| {
                if existed {
                    doc.encode(policy)
                } else {
                    doc.encode(TrailingNewline::Ensure)
                }
            },
        );
        out.files_modified = finished.modified;
        out.files_created = finished.created;
        let mut committed = finished.committed;
        out.stage_error = committed.stage_failure();
        if let Some(failure) = committed.failure.take() {
            host_failed(&mut out, failure);
        }
        out.file_changes = committed.file_changes;
    }
    out.retry_prompt = retry_prompt(&out.results);
    out
}

/// The reason of a text block aimed at a file that is not there.
pub(crate) fn file_not_found(path: &str) -> String {
    format!(
        "File not found: {path}. Check the path's spelling against the files you were shown; to create a new file, leave the old section empty."
    )
}

/// After a host failure the transaction put back what it had written: the
/// edits that were to be written fail with `host-error`, saying why.
pub(crate) fn host_failed(out: &mut ApplyResult, failure: HostFailure) {
    let left: Vec<&str> = failure
        .not_restored
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    let what = failure.describe();
    for r in out
        .results
        .iter_mut()
        .filter(|r| r.status == Status::Applied && !left.contains(&r.path.as_str()))
    {
        r.status = Status::Failed;
        r.error_kind = Some(ErrorKind::HostError);
        r.reason = Some(if r.path == failure.path {
            what.clone()
        } else {
            crate::apply::host_undone(&what)
        });
    }
    out.files_modified.retain(|p| left.contains(&p.as_str()));
    out.files_created.retain(|p| left.contains(&p.as_str()));
    out.files_deleted.retain(|p| left.contains(&p.as_str()));
    out.host_failure = Some(failure);
}

/// The prompt a user may send to ask the model to redo ambiguous edits
/// (seed 000). `None` unless some edit failed as ambiguous; we never send it.
pub fn retry_prompt(results: &[EditResult]) -> Option<String> {
    let ambiguous: Vec<&EditResult> = results
        .iter()
        .filter(|r| r.error_kind == Some(ErrorKind::Ambiguous))
        .collect();
    if ambiguous.is_empty() {
        return None;
    }
    let mut prompt = String::from(
        "Some edits could not be applied because their context lines match more than one place in the file (ambiguous anchors). \
         Please send these edits again with context that occurs only once: include a distinctive line before the change, \
         such as the enclosing function's signature, a class definition or a unique comment.\n\n",
    );
    for r in ambiguous {
        let count = r
            .diagnostics
            .as_ref()
            .and_then(|d| d.match_count)
            .unwrap_or(0);
        prompt.push_str(&format!(
            "- {} ({count} matches): {}\n",
            r.path,
            r.reason.as_deref().unwrap_or("")
        ));
    }
    Some(prompt)
}

#[cfg(test)]
mod tests;
