//! The incremental parser for the three text formats: `edit-repl`,
//! `anchored` and `search-replace`.
//!
//! One state machine, [`EditStream`], reads a reply line by line; feed it
//! chunks as they arrive and it reports [`StreamEvent`]s. [`parse_edits`] is
//! the same machine fed the whole reply once, so any chunking of a reply
//! gives exactly the blocks `parse_edits` gives.
//!
//! ```
//! use editblocks::parser::{parse_edits, ParseOptions};
//! use editblocks::Format;
//!
//! let reply = "Here is the fix.\n\nsrc/math.py\n««« EDIT\ndef multiply(a, b):\n    return a + b\n═══════ REPL\ndef multiply(a, b):\n    return a * b\n»»» EDIT END\n";
//! let blocks = parse_edits(reply, &ParseOptions::default());
//! assert_eq!(blocks.len(), 1);
//! assert_eq!(blocks[0].format, Format::EditRepl);
//! assert_eq!(blocks[0].file_path, "src/math.py");
//! assert_eq!(blocks[0].anchor, "def multiply(a, b):");
//! assert_eq!(blocks[0].old_lines, "    return a + b");
//! assert_eq!(blocks[0].new_lines, "    return a * b");
//! assert_eq!(blocks[0].line_number, 3);
//! ```
//!
//! # The rules
//!
//! * **Lines.** The reply is read as lines; every CR right before a LF goes
//!   with it (`\r\n` and `\r\r\n` count as LF), and so do CRs at the very
//!   end; a CR elsewhere is text. Byte-order marks (U+FEFF) opening the reply
//!   are dropped. This normalisation is idempotent, and offsets (spans,
//!   the binding's records) index the reply read this way; `js/parser.js`
//!   takes the rule from [`LINE_END_PATTERN`] instead of writing it again.
//!   Blank lines and indentation inside sections are kept exactly.
//! * **Markers** are whole lines once surrounding whitespace is removed;
//!   inside a line they are content. Inside a block, a marker that has no
//!   meaning at that point (another `««« EDIT`, a `<<<<<<< SEARCH`) is
//!   content too (seed 001: nested markers are content). Tolerated: 5–9
//!   `<`, `=`, `>` in `search-replace` markers; 5–9 box-drawing characters
//!   in `═══════ REPL`, `═══════`, `───────` (a shorter or longer rule is
//!   content, like a `────` under a heading); `»»»` and
//!   `»»» EDIT END` both close either `««« EDIT` format; `═══════ REPL` may
//!   stand for `═══════` in an `anchored` block.
//! * **Telling `edit-repl` from `anchored`.** Both start with `««« EDIT`;
//!   the next marker decides: `═══════ REPL` means `edit-repl`, `───────`
//!   means `anchored`. With [`ParseOptions::formats`] naming only one of
//!   them, the other's separator is content.
//! * **The path** is the nearest non-blank line before the start marker,
//!   skipping code-fence lines, with markdown decoration removed; see
//!   [`path rules`](self#path-rules). A block that directly follows another
//!   one (only blank or fence lines between) continues in the same file.
//! * **Discarded blocks.** A start marker with no usable path line, a block
//!   whose end marker comes before one of its separators, and a block still
//!   open at [`EditStream::finish`] are discarded with a
//!   [`StreamEvent::BlockDiscarded`] that says why; parsing goes on with the
//!   next line. A block refused for its path is still read to its end, so
//!   its content is never mistaken for paths or blocks.
//! * **A new block inside an open one.** Inside an open block, the start
//!   marker of the *other* family (`<<<<<<< SEARCH` in a `««« EDIT` block,
//!   `««« EDIT` in a `search-replace` block) is always content, with all of
//!   that family's markers: an edit to a document may hold an example block
//!   of the other format, path line and all. A start marker of the open
//!   block's own family starts a new block in two cases, and the open block
//!   is discarded with a reason naming its line and its missing marker
//!   (applying it would write the next block's text, markers and all, into
//!   the file):
//!   1. its nearest non-blank, non-fence line is a usable path (a reply cut
//!      short, then the next block);
//!   2. no such path, but before the next marker that means something to the
//!      open block comes the line that divides the first section of a block
//!      of that family (`═══════ REPL` or `───────` after `««« EDIT`,
//!      `=======` after `<<<<<<< SEARCH`), where that line means nothing to
//!      the open block (it would be its content, or a second `=======`
//!      closing it): the end marker was forgotten. The new block starts at
//!      the start marker, in the same file, and is read again from there.
//!
//!   Otherwise the start marker stays content (seed 001: nested markers are
//!   content), e.g. a lone `««« EDIT` quoted in the new text. The price: an
//!   example block of the *same* format nested in the last section of a
//!   block without a path line reads as a forgotten end marker.
//! * **`search-replace` leniency** (as models write it, and as aider reads
//!   it): `=======` written twice in a row counts once; a second, exact
//!   `=======` after replace text closes the block (a `>>>>>>> REPLACE`
//!   right after it is skipped). So a `=======` line can never be replace
//!   text. A run of 5, 6, 8 or 9 `=` divides the search text from the
//!   replace text like `=======`; in replace text it is content (a setext
//!   heading underline). When such a loose run was taken as the divider and
//!   an exact `=======` follows after replace text, the loose run was most
//!   likely a heading underline in the search text: the block is discarded,
//!   saying so, rather than applied wrong.
//! * **Fences.** Markdown fences (```` ``` ````, `~~~`, with an info string)
//!   and the HTML-like fences some models use (`<source>python`, `</code>`,
//!   `<pre>`) are skipped when looking for the path.
//! * **`edit-repl` anchor**: the common prefix of whole lines of both
//!   sections; the rest are old and new lines (create, insert after, delete,
//!   replace fall out of this).
//! * **Positions.** Each block carries `raw_block` (from its path line to
//!   its end marker, LF-normalised) and `line_number`, the 1-based line of
//!   the path line (of the start marker when the path was carried over).
//!
//! # Path rules
//!
//! The path line may carry decoration models add: a leading `File:` or
//! `Path:` label, surrounding backticks,
//! `**bold**`, a trailing `:`, a markdown heading (`### src/a.py`, accepted
//! only when the rest is one path-like word). Refused, with the reason in the
//! discard event: lines starting with `//`, `>`, `-`, `+`, `*` (but not
//! `**`), `#` followed by prose; marker lines; more than 200 characters;
//! control characters; invisible format characters (Unicode Cf: zero-width
//! spaces, bidirectional controls, …); and sentences (text with spaces but no path
//! separator and no final `name.ext` word, or ending in punctuation). A
//! single file name without `/` (`Makefile`, `main.rs`) is a path; so is a
//! path with spaces.

