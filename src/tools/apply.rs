//! Applying a reply's tool calls: sequentially in memory, then all written
//! together, or nothing written at all.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::anchored::{self, AnchorError, Region};
use super::batch;
use super::calls::{plan, CallKind, Planned, ToolCall};
use super::ops::{AnchoredChange, Op, ProviderOp};
use super::options::{fingerprint, HistoryUpdate, Matching, ToolOptions};
use super::schema::SchemaApi;
use super::state::{search_passes, spliced, unusable, FileState, Outcome};
use crate::apply::{
    abort_unit, fails, CommitOptions, FileChange, FilePlan, Mode, Scope, Slot, Staged, Unit,
    UnitResult, TOOL_CALLS_MODE,
};
use crate::host::FileHost;
use crate::locate::tolerant::{self as matching, MatchError};
use crate::locate::Pass as MatchPass;
use crate::path::confine;
use crate::result::{Diagnostics, EditResult, ErrorKind, NearLine, Status};
use crate::text::{Provenance, TextFile, TrailingNewline};

/// The result of one change: one `write_file` call, one edit of a batched
/// `edit_file`, one single `edit_file`, or one entry of `changes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChangeResult {
    /// 0-based index of the call in the reply.
    pub call_index: usize,
    /// 0-based index inside the call's `edits` or `changes`; absent for a
    /// call that is one change.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub change_index: Option<usize>,
    /// The tool's name as the model called it.
    pub tool: String,
    #[serde(flatten)]
    pub edit: EditResult,
    /// What the model is told about this change in the tool's own words
    /// (a view's text, "File created successfully at: …", or the refusal).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub output: Option<String>,
    /// Only read the file (a view): it stands whatever happens and is no
    /// failure of the reply.
    #[serde(skip)]
    read_only: bool,
}

impl UnitResult for ToolChangeResult {
    fn status(&self) -> Status {
        self.edit.status
    }
    fn error_kind(&self) -> Option<ErrorKind> {
        self.edit.error_kind
    }
    fn label(&self) -> String {
        // A call refused before it named a file (an unknown tool, a shell
        // command) is `call 2`, not `call 2 ()`.
        if self.edit.path.is_empty() {
            Unit::Call.at(self.call_index)
        } else {
            Unit::Call.at_file(self.call_index, &self.edit.path)
        }
    }
    fn path(&self) -> &str {
        &self.edit.path
    }
    fn read_only(&self) -> bool {
        self.read_only
    }
    /// The model is told the same sentence as the result's `reason`.
    fn set(&mut self, status: Status, kind: ErrorKind, reason: String) {
        self.output = Some(reason.clone());
        self.edit.set(status, kind, reason);
    }
}

/// The answer to one call, for the message that goes back to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallResult {
    /// 0-based index of the call among the calls.
    pub call_index: usize,
    /// The call's id as the API gave it (absent when the call had none).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
    /// The tool's name as called.
    pub name: String,
    /// The API the call's shape belongs to.
    pub api: SchemaApi,
    /// Function call, custom (free-form) tool call or apply_patch call.
    pub kind: CallKind,
    /// True when every change of the call applied (or validated), or it only read.
    pub ok: bool,
    /// The text for the model: the tool's answer, or what failed and how to fix it.
    pub output: String,
}

/// Everything that happened to a reply's tool calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolApplyResult {
    /// True when every change applied (or validated, in a dry run).
    pub ok: bool,
    pub results: Vec<ToolChangeResult>,
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    /// One sentence per failed change, naming call, change, file and why.
    pub errors: Vec<String>,
    /// The calls as received (string arguments parsed when they parse).
    pub calls: Vec<ToolCall>,
    /// One answer per call, with its id: what `toolResultMessages` sends back.
    pub call_results: Vec<CallResult>,
    #[serde(default)]
    pub files_deleted: Vec<String>,
    /// How this reply changed the edit session's history, for each file whose
    /// history it changed (the JS session object carries it out; empty in a
    /// dry run and when nothing was written).
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub history: BTreeMap<String, HistoryUpdate>,
    /// Each file the calls changed (or, in a dry run, would change): its
    /// content before and after, in first-changed order.
    #[serde(default)]
    pub file_changes: Vec<FileChange>,
    /// Set when every change was written but the host could not stage
    /// them: what failed, and which paths are left to stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage_error: Option<String>,
    /// The host call that failed while the changes were written, and what
    /// it left on disk (the results already say which changes that undid).
    #[serde(skip)]
    pub host_failure: Option<crate::apply::HostFailure>,
}

/// The normalised paths the calls will read, in first-use order; refused
/// paths are left out (they are never read).
pub fn tool_call_paths(calls: &[ToolCall], options: &ToolOptions) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    // Seen paths in a set: a search of the list per call costs calls times paths.
    let mut seen = std::collections::HashSet::new();
    for item in plan(calls, options.project_dir.as_deref()) {
        if item.op.is_err() {
            continue;
        }
        if let Ok(path) = confine(&item.path, &options.allow_folders) {
            if seen.insert(path.clone()) {
                paths.push(path);
            }
        }
    }
    paths
}

/// Per normalised path, how many `undo_edit` calls name it: how many of
/// the session's most recent texts of that file the reply is given.
pub fn tool_undo_counts(calls: &[ToolCall], options: &ToolOptions) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for item in plan(calls, options.project_dir.as_deref()) {
        if !matches!(item.op, Ok(Op::Provider(ProviderOp::Undo))) {
            continue;
        }
        if let Ok(path) = confine(&item.path, &options.allow_folders) {
            *counts.entry(path).or_insert(0) += 1;
        }
    }
    counts
}

