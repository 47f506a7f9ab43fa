//! Applying patch blocks: one transaction over a snapshot of the files.
//!
//! Files are read once into memory. Each patch (an `*** Begin Patch`
//! envelope, or one unified diff, possibly of many files) is one unit: its
//! operations apply in order, each seeing the earlier ones, and if any fails
//! the unit's files go back to what they were before it. With `mode:
//! 'atomic'` the whole reply is one unit. Text blocks of the other formats
//! in the same reply go through the engine, one unit each. Then every
//! changed file is written once (created, updated, or deleted), in the
//! file's own line endings, BOM and final-newline convention.
//!
//! Hunks are located with [`crate::locate`]: unique-only passes, never the
//! first of several places.

use std::borrow::Cow;

use super::{Hunk, Operation, PatchOp};
use crate::apply::{
    abort_unit, fails, previous_failed, CommitOptions, Scope, Staged, Unit, UnitResult,
};
use crate::block::{EditBlock, Format};
use crate::engine::locate::{ambiguous, explain_not_found, quote, Parts};
use crate::engine::{ApplyOptions, Mode};
use crate::host::FileHost;
use crate::locate::explain::{already_applied, already_applied_reason};
use crate::locate::{locate, locate_hashed, LineIndex, Located, Pass, Prefer, PATCH_PASSES};
use crate::path::confine;
use crate::result::{ApplyResult, Diagnostics, EditResult, ErrorKind, Status};
use crate::text::TextFile;

use super::doc::{Doc, DocEdit};

/// The paths [`apply_patch_edits`] reads: every block's path and every
/// move destination, normalised and confined, in first-use order.
pub fn patch_paths(blocks: &[EditBlock], opts: &ApplyOptions) -> Vec<String> {
    let confined = crate::engine::confined_paths(blocks, opts);
    patch_paths_of(blocks, &confined, opts)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// [`patch_paths`] with each block's path already confined
/// ([`crate::engine::confined_paths`]), borrowed from them (a move
/// destination is confined here).
pub(crate) fn patch_paths_of<'a>(
    blocks: &[EditBlock],
    confined: &'a [Option<String>],
    opts: &ApplyOptions,
) -> Vec<Cow<'a, str>> {
    let mut paths = Vec::with_capacity(blocks.len());
    let mut seen = crate::engine::CowPathSet::default();
    seen.reserve(blocks.len());
    for (b, path) in blocks.iter().zip(confined) {
        if let Some(p) = path {
            if seen.insert(Cow::Borrowed(p)) {
                paths.push(Cow::Borrowed(p.as_str()));
            }
        }
        if let Some(to) = b.patch.as_ref().and_then(|p| p.move_to.as_deref()) {
            if let Ok(p) = confine(to, &opts.allow_folders) {
                if !seen.contains(p.as_str()) {
                    seen.insert(Cow::Owned(p.clone()));
                    paths.push(Cow::Owned(p));
                }
            }
        }
    }
    paths
}

fn result_for(index: usize, path: &str, block: &EditBlock) -> EditResult {
    EditResult::for_block(index, path, block, Status::Applied)
}

/// A refused path is skipped (nothing was attempted); anything else failed.
fn status_of(kind: &ErrorKind) -> Status {
    crate::apply::refusal_status(*kind)
}

/// Why an operation failed.
pub(crate) struct Failure {
    pub(crate) kind: ErrorKind,
    pub(crate) reason: String,
    pub(crate) line: Option<u32>,
    pub(crate) diagnostics: Option<Diagnostics>,
}

fn fail(kind: ErrorKind, reason: String) -> Failure {
    Failure {
        kind,
        reason,
        line: None,
        diagnostics: None,
    }
}

/// How an operation was applied.
struct Done {
    line: Option<u32>,
    matched_by: String,
    note: Option<String>,
    no_op: bool,
}

/// Stages `lines` as the whole of `path` (an added file, or a missing file
/// a diff only adds lines to), written in `file`'s conventions.
fn write_whole(
    staged: &mut Staged<Doc>,
    path: &str,
    file: TextFile,
    lines: Vec<&str>,
    final_newline: bool,
    note: Option<String>,
) -> Done {
    if let Some(slot) = staged.edit(path) {
        slot.doc = Some(Doc::of_lines(file, lines, final_newline));
        slot.changed = true;
    }
    Done {
        line: Some(1),
        matched_by: "exact".into(),
        note,
        no_op: false,
    }
}

/// How messages name an operation ([`operation_name`]), written only
/// into a message that needs it: an operation that applies builds none.
struct OpName<'a> {
    format: Format,
    operation: Operation,
    path: &'a str,
}

impl<'a> OpName<'a> {
    fn of(block: &'a EditBlock, op: &PatchOp) -> OpName<'a> {
        OpName {
            format: block.format,
            operation: op.operation,
            path: &block.file_path,
        }
    }
}

impl std::fmt::Display for OpName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&operation_name(self.format, self.operation, self.path))
    }
}

/// How a refusal names a patch operation on `path` (`*** Update File: …`, the diff of …).
///
/// Joined, not formatted (`format!` cost 0.9% of applying 1,000 files
/// when it was built for every operation).
pub(crate) fn operation_name(format: Format, operation: Operation, path: &str) -> String {
    let (before, after) = match (format, operation) {
        (Format::ApplyPatch, Operation::Add) => ("`*** Add File: ", "`"),
        (Format::ApplyPatch, Operation::Delete) => ("`*** Delete File: ", "`"),
        (Format::ApplyPatch, Operation::Update) => ("`*** Update File: ", "`"),
        (_, Operation::Add) => ("the diff creating ", ""),
        (_, Operation::Delete) => ("the diff deleting ", ""),
        _ => ("the diff of ", ""),
    };
    [before, path, after].concat()
}

