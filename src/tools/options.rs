//! What a reply's tool calls are applied with: the options, and what an
//! edit session keeps of each file for `undo_edit`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How `edit_file` locates `old_string`: one meaning for every style
/// ([`crate::apply::Matching`]); tool calls match a substring, tolerantly
/// unless asked ([`crate::apply::TOOL_CALLS_MATCHING`]).
pub use crate::apply::Matching;

pub use crate::text::TrailingNewline;

/// Options of [`apply_tool_calls`](super::apply_tool_calls) (`applyToolCalls(calls, host, options)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ToolOptions {
    /// Check everything, write nothing; results say `validated`.
    pub dry_run: bool,
    /// Ask the host to stage the written files (e.g. `git add`).
    pub stage: bool,
    pub matching: Matching,
    pub trailing_newline: TrailingNewline,
    /// Folders inside version-control metadata that may be written, named
    /// exactly (`.git/info`); see [`crate::path::confine`].
    pub allow_folders: Vec<String>,
    /// Let a `create` (text editor) or `create_file` (apply_patch) replace an existing file.
    pub overwrite: bool,
    /// Cut `view` and `read` answers to this many characters (the text
    /// editor tool's `max_characters`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_characters: Option<usize>,
    /// Per file, what an edit session holds of it for `undo_edit` (see
    /// [`FileHistory`]): only the texts this reply's undos may go back to.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub history: BTreeMap<String, FileHistory>,
    /// Folder listings for `view` of a folder (path → entries), from the host's `listDir`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub listings: BTreeMap<String, Vec<String>>,
    /// The project root's absolute path as the model sees it (`nodeHost`'s
    /// root by default in JavaScript): a call's absolute path inside it (a
    /// file, or a shell call's `workdir`) is read from the root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_dir: Option<String>,
}

impl Default for ToolOptions {
    fn default() -> ToolOptions {
        ToolOptions {
            dry_run: false,
            stage: crate::apply::STAGE_BY_DEFAULT,
            matching: crate::apply::TOOL_CALLS_MATCHING,
            trailing_newline: TrailingNewline::default(),
            allow_folders: Vec::new(),
            overwrite: false,
            max_characters: None,
            history: BTreeMap::new(),
            listings: BTreeMap::new(),
            project_dir: None,
        }
    }
}

/// How many earlier versions of a file a session keeps for `undo_edit`.
pub const HISTORY_DEPTH: usize = 20;

/// What an edit session holds of one file, as a reply is given it.
///
/// A session keeps up to [`HISTORY_DEPTH`] earlier texts per file; a reply
/// is given only the most recent ones it may go back to (one per
/// `undo_edit` of that file: [`tool_undo_counts`](super::tool_undo_counts)), so a session costs each
/// call what it changes, not its whole history.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FileHistory {
    /// The most recent texts the file had before a change, oldest first
    /// (`null`: the file did not exist). `undo_edit` goes back one step.
    pub before: Vec<Option<String>>,
    /// How many texts the session holds in all (`before` may be fewer).
    pub depth: usize,
    /// [`fingerprint`] of the file as the session's last change left it:
    /// `undo_edit` refuses (`file-changed`) when the file holds something
    /// else, rather than discard another writer's change. Absent: not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
}

/// How a reply changed a file's history, for the session to carry out:
/// take `undone` texts off the end, add `pushed`, then drop `drop_oldest`
/// from the start (the session keeps [`HISTORY_DEPTH`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HistoryUpdate {
    pub undone: usize,
    /// The texts before each change the reply made, oldest first.
    pub pushed: Vec<Option<String>>,
    pub drop_oldest: usize,
    /// [`fingerprint`] of the file as the reply left it.
    pub written: String,
}

impl FileHistory {
    /// Carries out `update` on a history that holds every text (as a Rust
    /// caller keeps it; the JavaScript session does the same with its own).
    pub fn apply(&mut self, update: HistoryUpdate) {
        let kept = self.before.len().saturating_sub(update.undone);
        self.before.truncate(kept);
        self.before.extend(update.pushed);
        let dropped = update.drop_oldest.min(self.before.len());
        self.before.drain(..dropped);
        self.depth = self.before.len();
        self.written = Some(update.written);
    }
}

/// A short fingerprint of a file's bytes (`None`: no file): its length and
/// a 64-bit hash. It tells whether a file still holds what an edit session
/// wrote; it is no defence against someone who crafts a collision, who
/// could as well write the file after the check.
pub fn fingerprint(bytes: Option<&[u8]>) -> String {
    use std::hash::Hasher;
    match bytes {
        None => "none".to_string(),
        Some(bytes) => {
            let mut h = crate::apply::PathHasher::default();
            h.write(bytes);
            format!("{}:{:016x}", bytes.len(), h.finish())
        }
    }
}
