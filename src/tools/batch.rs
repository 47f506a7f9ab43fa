//! Many `edit_file` edits to one file, placed with one pass over the file.
//!
//! Each edit of a batch must find its old text exactly once in the file as
//! the edits before it left it, so placing them one by one reads the whole
//! file once per edit, and a 100,000-edit call on a 100,000-line file
//! reads it 100,000 times. Here every old text of the run is looked for at
//! once ([`Finder`]): one pass over the file as it was finds where each
//! occurs, and the edits are then placed in order from those
//! positions: an occurrence still counts while no earlier edit replaced any
//! of its bytes.
//!
//! That count is the file's own only while no old text of a later edit
//! occurs across the text an earlier edit wrote. So after each edit the
//! written text and enough bytes on either side are scanned for every later
//! old text; an occurrence there ends the run. Whatever the run cannot
//! decide exactly (no occurrence left, several, text written before or on
//! the same lines) is left to the one-by-one search, from that edit on, so
//! answers never differ, only the time they take.

use std::collections::{BTreeMap, HashMap};

use super::calls::Planned;
use super::ops::Op;
use super::state::{search_passes, FileState, Outcome};
use crate::apply::Matching;
use crate::locate::tolerant::{line_window, literal_match_in};
use crate::locate::Pass;

/// Fewer edits than this go one by one: setting up the one pass costs more
/// than it saves.
pub(crate) const MIN_EDITS: usize = 8;

/// How many occurrences of one old text are kept: an edit needs exactly one
/// left, and earlier edits of a batch rarely remove more than a few.
const KEPT_OCCURRENCES: usize = 4;

/// One edit of a run, its texts in the file's LF form.
struct RunEdit {
    old: String,
    new: String,
}

/// How many edits from the first of `items` on form a run (edits that
/// replace one place each in the same file), and the outcomes of those
/// placed in one pass (none for a run shorter than [`MIN_EDITS`]): the
/// caller places the rest one by one.
pub(super) fn place_ahead(
    state: &mut FileState,
    items: &[Planned],
    matching: Matching,
) -> (usize, Vec<Outcome>) {
    let path = items.first().map(|item| item.path.as_str());
    let edits: Vec<RunEdit> = items
        .iter()
        .map_while(|item| match &item.op {
            Ok(Op::Replace {
                old,
                new,
                replace_all: false,
            }) if Some(item.path.as_str()) == path && old != new && !old.is_empty() => {
                Some(RunEdit {
                    old: state.normalise(old),
                    new: state.normalise(new),
                })
            }
            _ => None,
        })
        .collect();
    let outcomes = place_run(state, &edits, search_passes(matching));
    (edits.len(), outcomes)
}

/// Places the longest first part of `edits` this pass can decide, changes
/// `state` as placing them one by one would, and returns their outcomes
/// (one per placed edit, in order). The caller places the rest one by one.
fn place_run(state: &mut FileState, edits: &[RunEdit], passes: &[Pass]) -> Vec<Outcome> {
    if edits.len() < MIN_EDITS || state.unusable.is_some() {
        return Vec::new();
    }
    let Some(body) = state.body.as_deref() else {
        return Vec::new();
    };
    let Some(placed) = Placer::new(body, edits).map(|p| p.run(passes)) else {
        return Vec::new();
    };
    if placed.is_empty() {
        return Vec::new();
    }
    let (next, replaced) = spliced_run(body, &placed);
    state.provenance.replace(&replaced);
    state.body = Some(next);
    state.touched = true;
    placed
        .into_iter()
        .map(|p| Outcome::ok(Some(p.line), Some(p.pass)))
        .collect()
}