/// An operation (`name`) adding `path`, which exists.
pub(crate) fn add_exists_reason(name: &str, path: &str) -> String {
    format!("{name} was refused: {path} already exists. To change it, use an update (`*** Update File:` / a diff with context lines); to replace it whole, apply with overwrite.")
}

/// An operation (`name`) deleting or updating `path`, which does not exist.
pub(crate) fn missing_reason(name: &str, path: &str, operation: Operation) -> String {
    let create = if operation == Operation::Delete {
        ""
    } else {
        "; to create it, add the file instead"
    };
    format!("{name} was refused: {path} does not exist. Check the path against the files you were shown{create}.")
}

/// Validates and applies `blocks` (patch blocks, and text blocks of other
/// formats) through `host`. See the module docs.
pub fn apply_patch_edits(
    blocks: &[EditBlock],
    host: &mut dyn FileHost,
    opts: &ApplyOptions,
) -> ApplyResult {
    let confined = crate::engine::confined_paths(blocks, opts);
    apply_patch_edits_with(blocks, &confined, host, opts)
}

/// [`apply_patch_edits`] with each block's path already confined
/// ([`crate::engine::confined_paths`], as the plan that listed the files
/// to read confined them).
pub(crate) fn apply_patch_edits_with(
    blocks: &[EditBlock],
    confined: &[Option<String>],
    host: &mut dyn FileHost,
    opts: &ApplyOptions,
) -> ApplyResult {
    let mut out = ApplyResult::default();
    // A path per block, at most (and each move's destination, rarer).
    let mut staged: Staged<Doc> = Staged::with_capacity(blocks.len());
    let context = crate::engine::normalized_context(opts);

    // Units: the blocks of one patch, or one text block; all at once when atomic.
    let mut units: Vec<Vec<usize>> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let group = b.patch.as_ref().map(|p| (b.format, p.patch));
        let same = opts.mode == Mode::Atomic
            || (group.is_some()
                && units.last().and_then(|u| u.last()).is_some_and(|&j| {
                    blocks[j]
                        .patch
                        .as_ref()
                        .map(|p| (blocks[j].format, p.patch))
                        == group
                }));
        match units.last_mut() {
            Some(u) if same => u.push(i),
            _ => units.push(vec![i]),
        }
    }

    // Each unit is applied whole or not at all: every operation is tried
    // (so every mistake is reported at once), except one whose file an
    // earlier operation of the unit failed on; then one failure rolls the
    // unit back and marks the operations that applied as not written.
    let scope = if opts.mode == Mode::Atomic {
        Scope::Reply
    } else {
        Scope::Patch
    };
    // Each section's lines, in turn (buffers for the whole reply).
    let mut needles = SectionLines::default();
    for unit in units {
        staged.checkpoint();
        let first_result = out.results.len();
        let mut failed_files: crate::apply::PathMap<usize> = Default::default();
        for &index in &unit {
            let block = &blocks[index];
            let path = confined[index].as_deref();
            if let Some(&first) = path.and_then(|p| failed_files.get(p)) {
                let mut r = result_for(index, path.unwrap_or_default(), block);
                r.set(
                    Status::Skipped,
                    ErrorKind::PreviousFailed,
                    previous_failed(&Unit::Block.at(first)),
                );
                out.results.push(r);
                continue;
            }
            let r = apply_block(
                index,
                block,
                path,
                host,
                &mut staged,
                opts,
                context.as_ref(),
                &mut out,
                &mut needles,
            );
            if let (Some(path), true) = (path, fails(&r)) {
                failed_files.entry(path.to_string()).or_insert(index);
            }
            out.results.push(r);
        }
        if abort_unit(&mut out.results[first_result..], scope).is_some() {
            staged.rollback();
        }
    }

    // Every changed file once (the transaction writes contents first, then deletions).
    let finished = staged.finish(
        host,
        CommitOptions {
            dry_run: opts.dry_run,
            stage: opts.stage,
        },
        |doc, _| doc.encode_with(opts.trailing_newline),
    );
    out.files_modified = finished.modified;
    out.files_created = finished.created;
    out.files_deleted = finished.deleted;
    let mut committed = finished.committed;
    out.stage_error = committed.stage_failure();
    if let Some(failure) = committed.failure.take() {
        crate::engine::host_failed(&mut out, failure);
    }
    out.file_changes = committed.file_changes;
    if opts.dry_run {
        for r in out
            .results
            .iter_mut()
            .filter(|r| r.status == Status::Applied)
        {
            r.status = Status::Validated;
        }
    }
    out.retry_prompt = crate::engine::retry_prompt(&out.results);
    out
}

