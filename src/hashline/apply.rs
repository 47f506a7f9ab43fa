//! Checking a whole call against one snapshot of the file, then writing.

use super::call::{parse_call, Anchor, HashlineCall, HashlineOp};
use super::id::{line_id, DEFAULT_WIDTH, MAX_WIDTH};
use super::view::{body_lines, excerpt};
use crate::apply::{CommitOptions, FileChange, Loaded, Transaction};
use crate::host::FileHost;
use crate::path::confine;
use crate::result::{ErrorKind, Status};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Lines of context shown around each changed line in errors and results.
pub const CONTEXT: usize = 2;
/// The most lines a success message shows with their new anchors.
const MAX_VIEW_LINES: usize = 60;

/// How a call is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HashlineOptions {
    /// ID width the read view used (default [`DEFAULT_WIDTH`]).
    pub width: usize,
    /// Accept `{ old_text, new_text, all? }` operations (off by default).
    pub allow_replace_text: bool,
    /// Check everything, write nothing (status `validated`).
    pub dry_run: bool,
    /// Let `rename` replace an existing file.
    pub overwrite: bool,
    /// Ask the host to stage what was written and deleted.
    pub stage: bool,
    /// Folders inside version-control metadata that may be written (the
    /// path or the rename target), named exactly (`.git/info`); see
    /// [`crate::path::confine`].
    pub allow_folders: Vec<String>,
}

impl Default for HashlineOptions {
    fn default() -> Self {
        HashlineOptions {
            width: DEFAULT_WIDTH,
            allow_replace_text: false,
            dry_run: false,
            overwrite: false,
            stage: crate::apply::STAGE_BY_DEFAULT,
            allow_folders: Vec::new(),
        }
    }
}

/// An anchor whose line changed since the read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StaleLine {
    pub line: u32,
    /// The anchor as sent (`LINE#ID`).
    pub sent: String,
    /// The line's current anchor.
    pub current: String,
    pub text: String,
}

/// What happened to one edit call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HashlineResult {
    /// The file's path, normalised (as sent when it was refused).
    pub path: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// Why it was refused: a message a model can act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// 0-based index of the operation at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<usize>,
    /// 1-based line at fault, or the first changed line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub stale: Vec<StaleLine>,
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    pub files_deleted: Vec<String>,
    /// What to tell the model: the refusal, or a summary with the changed
    /// lines' new anchors.
    pub message: String,
    /// The file's content before and after (and a rename's new path), in a
    /// dry run as in a real one; empty when the call was refused.
    #[serde(default)]
    pub file_changes: Vec<FileChange>,
    /// Set when the change was written but the host could not stage it:
    /// what failed, and which paths are left to stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage_error: Option<String>,
    /// The host call that failed while the change was written, and what it
    /// left on disk (the result already says what that undid).
    #[serde(skip)]
    pub host_failure: Option<crate::apply::HostFailure>,
}

impl HashlineResult {
    fn new(path: &str) -> HashlineResult {
        HashlineResult {
            path: path.to_string(),
            status: Status::Applied,
            error_kind: None,
            reason: None,
            operation: None,
            line: None,
            stale: Vec::new(),
            files_modified: Vec::new(),
            files_created: Vec::new(),
            files_deleted: Vec::new(),
            message: String::new(),
            file_changes: Vec::new(),
            stage_error: None,
            host_failure: None,
        }
    }

    /// A call refused as a whole: `skipped` or `failed` by the one rule
    /// ([`crate::apply::refusal_status`]); the call is its own atomic unit.
    fn refuse(path: &str, kind: ErrorKind, reason: String) -> HashlineResult {
        let mut r = HashlineResult::new(path);
        r.status = crate::apply::refusal_status(kind);
        r.error_kind = Some(kind);
        r.message = reason.clone();
        r.reason = Some(reason);
        r
    }

    fn at(mut self, operation: Option<usize>, line: Option<usize>) -> HashlineResult {
        self.operation = operation;
        self.line = line.map(|l| l as u32);
        self
    }

    /// True when the call was applied (or validated in a dry run).
    pub fn ok(&self) -> bool {
        matches!(self.status, Status::Applied | Status::Validated)
    }
}

