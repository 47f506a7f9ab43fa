//! Results of validating and applying edits, shared by every edit path.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The most characters of one line that a reason or a diagnostic quotes.
/// A file line of megabytes (minified code, data) would otherwise be copied
/// into every message that names it.
pub const MAX_QUOTED_CHARS: usize = 200;

/// `text` as a message quotes it: whole when it has at most `max`
/// characters, else its first `max` characters, then `…` and its length
/// (`… (5,242,880 characters)`). The one place every edit path cuts quotes.
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..cut],
            thousands(text.chars().count())
        )),
    }
}

/// `5242880` as `5,242,880`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What happened to one edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Written (or, for an atomic reply, part of what was written).
    Applied,
    /// A dry run found it would apply.
    Validated,
    /// It could not be located or checked; nothing was written for it.
    Failed,
    /// Not attempted: a refused path, or an earlier edit to the file failed.
    Skipped,
    /// The file was not in the model's context; not attempted (seed 000).
    NotInContext,
}

/// Why an edit did not apply. Serialised as kebab-case strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    AnchorNotFound,
    Ambiguous,
    OldMismatch,
    TrailingMismatch,
    FileNotFound,
    FileExists,
    Binary,
    PathEscape,
    PreviousFailed,
    NoOp,
    /// The reply or call was malformed (bad JSON, missing field, bad reference).
    Malformed,
    /// A hashline anchor no longer matches the file.
    StaleAnchor,
    /// Two changes to one file cover the same lines.
    Overlap,
    /// A line number beyond the end of the file.
    LineOutOfRange,
    /// Another edit in the same atomic reply failed, so nothing was written.
    AtomicAborted,
    /// The host failed to read or write.
    HostError,
    /// The file is not valid UTF-8 text.
    Encoding,
    /// The file changed since it was last read or written (by another writer).
    FileChanged,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::AnchorNotFound => "anchor-not-found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::OldMismatch => "old-mismatch",
            ErrorKind::TrailingMismatch => "trailing-mismatch",
            ErrorKind::FileNotFound => "file-not-found",
            ErrorKind::FileExists => "file-exists",
            ErrorKind::Binary => "binary",
            ErrorKind::PathEscape => "path-escape",
            ErrorKind::PreviousFailed => "previous-failed",
            ErrorKind::NoOp => "no-op",
            ErrorKind::Malformed => "malformed",
            ErrorKind::StaleAnchor => "stale-anchor",
            ErrorKind::Overlap => "overlap",
            ErrorKind::LineOutOfRange => "line-out-of-range",
            ErrorKind::AtomicAborted => "atomic-aborted",
            ErrorKind::HostError => "host-error",
            ErrorKind::Encoding => "encoding",
            ErrorKind::FileChanged => "file-changed",
        }
    }
}

/// A file line near where an edit was aimed, with how alike it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NearLine {
    /// 1-based line number in the file.
    pub line: u32,
    pub text: String,
    /// 0.0 (nothing alike) to 1.0 (identical).
    #[serde(serialize_with = "similarity_two_places")]
    pub similarity: f32,
}

/// Writes a similarity as a short decimal (0.87, not 0.8700000047683716).
fn similarity_two_places<S: serde::Serializer>(
    value: &f32,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64((f64::from(*value) * 100.0).round() / 100.0)
}

/// Details that help a person or a model fix a failed edit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostics {
    /// Which part failed to match: `"anchor"`, `"old"` or `"trailing"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_part: Option<String>,
    /// A whitespace-only difference, named (tabs vs spaces, trailing
    /// whitespace, indentation depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whitespace: Option<String>,
    /// The first line the model wrote that did not match, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_line: Option<String>,
    /// The closest lines in the file.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub nearest: Vec<NearLine>,
    /// How many places matched (for ambiguity) and where (1-based lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_count: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub match_lines: Vec<u32>,
}