#[allow(clippy::too_many_arguments)]
fn apply_block<'b>(
    index: usize,
    block: &'b EditBlock,
    normalized: Option<&str>,
    host: &mut dyn FileHost,
    staged: &mut Staged<Doc>,
    opts: &ApplyOptions,
    context: Option<&crate::apply::PathSet>,
    out: &mut ApplyResult,
    needles: &mut SectionLines<'b>,
) -> EditResult {
    let refuse = |mut r: EditResult, status: Status, kind: ErrorKind, reason: String| {
        r.status = status;
        r.error_kind = Some(kind);
        r.reason = Some(reason);
        r
    };
    // The caller normalised the path already; only a refused one is normalised
    // again, for its reason.
    let again;
    let path: &str = match normalized {
        Some(p) => p,
        None => match confine(&block.file_path, &opts.allow_folders) {
            Ok(p) => {
                again = p;
                &again
            }
            Err(e) => {
                let base = result_for(index, &block.file_path, block);
                return refuse(base, Status::Skipped, ErrorKind::PathEscape, e.reason);
            }
        },
    };
    let base = result_for(index, path, block);
    if let (Some(list), false) = (context, block.is_create()) {
        if !list.contains(path) {
            if !out.files_auto_added.iter().any(|p| p == path) {
                out.files_auto_added.push(path.to_string());
            }
            let mut r = base;
            r.status = Status::NotInContext;
            r.reason = Some(crate::apply::not_in_context(path));
            return r;
        }
    }
    let slot = staged.load_shared(host, path, Doc::from_read);
    if let Some(u) = &slot.unusable {
        return refuse(base, status_of(&u.kind), u.kind, u.reason(path));
    }
    let Some(op) = block.patch.as_deref() else {
        // A text block of another format in the same reply: the engine applies it.
        let Some(doc) = slot.doc.clone() else {
            if block.is_create() {
                return apply_text_block(index, block, path, None, staged, opts);
            }
            let reason = crate::engine::file_not_found(path);
            return refuse(base, Status::Failed, ErrorKind::FileNotFound, reason);
        };
        return apply_text_block(index, block, path, Some(doc), staged, opts);
    };
    let name = OpName::of(block, op);
    let outcome = match op.operation {
        Operation::Add => {
            if slot.doc.is_some() && !opts.overwrite {
                Err(fail(
                    ErrorKind::FileExists,
                    add_exists_reason(&name.to_string(), path),
                ))
            } else {
                let hunk = op.hunks.first();
                let lines = hunk.map(|h| h.new_side()).unwrap_or_default();
                let final_newline = !hunk.is_some_and(|h| h.no_newline_new);
                let file = slot
                    .doc
                    .as_ref()
                    .map(|d| d.file.clone())
                    .unwrap_or_else(TextFile::new_file);
                Ok(write_whole(staged, path, file, lines, final_newline, None))
            }
        }
        Operation::Delete => match slot.doc.as_ref() {
            None => Err(fail(
                ErrorKind::FileNotFound,
                missing_reason(&name.to_string(), path, Operation::Delete),
            )),
            Some(doc) => {
                let mut check = Ok(());
                if !op.hunks.is_empty() {
                    // A unified diff deleting a file lists its lines: they must be the file.
                    match apply_hunks(&name, path, doc, &op.hunks, block.format, needles) {
                        Ok((rest, _)) if rest.is_empty() => {}
                        Ok((rest, _)) => {
                            check = Err(fail(
                                ErrorKind::OldMismatch,
                                format!("{name} was refused: {path} has {} more line(s) than the diff removes (first: {}); nothing was deleted. Make the diff remove every line, or update the file instead.", rest.len(), quote(rest.line(0))),
                            ))
                        }
                        Err(f) => check = Err(f),
                    }
                }
                check.map(|_| {
                    if let Some(slot) = staged.edit(path) {
                        slot.doc = None;
                        slot.changed = true;
                    }
                    Done {
                        line: None,
                        matched_by: "exact".into(),
                        note: None,
                        no_op: false,
                    }
                })
            }
        },
        Operation::Update => match slot.doc.as_ref() {
            // A unified diff of a missing file that only adds lines (`@@
            // -0,0 +1,3 @@` under `--- a/x`, aider's new files): nothing to
            // find, so its added lines are the file.
            None if block.format == Format::UnifiedDiff
                && op.move_to.is_none()
                && !op.hunks.is_empty()
                && op.hunks.iter().all(|h| h.old_side().is_empty()) =>
            {
                let lines: Vec<&str> = op.hunks.iter().flat_map(|h| h.new_side()).collect();
                let final_newline = !op.hunks.iter().any(|h| h.no_newline_new);
                let note = format!(
                    "{path} did not exist; the diff only adds lines, so it was created with them."
                );
                Ok(write_whole(
                    staged,
                    path,
                    TextFile::new_file(),
                    lines,
                    final_newline,
                    Some(note),
                ))
            }
            None => {
                let mut reason = missing_reason(&name.to_string(), path, Operation::Update);
                // The parser keeps the `---` name of a `--- x` / `+++ y` pair.
                let old = op
                    .old_path
                    .as_deref()
                    .filter(|old| *old != path && block.format == Format::UnifiedDiff);
                if let Some(old) = old {
                    // `--- x` / `+++ y` without rename lines: GNU patch would edit x.
                    reason.push_str(&format!(" The `---` line names {old}: to edit {old}, write its path on both the `---` and the `+++` line; to rename it, add `rename from {old}` and `rename to {path}` lines after `diff --git a/{old} b/{path}`."));
                }
                Err(fail(ErrorKind::FileNotFound, reason))
            }
            Some(doc) => match apply_hunks(&name, path, doc, &op.hunks, block.format, needles) {
                Err(f) => Err(f),
                Ok((new_doc, mut done)) => {
                    let unchanged = new_doc.same_content(doc);
                    match &op.move_to {
                        Some(to) => match confine(to, &opts.allow_folders) {
                            Err(e) => Err(fail(
                                ErrorKind::PathEscape,
                                format!("{name}: the move destination was refused: {}", e.reason),
                            )),
                            Ok(dest) if dest == path => {
                                done.no_op = unchanged;
                                if let Some(slot) = staged.edit(path) {
                                    slot.doc = Some(new_doc);
                                    slot.changed |= !unchanged;
                                }
                                Ok(done)
                            }
                            Ok(dest) => {
                                let target = staged.load_shared(host, &dest, Doc::from_read);
                                if target.doc.is_some() && !opts.overwrite {
                                    Err(fail(ErrorKind::FileExists, format!("{name} was refused: it moves the file to {dest}, which already exists. Choose another name, or apply with overwrite.")))
                                } else if let Some(u) = &target.unusable {
                                    Err(fail(u.kind, u.reason(&dest)))
                                } else {
                                    if let Some(slot) = staged.edit(path) {
                                        slot.doc = None;
                                        slot.changed = true;
                                    }
                                    if let Some(slot) = staged.edit(&dest) {
                                        slot.doc = Some(new_doc);
                                        slot.changed = true;
                                        slot.moved_from = Some(path.to_string());
                                    }
                                    staged.touch(&dest);
                                    done.note = Some(match done.note {
                                        Some(n) => format!("{n} Moved to {dest}."),
                                        None => format!("Moved to {dest}."),
                                    });
                                    Ok(done)
                                }
                            }
                        },
                        None => {
                            done.no_op = unchanged;
                            if !unchanged {
                                if let Some(slot) = staged.set_doc(path, Some(new_doc)) {
                                    slot.changed = true;
                                }
                            }
                            Ok(done)
                        }
                    }
                }
            },
        },
    };
    match outcome {
        Ok(done) => {
            staged.touch(path);
            let mut r = base;
            r.estimated_line = done.line;
            r.matched_by = Some(done.matched_by);
            if done.no_op {
                r.status = Status::Skipped;
                r.error_kind = Some(ErrorKind::NoOp);
                r.reason = Some(no_op_reason(&name));
            } else {
                r.reason = done.note;
            }
            r
        }
        Err(f) => {
            let mut r = refuse(base, status_of(&f.kind), f.kind, f.reason);
            r.estimated_line = f.line;
            r.diagnostics = f.diagnostics;
            r
        }
    }
}

