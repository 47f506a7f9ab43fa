//! Finding a run of lines in a file: `locate(file, needle, passes, from)`.
//!
//! One function, a list of named passes. Each pass compares whole lines after
//! its own normalisation and accepts only a *unique* match at or after
//! `from`: several candidates end the search as [`Located::Ambiguous`] (a
//! looser pass is never asked to pick among the places a stricter pass
//! already found), none goes on to the next pass. So an edit is never put at
//! the first of several places.
//!
//! Every edit style locates its edits here; a style is a list of passes:
//!
//! | style | passes |
//! |---|---|
//! | text blocks (`edit-repl`, `anchored`, `search-replace`), exact | [`Pass::Exact`] through the file's `index::Lines` |
//! | text blocks, tolerant | [`BLOCK_PASSES`] (`tolerant::search` for the repair) |
//! | tool calls `edit_file`, hashline `replace_text` | [`TOLERANT_PASSES`] (`tolerant`: text that may cover parts of lines) |
//! | tool calls `modify_file` anchors | [`ANCHOR_PASSES`] |
//! | `apply-patch`, `unified-diff` | [`PATCH_PASSES`] |
//!
//! A miss is explained by `explain` (nearest lines, whitespace named, "the
//! new text is already there").

use std::borrow::Cow;

use crate::text::same_str;

pub(crate) mod explain;
pub(crate) mod index;
pub(crate) mod tolerant;

pub use tolerant::{
    find_all as find_all_tolerant, find_unique as find_unique_tolerant, TolerantError,
    TolerantMatch,
};

/// A way of comparing a needle line with a file line, strictest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pass {
    /// Byte for byte.
    Exact,
    /// Trailing whitespace ignored.
    TrailingWhitespace,
    /// Leading and trailing whitespace ignored.
    Whitespace,
    /// Leading and trailing whitespace ignored, and typographic punctuation
    /// read as ASCII: curly quotes as `'` and `"`, dashes and minus signs as
    /// `-`, non-breaking and other Unicode spaces as a space, `…` as `...`.
    Punctuation,
    /// As [`Pass::Whitespace`], but the first and last needle lines may be
    /// cut-off beginnings (at least `tolerant::MIN_PREFIX_CHARS`
    /// characters) of the file's lines (`tolerant` completes them).
    BoundaryPrefix,
    /// The needle text anywhere, even inside a line (`tolerant`).
    Substring,
}

impl Pass {
    /// The name reported as `matchedBy`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pass::Exact => "exact",
            Pass::TrailingWhitespace => "trailing-whitespace",
            Pass::Whitespace => "whitespace",
            Pass::Punctuation => "punctuation",
            Pass::BoundaryPrefix => "boundary-prefix",
            Pass::Substring => "substring",
        }
    }

    /// The line as this pass compares it.
    pub fn normalize(self, line: &str) -> Cow<'_, str> {
        match self {
            Pass::Exact => Cow::Borrowed(line),
            Pass::TrailingWhitespace => Cow::Borrowed(line.trim_end()),
            Pass::Whitespace | Pass::BoundaryPrefix | Pass::Substring => Cow::Borrowed(line.trim()),
            Pass::Punctuation => {
                let t = line.trim();
                if t.is_ascii() {
                    return Cow::Borrowed(t);
                }
                let mut out = String::with_capacity(t.len());
                for c in t.chars() {
                    match c {
                        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => {
                            out.push('\'')
                        }
                        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}'
                        | '\u{00AB}' | '\u{00BB}' => out.push('"'),
                        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}'
                        | '\u{2015}' | '\u{2212}' => out.push('-'),
                        '\u{2026}' => out.push_str("..."),
                        '\u{00A0}'
                        | '\u{2002}'..='\u{200A}'
                        | '\u{202F}'
                        | '\u{205F}'
                        | '\u{3000}' => out.push(' '),
                        c => out.push(c),
                    }
                }
                Cow::Owned(out)
            }
        }
    }
}

