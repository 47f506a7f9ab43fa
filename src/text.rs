//! Reading and writing file text without losing a byte: matching sees LF
//! text with no BOM; writing restores the file's own BOM and line endings.

/// How many leading bytes are checked for NUL to call a file binary.
pub const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Why file bytes cannot be edited as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// Not valid UTF-8.
    NotUtf8,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Binary => write!(
                f,
                "the file is binary (a NUL byte in its first {} KiB); only text files can be edited",
                BINARY_SNIFF_LEN / 1024
            ),
            DecodeError::NotUtf8 => f.write_str(
                "the file is not valid UTF-8; only UTF-8 text files can be edited (convert it first)",
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// How to treat the final newline when writing; crosses the boundary as
/// `'preserve' | 'ensure'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrailingNewline {
    /// Keep the file's own choice (a file without a final newline keeps none).
    #[default]
    Preserve,
    /// Always end a non-empty file with a newline (seed 001's rule).
    Ensure,
}

impl TrailingNewline {
    /// The names the JavaScript boundary takes, in the order refusals list them.
    pub const NAMES: [&'static str; 2] = ["preserve", "ensure"];
}

/// A text file split into what matching sees and how to write it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// The text with BOM removed and every CRLF read as LF (a lone `\r` not
    /// followed by `\n` is content and stays).
    pub body: String,
    pub bom: bool,
    /// New lines are written with CRLF: every line ending in the file is
    /// CRLF, or (in a file with mixed endings) more of them are CRLF than LF.
    pub crlf: bool,
    /// For a file with mixed endings only: where each line ended in the body
    /// as read, and how, so that lines an edit keeps are written back with their own.
    mixed: Option<Box<MixedEndings>>,
    /// CRs that end the file after its last line (the line model's tail),
    /// written back after the body.
    tail_crs: u32,
}

/// The line endings of a mixed-ending file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MixedEndings {
    /// Byte offset in the LF body of each line's `\n`, ascending.
    newlines: Vec<usize>,
    /// How many CRs stood before the LF of every line that had an ending
    /// (an unterminated last line has none): 0 for LF, 1 for CRLF.
    crs: Vec<u32>,
}

/// Where the bytes of an edited LF body came from: runs copied from the
/// body as read (with their offset there) or written by an edit. Edits
/// report what they replace ([`Provenance::replace`]); writing the file back
/// then gives each kept line its own ending, by construction and in linear
/// time (no diff).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Provenance {
    runs: Vec<Run>,
    /// A byte offset of the current body and its 1-based line, as
    /// [`Provenance::line_at`] last found it. A replacement after it keeps it
    /// true (the text before is unchanged), so the line of each edit of a
    /// batch made in file order is counted from the one before: the whole
    /// batch reads the file's LFs once.
    line_mark: Option<(usize, u32)>,
    /// A run's index and the byte offset it starts at, where the last single
    /// replacement started looking: the runs before it are unchanged by a
    /// replacement after it, so an edit of a batch made in file order finds
    /// its run from there.
    run_mark: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    len: usize,
    /// Offset in the body as read; `None` for written bytes.
    from: Option<usize>,
}

impl Provenance {
    /// A body exactly as read.
    pub fn original(len: usize) -> Provenance {
        Provenance {
            runs: if len == 0 {
                Vec::new()
            } else {
                vec![Run { len, from: Some(0) }]
            },
            line_mark: None,
            run_mark: None,
        }
    }

    /// A body written whole (nothing kept).
    pub fn written(len: usize) -> Provenance {
        Provenance {
            runs: if len == 0 {
                Vec::new()
            } else {
                vec![Run { len, from: None }]
            },
            line_mark: None,
            run_mark: None,
        }
    }

    /// Records that the byte ranges `start..end` of the current body (sorted,
    /// not overlapping) were replaced by `new_len` written bytes each.
    pub fn replace(&mut self, edits: &[(usize, usize, usize)]) {
        if let (Some((at, _)), Some(&(start, _, _))) = (self.line_mark, edits.first()) {
            if start < at {
                self.line_mark = None;
            }
        }
        if let [(start, end, new_len)] = *edits {
            self.replace_one(start, end, new_len);
            return;
        }
        self.replace_all(edits);
    }

    /// One replaced range: only the runs it touches are rebuilt (the others
    /// are moved, not walked one by one), so each edit of a long batch costs
    /// a scan of run lengths rather than a new list.
    fn replace_one(&mut self, start: usize, end: usize, new_len: usize) {
        let (mut first, mut first_at) = match self.run_mark {
            Some((index, at)) if at <= start && index <= self.runs.len() => (index, at),
            _ => (0, 0),
        };
        while first < self.runs.len() && first_at + self.runs[first].len <= start {
            first_at += self.runs[first].len;
            first += 1;
        }
        let (mut last, mut last_at) = (first, first_at);
        while last < self.runs.len() && last_at < end.max(start + 1) {
            last_at += self.runs[last].len;
            last += 1;
        }
        let mut window = Provenance {
            runs: self.runs[first..last].to_vec(),
            line_mark: None,
            run_mark: None,
        };
        window.replace_all(&[(start - first_at, end.saturating_sub(first_at), new_len)]);
        self.runs.splice(first..last, window.runs);
        self.run_mark = Some((first, first_at));
    }

    /// The 1-based line of byte `offset` of `body` (the body this
    /// provenance describes), counted from the last line found when that is
    /// before `offset`.
    pub fn line_at(&mut self, body: &str, offset: usize) -> u32 {
        let offset = offset.min(body.len());
        let (from, line) = match self.line_mark {
            Some((at, line)) if at <= offset => (at, line),
            _ => (0, 1),
        };
        let line = line + body.as_bytes().get(from..offset).map_or(0, count_lf) as u32;
        self.line_mark = Some((offset, line));
        line
    }