/// An update applied to one file's text by [`update_body`].
pub(crate) struct Updated {
    /// The file's text afterwards.
    pub text: String,
    /// 1-based line of the first section.
    pub line: Option<u32>,
    /// What was assumed to apply it (a loosened match), as the result's reason says.
    pub note: Option<String>,
}

/// Applies an update operation's sections to one file's `body` directly, as
/// the transaction applies them to a file it read (the same words when it
/// refuses). For a tool call that carries one file's V4A update and for the
/// live preview of a patch operation. The refusals name the operation by
/// `written` (its path as the block wrote it) and the file by `path` (the
/// path as confined).
#[allow(clippy::result_large_err)] // as apply_hunks: a refusal is the rare way out
pub(crate) fn update_body(
    format: Format,
    written: &str,
    path: &str,
    op: &PatchOp,
    body: &str,
) -> Result<Updated, Failure> {
    if crate::text::is_binary(body.as_bytes()) {
        return Err(fail(ErrorKind::Binary, crate::apply::binary_reason(path)));
    }
    let name = OpName {
        format,
        operation: Operation::Update,
        path: written,
    };
    let doc = Doc::from_read(&std::rc::Rc::new(TextFile::from_text(body)));
    let mut needles = SectionLines::default();
    let (new_doc, done) = apply_hunks(&name, path, &doc, &op.hunks, format, &mut needles)?;
    if new_doc.same_content(&doc) {
        return Err(Failure {
            line: done.line,
            ..fail(ErrorKind::NoOp, no_op_reason(&name))
        });
    }
    Ok(Updated {
        text: new_doc.encode(),
        line: done.line,
        note: done.note,
    })
}

/// The refusal of an operation whose sections change nothing.
fn no_op_reason(name: &OpName) -> String {
    format!("{name} changes nothing: every section's new lines equal its old lines. Put the intended change in `-` and `+` lines.")
}

/// A text block of the other formats, through the engine, on the file as
/// the transaction holds it.
#[allow(clippy::too_many_arguments)]
fn apply_text_block(
    index: usize,
    block: &EditBlock,
    path: &str,
    doc: Option<Doc>,
    staged: &mut Staged<Doc>,
    opts: &ApplyOptions,
) -> EditResult {
    let content = doc.as_ref().map(Doc::encode).unwrap_or_default();
    let (new_content, mut r) = crate::engine::apply_to_content(block, &content, opts);
    r.block_index = index;
    r.path = path.to_string();
    if r.status == Status::Applied {
        if let Some(slot) = staged.edit(path) {
            slot.doc = Some(Doc::from_read(&std::rc::Rc::new(TextFile::from_text(
                &new_content,
            ))));
            slot.changed = true;
        }
        staged.touch(path);
    }
    r
}

