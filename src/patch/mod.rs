//! The patch formats: OpenAI's `apply_patch` (V4A, `*** Begin Patch`) and
//! unified diffs. Each is a grammar that reads a reply line by line (fed by
//! the parser's [`EditStream`](crate::parser::EditStream)) and turns every
//! file operation into one [`EditBlock`]; `apply` locates the hunks with
//! [`crate::locate`] and applies them as one transaction.
//!
//! A patch block keeps `old_lines` / `new_lines` meaningful for renderers:
//! they hold the old and new side of every hunk, joined in order. The exact
//! operation is in [`PatchOp`] (`operation`, `moveTo`, `hunks` across the
//! JavaScript boundary).

pub(crate) mod apply;
mod doc;
pub(crate) mod prompt;
pub(crate) mod unified;
pub(crate) mod v4a;

use crate::block::{EditBlock, Format};

pub(crate) mod op;
pub use apply::{apply_patch_edits, patch_paths};

pub use op::{Hunk, Operation, PatchOp};

/// Body lines written to an operation's text (which ends with them) and
/// not yet put in their hunk: the readers put them there in one piece, one
/// copy instead of one per line, before anything reads the hunk or adds
/// other text.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PendingLines {
    /// Where the first of them starts in the text.
    from: usize,
    lines: u32,
    /// How many start with `+`.
    added: u32,
}

impl PendingLines {
    /// Writes body line `line` (and its LF) to `raw`, pending.
    pub(crate) fn push(&mut self, raw: &mut String, line: &str) {
        if self.lines == 0 {
            self.from = raw.len();
        }
        raw.push_str(line);
        raw.push('\n');
        self.lines += 1;
        self.added += u32::from(line.starts_with('+'));
    }

    /// Puts the pending lines of `raw` in `hunk` (nowhere without one).
    pub(crate) fn flush(&mut self, raw: &str, hunk: Option<&mut Hunk>) {
        let PendingLines { from, lines, added } = std::mem::take(self);
        // Without the LF after the last line.
        let end = raw.len().saturating_sub(1);
        if let (true, Some(hunk), Some(text)) = (lines > 0, hunk, raw.get(from..end)) {
            hunk.push_lines(text, lines, added);
        }
    }
}

/// Whether a block may be parsed only to be applied (see [`make_block`]):
/// in the full build only, for the engine's plan. `editblocks/lite` has no
/// engine: there every test of it is false at compile time, and the code
/// behind it left out of the module.
pub(crate) const TO_APPLY_BUILT: bool = cfg!(feature = "full");

/// The old and new side of an operation's hunks, as [`make_block`] puts
/// them in `old_lines` / `new_lines`: every body line without its prefix,
/// context and `-` lines on the old side, context and `+` lines on the new,
/// joined by `'\n'` across hunks. Built as the readers push each body line,
/// which then is at hand, rather than by splitting every hunk again.
#[derive(Debug, Default)]
pub(crate) struct Sides {
    old: String,
    new: String,
    /// The block is only applied ([`Sides::firsts`]): nothing is kept as
    /// lines are pushed.
    firsts_only: bool,
}

impl Sides {
    /// Sides of a block that is only applied: only the first line of each
    /// side is read (the result's `oldPreview` and `newPreview`),
    /// so [`Sides::take`] finds them in the hunks and nothing is copied
    /// per line.
    pub(crate) fn firsts() -> Sides {
        Sides {
            firsts_only: true,
            ..Sides::default()
        }
    }

    /// Sides with room for about as much as `last` (the previous operation's
    /// [`Sides::lens`]) and a quarter more: the operations of one patch are
    /// mostly alike, so they seldom grow by doubling.
    pub(crate) fn like(last: (usize, usize)) -> Sides {
        let room = |n: usize| (n + n / 4).clamp(64, 1 << 16);
        Sides {
            old: String::with_capacity(room(last.0)),
            new: String::with_capacity(room(last.1)),
            firsts_only: false,
        }
    }

    /// The lengths of both sides so far.
    pub(crate) fn lens(&self) -> (usize, usize) {
        (self.old.len(), self.new.len())
    }

    /// Adds a body line, as [`Hunk::push_line`] got it (one line, no `'\n'`).
    /// Every line is kept with a `'\n'` after it (no test for the first
    /// line); [`Sides::take`] drops the last one.
    #[inline(always)]
    pub(crate) fn push(&mut self, line: &str) {
        // Tested where the readers call it: no call per line when nothing is kept.
        if !(TO_APPLY_BUILT && self.firsts_only) {
            self.keep(line);
        }
    }

