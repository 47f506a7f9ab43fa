//! The preview's only calls into the appliers and the line matcher: when a
//! function here is renamed or moved, only this
//! file changes.
//!
//! While a block streams the preview narrows its own candidates with the
//! passes of [`crate::locate`]; once an operation or an edit is complete,
//! its final state is what the applier itself says of it (a dry run in
//! memory), so a preview never disagrees with the apply that follows.

use crate::block::EditBlock;
use crate::engine::Mode;
/// The engine's own answers for a text block (validation, its content after, a line hint).
pub(super) use crate::engine::{nearest_to_hint, validate_edit, ApplyOptions};
use crate::host::MemoryHost;
/// The matcher's names the preview uses (re-exported here, so a rename changes this file only).
pub(super) use crate::locate::Pass;
use crate::locate::PATCH_PASSES;
/// `@@ -3,4 +3,5 @@` as the unified-diff reader reads it.
pub(super) use crate::parser::unified::hunk_numbers;
/// The patch applier's refusals of an operation and of a section.
pub(super) use crate::patch::apply::{
    add_exists_reason, ambiguous_section, anchor_not_found, missing_reason, operation_name,
};
/// Where the patch applier places a section: without old lines, and among
/// several candidates; a unified hunk's offset from its stated line; the
/// trailing context lines the next hunk may start in.
pub(super) use crate::patch::apply::{
    handed_back, hunk_offset, needs_reindent, place_without_context, reindented_new_side,
    section_prefer,
};
use crate::result::{EditResult, Status};
use crate::tools::{apply_tool_calls, ToolCall, ToolOptions};

/// The tolerant matcher's overlapping literal starts, and a line without its whitespace.
pub(super) use crate::locate::{explain::squeeze, tolerant::literal_starts};

/// The sentences the appliers refuse a missing or existing file with.
pub(super) use crate::engine::{file_exists_reason, file_not_found};

/// The appliers' sentence for a binary file.
pub(super) use crate::apply::binary_reason;

/// The passes a patch section is located with, in order.
pub(super) fn patch_passes() -> &'static [Pass] {
    &PATCH_PASSES
}

/// Whether a file line equals a patch line under `pass`.
pub(super) fn same(pass: Pass, file_line: &str, line: &str) -> bool {
    pass.normalize(file_line) == pass.normalize(line)
}

/// Every 0-based start at or after `from` where the single line `line` occurs under `pass`.
pub(super) fn starts_of(file: &[String], line: &str, pass: Pass, from: usize) -> Vec<usize> {
    crate::locate::find_all(file, &[line], pass, from)
}

/// What the applier says of one complete change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Verdict {
    pub applied: bool,
    pub kind: String,
    pub reason: String,
    /// 1-based line where the change was found or aimed.
    pub line: Option<u32>,
    /// The file after the change (`None`: deleted, or not applied); the
    /// destination's when the change moves the file.
    pub after: Option<String>,
}

impl Verdict {
    /// What the applier's result `r` says; the file after is `path` in `host` when applied.
    fn of(r: &EditResult, applied: bool, host: &MemoryHost, path: &str) -> Verdict {
        Verdict {
            applied,
            kind: r
                .error_kind
                .as_ref()
                .map(|k| k.as_str().to_string())
                .unwrap_or_default(),
            reason: r.reason.clone().unwrap_or_default(),
            line: r.estimated_line,
            after: if applied { host.text(path) } else { None },
        }
    }

    /// The applier gave no result for `what` (not expected; said rather than assumed).
    fn none(what: &str) -> Verdict {
        Verdict {
            applied: false,
            kind: "malformed".into(),
            reason: format!("{what} gave no result."),
            line: None,
            after: None,
        }
    }
}

/// A host holding the one file (under its normalised path, as the appliers read it).
fn host_with(path: &str, content: Option<&str>) -> (MemoryHost, String) {
    let key = crate::path::normalize_path(path).unwrap_or_else(|_| path.to_string());
    let mut host = MemoryHost::new();
    if let Some(c) = content {
        host.files.insert(key.clone(), c.as_bytes().to_vec());
    }
    (host, key)
}