/// The passes of the patch formats, in order.
pub const PATCH_PASSES: [Pass; 4] = [
    Pass::Exact,
    Pass::TrailingWhitespace,
    Pass::Whitespace,
    Pass::Punctuation,
];

/// The passes of `modify_file` anchors, in order.
pub const ANCHOR_PASSES: [Pass; 3] = [Pass::Exact, Pass::TrailingWhitespace, Pass::Whitespace];

/// The tolerant passes of text blocks (whole lines), in order.
pub const BLOCK_PASSES: [Pass; 4] = [
    Pass::Exact,
    Pass::TrailingWhitespace,
    Pass::Whitespace,
    Pass::BoundaryPrefix,
];

/// The passes of search/replace text that may cover parts of lines
/// (`edit_file`, hashline `replace_text`), in order; see `tolerant`.
pub const TOLERANT_PASSES: [Pass; 5] = [
    Pass::Exact,
    Pass::TrailingWhitespace,
    Pass::Whitespace,
    Pass::BoundaryPrefix,
    Pass::Substring,
];

/// Which candidate wins when a pass finds several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// None: several candidates are ambiguous.
    Nothing,
    /// The one candidate starting at this 0-based line, if exactly one does
    /// (a unified diff's stated line after the earlier hunks' offset).
    Line(usize),
    /// The candidate that ends at the end of the file (`*** End of File`).
    End,
    /// The one candidate that starts before this 0-based line, if exactly
    /// one does (inside the block an `@@` line opens).
    Before(usize),
}

impl Prefer {
    /// Whether the candidate covering file lines `start..end` (0-based) of a
    /// file of `len` lines is a preferred one.
    pub fn accepts(self, start: usize, end: usize, len: usize) -> bool {
        match self {
            Prefer::Nothing => false,
            Prefer::Line(line) => start == line,
            Prefer::End => end == len,
            Prefer::Before(before) => start < before,
        }
    }
}

/// What [`locate`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// One place: its 0-based first line, the pass, and whether a preference
    /// broke a tie between several candidates.
    Unique {
        start: usize,
        pass: Pass,
        preferred: bool,
    },
    /// Several places for the first pass that found any (0-based starts).
    Ambiguous {
        pass: Pass,
        starts: Vec<usize>,
    },
    NotFound,
}

/// A fast hash of a line's bytes, eight at a time.
pub fn line_hash(line: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = line.as_bytes();
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
    }
    (h ^ crate::text::tail_word(bytes))
        .wrapping_mul(K)
        .rotate_left(29)
}

/// A line's key for [`LineIndex`]: its length and three of its words (first,
/// middle, last), so a line of any length costs a few loads, not a walk over
/// its bytes. Equal lines have equal keys; lines with equal keys are compared
/// in full before they count as a match.
fn line_key(line: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = line.as_bytes();
    let n = bytes.len();
    let word = |at: usize| -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let (first, middle, last) = if n >= 8 {
        (word(0), word((n - 8) / 2), word(n - 8))
    } else {
        (crate::text::tail_word(bytes), 0, 0)
    };
    // One multiply mixes them (every line of the file is keyed).
    (first ^ middle.rotate_left(21) ^ last.rotate_left(42) ^ n as u64).wrapping_mul(K)
}

