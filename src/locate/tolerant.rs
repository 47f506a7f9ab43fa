//! Tolerant matching for search/replace text (seed 002): the passes
//! [`TOLERANT_PASSES`] of [`super::locate`], unique-only, over text that may
//! cover parts of lines.
//!
//! A model copying old text into a search/replace edit makes a few typical
//! mistakes: trailing blanks, a miscounted indentation depth, a context line
//! it did not copy to the end. The passes below forgive exactly those, one
//! at a time and strongest first. Whatever is found must be unique (or
//! every occurrence is replaced when the caller asks for that, provided no
//! two overlap), so nothing is ever applied at a guessed location.
//!
//! Text that occurs literally in the file is located literally: its
//! occurrences, anywhere, even inside lines, decide (one is applied, several
//! are ambiguous), and a tolerant pass never moves it to a place where it
//! does not occur. An occurrence that covers whole lines up to surrounding
//! whitespace is applied as the line pass that describes it (1-3 below,
//! with pass 3's indentation repair); any other is a partial-line edit
//! ([`Pass::Substring`]) that keeps the rest of its lines.
//!
//! Only text that does not occur literally goes through the line passes;
//! the first with any candidate decides, counting overlapping candidates.
//!
//! 1. [`Pass::Exact`]: whole lines, character for character (this
//!    finds old text whose final newline the file's last line lacks).
//! 2. [`Pass::TrailingWhitespace`]: whole lines, trailing spaces, tabs
//!    and `\r` ignored.
//! 3. [`Pass::Whitespace`]: whole lines, all surrounding whitespace
//!    ignored; the new text's indentation is repaired line by line where the
//!    old text's indentation was wrong.
//! 4. [`Pass::BoundaryPrefix`]: as 3, but the first and last lines of
//!    the old text may be cut-off beginnings (at least 8 characters) of the
//!    file's lines; the rest of such a line is appended to the line of the
//!    new text that corresponds to it. When none does (the line is deleted,
//!    or replaced by a different number of lines), the edit is refused
//!    ([`MatchError::CutShort`]) rather than losing the rest of the line.
//! 5. [`Pass::Substring`]: the old text anywhere, even inside a line
//!    (the literal matching above).
//!
//! Content is LF text (see [`crate::text::TextFile`]).

use super::{Pass, TOLERANT_PASSES};

/// Where `old` was found and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TolerantMatch {
    /// Byte range in the content that is replaced.
    pub start: usize,
    pub end: usize,
    pub pass: Pass,
    /// The new text, with indentation repaired or truncated lines expanded
    /// when the pass required it.
    pub replacement: String,
}

/// Why no unique match was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TolerantError {
    NotFound,
    /// 1-based first lines of every candidate in the first pass that found any.
    Ambiguous {
        pass: Pass,
        lines: Vec<u32>,
    },
}

/// [`TolerantError`] with one more case, for callers that explain refusals
/// ([`search`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchError {
    NotFound,
    /// 1-based first lines of every candidate (several, or overlapping ones
    /// for `all`), in the first pass that found any.
    Ambiguous {
        pass: Pass,
        lines: Vec<u32>,
    },
    /// Pass 4 found the one place, but a boundary line of the old text is a
    /// cut-off beginning of the file's line and the new text does not show
    /// where the rest of that line goes (the line was deleted, or replaced by
    /// a different number of lines). Nothing is applied: the rest would be
    /// lost. `line` is the 1-based file line that was cut short.
    CutShort {
        line: u32,
    },
}

impl From<MatchError> for TolerantError {
    fn from(e: MatchError) -> TolerantError {
        match e {
            MatchError::NotFound | MatchError::CutShort { .. } => TolerantError::NotFound,
            MatchError::Ambiguous { pass, lines } => TolerantError::Ambiguous { pass, lines },
        }
    }
}

/// The shortest truncated boundary line (after trimming) pass 4 accepts.
pub const MIN_PREFIX_CHARS: usize = 8;

/// Finds the unique location of `old` in `content` (LF text): where it
/// occurs literally, if it does, else by the first line pass (1-4) that
/// finds anything.
///
/// ```
/// use editblocks::locate::{find_unique_tolerant as find_unique, Pass};
/// let file = "fn main() {\n    run();\n}\n";
/// // The model forgot the indentation of the old line and of the new one.
/// let m = find_unique(file, "run();", "run();\nstop();").unwrap();
/// assert_eq!(m.pass, Pass::Whitespace);
/// assert_eq!(m.replacement, "    run();\n    stop();");
/// ```
pub fn find_unique(content: &str, old: &str, new: &str) -> Result<TolerantMatch, TolerantError> {
    find_with(content, old, new, &TOLERANT_PASSES, false).map(|mut all| all.remove(0))
}