/// Applies `hunks` in order to `doc`; the new document and how.
/// `needles`: room for a section's lines (kept by the caller, so that each
/// operation does not allocate its own).
#[allow(clippy::result_large_err)] // failures are rare; boxing them would only add noise
fn apply_hunks<'h>(
    name: &dyn std::fmt::Display,
    path: &str,
    doc: &Doc,
    hunks: &'h [Hunk],
    format: Format,
    needles: &mut SectionLines<'h>,
) -> Result<(Doc, Done), Failure> {
    let view = doc.view();
    let lines = &view[..];
    // Room for every added line, so the file's lines are copied once.
    let added: usize = hunks.iter().map(Hunk::added_hint).sum();
    let written: usize = hunks.iter().map(Hunk::body_len).sum();
    let mut out = DocEdit::with_room(doc, lines.len() + added, written);
    let mut copied = 0usize; // lines of `doc` already handled
    let mut cursor = 0usize; // where the next section may start
    let mut offset: isize = 0; // unified: actual minus stated start of the last hunk
    let mut loosest = Pass::Exact;
    let mut by_line = false;
    let mut notes: Vec<String> = Vec::new();
    let mut first_line = None;
    let mut final_newline = doc.final_newline;
    let mixed_endings = doc.file.mixed_endings();
    let total = hunks.len();
    // One index of the snapshot for every section's search, of the lines
    // the sections and their `@@` lines look for; for one or two searches
    // a scan of the lines costs less than indexing them.
    let searches: usize = hunks.iter().map(|h| 1 + h.anchors.len()).sum();
    let index = (searches >= INDEX_MIN_SEARCHES).then(|| {
        let old_sides = hunks.iter().flat_map(|h| h.old_lines());
        let anchors = hunks
            .iter()
            .flat_map(|h| h.anchors.iter().map(String::as_str));
        LineIndex::for_needles(lines, old_sides.chain(anchors))
    });
    let hashes = index.as_ref();
    for (k, hunk) in hunks.iter().enumerate() {
        // Trailing blank context lines of the section that lie past the end of the file.
        let mut past_end = 0usize;
        // The pass that located the section's old lines.
        let mut hunk_pass = Pass::Exact;
        let which = Which {
            name,
            k,
            total,
            unit: if format == Format::UnifiedDiff {
                "hunk"
            } else {
                "section"
            },
        };
        needles.read(hunk);
        let SectionLines { body, old: needle } = &*needles;
        let needle = &needle[..];
        let mut from = cursor;
        // `@@` lines narrow the search, each to what follows the one before.
        for anchor in &hunk.anchors {
            match locate_hashed(
                lines,
                hashes,
                &[anchor.as_str()],
                &PATCH_PASSES,
                from,
                Prefer::Nothing,
            ) {
                Located::Unique { start, pass, .. } => {
                    loosest = loosest_of(loosest, pass);
                    from = start + 1;
                }
                Located::Ambiguous { starts, pass } => {
                    if needle.is_empty() {
                        let lines1: Vec<u32> = starts.iter().map(|s| (s + 1) as u32).collect();
                        let mut f = ambiguous(path, &lines1, Some(pass.as_str()));
                        f.reason = format!("{which}: the `@@ {anchor}` line is ambiguous, so where to insert is not known. {}", f.reason);
                        return Err(Failure {
                            kind: f.kind,
                            reason: f.reason,
                            line: f.estimated_line,
                            diagnostics: Some(f.diagnostics),
                        });
                    }
                    // The section's own lines must then be unique after the first.
                    loosest = loosest_of(loosest, pass);
                    from = starts[0] + 1;
                }
                Located::NotFound => {
                    return Err(anchor_not_found(
                        &which.to_string(),
                        path,
                        lines,
                        anchor,
                        from,
                    ))
                }
            }
        }
        let start = if needle.is_empty() {
            let placed = place_without_context(
                &which.to_string(),
                path,
                format,
                (!hunk.anchors.is_empty()).then_some(from),
                hunk.old_start,
                (offset, cursor, lines.len()),
            )
            .map_err(|(kind, reason)| fail(kind, reason))?;
            match (format, hunk.old_start) {
                (Format::UnifiedDiff, Some(os)) => {
                    by_line = true;
                    notes.push(format!(
                        "Hunk {} has no context lines and was placed by its line number ({os}).",
                        k + 1
                    ));
                }
                (Format::UnifiedDiff, None) => notes.push(format!(
                    "Hunk {} has no context lines and no line numbers; its lines were added at the end of the file.",
                    k + 1
                )),
                _ => {}
            }
            placed
        } else {
            // `\ No newline at end of file` on the old side says the old lines end the file.
            let at_end = hunk.end_of_file || hunk.no_newline_old;
            let prefer = section_prefer(
                lines,
                at_end,
                !hunk.anchors.is_empty(),
                from,
                hunk.old_start,
                offset,
            );
            match locate_hashed(lines, hashes, needle, &PATCH_PASSES, from, prefer) {
                Located::Unique {
                    start,
                    pass,
                    preferred,
                } => {
                    loosest = loosest_of(loosest, pass);
                    hunk_pass = pass;
                    if preferred && !matches!(prefer, Prefer::Before(_)) {
                        by_line |= format == Format::UnifiedDiff && !at_end;
                        let how = if hunk.end_of_file {
                            "the one at the end of the file (`*** End of File`)"
                        } else if at_end {
                            "the one at the end of the file (`\\ No newline at end of file` after its old lines)"
                        } else {
                            "the one at its stated line"
                        };
                        let unit = if format == Format::UnifiedDiff {
                            "Hunk"
                        } else {
                            "Section"
                        };
                        notes.push(format!(
                            "{unit} {} matches several places; {how} was taken.",
                            k + 1
                        ));
                    }
                    if hunk.end_of_file && start + needle.len() < lines.len() {
                        notes.push(format!(
                            "Section {} is marked `*** End of File`, but its lines occur once, at line {}, not at the end; it was applied there.",
                            k + 1,
                            start + 1
                        ));
                    }
                    start
                }
                Located::Ambiguous { pass, starts } => {
                    return Err(ambiguous_section(
                        &which.to_string(),
                        path,
                        &starts,
                        pass,
                        format,
                    ))
                }
                Located::NotFound => {
                    let Some((start, pass, blanks)) =
                        blank_tail_at_end(format, hunk, needle, lines, hashes, from)
                    else {
                        return Err(not_found(
                            &which,
                            path,
                            lines,
                            needle,
                            &hunk.new_side(),
                            from,
                        ));
                    };
                    loosest = loosest_of(loosest, pass);
                    hunk_pass = pass;
                    past_end = blanks;
                    notes.push(format!(
                        "{} {} ends with {blanks} blank context line(s) past the end of {path}; they were read as the file's final newline.",
                        if format == Format::UnifiedDiff { "Hunk" } else { "Section" },
                        k + 1
                    ));
                    start
                }
            }
        };
        if let (Format::UnifiedDiff, Some(os)) = (format, hunk.old_start) {
            let stated = if needle.is_empty() {
                os as isize
            } else {
                os as isize - 1
            };
            let moved = hunk_offset(start, os, !needle.is_empty());
            if moved != offset && !needle.is_empty() {
                let d = start as isize - (stated + offset);
                if d != 0 && !by_line {
                    notes.push(format!(
                        "Hunk {} was found at line {}, {} line(s) {} its stated line {os}.",
                        k + 1,
                        start + 1,
                        d.abs(),
                        if d > 0 { "after" } else { "before" }
                    ));
                }
            }
            offset = moved;
        }
        first_line.get_or_insert((start + 1) as u32);
        // Copy up to the section, then walk it: context keeps the file's text.
        out.keep(copied..start);
        let mut at = start;
        let reindented = if needs_reindent(format, hunk_pass) {
            reindented_new_side(format, hunk_pass, needle, &hunk.new_side(), &lines[start..])
        } else {
            None
        };
        let mut new_at = 0usize; // the line's place in the section's new side
        let walked = body.len().saturating_sub(past_end);
        // In a file with mixed endings, the lines a change removed (since
        // the last context line): the k-th added line takes the k-th one's
        // ending, added lines past them the last one's.
        let mut removed: Vec<usize> = Vec::new();
        let mut added_in_run = 0usize;
        // Lines since the last `-` or `+` line (`None`: none yet).
        let mut since_change: Option<usize> = None;
        for &l in &body[..walked] {
            let text = l.get(1..).unwrap_or("");
            if !l.starts_with('-') {
                new_at += 1;
            }
            since_change = match l.as_bytes().first() {
                Some(b'+' | b'-') => Some(0),
                _ => since_change.map(|n| n + 1),
            };
            match l.as_bytes().first() {
                Some(b'+') => {
                    let text = reindented
                        .as_ref()
                        .and_then(|r| r.get(new_at - 1))
                        .map_or(text, String::as_str);
                    let replaced = removed.get(added_in_run).or(removed.last());
                    added_in_run += 1;
                    out.write(text, replaced.copied());
                }
                Some(b'-') => {
                    if mixed_endings {
                        removed.push(at);
                    }
                    at += 1;
                }
                _ => {
                    out.keep_line(at);
                    at += 1;
                    removed.clear();
                    added_in_run = 0;
                }
            }
        }
        // `handed_back` of the body, counted on the way: the blank lines
        // past the end (not walked) are context, and are not handed back.
        let trailing = match format {
            Format::UnifiedDiff => since_change.unwrap_or(0),
            _ => 0,
        };
        out.truncate(out.len() - trailing);
        at -= trailing;
        copied = at;
        cursor = at;
        // A marker changes the final newline only where the two sides differ:
        // one written after a context line (or on both sides) says the old and
        // the new file end alike, so the file's own ending stays.
        if hunk.no_newline_new != hunk.no_newline_old {
            final_newline = hunk.no_newline_old;
        }
    }
    out.keep(copied..lines.len());
    let mut matched_by = loosest.as_str().to_string();
    if by_line {
        matched_by = format!("{matched_by}+line-number");
    }
    let note = (!notes.is_empty()).then(|| notes.join(" "));
    Ok((
        out.finish(final_newline),
        Done {
            line: first_line,
            matched_by,
            note,
            no_op: false,
        },
    ))
}

