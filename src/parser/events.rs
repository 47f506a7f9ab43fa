//! What the stream reports: the events of a reply as it is read, the
//! sections of a block, the block being written, and the spans of a
//! complete one. The grammar (`stream.rs`) makes them, the sinks
//! (`sink.rs`) take them.

use serde::{Deserialize, Serialize};

use crate::block::{EditBlock, Format};

/// A named section of a block, as the block's format calls it.
///
/// | format | sections, in order |
/// |---|---|
/// | `edit-repl` | `edit` (old text, anchor included), `repl` (new text, anchor included) |
/// | `anchored` | `anchor`, `old`, `new`, `trailing-anchor` |
/// | `search-replace` | `search`, `replace` |
///
/// When both `««« EDIT` formats are allowed, the first section of a
/// `««« EDIT` block is reported as `edit` until the next marker tells the
/// formats apart; if it turns out `anchored`, those lines were its leading
/// anchor (the `block-update` that reports the next section carries
/// `format: 'anchored'`, and [`EditStream::pending`](super::EditStream::pending) files them under
/// `anchor` from then on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    Edit,
    Repl,
    Anchor,
    Old,
    New,
    TrailingAnchor,
    Search,
    Replace,
    /// The body of a patch operation (`apply-patch`, `unified-diff`): lines
    /// as written, with their ` `, `-`, `+` or `@@` prefix.
    Patch,
}

impl Section {
    /// Every section, in the order [`Section::as_str`] lists them.
    pub const ALL: [Section; 9] = [
        Section::Edit,
        Section::Repl,
        Section::Anchor,
        Section::Old,
        Section::New,
        Section::TrailingAnchor,
        Section::Search,
        Section::Replace,
        Section::Patch,
    ];

    /// The section named `name` (its kebab-case name), if any.
    pub fn from_name(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The kebab-case name used across the JavaScript boundary.
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Edit => "edit",
            Section::Repl => "repl",
            Section::Anchor => "anchor",
            Section::Old => "old",
            Section::New => "new",
            Section::TrailingAnchor => "trailing-anchor",
            Section::Search => "search",
            Section::Replace => "replace",
            Section::Patch => "patch",
        }
    }
}

/// What happened in the reply, in order. Returned by [`EditStream::feed`](super::EditStream::feed) and
/// [`EditStream::finish`](super::EditStream::finish).
///
/// Across the JavaScript boundary each event is a plain object whose `type`
/// is the kebab-case variant name (`'block-start'`, …) and whose fields are
/// camelCase.
///
/// A block produces one `BlockStart`, then any number of `BlockUpdate`s, then
/// exactly one `BlockComplete` or `BlockDiscarded`. A block that is refused
/// at its start marker (no usable path) produces only `BlockDiscarded`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum StreamEvent {
    /// A start marker was read after a usable path line.
    BlockStart {
        file_path: String,
        /// `None` while a `««« EDIT` block could still be either format.
        #[serde(skip_serializing_if = "Option::is_none")]
        format: Option<Format>,
        /// 1-based line of the path line (of the start marker when the path
        /// was carried over from the block just before).
        line_number: u32,
    },
    /// New content lines of the block being read. Only what is new since the
    /// last event: the lines appended to `section`, without the `'\n'`.
    /// Events for consecutive lines of one section within one `feed` are
    /// merged.
    BlockUpdate {
        #[serde(skip_serializing_if = "Option::is_none")]
        format: Option<Format>,
        section: Section,
        lines: Vec<String>,
    },
    /// The block's end marker was read. `index` is the block's position in
    /// what [`parse_edits`](super::parse_edits) returns (0-based).
    BlockComplete { index: usize, block: EditBlock },
    /// The block was dropped; `reason` says why, in a sentence naming the
    /// line, and what would fix it. Parsing goes on after it.
    BlockDiscarded {
        #[serde(skip_serializing_if = "Option::is_none")]
        file_path: Option<String>,
        line_number: u32,
        reason: String,
    },
}

/// The lines of one section of the block being written (also what
/// [`crate::render::render_pending_sections`] draws).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingSection {
    pub section: Section,
    pub lines: Vec<String>,
}

/// The block being written, as far as it has been read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingBlock {
    pub file_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    pub line_number: u32,
    /// The sections begun so far, in order; the last one is being written.
    pub sections: Vec<PendingSection>,
    /// The current line, not yet terminated (it may still become a marker).
    pub partial_line: String,
}

/// Byte offsets of one complete block in the LF-normalised reply (CRLF read
/// as LF): each pair is a `start..end` range. For bindings that hand out
/// slices of the caller's own string instead of copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSpans {
    pub format: Format,
    pub line_number: u32,
    pub path: (usize, usize),
    pub anchor: (usize, usize),
    pub old: (usize, usize),
    pub new: (usize, usize),
    pub trailing_anchor: (usize, usize),
    pub raw: (usize, usize),
    /// [`ASSUMED`] bits.
    pub assumed: u32,
    /// Roo Code's `:start_line:`, 0 when none.
    pub line_hint: u32,
}

/// What the parser assumed to read a block, by bit: reported as
/// [`EditBlock::assumed`] names.
pub const ASSUMED: [&str; 5] = [
    "path-from-previous-block",
    "marker-repaired",
    "cline-markers",
    "line-hint-header",
    "new-file-wrapper-stripped",
];

/// The names of the bits set in `mask`, in [`ASSUMED`] order.
pub fn assumed_names(mask: u32) -> Vec<String> {
    ASSUMED
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, n)| n.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_found_by_the_name_it_crosses_the_boundary_with() {
        for section in Section::ALL {
            let name = section.as_str();
            assert_eq!(Section::from_name(name), Some(section));
            assert_eq!(serde_json::to_value(section).unwrap(), name);
            assert_eq!(
                serde_json::from_value::<Section>(name.into()).unwrap(),
                section
            );
        }
        assert_eq!(Section::from_name("Old"), None);
        assert_eq!(Section::from_name("trailing_anchor"), None);
    }
}
