//! Why a preview (of a text block, a patch operation or a tool call's edit)
//! can no longer apply: one type for the three previews, with the state and
//! the event it shows as.

use super::{PreviewEvent, PreviewState};

/// Why the change cannot apply, decided once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Failure {
    /// Line of the location sequence where it stopped matching (0: the file
    /// itself is the problem, or the text is ambiguous).
    pub since: u32,
    pub kind: String,
    pub reason: String,
    /// The candidate file lines of an ambiguous change.
    pub lines: Vec<u32>,
}

impl Failure {
    /// A failure of the file or the change as a whole (`since` 0, no candidates).
    pub fn of(kind: &str, reason: String) -> Failure {
        Failure::since(0, kind, reason)
    }

    /// The change stopped matching at line `since` of its location sequence.
    pub fn since(since: u32, kind: &str, reason: String) -> Failure {
        Failure {
            since,
            kind: kind.to_string(),
            reason,
            lines: Vec::new(),
        }
    }

    /// A path refused before its file is read (it leaves the root).
    pub fn path_escape(reason: String) -> Failure {
        Failure::of("path-escape", reason)
    }

    pub fn is_path_escape(&self) -> bool {
        self.kind == "path-escape"
    }

    /// The state a preview shows once it has failed.
    pub fn state(&self) -> PreviewState {
        if self.kind == "ambiguous" {
            return PreviewState::Ambiguous {
                lines: self.lines.clone(),
                reason: self.reason.clone(),
            };
        }
        PreviewState::NoMatch {
            since: self.since,
            error_kind: self.kind.clone(),
            reason: self.reason.clone(),
        }
    }

    /// The `block-unmatched` event announcing it for the file at `path`.
    pub fn event(&self, path: &str) -> PreviewEvent {
        PreviewEvent::BlockUnmatched {
            file_path: path.to_string(),
            error_kind: self.kind.clone(),
            reason: self.reason.clone(),
            since: self.since,
            lines: self.lines.clone(),
        }
    }
}