/// The result of one edit block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    pub block_index: usize,
    /// The file's path, normalised (as written when it was refused). Named
    /// `path` in every result of every style (it was `filePath` here).
    #[serde(alias = "filePath")]
    pub path: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// A sentence a model can act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// 1-based line where the edit was aimed or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_line: Option<u32>,
    pub anchor_preview: String,
    pub old_preview: String,
    pub new_preview: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Diagnostics>,
    /// Which matching pass located the edit (`exact`, `trailing-whitespace`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<String>,
    /// What was assumed to read or place this edit, so a UI can show it:
    /// the block's own [`crate::EditBlock::assumed`] (parse), then the
    /// engine's (`line-hint-tie-break`: equal candidates, the one nearest
    /// the block's line hint taken). Empty when nothing was assumed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

impl EditResult {
    /// The result of block `index` of a reply, before anything is known
    /// about it beyond `status`: its path and the previews of its sections
    /// (each cut to 50 characters), with the block's own assumptions. The
    /// one constructor of a block's result.
    pub(crate) fn for_block(
        index: usize,
        path: &str,
        block: &crate::block::EditBlock,
        status: Status,
    ) -> EditResult {
        use crate::block::preview;
        EditResult {
            block_index: index,
            path: path.to_string(),
            status,
            error_kind: None,
            reason: None,
            estimated_line: None,
            anchor_preview: preview(&block.anchor, 50),
            old_preview: preview(&block.old_lines, 50),
            new_preview: preview(&block.new_lines, 50),
            diagnostics: None,
            matched_by: None,
            assumed: block.assumed.clone(),
        }
    }
}

/// Everything that happened when a reply was applied.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyResult {
    pub results: Vec<EditResult>,
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    /// Files deleted (a patch's delete, or the old name of a moved file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_deleted: Vec<String>,
    /// Files the model edited without having them in context (seed 000).
    pub files_auto_added: Vec<String>,
    pub shell_suggestions: Vec<String>,
    /// Prepared when some edits failed as ambiguous; never sent by us.
    pub retry_prompt: Option<String>,
    /// Each file the call changed (or, in a dry run, would change): its
    /// content before and after, in first-changed order.
    #[serde(default)]
    pub file_changes: Vec<FileChange>,
    /// The blocks of a reply that were dropped while it was read (a block
    /// cut short, a path that names no file, a patch without its headers):
    /// nothing of them was applied, and each says why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded: Vec<DiscardedBlock>,
    /// Set when every change was written but the host could not stage
    /// them: what failed, and which paths are left to stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage_error: Option<String>,
    /// The host call that failed while the changes were written, and what
    /// it left on disk (the results already say which edits that undid).
    #[serde(skip)]
    pub host_failure: Option<crate::apply::HostFailure>,
}

/// A block of a reply dropped while the reply was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscardedBlock {
    /// The 1-based line of the reply where the block starts.
    pub line_number: u32,
    /// The file the block was for, when its path was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The sentence saying what was wrong and what would fix it.
    pub reason: String,
}

#[cfg(test)]
mod clip_tests {
    use super::*;

    #[test]
    fn a_block_result_previews_the_first_line_of_each_part() {
        let block = crate::block::EditBlock::new(
            crate::block::Format::SearchReplace,
            "a.txt",
            "ééééé\nsecond",
            "x".repeat(60),
        );
        let r = EditResult::for_block(0, "a.txt", &block, Status::Applied);
        assert_eq!(r.old_preview, "ééééé");
        assert_eq!(r.new_preview, "x".repeat(50));
        assert_eq!(
            EditResult::for_block(
                0,
                "a.txt",
                &crate::block::EditBlock::new(
                    crate::block::Format::SearchReplace,
                    "a.txt",
                    "é".repeat(60),
                    ""
                ),
                Status::Applied
            )
            .old_preview,
            "é".repeat(50)
        );
    }

    #[test]
    fn long_lines_are_cut_with_their_length() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééé", 3), "ééé");
        assert_eq!(
            clip(&"x".repeat(5_242_880), 3),
            "xxx… (5,242,880 characters)"
        );
        assert_eq!(clip("éééé", 2), "éé… (4 characters)");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}

/// One file's content before and after a call: what a UI shows for
/// accept/reject, or hands to an editor's own edit and undo machinery.
///
/// `before: None` means the file is created, `after: None` that it is
/// deleted. Both are the full text as it is (or would be) on disk: line
/// endings, BOM and final newline included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    pub path: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The path the file was moved from (a rename); `before` is then that
    /// file's content, and the old path no longer exists afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
}