/// The call as a JSON value: itself, or its text parsed (`None` when the
/// text is not JSON).
fn call_object(call: &Value) -> Option<std::borrow::Cow<'_, Value>> {
    match call {
        Value::String(text) => serde_json::from_str(text).ok().map(std::borrow::Cow::Owned),
        other => Some(std::borrow::Cow::Borrowed(other)),
    }
}

/// The paths a call needs read, normalised: the file and a rename target.
/// Refused paths are left out, so they are never read.
pub fn hashline_paths(call: &Value, options: &HashlineOptions) -> Vec<String> {
    let confine = |p: &str| confine(p, &options.allow_folders);
    let Some(call) = call_object(call) else {
        return Vec::new();
    };
    let call = call.as_ref();
    let mut paths = Vec::new();
    if let Some(Ok(p)) = call.get("path").and_then(Value::as_str).map(confine) {
        paths.push(p);
        match call.get("rename").and_then(Value::as_str).map(confine) {
            // A refused target refuses the call: nothing is read.
            Some(Err(_)) => return Vec::new(),
            Some(Ok(target)) if !paths.contains(&target) => paths.push(target),
            _ => {}
        }
    }
    paths
}

/// Whether the call asks to delete a file: `delete: true`, or a rename
/// (which deletes the old name), read as [`parse_call`] reads them. A host
/// that cannot delete is refused before anything is read.
pub fn deletes_a_file(call: &Value) -> bool {
    let Some(call) = call_object(call) else {
        return false;
    };
    let call = call.as_ref();
    call.get("delete") == Some(&Value::Bool(true))
        || call
            .get("rename")
            .and_then(Value::as_str)
            .is_some_and(|p| !p.trim().is_empty())
}

/// Reads and applies one edit call (JSON) through `host`.
pub fn apply_hashline_edit(
    call: &Value,
    host: &mut dyn FileHost,
    options: &HashlineOptions,
) -> HashlineResult {
    let width = options.width.clamp(1, MAX_WIDTH);
    // JSON text that does not parse stays a string: parse_call refuses it as malformed.
    let parsed = call_object(call);
    let call = parsed.as_deref().unwrap_or(call);
    let raw_path = call
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    match parse_call(call, width) {
        Ok(call) => apply_call(&call, host, options),
        Err(e) => {
            HashlineResult::refuse(&raw_path, ErrorKind::Malformed, e.reason).at(e.operation, None)
        }
    }
}

/// A change to the original lines: `lines` replace `start..end` (0-based,
/// `start == end` inserts before line `start`).
struct Splice {
    op: usize,
    start: usize,
    end: usize,
    lines: Vec<String>,
    /// Lines an insert is anchored to (they must not be replaced by another operation).
    insert_anchors: Option<Vec<usize>>,
}