/// Like [`find_unique`] but for `replace_all`: every occurrence, top to
/// bottom: every literal one when `old` occurs literally, else every one
/// the first line pass that finds any finds. Occurrences that overlap are
/// refused as ambiguous (they cannot each be replaced).
pub fn find_all(content: &str, old: &str, new: &str) -> Result<Vec<TolerantMatch>, TolerantError> {
    find_with(content, old, new, &TOLERANT_PASSES, true)
}

/// [`search`], with a cut-short line reported as not found.
pub fn find_with(
    content: &str,
    old: &str,
    new: &str,
    passes: &[Pass],
    all: bool,
) -> Result<Vec<TolerantMatch>, TolerantError> {
    search(content, old, new, passes, all).map_err(TolerantError::from)
}

/// Locates `old` using `passes`.
///
/// When [`Pass::Substring`] is among them and `old` occurs literally
/// (anywhere, even inside a line), the literal occurrences decide: one is
/// applied there, several are ambiguous (or all replaced, with `all`). An
/// occurrence that covers whole lines up to surrounding whitespace is
/// applied as a whole-line match of the pass that describes it (exact,
/// trailing whitespace, whitespace with indentation repair), if that pass
/// is in `passes`; any other is a partial-line edit (substring) that keeps
/// the rest of its lines.
///
/// Only text that does not occur literally goes through the line passes,
/// in order; the first with any candidate decides. Candidates are counted
/// overlapping: `x\nx` fits `x \nx \nx \n` at lines 1 and 2.
pub fn search(
    content: &str,
    old: &str,
    new: &str,
    passes: &[Pass],
    all: bool,
) -> Result<Vec<TolerantMatch>, MatchError> {
    if old.is_empty() {
        return Err(MatchError::NotFound);
    }
    if passes.contains(&Pass::Substring) {
        let starts = literal_starts(content, old);
        if let (Some(&first), Some(&last)) = (starts.first(), starts.last()) {
            // Only the lines the occurrences touch (and the line after) are
            // split: each of many edits to a large file splits a few lines,
            // not the whole file again. The window starts at a line start and
            // ends after a LF or at the end, so its lines are the file's.
            let (from, to) = line_window(content, first, last + old.len());
            let window = Lines::new(&content[from..to]);
            let matches: Vec<TolerantMatch> = starts
                .iter()
                .map(|&s| {
                    let mut m = literal_match(&window, s - from, old, new, passes);
                    m.start += from;
                    m.end += from;
                    m
                })
                .collect();
            // Occurrences overlap when their text does, or when the line
            // matches they widen to share a line (`" "` twice in `"  \t"`).
            let overlapping = starts.windows(2).any(|w| w[1] < w[0] + old.len())
                || matches.windows(2).any(|w| w[1].start < w[0].end);
            if matches.len() == 1 || (all && !overlapping) {
                return Ok(matches);
            }
            // The pass that describes them all: the weakest of theirs.
            let pass = matches
                .iter()
                .map(|m| m.pass)
                .max()
                .unwrap_or(Pass::Substring);
            let lines = starts.iter().map(|&s| line_of(content, s)).collect();
            return Err(MatchError::Ambiguous { pass, lines });
        }
    }
    let file = Lines::new(content);
    for &pass in passes {
        if pass == Pass::Substring {
            continue;
        }
        let found = line_matches(&file, old, new, pass);
        let n = old.strip_suffix('\n').unwrap_or(old).split('\n').count();
        let overlapping = found.windows(2).any(|w| w[1].0 < w[0].0 + n);
        match found.len() {
            0 => continue,
            1 => {}
            _ if all && !overlapping => {}
            _ => {
                let lines = found.iter().map(|(i, _)| *i as u32 + 1).collect();
                return Err(MatchError::Ambiguous { pass, lines });
            }
        }
        return found
            .into_iter()
            .map(|(_, m)| m.map_err(|k| MatchError::CutShort { line: k as u32 + 1 }))
            .collect();
    }
    Err(MatchError::NotFound)
}

/// The lines an occurrence from byte `first` to byte `after` touches, and
/// the line after when it ends with a LF: from a line start to just after a
/// LF (or the end), so the window's lines are the file's.
pub(crate) fn line_window(content: &str, first: usize, after: usize) -> (usize, usize) {
    let from = content[..first].rfind('\n').map_or(0, |lf| lf + 1);
    let to = content[after..]
        .find('\n')
        .map_or(content.len(), |lf| after + lf + 1);
    (from, to)
}

/// The match for the literal occurrence at byte `at` of `window` (a
/// [`line_window`]), as [`search`] makes it.
pub(crate) fn literal_match_in(
    window: &str,
    at: usize,
    old: &str,
    new: &str,
    passes: &[Pass],
) -> TolerantMatch {
    literal_match(&Lines::new(window), at, old, new, passes)
}

/// 1-based line number of a byte offset.
pub fn line_of(content: &str, offset: usize) -> u32 {
    let offset = offset.min(content.len());
    crate::text::count_lf(&content.as_bytes()[..offset]) as u32 + 1
}

