//! Line diffs whose paired changed lines carry grapheme-level changed spans.
//!
//! [`diff_block`] compares two texts line by line (the `similar` crate, Myers
//! over interned lines). Inside each run of replaced lines, removed and added
//! lines that resemble each other are paired, and each pair is diffed again
//! over tokens: a run of letters and digits is one token and every other
//! extended grapheme cluster (`unicode-segmentation`) is one. So an emoji with
//! a skin tone, a flag or a letter with a combining accent is never cut in
//! two, and highlights fall on whole words (`count` → `total`, not a scatter
//! of single letters) while `_`, punctuation and spaces still split
//! identifiers (`step_two` → `step_two_updated` highlights `_updated`).
//! Scripts written without spaces (Han, kana, Thai) are compared character
//! by character. Changes separated by a sliver of unchanged text are joined.
//!
//! The worst case is bounded by budgets counted in work, never in time, so
//! the same texts give the same diff on every machine however loaded: the
//! line diff may compare [`DiffLimits::line_cells`] cells of the edit graph
//! (past that, the changed middle is shown as one replaced run), span
//! computation may spend [`DiffLimits::span_cells`] (remaining pairs are
//! shown line-level, without spans), and lines longer than
//! [`DiffLimits::max_line_bytes`] are never diffed inside.
//! [`BlockDiff::complete`] says whether a budget cut the work short.
//!
//! ```
//! use editblocks::diff::{diff_block, LineKind};
//!
//! let lines = diff_block("let count = 10;\nkeep();", "let total = 10;\nkeep();");
//! assert_eq!(lines.len(), 3);
//! assert_eq!(lines[0].kind, LineKind::Removed);
//! assert_eq!(lines[1].kind, LineKind::Added);
//! let changed: Vec<&str> = lines[1].spans.as_ref().unwrap().iter()
//!     .filter(|s| s.changed).map(|s| s.text.as_str()).collect();
//! assert_eq!(changed, ["total"]);
//! assert_eq!((lines[2].old_line, lines[2].new_line), (Some(2), Some(2)));
//! ```

use crate::text::LineText;
use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use similar::DiffOp;
#[cfg(feature = "full")]
use unicode_segmentation::UnicodeSegmentation;

/// What a line of a diff is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// In both texts.
    Context,
    /// Only in the old text.
    Removed,
    /// Only in the new text.
    Added,
}

impl LineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Context => "context",
            LineKind::Removed => "removed",
            LineKind::Added => "added",
        }
    }
}

/// A piece of a changed line; the spans of a line concatenate to its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub text: String,
    /// `true` for the part that differs from the paired line.
    pub changed: bool,
}

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    pub kind: LineKind,
    /// The line, without its line ending.
    pub text: String,
    /// 1-based line in the old text; `None` for an added line.
    pub old_line: Option<u32>,
    /// 1-based line in the new text; `None` for a removed line.
    pub new_line: Option<u32>,
    /// Present on a removed or added line that was paired with a similar
    /// line on the other side: the unchanged and changed parts, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spans: Option<Vec<Span>>,
}

/// Bounds on the work a diff may do.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffLimits {
    /// Cells of the edit graph (diagonal steps and snake moves) the line diff
    /// may visit; past that, the lines between the common head and tail are
    /// shown as one replaced run. Edits of a few thousand changed lines stay
    /// within the default.
    pub line_cells: usize,
    /// Work (token cells, or bytes for short pairs) the changed spans may take
    /// in all; the remaining changed lines are shown without spans.
    pub span_cells: usize,
    /// Lines longer than this (in bytes) are never diffed inside.
    pub max_line_bytes: usize,
    /// Paired lines must keep at least this fraction of their visible
    /// characters unchanged.
    pub min_pair_similarity: f32,
}

impl Default for DiffLimits {
    fn default() -> Self {
        DiffLimits {
            line_cells: 8_000_000,
            span_cells: 1_000_000,
            max_line_bytes: 8 * 1024,
            min_pair_similarity: 0.3,
        }
    }
}

/// A diff and whether it is as detailed as it could be.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDiff {
    pub lines: Vec<DiffLine>,
    /// `false` when a budget of [`DiffLimits`] cut the work short: the line
    /// diff may be less minimal than possible, or some changed lines carry no
    /// spans. The same texts and limits always give the same answer.
    pub complete: bool,
}

/// The line diff of `old` and `new` with changed spans on paired lines, within
/// the default [`DiffLimits`].
pub fn diff_block(old: &str, new: &str) -> Vec<DiffLine> {
    diff_block_with(old, new, &DiffLimits::default()).lines
}

/// Splits a text into lines by the one line model ([`crate::text::split_lines`]):
/// a final `'\n'` ends the last line, the CRs before a `'\n'` are part of the
/// line ending, and the empty text has no lines.
pub use crate::text::split_lines;