impl Splice {
    fn describe(&self) -> String {
        match &self.insert_anchors {
            Some(_) => format!(
                "edits[{}] (insert between lines {} and {})",
                self.op,
                self.start,
                self.start + 1
            ),
            None if self.end == self.start + 1 => {
                format!("edits[{}] (line {})", self.op, self.start + 1)
            }
            None => format!("edits[{}] (lines {}-{})", self.op, self.start + 1, self.end),
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Applies a parsed call: everything is checked against one snapshot before
/// anything is written.
pub fn apply_call(
    call: &HashlineCall,
    host: &mut dyn FileHost,
    options: &HashlineOptions,
) -> HashlineResult {
    let width = options.width.clamp(1, MAX_WIDTH);
    let confine = |p: &str| confine(p, &options.allow_folders);
    let path = match confine(&call.path) {
        Ok(p) => p,
        Err(e) => return HashlineResult::refuse(&call.path, ErrorKind::PathEscape, e.reason),
    };
    let failed = |kind: ErrorKind, reason: String| HashlineResult::refuse(&path, kind, reason);
    if call.delete && call.rename.is_some() {
        return failed(ErrorKind::Malformed, format!("The call for {path} asks to delete and to rename the file; these cannot be combined. Send delete: true alone, or rename with its edits."));
    }
    if call.delete && !call.edits.is_empty() {
        return failed(ErrorKind::Malformed, format!("The call for {path} deletes the file and also has {}; send {{ \"delete\": true, \"edits\": [] }} to delete, or drop delete to edit.", plural(call.edits.len(), "edit", "edits")));
    }
    let target = match call.rename.as_deref().map(confine) {
        None => None,
        Some(Ok(t)) if t == path => {
            return failed(
                ErrorKind::NoOp,
                format!(
                    "rename names the file's own path ({path}); give the new path, or drop rename."
                ),
            )
        }
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            return HashlineResult::refuse(
                &path,
                ErrorKind::PathEscape,
                format!("rename: {}", e.reason),
            )
        }
    };
    if !call.delete && target.is_none() && call.edits.is_empty() {
        return failed(ErrorKind::NoOp, format!("The call for {path} has no edits, so there is nothing to do. Add operations to edits, or use delete/rename."));
    }
    if !options.allow_replace_text {
        if let Some(i) = call
            .edits
            .iter()
            .position(|op| matches!(op, HashlineOp::ReplaceText { .. }))
        {
            return failed(ErrorKind::Malformed, format!("edits[{i}] is a content replace (old_text/new_text), which is not enabled here; refer to lines with LINE#ID anchors from the read output instead (target, first/last, before/after).")).at(Some(i), None);
        }
    }

    let commit = CommitOptions {
        dry_run: options.dry_run,
        stage: options.stage,
    };
    let mut txn = Transaction::new();
    let loaded = txn.read(host, &path).clone();
    let bytes = match (&loaded, txn.original(&path)) {
        (Loaded::Missing, _) => return failed(ErrorKind::FileNotFound, format!("{path} does not exist, so nothing was changed. Check the path against the file you read.")),
        (Loaded::Unusable(u), _) if u.kind == ErrorKind::PathEscape => {
            return HashlineResult::refuse(&path, ErrorKind::PathEscape, u.reason(&path))
        }
        (Loaded::Unusable(u), None) if u.kind == ErrorKind::FileChanged => return failed(ErrorKind::FileChanged, u.reason(&path)),
        (Loaded::Unusable(u), None) => return failed(ErrorKind::HostError, format!("{path} could not be read: {}.", u.host_message.as_deref().unwrap_or("the host failed"))),
        (_, Some(bytes)) => bytes.to_vec(),
        (_, None) => return failed(ErrorKind::HostError, format!("{path} could not be read.")),
    };

    if call.delete {
        txn.delete(&path);
        let committed = txn.commit(host, commit);
        if let Some(f) = committed.failure {
            let mut r = failed(
                ErrorKind::HostError,
                format!("{path} could not be deleted: {}.", f.error),
            );
            r.host_failure = Some(f);
            return r;
        }
        let mut result = HashlineResult::new(&path);
        result.stage_error = committed.stage_failure();
        result.files_deleted.push(path.clone());
        result.file_changes = committed.file_changes;
        if options.dry_run {
            result.status = Status::Validated;
            result.message = format!("{path} would be deleted (dry run).");
        } else {
            result.message = format!("Deleted {path}.");
        }
        return result;
    }

    let mut target_exists = false;
    if let Some(t) = &target {
        match txn.read(host, t) {
            Loaded::Missing => {}
            Loaded::Unusable(u) if u.kind == ErrorKind::PathEscape => {
                return HashlineResult::refuse(&path, ErrorKind::PathEscape, format!("Cannot rename {path} to {t}: {}. Nothing outside the project root is read or written.", u.host_message.as_deref().unwrap_or("the host refused it")))
            }
            Loaded::Unusable(u) if !u.exists => return failed(ErrorKind::HostError, format!("Cannot rename {path} to {t}: {t} could not be checked ({}).", u.host_message.as_deref().unwrap_or("the host failed"))),
            _ if options.overwrite => target_exists = true,
            _ => return failed(ErrorKind::FileExists, format!("Cannot rename {path} to {t}: {t} already exists. Choose another path, or delete {t} first.")),
        }
    }

    // The new content: unchanged bytes for a plain rename, else the edited file.
    let (content, summary) = if call.edits.is_empty() {
        match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(_) => return failed(ErrorKind::Encoding, format!("{path} is not UTF-8 text, so it cannot be moved through this host; move it with git mv or your file manager.")),
        }
    } else {
        let file = match loaded {
            Loaded::Text(f) => f,
            Loaded::Unusable(u) if u.kind == ErrorKind::Binary => {
                return failed(
                    ErrorKind::Binary,
                    format!(
                    "{path} is a binary file (it has a NUL byte); it cannot be edited by lines."
                ),
                )
            }
            _ => {
                return failed(
                    ErrorKind::Encoding,
                    format!("{path} is not valid UTF-8, so it cannot be edited as text."),
                )
            }
        };
        match edit_body(&path, &file.body, &call.edits, width) {
            Ok(edited) => {
                let final_newline = edited.body.ends_with('\n');
                let lines = body_lines(&edited.body)
                    .into_iter()
                    .zip(edited.origins.iter().copied());
                let encoded = if edited.body.is_empty() {
                    file.encode("", true, crate::text::TrailingNewline::Preserve)
                } else {
                    file.encode_kept_lines(lines, final_newline)
                };
                (encoded, Some(edited))
            }
            Err(refusal) => return *refusal,
        }
    };

    let mut result = HashlineResult::new(&path);
    let written = target.clone().unwrap_or_else(|| path.clone());
    if let Some(t) = &target {
        if target_exists {
            result.files_modified.push(t.clone());
        } else {
            result.files_created.push(t.clone());
        }
        result.files_deleted.push(path.clone());
    } else {
        result.files_modified.push(path.clone());
    }
    result.line = summary
        .as_ref()
        .and_then(|s| s.first_changed)
        .map(|l| l as u32);
    let mut message = match (&target, &summary) {
        (Some(t), Some(s)) => format!(
            "Applied {} to {path} and moved it to {t}.",
            plural(s.operations, "operation", "operations")
        ),
        (Some(t), None) => format!("Moved {path} to {t}."),
        (None, Some(s)) => format!(
            "Applied {} to {path}.",
            plural(s.operations, "operation", "operations")
        ),
        (None, None) => String::new(),
    };
    if let Some(s) = &summary {
        if s.view.is_empty() {
            message.push_str(&format!(" Too many lines changed to show them here; read {written} again before editing it further."));
        } else {
            message.push_str(&format!(
                " Changed lines of {written} with their new anchors:\n{}",
                s.view
            ));
        }
    }
    match &target {
        Some(t) => txn.move_file(&path, t, content),
        None => txn.write(&path, content),
    }
    let committed = txn.commit(host, commit);
    if let Some(f) = committed.failure {
        let reason = match (f.deleting, f.not_restored.is_empty()) {
            (false, _) => format!("{written} could not be written: {}. Nothing was changed.", f.error),
            (true, false) => format!("{written} was written, but the old file {path} could not be deleted: {}. Delete {path} to finish the rename.", f.error),
            (true, true) => format!("The old file {path} could not be deleted ({}), so {written} was removed again: nothing was changed.", f.error),
        };
        let mut r = failed(ErrorKind::HostError, reason);
        r.file_changes = committed.file_changes;
        r.host_failure = Some(f);
        return r;
    }
    result.stage_error = committed.stage_failure();
    result.file_changes = committed.file_changes;
    if options.dry_run {
        result.status = Status::Validated;
        result.message = format!("(dry run, nothing written) {message}");
        return result;
    }
    result.message = message;
    result
}

/// The edited body and what to report about it.
pub struct Edited {
    pub body: String,
    /// For each line of `body`, the line of the file as read that it is
    /// (`None` for a line an operation wrote), so kept lines keep their endings.
    pub origins: Vec<Option<usize>>,
    pub operations: usize,
    /// 1-based first changed line in the new file.
    pub first_changed: Option<usize>,
    /// The changed lines with their new anchors and context.
    pub view: String,
}

type Refusal = Box<HashlineResult>;

/// Checks every operation against `body` (one snapshot) and applies them as
/// if bottom-up, so every line number means the line the model read.
pub fn edit_body(
    path: &str,
    body: &str,
    edits: &[HashlineOp],
    width: usize,
) -> Result<Edited, Refusal> {
    let failed =
        |kind: ErrorKind, reason: String, op: Option<usize>, line: Option<usize>| -> Refusal {
            Box::new(HashlineResult::refuse(path, kind, reason).at(op, line))
        };
    let lines = body_lines(body);
    let count = lines.len();

    // 1. Every anchor names a line that exists.
    let mut beyond: Vec<(usize, &Anchor)> = Vec::new();
    for (i, op) in edits.iter().enumerate() {
        for anchor in op.anchors() {
            if anchor.line > count {
                beyond.push((i, anchor));
            }
        }
    }
    if let Some(&(op, first)) = beyond.first() {
        let listed: Vec<String> = beyond
            .iter()
            .map(|(_, a)| format!("{} {:?}", a.field, a.text()))
            .collect();
        let lines_word = plural(count, "line", "lines");
        let reason = if beyond.len() == 1 {
            format!("Line {} does not exist: {path} has {lines_word} ({} {:?}). Nothing was written. Read the file again for current anchors.", first.line, first.field, first.text())
        } else {
            format!("{} name lines that do not exist: {path} has {lines_word} ({}). Nothing was written. Read the file again for current anchors.", plural(beyond.len(), "anchor", "anchors"), listed.join(", "))
        };
        return Err(failed(
            ErrorKind::LineOutOfRange,
            reason,
            Some(op),
            Some(first.line),
        ));
    }

    // 2. Every anchor still names the line that was read.
    let mut stale: Vec<StaleLine> = Vec::new();
    let mut stale_op = None;
    for (i, op) in edits.iter().enumerate() {
        for anchor in op.anchors() {
            let text = lines[anchor.line - 1];
            let current = line_id(text, width);
            if current != anchor.id
                && !stale
                    .iter()
                    .any(|s| s.line as usize == anchor.line && s.sent == anchor.text())
            {
                stale_op.get_or_insert(i);
                stale.push(StaleLine {
                    line: anchor.line as u32,
                    sent: anchor.text(),
                    current: format!("{}#{current}", anchor.line),
                    text: crate::result::clip(
                        crate::text::strip_line_end(text),
                        crate::result::MAX_QUOTED_CHARS,
                    )
                    .into_owned(),
                });
            }
        }
    }
    if !stale.is_empty() {
        stale.sort_by_key(|s| s.line);
        let mut marked: Vec<usize> = stale.iter().map(|s| s.line as usize - 1).collect();
        marked.dedup();
        // Where a line with the sent ID is now, when exactly one line has it (lines moved).
        let ids: Vec<String> = lines.iter().map(|l| line_id(l, width)).collect();
        let sent: Vec<String> = stale
            .iter()
            .map(|s| {
                let id = s.sent.split_once('#').map(|(_, id)| id).unwrap_or_default();
                let holders: Vec<usize> = ids
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.as_str() == id)
                    .map(|(i, _)| i + 1)
                    .collect();
                match holders.as_slice() {
                    [moved] => format!(
                        "{} is now {}, and the line with ID {id} is now {moved}#{id}",
                        s.sent, s.current
                    ),
                    _ => format!("{} is now {}", s.sent, s.current),
                }
            })
            .collect();
        let reason = format!(
            "{} in {path} no longer {} the file ({}), so nothing was written: the file changed since it was read. Current lines, >>> marking each line an anchor named:\n{}Retry with the current LINE#ID shown here; read the file again only if a line you need is not shown.",
            if stale.len() == 1 { "1 anchor".to_string() } else { format!("{} anchors", stale.len()) },
            if stale.len() == 1 { "matches" } else { "match" },
            sent.join("; "),
            excerpt(&lines, &marked, CONTEXT, width, ">>> ")
        );
        let first_line = stale[0].line as usize;
        let mut r = failed(ErrorKind::StaleAnchor, reason, stale_op, Some(first_line));
        r.stale = stale;
        return Err(r);
    }