/// The `@@ {anchor}` line of a section is nowhere in `lines` at or after `from`.
pub(crate) fn anchor_not_found<S: AsRef<str>>(
    which: &str,
    path: &str,
    lines: &[S],
    anchor: &str,
    from: usize,
) -> Failure {
    // Found, but only before where the search starts: the sections are out of order.
    let before = &lines[..from.min(lines.len())];
    if let Some(at) = start_of(&locate(
        before,
        &[anchor],
        &PATCH_PASSES,
        0,
        Prefer::Nothing,
    )) {
        let reason = format!(
            "{which}: the `@@ {anchor}` line is at line {} of {path}, before the end of the previous section (line {from}); sections apply in file order, each `@@` line found after the one before. Put the sections in the order their lines appear in the file, or leave this `@@` line out.",
            at + 1
        );
        return Failure {
            kind: ErrorKind::AnchorNotFound,
            reason,
            line: Some((at + 1) as u32),
            diagnostics: None,
        };
    }
    let f = explain_not_found(
        path,
        &owned(&lines[from.min(lines.len())..]),
        &Parts {
            anchor: vec![anchor],
            old: vec![],
            trailing: vec![],
        },
    );
    let after = if from > 0 {
        format!(" after line {from}")
    } else {
        String::new()
    };
    let reason = format!(
        "{which}: the `@@ {anchor}` line was not found in {path}{after}. Write after `@@` a line copied exactly from the file (such as the enclosing function's signature), or leave it out. {}",
        f.reason
    );
    let nearest = crate::engine::locate::nearest_lines(&owned(lines), anchor, None, 3);
    Failure {
        kind: ErrorKind::AnchorNotFound,
        reason,
        line: nearest.first().map(|n| n.line),
        diagnostics: Some(Diagnostics {
            failed_part: Some("anchor".into()),
            expected_line: Some(anchor.to_string()),
            nearest,
            ..Diagnostics::default()
        }),
    }
}

/// A section whose old lines occur at every 0-based line of `starts` (under `pass`).
pub(crate) fn ambiguous_section(
    which: &str,
    path: &str,
    starts: &[usize],
    pass: Pass,
    format: Format,
) -> Failure {
    let lines1: Vec<u32> = starts.iter().map(|s| (s + 1) as u32).collect();
    let f = ambiguous(path, &lines1, Some(pass.as_str()));
    let hint = match format {
        Format::ApplyPatch => "Add more context lines, or an `@@` line with the enclosing function or class, so the section matches one place only.",
        _ => "Add more context lines so the hunk matches one place only.",
    };
    Failure {
        kind: ErrorKind::Ambiguous,
        reason: format!("{which}: {} {hint}", f.reason),
        line: f.estimated_line,
        diagnostics: Some(f.diagnostics),
    }
}