/// [`diff_block`] with explicit limits, reporting whether a limit was hit.
pub fn diff_block_with(old: &str, new: &str, limits: &DiffLimits) -> BlockDiff {
    let diff = diff_block_ref(old, new, limits);
    let lines = diff
        .lines
        .iter()
        .map(|l| DiffLine {
            kind: l.kind,
            text: l.text.to_string(),
            old_line: l.old_line,
            new_line: l.new_line,
            spans: l.spans.as_ref().map(|spans| {
                spans
                    .iter()
                    .map(|s| Span {
                        text: s.text.to_string(),
                        changed: s.changed,
                    })
                    .collect()
            }),
        })
        .collect();
    BlockDiff {
        lines,
        complete: diff.complete,
    }
}

/// A [`Span`] borrowing its text from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanRef<'a> {
    pub text: &'a str,
    pub changed: bool,
}

/// A [`DiffLine`] borrowing its text from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLineRef<'a> {
    pub kind: LineKind,
    pub text: &'a str,
    pub old_line: Option<u32>,
    pub new_line: Option<u32>,
    pub spans: Option<Vec<SpanRef<'a>>>,
}

/// [`diff_block_with`] without copying any text: lines and spans borrow
/// from `old` and `new`.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDiffRef<'a> {
    pub lines: Vec<DiffLineRef<'a>>,
    pub complete: bool,
}

/// Inputs at most this many lines (both sides together) need no line budget:
/// Myers is quick on them whatever they hold.
const SMALL_LINE_COUNT: usize = 2000;

/// Pairs at most this long (both lines, in bytes) are charged their length
/// times this factor instead of being measured: their token diff is small.
const SHORT_PAIR_BYTES: usize = 128;
const SHORT_PAIR_COST: usize = 8;

/// What is left of the span budget.
struct Budget {
    left: usize,
    spent_all: bool,
}

impl Budget {
    fn new(cells: usize) -> Self {
        Budget {
            left: cells,
            spent_all: false,
        }
    }

    /// Takes `cells` from the budget; `true` when it did not hold them.
    fn spend(&mut self, cells: usize) -> bool {
        if self.spent_all || cells > self.left {
            self.spent_all = true;
            self.left = 0;
        } else {
            self.left -= cells;
        }
        self.spent_all
    }
}

/// The cells a greedy forward Myers search visits to find the shortest edit
/// script of `old` and `new` (one per diagonal of each step, one per snake
/// move), or
/// `None` when that is more than `limit`. Its cost is at most `limit`, and
/// when it fits, the full Myers diff of the same pair is bounded by about
/// the same work (its edit distance is known to be small).
fn myers_cells_within<T: Eq>(old: &[T], new: &[T], limit: usize) -> Option<usize> {
    const UNSET: isize = isize::MIN;
    let (n, m) = (old.len() as isize, new.len() as isize);
    let max = old.len() + new.len();
    // Diagonal k (x - y, from -m to n) lives at index k + m.
    let mut v = vec![UNSET; max + 1];
    let at = |k: isize| (k + m) as usize;
    let mut spent = 0usize;
    for d in 0..=max as isize {
        // `similar`'s Myers walks every diagonal from -d to d at each d, even
        // the ones outside the edit graph (a long text against a short one):
        // charge that walk too, or such a pair fits here and then takes
        // quadratic time there.
        spent = spent.saturating_add(d as usize + 1);
        if spent > limit {
            return None;
        }
        let mut k = -d.min(m);
        if (k + d) % 2 != 0 {
            k += 1;
        }
        while k <= d.min(n) {
            let x = if d == 0 {
                Some(0)
            } else {
                let down = (k < d && k < n)
                    .then(|| v[at(k + 1)])
                    .filter(|&x| x != UNSET && x - k <= m);
                let right = (k > -d && k > -m)
                    .then(|| v[at(k - 1)])
                    .filter(|&x| x != UNSET && x < n)
                    .map(|x| x + 1);
                down.max(right)
            };
            let Some(mut x) = x else {
                v[at(k)] = UNSET;
                k += 2;
                continue;
            };
            let mut y = x - k;
            while x < n && y < m && old[x as usize] == new[y as usize] {
                x += 1;
                y += 1;
                spent += 1;
            }
            spent += 1;
            if spent > limit {
                return None;
            }
            if x >= n && y >= m {
                return Some(spent);
            }
            v[at(k)] = x;
            k += 2;
        }
    }
    Some(spent)
}