    // 3. Turn operations into splices of the original lines.
    let mut splices: Vec<Splice> = Vec::new();
    for (i, op) in edits.iter().enumerate() {
        match op {
            HashlineOp::Replace {
                first,
                last,
                new_content,
            } => {
                let (start, end) = (first.line - 1, last.line);
                let new_lines = new_content.clone().unwrap_or_default();
                let same = new_lines.len() == end - start
                    && new_lines
                        .iter()
                        .zip(&lines[start..end])
                        .all(|(a, b)| a == b);
                if same {
                    let what = if start + 1 == end {
                        format!("line {}", first.line)
                    } else {
                        format!("lines {}-{}", first.line, last.line)
                    };
                    return Err(failed(ErrorKind::NoOp, format!("edits[{i}] is a no-op: its new_content is identical to {what} of {path}. Send content that differs, or drop this operation (if you expected a change, read the file again)."), Some(i), Some(first.line)));
                }
                splices.push(Splice {
                    op: i,
                    start,
                    end,
                    lines: new_lines,
                    insert_anchors: None,
                });
            }
            HashlineOp::Insert {
                after,
                before,
                lines: inserted,
            } => {
                let gap = match (after, before) {
                    (Some(a), _) => a.line,
                    (None, Some(b)) => b.line - 1,
                    (None, None) => {
                        return Err(failed(
                            ErrorKind::Malformed,
                            format!("edits[{i}] is an insert without before or after."),
                            Some(i),
                            None,
                        ))
                    }
                };
                let anchors = after
                    .iter()
                    .chain(before.iter())
                    .map(|a| a.line - 1)
                    .collect();
                splices.push(Splice {
                    op: i,
                    start: gap,
                    end: gap,
                    lines: inserted.clone(),
                    insert_anchors: Some(anchors),
                });
            }
            HashlineOp::ReplaceText {
                old_text,
                new_text,
                all,
            } => {
                splices.extend(
                    text_splices(path, body, &lines, i, old_text, new_text, *all)
                        .map_err(|(kind, reason, line)| failed(kind, reason, Some(i), line))?,
                );
            }
        }
    }