/// How many of a section's last lines the next section may start in
/// (`last_first`: its body lines, last first): a unified hunk's trailing
/// context, as jsdiff and GNU patch allow, when the hunk changes anything;
/// none for `apply-patch`. The applier and the live preview both hand them back.
pub(crate) fn handed_back<'a>(format: Format, last_first: impl Iterator<Item = &'a str>) -> usize {
    if format != Format::UnifiedDiff {
        return 0;
    }
    for (trailing, l) in last_first.enumerate() {
        if matches!(l.as_bytes().first(), Some(b'+' | b'-')) {
            return trailing;
        }
    }
    // Context only: nothing changed, so nothing to hand back.
    0
}

/// Whether a section located by `pass` has its new lines re-indented (only
/// then is [`reindented_new_side`] worth its allocations).
pub(crate) fn needs_reindent(format: Format, pass: Pass) -> bool {
    format == Format::UnifiedDiff && matches!(pass, Pass::Whitespace | Pass::Punctuation)
}

/// A unified hunk located by a pass that ignores indentation: its new side
/// with each line moved by the offset between the old line it stands for and
/// the file line that old line matched, as aider re-indents such a hunk and
/// as text blocks are repaired (`None`: nothing to move). `apply-patch` keeps
/// its lines as written, as Codex and the Agents SDK do.
pub(crate) fn reindented_new_side<S: AsRef<str>>(
    format: Format,
    pass: Pass,
    needle: &[&str],
    new_side: &[&str],
    from_start: &[S],
) -> Option<Vec<String>> {
    if !needs_reindent(format, pass) {
        return None;
    }
    let window: Vec<&str> = from_start
        .iter()
        .take(needle.len())
        .map(AsRef::as_ref)
        .collect();
    if window.len() != needle.len() {
        return None;
    }
    let new = new_side.join("\n");
    let repaired = crate::locate::tolerant::repair_indentation(&window, needle, &new);
    Some(repaired.split('\n').map(str::to_string).collect())
}

/// An `apply-patch` section, or a unified hunk without line numbers
/// (aider's `@@ ... @@`), not found as written whose old lines end with
/// blank context lines: found without them when it then ends at the end of
/// the file, those lines standing for the file's final newline (Codex, the
/// Agents SDK and aider apply such a section; elsewhere in the file the
/// blank lines are a mismatch). The start, the pass and how many blank lines.
fn blank_tail_at_end(
    format: Format,
    hunk: &Hunk,
    needle: &[&str],
    lines: &[&str],
    hashes: Option<&LineIndex>,
    from: usize,
) -> Option<(usize, Pass, usize)> {
    if format != Format::ApplyPatch && hunk.old_start.is_some() {
        return None;
    }
    let blanks = hunk
        .body()
        .rsplit('\n')
        .take_while(|l| l.starts_with(' ') && l.trim().is_empty())
        .count();
    if blanks == 0 || blanks >= needle.len() {
        return None;
    }
    let kept = &needle[..needle.len() - blanks];
    match locate_hashed(lines, hashes, kept, &PATCH_PASSES, from, Prefer::End) {
        Located::Unique { start, pass, .. } if start + kept.len() == lines.len() => {
            Some((start, pass, blanks))
        }
        _ => None,
    }
}

/// Where a section without old lines goes: after its `@@` lines (`after_anchors`:
/// where they left the search), at a unified hunk's stated line (old start is
/// the line it follows, moved by `offset`, the earlier hunks' actual minus
/// stated start), or (`apply-patch`, a unified hunk without numbers) at the
/// end of the file; `(offset, cursor, len)`: the offset, where the section
/// may start, the file's lines.
pub(crate) fn place_without_context(
    which: &str,
    path: &str,
    format: Format,
    after_anchors: Option<usize>,
    old_start: Option<u32>,
    (offset, cursor, len): (isize, usize, usize),
) -> Result<usize, (ErrorKind, String)> {
    if let Some(from) = after_anchors {
        return Ok(from);
    }
    match (format, old_start) {
        (Format::UnifiedDiff, Some(os)) => {
            let at = ((os as isize) + offset).max(0) as usize;
            if at > len || at < cursor {
                return Err((
                    ErrorKind::LineOutOfRange,
                    format!("{which}: the hunk has no context lines and its line number {os} is outside {path} ({len} lines) or before the previous hunk. Add context lines copied from the file."),
                ));
            }
            Ok(at)
        }
        // apply_patch, and a unified hunk with no numbers either (aider's
        // `@@ ... @@`): added lines only go at the end of the file.
        _ => Ok(len.max(cursor)),
    }
}

/// Which of several places a section with old lines takes: the one at the
/// end of the file (`*** End of File`), the one inside the block its `@@`
/// lines open (the search starting at `from`), or the one at a unified
/// hunk's stated line moved by `offset`.
pub(crate) fn section_prefer<S: AsRef<str>>(
    lines: &[S],
    end_of_file: bool,
    anchored: bool,
    from: usize,
    old_start: Option<u32>,
    offset: isize,
) -> Prefer {
    if end_of_file {
        Prefer::End
    } else if anchored {
        Prefer::Before(scope_end(lines, from))
    } else {
        match old_start {
            Some(os) if os > 0 => Prefer::Line(((os as isize - 1) + offset).max(0) as usize),
            _ => Prefer::Nothing,
        }
    }
}