//!
//! # Layout
//!
//! * `stream.rs`: the grammar, [`Grammar`], a line-by-line state machine
//!   (markers, paths, recovery, the `edit-repl` common prefix) that reports
//!   to a [`Sink`]; [`EditStream`] is the grammar with an [`EventSink`].
//! * `sink.rs`: the [`Sink`] trait and the core's sinks: [`EventSink`]
//!   (stream events), [`BlockSink`] ([`parse_edits`]), [`SpanSink`]
//!   ([`parse_spans`]). The JavaScript binding's numeric records and UTF-16
//!   offsets are a sink of its own, in `bindings/wasm/src/records.rs`.
//! * `markers.rs`: what a line is (`classify`; the renderer uses it too),
//!   `path_line.rs`: the path rules, `prompt.rs` and `patch_prompt.rs`:
//!   the system prompts.
//! * The patch grammars the stream feeds: `v4a.rs` (OpenAI's `apply_patch`)
//!   and `unified.rs` (unified diffs), behind `patch_reader.rs`, with what
//!   they share in `patch_parts.rs`; [`crate::patch`] applies what they read.

mod events;
mod markers;
mod patch_parts;
mod patch_prompt;
mod patch_reader;
mod path_line;
mod prompt;
mod sink;
mod stream;
pub(crate) mod unified;
mod v4a;