    // 4. No two operations touch the same lines.
    for (a_index, a) in splices.iter().enumerate() {
        for b in splices.iter().skip(a_index + 1) {
            if a.op == b.op {
                continue;
            }
            let clash = match (&a.insert_anchors, &b.insert_anchors) {
                (None, None) => a.start < b.end && b.start < a.end,
                (Some(_), Some(_)) => a.start == b.start,
                (Some(anchors), None) => anchors.iter().any(|&l| b.start <= l && l < b.end),
                (None, Some(anchors)) => anchors.iter().any(|&l| a.start <= l && l < a.end),
            };
            if clash {
                let (x, y) = if a.op < b.op { (a, b) } else { (b, a) };
                return Err(failed(
                    ErrorKind::Overlap,
                    format!("{} overlaps {} in {path}: two operations of one call may not touch the same lines or insert at the same place. Merge them into one operation (a range replace covers neighbouring changes).", x.describe(), y.describe()),
                    Some(y.op),
                    Some(y.start + 1),
                ));
            }
        }
    }

    // 5. Apply: inserts at a gap go before a replacement starting there.
    splices.sort_by_key(|s| (s.start, s.insert_anchors.is_none()));
    let mut out: Vec<&str> = Vec::with_capacity(count);
    let mut origins: Vec<Option<usize>> = Vec::with_capacity(count);
    let mut changed: Vec<(usize, usize)> = Vec::new(); // new-file ranges [start, end)
    let mut cursor = 0;
    for s in &splices {
        let kept = cursor.min(s.start)..s.start;
        origins.extend(kept.clone().map(Some));
        out.extend(lines.get(kept).unwrap_or_default());
        let from = out.len();
        // Lines a replacement repeats at its start or end are the file's own.
        let old = lines
            .get(s.start.max(cursor)..s.end.max(cursor))
            .unwrap_or_default();
        let same_start = old
            .iter()
            .zip(&s.lines)
            .take_while(|(a, b)| **a == b.as_str())
            .count();
        let same_end = old[same_start..]
            .iter()
            .rev()
            .zip(s.lines[same_start..].iter().rev())
            .take_while(|(a, b)| **a == b.as_str())
            .count();
        let first_old = s.start.max(cursor);
        for (k, line) in s.lines.iter().enumerate() {
            let origin = if k < same_start {
                Some(first_old + k)
            } else if k >= s.lines.len() - same_end {
                Some(first_old + old.len() - (s.lines.len() - k))
            } else {
                None
            };
            origins.push(origin);
            out.push(line.as_str());
        }
        changed.push((from, out.len()));
        cursor = s.end.max(cursor);
    }
    origins.extend((cursor..count).map(Some));
    out.extend(lines.get(cursor..).unwrap_or_default());
    let final_newline = body.ends_with('\n');
    let mut new_body = out.join("\n");
    if final_newline && !out.is_empty() {
        new_body.push('\n');
    }
    if new_body == body {
        return Err(failed(ErrorKind::NoOp, format!("The edits leave {path} unchanged; nothing was written. Read the file again and send content that differs."), None, None));
    }