/// Where the lines of the needles to be searched for occur in one file
/// snapshot, so the exact pass looks a needle up by its rarest line instead
/// of scanning the file: a search costs about the needle and its
/// candidates, not the rest of the file, and uniqueness is still proved
/// (every candidate is compared in full).
///
/// Built once per snapshot for the needles known in advance (a patch's
/// sections and `@@` lines): one pass over the file keeps only the lines
/// whose key is a needle line's, so the file's other lines cost a key and
/// one probe of a small table. A needle with a line not registered is
/// searched by a scan, as without an index. A snapshot that changes is
/// indexed again (the engine's `index::Lines` is the incremental version
/// for text blocks).
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    /// Lines of the file indexed (an index of another file is not used).
    file_len: usize,
    /// One bit per key's top bits, set for the needle lines' keys: most
    /// file lines are rejected by one test of this small table.
    filter: Vec<u64>,
    /// Open addressing by key, a power of two long and at most half used
    /// (a slot not `used` is free).
    slots: Vec<KeySlot>,
    /// For each file line kept: its line number and the next kept line
    /// with the same key (`NONE`: none), in file order.
    kept: Vec<(u32, u32)>,
}

const NONE: u32 = u32::MAX;

/// One needle line key: the file lines that have it, as a chain in `kept`.
#[derive(Debug, Clone, Copy)]
struct KeySlot {
    key: u64,
    used: bool,
    hits: u32,
    first: u32,
    last: u32,
}

const FREE: KeySlot = KeySlot {
    key: 0,
    used: false,
    hits: 0,
    first: NONE,
    last: NONE,
};

impl LineIndex {
    /// Every line of `file` registered (for a file searched many times for
    /// needles not known in advance).
    pub fn new<S: AsRef<str>>(file: &[S]) -> LineIndex {
        LineIndex::for_needles(file, file.iter().map(AsRef::as_ref))
    }

    /// No line registered: every search scans (for a file searched a few
    /// times).
    pub fn hashes<S: AsRef<str>>(file: &[S]) -> LineIndex {
        LineIndex::for_needles(file, std::iter::empty())
    }

