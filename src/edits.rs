//! A reply's edit blocks applied, whatever their formats: a reply of text
//! blocks through the engine ([`crate::engine`]), a reply with a patch
//! block (`apply-patch`, `unified-diff`) through the patch transaction,
//! which takes the reply's text blocks along ([`crate::patch`]).

use std::borrow::Cow;

use crate::block::EditBlock;
use crate::engine::{self, confined_paths, parse_options, ApplyOptions};
use crate::host::FileHost;
use crate::result::ApplyResult;

fn has_patch(blocks: &[EditBlock]) -> bool {
    blocks.iter().any(|b| b.patch.is_some())
}

/// The normalised, confined paths [`apply_edits`] will read, in first-use
/// order. Refused paths and files that are not in context are never listed.
pub fn required_paths(blocks: &[EditBlock], opts: &ApplyOptions) -> Vec<String> {
    let confined = confined_paths(blocks, opts);
    required_paths_of(blocks, &confined, opts)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// [`required_paths`] with each block's path already confined
/// ([`confined_paths`]), borrowed from them where it can be (a plan works
/// the list out again for each run rather than keeping a copy).
fn required_paths_of<'a>(
    blocks: &[EditBlock],
    confined: &'a [Option<String>],
    opts: &ApplyOptions,
) -> Vec<Cow<'a, str>> {
    if has_patch(blocks) {
        crate::patch::apply::patch_paths_of(blocks, confined, opts)
    } else {
        engine::text_paths_of(blocks, confined, opts)
    }
}

/// Edit blocks with each path normalised and confined once: the paths to
/// read ([`ConfinedEdits::required_paths`]) are known before any file is,
/// then [`ConfinedEdits::apply`] runs the blocks through a host holding
/// those files (a snapshot an asynchronous caller read, say), as
/// [`apply_edits`] would.
#[derive(Debug, Clone)]
pub struct ConfinedEdits {
    blocks: Vec<EditBlock>,
    /// Each block's path (`None`: refused), for the paths and every run.
    confined: Vec<Option<String>>,
}

impl ConfinedEdits {
    /// `blocks`, their paths confined by `opts` (its `allow_folders`).
    pub fn new(blocks: Vec<EditBlock>, opts: &ApplyOptions) -> ConfinedEdits {
        let confined = confined_paths(&blocks, opts);
        ConfinedEdits { blocks, confined }
    }

    /// The blocks of `reply` as [`apply_reply`] reads them (a patch's
    /// operations leave out the texts only renderers read), and the blocks
    /// dropped while it was read.
    pub fn from_reply(
        reply: &str,
        opts: &ApplyOptions,
    ) -> (ConfinedEdits, Vec<crate::result::DiscardedBlock>) {
        let (blocks, discarded) = crate::parser::parse_edits_to_apply(reply, &parse_options(opts));
        (ConfinedEdits::new(blocks, opts), discarded)
    }

    pub fn blocks(&self) -> &[EditBlock] {
        &self.blocks
    }

    /// The paths [`ConfinedEdits::apply`] reads, in first-use order
    /// ([`required_paths`]).
    pub fn required_paths(&self, opts: &ApplyOptions) -> Vec<Cow<'_, str>> {
        required_paths_of(&self.blocks, &self.confined, opts)
    }

    /// [`apply_edits`] over these blocks.
    pub fn apply(&self, host: &mut dyn FileHost, opts: &ApplyOptions) -> ApplyResult {
        apply_edits_with(&self.blocks, &self.confined, host, opts)
    }
}

/// Parses `reply` and applies its blocks; shell suggestions and the retry
/// prompt are filled in from the reply, and the blocks dropped while it
/// was read are listed in `discarded`.
pub fn apply_reply(reply: &str, host: &mut dyn FileHost, opts: &ApplyOptions) -> ApplyResult {
    // Blocks that are only applied: a patch's operations leave out the
    // texts only renderers read (the same result, fewer copies).
    let (edits, discarded) = ConfinedEdits::from_reply(reply, opts);
    let mut result = edits.apply(host, opts);
    result.shell_suggestions = crate::shell::detect_shell_suggestions(reply);
    result.discarded = discarded;
    result
}

/// Validates and applies `blocks` through `host`.
///
/// Every path is normalised and confined first; a refused path is never read.
/// Files are read once, edited in memory (each edit sees the earlier ones)
/// and written once at the end, then staged when `opts.stage` is set.
pub fn apply_edits(
    blocks: &[EditBlock],
    host: &mut dyn FileHost,
    opts: &ApplyOptions,
) -> ApplyResult {
    apply_edits_with(blocks, &confined_paths(blocks, opts), host, opts)
}

/// [`apply_edits`] with each block's path already confined
/// ([`confined_paths`]; the patch transaction uses them).
fn apply_edits_with(
    blocks: &[EditBlock],
    confined: &[Option<String>],
    host: &mut dyn FileHost,
    opts: &ApplyOptions,
) -> ApplyResult {
    if has_patch(blocks) {
        crate::patch::apply::apply_patch_edits_with(blocks, confined, host, opts)
    } else {
        engine::apply_text_edits(blocks, confined, host, opts)
    }
}