/// Byte offsets of every occurrence of `old`, overlapping ones included.
pub(crate) fn literal_starts(content: &str, old: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let finder = memchr::memmem::Finder::new(old.as_bytes());
    let bytes = content.as_bytes();
    let mut from = 0;
    while let Some(k) = bytes.get(from..).and_then(|rest| finder.find(rest)) {
        let at = from + k;
        starts.push(at);
        // Step one character, so an occurrence starting inside this one is found too.
        from = at + content[at..].chars().next().map_or(1, char::len_utf8);
    }
    starts
}

/// The match for the literal occurrence of `old` at byte `start`: a line
/// match when it covers whole lines up to surrounding whitespace (and that
/// pass is allowed), else a substring replacement.
fn literal_match(
    file: &Lines,
    start: usize,
    old: &str,
    new: &str,
    passes: &[Pass],
) -> TolerantMatch {
    let substring = TolerantMatch {
        start,
        end: start + old.len(),
        pass: Pass::Substring,
        replacement: new.to_string(),
    };
    let (body, ends_nl) = match old.strip_suffix('\n') {
        Some(body) => (body, true),
        None => (old, false),
    };
    let old_lines: Vec<&str> = body.split('\n').collect();
    let first = file
        .starts
        .partition_point(|&s| s <= start)
        .saturating_sub(1);
    let last = first + old_lines.len() - 1;
    if last >= file.lines.len() {
        return substring;
    }
    let (Some(prefix), Some(suffix)) = (
        file.text.get(file.starts[first]..start),
        file.text.get(start + body.len()..file.end_of(last)),
    ) else {
        return substring;
    };
    if !prefix.trim().is_empty() || !suffix.trim().is_empty() {
        return substring;
    }
    let pass = if prefix.is_empty() && suffix.is_empty() {
        Pass::Exact
    } else if prefix.is_empty() && suffix.trim_end().is_empty() {
        Pass::TrailingWhitespace
    } else {
        Pass::Whitespace
    };
    if !passes.contains(&pass) {
        return substring;
    }
    match line_match_at(file, first, &old_lines, ends_nl, new, pass) {
        Ok(m) => m,
        Err(_) => substring,
    }
}

/// The content split into lines by the one line model, with byte offsets.
struct Lines<'a> {
    text: &'a str,
    lines: Vec<&'a str>,
    starts: Vec<usize>,
    ends: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let split = crate::text::LineText::without_bom(text);
        Lines {
            text,
            lines: split.lines(),
            starts: split.spans.iter().map(|s| s.start).collect(),
            ends: split.spans.iter().map(|s| s.end).collect(),
        }
    }

    /// Byte offset just past line `i`'s text (before its ending).
    fn end_of(&self, i: usize) -> usize {
        self.ends[i]
    }
}

/// A line's indentation.
pub(crate) fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// How a truncated boundary line of `old` matched a full file line.
fn is_boundary_prefix(file_line: &str, old_line: &str) -> bool {
    let want = old_line.trim();
    let have = file_line.trim();
    want == have || (want.chars().count() >= MIN_PREFIX_CHARS && have.starts_with(want))
}

/// Every window of `file` that `pass` matches `old` in, overlapping ones
/// included: (0-based first line, the match or the 0-based file line that
/// pass 4 found cut short and could not complete).
fn line_matches(
    file: &Lines,
    old: &str,
    new: &str,
    pass: Pass,
) -> Vec<(usize, Result<TolerantMatch, usize>)> {
    // A final newline on `old` means "through the end of the last line".
    let (old_body, old_ends_nl) = match old.strip_suffix('\n') {
        Some(body) => (body, true),
        None => (old, false),
    };
    let old_lines: Vec<&str> = old_body.split('\n').collect();
    let n = old_lines.len();
    if n == 0 || n > file.lines.len() {
        return Vec::new();
    }
    // Whitespace-insensitive passes need something to hold on to.
    if pass >= Pass::Whitespace && old_lines.iter().all(|l| l.trim().is_empty()) {
        return Vec::new();
    }
    // The windows are found in one pass over the file (a window check per
    // line costs lines times old lines on a run of identical lines).
    let starts: Vec<usize> = match pass {
        Pass::BoundaryPrefix => super::find_all(&file.lines, &old_lines, pass, 0),
        _ => {
            let wanted: Vec<_> = old_lines.iter().map(|l| pass.normalize(l)).collect();
            let mut lines: Vec<Option<std::borrow::Cow<'_, str>>> = vec![None; file.lines.len()];
            super::sequence_starts(
                file.lines.len(),
                n,
                0,
                |a, b| wanted[a] == wanted[b],
                |i, j| *lines[i].get_or_insert_with(|| pass.normalize(file.lines[i])) == wanted[j],
            )
        }
    };
    starts
        .into_iter()
        .map(|i| {
            (
                i,
                line_match_at(file, i, &old_lines, old_ends_nl, new, pass),
            )
        })
        .collect()
}