    fn replace_all(&mut self, edits: &[(usize, usize, usize)]) {
        self.run_mark = None;
        let mut out: Vec<Run> = Vec::with_capacity(self.runs.len() + 2 * edits.len());
        let mut runs = std::mem::take(&mut self.runs).into_iter();
        let mut current = runs.next();
        let mut pos = 0;
        // Moves `n` bytes from the old runs to `out` (keep) or drops them.
        let mut advance = |n: usize, keep: bool, out: &mut Vec<Run>, current: &mut Option<Run>| {
            let mut n = n;
            while n > 0 {
                let Some(run) = current.as_mut() else { return };
                let take = n.min(run.len);
                if keep {
                    out.push(Run {
                        len: take,
                        from: run.from,
                    });
                }
                run.len -= take;
                run.from = run.from.map(|f| f + take);
                n -= take;
                if run.len == 0 {
                    *current = runs.next();
                }
            }
        };
        for &(start, end, new_len) in edits {
            advance(start.saturating_sub(pos), true, &mut out, &mut current);
            advance(
                end.saturating_sub(start.max(pos)),
                false,
                &mut out,
                &mut current,
            );
            if new_len > 0 {
                out.push(Run {
                    len: new_len,
                    from: None,
                });
            }
            pos = end.max(pos);
        }
        advance(usize::MAX, true, &mut out, &mut current);
        self.runs = out;
    }

    /// For each `\n` of `body` in order, the offset it had in the body as read.
    fn newline_origins<'a>(&'a self, body: &'a str) -> impl Iterator<Item = Option<usize>> + 'a {
        let mut runs = self.runs.iter();
        let mut run = runs.next().copied();
        let mut run_start = 0usize;
        body.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(move |(p, _)| {
                while let Some(r) = run {
                    if p < run_start + r.len {
                        return r.from.map(|f| f + (p - run_start));
                    }
                    run_start += r.len;
                    run = runs.next().copied();
                }
                None
            })
    }
}

// ---------------------------------------------------------------------------
// The line model: the one place text is split into lines.
//
// THE RULE FOR CR. A line ends at a LF, and every CR right before that LF
// belongs to its ending: `\n`, `\r\n` and `\r\r\n` all end a line, and the
// line's text never ends in a CR that came before its LF. The CRs at the very
// end of the text (no LF after them) are not text either: they are kept
// apart as the text's tail. A CR anywhere else (inside a line) is text.
// This is the reply parser's rule (`src/parser/mod.rs`, "Lines"), applied
// to files too: a file's own endings and tail are remembered, so reading a
// file this way and writing it back gives the same bytes.
//
// `""` is no lines everywhere. A final LF ends the last line; it does not
// start another: `"a\n"` is one line, `"\n"` one empty line.
// ---------------------------------------------------------------------------

/// How many bytes at the end of `line` are its line ending under the one rule
/// above: the final LF and every CR right before it; 0 when `line` does not
/// end in a LF. The parser and the JS layer use this (or the rule it states)
/// instead of a rule of their own.
///
/// ```
/// use editblocks::text::line_end_len;
/// assert_eq!(line_end_len(b"a\r\r\n"), 3);
/// assert_eq!(line_end_len(b"a\n"), 1);
/// assert_eq!(line_end_len(b"a\r"), 0);
/// ```
pub fn line_end_len(line: &[u8]) -> usize {
    match line.split_last() {
        Some((b'\n', rest)) => 1 + rest.iter().rev().take_while(|&&b| b == b'\r').count(),
        _ => 0,
    }
}

/// The text of a line given without its LF (as split off by a caller, or as
/// a reply's line): the CRs that stood before the LF are dropped.
pub fn strip_line_end(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.trim_end_matches('\r')
}

/// One line of a [`LineText`]: its text is `start..end`, its ending
/// `end..end + ending` (empty for an unterminated last line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSpan {
    pub start: usize,
    pub end: usize,
    pub ending: usize,
}

/// Text split into lines by the one rule, remembering each line's ending,
/// the BOM and whether the last line is terminated; [`LineText::join`] gives
/// the text back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineText<'a> {
    /// The text after the BOM.
    pub text: &'a str,
    pub bom: bool,
    pub spans: Vec<LineSpan>,
    /// How many CRs end the text after its last line (no LF after them).
    pub tail: usize,
}

impl<'a> LineText<'a> {
    /// Splits `text`, reading a leading U+FEFF as a BOM.
    pub fn parse(text: &'a str) -> LineText<'a> {
        match text.strip_prefix('\u{feff}') {
            Some(rest) => LineText::split(rest, true),
            None => LineText::split(text, false),
        }
    }

    /// Splits `text` without looking for a BOM (text that is not a file's
    /// start: a section, a tool argument, an LF body).
    pub fn without_bom(text: &'a str) -> LineText<'a> {
        LineText::split(text, false)
    }

    fn split(text: &'a str, bom: bool) -> LineText<'a> {
        let mut spans = Vec::with_capacity(text.len() / 32 + 1);
        let tail = scan_lines(text.as_bytes(), |span| spans.push(span));
        LineText {
            text,
            bom,
            spans,
            tail,
        }
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Line `i`'s text, without its ending.
    pub fn line(&self, i: usize) -> &'a str {
        let s = self.spans[i];
        // Spans end before an ASCII CR/LF or at the end: always char boundaries.
        self.text.get(s.start..s.end).unwrap_or("")
    }

    /// Line `i`'s ending (`""`, `"\n"`, `"\r\n"`, `"\r\r\n"`, ...).
    pub fn ending(&self, i: usize) -> &'a str {
        let s = self.spans[i];
        self.text.get(s.end..s.end + s.ending).unwrap_or("")
    }

    /// Every line's text.
    pub fn lines(&self) -> Vec<&'a str> {
        (0..self.spans.len()).map(|i| self.line(i)).collect()
    }

    /// True when the last line is terminated (or there is no line).
    pub fn final_newline(&self) -> bool {
        self.spans.last().map_or(true, |s| s.ending > 0)
    }

    /// The text back, byte for byte: BOM, lines and their own endings.
    pub fn join(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 3);
        if self.bom {
            out.push('\u{feff}');
        }
        for i in 0..self.spans.len() {
            out.push_str(self.line(i));
            out.push_str(self.ending(i));
        }
        for _ in 0..self.tail {
            out.push('\r');
        }
        out
    }