/// The paths `view` commands name, normalised (`.` for the project root):
/// the folders among them are listed through the host's `listDir`.
pub fn tool_view_paths(calls: &[ToolCall], options: &ToolOptions) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in plan(calls, options.project_dir.as_deref()) {
        if !matches!(item.op, Ok(Op::Provider(ProviderOp::View { .. }))) {
            continue;
        }
        let path = if is_root_view(&item) {
            Ok(".".to_string())
        } else {
            confine(&item.path, &options.allow_folders).map_err(|_| ())
        };
        if let Ok(path) = path {
            if seen.insert(path.clone()) {
                paths.push(path);
            }
        }
    }
    paths
}

/// Names a change the way the model can find it in its own reply.
fn label(item: &Planned, change: Option<usize>, path: &str) -> String {
    let mut out = format!(
        "call {} ({})",
        item.call_index + 1,
        if item.tool.is_empty() {
            "unnamed"
        } else {
            &item.tool
        }
    );
    if let Some(i) = item.edit_index {
        out.push_str(&format!(", edit {}", i + 1));
    }
    if let Some(i) = change {
        out.push_str(&format!(", change {}", i + 1));
    }
    if !path.is_empty() {
        out.push_str(&format!(", {path}"));
    }
    out
}

fn preview(text: &str) -> String {
    crate::block::preview(text, 50)
}

use crate::locate::explain::{
    first_missing_line as explain_missing, list_lines as lines_list, quote,
};

fn nearest(body: &str, wanted: &str) -> Vec<NearLine> {
    crate::locate::explain::nearest_in_body(body, wanted)
}

/// " Only whitespace differs: …" when the nearest line differs from the
/// wanted one in whitespace only (the one explainer's naming).
fn whitespace_note(near: &[NearLine], wanted: &str) -> String {
    near.first()
        .and_then(|n| {
            crate::locate::explain::whitespace_difference(wanted, &n.text, n.line as usize)
        })
        .map(|w| format!(" Only whitespace differs: {w}."))
        .unwrap_or_default()
}

fn nearest_hint(near: &[NearLine]) -> String {
    match near.first() {
        Some(n) => format!(" The closest line is {}: {}.", n.line, quote(&n.text)),
        None => String::new(),
    }
}

fn span(r: Region) -> String {
    if r.first == r.last {
        format!("line {}", r.first + 1)
    } else {
        format!("lines {}-{}", r.first + 1, r.last + 1)
    }
}

/// Applies a reply's calls to `host`: all of them, in order, or none.
///
/// Every change is worked out in memory first, each seeing the ones before
/// it (a `write_file` included). When one fails, later changes to the same
/// file are skipped (their text may depend on it), other files are still
/// checked so that every mistake is reported at once, and nothing is
/// written. When all succeed, the changed files are written together (and
/// staged when asked).
pub fn apply_tool_calls(
    calls: &[ToolCall],
    host: &mut dyn FileHost,
    options: &ToolOptions,
) -> ToolApplyResult {
    let items = plan(calls, options.project_dir.as_deref());
    let mut run = CallRun {
        options,
        staged: Staged::new(),
        results: Vec::new(),
        moving: None,
        ahead: PlacedAhead {
            outcomes: BTreeMap::new(),
            tried_until: 0,
            runs_left: MAX_PLACED_RUNS,
        },
    };
    for index in 0..items.len() {
        run.call(&items, index, host);
    }
    run.finish(calls, host)
}

/// A reply's calls being worked out in memory, one after another.
struct CallRun<'o> {
    options: &'o ToolOptions,
    /// Each file as the reply leaves it, in first-used order; an edit that
    /// fails leaves its file as it was, and nothing is written unless all apply.
    staged: Staged<FileState>,
    results: Vec<ToolChangeResult>,
    /// A file a V4A move has taken from its path, until the move's arriving
    /// end writes it: its body, its conventions and its final newline.
    moving: Option<(String, TextFile, bool)>,
    ahead: PlacedAhead,
}

/// `str_replace` edits the one-pass placer worked out ahead of their turn.
struct PlacedAhead {
    /// Their outcomes, by the index of the edit.
    outcomes: BTreeMap<usize, Outcome>,
    /// Edits before this index were already part of a run the placer looked at.
    tried_until: usize,
    /// How many more runs it may start.
    runs_left: usize,
}

/// Where the results of one call go, and the file they name.
struct Answer<'a> {
    results: &'a mut Vec<ToolChangeResult>,
    item: &'a Planned,
    path: &'a str,
}