/// `body` with every placed edit's replacement in place of the bytes it
/// replaced (placements never overlap), and each `(start, end, new length)`
/// in body order, as the line provenance takes them.
fn spliced_run(body: &str, placed: &[Placed]) -> (String, Vec<(usize, usize, usize)>) {
    let mut by_start: Vec<&Placed> = placed.iter().collect();
    by_start.sort_unstable_by_key(|p| p.start);
    let mut replaced = Vec::with_capacity(placed.len());
    let mut next = String::with_capacity(body.len());
    let mut at = 0;
    for p in by_start {
        next.push_str(&body[at..p.start]);
        next.push_str(&p.replacement);
        replaced.push((p.start, p.end, p.replacement.len()));
        at = p.end;
    }
    next.push_str(&body[at..]);
    (next, replaced)
}

/// One placed edit: the bytes it replaced in the body before the run.
struct Placed {
    start: usize,
    end: usize,
    replacement: String,
    line: u32,
    /// The 1-based line, in the text the edits before it left, where its
    /// old text occurs.
    found_line: u32,
    pass: Pass,
}

/// Where the live preview's one-pass run placed an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PreviewPlaced {
    /// The line the applier reports for it (`estimatedLine`).
    pub line: u32,
    /// The line its old text occurs at, as the preview's search finds it.
    pub found_line: u32,
}

/// The edits of one streaming `edit_file` call, each as the arguments of a
/// call of its own (as the preview judges them), placed with one pass over
/// `content`: the first of them that the one-by-one applier places exactly
/// like this, and the file after them. `None` when the file is not one the
/// pass composes byte for byte (CRLF, a BOM, binary) or no edit was placed.
///
/// The pass stops before an edit that reaches the end of the file and
/// changes whether it ends with a newline: one by one, the file written
/// after each edit keeps its final newline as it was, while a run keeps the
/// body as edited until it is written.
pub(crate) fn place_for_preview(
    content: &str,
    edits: &[serde_json::Value],
) -> Option<(Vec<PreviewPlaced>, String)> {
    let decoded = crate::text::TextFile::decode(content.as_bytes()).ok()?;
    if decoded.body != content {
        return None;
    }
    let run: Vec<RunEdit> = edits
        .iter()
        .map_while(|args| {
            let call = super::ToolCall::new("edit_file", args.clone());
            match super::calls::plan(std::slice::from_ref(&call), None).as_slice() {
                [Planned {
                    op:
                        Ok(Op::Replace {
                            old,
                            new,
                            replace_all: false,
                        }),
                    ..
                }] if old != new
                    && !old.is_empty()
                    // Taken as written: the preview searched for this text.
                    && args["old_string"] == old.as_str()
                    && args["new_string"] == new.as_str() =>
                {
                    Some(RunEdit {
                        old: crate::text::to_lf(old).into_owned(),
                        new: crate::text::to_lf(new).into_owned(),
                    })
                }
                _ => None,
            }
        })
        .collect();
    if run.len() < MIN_EDITS {
        return None;
    }
    let passes = search_passes(crate::apply::TOOL_CALLS_MATCHING);
    let mut placed = Placer::new(content, &run)?.run(passes);
    let ends_with_lf = content.ends_with('\n');
    let keep = placed
        .iter()
        .position(|p| {
            p.end == content.len()
                && (p.replacement.is_empty() || p.replacement.ends_with('\n') != ends_with_lf)
        })
        .unwrap_or(placed.len());
    placed.truncate(keep);
    if placed.is_empty() {
        return None;
    }
    let (after, _) = spliced_run(content, &placed);
    let lines = placed
        .iter()
        .map(|p| PreviewPlaced {
            line: p.line,
            found_line: p.found_line,
        })
        .collect();
    Some((lines, after))
}