/// A patch operation (one block of `apply-patch` or `unified-diff`) applied
/// in memory to `content` (its file, `None`: no such file).
pub(super) fn patch_block(block: &EditBlock, path: &str, content: Option<&str>) -> Verdict {
    // An update of a file in place is applied to its text directly; other
    // operations (adds, deletes, moves, a missing file) go through the
    // transaction, on a host holding the one file.
    let confined = crate::path::confine(path, &[]);
    if let (Some(op), Some(content), Ok(file)) = (block.patch.as_deref(), content, &confined) {
        if op.operation == crate::patch::Operation::Update && op.move_to.is_none() {
            return match crate::patch::update_body(block.format, path, file, op, content) {
                Ok(updated) => Verdict {
                    applied: true,
                    kind: String::new(),
                    reason: updated.note.unwrap_or_default(),
                    line: updated.line,
                    after: Some(updated.text),
                },
                Err(f) => Verdict {
                    applied: false,
                    kind: f.kind.as_str().to_string(),
                    reason: f.reason,
                    line: f.line,
                    after: None,
                },
            };
        }
    }
    let (mut host, key) = host_with(path, content);
    let opts = ApplyOptions {
        mode: Mode::Atomic,
        ..ApplyOptions::default()
    };
    let mut b = block.clone();
    b.file_path = path.to_string();
    let r = crate::patch::apply_patch_edits(std::slice::from_ref(&b), &mut host, &opts);
    let Some(first) = r.results.first() else {
        return Verdict::none("The patch operation");
    };
    let applied = matches!(first.status, Status::Applied);
    let to = b.patch.as_ref().and_then(|p| p.move_to.as_deref());
    let to = to.and_then(|t| crate::path::normalize_path(t).ok());
    Verdict::of(first, applied, &host, to.as_deref().unwrap_or(&key))
}

/// One `old`/`new` edit of a tool call applied in memory (the call as
/// `tool` names it, arguments in its own spelling).
pub(super) fn tool_edit(
    tool: &str,
    args: serde_json::Value,
    path: &str,
    content: Option<&str>,
) -> Verdict {
    let (host, key) = host_with(path, content);
    tool_edit_on(tool, args, host, &key)
}

/// [`tool_edit`] of a file the host refused to read (`message`; `escape`:
/// as leading outside the root): the applier reads the same refusal, so
/// the preview gives its verdict.
pub(super) fn tool_edit_refused(
    tool: &str,
    args: serde_json::Value,
    path: &str,
    message: &str,
    escape: bool,
) -> Verdict {
    let (mut host, key) = host_with(path, None);
    host.unreadable.insert(key.clone(), message.to_string());
    if escape {
        host.escapes.insert(key.clone());
    }
    tool_edit_on(tool, args, host, &key)
}

/// Edits of one batched `edit_file` call (each as its own call's
/// arguments) placed in one pass over `content`, as the applier would
/// place them one by one: where each of the first ones goes, and the file
/// after them (`None`: the pass could not place the first one exactly).
pub(super) fn tool_edit_run(
    content: &str,
    edits: &[serde_json::Value],
) -> Option<(Vec<crate::tools::PreviewPlaced>, String)> {
    crate::tools::place_for_preview(content, edits)
}

/// The fewest edits [`tool_edit_run`] places together.
pub(super) const MIN_RUN_EDITS: usize = crate::tools::MIN_RUN_EDITS;

fn tool_edit_on(tool: &str, args: serde_json::Value, mut host: MemoryHost, key: &str) -> Verdict {
    let call = ToolCall::new(tool, args);
    let r = apply_tool_calls(
        std::slice::from_ref(&call),
        &mut host,
        &ToolOptions::default(),
    );
    let Some(first) = r.results.first() else {
        return Verdict::none("The tool call");
    };
    let e = &first.edit;
    let applied = r.ok && matches!(e.status, Status::Applied);
    Verdict::of(e, applied, &host, key)
}