/// The ops of a line diff within `cells` of work, and whether it fit. When
/// it does not, the common head and tail stay equal and everything between
/// is one replaced run.
fn bounded_line_ops(old: &[u32], new: &[u32], cells: Option<usize>) -> (Vec<DiffOp>, bool) {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    if cells.map_or(true, |c| myers_cells_within(old_mid, new_mid, c).is_some()) {
        return (myers_ops(old, new), true);
    }
    let mut ops = Vec::with_capacity(3);
    if head > 0 {
        ops.push(DiffOp::Equal {
            old_index: 0,
            new_index: 0,
            len: head,
        });
    }
    ops.push(DiffOp::Replace {
        old_index: head,
        old_len: old_mid.len(),
        new_index: head,
        new_len: new_mid.len(),
    });
    if tail > 0 {
        ops.push(DiffOp::Equal {
            old_index: old.len() - tail,
            new_index: new.len() - tail,
            len: tail,
        });
    }
    (ops, false)
}

/// The work of [`diff_block_with`], borrowing the text.
pub fn diff_block_ref<'a>(old: &'a str, new: &'a str, limits: &DiffLimits) -> BlockDiffRef<'a> {
    let old_lines = split_lines(old);
    let new_lines = split_lines(new);
    let large = old_lines.len() + new_lines.len() > SMALL_LINE_COUNT;
    let mut budget = Budget::new(limits.span_cells);

    // Interning makes every comparison in the line diff an integer compare.
    let mut ids: HashMap<&str, u32, FxBuild> =
        HashMap::with_capacity_and_hasher(old_lines.len() + new_lines.len(), FxBuild);
    let mut intern = |line: &'a str| -> u32 {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(line).or_insert(next)
    };
    let old_ids: Vec<u32> = old_lines.iter().map(|&l| intern(l)).collect();
    let new_ids: Vec<u32> = new_lines.iter().map(|&l| intern(l)).collect();

    let line_cells = large.then_some(limits.line_cells);
    let (ops, mut complete) = bounded_line_ops(&old_ids, &new_ids, line_cells);

    let mut out = Vec::with_capacity(old_lines.len().max(new_lines.len()) + 8);
    // Positions are tracked here from the op lengths: after compaction the
    // index fields of a Delete or Insert op are not always the cursor.
    let (mut old_at, mut new_at) = (0usize, 0usize);
    for op in &ops {
        let (old_len, new_len) = op_lens(op);
        let old_range = old_at..(old_at + old_len).min(old_lines.len());
        let new_range = new_at..(new_at + new_len).min(new_lines.len());
        old_at += old_len;
        new_at += new_len;
        match op {
            DiffOp::Equal { .. } => {
                for (o, n) in old_range.zip(new_range) {
                    out.push(DiffLineRef {
                        kind: LineKind::Context,
                        text: old_lines.get(o).copied().unwrap_or_default(),
                        old_line: Some(line_no(o)),
                        new_line: Some(line_no(n)),
                        spans: None,
                    });
                }
            }
            DiffOp::Delete { .. } => {
                push_side(&mut out, LineKind::Removed, &old_lines, old_range, &mut [])
            }
            DiffOp::Insert { .. } => {
                push_side(&mut out, LineKind::Added, &new_lines, new_range, &mut [])
            }
            DiffOp::Replace { .. } => {
                let mut old_spans: Vec<Option<Vec<SpanRef<'a>>>> = vec![None; old_range.len()];
                let mut new_spans: Vec<Option<Vec<SpanRef<'a>>>> = vec![None; new_range.len()];
                let finished = pair_lines(
                    old_lines.get(old_range.clone()).unwrap_or_default(),
                    new_lines.get(new_range.clone()).unwrap_or_default(),
                    limits,
                    &mut budget,
                    &mut old_spans,
                    &mut new_spans,
                );
                complete &= finished;
                push_side(
                    &mut out,
                    LineKind::Removed,
                    &old_lines,
                    old_range,
                    &mut old_spans,
                );
                push_side(
                    &mut out,
                    LineKind::Added,
                    &new_lines,
                    new_range,
                    &mut new_spans,
                );
            }
        }
    }
    BlockDiffRef {
        lines: out,
        complete,
    }
}