impl Answer<'_> {
    /// Records one change's result: change index, old and new text, outcome.
    fn push(&mut self, change: Option<usize>, old: &str, new: &str, outcome: Outcome) {
        let output = match (outcome.said, &outcome.reason, outcome.retry) {
            (Some(said), _, _) => Some(said),
            (None, Some(why), Some(retry)) => Some(format!("{why}\n{retry}")),
            (None, why, None) => why.clone(),
            (None, None, Some(retry)) => Some(retry),
        };
        let reason = outcome
            .reason
            .map(|why| format!("{}: {why}", label(self.item, change, self.path)));
        let block_index = self.results.len();
        self.results.push(ToolChangeResult {
            call_index: self.item.call_index,
            change_index: change.or(self.item.edit_index),
            tool: self.item.tool.clone(),
            edit: EditResult {
                block_index,
                path: self.path.to_string(),
                status: outcome.status,
                error_kind: outcome.kind,
                reason,
                estimated_line: outcome.line,
                anchor_preview: String::new(),
                old_preview: preview(old),
                new_preview: preview(new),
                diagnostics: outcome.diagnostics,
                matched_by: outcome.matched_by.map(|p| p.as_str().to_string()),
                assumed: outcome.assumed,
            },
            output,
            read_only: outcome.read_only,
        });
    }

    /// Skips a change because an earlier call to the same file, `first`, failed.
    fn previous_failed(&mut self, change: Option<usize>, first: usize) {
        let why = crate::apply::previous_failed(&Unit::Call.at(first));
        self.push(
            change,
            "",
            "",
            Outcome::skip(ErrorKind::PreviousFailed, why),
        );
    }

    /// Skips the call when an earlier call to its file failed; says whether it did.
    fn skipped_after(&mut self, failed_at: Option<usize>) -> bool {
        match failed_at {
            Some(first) => {
                self.previous_failed(None, first);
                true
            }
            None => false,
        }
    }
}

impl CallRun<'_> {
    /// Works out call `index` of `items` against its file as the calls
    /// before it left it.
    fn call(&mut self, items: &[Planned], index: usize, host: &mut dyn FileHost) {
        let item = &items[index];
        let options = self.options;
        let mut refused = Answer {
            results: &mut self.results,
            item,
            path: &item.path,
        };
        let op = match &item.op {
            Ok(op) => op,
            Err(why) => {
                // A shell call's reason already says what to send instead.
                let why = if super::shell_call::is_shell_tool(&item.tool) {
                    format!("{why}.")
                } else {
                    format!("{why}. Send the call again with valid arguments.")
                };
                refused.push(None, "", "", Outcome::fail(ErrorKind::Malformed, why));
                return;
            }
        };
        let path = match confine(&item.path, &options.allow_folders) {
            Ok(path) => path,
            // `view` of the project root: a folder listing.
            Err(_) if is_root_view(item) => ".".to_string(),
            Err(e) => {
                let (kind, why) = if item.path.is_empty() {
                    (
                        ErrorKind::Malformed,
                        "path is missing; name the file to change.".to_string(),
                    )
                } else {
                    (ErrorKind::PathEscape, e.reason)
                };
                refused.push(None, "", "", Outcome::skip(kind, why));
                return;
            }
        };
        if self.staged.get(&path).is_none() {
            if path == "." {
                self.staged
                    .insert(&path, FileState::load_missing(), false, None);
            } else {
                self.staged.load_all(host, &path, FileState::open);
            }
            if let Some(state) = self.staged.get_mut(&path).and_then(|s| s.doc.as_mut()) {
                state.take_history(options.history.get(&path));
            }
            self.staged.touch(&path);
        }
        let Some(Slot {
            doc: Some(state),
            failed_at,
            ..
        }) = self.staged.get_mut(&path)
        else {
            return;
        };
        let mut answer = Answer {
            results: &mut self.results,
            item,
            path: &path,
        };
        match op {
            Op::Write { content } => write_file(state, failed_at, content, &mut answer),
            Op::Replace {
                old,
                new,
                replace_all,
            } => {
                let ahead = &mut self.ahead;
                let place = |state: &mut FileState| {
                    if index >= ahead.tried_until && ahead.runs_left > 0 && !*replace_all {
                        let (run, outcomes) =
                            batch::place_ahead(state, &items[index..], options.matching);
                        ahead.tried_until = index + run;
                        if run >= batch::MIN_EDITS {
                            ahead.runs_left -= 1;
                        }
                        ahead.outcomes.extend((index..).zip(outcomes));
                    }
                    match ahead.outcomes.remove(&index) {
                        Some(outcome) => outcome,
                        None => replace(state, old, new, *replace_all, options.matching),
                    }
                };
                str_replace(state, failed_at, old, new, place, &mut answer);
            }
            Op::Provider(ProviderOp::Undo) => {
                if !answer.skipped_after(*failed_at) {
                    undo_edit(state, failed_at, options, &mut answer);
                }
            }
            Op::Provider(ProviderOp::PatchMoveIn { from }) => {
                if !answer.skipped_after(*failed_at) {
                    let moving = self.moving.take();
                    move_in(state, failed_at, from, moving, options, &mut answer);
                }
            }
            Op::Provider(op) => {
                if !answer.skipped_after(*failed_at) {
                    let taken = provider_call(state, failed_at, op, options, &mut answer);
                    if taken.is_some() {
                        self.moving = taken;
                    }
                }
            }
            Op::Modify { changes } => match *failed_at {
                Some(first) => {
                    for i in 0..changes.len() {
                        answer.previous_failed(Some(i), first);
                    }
                }
                None => modify_file(state, failed_at, changes, &mut answer),
            },
        }
    }

    /// Ends the run: nothing is written when a change failed; otherwise the
    /// changed files are written together, and the results say what happened.
    fn finish(self, calls: &[ToolCall], host: &mut dyn FileHost) -> ToolApplyResult {
        let CallRun {
            options,
            mut staged,
            mut results,
            ..
        } = self;
        // A failed read (view) is answered, but is no failed change.
        let errors: Vec<String> = results
            .iter()
            .filter(|r| fails(*r))
            .filter_map(|r| r.edit.reason.clone())
            .collect();
        let mut out = ToolApplyResult {
            ok: errors.is_empty(),
            calls: calls.iter().map(ToolCall::echo).collect(),
            ..ToolApplyResult::default()
        };

        // A reply's calls are written all or nothing.
        if TOOL_CALLS_MODE == Mode::Atomic && abort_unit(&mut results, Scope::Reply).is_some() {
            out.results = results;
            out.errors = errors;
            out.call_results = call_results(calls, &out.results);
            return out;
        }

        // Everything applies: encode and write the changed files together.
        if !options.dry_run {
            out.history = history_updates(&mut staged);
        }
        let policy = options.trailing_newline;
        let finished = staged.finish_with(
            host,
            CommitOptions {
                dry_run: options.dry_run,
                stage: options.stage,
            },
            |slot| file_plan(slot, policy),
        );
        out.files_modified = finished.modified;
        out.files_created = finished.created;
        out.files_deleted = finished.deleted;
        let mut committed = finished.committed;
        out.stage_error = committed.stage_failure();
        if let Some(failure) = committed.failure.take() {
            let left: Vec<&str> = failure
                .not_restored
                .iter()
                .map(|(p, _)| p.as_str())
                .collect();
            out.ok = false;
            out.errors.push(failure.describe());
            for list in [
                &mut out.files_modified,
                &mut out.files_created,
                &mut out.files_deleted,
            ] {
                list.retain(|p| left.contains(&p.as_str()));
            }
            for r in results.iter_mut().filter(|r| {
                r.edit.status == Status::Applied && !left.contains(&r.edit.path.as_str())
            }) {
                r.edit.status = Status::Failed;
                r.edit.error_kind = Some(ErrorKind::HostError);
                r.edit.reason = Some(failure.describe());
                r.output = Some(crate::apply::host_undone(&failure.describe()));
            }
            out.history.clear();
            out.host_failure = Some(failure);
        }
        for change in &committed.file_changes {
            if let Some(update) = out.history.get_mut(&change.path) {
                update.written = fingerprint(change.after.as_deref().map(str::as_bytes));
            }
            // A move leaves no file at its source.
            if let Some(update) = change
                .moved_from
                .as_ref()
                .and_then(|p| out.history.get_mut(p))
            {
                update.written = fingerprint(None);
            }
        }
        out.file_changes = committed.file_changes;
        if options.dry_run {
            for r in results.iter_mut() {
                if r.edit.status == Status::Applied {
                    r.edit.status = Status::Validated;
                }
            }
        }
        out.results = results;
        out.call_results = call_results(calls, &out.results);
        out
    }
}