    fn keep(&mut self, line: &str) {
        fn add(side: &mut String, text: &str) {
            side.push_str(text);
            side.push('\n');
        }
        let text = line.get(1..).unwrap_or("");
        match line.as_bytes().first() {
            Some(b'+') => add(&mut self.new, text),
            Some(b'-') => add(&mut self.old, text),
            _ => {
                add(&mut self.old, text);
                add(&mut self.new, text);
            }
        }
    }

    /// The old and new side, lines joined by `'\n'`; for
    /// [`Sides::firsts`], the first line of each, read from `hunks`.
    fn take(mut self, hunks: &[Hunk]) -> (String, String) {
        if TO_APPLY_BUILT && self.firsts_only {
            // The first line of a side is the text of its first body line
            // (body lines hold no `'\n'`), as `push` would have kept it.
            let first = |not: char| {
                hunks
                    .iter()
                    .flat_map(Hunk::lines)
                    .find(|l| !l.starts_with(not))
                    .map_or_else(String::new, |l| l.get(1..).unwrap_or("").to_string())
            };
            return (first('+'), first('-'));
        }
        // Each side is empty or ends with the `'\n'` its last line got.
        self.old.pop();
        self.new.pop();
        (self.old, self.new)
    }
}

/// Builds the block for a finished operation; `sides` holds every body line
/// of `op`'s hunks, pushed in order.
///
/// A block that is only applied ([`crate::parser::parse_edits_to_apply`])
/// gets [`Sides::firsts`] and an empty `raw`: its `old_lines` and
/// `new_lines` hold only their first line (the result's previews read no
/// more), and applying reads no raw text.
pub(crate) fn make_block(
    format: Format,
    path: String,
    line_number: u32,
    raw: String,
    op: PatchOp,
    sides: Sides,
) -> EditBlock {
    let (old_lines, new_lines) = sides.take(&op.hunks);
    EditBlock {
        format,
        file_path: path,
        anchor: String::new(),
        old_lines,
        new_lines,
        trailing_anchor: String::new(),
        raw_block: raw,
        line_number,
        assumed: Vec::new(),
        line_hint: None,
        patch: Some(Box::new(op)),
    }
}

/// What a patch grammar reports to the stream, in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PatchEvent {
    Start {
        path: String,
        format: Format,
        line_number: u32,
    },
    /// Body lines of the operation being read, as written.
    Update {
        format: Format,
        lines: Vec<String>,
    },
    /// The line just fed is a body line of the operation being read, as
    /// written (no copy: most body lines are).
    Current {
        format: Format,
    },
    Complete(EditBlock),
    Discarded {
        path: Option<String>,
        line_number: u32,
        reason: String,
    },
}

/// Reports `line` as a body line of the operation being read that is not
/// the line just fed (a held blank line, once a later line shows it was
/// content): joins the update event before it, if any.
pub(crate) fn push_update(out: &mut Vec<PatchEvent>, format: Format, line: &str) {
    match out.last_mut() {
        Some(PatchEvent::Update { lines, .. }) => lines.push(line.to_string()),
        _ => out.push(PatchEvent::Update {
            format,
            lines: vec![line.to_string()],
        }),
    }
}

/// What a grammar did with a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fed {
    /// Part of the patch; the patch goes on.
    Taken,
    /// The last line of the patch (`*** End Patch`).
    Done,
    /// Not part of the patch: the patch ended before it, and the line is to
    /// be read as usual.
    Ended,
}

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
    /// `to_apply`: the blocks are only applied (see [`make_block`]).
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

/// Removes surrounding quotes a path may carry (`"a b.txt"`); a
/// double-quoted path is read with git's C-style escapes (`\t`, `\"`,
/// `\303\251` for the UTF-8 bytes of `é`), as git writes any path with
/// such characters.
pub(crate) fn clean_path(p: &str) -> String {
    let t = p.trim();
    if let Some(unquoted) = unquote_c(t).filter(|(_, used)| *used == t.len()) {
        return unquoted.0;
    }
    let t = t
        .strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(t);
    let t = t
        .strip_prefix('`')
        .and_then(|x| x.strip_suffix('`'))
        .unwrap_or(t);
    t.to_string()
}

/// A C-style quoted string at the start of `s` (`"a/caf\303\251.txt"`):
/// its text and the bytes it took, quotes included. `None` when `s` does
/// not start with `"`, the quote is not closed, or an escape is unknown.
pub(crate) fn unquote_c(s: &str) -> Option<(String, usize)> {
    let rest = s.strip_prefix('"')?;
    let bytes = rest.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                return Some((String::from_utf8_lossy(&out).into_owned(), i + 2));
            }
            b'\\' => {
                let c = *bytes.get(i + 1)?;
                let plain = match c {
                    b'a' => Some(7),
                    b'b' => Some(8),
                    b'f' => Some(12),
                    b'n' => Some(b'\n'),
                    b'r' => Some(b'\r'),
                    b't' => Some(b'\t'),
                    b'v' => Some(11),
                    b'\\' | b'"' => Some(c),
                    _ => None,
                };
                if let Some(b) = plain {
                    out.push(b);
                    i += 2;
                    continue;
                }
                // Three octal digits: one raw byte (of a UTF-8 sequence).
                let digits = bytes.get(i + 1..i + 4)?;
                if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                    return None;
                }
                let value = digits.iter().fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
                out.push(u8::try_from(value).ok()?);
                i += 4;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// The line cut short for a message.