struct Placer<'a> {
    body: &'a str,
    edits: &'a [RunEdit],
    /// The edits' old texts.
    finder: Finder<'a>,
    /// Each edit's old text, as a pattern of the finder.
    pattern_of: Vec<usize>,
    /// Per pattern: where it occurs in the body (at most
    /// [`KEPT_OCCURRENCES`]) and whether it occurs more often.
    occurrences: Vec<(Vec<usize>, bool)>,
    /// Per pattern: the last edit that looks for it.
    last_use: Vec<usize>,
    /// Per edit: the longest old text of the edits after it.
    longest_after: Vec<usize>,
    /// The body's LF offsets, for line numbers.
    line_feeds: Vec<usize>,
    /// Where a placed edit may start (each occurrence and its line's
    /// start), sorted: the slots of `shifts`.
    starts: Vec<usize>,
    /// Lines each placed edit added (or removed), summed by start.
    shifts: Fenwick,
    /// Replaced ranges of the body, by start: (end, index into `placed`).
    replaced: BTreeMap<usize, (usize, usize)>,
    /// Work left (bytes scanned, candidates compared) before the pass
    /// leaves the rest to the one-by-one search.
    budget: usize,
}

impl<'a> Placer<'a> {
    fn new(body: &'a str, edits: &'a [RunEdit]) -> Option<Placer<'a>> {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut patterns: Vec<&str> = Vec::new();
        let mut last_use = Vec::new();
        let pattern_of: Vec<usize> = edits
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let id = *ids.entry(e.old.as_str()).or_insert_with(|| {
                    patterns.push(e.old.as_str());
                    last_use.push(0);
                    patterns.len() - 1
                });
                last_use[id] = i;
                id
            })
            .collect();
        let finder = Finder::new(patterns.iter().map(|p| p.as_bytes()).collect());
        let reply = edits.iter().fold(0usize, |sum, e| {
            sum.saturating_add(e.old.len() + e.new.len())
        });
        let mut budget = body
            .len()
            .saturating_add(reply)
            .saturating_mul(4)
            .saturating_add(65_536);
        let mut occurrences = vec![(Vec::new(), false); patterns.len()];
        let complete = finder.each(body.as_bytes(), &mut budget, |id, start| {
            let (kept, more) = &mut occurrences[id];
            if kept.len() < KEPT_OCCURRENCES {
                kept.push(start);
            } else {
                *more = true;
            }
        });
        if !complete {
            return None;
        }
        let mut longest_after = vec![0; edits.len()];
        for i in (0..edits.len().saturating_sub(1)).rev() {
            longest_after[i] = longest_after[i + 1].max(edits[i + 1].old.len());
        }
        let line_feeds = memchr::memchr_iter(b'\n', body.as_bytes()).collect();
        let mut starts: Vec<usize> = occurrences
            .iter()
            .flat_map(|(kept, _)| kept.iter())
            .flat_map(|&at| [at, body[..at].rfind('\n').map_or(0, |lf| lf + 1)])
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let shifts = Fenwick::new(starts.len());
        Some(Placer {
            body,
            edits,
            finder,
            pattern_of,
            occurrences,
            last_use,
            longest_after,
            line_feeds,
            starts,
            shifts,
            replaced: BTreeMap::new(),
            budget,
        })
    }

    fn run(mut self, passes: &[Pass]) -> Vec<Placed> {
        let mut placed: Vec<Placed> = Vec::new();
        for (i, edit) in self.edits.iter().enumerate() {
            let Some(p) = self.place(i, edit, passes, &placed) else {
                break;
            };
            let (start, end) = (p.start, p.end);
            self.replaced.insert(start, (end, placed.len()));
            placed.push(p);
            let added = count_lf(&placed[placed.len() - 1].replacement) as i64
                - count_lf(&self.body[start..end]) as i64;
            if let Ok(slot) = self.starts.binary_search(&start) {
                self.shifts.add(slot, added);
            }
            if i + 1 < self.edits.len() && !self.written_is_clear(i, start, end, &placed) {
                break;
            }
        }
        placed
    }

    /// Where edit `i` goes, when its one occurrence is certain and its
    /// lines are the body's own.
    fn place(
        &self,
        i: usize,
        edit: &RunEdit,
        passes: &[Pass],
        placed: &[Placed],
    ) -> Option<Placed> {
        let old_len = edit.old.len();
        let (kept, more) = &self.occurrences[self.pattern_of[i]];
        if *more {
            return None;
        }
        let mut left = kept.iter().filter(|&&at| !self.touches(at, at + old_len));
        let at = *left.next()?;
        if left.next().is_some() {
            return None;
        }
        // The lines it touches (and the next one, for a final LF) must be
        // the body's, or the line passes would see other text.
        let (from, to) = line_window(self.body, at, at + old_len);
        if self.touches(from, to) || !self.line_starts_at(from, placed) {
            return None;
        }
        let mut m = literal_match_in(
            &self.body[from..to],
            at - from,
            &edit.old,
            &edit.new,
            passes,
        );
        m.start += from;
        m.end += from;
        if m.end <= m.start {
            return None;
        }
        let line_at = |offset: usize| -> Option<u32> {
            let slot = self.starts.binary_search(&offset).ok()?;
            let line = 1
                + self.line_feeds.partition_point(|&lf| lf < offset) as i64
                + self.shifts.sum_before(slot);
            u32::try_from(line).ok()
        };
        Some(Placed {
            start: m.start,
            end: m.end,
            line: line_at(m.start)?,
            found_line: line_at(at)?,
            replacement: m.replacement,
            pass: m.pass,
        })
    }

    /// Whether any replaced range shares a byte with `start..end`.
    fn touches(&self, start: usize, end: usize) -> bool {
        self.replaced
            .range(..end)
            .next_back()
            .is_some_and(|(_, &(replaced_end, _))| replaced_end > start)
    }

    /// Whether body offset `at`, a line start of the body, is one of the
    /// current text too: the text before it, if any, still ends with a LF.
    fn line_starts_at(&self, at: usize, placed: &[Placed]) -> bool {
        if at == 0 || !self.touches(at - 1, at) {
            return true;
        }
        let Some((&start, &(_, index))) = self.replaced.range(..at).next_back() else {
            return true;
        };
        match placed[index].replacement.as_bytes().last() {
            Some(&last) => last == b'\n',
            None => {
                start == 0
                    || (self.body.as_bytes()[start - 1] == b'\n' && !self.touches(start - 1, start))
            }
        }
    }

    /// Whether no old text of an edit after `i` occurs across the text edit
    /// `i` wrote in place of `start..end`.
    fn written_is_clear(&mut self, i: usize, start: usize, end: usize, placed: &[Placed]) -> bool {
        let reach = self.longest_after[i].saturating_sub(1);
        let written = placed[placed.len() - 1].replacement.as_bytes();
        let before = self.text_before(start, reach, placed);
        let after = self.text_after(end, reach, placed);
        let cost = before.len() + written.len() + after.len();
        let Some(left) = self.budget.checked_sub(cost) else {
            return false;
        };
        self.budget = left;
        let mut window = before;
        let (from, to) = (window.len(), window.len() + written.len());
        window.extend_from_slice(written);
        window.extend_from_slice(&after);
        let last_use = &self.last_use;
        let patterns = &self.finder.patterns;
        let mut clear = true;
        let complete = self.finder.each(&window, &mut self.budget, |id, start| {
            let end = start + patterns[id].len();
            let across = if from == to {
                start < from && end > from
            } else {
                start < to && end > from
            };
            clear &= !(across && last_use[id] > i);
        });
        complete && clear
    }

    /// Up to `reach` bytes of the current text just before body offset `at`.
    fn text_before(&self, at: usize, reach: usize, placed: &[Placed]) -> Vec<u8> {
        let mut parts: Vec<&[u8]> = Vec::new();
        let (mut need, mut cursor) = (reach, at);
        for (&start, &(end, index)) in self.replaced.range(..at).rev() {
            if need == 0 {
                break;
            }
            for part in [
                &self.body.as_bytes()[end..cursor],
                placed[index].replacement.as_bytes(),
            ] {
                let take = need.min(part.len());
                parts.push(&part[part.len() - take..]);
                need -= take;
            }
            cursor = start;
        }
        let gap = &self.body.as_bytes()[..cursor];
        let take = need.min(gap.len());
        parts.push(&gap[gap.len() - take..]);
        parts.reverse();
        parts.concat()
    }

    /// Up to `reach` bytes of the current text just after body offset `at`.
    fn text_after(&self, at: usize, reach: usize, placed: &[Placed]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut cursor = at;
        for (&start, &(end, index)) in self.replaced.range(at..) {
            if out.len() >= reach {
                break;
            }
            for part in [
                &self.body.as_bytes()[cursor..start],
                placed[index].replacement.as_bytes(),
            ] {
                let take = (reach - out.len()).min(part.len());
                out.extend_from_slice(&part[..take]);
            }
            cursor = end;
        }
        let gap = &self.body.as_bytes()[cursor..];
        let take = (reach - out.len().min(reach)).min(gap.len());
        out.extend_from_slice(&gap[..take]);
        out
    }
}