/// A unified diff (`diff -u`) of `old` and `new`, as git and patch read it:
/// `--- a/old_name` and `+++ b/new_name` headers (`/dev/null` for a side that
/// is `None`: a created or deleted file), hunks with `context` lines around each
/// change, and `\ No newline at end of file` after a last line that has none.
/// Lines are split by the one line model (their own endings left out), and
/// the line diff is bounded by the default [`DiffLimits::line_cells`], so a
/// huge unrelated pair gives one replaced run instead of taking long.
/// Returns `""` when the texts have the same lines and the names are the
/// same, and the headers alone for a file moved unchanged.
pub fn unified_diff<'a>(
    old_name: &str,
    new_name: &str,
    old: Option<&'a str>,
    new: Option<&'a str>,
    context: usize,
) -> String {
    use std::fmt::Write as _;
    let (old_text, new_text) = (
        LineText::without_bom(old.unwrap_or("")),
        LineText::without_bom(new.unwrap_or("")),
    );
    let (old_lines, new_lines) = (old_text.lines(), new_text.lines());
    let mut ids: StrIds<'a> =
        HashMap::with_capacity_and_hasher(old_lines.len() + new_lines.len(), FxBuild);
    let mut intern = |line: &'a str| -> u32 {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(line).or_insert(next)
    };
    // A last line without its newline is a different line from the same
    // text with one: it gets an id of its own (high bit set), so it is only
    // ever context against the other side's unterminated last line.
    let (old_open, new_open) = (!old_text.final_newline(), !new_text.final_newline());
    let mut ids_of = |lines: &[&'a str], open: bool| -> Vec<u32> {
        let mut ids: Vec<u32> = lines.iter().map(|&l| intern(l)).collect();
        if let (true, Some(last)) = (open, ids.last_mut()) {
            *last |= 1 << 31;
        }
        ids
    };
    let old_ids = ids_of(&old_lines, old_open);
    let new_ids = ids_of(&new_lines, new_open);
    let large = old_lines.len() + new_lines.len() > SMALL_LINE_COUNT;
    let (ops, _) = bounded_line_ops(
        &old_ids,
        &new_ids,
        large.then_some(DiffLimits::default().line_cells),
    );
    let ops = with_cursor_indices(ops);
    let unchanged = ops.iter().all(|op| matches!(op, DiffOp::Equal { .. }));
    if unchanged && old_name == new_name {
        return String::new();
    }

    let mut out = String::new();
    let header = |side: Option<&str>, name: &str, prefix: &str| match side {
        Some(_) => format!("{prefix}/{name}"),
        None => "/dev/null".to_string(),
    };
    let _ = writeln!(out, "--- {}", header(old, old_name, "a"));
    let _ = writeln!(out, "+++ {}", header(new, new_name, "b"));
    if unchanged {
        return out;
    }
    let line = |out: &mut String, mark: char, lines: &[&str], at: usize, open: bool| {
        out.push(mark);
        out.push_str(lines.get(at).copied().unwrap_or(""));
        out.push('\n');
        if open && at + 1 == lines.len() {
            out.push_str("\\ No newline at end of file\n");
        }
    };
    for group in similar::group_diff_ops(ops, context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_start = first.old_range().start;
        let new_start = first.new_range().start;
        let old_count = last.old_range().end - old_start;
        let new_count = last.new_range().end - new_start;
        // An empty side is numbered from the line before it, as `diff -u` does.
        let from = |start: usize, count: usize| if count == 0 { start } else { start + 1 };
        let _ = writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            from(old_start, old_count),
            old_count,
            from(new_start, new_count),
            new_count
        );
        for op in &group {
            for i in op.old_range() {
                let mark = if matches!(op, DiffOp::Equal { .. }) {
                    ' '
                } else {
                    '-'
                };
                line(&mut out, mark, &old_lines, i, old_open);
            }
            if !matches!(op, DiffOp::Equal { .. }) {
                for i in op.new_range() {
                    line(&mut out, '+', &new_lines, i, new_open);
                }
            }
        }
    }
    out
}

/// `ops` with their index fields set from the op lengths: after compaction
/// the index of a Delete or Insert op is not always the cursor, and hunk
/// headers are numbered from it.
fn with_cursor_indices(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let (mut old_at, mut new_at) = (0usize, 0usize);
    ops.into_iter()
        .map(|op| {
            let (old_len, new_len) = op_lens(&op);
            let (old_index, new_index) = (old_at, new_at);
            old_at += old_len;
            new_at += new_len;
            match op {
                DiffOp::Equal { len, .. } => DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                },
                DiffOp::Delete { old_len, .. } => DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                },
                DiffOp::Insert { new_len, .. } => DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                },
                DiffOp::Replace {
                    old_len, new_len, ..
                } => DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                },
            }
        })
        .collect()
}

/// FxHash (as in rustc): much quicker than SipHash for interning lines, and
/// nothing here needs protection from chosen collisions beyond a slower diff.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxBuild;

/// Strings interned to ids, with [`FxBuild`] (also the summary's path map:
/// one hash table instantiation for both).
pub(crate) type StrIds<'a> = HashMap<&'a str, u32, FxBuild>;