pub use events::{
    assumed_names, BlockSpans, PendingBlock, PendingSection, Section, StreamEvent, ASSUMED,
};
pub use sink::{AnySink, BlockSink, CompleteBlock, EventSink, Mark, PathAt, Sink, SpanSink};
pub use stream::{EditStream, Grammar, GrammarCore};

use crate::block::{EditBlock, Format};
pub(crate) use markers::{classify, Marker};
pub(crate) use stream::roo_unescaped;

/// A line of a reply without its line end, by the one line rule of
/// [`crate::text`] (every CR right before the `'\n'` goes with it, and so do
/// CRs at the very end of the reply); `line` is what comes before a `'\n'`,
/// or the last line.
pub(crate) use crate::text::strip_line_end as line_content;

/// The parser's line-end rule as a regular expression over a whole reply
/// (JavaScript syntax, global): the CRs it removes. Bindings that keep the
/// reply text read it from here rather than writing the rule again.
pub const LINE_END_PATTERN: &str = "\r+(?=\n|$)";

/// The line trim every reader uses ([`crate::text::trim_line`]).
pub(crate) use crate::text::trim_line as trim;

/// Which formats to look for; empty means all of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    pub formats: Vec<Format>,
    /// Files the caller knows (paths relative to the root): a line naming
    /// one of them is a path line even without `/` or an extension.
    pub known_files: Vec<String>,
}

/// Every complete block in `text`, in order: the stream fed once, then
/// finished.
pub fn parse_edits(text: &str, options: &ParseOptions) -> Vec<EditBlock> {
    parse_blocks(text, options, None)
}

/// [`parse_edits`] for blocks that will only be applied (the engine's
/// plan): a patch block leaves out the texts only renderers read, so that
/// each file operation costs fewer and smaller copies (see
/// [`patch_parts::make_block`]). Applying them gives what applying
/// [`parse_edits`]'s blocks gives, byte for byte. Also returns every block
/// the reply holds that was dropped, with its reason: nothing of it is
/// applied, and the result says so (`ApplyResult::discarded`).
/// [`crate::ConfinedEdits::from_reply`] reads a reply with it.
pub(crate) fn parse_edits_to_apply(
    text: &str,
    options: &ParseOptions,
) -> (Vec<EditBlock>, Vec<crate::result::DiscardedBlock>) {
    let mut discarded = Vec::new();
    let blocks = parse_blocks(text, options, Some(&mut discarded));
    (blocks, discarded)
}

/// `discarded`: given for blocks to apply (see [`parse_edits_to_apply`]).
fn parse_blocks(
    text: &str,
    options: &ParseOptions,
    discarded: Option<&mut Vec<crate::result::DiscardedBlock>>,
) -> Vec<EditBlock> {
    // The grammar's span sink, the blocks copied out of the reply read with
    // the line-end rule: one instance of the grammar serves both (the wasm
    // module carries each instance).
    let sink = SpanSink {
        keep_discards: discarded.is_some(),
        ..SpanSink::default()
    };
    let mut grammar = Grammar::new(options, sink);
    if discarded.is_some() {
        grammar.patches_to_apply();
    }
    grammar.feed(text);
    grammar.end();
    let SpanSink {
        spans,
        patches,
        discarded: dropped,
        ..
    } = std::mem::take(grammar.sink_mut());
    if let Some(discarded) = discarded {
        *discarded = dropped;
    }
    if spans.is_empty() {
        return patches.into_iter().map(|(_, b)| b).collect();
    }
    let text = normalized(text);
    let get = |(s, e): (usize, usize)| text.get(s..e).unwrap_or("").to_string();
    let mut out = Vec::with_capacity(spans.len() + patches.len());
    let mut patches = patches.into_iter().peekable();
    for span in spans {
        while let Some((_, block)) = patches.next_if(|(index, _)| *index <= out.len()) {
            out.push(block);
        }
        out.push(EditBlock {
            format: span.format,
            file_path: get(span.path),
            anchor: get(span.anchor),
            old_lines: get(span.old),
            new_lines: get(span.new),
            trailing_anchor: get(span.trailing_anchor),
            raw_block: get(span.raw),
            line_number: span.line_number,
            assumed: assumed_names(span.assumed),
            line_hint: (span.line_hint != 0).then_some(span.line_hint),
            patch: None,
        });
    }
    out.extend(patches.map(|(_, b)| b));
    out
}