/// What the edit session keeps of the files whose history this reply
/// changed: the texts before the reply's changes (moved, not copied), and
/// the fingerprint of each file as the reply leaves it.
fn history_updates(staged: &mut Staged<FileState>) -> BTreeMap<String, HistoryUpdate> {
    let paths: Vec<String> = staged
        .in_order()
        .filter(|(_, slot)| slot.doc.as_ref().is_some_and(|s| s.history_changed))
        .map(|(path, _)| path.to_string())
        .collect();
    let mut updates = BTreeMap::new();
    for path in paths {
        if let Some(state) = staged.get_mut(&path).and_then(|s| s.doc.as_mut()) {
            let mut update = state.take_history_update();
            // Unless the reply writes the file, it stays as it was read.
            update.written = fingerprint(state.original.as_deref());
            updates.insert(path, update);
        }
    }
    updates
}

/// What to do with a file once every call applied: keep, write or delete it.
fn file_plan(slot: &Slot<FileState>, policy: TrailingNewline) -> FilePlan {
    let Some(state) = slot.doc.as_ref() else {
        return FilePlan::Keep;
    };
    if state.touched && state.body.is_none() && state.original.is_some() {
        return FilePlan::Delete;
    }
    let (true, Some(body)) = (state.touched, &state.body) else {
        return FilePlan::Keep;
    };
    // An empty body is an empty file: no lone BOM.
    let bytes = if body.is_empty() {
        String::new()
    } else {
        state
            .text
            .encode_tracked(body, Some(&state.provenance), state.final_newline, policy)
    };
    if state.original.as_deref() == Some(bytes.as_bytes()) {
        return FilePlan::Keep;
    }
    FilePlan::Write(bytes)
}

/// `write_file`: `content` becomes the whole file.
fn write_file(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    content: &str,
    answer: &mut Answer,
) {
    if answer.skipped_after(*failed_at) {
        return;
    }
    if let Some((kind, why)) = &state.unusable {
        let kind = *kind;
        let why = match kind {
            ErrorKind::FileChanged => format!("{why}."),
            _ => format!("{why}; write_file will not replace it."),
        };
        *failed_at = Some(answer.item.call_index);
        answer.push(None, "", content, unusable(kind, why));
        return;
    }
    // `content` is the whole file: over an existing file its final
    // newline (or lack of one) replaces the old file's, while the
    // BOM and CRLF convention stay. A new file ends with a newline
    // (DESIGN: "New files end with a newline").
    let body = state.normalise(content);
    if state.original.is_some() {
        state.final_newline = body.is_empty() || body.ends_with('\n');
    }
    state.provenance = Provenance::written(body.len());
    state.body = Some(body);
    state.touched = true;
    answer.push(None, "", content, Outcome::ok(Some(1), None));
}