#[derive(Default)]
pub(crate) struct FxHasher(u64);

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl std::hash::BuildHasher for FxBuild {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher(0)
    }
}

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(FX_K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(FX_K);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(FX_K);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// How many items an op covers in the old and the new sequence.
fn op_lens(op: &DiffOp) -> (usize, usize) {
    match *op {
        DiffOp::Equal { len, .. } => (len, len),
        DiffOp::Delete { old_len, .. } => (old_len, 0),
        DiffOp::Insert { new_len, .. } => (0, new_len),
        DiffOp::Replace {
            old_len, new_len, ..
        } => (old_len, new_len),
    }
}

fn line_no(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

fn push_side<'a>(
    out: &mut Vec<DiffLineRef<'a>>,
    kind: LineKind,
    lines: &[&'a str],
    range: Range<usize>,
    spans: &mut [Option<Vec<SpanRef<'a>>>],
) {
    let base = range.start;
    for index in range {
        let (old_line, new_line) = match kind {
            LineKind::Removed => (Some(line_no(index)), None),
            _ => (None, Some(line_no(index))),
        };
        out.push(DiffLineRef {
            kind,
            text: lines.get(index).copied().unwrap_or_default(),
            old_line,
            new_line,
            spans: spans.get_mut(index - base).and_then(Option::take),
        });
    }
}

/// Pairs similar removed and added lines in order, filling their spans.
/// Returns `false` when the budget ran out before the end.
fn pair_lines<'a>(
    old: &[&'a str],
    new: &[&'a str],
    limits: &DiffLimits,
    budget: &mut Budget,
    old_spans: &mut [Option<Vec<SpanRef<'a>>>],
    new_spans: &mut [Option<Vec<SpanRef<'a>>>],
) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        let (a, b) = (old[i], new[j]);
        let bytes = a.len() + b.len();
        let paired = if a.len() > limits.max_line_bytes || b.len() > limits.max_line_bytes {
            if budget.spend(bytes) {
                return false;
            }
            None
        } else {
            let cost = if bytes <= SHORT_PAIR_BYTES {
                Some(bytes * SHORT_PAIR_COST)
            } else {
                let (ta, tb) = (Tokens::new(a), Tokens::new(b));
                myers_cells_within(&ta.all(), &tb.all(), budget.left)
            };
            if budget.spend(cost.unwrap_or(usize::MAX)) {
                return false;
            }
            changed_spans_ref(a, b, None).filter(|p| p.similarity >= limits.min_pair_similarity)
        };
        if let Some(pair) = paired {
            if let (Some(o), Some(n)) = (old_spans.get_mut(i), new_spans.get_mut(j)) {
                *o = Some(pair.old);
                *n = Some(pair.new);
            }
            i += 1;
            j += 1;
        } else {
            // Not alike: the side with more lines left most likely holds an
            // inserted or deleted line here; with equal counts, move on both.
            let (old_left, new_left) = (old.len() - i, new.len() - j);
            if new_left > old_left {
                j += 1;
            } else if old_left > new_left {
                i += 1;
            } else {
                i += 1;
                j += 1;
            }
        }
    }
    true
}

/// The spans of a pair of lines and how alike they are, borrowing the text.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSpansRef<'a> {
    pub old: Vec<SpanRef<'a>>,
    pub new: Vec<SpanRef<'a>>,
    pub similarity: f32,
}

/// The spans of a pair of lines and how alike they are.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSpans {
    pub old: Vec<Span>,
    pub new: Vec<Span>,
    /// Unchanged visible characters over all visible characters, after the
    /// cleanup: 0.0 to 1.0.
    pub similarity: f32,
}

/// A line cut into tokens: a run of word graphemes (letters and digits) is
/// one token, and every other grapheme is a token of its own. `bounds` holds
/// the byte offset of each token's start, then the line's length, so every
/// cut falls on a grapheme boundary.
struct Tokens<'a> {
    text: &'a str,
    bounds: Vec<usize>,
}

/// Letters and digits make words; `_`, punctuation, spaces and emoji
/// separate them, so `step_two` → `step_two_updated` highlights `_updated`.
/// Scripts written without spaces (Han, kana, Thai, ...) count letter by
/// letter, or one changed character would light up a whole sentence.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        && !matches!(c as u32,
            0x0E00..=0x0EFF        // Thai, Lao
            | 0x1000..=0x109F      // Myanmar
            | 0x1780..=0x17FF      // Khmer
            | 0x3040..=0x30FF      // Hiragana, Katakana
            | 0x3400..=0x4DBF      // CJK extension A
            | 0x4E00..=0x9FFF      // CJK unified ideographs
            | 0xF900..=0xFAFF      // CJK compatibility ideographs
            | 0x20000..=0x3FFFF) // CJK extensions
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        let mut bounds = Vec::with_capacity(text.len() / 2 + 2);
        if text.is_ascii() {
            // Every ASCII byte is its own grapheme (a line holds no "\r\n").
            let bytes = text.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                bounds.push(i);
                if bytes[i].is_ascii_alphanumeric() {
                    while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                        i += 1;
                    }
                } else {
                    i += 1;
                }
            }
        } else {
            let mut in_word = false;
            for (i, g) in grapheme_indices(text) {
                let word = g.chars().next().is_some_and(is_word_char);
                if !(word && in_word) {
                    bounds.push(i);
                }
                in_word = word;
            }
        }
        bounds.push(text.len());
        Tokens { text, bounds }
    }

    fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    fn slice(&self, range: Range<usize>) -> &'a str {
        match (self.bounds.get(range.start), self.bounds.get(range.end)) {
            (Some(&s), Some(&e)) if s <= e => self.text.get(s..e).unwrap_or(""),
            _ => "",
        }
    }

    fn bytes(&self, range: Range<usize>) -> usize {
        self.slice(range).len()
    }

    fn all(&self) -> Vec<&'a str> {
        (0..self.len()).map(|i| self.slice(i..i + 1)).collect()
    }
}

