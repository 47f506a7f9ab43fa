//! What a tool call asks for, once read: the operations [`super::calls`]
//! plans from each call and [`super::shell_call`] from a shell call's patch,
//! and the small readings both make of the arguments.

use serde_json::Value;

/// One anchored change (`modify_file`, or `edit_file` in anchored mode).
#[derive(Debug, Clone, PartialEq)]
pub struct AnchoredChange {
    pub start: Vec<String>,
    pub end: Option<Vec<String>>,
    pub content: Vec<String>,
}

/// What one call (or one entry of a batched call) asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Write {
        content: String,
    },
    Replace {
        old: String,
        new: String,
        replace_all: bool,
    },
    Modify {
        changes: Vec<Result<AnchoredChange, String>>,
    },
    /// A provider tool's own edit: Anthropic's text editor, Gemini CLI's
    /// `replace` / `write_file`, the hashline tools, the Responses API's
    /// `apply_patch` call.
    Provider(ProviderOp),
}

/// Whose wording a message uses (the model was trained on its tool's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    Anthropic,
    Gemini,
    Hashline,
    ApplyPatch,
}

/// What a provider tool call asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum ProviderOp {
    /// `view`: a file with line numbers (optionally lines `[start, end]`, end
    /// -1 = to the end) or a folder listing.
    View { range: Option<(i64, i64)> },
    /// `create`: a new file (refused over an existing one unless `overwrite`).
    Create { content: String, voice: Voice },
    /// `str_replace` / Gemini `replace`: exact text, `expected` occurrences.
    Replace {
        old: String,
        new: String,
        expected: usize,
        voice: Voice,
    },
    /// `insert`: text after line `line` (0 = at the top).
    Insert { line: i64, text: String },
    /// `undo_edit`: the file as it was before the last change the session recorded.
    Undo,
    /// Gemini `write_file`: the whole file, created or replaced.
    WriteWhole { content: String },
    /// Hashline `read`: the `N#ID|content` view.
    HashRead {
        start: Option<usize>,
        end: Option<usize>,
    },
    /// Hashline `edit`: the call as sent (checked by the hashline module).
    HashEdit { call: Value },
    /// `apply_patch_call` `create_file`: the V4A body of an added file.
    PatchCreate { diff: String },
    /// `apply_patch_call` `update_file`: V4A sections.
    PatchUpdate { diff: String },
    /// `apply_patch_call` `delete_file`.
    PatchDelete,
    /// A V4A `*** Update File:` with `*** Move to: to` (from a shell call's
    /// patch): the file, updated by `diff` when it has sections, leaves its
    /// path; the [`ProviderOp::PatchMoveIn`] that follows writes it at `to`.
    PatchMoveOut { diff: Option<String>, to: String },
    /// The arriving end of a move: the file the previous
    /// [`ProviderOp::PatchMoveOut`] took from `from`.
    PatchMoveIn { from: String },
}

/// A path the model wrote from the filesystem's root (`/home/me/app/src/x.py`,
/// as Claude's text editor and Codex write them), read from the project root
/// when it lies inside `project_dir` (the root's absolute path; `.` for the
/// root itself); `None` for any other path, which the path check then judges
/// as written (an absolute one is refused).
pub(crate) fn within_project(path: &str, project_dir: &str) -> Option<String> {
    let root = project_dir.trim_end_matches('/');
    if !project_dir.starts_with('/') || !path.starts_with('/') {
        return None;
    }
    let rest = path.strip_prefix(root)?;
    if !rest.is_empty() && !rest.starts_with('/') {
        return None;
    }
    let rest = rest.trim_start_matches('/');
    Some(if rest.is_empty() {
        ".".to_string()
    } else {
        rest.to_string()
    })
}