/// `edit_file` / `str_replace` of `old` by `new`; `place` finds and makes
/// the replacement (or takes the one the placer worked out ahead).
fn str_replace(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    old: &str,
    new: &str,
    place: impl FnOnce(&mut FileState) -> Outcome,
    answer: &mut Answer,
) {
    let refused = if old == new {
        Some((
            ErrorKind::NoOp,
            "old_string and new_string are identical, so this edit changes nothing; drop it or put the change in new_string.",
        ))
    } else if old.is_empty() {
        Some((
            ErrorKind::Malformed,
            "old_string is empty; copy the lines to replace into it, or use write_file to create or rewrite a whole file.",
        ))
    } else {
        None
    };
    if let Some((kind, why)) = refused {
        answer.push(None, old, new, Outcome::fail(kind, why.into()));
        return;
    }
    if answer.skipped_after(*failed_at) {
        return;
    }
    let outcome = place(state);
    if outcome.status == Status::Failed {
        *failed_at = Some(answer.item.call_index);
    } else {
        state.touched = true;
    }
    answer.push(None, old, new, outcome);
}

/// The text editor's `undo_edit`: the file goes back to before its last edit.
fn undo_edit(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    options: &ToolOptions,
    answer: &mut Answer,
) {
    let path = answer.path;
    let unusable = super::provider::unusable_outcome(state);
    let refusal = match (&unusable, state.history.is_empty()) {
        (None, false) => state.undo_refusal(),
        _ => None,
    };
    let outcome = match (state.history.is_empty(), unusable, refusal) {
        // Nothing to undo is a failed request, not an edit that changes nothing.
        (true, _, _) => Outcome {
            status: Status::Failed,
            ..Outcome::fail(
                ErrorKind::NoOp,
                format!("No edit history found for {path}. undo_edit only reverts changes made through this edit session; to change the file, use str_replace or insert."),
            )
        },
        // A path the host refuses (a link leading out of the root) is not written.
        (false, Some(unusable), _) => unusable,
        // Going back would discard what another writer put in the file since.
        (false, None, Some(why)) => Outcome::fail(ErrorKind::FileChanged, format!("{path} {why}")),
        (false, None, None) => {
            let previous = state.history.pop().flatten();
            state.history_kept = state.history_kept.min(state.history.len());
            state.history_changed = true;
            state.restore(previous.as_deref());
            state.undo_tip = Some(state.body_key());
            let now = match state.body.as_deref() {
                None => format!("{path} did not exist before that edit, so it is deleted."),
                Some(body) => {
                    let lines: Vec<&str> = body.split_terminator('\n').collect();
                    let shown = super::excerpt::numbered(&lines, 1);
                    let shown = match options.max_characters {
                        Some(max) if shown.chars().count() > max => format!(
                            "{}\n<response clipped>",
                            shown.chars().take(max).collect::<String>()
                        ),
                        _ => shown,
                    };
                    format!("Here's the result of running `cat -n` on {path}:\n{shown}")
                }
            };
            Outcome::ok(None, None).say(format!("Last edit to {path} undone successfully. {now}"))
        }
    };
    if outcome.status == Status::Failed {
        *failed_at = Some(answer.item.call_index);
    }
    answer.push(None, "", "", outcome);
}

/// The arriving end of a V4A move: the file `moving` took from `from`
/// is written at this path.
fn move_in(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    from: &str,
    moving: Option<(String, TextFile, bool)>,
    options: &ToolOptions,
    answer: &mut Answer,
) {
    let path = answer.path;
    let Some((body, text, final_newline)) = moving else {
        let why = format!("Not moved: {from} could not be moved (its operation just before failed); fix that one first.");
        answer.push(None, "", "", Outcome::skip(ErrorKind::PreviousFailed, why));
        return;
    };
    let refused = if let Some(o) = super::provider::unusable_outcome(state) {
        Some(o)
    } else if state.body.is_some() && !options.overwrite {
        Some(Outcome::fail(
            ErrorKind::FileExists,
            format!("{path} already exists, so {from} is not moved onto it. Move it to a new path, or delete {path} first."),
        ))
    } else {
        None
    };
    if let Some(outcome) = refused {
        *failed_at = Some(answer.item.call_index);
        answer.push(None, "", "", outcome);
        return;
    }
    state.provenance = Provenance::written(body.len());
    state.text = text;
    state.final_newline = final_newline;
    state.body = Some(body);
    state.touched = true;
    answer.push(
        None,
        "",
        "",
        Outcome::ok(Some(1), None).say(format!("Moved {from} to {path}.")),
    );
}

/// Any other provider tool operation (view, create, insert, a V4A update or
/// the leaving end of a move). Returns the file a move took from its path.
fn provider_call(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    op: &ProviderOp,
    options: &ToolOptions,
    answer: &mut Answer,
) -> Option<(String, TextFile, bool)> {
    let before = state.encoded(options.trailing_newline);
    let was_touched = state.touched;
    let body_before = state.body.clone();
    let outcome = super::provider::run(state, op, answer.path, options);
    let mut moving = None;
    if matches!(op, ProviderOp::PatchMoveOut { .. }) && outcome.status != Status::Failed {
        let body = state.body.take().unwrap_or_default();
        moving = Some((body, state.text.clone(), state.final_newline));
    }
    if outcome.read_only {
        // Nothing to hold back: a failed read leaves the file as it was.
    } else if outcome.status == Status::Failed {
        *failed_at = Some(answer.item.call_index);
        state.touched = was_touched;
    } else if state.body != body_before {
        state.push_history(before);
    }
    let (old, new) = match op {
        ProviderOp::Replace { old, new, .. } => (old.as_str(), new.as_str()),
        ProviderOp::Create { content, .. } | ProviderOp::WriteWhole { content } => {
            ("", content.as_str())
        }
        ProviderOp::Insert { text, .. } => ("", text.as_str()),
        _ => ("", ""),
    };
    answer.push(None, old, new, outcome);
    moving
}