/// One changed region: the tokens it covers in the old and the new line.
/// Between two regions (and before the first, after the last) the lines are
/// equal, so the gaps have the same length on both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    old: Range<usize>,
    new: Range<usize>,
}

/// The changed spans of two lines: a diff of their words and single
/// graphemes, with slivers of unchanged text between changes absorbed.
/// `None` when comparing the two lines' tokens would take more than
/// `max_cells` cells of the edit graph (no limit when `None`).
pub fn changed_spans(old: &str, new: &str, max_cells: Option<usize>) -> Option<PairSpans> {
    let owned = |spans: Vec<SpanRef>| {
        spans
            .into_iter()
            .map(|s| Span {
                text: s.text.to_string(),
                changed: s.changed,
            })
            .collect()
    };
    changed_spans_ref(old, new, max_cells).map(|p| PairSpans {
        old: owned(p.old),
        new: owned(p.new),
        similarity: p.similarity,
    })
}

/// What `similar::capture_diff_slices(Algorithm::Myers, …)` gives
/// (the same hooks: compacted, replaces paired), calling Myers directly: the
/// algorithm chosen at run time would link Patience and LCS in too, which
/// nothing here uses (7 KiB of the `editblocks/lite` module).
fn myers_ops<T: Eq + std::hash::Hash + Ord>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    use similar::algorithms::{myers, Capture, Compact, Replace};
    let mut d = Compact::new(Replace::new(Capture::new()), old, new);
    // `Capture` never fails: its error type is `Infallible`.
    let _ = myers::diff(&mut d, old, 0..old.len(), new, 0..new.len());
    d.into_inner().into_inner().into_ops()
}

/// The diff of two token lists. The full build compares the tokens as
/// strings (quickest); `editblocks/lite` interns them and diffs the ids, so
/// Myers and its compaction are compiled once, for the line diff's `u32`s
/// (the same ops: two tokens are equal exactly when their ids are).
#[cfg(feature = "full")]
fn token_ops(a: &Tokens, b: &Tokens) -> Vec<DiffOp> {
    myers_ops(&a.all(), &b.all())
}

#[cfg(not(feature = "full"))]
fn token_ops<'a>(a: &Tokens<'a>, b: &Tokens<'a>) -> Vec<DiffOp> {
    let mut ids: HashMap<&'a str, u32, FxBuild> =
        HashMap::with_capacity_and_hasher(a.len() + b.len(), FxBuild);
    let mut intern = |token: &'a str| -> u32 {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(token).or_insert(next)
    };
    let old: Vec<u32> = a.all().into_iter().map(&mut intern).collect();
    let new: Vec<u32> = b.all().into_iter().map(&mut intern).collect();
    myers_ops(&old, &new)
}

/// Where graphemes come from when the host decides them: a function given a
/// text that returns the byte offset of each grapheme's start, in order.
/// `editblocks/lite`, whose wasm leaves the Unicode tables out, installs the
/// host's segmenter (`Intl.Segmenter`); the full build segments with
/// `unicode-segmentation` unless one is installed.
pub type GraphemeSegmenter = fn(&str) -> Vec<usize>;

static SEGMENTER: std::sync::OnceLock<GraphemeSegmenter> = std::sync::OnceLock::new();

/// Installs the host's grapheme segmenter (once: later calls are ignored).
/// Where it returns offsets that are not increasing char boundaries
/// starting at 0, every character is a grapheme of its own. Without one,
/// the full build reads extended grapheme clusters from its own tables
/// (`unicode-segmentation`), and a build without the `full` feature takes
/// every character as a grapheme.
pub fn set_grapheme_segmenter(segmenter: GraphemeSegmenter) {
    let _ = SEGMENTER.set(segmenter);
}

/// The graphemes of `text` with their byte offsets.
fn grapheme_indices(text: &str) -> Graphemes<'_> {
    match SEGMENTER.get() {
        Some(segmenter) => Graphemes::starts(text, segmenter(text)),
        #[cfg(feature = "full")]
        None => Graphemes::Tables(text.grapheme_indices(true)),
        #[cfg(not(feature = "full"))]
        None => Graphemes::starts(text, Vec::new()),
    }
}

