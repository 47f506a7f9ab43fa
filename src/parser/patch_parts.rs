//! What the patch readers share: pending body lines, each operation's
//! old and new sides, the block an operation becomes, the events a reader
//! reports to the parser, and path cleaning. The readers are `v4a.rs`
//! (OpenAI's `apply_patch`) and `unified.rs` (unified diffs), behind
//! `patch_reader.rs`; [`crate::patch`] applies what they read.

use crate::block::patch_op::{Hunk, PatchOp};
use crate::block::{EditBlock, Format};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::patch_op::Operation;

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