fn count_lf(text: &str) -> usize {
    crate::text::count_lf(text.as_bytes())
}

/// Sums over a prefix of slots, with single-slot additions, in log time.
struct Fenwick(Vec<i64>);

impl Fenwick {
    fn new(len: usize) -> Fenwick {
        Fenwick(vec![0; len + 1])
    }

    fn add(&mut self, slot: usize, value: i64) {
        let mut i = slot + 1;
        while i < self.0.len() {
            self.0[i] += value;
            i += i & i.wrapping_neg();
        }
    }

    /// The sum of the slots before `slot`.
    fn sum_before(&self, slot: usize) -> i64 {
        let (mut i, mut sum) = (slot, 0);
        while i > 0 {
            sum += self.0[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

/// The old texts of a run, found together in one text: each by a hash of
/// its first bytes (at most [`ANCHOR_BYTES`]), rolled over the text once
/// per anchor length present, and compared in full where that hash is one
/// of theirs. (A general multi-pattern automaton, `aho-corasick`, did the
/// same for 30 KiB more of the gzipped module.)
struct Finder<'p> {
    patterns: Vec<&'p [u8]>,
    /// Per anchor length: its patterns.
    anchors: Vec<Anchors>,
    /// One bit per low-bits value of every anchor hash: most positions of
    /// a text are passed over on one lookup.
    seen: Vec<u64>,
    mask: u64,
}

/// The longest anchor: long enough that different old texts rarely share
/// one, short enough that few old texts are shorter.
const ANCHOR_BYTES: usize = 16;

/// The rolling hash's base (odd, so powers of it never vanish mod 2^64).
const BASE: u64 = 0x0100_0000_01b3;

impl<'p> Finder<'p> {
    fn new(patterns: Vec<&'p [u8]>) -> Finder<'p> {
        let bits = (patterns.len().min(1 << 24) * 16)
            .next_power_of_two()
            .max(4096);
        let mask = bits as u64 - 1;
        let mut seen = vec![0u64; bits / 64];
        let mut by_len: BTreeMap<usize, Vec<(u64, u32)>> = BTreeMap::new();
        for (id, p) in patterns.iter().enumerate() {
            let len = p.len().min(ANCHOR_BYTES);
            let hash = hash_of(&p[..len]);
            seen[((hash & mask) / 64) as usize] |= 1 << (hash & 63);
            by_len.entry(len).or_default().push((hash, id as u32));
        }
        let anchors = by_len
            .into_iter()
            .map(|(len, list)| Anchors::new(len, list))
            .collect();
        Finder {
            patterns,
            anchors,
            seen,
            mask,
        }
    }

    /// Calls `found(pattern, start)` for every occurrence of every pattern
    /// in `text`, overlapping ones included, in no set order. Each position
    /// whose anchor hash is a pattern's costs a unit of `budget`; false
    /// (the search given up) when it runs out.
    fn each(&self, text: &[u8], budget: &mut usize, mut found: impl FnMut(usize, usize)) -> bool {
        for anchors in &self.anchors {
            let (len, list) = (anchors.len, &anchors.list);
            if text.len() < len {
                continue;
            }
            // An empty pattern has anchors of length 0: the exponent wraps,
            // as the hash does (`top` is then never used).
            let top = BASE.wrapping_pow((len as u32).wrapping_sub(1));
            let mut hash = hash_of(&text[..len]);
            for start in 0..=text.len() - len {
                if start > 0 {
                    hash = hash
                        .wrapping_sub(u64::from(text[start - 1]).wrapping_mul(top))
                        .wrapping_mul(BASE)
                        .wrapping_add(u64::from(text[start + len - 1]));
                }
                let slot = hash & self.mask;
                if self.seen[(slot / 64) as usize] & (1 << (hash & 63)) == 0 {
                    continue;
                }
                let Some(first) = anchors.first(hash) else {
                    continue;
                };
                for &(h, id) in &list[first..] {
                    if h != hash {
                        break;
                    }
                    let Some(left) = budget.checked_sub(1) else {
                        return false;
                    };
                    *budget = left;
                    if text[start..].starts_with(self.patterns[id as usize]) {
                        found(id as usize, start);
                    }
                }
            }
        }
        true
    }
}

/// The patterns of one anchor length, by anchor hash.
struct Anchors {
    len: usize,
    /// (anchor hash, pattern), sorted.
    list: Vec<(u64, u32)>,
    /// Open addressing over the distinct hashes: where each one's run in
    /// `list` starts (`u32::MAX`: empty). One probe where a sorted search
    /// of a large list would miss the cache a dozen times.
    table: Vec<u32>,
}

impl Anchors {
    fn new(len: usize, mut list: Vec<(u64, u32)>) -> Anchors {
        list.sort_unstable();
        let mut table = vec![u32::MAX; (2 * list.len()).next_power_of_two()];
        let mask = table.len() - 1;
        for (at, &(hash, _)) in list.iter().enumerate() {
            if at > 0 && list[at - 1].0 == hash {
                continue;
            }
            let mut slot = spread(hash) & mask;
            while table[slot] != u32::MAX {
                slot = (slot + 1) & mask;
            }
            table[slot] = at as u32;
        }
        Anchors { len, list, table }
    }

    /// Where the patterns with this anchor hash start in `list`.
    fn first(&self, hash: u64) -> Option<usize> {
        let mask = self.table.len() - 1;
        let mut slot = spread(hash) & mask;
        loop {
            let at = *self.table.get(slot)?;
            if at == u32::MAX {
                return None;
            }
            if self.list[at as usize].0 == hash {
                return Some(at as usize);
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// A table slot from a hash: its high bits, mixed.
fn spread(hash: u64) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
}

fn hash_of(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |h, &b| {
        h.wrapping_mul(BASE).wrapping_add(u64::from(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::apply::replace;

    /// The outcomes and written bytes of `edits` over `file`: the run's
    /// first part placed in one pass, then one by one until an edit fails
    /// (as `apply_tool_calls` does), or, with `one_pass` false, all one by one.
    fn apply(
        file: &str,
        edits: &[(String, String)],
        matching: Matching,
        one_pass: bool,
    ) -> (Vec<Outcome>, Option<String>, usize) {
        let mut state = FileState::read(file.as_bytes());
        let run: Vec<RunEdit> = edits
            .iter()
            .map(|(old, new)| RunEdit {
                old: state.normalise(old),
                new: state.normalise(new),
            })
            .collect();
        let mut outcomes = if one_pass {
            place_run(&mut state, &run, search_passes(matching))
        } else {
            Vec::new()
        };
        let placed = outcomes.len();
        for (old, new) in &edits[placed..] {
            let outcome = replace(&mut state, old, new, false, matching);
            let failed = outcome.status == crate::result::Status::Failed;
            outcomes.push(outcome);
            if failed {
                break;
            }
        }
        (outcomes, state.written(), placed)
    }

    fn numbered(lines: usize) -> String {
        (0..lines)
            .map(|i| format!("    let value_{i} = compute({i});\r\n"))
            .collect()
    }

    #[test]
    fn a_run_of_unique_edits_is_placed_in_one_pass_as_one_by_one_places_it() {
        let file = numbered(40);
        // Out of file order, one deleting a whole line, one with its
        // indentation wrong (placed by the whitespace pass).
        let mut edits: Vec<(String, String)> = (0..30)
            .rev()
            .map(|i| {
                (
                    format!("value_{i} = compute("),
                    format!("value_{i} = compute2("),
                )
            })
            .collect();
        edits.push(("    let value_35 = compute(35);\n".into(), String::new()));
        edits.push((
            "let value_36 = compute(36);".into(),
            "let value_36 = 0;\nlet more = 1;".into(),
        ));
        for matching in [Matching::Tolerant, Matching::Exact] {
            let (one_pass, written, placed) = apply(&file, &edits, matching, true);
            assert_eq!(placed, edits.len());
            let (reference, expected, _) = apply(&file, &edits, matching, false);
            assert_eq!(one_pass, reference);
            assert_eq!(written, expected);
        }
        let written = apply(&file, &edits, Matching::Tolerant, true).1.unwrap();
        assert!(written.contains("    let value_36 = 0;\r\n    let more = 1;\r\n"));
        assert!(!written.contains("value_35"));
    }

    #[test]
    fn an_edit_that_needs_text_an_earlier_one_wrote_is_left_to_the_one_by_one_search() {
        let file = numbered(20);
        let mut edits: Vec<(String, String)> = (0..12)
            .map(|i| {
                (
                    format!("value_{i} = compute("),
                    format!("value_{i} = compute2("),
                )
            })
            .collect();
        // Edit 12 finds what edit 3 wrote; edit 13 is ambiguous once edit 12 made a second copy.
        edits.push((
            "value_3 = compute2(3)".into(),
            "value_3 = compute(19)".into(),
        ));
        edits.push(("compute(19)".into(), "x".into()));
        let (one_pass, written, placed) = apply(&file, &edits, Matching::Exact, true);
        assert_eq!(
            placed, 4,
            "the run stops after the edit whose text a later edit looks for"
        );
        let (reference, expected, _) = apply(&file, &edits, Matching::Exact, false);
        assert_eq!(one_pass, reference);
        assert_eq!(written, expected);
        assert_eq!(
            reference.last().map(|o| o.status),
            Some(crate::result::Status::Failed)
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;

        const PIECES: [&str; 10] = [
            "a", "ab", "b\n", "\n", "  ab\n", "x = 1;\n", "\tb", "é", "ab\r\n", "line ",
        ];

        /// Pieces that repeat, each third one numbered so that many cuts
        /// of the text occur once.
        fn texts(picks: &[usize]) -> String {
            picks
                .iter()
                .enumerate()
                .map(|(i, &p)| match p % 3 {
                    0 => format!("{}#{i}", PIECES[p % PIECES.len()]),
                    _ => PIECES[p % PIECES.len()].to_string(),
                })
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]

            /// Edits cut from the text as the edits before left it (so some
            /// need what an earlier edit wrote, some are ambiguous, some
            /// occur only with other whitespace): the same outcomes and bytes
            /// as placing every edit one by one.
            #[test]
            fn one_pass_gives_what_one_by_one_gives(
                file in proptest::collection::vec(0usize..10, 0..60),
                cuts in proptest::collection::vec((0usize..1000, 2usize..10, proptest::collection::vec(0usize..10, 0..4)), 8..24),
                exact in any::<bool>(),
            ) {
                let file = texts(&file);
                let matching = if exact { Matching::Exact } else { Matching::Tolerant };
                let mut current = FileState::read(file.as_bytes());
                let mut edits = Vec::new();
                for (at, len, new) in cuts {
                    let body = current.body.clone().unwrap_or_default();
                    let mut start = if body.is_empty() { 0 } else { at % body.len() };
                    while !body.is_char_boundary(start) { start -= 1; }
                    let mut end = (start + len).min(body.len());
                    while !body.is_char_boundary(end) { end += 1; }
                    let old = body[start..end].to_string();
                    let new = texts(&new);
                    if old.is_empty() || old == new { continue; }
                    replace(&mut current, &old, &new, false, matching);
                    edits.push((old, new));
                }
                let (one_pass, written, _) = apply(&file, &edits, matching, true);
                let (reference, expected, _) = apply(&file, &edits, matching, false);
                prop_assert_eq!(one_pass, reference);
                prop_assert_eq!(written, expected);
            }

            /// An empty pattern (what an old text of blanks normalises to)
            /// is searched without overflow (found by the tool_calls fuzz target).
            #[test]
            fn an_empty_pattern_is_searched_without_overflow(text in "[ab\n]{0,20}") {
                let finder = Finder::new(vec![b"".as_slice(), b"a".as_slice()]);
                let mut budget = usize::MAX;
                let searched = finder.each(text.as_bytes(), &mut budget, |_, _| ());
                prop_assert!(searched);
            }

            /// Every occurrence of every pattern, overlapping ones and those
            /// of patterns longer and shorter than an anchor included.
            #[test]
            fn the_finder_finds_what_a_plain_search_finds(
                text in "[ab\n]{0,80}",
                patterns in proptest::collection::vec("[ab\n]{1,20}", 1..12),
            ) {
                let finder = Finder::new(patterns.iter().map(|p| p.as_bytes()).collect());
                let mut found = Vec::new();
                let mut budget = usize::MAX;
                prop_assert!(finder.each(text.as_bytes(), &mut budget, |id, at| found.push((id, at))));
                found.sort_unstable();
                let mut plain = Vec::new();
                for (id, p) in patterns.iter().enumerate() {
                    for at in 0..text.len() {
                        if text.as_bytes()[at..].starts_with(p.as_bytes()) {
                            plain.push((id, at));
                        }
                    }
                }
                prop_assert_eq!(found, plain);
            }

            /// Numbered lines, edits to a line's number, its whole text (its
            /// indentation sometimes wrong) or part of it, new texts that
            /// sometimes copy another line's number: long runs placed in one
            /// pass, stopped where a number became ambiguous or was written.
            #[test]
            fn long_runs_over_numbered_lines_give_what_one_by_one_gives(
                lines in proptest::collection::vec((0usize..10, any::<bool>()), 1..80),
                picks in proptest::collection::vec((0usize..100, 0usize..4, 0usize..10, 0usize..12), 8..60),
                exact in any::<bool>(),
            ) {
                let line = |i: usize, piece: usize| format!("{i:03}:{}", PIECES[piece].trim_end());
                let file: String = lines
                    .iter()
                    .enumerate()
                    .map(|(i, &(piece, crlf))| format!("  {}{}", line(i, piece), if crlf { "\r\n" } else { "\n" }))
                    .collect();
                let edits: Vec<(String, String)> = picks
                    .iter()
                    .map(|&(at, how, piece, other)| {
                        let i = at % lines.len();
                        let old = match how {
                            0 => format!("{i:03}:"),
                            1 => format!("  {}\n", line(i, lines[i].0)),
                            2 => line(i, lines[i].0),
                            _ => format!("{i:03}:{}", PIECES[lines[i].0].chars().next().unwrap_or('a')),
                        };
                        let new = match other {
                            0 => format!("{:03}:", other % lines.len()),
                            1 => format!("{old}\n{old}"),
                            _ => format!("{i:03}={}", PIECES[piece]),
                        };
                        (old, new)
                    })
                    .collect();
                let matching = if exact { Matching::Exact } else { Matching::Tolerant };
                let (one_pass, written, _) = apply(&file, &edits, matching, true);
                let (reference, expected, _) = apply(&file, &edits, matching, false);
                prop_assert_eq!(one_pass, reference);
                prop_assert_eq!(written, expected);
            }
        }
    }
}