/// [`grapheme_indices`]' iterator: from the host's offsets, or from the
/// Unicode tables.
enum Graphemes<'a> {
    Starts {
        text: &'a str,
        starts: Vec<usize>,
        next: usize,
    },
    #[cfg(feature = "full")]
    Tables(unicode_segmentation::GraphemeIndices<'a>),
}

impl<'a> Graphemes<'a> {
    /// From grapheme starts; starts that are not increasing char boundaries
    /// from 0 are replaced by every char's.
    fn starts(text: &'a str, mut starts: Vec<usize>) -> Graphemes<'a> {
        let valid = starts.first().is_some_and(|&s| s == 0)
            && starts.windows(2).all(|w| w[0] < w[1])
            && starts
                .iter()
                .all(|&s| s < text.len() && text.is_char_boundary(s));
        if !valid {
            starts = text.char_indices().map(|(i, _)| i).collect();
        }
        starts.push(text.len());
        Graphemes::Starts {
            text,
            starts,
            next: 0,
        }
    }
}

impl<'a> Iterator for Graphemes<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        match self {
            Graphemes::Starts { text, starts, next } => {
                let (&s, &e) = (starts.get(*next)?, starts.get(*next + 1)?);
                *next += 1;
                Some((s, text.get(s..e).unwrap_or("")))
            }
            #[cfg(feature = "full")]
            Graphemes::Tables(graphemes) => graphemes.next(),
        }
    }
}

/// [`changed_spans`], borrowing the text.
pub fn changed_spans_ref<'a>(
    old: &'a str,
    new: &'a str,
    max_cells: Option<usize>,
) -> Option<PairSpansRef<'a>> {
    let a = Tokens::new(old);
    let b = Tokens::new(new);
    if let Some(limit) = max_cells {
        myers_cells_within(&a.all(), &b.all(), limit)?;
    }
    let ops = token_ops(&a, &b);
    let mut changes: Vec<Change> = Vec::new();
    let (mut old_at, mut new_at) = (0usize, 0usize);
    for op in &ops {
        let (old_len, new_len) = op_lens(op);
        let (o, n) = (old_at..old_at + old_len, new_at..new_at + new_len);
        old_at += old_len;
        new_at += new_len;
        if let DiffOp::Equal { .. } = op {
            continue;
        }
        match changes.last_mut() {
            Some(last) if last.old.end == o.start && last.new.end == n.start => {
                last.old.end = o.end;
                last.new.end = n.end;
            }
            _ => changes.push(Change { old: o, new: n }),
        }
    }
    let changes = join_slivers(changes, &a, &b);
    let old_spans = spans_of(&a, changes.iter().map(|c| c.old.clone()));
    let new_spans = spans_of(&b, changes.iter().map(|c| c.new.clone()));
    let similarity = similarity(&old_spans, &new_spans);
    Some(PairSpansRef {
        old: old_spans,
        new: new_spans,
        similarity,
    })
}

fn visible_graphemes(text: &str) -> usize {
    if text.is_ascii() {
        text.bytes().filter(|b| !b.is_ascii_whitespace()).count()
    } else {
        grapheme_indices(text)
            .filter(|(_, g)| !g.chars().all(char::is_whitespace))
            .count()
    }
}

/// How much of the two lines is left unchanged after the cleanup, counting
/// only visible graphemes (indentation makes unrelated lines look alike).
fn similarity(old: &[SpanRef], new: &[SpanRef]) -> f32 {
    let visible = |spans: &[SpanRef], changed: Option<bool>| -> usize {
        spans
            .iter()
            .filter(|s| changed.map_or(true, |c| s.changed == c))
            .map(|s| visible_graphemes(s.text))
            .sum()
    };
    let total = visible(old, None) + visible(new, None);
    if total == 0 {
        return 1.0;
    }
    (visible(old, Some(false)) + visible(new, Some(false))) as f32 / total as f32
}

/// Joins two changes when the unchanged text between them is no longer (in
/// bytes) than either change: a lone shared letter between two edits is noise.
fn join_slivers(changes: Vec<Change>, a: &Tokens, b: &Tokens) -> Vec<Change> {
    let size = |c: &Change| a.bytes(c.old.clone()).max(b.bytes(c.new.clone()));
    let mut out: Vec<Change> = Vec::with_capacity(changes.len());
    for c in changes {
        match out.last_mut() {
            Some(last) if a.bytes(last.old.end..c.old.start) <= size(last).min(size(&c)) => {
                last.old.end = c.old.end;
                last.new.end = c.new.end;
            }
            _ => out.push(c),
        }
    }
    out
}