/// The match of `old_lines` on the window of `file` starting at line `i`,
/// which `pass` has accepted; `Err(file line)` when pass 4 cannot tell
/// where the rest of a cut-short line goes.
fn line_match_at(
    file: &Lines,
    i: usize,
    old_lines: &[&str],
    old_ends_nl: bool,
    new: &str,
    pass: Pass,
) -> Result<TolerantMatch, usize> {
    let n = old_lines.len();
    let window = &file.lines[i..i + n];
    let start = file.starts[i];
    let mut end = file.end_of(i + n - 1);
    let mut replacement = match pass {
        Pass::Exact | Pass::TrailingWhitespace | Pass::Substring => new.to_string(),
        Pass::Whitespace | Pass::Punctuation => repair_indentation(window, old_lines, new),
        Pass::BoundaryPrefix => expand_truncated(
            window,
            old_lines,
            &repair_indentation(window, old_lines, new),
        )
        .map_err(|k| i + k)?,
    };
    if old_ends_nl {
        if file.text.as_bytes().get(end) == Some(&b'\n') {
            end += 1;
        } else if let Some(stripped) = replacement.strip_suffix('\n') {
            // The last line has no newline in the file; keep it that way.
            replacement = stripped.to_string();
        }
    }
    Ok(TolerantMatch {
        start,
        end,
        pass,
        replacement,
    })
}

/// Pass 4: interior lines equal after trimming, boundary lines may be
/// truncated prefixes, and at least one of them really is truncated (or
/// pass 3 would have matched).
pub(super) fn boundary_window(window: &[&str], old_lines: &[&str]) -> bool {
    let n = old_lines.len();
    let (first, last) = (0, n - 1);
    let mut truncated = false;
    for (k, (f, o)) in window.iter().zip(old_lines).enumerate() {
        if f.trim() == o.trim() {
            continue;
        }
        if (k == first || k == last) && is_boundary_prefix(f, o) {
            truncated = true;
            continue;
        }
        return false;
    }
    truncated
}

/// Completes, in `new`, each boundary line that `old` cut short: the line of
/// `new` that corresponds to it gets the rest of the file's line appended.
///
/// Old and new lines are paired by a line diff of their trimmed text: a
/// line kept as it was pairs with its copy, a changed one with the line at
/// the same position of an equally long changed group. A cut-short line
/// that is deleted, or changed into a group of a different length, has no
/// partner: `Err(k)`, its index in `old_lines`, since where the rest of
/// the line belongs is anyone's guess.
fn expand_truncated(window: &[&str], old_lines: &[&str], new: &str) -> Result<String, usize> {
    let mut new_lines: Vec<String> = if new.is_empty() {
        Vec::new()
    } else {
        new.split('\n').map(str::to_string).collect()
    };
    let n = old_lines.len();
    let old_keys: Vec<&str> = old_lines.iter().map(|l| l.trim()).collect();
    let new_keys: Vec<String> = new_lines.iter().map(|l| l.trim().to_string()).collect();
    let new_keys: Vec<&str> = new_keys.iter().map(String::as_str).collect();
    let pairs = align_lines(&old_keys, &new_keys);
    // An old line kept as it was pairs with its copy; a changed one with the
    // line at the same position of an equally long changed group.
    let partner = |k: usize| -> Option<usize> {
        if let Some(j) = pairs[k] {
            return Some(j);
        }
        let above = (0..k).rev().find_map(|i| pairs[i].map(|j| (i, j)));
        let below = (k + 1..n).find_map(|i| pairs[i].map(|j| (i, j)));
        let (o0, n0) = above.map_or((0, 0), |(i, j)| (i + 1, j + 1));
        let (o1, n1) = below.unwrap_or((n, new_keys.len()));
        (o1 - o0 == n1.saturating_sub(n0) && n1 >= n0).then(|| n0 + (k - o0))
    };
    let mut boundaries = vec![0];
    if n > 1 {
        boundaries.push(n - 1);
    }
    for k in boundaries {
        let (file_line, want) = (window[k], old_lines[k].trim());
        if file_line.trim() == want {
            continue;
        }
        let rest = file_line
            .get(leading_ws(file_line).len() + want.len()..)
            .ok_or(k)?;
        let j = partner(k).ok_or(k)?;
        let line = new_lines.get_mut(j).ok_or(k)?;
        *line = format!("{}{rest}", line.trim_end());
    }
    Ok(new_lines.join("\n"))
}

/// How to turn the indentation the model wrote for one line into the
/// file's: drop `remove` leading characters, then put `add` in front.
#[derive(Debug, Clone, Default, PartialEq)]
struct IndentFix {
    remove: usize,
    add: String,
}

