//! The parsed edit block, shared by the parser, the engine and the renderers.

use serde::{Deserialize, Serialize};

pub(crate) mod patch_op;

/// The text formats a model may write edits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `««« EDIT` / `═══════ REPL` / `»»» EDIT END`; the anchor is the common
    /// prefix of lines of both sections (seeds 000 and 004).
    EditRepl,
    /// `««« EDIT` / `───────` / `═══════` / `───────` / `»»»` with explicit
    /// leading and trailing anchors (seed 001).
    Anchored,
    /// `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` (seed 001, dual format).
    SearchReplace,
    /// OpenAI's `apply_patch` (V4A): `*** Begin Patch` … `*** End Patch`.
    ApplyPatch,
    /// Unified diffs: `--- a/path` / `+++ b/path` and `@@` hunks.
    UnifiedDiff,
}

impl Format {
    /// Every format, in the order auto-detection prefers them.
    pub const ALL: [Format; 5] = [
        Format::EditRepl,
        Format::Anchored,
        Format::SearchReplace,
        Format::ApplyPatch,
        Format::UnifiedDiff,
    ];

    /// The kebab-case name used across the JavaScript boundary.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::EditRepl => "edit-repl",
            Format::Anchored => "anchored",
            Format::SearchReplace => "search-replace",
            Format::ApplyPatch => "apply-patch",
            Format::UnifiedDiff => "unified-diff",
        }
    }

    /// True for the patch formats (one block per file operation).
    pub fn is_patch(self) -> bool {
        matches!(self, Format::ApplyPatch | Format::UnifiedDiff)
    }

    /// Parses a kebab-case name; `None` for anything else.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

/// One edit, as the model wrote it.
///
/// Text fields hold lines joined by `'\n'`, with no final newline; an empty
/// string means "no lines".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EditBlock {
    pub format: Format,
    pub file_path: String,
    /// Leading context: the common prefix (`edit-repl`) or the leading anchor
    /// (`anchored`); empty for `search-replace`.
    #[serde(default)]
    pub anchor: String,
    #[serde(default)]
    pub old_lines: String,
    #[serde(default)]
    pub new_lines: String,
    /// The trailing anchor (`anchored` only).
    #[serde(default)]
    pub trailing_anchor: String,
    /// The block exactly as it appeared in the reply, for error reports.
    #[serde(default)]
    pub raw_block: String,
    /// 1-based line of the path line in the reply (for the patch formats,
    /// of the operation's header line).
    #[serde(default)]
    pub line_number: u32,
    /// What the parser assumed to read this block, by name (see
    /// [`crate::parser::ASSUMED`]): `path-from-previous-block` (prose stood
    /// before it), `marker-repaired` (a trailing `>` or a missing space in a
    /// marker), `cline-markers`, `line-hint-header` (Roo Code's
    /// `:start_line:` header), `new-file-wrapper-stripped` (a new file's
    /// text came wrapped in its path line and a code fence). Empty when it
    /// was read as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
    /// The line the model said the search text starts at (Roo Code's
    /// `:start_line:N`): only breaks ties between equal candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_hint: Option<u32>,
    /// The patch formats only: the file operation and its hunks (flattened
    /// into the block: `operation`, `moveTo`, `hunks`). For these formats
    /// `old_lines` / `new_lines` hold every hunk's old and new side joined
    /// in order, so renderers that know only those fields still show the
    /// change.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<Box<patch_op::PatchOp>>,
}

impl EditBlock {
    /// A block built by hand rather than parsed from a reply: `old_lines` of
    /// `path` become `new_lines`, with no anchors, at line 1. Set the other
    /// fields with struct update syntax (`EditBlock { anchor, ..EditBlock::new(…) }`).
    pub fn new(
        format: Format,
        path: impl Into<String>,
        old_lines: impl Into<String>,
        new_lines: impl Into<String>,
    ) -> EditBlock {
        EditBlock {
            format,
            file_path: path.into(),
            anchor: String::new(),
            old_lines: old_lines.into(),
            new_lines: new_lines.into(),
            trailing_anchor: String::new(),
            raw_block: String::new(),
            line_number: 1,
            assumed: Vec::new(),
            line_hint: None,
            patch: None,
        }
    }

    /// A block that creates a file: nothing to find, only new content.
    pub fn is_create(&self) -> bool {
        if let Some(op) = &self.patch {
            return op.operation == patch_op::Operation::Add;
        }
        self.anchor.is_empty() && self.old_lines.is_empty() && self.trailing_anchor.is_empty()
    }
}

/// The first `max` characters of the first line of `text`, for UI previews.
pub fn preview(text: &str, max: usize) -> String {
    let first = match crate::text::find_byte(text.as_bytes(), b'\n') {
        Some(i) => text.get(..i).unwrap_or(""),
        None => text,
    };
    // A line no longer in bytes than `max` has no more characters: copied
    // without walking them (most first lines are short).
    if first.len() <= max {
        return first.to_string();
    }
    first.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.as_str()), Some(f));
        }
        assert_eq!(Format::from_name("unified"), None);
    }

    #[test]
    fn preview_takes_characters_of_the_first_line() {
        assert_eq!(preview("héllo\nworld", 3), "hél");
        assert_eq!(preview("", 50), "");
    }
}