    // What changed, with new anchors: every changed line, or where lines were removed.
    let mut marked: Vec<usize> = Vec::new();
    for &(from, to) in &changed {
        if from == to {
            marked.push(from.min(out.len().saturating_sub(1)));
        } else {
            marked.extend(from..to);
        }
    }
    marked.sort_unstable();
    marked.dedup();
    let view = if out.is_empty() {
        format!("({path} is now empty.)\n")
    } else if marked.len() + 2 * CONTEXT * changed.len() > MAX_VIEW_LINES {
        String::new()
    } else {
        excerpt(&out, &marked, CONTEXT, width, "")
    };
    Ok(Edited {
        body: new_body,
        origins,
        operations: edits.len(),
        first_changed: marked.first().map(|l| l + 1),
        view,
    })
}

/// Splices for one content replace: each match widened to whole lines;
/// matches sharing lines become one splice.
fn text_splices(
    path: &str,
    body: &str,
    lines: &[&str],
    op: usize,
    old_text: &str,
    new_text: &str,
    all: bool,
) -> Result<Vec<Splice>, (ErrorKind, String, Option<usize>)> {
    if old_text == new_text {
        return Err((
            ErrorKind::NoOp,
            format!("edits[{op}] is a no-op: old_text and new_text are identical."),
            None,
        ));
    }
    // Work on the body with every line ending in '\n', so each line is "text\n".
    let mut text = body.to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .take(lines.len())
        .collect();
    let line_of = |offset: usize| {
        line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    };
    // The exact text anywhere, through the one locate module (its substring
    // pass): occurrences that overlap cannot each be replaced, so they are
    // as ambiguous as several with `all` unset.
    let located = crate::locate::tolerant::search(
        &text,
        old_text,
        new_text,
        &[crate::locate::Pass::Substring],
        all,
    );
    let matches: Vec<usize> = match &located {
        Ok(found) => found.iter().map(|m| m.start).collect(),
        Err(crate::locate::tolerant::MatchError::Ambiguous { .. }) => {
            crate::locate::tolerant::literal_starts(&text, old_text)
        }
        Err(_) => Vec::new(),
    };
    if matches.is_empty() {
        if let Some(line) = crate::locate::explain::already_applied_text(&text, old_text, new_text)
        {
            return Err((
                ErrorKind::AnchorNotFound,
                format!(
                    "edits[{op}].old_text was not found in {path}. {}",
                    crate::locate::explain::already_applied_reason(path, "old_text", line)
                ),
                Some(line),
            ));
        }
        return Err((ErrorKind::AnchorNotFound, format!("edits[{op}].old_text was not found in {path}; it must match the file exactly, including indentation. Prefer LINE#ID anchors from the read output."), None));
    }
    if matches.len() > 1 && (!all || located.is_err()) {
        let mut at: Vec<String> = matches
            .iter()
            .map(|&m| (line_of(m) + 1).to_string())
            .collect();
        at.dedup();
        let fix = if all {
            "its occurrences overlap, so they cannot each be replaced; make it longer so they are separate, or use LINE#ID anchors"
        } else {
            "make it unique with more surrounding text, set \"all\": true to replace every occurrence, or use LINE#ID anchors"
        };
        return Err((
            ErrorKind::Ambiguous,
            format!(
                "edits[{op}].old_text occurs {} times in {path} (lines {}); {fix}.",
                matches.len(),
                at.join(", ")
            ),
            Some(line_of(matches[0]) + 1),
        ));
    }
    // Line spans [first, last] per match; a match ending with '\n' also takes the next line.
    let mut spans: Vec<(usize, usize, usize)> = Vec::new(); // (first, last, matches)
    for &m in &matches {
        let first = line_of(m);
        let mut last = line_of(m + old_text.len() - 1);
        if old_text.ends_with('\n') && last + 1 < lines.len() {
            last += 1;
        }
        match spans.last_mut() {
            Some(span) if first <= span.1 => {
                span.1 = span.1.max(last);
                span.2 += 1;
            }
            _ => spans.push((first, last, 1)),
        }
    }
    let mut out = Vec::new();
    for (first, last, n) in spans {
        let start = line_starts.get(first).copied().unwrap_or(text.len());
        let end = line_starts.get(last + 1).copied().unwrap_or(text.len());
        let segment = text.get(start..end).unwrap_or_default();
        let replaced = segment.replacen(old_text, new_text, n);
        let new_lines: Vec<String> = crate::text::split_lines(&replaced)
            .into_iter()
            .map(str::to_string)
            .collect();
        out.push(Splice {
            op,
            start: first,
            end: last + 1,
            lines: new_lines,
            insert_anchors: None,
        });
    }
    Ok(out)
}