impl IndentFix {
    fn between(written: &str, actual: &str) -> IndentFix {
        if let Some(extra) = actual.strip_prefix(written) {
            IndentFix {
                remove: 0,
                add: extra.to_string(),
            }
        } else if actual.len() <= written.len() && written.starts_with(actual) {
            IndentFix {
                remove: written.chars().count() - actual.chars().count(),
                add: String::new(),
            }
        } else {
            // Tabs against spaces: swap the whole indentation.
            IndentFix {
                remove: written.chars().count(),
                add: actual.to_string(),
            }
        }
    }

    fn is_none(&self) -> bool {
        self.remove == 0 && self.add.is_empty()
    }

    fn apply(&self, line: &str) -> String {
        if line.trim().is_empty() || self.is_none() {
            return line.to_string();
        }
        let indent = leading_ws(line);
        // Indentation is ASCII whitespace in practice; count chars to stay on boundaries.
        let kept: String = indent.chars().skip(self.remove).collect();
        format!("{}{}{}", self.add, kept, &line[indent.len()..])
    }
}

/// Pass 3's indentation repair. Each old line whose indentation differs
/// from the file line it matched gives a fix (an offset); each new line
/// takes the offset of the old line it stands for, aligned by a line diff
/// on trimmed text: a kept line its own old line's, a changed line the old
/// line it replaces, an inserted line its neighbour's in the old text (the
/// line above, or below at the start). A blank old line has the offset of
/// its nearest non-blank neighbour. Lines whose old line was indented
/// correctly are left alone, so a partly wrong old text does not shift the
/// right parts.
///
/// When old and new disagree on the indentation of their first non-empty
/// line, the model evidently indented the new text on purpose (and copied
/// the old one badly), so nothing is repaired.
pub(crate) fn repair_indentation(window: &[&str], old_lines: &[&str], new: &str) -> String {
    fn first_indent<'s>(lines: &[&'s str]) -> Option<&'s str> {
        lines
            .iter()
            .find(|l| !l.trim().is_empty())
            .map(|l| leading_ws(l))
    }
    let new_lines: Vec<&str> = new.split('\n').collect();
    let old_first = first_indent(old_lines);
    let new_first = first_indent(&new_lines);
    if old_first != new_first {
        return new.to_string();
    }
    let own: Vec<Option<IndentFix>> = window
        .iter()
        .zip(old_lines)
        .map(|(f, o)| {
            (!o.trim().is_empty()).then(|| IndentFix::between(leading_ws(o), leading_ws(f)))
        })
        .collect();
    if own.iter().flatten().all(IndentFix::is_none) {
        return new.to_string();
    }
    // A blank old line takes the offset of the nearest non-blank one, above first.
    let fixes: Vec<IndentFix> = (0..own.len())
        .map(|k| {
            let above = own[..=k].iter().rev().flatten().next();
            let below = own[k..].iter().flatten().next();
            above.or(below).cloned().unwrap_or_default()
        })
        .collect();
    let old_keys: Vec<&str> = old_lines.iter().map(|l| l.trim()).collect();
    let new_keys: Vec<&str> = new_lines.iter().map(|l| l.trim()).collect();
    // For each new line, the old line whose offset it takes: an equal line
    // its copy; a line of a changed group the old line at the same place
    // (or the group's last); an inserted line its neighbour above.
    let mut source: Vec<usize> = vec![0; new_lines.len()];
    let last_old = old_lines.len().saturating_sub(1);
    let pairs = align_lines(&old_keys, &new_keys);
    let (mut o0, mut n0) = (0usize, 0usize);
    let anchors = pairs
        .iter()
        .enumerate()
        .filter_map(|(k, j)| j.map(|j| (k, j)))
        .chain(std::iter::once((old_lines.len(), new_lines.len())));
    for (k, j) in anchors {
        let (old_len, new_len) = (k - o0, j.saturating_sub(n0));
        for d in 0..new_len {
            source[n0 + d] = if old_len > 0 {
                o0 + d.min(old_len - 1)
            } else if o0 > 0 {
                o0 - 1
            } else {
                o0.min(last_old)
            };
        }
        if k < old_lines.len() {
            source[j] = k;
        }
        (o0, n0) = (k + 1, j + 1);
    }
    let mut out = Vec::with_capacity(new_lines.len());
    for (j, line) in new_lines.iter().enumerate() {
        out.push(
            fixes
                .get(source[j])
                .map_or_else(|| line.to_string(), |fix| fix.apply(line)),
        );
    }
    out.join("\n")
}