/// `text` as the grammar reads it (spans index this): byte-order marks
/// opening it dropped, each line through [`line_content`].
fn normalized(text: &str) -> std::borrow::Cow<'_, str> {
    let body = text.trim_start_matches('\u{feff}');
    if !body.contains('\r') {
        return std::borrow::Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    for (i, line) in body.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line_content(line));
    }
    std::borrow::Cow::Owned(out)
}

/// The byte ranges of every complete text block in the LF-normalised
/// `text` (same blocks as [`parse_edits`], without copying any text).
pub fn parse_spans(text: &str, options: &ParseOptions) -> Vec<BlockSpans> {
    parse_spans_and_patches(text, options).0
}

/// [`parse_spans`], plus the patch blocks (`apply-patch`, `unified-diff`),
/// which are not ranges of the reply: each with its place among all blocks.
pub fn parse_spans_and_patches(
    text: &str,
    options: &ParseOptions,
) -> (Vec<BlockSpans>, Vec<(usize, EditBlock)>) {
    let mut grammar = Grammar::new(options, SpanSink::default());
    grammar.feed(text);
    grammar.end();
    let SpanSink { spans, patches, .. } = std::mem::take(grammar.sink_mut());
    (spans, patches)
}

/// The format of the first block marker in `text`, if any: `search-replace`
/// for `<<<<<<< SEARCH`; for `««« EDIT`, the next marker decides
/// (`═══════ REPL`: `edit-repl`, `───────`: `anchored`), and `edit-repl`
/// when the text ends before one; `apply-patch` for `*** Begin Patch`;
/// `unified-diff` for `diff --git` or a `--- x` line followed by `+++ y`.
pub fn detect_format(text: &str) -> Option<Format> {
    let mut in_edit = false;
    let mut minus = false;
    for line in text.trim_start_matches('\u{feff}').split('\n') {
        let line = line_content(line);
        if !in_edit {
            let t = line.trim();
            if t == "*** Begin Patch" {
                return Some(Format::ApplyPatch);
            }
            if line.starts_with("diff --git ") || (minus && line.starts_with("+++ ")) {
                return Some(Format::UnifiedDiff);
            }
            minus = line.starts_with("--- ");
        }
        match classify(line.trim()) {
            Marker::Search if !in_edit => return Some(Format::SearchReplace),
            Marker::EditStart => in_edit = true,
            Marker::ReplSeparator if in_edit => return Some(Format::EditRepl),
            Marker::LightRule if in_edit => return Some(Format::Anchored),
            Marker::EditEnd | Marker::ShortEnd if in_edit => return Some(Format::EditRepl),
            _ => {}
        }
    }
    in_edit.then_some(Format::EditRepl)
}

/// Instructions for the model to write edits in `format`, in our own words,
/// with examples.
pub fn system_prompt(format: Format) -> String {
    prompt::system_prompt(format)
}

#[cfg(test)]
mod fast_path_tests {
    use super::trim;

    #[test]
    fn trim_matches_str_trim() {
        for t in [
            "",
            " ",
            "\t\x0b\x0c x \r",
            "  abc  ",
            "\u{a0} x \u{a0}",
            " \u{2003}\t«««  EDIT \u{3000} ",
            "é",
            " é ",
            "\u{85}",
            "a\u{a0}",
            "x\u{a0} \t",
        ] {
            assert_eq!(trim(t), t.trim(), "{t:?}");
        }
    }
}