    /// The index of `file` for the lines of `needles`.
    pub fn for_needles<'n, S: AsRef<str>>(
        file: &[S],
        needles: impl Iterator<Item = &'n str> + Clone,
    ) -> LineIndex {
        let count = needles.clone().count();
        let size = (2 * count).next_power_of_two().max(16);
        // 16 bits per slot: about one needle key in 32 bits.
        let filter_bits = (size * 16).trailing_zeros();
        let mut index = LineIndex {
            file_len: file.len(),
            filter: vec![0; (size * 16) / 64],
            slots: vec![FREE; size],
            kept: Vec::with_capacity(count.min(file.len())),
        };
        let bit = |key: u64| (key >> (64 - filter_bits)) as usize;
        for line in needles {
            let key = line_key(line);
            let at = index.probe(key);
            let slot = &mut index.slots[at];
            slot.key = key;
            slot.used = true;
            index.filter[bit(key) / 64] |= 1 << (bit(key) % 64);
        }
        for (i, line) in file.iter().enumerate() {
            let key = line_key(line.as_ref());
            let b = bit(key);
            if index.filter[b / 64] & (1 << (b % 64)) == 0 {
                continue;
            }
            let at = index.probe(key);
            if !index.slots[at].used {
                continue;
            }
            let n = index.kept.len() as u32;
            index.kept.push((i as u32, NONE));
            let slot = &mut index.slots[at];
            if slot.last == NONE {
                slot.first = n;
            } else {
                index.kept[slot.last as usize].1 = n;
            }
            slot.last = n;
            slot.hits += 1;
        }
        index
    }

    /// The slot holding `key`, or the free slot where it would go.
    fn probe(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = (key >> 32) as usize & mask;
        loop {
            let slot = &self.slots[at];
            if !slot.used || slot.key == key {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// The registered slot of `line`, if it is a needle line.
    fn slot(&self, line: &str) -> Option<&KeySlot> {
        if self.slots.is_empty() {
            return None;
        }
        let key = line_key(line);
        Some(&self.slots[self.probe(key)]).filter(|s| s.used && s.key == key)
    }

    /// The file lines with the key of a slot, ascending.
    fn chain(&self, slot: &KeySlot) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(
            (slot.first != NONE).then(|| self.kept[slot.first as usize]),
            move |&(_, next)| (next != NONE).then(|| self.kept[next as usize]),
        )
        .map(|(line, _)| line as usize)
    }
}

/// Every 0-based start at or after `from` where `needle` occurs as
/// consecutive whole lines under `pass`.
pub fn find_all<S: AsRef<str>>(file: &[S], needle: &[&str], pass: Pass, from: usize) -> Vec<usize> {
    find_all_hashed(file, None, needle, pass, from).into_vec()
}

/// Every start `i` in `from..=hay - n` where needle items `0..n` equal the
/// haystack items `i..i + n`, ascending, overlapping ones included: a
/// Knuth–Morris–Pratt search, so that each haystack item is compared a
/// bounded number of times however many places share a prefix with the
/// needle (a naive window check costs places times needle lines on a run of
/// identical lines). `same_needle(a, b)` compares two needle items,
/// `same(i, j)` haystack item `i` with needle item `j`.
pub(crate) fn sequence_starts(
    hay: usize,
    n: usize,
    from: usize,
    same_needle: impl Fn(usize, usize) -> bool,
    mut same: impl FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let mut found = Vec::new();
    if n == 0 || n > hay {
        return found;
    }
    // border[j]: the length of the longest proper prefix of needle[..=j]
    // that is also its suffix.
    let mut border = vec![0usize; n];
    let mut k = 0;
    for j in 1..n {
        while k > 0 && !same_needle(j, k) {
            k = border[k - 1];
        }
        if same_needle(j, k) {
            k += 1;
        }
        border[j] = k;
    }
    let mut j = 0;
    for i in from..hay {
        while j > 0 && !same(i, j) {
            j = border[j - 1];
        }
        if same(i, j) {
            j += 1;
        }
        if j == n {
            found.push(i + 1 - n);
            j = border[n - 1];
        }
    }
    found
}

/// The starts a search found, ascending: the first held apart, so that a
/// search finding one place (most of them) allocates nothing.
#[derive(Debug, Default)]
struct Starts {
    first: Option<usize>,
    /// The starts after the first.
    more: Vec<usize>,
}

impl Starts {
    fn push(&mut self, start: usize) {
        match self.first {
            None => self.first = Some(start),
            Some(_) => self.more.push(start),
        }
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.first.into_iter().chain(self.more.iter().copied())
    }

    fn into_vec(self) -> Vec<usize> {
        match self.first {
            None => Vec::new(),
            Some(first) => {
                let mut all = Vec::with_capacity(1 + self.more.len());
                all.push(first);
                all.extend(self.more);
                all
            }
        }
    }
}

fn find_all_hashed<S: AsRef<str>>(
    file: &[S],
    index: Option<&LineIndex>,
    needle: &[&str],
    pass: Pass,
    from: usize,
) -> Starts {
    let mut found = Starts::default();
    let n = needle.len();
    if n == 0 || n > file.len() {
        return found;
    }
    let last = file.len() - n;
    let index = index.filter(|ix| ix.file_len == file.len());
    if let (Pass::Exact, Some(ix)) = (pass, index) {
        // Start from the needle's rarest registered line (one in no file
        // line ends the search); check every candidate. No line registered:
        // scan.
        let mut rarest: Option<(usize, &KeySlot)> = None;
        for (j, line) in needle.iter().enumerate() {
            let Some(slot) = ix.slot(line) else {
                continue;
            };
            if slot.hits == 0 {
                return found;
            }
            if rarest.map_or(true, |(_, best)| slot.hits < best.hits) {
                rarest = Some((j, slot));
            }
            if slot.hits == 1 {
                break;
            }
        }
        // Many places times a long needle: checked in one pass below instead.
        let few = |slot: &KeySlot| (slot.hits as usize).saturating_mul(n) <= file.len().max(64);
        if let Some((k, slot)) = rarest.filter(|(_, slot)| few(slot)) {
            for p in ix.chain(slot) {
                let Some(start) = p.checked_sub(k) else {
                    continue;
                };
                if start < from {
                    continue;
                }
                if start > last {
                    break;
                }
                if (0..n).all(|j| same_str(file[start + j].as_ref(), needle[j])) {
                    found.push(start);
                }
            }
            return found;
        }
    }
    if n > 1 {
        return starts_in_one_pass(file, needle, pass, from);
    }
    if pass == Pass::Exact {
        let first = needle[0];
        let (len, last_byte) = (first.len(), first.as_bytes().last().copied());
        for i in from..=last {
            // Length and last byte first: most lines differ there, without a call to memcmp.
            let line = file[i].as_ref();
            if line.len() != len || line.as_bytes().last().copied() != last_byte {
                continue;
            }
            if same_str(line, first)
                && file[i + 1..i + n]
                    .iter()
                    .zip(&needle[1..])
                    .all(|(a, b)| same_str(a.as_ref(), b))
            {
                found.push(i);
            }
        }
        return found;
    }
    if pass == Pass::BoundaryPrefix {
        for i in from..=last {
            let window: Vec<&str> = file[i..i + n].iter().map(AsRef::as_ref).collect();
            if tolerant::boundary_window(&window, needle) {
                found.push(i);
            }
        }
        return found;
    }
    if pass == Pass::Substring {
        // The needle as text: its first line ends a file line, its last
        // begins one, the lines between are equal.
        for i in from..=last {
            let hit = (0..n).all(|k| {
                let (f, w) = (file[i + k].as_ref(), needle[k]);
                match (k == 0, k + 1 == n) {
                    (true, true) => f.contains(w),
                    (true, false) => f.ends_with(w),
                    (false, true) => f.starts_with(w),
                    (false, false) => f == w,
                }
            });
            if hit {
                found.push(i);
            }
        }
        return found;
    }
    let wanted: Vec<Cow<'_, str>> = needle.iter().map(|l| pass.normalize(l)).collect();
    for i in from..=last {
        if (0..n).all(|k| pass.normalize(file[i + k].as_ref()) == wanted[k]) {
            found.push(i);
        }
    }
    found
}

/// [`find_all_hashed`] for a needle of two lines or more: each file line is
/// compared a bounded number of times ([`sequence_starts`]). The boundary
/// passes compare their first and last lines apart: their middle lines are
/// searched for, and the two ends checked at each place found.
fn starts_in_one_pass<S: AsRef<str>>(
    file: &[S],
    needle: &[&str],
    pass: Pass,
    from: usize,
) -> Starts {
    let mut found = Starts::default();
    let n = needle.len();
    let push_all = |found: &mut Starts, starts: Vec<usize>| {
        for s in starts {
            found.push(s);
        }
    };
    match pass {
        Pass::Exact => push_all(
            &mut found,
            sequence_starts(
                file.len(),
                n,
                from,
                |a, b| needle[a] == needle[b],
                |i, j| same_str(file[i].as_ref(), needle[j]),
            ),
        ),
        Pass::BoundaryPrefix | Pass::Substring => {
            // Middle lines: equal trimmed (boundary) or as written (substring).
            let norm = |l: &str| -> String {
                if pass == Pass::BoundaryPrefix {
                    l.trim().to_string()
                } else {
                    l.to_string()
                }
            };
            let middle: Vec<String> = needle[1..n - 1].iter().map(|l| norm(l)).collect();
            let last = n - 1;
            let starts: Vec<usize> = if middle.is_empty() {
                (from..=file.len() - n).collect()
            } else {
                sequence_starts(
                    file.len().saturating_sub(1),
                    middle.len(),
                    from + 1,
                    |a, b| middle[a] == middle[b],
                    |i, j| {
                        let f = file[i].as_ref();
                        if pass == Pass::BoundaryPrefix {
                            f.trim() == middle[j]
                        } else {
                            f == middle[j]
                        }
                    },
                )
                .into_iter()
                .map(|m| m - 1)
                .collect()
            };
            for i in starts {
                let (f0, fl) = (
                    AsRef::<str>::as_ref(&file[i]),
                    AsRef::<str>::as_ref(&file[i + last]),
                );
                let hit = if pass == Pass::BoundaryPrefix {
                    tolerant::boundary_window(&[f0, fl], &[needle[0], needle[last]])
                } else {
                    f0.ends_with(needle[0]) && fl.starts_with(needle[last])
                };
                if hit {
                    found.push(i);
                }
            }
        }
        _ => {
            let wanted: Vec<Cow<'_, str>> = needle.iter().map(|l| pass.normalize(l)).collect();
            let mut lines: Vec<Option<Cow<'_, str>>> = vec![None; file.len()];
            let starts = sequence_starts(
                file.len(),
                n,
                from,
                |a, b| wanted[a] == wanted[b],
                |i, j| {
                    let line = lines[i].get_or_insert_with(|| pass.normalize(file[i].as_ref()));
                    *line == wanted[j]
                },
            );
            push_all(&mut found, starts);
        }
    }
    found
}

/// Finds `needle` in `file` at or after `from`: each pass in turn, the first
/// that finds anything decides (see the module docs).
pub fn locate<S: AsRef<str>>(
    file: &[S],
    needle: &[&str],
    passes: &[Pass],
    from: usize,
    prefer: Prefer,
) -> Located {
    locate_hashed(file, None, needle, passes, from, prefer)
}

/// As [`locate`], with the file's [`LineIndex`] (built once for many
/// searches in one file snapshot); the same answers, faster.
pub fn locate_hashed<S: AsRef<str>>(
    file: &[S],
    index: Option<&LineIndex>,
    needle: &[&str],
    passes: &[Pass],
    from: usize,
    prefer: Prefer,
) -> Located {
    for &pass in passes {
        let starts = find_all_hashed(file, index, needle, pass, from);
        match (starts.first, starts.more.is_empty()) {
            (None, _) => continue,
            (Some(start), true) => {
                return Located::Unique {
                    start,
                    pass,
                    preferred: false,
                }
            }
            (Some(_), false) => {
                let picked = {
                    let mut pick = starts
                        .iter()
                        .filter(|&s| prefer.accepts(s, s + needle.len(), file.len()));
                    (pick.next(), pick.next())
                };
                if let (Some(start), None) = picked {
                    return Located::Unique {
                        start,
                        pass,
                        preferred: true,
                    };
                }
                let starts = starts.into_vec();
                return Located::Ambiguous { pass, starts };
            }
        }
    }
    Located::NotFound
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_are_tried_in_order_and_unique_only() {
        let file = ["a", "b  ", "c", "b", "c"];
        assert_eq!(
            locate(&file, &["b", "c"], &PATCH_PASSES, 0, Prefer::Nothing),
            Located::Unique {
                start: 3,
                pass: Pass::Exact,
                preferred: false
            }
        );
        assert_eq!(
            locate(&file, &["b", "c"], &PATCH_PASSES, 4, Prefer::Nothing),
            Located::NotFound
        );
        let twice = ["x", "y", "x", "y"];
        assert_eq!(
            locate(&twice, &["x"], &PATCH_PASSES, 0, Prefer::Nothing),
            Located::Ambiguous {
                pass: Pass::Exact,
                starts: vec![0, 2]
            }
        );
        assert_eq!(
            locate(&twice, &["x"], &PATCH_PASSES, 0, Prefer::Line(2)),
            Located::Unique {
                start: 2,
                pass: Pass::Exact,
                preferred: true
            }
        );
        assert_eq!(
            locate(&twice, &["y"], &PATCH_PASSES, 0, Prefer::End),
            Located::Unique {
                start: 3,
                pass: Pass::Exact,
                preferred: true
            }
        );
        assert_eq!(
            locate(&twice, &["x"], &PATCH_PASSES, 1, Prefer::Nothing),
            Located::Unique {
                start: 2,
                pass: Pass::Exact,
                preferred: false
            }
        );
    }

    /// A file and needles with repeats, trailing spaces, empty and long lines.
    const SAMPLE_FILE: [&str; 10] = [
        "a",
        "b  ",
        "c",
        "b",
        "c",
        "",
        "a long line of more than eight bytes",
        "x",
        "a long line of more than eight bytes",
        "b",
    ];
    const SAMPLE_NEEDLES: [&[&str]; 7] = [
        &["b", "c"],
        &["b"],
        &["a long line of more than eight bytes"],
        &["a long line of more than eight bytes", "b"],
        &[""],
        &["c", "b"],
        &["zz"],
    ];

    /// Every sample needle, from every line and with every preference,
    /// found through each index as a plain scan finds it; and an index of
    /// another file (`other`) is not used.
    fn assert_as_scan(indexes: &[&LineIndex], other: &LineIndex) {
        let file = SAMPLE_FILE;
        for needle in SAMPLE_NEEDLES {
            for from in 0..file.len() {
                for prefer in [
                    Prefer::Nothing,
                    Prefer::End,
                    Prefer::Line(3),
                    Prefer::Before(5),
                ] {
                    for ix in indexes {
                        assert_eq!(
                            locate_hashed(&file, Some(ix), needle, &PATCH_PASSES, from, prefer),
                            locate(&file, needle, &PATCH_PASSES, from, prefer),
                            "{needle:?} from {from}"
                        );
                    }
                }
            }
        }
        assert_eq!(
            locate_hashed(
                &file,
                Some(other),
                &["x"],
                &PATCH_PASSES,
                0,
                Prefer::Nothing
            ),
            locate(&file, &["x"], &PATCH_PASSES, 0, Prefer::Nothing)
        );
    }

    #[test]
    fn hashed_search_gives_the_same_answers() {
        let file = SAMPLE_FILE;
        assert_as_scan(
            &[&LineIndex::hashes(&file), &LineIndex::new(&file)],
            &LineIndex::new(&file[..2]),
        );
        assert_ne!(line_hash("abcdefgh1"), line_hash("abcdefgh2"));
    }

    #[test]
    fn an_index_of_some_needles_gives_the_same_answers() {
        let file = SAMPLE_FILE;
        // Every needle registered; none; a few (the others are then
        // searched by their registered lines, or by a scan).
        let all =
            LineIndex::for_needles(&file, SAMPLE_NEEDLES.iter().flat_map(|n| n.iter().copied()));
        let none = LineIndex::for_needles(&file, std::iter::empty());
        let some = LineIndex::for_needles(
            &file,
            ["b", "zz", "a long line of more than eight bytes"].into_iter(),
        );
        assert_as_scan(
            &[&all, &none, &some],
            &LineIndex::for_needles(&file[..2], ["x"].into_iter()),
        );
        // Lines whose keys agree (length, first, middle and last words)
        // but whose text differs are not a match.
        let alike = [
            "abcdefgh.1.ijklmnopqr.3.stuvwxyz",
            "abcdefgh.2.ijklmnopqr.4.stuvwxyz",
        ];
        let ix = LineIndex::for_needles(&alike, alike[..1].iter().copied());
        assert_eq!(line_key(alike[0]), line_key(alike[1]));
        for needle in [&alike[..1], &alike[1..]] {
            assert_eq!(
                locate_hashed(
                    &alike,
                    Some(&ix),
                    needle,
                    &[Pass::Exact],
                    0,
                    Prefer::Nothing
                ),
                locate(&alike, needle, &[Pass::Exact], 0, Prefer::Nothing)
            );
        }
    }

    #[test]
    fn tolerant_passes_name_themselves() {
        let file = ["  let s = \u{201C}hi\u{201D}; // a \u{2014} b  "];
        assert_eq!(
            locate(
                &file,
                &["  let s = \u{201C}hi\u{201D}; // a \u{2014} b"],
                &PATCH_PASSES,
                0,
                Prefer::Nothing
            ),
            Located::Unique {
                start: 0,
                pass: Pass::TrailingWhitespace,
                preferred: false
            }
        );
        assert_eq!(
            locate(
                &file,
                &["let s = \u{201C}hi\u{201D}; // a \u{2014} b"],
                &PATCH_PASSES,
                0,
                Prefer::Nothing
            ),
            Located::Unique {
                start: 0,
                pass: Pass::Whitespace,
                preferred: false
            }
        );
        assert_eq!(
            locate(
                &file,
                &["let s = \"hi\"; // a - b"],
                &PATCH_PASSES,
                0,
                Prefer::Nothing
            ),
            Located::Unique {
                start: 0,
                pass: Pass::Punctuation,
                preferred: false
            }
        );
        assert_eq!(
            locate(
                &file,
                &["let s = \"hi\"; // a - b"],
                &PATCH_PASSES[..3],
                0,
                Prefer::Nothing
            ),
            Located::NotFound
        );
    }

    /// The window check a search must agree with: every start whose lines
    /// all match under `pass`.
    fn naive_starts(file: &[&str], needle: &[&str], pass: Pass, from: usize) -> Vec<usize> {
        let n = needle.len();
        if n == 0 || n > file.len() {
            return Vec::new();
        }
        (from..=file.len() - n)
            .filter(|&i| match pass {
                Pass::BoundaryPrefix => tolerant::boundary_window(&file[i..i + n], needle),
                Pass::Substring => (0..n).all(|k| {
                    let (f, w) = (file[i + k], needle[k]);
                    match (k == 0, k + 1 == n) {
                        (true, true) => f.contains(w),
                        (true, false) => f.ends_with(w),
                        (false, true) => f.starts_with(w),
                        (false, false) => f == w,
                    }
                }),
                _ => (0..n).all(|k| pass.normalize(file[i + k]) == pass.normalize(needle[k])),
            })
            .collect()
    }

    #[test]
    fn searches_in_one_pass_find_what_a_window_check_finds() {
        // Few distinct lines, so that needles recur, overlap and share prefixes.
        let pool = [
            "a",
            " a",
            "a ",
            "b",
            "  b",
            "",
            "  ",
            "\u{2014}x",
            "-x",
            "abcdefgh",
            "abcdefghij",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for _ in 0..400 {
            let file: Vec<&str> = (0..next(30)).map(|_| pool[next(pool.len())]).collect();
            let needle: Vec<&str> = (0..1 + next(5)).map(|_| pool[next(pool.len())]).collect();
            let from = next(4);
            for pass in [
                Pass::Exact,
                Pass::TrailingWhitespace,
                Pass::Whitespace,
                Pass::Punctuation,
                Pass::BoundaryPrefix,
                Pass::Substring,
            ] {
                assert_eq!(
                    find_all(&file, &needle, pass, from),
                    naive_starts(&file, &needle, pass, from),
                    "{pass:?} {needle:?} in {file:?} from {from}"
                );
            }
        }
    }

    #[test]
    fn a_run_of_identical_lines_is_searched_once() {
        // 3,000 identical needle lines in a run of 4,000: 1,001 places,
        // found by the one-pass search as by the window check.
        let file: Vec<String> = (0..5000)
            .map(|i| {
                if (500..4500).contains(&i) {
                    "  same();".to_string()
                } else {
                    format!("v{i}")
                }
            })
            .collect();
        let needle = vec!["same();"; 3000];
        let starts = find_all(&file, &needle, Pass::Whitespace, 0);
        assert_eq!(starts.len(), 1001);
        assert_eq!((starts[0], starts[1000]), (500, 1500));
    }
}