/// Pairs equal lines of `old` and `new` in order (a longest common
/// subsequence, or close to one): for each old line, the new line it is.
///
/// Small inputs use Myers' diff. Past [`EXACT_ALIGN_LINES`] lines, whose
/// diff could cost the product of the lengths, a patience alignment is used:
/// the common start and end, then lines that occur once in each side as
/// anchors (their longest increasing run), and the equal start and end of
/// each gap between anchors. That costs `O(n log n)` whatever the input.
fn align_lines(old: &[&str], new: &[&str]) -> Vec<Option<usize>> {
    let mut pairs = vec![None; old.len()];
    if old.len() + new.len() <= EXACT_ALIGN_LINES {
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, old, new) {
            if let similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = op
            {
                for d in 0..len {
                    pairs[old_index + d] = Some(new_index + d);
                }
            }
        }
        return pairs;
    }
    // Equal ends of old[a0..a1] and new[b0..b1]; returns the middle left.
    let ends = |pairs: &mut Vec<Option<usize>>,
                (mut a0, mut a1): (usize, usize),
                (mut b0, mut b1): (usize, usize)| {
        while a0 < a1 && b0 < b1 && old[a0] == new[b0] {
            pairs[a0] = Some(b0);
            (a0, b0) = (a0 + 1, b0 + 1);
        }
        while a0 < a1 && b0 < b1 && old[a1 - 1] == new[b1 - 1] {
            pairs[a1 - 1] = Some(b1 - 1);
            (a1, b1) = (a1 - 1, b1 - 1);
        }
        ((a0, a1), (b0, b1))
    };
    let ((a0, a1), (b0, b1)) = ends(&mut pairs, (0, old.len()), (0, new.len()));
    // Lines once in each middle: (old index, new index), in old order.
    let mut seen: std::collections::HashMap<&str, (u32, usize, u32, usize)> =
        std::collections::HashMap::new();
    for (i, l) in old.iter().enumerate().take(a1).skip(a0) {
        let e = seen.entry(l).or_insert((0, i, 0, 0));
        e.0 += 1;
    }
    for (j, l) in new.iter().enumerate().take(b1).skip(b0) {
        if let Some(e) = seen.get_mut(l) {
            e.2 += 1;
            e.3 = j;
        }
    }
    let mut unique: Vec<(usize, usize)> = seen
        .values()
        .filter(|e| e.0 == 1 && e.2 == 1)
        .map(|e| (e.1, e.3))
        .collect();
    unique.sort_unstable();
    // Longest increasing run of new indexes (patience sorting).
    let mut tails: Vec<usize> = Vec::new(); // index into `unique` of the smallest tail of each length
    let mut back: Vec<Option<usize>> = vec![None; unique.len()];
    for (u, &(_, j)) in unique.iter().enumerate() {
        let len = tails.partition_point(|&t| unique[t].1 < j);
        back[u] = len.checked_sub(1).map(|p| tails[p]);
        if len == tails.len() {
            tails.push(u);
        } else {
            tails[len] = u;
        }
    }
    let mut anchors = Vec::new();
    let mut at = tails.last().copied();
    while let Some(u) = at {
        anchors.push(unique[u]);
        at = back[u];
    }
    anchors.reverse();
    let (mut pa, mut pb) = (a0, b0);
    for &(i, j) in &anchors {
        ends(&mut pairs, (pa, i), (pb, j));
        pairs[i] = Some(j);
        (pa, pb) = (i + 1, j + 1);
    }
    ends(&mut pairs, (pa, a1), (pb, b1));
    pairs
}

/// Lines (old plus new) up to which [`align_lines`] runs an exact diff.
const EXACT_ALIGN_LINES: usize = 4000;