/// A unified hunk's actual minus stated start (a hunk with old lines states
/// its first line, one without the line it follows).
pub(crate) fn hunk_offset(start: usize, old_start: u32, has_old: bool) -> isize {
    let stated = if has_old {
        old_start as isize - 1
    } else {
        old_start as isize
    };
    start as isize - stated
}

/// "`*** Update File: x`, section 2 of 3" (a unified diff's "hunk 2 of 3"),
/// written only when a failure names it.
struct Which<'a> {
    name: &'a dyn std::fmt::Display,
    k: usize,
    total: usize,
    unit: &'static str,
}

impl std::fmt::Display for Which<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.total > 1 {
            write!(
                f,
                "{}, {} {} of {}",
                self.name,
                self.unit,
                self.k + 1,
                self.total
            )
        } else {
            self.name.fmt(f)
        }
    }
}

/// One section's lines, split once: its body lines (each with its ` `,
/// `-` or `+`) and its old side (context and removed lines, without it).
/// Kept for a whole reply, so that a section allocates nothing.
#[derive(Default)]
struct SectionLines<'h> {
    body: Vec<&'h str>,
    old: Vec<&'h str>,
}

impl<'h> SectionLines<'h> {
    /// Reads `hunk`'s lines (what was read before is dropped).
    fn read(&mut self, hunk: &'h Hunk) {
        self.body.clear();
        self.old.clear();
        for line in hunk.lines() {
            self.body.push(line);
            if !line.starts_with('+') {
                self.old.push(line.get(1..).unwrap_or(""));
            }
        }
    }
}

/// Searches of one operation (sections and `@@` lines) from which the
/// file is indexed for them (see [`LineIndex`]).
const INDEX_MIN_SEARCHES: usize = 3;

fn loosest_of(a: Pass, b: Pass) -> Pass {
    let rank = |p: Pass| PATCH_PASSES.iter().position(|x| *x == p).unwrap_or(0);
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Explains a section found nowhere after `from`: the nearest lines, and
/// the current lines to copy; or that its result (`after`: its context and
/// added lines) is already there.
fn not_found(
    which: &Which,
    path: &str,
    lines: &[&str],
    needle: &[&str],
    after: &[&str],
    from: usize,
) -> Failure {
    // Found, but before where it may start: the sections are out of order.
    if let Some(at) =
        start_of(&locate(lines, needle, &PATCH_PASSES, 0, Prefer::Nothing)).filter(|s| *s < from)
    {
        let reason = format!(
            "{which}: its lines are at line {} of {path}, before the end of the previous {unit} (line {from}); {unit}s apply in file order. Put the {unit}s in the order their lines appear in the file.",
            at + 1,
            unit = which.unit
        );
        return Failure {
            kind: ErrorKind::OldMismatch,
            reason,
            line: Some((at + 1) as u32),
            diagnostics: None,
        };
    }
    if after != needle {
        if let Some(at) = already_applied(lines, after) {
            return Failure {
                kind: ErrorKind::OldMismatch,
                reason: format!(
                    "{which}: {}",
                    already_applied_reason(path, "its old side", at + 1)
                ),
                line: Some((at + 1) as u32),
                diagnostics: None,
            };
        }
    }
    let f = explain_not_found(
        path,
        &owned(lines),
        &Parts {
            anchor: vec![],
            old: needle.to_vec(),
            trailing: vec![],
        },
    );
    let mut reason = format!("{which}: {}", f.reason);
    if let Some(line) = f.estimated_line {
        let first = (line as usize).saturating_sub(3);
        let last = (first + needle.len() + 4).min(lines.len());
        if first < last {
            reason.push_str(&format!(
                " Current lines {}-{} of {path}, to copy:\n",
                first + 1,
                last
            ));
            for l in &lines[first..last] {
                reason.push_str(l);
                reason.push('\n');
            }
        }
    }
    Failure {
        kind: f.kind,
        reason: reason.trim_end().to_string(),
        line: f.estimated_line,
        diagnostics: Some(f.diagnostics),
    }
}

/// The lines as owned strings, for the explainers (failures only).
fn owned<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    lines.iter().map(|l| l.as_ref().to_string()).collect()
}

fn start_of(l: &Located) -> Option<usize> {
    match l {
        Located::Unique { start, .. } => Some(*start),
        Located::Ambiguous { starts, .. } => starts.first().copied(),
        Located::NotFound => None,
    }
}

/// The end of the block the `@@` line just before `from` opens: the first
/// later non-blank line indented no deeper than it (or the end of the file).
pub(crate) fn scope_end<S: AsRef<str>>(lines: &[S], from: usize) -> usize {
    let Some(anchor) = from
        .checked_sub(1)
        .and_then(|i| lines.get(i))
        .map(AsRef::as_ref)
    else {
        return lines.len();
    };
    let depth = |l: &str| l.len() - l.trim_start().len();
    let d = depth(anchor);
    lines
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, l)| {
            let l = l.as_ref();
            !l.trim().is_empty() && depth(l) <= d
        })
        .map_or(lines.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_lines_are_each_sections_body_and_old_side_in_turn() {
        let mut a = Hunk::default();
        for line in [" a", "-b", "+B", " c", "-"] {
            a.push_line(line);
        }
        let mut b = Hunk::default();
        b.push_line("+only");
        let mut lines = SectionLines::default();
        lines.read(&a);
        assert_eq!(lines.body, a.lines().collect::<Vec<_>>());
        assert_eq!(lines.old, a.old_side());
        assert_eq!(lines.old, ["a", "b", "c", ""]);
        lines.read(&b);
        assert_eq!(lines.body, ["+only"]);
        assert!(lines.old.is_empty());
    }
}