fn spans_of<'a>(
    line: &Tokens<'a>,
    changed: impl Iterator<Item = Range<usize>>,
) -> Vec<SpanRef<'a>> {
    let mut spans = Vec::new();
    let mut at = 0;
    for range in changed {
        if range.start > at {
            spans.push(SpanRef {
                text: line.slice(at..range.start),
                changed: false,
            });
        }
        if !range.is_empty() {
            spans.push(SpanRef {
                text: line.slice(range.clone()),
                changed: true,
            });
        }
        at = range.end;
    }
    if at < line.len() {
        spans.push(SpanRef {
            text: line.slice(at..line.len()),
            changed: false,
        });
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_diff_reads_as_diff_u() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\nj";
        assert_eq!(
            unified_diff("x.txt", "x.txt", Some(old), Some(new), 1),
            "--- a/x.txt\n+++ b/x.txt\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -9,1 +9,2 @@\n i\n+j\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified_diff("x", "x", Some("same\n"), Some("same\n"), 3),
            ""
        );
    }

    #[test]
    fn unified_diff_of_created_deleted_and_newline_only_changes() {
        assert_eq!(
            unified_diff("n.txt", "n.txt", None, Some("one\r\ntwo\r\n"), 3),
            "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
        );
        assert_eq!(
            unified_diff("n.txt", "n.txt", Some("gone\n"), None, 3),
            "--- a/n.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n"
        );
        assert_eq!(
            unified_diff("f", "f", Some("a\nb"), Some("a\nb\n"), 3),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
        );
    }

    fn marked(spans: &[Span]) -> String {
        spans
            .iter()
            .map(|s| {
                if s.changed {
                    format!("[{}]", s.text)
                } else {
                    s.text.clone()
                }
            })
            .collect()
    }

    fn pair(a: &str, b: &str) -> (String, String) {
        let p = changed_spans(a, b, None).unwrap();
        (marked(&p.old), marked(&p.new))
    }

    #[test]
    fn identifiers_grow_by_their_suffix() {
        assert_eq!(
            pair("    step_two()", "    step_two_updated()"),
            ("    step_two()".into(), "    step_two[_updated]()".into())
        );
    }

    #[test]
    fn changes_inside_a_word_cover_the_word() {
        assert_eq!(
            pair("let count = 10;", "let total = 12;"),
            ("let [count] = [10];".into(), "let [total] = [12];".into())
        );
    }

    #[test]
    fn empty_lines_pair_cleanly() {
        assert_eq!(pair("", "x"), (String::new(), "[x]".into()));
        assert_eq!(pair("", ""), (String::new(), String::new()));
    }

    // The build without `unicode-segmentation` (editblocks/lite): run with
    // `cargo test --lib --no-default-features diff::`.
    #[cfg(not(feature = "full"))]
    #[test]
    fn a_host_segmenter_decides_the_graphemes_and_bad_offsets_fall_back_to_chars() {
        fn pairs(text: &str) -> Vec<(usize, &str)> {
            grapheme_indices(text).collect()
        }
        // No segmenter installed yet: every char is one.
        assert_eq!(pairs("e\u{301}x"), [(0, "e"), (1, "\u{301}"), (3, "x")]);
        fn host(text: &str) -> Vec<usize> {
            match text {
                // A cluster, as Intl.Segmenter would give it.
                "e\u{301}x" => vec![0, 3],
                // Inside a char, not starting at 0, not increasing, past the end.
                "\u{e9}a" => vec![0, 1],
                "ab" => vec![1],
                "abc" => vec![0, 2, 1],
                "ab\u{e9}" => vec![0, 9],
                _ => Vec::new(),
            }
        }
        set_grapheme_segmenter(host);
        assert_eq!(pairs("e\u{301}x"), [(0, "e\u{301}"), (3, "x")]);
        assert_eq!(pairs("\u{e9}a"), [(0, "\u{e9}"), (2, "a")]);
        assert_eq!(pairs("ab"), [(0, "a"), (1, "b")]);
        assert_eq!(pairs("abc"), [(0, "a"), (1, "b"), (2, "c")]);
        assert_eq!(pairs("ab\u{e9}"), [(0, "a"), (1, "b"), (2, "\u{e9}")]);
        let p = changed_spans("caf\u{e9} e\u{301}x", "caf\u{e9} e\u{300}x", None).unwrap();
        // The host gives no cluster for this text: the mark is a token alone.
        assert_eq!(marked(&p.new), "caf\u{e9} e[\u{300}]x");
        let p = changed_spans("a e\u{301}x", "a e\u{301}x!", None).unwrap();
        assert_eq!(marked(&p.new), "a e\u{301}x[!]");
    }

    #[test]
    fn split_lines_follows_line_endings() {
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(split_lines("a\r\nb\n"), ["a", "b"]);
        assert_eq!(split_lines("\n"), [""]);
    }
}