/// The Dice coefficient of two texts' character pairs, 0.0 to 1.0: cheap
/// enough to rank every line of a large file, and good at ranking
/// near-identical lines. Texts shorter than two characters score 0 unless equal.
pub fn dice_bigrams(a: &str, b: &str) -> f32 {
    if a == b {
        return 1.0;
    }
    let pairs = |s: &str| -> Vec<(char, char)> {
        let chars: Vec<char> = s.chars().collect();
        let mut v: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
        v.sort_unstable();
        v
    };
    let (pa, pb) = (pairs(a), pairs(b));
    if pa.is_empty() || pb.is_empty() {
        return 0.0;
    }
    // Both lists are sorted: count the multiset intersection in one merge.
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < pa.len() && j < pb.len() {
        match pa[i].cmp(&pb[j]) {
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    (2 * common) as f32 / (pa.len() + pb.len()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(content: &str, m: &TolerantMatch) -> String {
        format!(
            "{}{}{}",
            &content[..m.start],
            m.replacement,
            &content[m.end..]
        )
    }

    #[test]
    fn literal_occurrences_decide_even_inside_lines() {
        // A whole line and a piece of another: two places, not one.
        let file = "end\nbackend\n";
        assert_eq!(
            find_unique(file, "end", "END"),
            Err(TolerantError::Ambiguous {
                pass: Pass::Substring,
                lines: vec![1, 2]
            })
        );
        let m = find_unique(file, "end\nback", "END\nback").unwrap();
        assert_eq!(
            (m.pass, apply(file, &m)),
            (Pass::Substring, "END\nbackend\n".to_string())
        );
        // The literal piece inside line 1 wins over a whole line equal after trimming (line 3).
        let file = "Example: `    retries = 3` sets it.\nconfig:\n  retries = 3\n";
        let m = find_unique(file, "    retries = 3", "    retries = 5").unwrap();
        assert_eq!(
            (m.pass, apply(file, &m)),
            (
                Pass::Substring,
                "Example: `    retries = 5` sets it.\nconfig:\n  retries = 3\n".to_string()
            )
        );
        // replace_all changes every literal occurrence, whole line or not.
        let file = "x = get(1)\n  get\n";
        let all = find_all(file, "get", "fetch").unwrap();
        let mut out = file.to_string();
        for m in all.iter().rev() {
            out.replace_range(m.start..m.end, &m.replacement);
        }
        assert_eq!(out, "x = fetch(1)\n  fetch\n");
    }

    #[test]
    fn overlapping_candidates_are_ambiguous() {
        assert_eq!(
            find_unique("x \nx \nx \n", "x\nx", "y\ny"),
            Err(TolerantError::Ambiguous {
                pass: Pass::TrailingWhitespace,
                lines: vec![1, 2]
            })
        );
        assert_eq!(
            find_all("x \nx \nx \n", "x\nx", "y\ny"),
            Err(TolerantError::Ambiguous {
                pass: Pass::TrailingWhitespace,
                lines: vec![1, 2]
            })
        );
        assert_eq!(
            find_unique("a = = = b\n", "= =", "= X"),
            Err(TolerantError::Ambiguous {
                pass: Pass::Substring,
                lines: vec![1, 1]
            })
        );
        assert_eq!(
            find_all("aaa\n", "aa", "b"),
            Err(TolerantError::Ambiguous {
                pass: Pass::Substring,
                lines: vec![1, 1]
            })
        );
        // Apart, they are all replaced.
        assert_eq!(
            find_all("x \nx \nz\nx \nx \n", "x\nx", "y\ny").map(|v| v.len()),
            Ok(2)
        );
    }

    #[test]
    fn boundary_prefix_keeps_the_rest_of_a_changed_line() {
        let file = "func main() {\n\tresult := compute(alpha, beta, gamma)\n}\n";
        let m = find_unique(file, "    result := compute(", "    result := computeFast(").unwrap();
        assert_eq!(m.pass, Pass::BoundaryPrefix);
        assert_eq!(
            apply(file, &m),
            "func main() {\n\tresult := computeFast(alpha, beta, gamma)\n}\n"
        );
        let py = "def total(items):\n    acc = 0   \n    return sum_all(items, start=acc)\n";
        let m = find_unique(
            py,
            "    acc = 0\n    return sum_all(",
            "    acc = 1\n    return sum_every(",
        )
        .unwrap();
        assert_eq!(
            apply(py, &m),
            "def total(items):\n    acc = 1\n    return sum_every(items, start=acc)\n"
        );
        // Deleted, or split into two lines: where the rest goes is a guess, so refuse.
        for new in ["", "    x := 1\n    result := computeFast("] {
            assert_eq!(
                search(file, "    result := compute(", new, &TOLERANT_PASSES, false),
                Err(MatchError::CutShort { line: 2 })
            );
            assert_eq!(
                find_unique(file, "    result := compute(", new),
                Err(TolerantError::NotFound)
            );
        }
    }

    #[test]
    fn trailing_whitespace_pass() {
        let file = "a = 1   \nb = 2\n";
        let m = find_unique(file, "a = 1\nb = 2\n", "a = 3\nb = 2\n").unwrap();
        assert_eq!(m.pass, Pass::TrailingWhitespace);
        assert_eq!(apply(file, &m), "a = 3\nb = 2\n");
    }

    #[test]
    fn whitespace_pass_repairs_only_wrong_lines() {
        let file = "fn f() {\n    if x {\n        go();\n    }\n}\n";
        // First line right, the rest under-indented by four spaces.
        let old = "    if x {\n    go();\n}";
        let new = "    if x {\n    go();\n    again();\n}";
        let m = find_unique(file, old, new).unwrap();
        assert_eq!(m.pass, Pass::Whitespace);
        assert_eq!(
            apply(file, &m),
            "fn f() {\n    if x {\n        go();\n        again();\n    }\n}\n"
        );
    }

    #[test]
    fn whitespace_pass_skips_repair_when_first_indents_disagree() {
        let file = "class A:\n    def f(self):\n        return 1\n";
        let old = "def f(self):\n    return 1";
        let new = "    def f(self):\n        return 2";
        let m = find_unique(file, old, new).unwrap();
        assert_eq!(
            apply(file, &m),
            "class A:\n    def f(self):\n        return 2\n"
        );
    }

    #[test]
    fn boundary_prefix_expands_truncated_lines() {
        let file = "// ParseConfig reads a configuration file from disk.\nfunc ParseConfig() {\n\treturn nil\n}\n";
        let old = "// ParseConfig\nfunc ParseConfig() {\n\treturn nil";
        let new = "// ParseConfig\nfunc ParseConfig() {\n\treturn defaults()";
        let m = find_unique(file, old, new).unwrap();
        assert_eq!(m.pass, Pass::BoundaryPrefix);
        assert_eq!(
            apply(file, &m),
            "// ParseConfig reads a configuration file from disk.\nfunc ParseConfig() {\n\treturn defaults()\n}\n"
        );
    }

    #[test]
    fn boundary_prefix_on_the_last_line() {
        let file = "fn a() {\n    let x = 1;\n    return compute_everything(x, y, z);\n}\n";
        // Literally in the file: the substring pass keeps the rest of the line.
        let old = "    let x = 1;\n    return compute_every";
        let new = "    let x = 2;\n    return compute_every";
        let m = find_unique(file, old, new).unwrap();
        assert_eq!(m.pass, Pass::Substring);
        assert_eq!(
            apply(file, &m),
            "fn a() {\n    let x = 2;\n    return compute_everything(x, y, z);\n}\n"
        );
        // Not literally there (a tab for four spaces): the boundary pass expands the cut line.
        let old = "\tlet x = 1;\n    return compute_every";
        let new = "\tlet x = 2;\n    return compute_every";
        let m = find_unique(file, old, new).unwrap();
        assert_eq!(m.pass, Pass::BoundaryPrefix);
        assert_eq!(
            apply(file, &m),
            "fn a() {\n    let x = 2;\n    return compute_everything(x, y, z);\n}\n"
        );
    }

    #[test]
    fn replace_all_uses_the_first_pass_that_finds_any() {
        let file = "  a()\n  b()\n  a()\n";
        let all = find_all(file, "a()", "c()").unwrap();
        assert_eq!(all.len(), 2);
        assert!(all
            .iter()
            .all(|m| m.pass == Pass::Whitespace && m.replacement == "  c()"));
    }

    #[test]
    fn a_partial_line_edit_keeps_the_rest_of_the_line() {
        let file = "let total = compute(a, b);\nlet other = 1;\n";
        let m = find_unique(file, "let total = compute(", "let total = compute_fast(").unwrap();
        assert_eq!(m.pass, Pass::Substring);
        assert_eq!(
            apply(file, &m),
            "let total = compute_fast(a, b);\nlet other = 1;\n"
        );
        let m = find_unique(file, "b);\nlet other = 1;", "b);\nlet other = 2;").unwrap();
        assert_eq!(
            apply(file, &m),
            "let total = compute(a, b);\nlet other = 2;\n"
        );
    }

    #[test]
    fn boundary_prefix_needs_eight_characters() {
        let file = "// Parse reads.\nx\n";
        assert_eq!(
            find_unique(file, "// Pars\nx", "y"),
            Err(TolerantError::NotFound)
        );
    }

    #[test]
    fn substring_pass_and_ambiguity() {
        let file = "let a = f(1) + f(2);\n";
        let m = find_unique(file, "f(2)", "g(2)").unwrap();
        assert_eq!(
            (m.pass, apply(file, &m)),
            (Pass::Substring, "let a = f(1) + g(2);\n".to_string())
        );
        let file = "}\nx\n}\n";
        assert_eq!(
            find_unique(file, "}", "};"),
            Err(TolerantError::Ambiguous {
                pass: Pass::Exact,
                lines: vec![1, 3]
            })
        );
        assert_eq!(find_all(file, "}", "};").unwrap().len(), 2);
    }

    #[test]
    fn no_panic_on_multibyte_indentation() {
        let file = "\u{3000}é\n";
        let m = find_unique(file, "é", "ü").unwrap();
        assert_eq!(apply(file, &m), "\u{3000}ü\n");
    }

    #[test]
    fn large_alignments_pair_equal_lines_in_order() {
        let old: Vec<String> = (0..3000)
            .map(|i| {
                if i % 10 == 0 {
                    "}".to_string()
                } else {
                    format!("line {i}")
                }
            })
            .collect();
        let new: Vec<String> = (0..3000)
            .map(|i| {
                if i % 7 == 0 {
                    format!("changed {i}")
                } else {
                    old[i].clone()
                }
            })
            .collect();
        let (o, n): (Vec<&str>, Vec<&str>) = (
            old.iter().map(String::as_str).collect(),
            new.iter().map(String::as_str).collect(),
        );
        let pairs = align_lines(&o, &n);
        let mut last = None;
        for (k, j) in pairs.iter().enumerate() {
            if let Some(j) = *j {
                assert_eq!(o[k], n[j]);
                assert!(last.map_or(true, |l| j > l), "in order");
                last = Some(j);
            }
        }
        // Every line that was not changed is paired (patience finds them all here).
        let unchanged = (0..3000).filter(|i| i % 7 != 0).count();
        assert_eq!(pairs.iter().filter(|p| p.is_some()).count(), unchanged);
    }

    #[test]
    fn similarity_ranks() {
        assert!(dice_bigrams("def handle_user(req):", "def handle_users(req):") > 0.8);
        assert!(dice_bigrams("abc", "xyz") < 0.1);
    }
}