pub(crate) fn shown(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// The fixture harnesses' folder reading (`tests/all/fixture_support.rs`), for
/// the tests below.
#[cfg(all(test, feature = "full"))]
#[path = "../../tests/all/fixture_support.rs"]
mod fixture_support;

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks parsed only to be applied are the blocks `parse_edits` gives
    /// with a patch block's `old_lines` / `new_lines` cut to their first
    /// line and no `raw_block` (applying reads none); applied to every
    /// patch fixture's files (with its options), both give the same result
    /// (file changes and all) and the same files, byte for byte.
    #[test]
    #[cfg(feature = "full")]
    fn blocks_to_apply_apply_as_the_full_blocks() {
        use super::fixture_support::read_tree;
        use crate::apply_edits;
        use crate::engine::ApplyOptions;
        use crate::parser::{parse_edits, parse_edits_to_apply, ParseOptions};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/patch");
        let mut cases = 0;
        let mut dirs: Vec<_> = std::fs::read_dir(&root)
            .expect("the patch fixtures")
            .flatten()
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let Ok(reply) = std::fs::read_to_string(dir.join("reply.md")) else {
                continue;
            };
            let name = dir.display();
            let options: ApplyOptions = std::fs::read_to_string(dir.join("options.json"))
                .map(|t| serde_json::from_str(&t).expect("options.json"))
                .unwrap_or_default();
            let full = parse_edits(&reply, &ParseOptions::default());
            let to_apply = parse_edits_to_apply(&reply, &ParseOptions::default()).0;
            let first_line = |s: &str| s.split('\n').next().unwrap_or("").to_string();
            let cut: Vec<EditBlock> = full
                .iter()
                .map(|b| match b.patch {
                    Some(_) => EditBlock {
                        old_lines: first_line(&b.old_lines),
                        new_lines: first_line(&b.new_lines),
                        raw_block: String::new(),
                        ..b.clone()
                    },
                    None => b.clone(),
                })
                .collect();
            assert_eq!(to_apply, cut, "{name}");
            let before = read_tree(&dir.join("before"));
            let apply = |blocks: &[EditBlock]| {
                let mut host = crate::MemoryHost::new();
                host.files = before.clone();
                let result = apply_edits(blocks, &mut host, &options);
                (
                    serde_json::to_string(&result).expect("a result"),
                    host.files,
                )
            };
            assert_eq!(apply(&to_apply), apply(&full), "{name}");
            cases += 1;
        }
        assert!(cases > 100, "the patch fixtures were read ({cases})");
    }

    /// The sides pushed line by line read as every hunk's old and new side
    /// joined in order, for every kind of body line: empty text, a line
    /// whose second byte is inside a character, a line with no prefix (a
    /// block given as JSON may hold one), a context line that is only its
    /// prefix, and sides with no line at all.
    #[test]
    fn sides_join_every_hunk_old_and_new_side() {
        let bodies: [&[&str]; 5] = [
            &[" a", "-b", "+c", " ", "+", "-", " d"],
            &["+only added", "+"],
            &["-only removed"],
            &[" ", " "],
            &[
                "-\u{e9}x",
                "+\u{e9}",
                " \u{e9}\u{e8}",
                "\u{e9}x",
                "no prefix",
            ],
        ];
        for take in 0..=bodies.len() {
            let mut sides = Sides::like((0, 0));
            let mut hunks = Vec::new();
            for body in &bodies[..take] {
                let mut hunk = Hunk::default();
                for line in body.iter() {
                    hunk.push_line(line);
                    sides.push(line);
                }
                hunks.push(hunk);
            }
            let join = |side: fn(&Hunk) -> Vec<&str>| {
                hunks.iter().flat_map(side).collect::<Vec<_>>().join("\n")
            };
            let (old, new) = (join(Hunk::old_side), join(Hunk::new_side));
            let op = PatchOp {
                operation: Operation::Update,
                move_to: None,
                old_path: None,
                hunks: hunks.clone(),
                patch: 0,
            };
            let block = make_block(Format::ApplyPatch, "a".into(), 1, String::new(), op, sides);
            assert_eq!(
                (block.old_lines, block.new_lines),
                (old, new),
                "{take} bodies"
            );
        }
    }
}
