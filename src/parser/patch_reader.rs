//! The patch being read, in either grammar: the parser's stream hands it
//! each line until the patch ends.

use super::patch_parts::{Fed, PatchEvent};
use super::{unified, v4a};
use crate::block::Format;

/// One patch being read: either grammar.
pub(crate) enum PatchReader {
    V4a(v4a::Reader),
    Unified(unified::Reader),
}

impl PatchReader {
    /// A reader when `line` starts a patch of an allowed format.
    /// `maybe_unified`: the line may start a unified diff (`--- x`), which
    /// only the next line (`+++ y`) confirms; the stream reads the line as
    /// usual too.
    /// `shell`: the last non-blank line before `line` that names
    /// `apply_patch` (a `cd <dir> && apply_patch <<'EOF'` moves the paths).
    /// `updates`: the stream reports events (as for [`PatchReader::line`]).
    /// `to_apply`: the blocks are only applied (see [`super::patch_parts::make_block`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        line: &str,
        line_number: u32,
        v4a: bool,
        unified: bool,
        shell: Option<&str>,
        out: &mut Vec<PatchEvent>,
        updates: bool,
        to_apply: bool,
    ) -> Option<(PatchReader, bool)> {
        if v4a {
            if let Some(r) = v4a::Reader::start(line, line_number, shell, out, updates, to_apply) {
                return Some((PatchReader::V4a(r), false));
            }
        }
        if unified {
            if let Some((r, tentative)) = unified::Reader::start(line, line_number, to_apply) {
                return Some((PatchReader::Unified(r), tentative));
            }
        }
        None
    }

    pub(crate) fn line(
        &mut self,
        line: &str,
        line_number: u32,
        out: &mut Vec<PatchEvent>,
        updates: bool,
    ) -> Fed {
        match self {
            PatchReader::V4a(r) => r.line(line, line_number, out, updates),
            PatchReader::Unified(r) => r.line(line, line_number, out, updates),
        }
    }

    /// The operation being read, if its path is known: path, format, its
    /// first line in the reply, and its body lines as written so far.
    pub(crate) fn pending(&self) -> Option<(String, Format, u32, Vec<String>)> {
        match self {
            PatchReader::V4a(r) => r.pending().map(|(p, n, l)| (p, Format::ApplyPatch, n, l)),
            PatchReader::Unified(r) => r.pending().map(|(p, n, l)| (p, Format::UnifiedDiff, n, l)),
        }
    }

    /// The reply ended.
    pub(crate) fn finish(&mut self, out: &mut Vec<PatchEvent>) {
        match self {
            PatchReader::V4a(r) => r.finish(out),
            PatchReader::Unified(r) => r.finish(out),
        }
    }
}