    /// The text with every line ending read as LF (BOM and tail left out).
    pub fn to_lf(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for (i, s) in self.spans.iter().enumerate() {
            out.push_str(self.line(i));
            if s.ending > 0 {
                out.push('\n');
            }
        }
        out
    }
}

/// The high bit of each byte of `x` that is zero, and no other bit (exact:
/// no borrow crosses bytes). `word ^ [b; 8]` then marks the bytes equal to
/// `b`, for the eight-bytes-at-a-time scans below.
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// Calls `on_lf` with the offset of every LF in `bytes`, in order, eight
/// bytes at a time.
#[inline(always)]
fn each_lf(bytes: &[u8], mut on_lf: impl FnMut(usize)) {
    const LFS: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // The high bit of each byte that is a LF, lowest byte first.
        let mut found = zero_bytes(u64::from_le_bytes(word) ^ LFS);
        while found != 0 {
            on_lf(base + (found.trailing_zeros() / 8) as usize);
            found &= found - 1;
        }
        base += 8;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == b'\n' {
            on_lf(base + i);
        }
    }
}

/// How many LFs `bytes` holds (memchr's search: a line number on a large
/// file costs a fraction of a byte-by-byte count).
pub(crate) fn count_lf(bytes: &[u8]) -> usize {
    memchr::arch::all::memchr::One::new(b'\n').count(bytes)
}

/// The one line rule over `full`, in one pass eight bytes at a time: calls
/// `push` with each line's span (a span ends at each LF, the CRs just before
/// it read as part of the ending; an unterminated last line has no ending)
/// and returns how many CRs end the text after its last line.
pub(crate) fn scan_lines(full: &[u8], mut push: impl FnMut(LineSpan)) -> usize {
    let tail = full.iter().rev().take_while(|&&b| b == b'\r').count();
    let bytes = &full[..full.len() - tail];
    let mut start = 0;
    let mut on_lf = |lf: usize| {
        let mut end = lf;
        while end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        push(LineSpan {
            start,
            end,
            ending: lf + 1 - end,
        });
        start = lf + 1;
    };
    each_lf(bytes, &mut on_lf);
    if start < bytes.len() {
        push(LineSpan {
            start,
            end: bytes.len(),
            ending: 0,
        });
    }
    tail
}

/// The lines of a decoded body ([`TextFile::body`]): calls `push(start,
/// end)` for each line, as [`scan_lines`] would give them. A body holds no
/// CR right before a LF and none at its end (decoding read them as the
/// endings and the tail), so no line's end is looked at again for CRs:
/// one test less per line of every file a patch reads.
pub(crate) fn body_lines_spans(body: &[u8], mut push: impl FnMut(usize, usize)) {
    let mut start = 0;
    each_lf(body, |lf| {
        push(start, lf);
        start = lf + 1;
    });
    if start < body.len() {
        push(start, body.len());
    }
}

/// The lines of a text by the one rule (no BOM handling): `"a\nb\n"` and
/// `"a\nb"` are two lines, `""` is none, `"\n"` is one empty line, and
/// `"a\r\n"` is the line `a`.
pub fn split_lines(text: &str) -> Vec<&str> {
    LineText::without_bom(text).lines()
}

/// Lines that were joined by `\n` with no final newline (a parsed block's
/// section, a replacement text): the inverse of `lines.join("\n")` for any
/// non-empty list, so `"a\n"` is `a` and an empty line, and `""` is no lines.
/// Each line's CRs before its LF are dropped by the one rule.
pub fn split_joined(text: &str) -> Vec<&str> {
    let t = LineText::without_bom(text);
    let mut lines = t.lines();
    if !t.is_empty() && t.final_newline() {
        lines.push("");
    }
    lines
}

/// Text with every line ending read as LF by the one rule (`\r\n` and
/// `\r\r\n` become `\n`, CRs ending the text are dropped; other CRs stay).
pub fn to_lf(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.as_bytes().contains(&b'\r') {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(LineText::without_bom(text).to_lf())
}

/// The lines of an LF body: `"a\nb\n"` and `"a\nb"` are two lines, `""` is
/// none, `"\n"` is one empty line. ([`split_lines`]; kept under this name.)
pub fn body_lines(body: &str) -> Vec<&str> {
    split_lines(body)
}

/// A line ending of `crs` CRs and a LF.
fn push_ending(out: &mut String, crs: u32) {
    for _ in 0..crs {
        out.push('\r');
    }
    out.push('\n');
}

/// True when `bytes` has a NUL in its first 8 KiB.
pub fn is_binary(bytes: &[u8]) -> bool {
    has_byte(&bytes[..bytes.len().min(BINARY_SNIFF_LEN)], 0)
}

/// [`is_binary`] and whether `bytes` holds a CR, in one pass over the first
/// 8 KiB (a file read as text was otherwise scanned once for each). Past
/// them a binary file is not looked at: its CR answer is then meaningless.
fn binary_and_cr(bytes: &[u8]) -> (bool, bool) {
    const CRS: u64 = 0x0d0d_0d0d_0d0d_0d0d;
    let (sniffed, rest) = bytes.split_at(bytes.len().min(BINARY_SNIFF_LEN));
    let (mut nul, mut cr) = (0u64, 0u64);
    let mut chunks = sniffed.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        nul |= zero_bytes(w);
        cr |= zero_bytes(w ^ CRS);
    }
    let tail = chunks.remainder();
    let binary = nul != 0 || tail.contains(&0);
    let has_cr = cr != 0 || tail.contains(&b'\r') || (!binary && has_byte(rest, b'\r'));
    (binary, has_cr)
}

/// Whether `bytes` holds `byte`, read eight bytes at a time (wasm's
/// `memchr` reads four).
fn has_byte(bytes: &[u8], byte: u8) -> bool {
    find_byte(bytes, byte).is_some()
}