/// `modify_file`: anchored changes, each answered on its own.
fn modify_file(
    state: &mut FileState,
    failed_at: &mut Option<usize>,
    changes: &[Result<AnchoredChange, String>],
    answer: &mut Answer,
) {
    let outcomes = modify(state, changes);
    let any_failed = outcomes.iter().any(|o| o.status == Status::Failed);
    for (i, (outcome, change)) in outcomes.into_iter().zip(changes).enumerate() {
        let (old, new) = match change {
            Ok(c) => (c.start.join("\n"), c.content.join("\n")),
            Err(_) => (String::new(), String::new()),
        };
        answer.push(Some(i), &old, &new, outcome);
    }
    if any_failed {
        *failed_at = Some(answer.item.call_index);
    } else {
        state.touched = true;
    }
}

/// A `view` whose path names the project root (`.`, `/`, empty).
fn is_root_view(item: &Planned) -> bool {
    matches!(item.op, Ok(Op::Provider(ProviderOp::View { .. })))
        && matches!(item.path.trim(), "" | "." | "./" | "/")
}

/// One answer per call: its changes' outputs, numbered when a call made several.
fn call_results(calls: &[ToolCall], results: &[ToolChangeResult]) -> Vec<CallResult> {
    // Each call's results in their order, gathered in one pass (a filter per
    // call would cost calls times results).
    let mut per_call: Vec<Vec<&ToolChangeResult>> = vec![Vec::new(); calls.len()];
    for r in results {
        if let Some(mine) = per_call.get_mut(r.call_index) {
            mine.push(r);
        }
    }
    calls
        .iter()
        .zip(per_call)
        .enumerate()
        .map(|(i, (call, mine))| {
            let ok = !mine.is_empty()
                && mine
                    .iter()
                    .all(|r| matches!(r.edit.status, Status::Applied | Status::Validated));
            let text = |r: &ToolChangeResult| {
                r.output
                    .clone()
                    .or_else(|| r.edit.reason.clone())
                    .unwrap_or_else(|| default_output(r))
            };
            let output = match mine.as_slice() {
                [] => "Nothing to do.".to_string(),
                [one] => text(one),
                many => many
                    .iter()
                    .map(|r| match r.change_index {
                        Some(k) => format!("Edit {} ({}): {}", k + 1, r.edit.path, text(r)),
                        None => format!("{}: {}", r.edit.path, text(r)),
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            };
            CallResult {
                call_index: i,
                id: call.id.clone(),
                name: call.name.clone(),
                api: call.dialect,
                kind: call.kind,
                ok,
                output,
            }
        })
        .collect()
}

fn default_output(r: &ToolChangeResult) -> String {
    let at = r
        .edit
        .estimated_line
        .map(|l| format!(" at line {l}"))
        .unwrap_or_default();
    match r.edit.status {
        Status::Validated => format!(
            "{} checked{at}: it would apply (dry run, nothing written).",
            r.edit.path
        ),
        _ => match r.tool.as_str() {
            "write_file" => format!("Wrote {}.", r.edit.path),
            _ => format!("Edited {}{at}.", r.edit.path),
        },
    }
}

/// How many runs of edits one call may give the one-pass placer: each
/// costs a pass over its file, and a run ends early only where an edit
/// needs the text an earlier one wrote.
const MAX_PLACED_RUNS: usize = 8;

pub(super) fn replace(
    state: &mut FileState,
    old: &str,
    new: &str,
    replace_all: bool,
    mode: Matching,
) -> Outcome {
    if let Some((kind, why)) = &state.unusable {
        return unusable(*kind, format!("{why}."));
    }
    let Some(body) = state.body.as_ref() else {
        return Outcome::fail(
            ErrorKind::FileNotFound,
            "the file does not exist; create it with write_file, or check the path.".into(),
        );
    };
    let mut old = state.normalise(old);
    let mut new = state.normalise(new);
    let mut assumed = Vec::new();
    let found = match mode {
        Matching::Tolerant => {
            match matching::search(body, &old, &new, search_passes(mode), replace_all) {
                // Text escaped as inside a string (`\n`, `\t`, `\'`, doubled
                // backslashes): read unescaped, when that matches (uniquely,
                // as every pass).
                Err(MatchError::NotFound) if crate::engine::unescape(&old).is_some() => {
                    let plain_old = crate::engine::unescape(&old).unwrap_or_default();
                    let plain_new = crate::engine::unescape(&new).unwrap_or_else(|| new.clone());
                    match matching::search(
                        body,
                        &plain_old,
                        &plain_new,
                        search_passes(mode),
                        replace_all,
                    ) {
                        Ok(found) => {
                            (old, new) = (plain_old, plain_new);
                            assumed.push("unescaped".to_string());
                            Ok(found)
                        }
                        // Ambiguous once unescaped: say so, the places are real.
                        Err(e @ MatchError::Ambiguous { .. }) => Err(e),
                        Err(_) => Err(MatchError::NotFound),
                    }
                }
                other => other,
            }
        }
        Matching::Exact => matching::search(body, &old, &new, search_passes(mode), replace_all)
            .map_err(|e| match e {
                MatchError::Ambiguous { lines, .. } => MatchError::Ambiguous {
                    pass: MatchPass::Exact,
                    lines,
                },
                other => other,
            }),
    };
    match found {
        Ok(matches) => {
            let line = matches
                .first()
                .map(|m| state.provenance.line_at(body, m.start));
            let pass = matches.first().map(|m| m.pass);
            // One place (each edit of a batch): spliced in place, without
            // a second copy of the file.
            let next = (matches.len() != 1).then(|| spliced(body, &matches, new.len()));
            match (next, matches.first(), state.body.as_mut()) {
                (None, Some(one), Some(body)) => {
                    body.replace_range(one.start..one.end, &one.replacement)
                }
                (Some(next), _, _) => state.body = Some(next),
                _ => {}
            }
            state.provenance.replace(
                &matches
                    .iter()
                    .map(|m| (m.start, m.end, m.replacement.len()))
                    .collect::<Vec<_>>(),
            );
            Outcome {
                assumed,
                ..Outcome::ok(line, pass)
            }
        }
        Err(MatchError::CutShort { line }) => {
            let file_line = crate::text::body_lines(body)
                .get(line.saturating_sub(1) as usize)
                .copied()
                .unwrap_or_default();
            let reason = format!(
                "old_string cuts line {line} short (the file's line is {}), and new_string does not show where the rest of that line goes, so applying it would lose text. Copy the whole line into old_string and write it out in full in new_string.",
                quote(file_line)
            );
            Outcome::fail(ErrorKind::AnchorNotFound, reason)
                .at(Some(line))
                .with(Diagnostics {
                    failed_part: Some("old".into()),
                    expected_line: Some(
                        crate::result::clip(file_line, crate::result::MAX_QUOTED_CHARS)
                            .into_owned(),
                    ),
                    ..Diagnostics::default()
                })
        }
        Err(MatchError::NotFound) => {
            let (wanted, hint) =
                explain_missing(body, &crate::text::split_joined(&old), "old_string");
            let near = nearest(body, &wanted);
            let tried = match mode {
                Matching::Tolerant => {
                    "even ignoring whitespace, indentation and cut-off first or last lines"
                }
                Matching::Exact => "matching is exact",
            };
            let reason = match crate::locate::explain::already_applied_text(body, &old, &new) {
                Some(line) => format!(
                    "old_string was not found ({tried}). {}",
                    crate::locate::explain::already_applied_reason("the file", "old_string", line)
                ),
                None => format!(
                    "old_string was not found ({tried}).{hint}{}{} Copy old_string from the file as it is before this edit (earlier edits in the reply included), not as it will be.",
                    nearest_hint(&near),
                    whitespace_note(&near, &wanted)
                ),
            };
            let line = near.first().map(|n| n.line);
            Outcome::fail(ErrorKind::AnchorNotFound, reason)
                .at(line)
                .with(Diagnostics {
                    failed_part: Some("old".into()),
                    expected_line: Some(
                        crate::result::clip(&wanted, crate::result::MAX_QUOTED_CHARS).into_owned(),
                    ),
                    nearest: near,
                    ..Diagnostics::default()
                })
                .copy_from(body, &old)
        }
        Err(MatchError::Ambiguous { pass, lines }) => {
            let places = match pass {
                MatchPass::Exact => format!("lines {}", lines_list(&lines)),
                MatchPass::Substring => format!(
                    "it occurs {} times, at lines {}",
                    lines.len(),
                    lines_list(&lines)
                ),
                _ => format!(
                    "with {} matching: lines {}",
                    pass.as_str(),
                    lines_list(&lines)
                ),
            };
            let reason = if replace_all {
                format!(
                    "old_string matches places that overlap ({places}), so replace_all cannot replace each of them; include more surrounding lines so the places are separate, or make one edit per place."
                )
            } else {
                format!(
                    "old_string is not unique ({places}); include more surrounding lines so it matches one place only, or set replace_all to change every occurrence."
                )
            };
            let shown = super::excerpt::candidates(body, &lines);
            let mut outcome = Outcome::fail(ErrorKind::Ambiguous, reason)
                .at(lines.first().copied())
                .with(Diagnostics {
                    failed_part: Some("old".into()),
                    match_count: Some(lines.len() as u32),
                    match_lines: lines,
                    ..Diagnostics::default()
                });
            outcome.retry = Some(format!(
                "The candidates (add lines that tell yours apart):\n{shown}"
            ));
            outcome
        }
    }
}

fn modify(state: &mut FileState, changes: &[Result<AnchoredChange, String>]) -> Vec<Outcome> {
    if let Some((kind, why)) = &state.unusable {
        return changes
            .iter()
            .map(|_| unusable(*kind, format!("{why}.")))
            .collect();
    }
    let Some(body) = state.body.clone() else {
        return changes
            .iter()
            .map(|_| {
                Outcome::fail(
                    ErrorKind::FileNotFound,
                    "the file does not exist; create it with write_file, or check the path.".into(),
                )
            })
            .collect();
    };
    let lines: Vec<&str> = crate::text::body_lines(&body);
    let normalised: Vec<Result<AnchoredChange, String>> = changes
        .iter()
        .map(|c| {
            c.clone().map(|mut c| {
                let fix = |l: &mut Vec<String>| l.iter_mut().for_each(|s| *s = state.normalise(s));
                fix(&mut c.start);
                fix(&mut c.content);
                if let Some(end) = c.end.as_mut() {
                    fix(end);
                }
                c
            })
        })
        .collect();
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut regions: Vec<Option<Region>> = Vec::new();
    for change in &normalised {
        let change = match change {
            Ok(c) => c,
            Err(why) => {
                outcomes.push(Outcome::fail(ErrorKind::Malformed, format!("{why}.")));
                regions.push(None);
                continue;
            }
        };
        match anchored::locate(&lines, change) {
            Ok(region) => {
                outcomes.push(Outcome::ok(Some(region.first as u32 + 1), None));
                regions.push(Some(region));
            }
            Err(e) => {
                let anchor = if e.part == "start" {
                    &change.start
                } else {
                    change.end.as_deref().unwrap_or_default()
                };
                let after = e
                    .start_line
                    .map(|l| format!(" after the start anchor (line {l})"))
                    .unwrap_or_default();
                // An end anchor that is in the file, but only before start.
                let before_start = match (&e.error, e.start_line) {
                    (AnchorError::NotFound, Some(start)) => {
                        match anchored::find_anchor(&lines, anchor, 0) {
                            Ok(at) => Some((vec![at as u32 + 1], start)),
                            Err(AnchorError::NotUnique(found)) => Some((found, start)),
                            Err(AnchorError::NotFound) => None,
                        }
                    }
                    _ => None,
                };
                let outcome = match (e.error, before_start) {
                    (AnchorError::NotFound, Some((found, start))) => {
                        let at = if found.len() == 1 { format!("line {}", found[0]) } else { format!("lines {}", lines_list(&found)) };
                        Outcome::fail(
                            ErrorKind::AnchorNotFound,
                            format!(
                                "end anchor {} is only before the start anchor (at {at}; start is line {start}): the end anchor must come after start. Swap them, or anchor on lines after line {start}.",
                                quote(&anchor.join(" / "))
                            ),
                        )
                        .at(found.first().copied())
                        .with(Diagnostics {
                            failed_part: Some(e.part.into()),
                            match_count: Some(found.len() as u32),
                            match_lines: found,
                            ..Diagnostics::default()
                        })
                    }
                    (AnchorError::NotFound, None) => {
                        let anchor_lines: Vec<&str> = anchor.iter().map(String::as_str).collect();
                        let (wanted, hint) = explain_missing(&body, &anchor_lines, "the anchor");
                        let near = nearest(&body, &wanted);
                        let content: Vec<&str> = change.content.iter().map(String::as_str).collect();
                        let done = (e.part == "start" && content.as_slice() != anchor_lines.as_slice())
                            .then(|| crate::locate::explain::already_applied(&lines, &content))
                            .flatten();
                        let reason = match done {
                            Some(at) => crate::locate::explain::already_applied_reason("the file", "the start anchor", at + 1),
                            None => format!(
                                "{} anchor not found{after}: no consecutive lines match {} even ignoring whitespace.{hint}{} Anchors must be copied from the file as it is now, before this change.",
                                e.part,
                                quote(&anchor.join(" / ")),
                                nearest_hint(&near)
                            ),
                        };
                        Outcome::fail(ErrorKind::AnchorNotFound, reason)
                        .at(near.first().map(|n| n.line))
                        .with(Diagnostics {
                            failed_part: Some(e.part.into()),
                            expected_line: Some(crate::result::clip(&wanted, crate::result::MAX_QUOTED_CHARS).into_owned()),
                            nearest: near,
                            ..Diagnostics::default()
                        })
                        .copy_from(&body, &anchor.join("\n"))
                    }
                    (AnchorError::NotUnique(lines), _) => Outcome::fail(
                        ErrorKind::Ambiguous,
                        format!(
                            "{} anchor not unique (lines {}){after}: {} matches more than one place; use a more distinctive line, such as a function signature, or add lines to the anchor (up to 4).",
                            e.part,
                            lines_list(&lines),
                            quote(&anchor.join(" / "))
                        ),
                    )
                    .at(lines.first().copied())
                    .candidates(&body, &lines)
                    .with(Diagnostics {
                        failed_part: Some(e.part.into()),
                        match_count: Some(lines.len() as u32),
                        match_lines: lines,
                        ..Diagnostics::default()
                    }),
                };
                outcomes.push(outcome);
                regions.push(None);
            }
        }
    }
    // Overlapping regions: every change involved fails.
    for a in 0..regions.len() {
        for b in a + 1..regions.len() {
            let (Some(ra), Some(rb)) = (regions[a], regions[b]) else {
                continue;
            };
            if ra.first <= rb.last && rb.first <= ra.last {
                for (me, other, r_me, r_other) in [(a, b, ra, rb), (b, a, rb, ra)] {
                    if outcomes[me].kind.is_none() {
                        outcomes[me] = Outcome::fail(
                            ErrorKind::Overlap,
                            format!(
                                "regions overlap: this change covers {} and change {} covers {}; merge them into one change.",
                                span(r_me),
                                other + 1,
                                span(r_other)
                            ),
                        )
                        .at(Some(r_me.first as u32 + 1));
                    }
                }
            }
        }
    }
    if outcomes.iter().all(|o| o.status == Status::Applied) {
        let edits: Vec<(Region, &[String])> = regions
            .iter()
            .zip(&normalised)
            .filter_map(|(r, c)| Some(((*r)?, c.as_ref().ok()?.content.as_slice())))
            .collect();
        let (next, replaced) = anchored::splice(&body, edits);
        state.provenance.replace(&replaced);
        state.body = Some(next);
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_short_on_huge_inputs() {
        let many: Vec<u32> = (1..=5000).collect();
        assert_eq!(
            lines_list(&many),
            "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4990 more"
        );
        assert_eq!(lines_list(&[42, 187]), "42 and 187");
        let long = "x".repeat(500);
        assert_eq!(
            quote(&long),
            format!("`{}… (500 characters)`", "x".repeat(80))
        );
        assert_eq!(preview("first line\nsecond"), "first line");
    }
}