/// The last `bytes.len() % 8` bytes of `bytes` as a little-endian word,
/// zero above them: what an eight-byte reader is left with after its whole
/// words. Read with a few fixed-size loads, not a copy of a variable
/// length: in wasm that copy is a `memory.copy`, which V8 runs as a call
/// out of the compiled code, and the line and path hashes did one per
/// line (8% of applying a patch to a 3,000-line file went to it).
pub(crate) fn tail_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let r = n % 8;
    let load = |at: usize, width: usize| -> u64 {
        let mut w = [0u8; 8];
        w[..width].copy_from_slice(&bytes[at..at + width]);
        u64::from_le_bytes(w)
    };
    match (r, n) {
        (0, _) => 0,
        // The last whole word, less the bytes a whole word already took.
        (_, 8..) => load(n - 8, 8) >> (8 * (8 - r)),
        // The text is all tail: two overlapping loads (the bytes they
        // share are the same, so OR keeps them).
        (_, 4..) => load(0, 4) | load(n - 4, 4) << (8 * (n - 4)),
        (_, 2..) => load(0, 2) | load(n - 2, 2) << (8 * (n - 2)),
        _ => u64::from(bytes[0]),
    }
}

/// Whether two texts are equal, eight bytes at a time: wasm's `memcmp`
/// compares byte by byte. For lines compared after their hashes matched (2%
/// of applying 50 sections to a 3,000-line file went to `==`), and for the
/// JavaScript binding's check that a file change's text is the one written.
pub fn same_str(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_str`] for bytes.
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |c: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        u64::from_le_bytes(w)
    };
    a.chunks_exact(8)
        .zip(b.chunks_exact(8))
        .all(|(x, y)| word(x) == word(y))
        && tail_word(a) == tail_word(b)
}

/// The first position of `byte` in `bytes`, read eight bytes at a time
/// (for short lines too: `str::find` costs a call into `memchr` each).
pub(crate) fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
    let pattern = u64::from_le_bytes([byte; 8]);
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // The high bit of each byte equal to `byte`, lowest first.
        let found = zero_bytes(u64::from_le_bytes(word) ^ pattern);
        if found != 0 {
            return Some(base + (found.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == byte)
        .map(|i| base + i)
}

impl TextFile {
    /// Splits file bytes into a body for matching plus the conventions to
    /// restore when writing.
    pub fn decode(bytes: &[u8]) -> Result<TextFile, DecodeError> {
        if is_binary(bytes) {
            return Err(DecodeError::Binary);
        }
        let text = std::str::from_utf8(bytes).map_err(|_| DecodeError::NotUtf8)?;
        Ok(TextFile::from_text(text))
    }

    /// As [`TextFile::decode`], taking the bytes: when they are the body
    /// exactly (LF endings, no BOM, no CR at the end) they become it without
    /// a copy and `None` is returned beside it; otherwise the bytes come
    /// back beside the decoded file (and with the error).
    #[allow(clippy::type_complexity)] // (decoded, bytes as read when not the body)
    pub fn decode_owned(
        bytes: Vec<u8>,
    ) -> Result<(TextFile, Option<Vec<u8>>), (DecodeError, Vec<u8>)> {
        let (binary, has_cr) = binary_and_cr(&bytes);
        if binary {
            return Err((DecodeError::Binary, bytes));
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err((DecodeError::NotUtf8, e.into_bytes())),
        };
        if has_cr || text.starts_with('\u{feff}') {
            let file = TextFile::from_text(&text);
            return Ok((file, Some(text.into_bytes())));
        }
        Ok((
            TextFile {
                body: text,
                bom: false,
                crlf: false,
                mixed: None,
                tail_crs: 0,
            },
            None,
        ))
    }

    /// As [`TextFile::decode`], for text that is already a string.
    pub fn from_text(text: &str) -> TextFile {
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let kept = text.trim_end_matches('\r');
        let tail_crs = (text.len() - kept.len()) as u32;
        let text = kept;
        // No CR at all (one scan, eight bytes at a time): no line endings to count.
        let crlfs = if has_byte(text.as_bytes(), b'\r') {
            text.matches("\r\n").count()
        } else {
            0
        };
        if crlfs == 0 {
            // All LF (or no newline at all): the fast path, nothing to remember.
            return TextFile {
                body: text.to_string(),
                bom,
                crlf: false,
                mixed: None,
                tail_crs,
            };
        }
        let newlines = text.matches('\n').count();
        if crlfs == newlines && !text.contains("\r\r\n") {
            return TextFile {
                body: text.replace("\r\n", "\n"),
                bom,
                crlf: true,
                mixed: None,
                tail_crs,
            };
        }
        // Mixed (or an ending of several CRs): read every ending as LF by the
        // one rule and remember each line's own ending.
        let split = LineText::without_bom(text);
        let mut body = String::with_capacity(text.len());
        let mut offsets = Vec::with_capacity(newlines);
        let mut endings = Vec::with_capacity(newlines);
        for (i, span) in split.spans.iter().enumerate() {
            body.push_str(split.line(i));
            if span.ending > 0 {
                offsets.push(body.len());
                body.push('\n');
                endings.push((span.ending - 1) as u32);
            }
        }
        let with_cr = endings.iter().filter(|&&n| n > 0).count();
        // Ties go to LF, the convention of a new file.
        let crlf = with_cr > endings.len() - with_cr;
        TextFile {
            body,
            bom,
            crlf,
            mixed: Some(Box::new(MixedEndings {
                newlines: offsets,
                crs: endings,
            })),
            tail_crs,
        }
    }

    /// The file's conventions (BOM, endings, tail) with an empty body, for
    /// a caller that keeps the body's lines apart.
    pub fn without_body(&self) -> TextFile {
        TextFile {
            body: String::new(),
            bom: self.bom,
            crlf: self.crlf,
            mixed: self.mixed.clone(),
            tail_crs: self.tail_crs,
        }
    }

    /// A new file: no BOM, LF endings.
    pub fn new_file() -> TextFile {
        TextFile {
            body: String::new(),
            bom: false,
            crlf: false,
            mixed: None,
            tail_crs: 0,
        }
    }

    /// Writes the file's tail of CRs back (not when an edit emptied a file
    /// that had lines).
    pub(crate) fn push_tail(&self, out: &mut String, empty: bool) {
        if empty && !self.body.is_empty() {
            return;
        }
        for _ in 0..self.tail_crs {
            out.push('\r');
        }
    }

    /// True when the file mixes CRLF and LF line endings.
    pub fn mixed_endings(&self) -> bool {
        self.mixed.is_some()
    }

    /// In a file with mixed endings: which line of the body as read has
    /// its `\n` at byte `newline_at` of the body (its ending is then
    /// known); `None` otherwise.
    pub(crate) fn body_newline_index(&self, newline_at: usize) -> Option<usize> {
        self.mixed
            .as_ref()?
            .newlines
            .binary_search(&newline_at)
            .ok()
    }

    /// True when the body ends with a newline (or is empty).
    pub fn has_final_newline(&self) -> bool {
        self.body.is_empty() || self.body.ends_with('\n')
    }

    /// Turns an edited LF body back into the file's own conventions.
    ///
    /// `original_final_newline` is whether the file ended with a newline
    /// before editing; with [`TrailingNewline::Preserve`] the result keeps
    /// that choice, with [`TrailingNewline::Ensure`] a non-empty result always
    /// ends with one.
    ///
    /// Which lines of a mixed-ending file were kept is read from what
    /// `new_body` shares with the body as read at its start and end (one
    /// edit's worth); callers that make several edits pass their
    /// [`Provenance`] to [`TextFile::encode_tracked`].
    pub fn encode(
        &self,
        new_body: &str,
        original_final_newline: bool,
        policy: TrailingNewline,
    ) -> String {
        if self.mixed.is_none() {
            return self.encode_tracked(new_body, None, original_final_newline, policy);
        }
        let (old, new) = (self.body.as_bytes(), new_body.as_bytes());
        let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let suffix = old[prefix..]
            .iter()
            .rev()
            .zip(new[prefix..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let mut provenance = Provenance::original(old.len());
        provenance.replace(&[(prefix, old.len() - suffix, new.len() - prefix - suffix)]);
        self.encode_tracked(new_body, Some(&provenance), original_final_newline, policy)
    }

    /// As [`TextFile::encode`], with where the body's bytes came from: in a
    /// file with mixed endings each `\n` kept from the file as read gets its
    /// own ending back, every other one the majority's. With `None`, every
    /// line of a mixed file gets the majority's ending.
    pub fn encode_tracked(
        &self,
        new_body: &str,
        provenance: Option<&Provenance>,
        original_final_newline: bool,
        policy: TrailingNewline,
    ) -> String {
        let want_newline = match policy {
            TrailingNewline::Ensure => true,
            TrailingNewline::Preserve => original_final_newline,
        };
        let mut body = new_body;
        let added;
        if !body.is_empty() {
            if want_newline && !body.ends_with('\n') {
                added = format!("{body}\n");
                body = &added;
            } else if !want_newline {
                body = body.strip_suffix('\n').unwrap_or(body);
            }
        }
        let mut out = String::with_capacity(body.len() + body.len() / 16 + 4);
        if self.bom {
            out.push('\u{feff}');
        }
        match (&self.mixed, provenance) {
            (Some(mixed), Some(prov)) => {
                let mut origins = prov.newline_origins(body);
                for piece in body.split_inclusive('\n') {
                    let Some(line) = piece.strip_suffix('\n') else {
                        out.push_str(piece);
                        continue;
                    };
                    out.push_str(line);
                    let own = origins
                        .next()
                        .flatten()
                        .and_then(|o| mixed.newlines.binary_search(&o).ok())
                        .and_then(|i| mixed.crs.get(i).copied());
                    push_ending(&mut out, own.unwrap_or(u32::from(self.crlf)));
                }
            }
            _ if self.crlf => out.push_str(&body.replace('\n', "\r\n")),
            _ => out.push_str(body),
        }
        self.push_tail(&mut out, body.is_empty());
        out
    }

    /// As [`TextFile::encode_kept_lines`] for lines that are all new: each
    /// line ended except the last, which is ended when `final_newline` is set.
    ///
    /// Unlike [`TextFile::encode`] this never drops a line: a blank last line
    /// in a file without a final newline is written as an empty, unterminated
    /// line (so `["a", ""]` without a final newline is `"a\n"`).
    pub fn encode_lines<S: AsRef<str>>(&self, lines: &[S], final_newline: bool) -> String {
        // Sized once: the lines, an ending each, a BOM and the tail.
        let ending = if self.crlf { 2 } else { 1 };
        let capacity = lines
            .iter()
            .map(|l| l.as_ref().len() + ending)
            .sum::<usize>()
            + 3
            + self.tail_crs as usize;
        self.encode_kept_lines_into(
            String::with_capacity(capacity),
            lines.iter().map(|l| (l.as_ref(), None)),
            final_newline,
        )
    }

    /// As [`TextFile::encode_lines`], for lines that say which line of the
    /// file as read they are (`None` for a line an edit wrote): in a file
    /// with mixed endings each kept line is written with its own ending, new
    /// lines with the majority's. Linear, and exact by construction.
    pub fn encode_kept_lines<'a>(
        &self,
        lines: impl Iterator<Item = (&'a str, Option<usize>)>,
        final_newline: bool,
    ) -> String {
        self.encode_kept_lines_into(String::new(), lines, final_newline)
    }

    fn encode_kept_lines_into<'a>(
        &self,
        mut out: String,
        lines: impl Iterator<Item = (&'a str, Option<usize>)>,
        final_newline: bool,
    ) -> String {
        let majority = if self.crlf { "\r\n" } else { "\n" };
        if self.bom {
            out.push('\u{feff}');
        }
        let mut lines = lines.peekable();
        let empty = lines.peek().is_none();
        while let Some((line, origin)) = lines.next() {
            out.push_str(line);
            if lines.peek().is_some() || final_newline {
                let own = match (&self.mixed, origin) {
                    (Some(mixed), Some(o)) => mixed.crs.get(o).copied(),
                    _ => None,
                };
                match own {
                    Some(crs) => push_ending(&mut out, crs),
                    None => out.push_str(majority),
                }
            }
        }
        self.push_tail(&mut out, empty);
        out
    }
}

/// [`str::trim`], with ASCII whitespace stripped byte by byte (the usual
/// case); a non-ASCII character at either end goes through `str::trim`.
/// Every line of a reply is trimmed at least once, by the parser and the
/// patch grammars.
#[inline(always)]
pub(crate) fn trim_line(line: &str) -> &str {
    let ws = |b: u8| b == b' ' || (0x09..=0x0D).contains(&b);
    let bytes = line.as_bytes();
    let mut start = 0;
    while start < bytes.len() && ws(bytes[start]) {
        start += 1;
    }
    let mut end = bytes.len();
    while end > start && ws(bytes[end - 1]) {
        end -= 1;
    }
    // Only ASCII bytes were skipped, so both ends are character boundaries.
    let mid = line.get(start..end).unwrap_or(line);
    match (mid.as_bytes().first(), mid.as_bytes().last()) {
        (Some(&a), Some(&b)) if a >= 0x80 || b >= 0x80 => mid.trim(),
        _ => mid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A single replaced range rebuilds only the runs it touches, with the
    /// same runs as the walk over every run gives.
    #[test]
    fn one_replaced_range_gives_the_runs_of_the_full_walk() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below.max(1) as u64) as usize
        };
        for _ in 0..2000 {
            let mut runs = Provenance::original(1 + next(40));
            let mut len = runs.runs.iter().map(|r| r.len).sum::<usize>();
            for _ in 0..1 + next(6) {
                let start = next(len + 1);
                let end = start + next(len - start + 3);
                let new_len = next(4);
                let mut walked = runs.clone();
                walked.replace_all(&[(start, end, new_len)]);
                runs.replace(&[(start, end, new_len)]);
                assert_eq!(
                    runs.runs, walked.runs,
                    "replacing {start}..{end} by {new_len}"
                );
                len = runs.runs.iter().map(|r| r.len).sum();
            }
            // Line numbers found from the mark are those of a full count.
            let body: String = (0..len)
                .map(|i| if i % 3 == 0 { '\n' } else { 'x' })
                .collect();
            for _ in 0..4 {
                let offset = next(len + 2);
                let full = body.as_bytes()[..offset.min(len)]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count() as u32
                    + 1;
                assert_eq!(runs.line_at(&body, offset), full);
            }
        }
    }

    /// The spans as a plain byte-by-byte reading gives them.
    fn naive_spans(text: &str) -> (Vec<LineSpan>, usize) {
        let full = text.as_bytes();
        let tail = full.iter().rev().take_while(|&&b| b == b'\r').count();
        let bytes = &full[..full.len() - tail];
        let (mut spans, mut start) = (Vec::new(), 0);
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                let crs = bytes[start..i]
                    .iter()
                    .rev()
                    .take_while(|&&c| c == b'\r')
                    .count();
                spans.push(LineSpan {
                    start,
                    end: i - crs,
                    ending: crs + 1,
                });
                start = i + 1;
            }
        }
        if start < bytes.len() {
            spans.push(LineSpan {
                start,
                end: bytes.len(),
                ending: 0,
            });
        }
        (spans, tail)
    }

    #[test]
    fn split_reads_eight_bytes_at_a_time_as_one_at_a_time() {
        // LFs and CRs at every position of the eight-byte words, runs of
        // them across word edges, multi-byte characters, and tails.
        let pieces = [
            "a",
            "\n",
            "\r",
            "\r\n",
            "\r\r\n",
            "é",
            "\n\n",
            "12345678",
            "\u{1F600}",
            "\t",
        ];
        let mut seed = 7u64;
        for len in 0..400 {
            let mut text = String::new();
            for _ in 0..(len % 40) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let split = LineText::without_bom(&text);
            let (spans, tail) = naive_spans(&text);
            assert_eq!((&split.spans, split.tail), (&spans, tail), "{text:?}");
            assert_eq!(split.join(), text);
        }
    }

    #[test]
    fn a_decoded_body_splits_as_the_line_rule_splits_it() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "one\r\ntwo\nthree\r\r\nfour\r",
            "x\ry\n\n\nlonger line of text here\nend",
            "\u{feff}a\r\n\r\nb",
            "1234567\n12345678\n123456789\n\r\r",
        ] {
            let body = TextFile::from_text(text).body;
            let mut want = Vec::new();
            scan_lines(body.as_bytes(), |s| want.push((s.start, s.end)));
            let mut got = Vec::new();
            body_lines_spans(body.as_bytes(), |start, end| got.push((start, end)));
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn tail_word_is_the_remainder_zero_padded() {
        let text: Vec<u8> = (1..=40u8).map(|b| b.wrapping_mul(37) | 0x80).collect();
        for len in 0..text.len() {
            let bytes = &text[..len];
            let rest = bytes.chunks_exact(8).remainder();
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            assert_eq!(tail_word(bytes), u64::from_le_bytes(w), "{len}");
        }
    }

    #[test]
    fn same_str_is_equality() {
        let base = "abcdefghijklmnopqrstuvwxyz0123456789é";
        for len in 0..base.len() {
            let Some(a) = base.get(..len) else { continue };
            assert!(same_str(a, a));
            assert!(!same_str(a, base), "{len}");
            for at in 0..len {
                let mut b = a.as_bytes().to_vec();
                b[at] ^= 1;
                let b = String::from_utf8_lossy(&b).into_owned();
                assert_eq!(same_str(a, &b), a == b, "{len} {at}");
            }
        }
    }

    #[test]
    fn binary_and_cr_is_is_binary_and_has_byte() {
        let mut seed = 3u64;
        for len in [
            0,
            1,
            7,
            8,
            9,
            15,
            16,
            17,
            100,
            BINARY_SNIFF_LEN - 1,
            BINARY_SNIFF_LEN,
            BINARY_SNIFF_LEN + 9,
        ] {
            for _ in 0..40 {
                let mut bytes = vec![b'a'; len];
                for _ in 0..2 {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    if len > 0 {
                        let at = (seed >> 33) as usize % len;
                        bytes[at] = [0u8, b'\r', 0x8d, 0x80][(seed >> 20) as usize % 4];
                    }
                }
                let (binary, cr) = binary_and_cr(&bytes);
                assert_eq!(binary, is_binary(&bytes), "{len}");
                if !binary {
                    assert_eq!(cr, has_byte(&bytes, b'\r'), "{len}");
                }
            }
        }
    }

    #[test]
    fn has_byte_finds_a_byte_anywhere() {
        for len in 0..40 {
            for at in 0..len {
                let mut bytes = vec![b'a'; len];
                assert!(!has_byte(&bytes, b'\r'));
                bytes[at] = b'\r';
                assert!(has_byte(&bytes, b'\r'), "{len} {at}");
                bytes[at] = 0x8d; // the same low seven bits
                assert!(!has_byte(&bytes, b'\r'), "{len} {at}");
            }
        }
    }

    #[test]
    fn crlf_and_bom_round_trip() {
        let file = TextFile::decode("\u{feff}a\r\nb\r\n".as_bytes()).unwrap();
        assert!(file.bom && file.crlf);
        assert_eq!(file.body, "a\nb\n");
        assert_eq!(
            file.encode("a\nc\n", true, TrailingNewline::Preserve),
            "\u{feff}a\r\nc\r\n"
        );
    }

    #[test]
    fn mixed_endings_read_as_lf_and_kept_per_line() {
        let file = TextFile::from_text("a\r\nb\nc\r\n");
        assert!(
            file.crlf && file.mixed_endings(),
            "two CRLF against one LF: new lines get CRLF"
        );
        assert_eq!(file.body, "a\nb\nc\n");
        let kept = |edits: &[(usize, usize, usize)]| {
            let mut p = Provenance::original(6);
            p.replace(edits);
            p
        };
        let enc = |body: &str, p: Provenance| {
            file.encode_tracked(body, Some(&p), true, TrailingNewline::Preserve)
        };
        assert_eq!(
            enc("a\nb\nc\n", kept(&[])),
            "a\r\nb\nc\r\n",
            "unchanged round trip"
        );
        assert_eq!(
            enc("a\nB\nc\n", kept(&[(2, 3, 1)])),
            "a\r\nB\nc\r\n",
            "the line's own newline is kept"
        );
        assert_eq!(
            enc("a\nb\nx\nc\n", kept(&[(4, 4, 2)])),
            "a\r\nb\nx\r\nc\r\n"
        );
        assert_eq!(enc("b\nc\n", kept(&[(0, 2, 0)])), "b\nc\r\n");
        assert_eq!(
            file.encode("a\nb\nc\n", true, TrailingNewline::Preserve),
            "a\r\nb\nc\r\n",
            "no provenance: the common start and end are kept"
        );
        assert_eq!(
            file.encode("a\nb\nx\nc\n", true, TrailingNewline::Preserve),
            "a\r\nb\nx\r\nc\r\n"
        );
        assert_eq!(
            file.encode_tracked("a\nb\nc\n", None, true, TrailingNewline::Preserve),
            "a\r\nb\r\nc\r\n",
            "no provenance at all: the majority"
        );
        // A lone CR is content; a tie goes to LF.
        let file = TextFile::from_text("x\ry\r\nz\n");
        assert!(!file.crlf && file.mixed_endings());
        assert_eq!(file.body, "x\ry\nz\n");
        let mut p = Provenance::original(6);
        p.replace(&[(6, 6, 1)]);
        assert_eq!(
            file.encode_tracked("x\ry\nz\nw", Some(&p), false, TrailingNewline::Ensure),
            "x\ry\r\nz\nw\n"
        );
        // Uniform files do not remember lines.
        assert!(!TextFile::from_text("a\rb\n").mixed_endings());
        assert_eq!(TextFile::from_text("a\rb\n").body, "a\rb\n");
        assert!(!TextFile::from_text("a\r\nb").mixed_endings());
    }

    #[test]
    fn encode_lines_keeps_a_blank_last_line() {
        let file = TextFile::from_text("a\n\nb");
        assert_eq!(file.encode_lines(&["a", ""], false), "a\n");
        assert_eq!(file.encode_lines(&["a", ""], true), "a\n\n");
        assert_eq!(file.encode_lines::<&str>(&[], false), "");
        let crlf = TextFile::from_text("\u{feff}a\r\nb\r\n");
        assert_eq!(crlf.encode_lines(&["a", "c"], true), "\u{feff}a\r\nc\r\n");
    }

    #[test]
    fn final_newline_policy() {
        let file = TextFile::from_text("a");
        assert_eq!(
            file.encode("a\nb\n", false, TrailingNewline::Preserve),
            "a\nb"
        );
        assert_eq!(
            file.encode("a\nb", false, TrailingNewline::Ensure),
            "a\nb\n"
        );
        assert_eq!(
            file.encode("a\nb", true, TrailingNewline::Preserve),
            "a\nb\n"
        );
    }

    #[test]
    fn decode_owned_is_decode_and_keeps_bytes_that_are_not_the_body() {
        let inputs: [&[u8]; 9] = [
            b"",
            b"a\nb\n",
            b"a\nb",
            b"\xef\xbb\xbfa\n",
            b"a\r\nb\r\n",
            b"a\r\nb\n",
            b"a\n\r",
            b"a\0b",
            b"\xff\xfe",
        ];
        for bytes in inputs {
            match (
                TextFile::decode(bytes),
                TextFile::decode_owned(bytes.to_vec()),
            ) {
                (Ok(file), Ok((owned, kept))) => {
                    assert_eq!(file, owned, "{bytes:?}");
                    let as_body = file.body.as_bytes() == bytes;
                    assert_eq!(kept.is_none(), as_body, "{bytes:?}");
                    if let Some(kept) = kept {
                        assert_eq!(kept, bytes);
                    }
                }
                (Err(e), Err((owned, kept))) => {
                    assert_eq!((e, kept.as_slice()), (owned, bytes));
                }
                (a, b) => panic!("{bytes:?}: {a:?} / {b:?}"),
            }
        }
    }

    #[test]
    fn decode_errors_say_what_is_wrong_and_what_would_fix_it() {
        assert_eq!(
            DecodeError::Binary.to_string(),
            "the file is binary (a NUL byte in its first 8 KiB); only text files can be edited"
        );
        let not_utf8: Box<dyn std::error::Error> = Box::new(DecodeError::NotUtf8);
        assert_eq!(
            not_utf8.to_string(),
            "the file is not valid UTF-8; only UTF-8 text files can be edited (convert it first)"
        );
    }

    #[test]
    fn binary_and_invalid_utf8_are_refused() {
        assert_eq!(TextFile::decode(b"ab\0c"), Err(DecodeError::Binary));
        assert_eq!(
            TextFile::decode(&[0xff, 0xfe, 0x41]),
            Err(DecodeError::NotUtf8)
        );
        let mut late_nul = vec![b'a'; BINARY_SNIFF_LEN];
        late_nul.push(0);
        assert!(
            TextFile::decode(&late_nul).is_ok(),
            "a NUL past 8 KiB is not sniffed"
        );
    }
}

/// `text` in double quotes, escaped the way Rust's `{:?}` writes a string,
/// for the messages that quote a reply's text or a path. Written out so the
/// module does not link `Debug` for `str` and its Unicode tables: it is the
/// same text for ASCII, Latin-1, and the invisible, spacing and combining
/// characters listed in `escaped_char`; any other character is kept as
/// is (where `{:?}` escapes a few rare ones: unassigned, private-use, rare
/// combining marks).
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if escaped_char(c) => {
                out.push_str("\\u{");
                let mut digits = [0u8; 8];
                let mut n = c as u32;
                let mut i = digits.len();
                loop {
                    i -= 1;
                    digits[i] = b"0123456789abcdef"[(n & 0xf) as usize];
                    n >>= 4;
                    if n == 0 {
                        break;
                    }
                }
                for &d in &digits[i..] {
                    out.push(d as char);
                }
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters `{:?}` writes as `\u{…}`, as far as [`quoted`] knows them:
/// controls, the non-ASCII spaces, line and paragraph separators, format
/// characters (soft hyphen, zero-width and direction marks, BOM), surrogate
/// and private-use code points, and the common combining marks.
fn escaped_char(c: char) -> bool {
    matches!(c as u32,
        0x00..=0x1f | 0x7f..=0xa0 | 0xad
        | 0x300..=0x36f // combining diacritical marks
        | 0x483..=0x489 | 0x591..=0x5bd | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f
        | 0x1680 | 0x180e | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064
        | 0x2066..=0x206f | 0x20d0..=0x20f0 | 0x3000 | 0x302a..=0x302f | 0x3099 | 0x309a
        | 0xe000..=0xf8ff | 0xfe00..=0xfe0f | 0xfe20..=0xfe2f | 0xfeff | 0xfff9..=0xfffb
        | 0xe0001 | 0xe0020..=0xe007f | 0xe0100..=0xe01ef | 0xf0000..)
}

#[cfg(test)]
mod quoted_tests {
    use super::quoted;

    /// Every character of the ranges `quoted` claims gives `{:?}`'s text.
    #[test]
    fn same_text_as_debug_for_the_characters_it_knows() {
        let ranges = [
            0x00..=0x2ff,
            0x300..=0x36f,
            0x370..=0x482,
            0x483..=0x489,
            0x600..=0x605,
            0x1680..=0x1680,
            0x180e..=0x180e,
            0x2000..=0x2070,
            0x20a0..=0x20f0,
            0x2100..=0x2bff,
            0x3000..=0x30ff,
            0x4e00..=0x4eff,
            0xac00..=0xacff,
            0xe000..=0xf8ff,
            0xfe00..=0xfe2f,
            0xfeff..=0xfeff,
            0xfff9..=0xfffd,
            0x1f300..=0x1f64f,
            0xe0001..=0xe0001,
            0xe0020..=0xe007f,
            0xe0100..=0xe01ef,
        ];
        // Unassigned code points inside those ranges: `{:?}` escapes them,
        // `quoted` does not (the documented difference).
        let unassigned = [
            0x378..=0x379,
            0x380..=0x383,
            0x38b..=0x38b,
            0x38d..=0x38d,
            0x3a2..=0x3a2,
            0x2065..=0x2065,
            0x20c2..=0x20cf,
            0x218c..=0x218f,
            0x242a..=0x243f,
            0x244b..=0x245f,
            0x2b74..=0x2b75,
            0x3040..=0x3040,
            0x3097..=0x3098,
            0xfe1a..=0xfe1f,
        ];
        for range in ranges {
            for u in range {
                let Some(c) = char::from_u32(u) else { continue };
                if unassigned.iter().any(|r| r.contains(&u)) {
                    continue;
                }
                let s = format!("a{c}b");
                assert_eq!(quoted(&s), format!("{s:?}"), "U+{u:04X}");
            }
        }
        let mixed = "src/\"x\"\\y\tz\r\n\0 é e\u{301} 👍\u{fe0f} \u{200b}\u{feff}";
        assert_eq!(quoted(mixed), format!("{mixed:?}"));
        assert_eq!(quoted(""), "\"\"");
    }
}
