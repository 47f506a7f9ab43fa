//! The incremental, line-based state machine behind [`EditStream`] and
//! [`parse_edits`](super::parse_edits).
//!
//! State kept between chunks: the current unterminated line, the path
//! candidate (the last path-like line and the blank or fence lines after it),
//! and the block being read. Consumed text is never scanned again, so the
//! cost is linear in the length of the reply however it is chunked.

use super::events::{PendingBlock, PendingSection, Section, StreamEvent};
use super::markers::{classify, is_fence, spelling, Marker, Spelling};
use super::patch_parts::{Fed, PatchEvent};
use super::patch_reader::PatchReader;
use super::path_line::{looks_like_path_word, path_in_line, undecorated};
use super::sink::{AnySink, CompleteBlock, EventSink, Mark, PathAt, Sink};
use super::{trim, ParseOptions};
use crate::block::{EditBlock, Format};
use crate::text::find_byte;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// `««« EDIT`: `edit-repl` or `anchored`.
    Edit,
    Search,
}

/// The last non-blank, non-fence line before a start marker.
enum Candidate<M> {
    None,
    /// A line of text at `line_number`, starting at byte `offset`; the text and
    /// the blank or fence lines after it are in `EditStream::lead`.
    Line {
        line_number: u32,
        offset: usize,
        mark: M,
        len: usize,
    },
    /// The previous block ended and only blank or fence lines followed: a
    /// block here continues in the same file.
    Previous,
}

struct Block<M> {
    family: Family,
    format: Option<Format>,
    /// `None`: refused at its start marker; read to its end silently.
    path: Option<String>,
    path_span: (usize, usize),
    line_number: u32,
    /// The block as written (LF-normalised), each line followed by `'\n'`.
    raw: String,
    raw_start: usize,
    raw_mark: M,
    /// Index of the current section (0..4).
    section: usize,
    /// Start offset in `raw` of each section's content, and its line count.
    starts: [usize; 4],
    ends: [usize; 4],
    counts: [u32; 4],
    /// The last start marker of this block's family read as content of the
    /// current section.
    nested: Option<NestedStart<M>>,
    /// `search-replace`: the line of a divider that was not exactly
    /// `=======` (5, 6, 8 or 9 `=`), taken as the divider.
    loose_divider: Option<u32>,
    /// Line of the divider that ended the first section.
    divider_line: u32,
    /// What was assumed to read the block ([`ASSUMED`] bits).
    assumed: u32,
    /// Roo Code's `:start_line:N` header, a hint for ties.
    line_hint: Option<u32>,
    /// Roo Code's header lines may still come (start of the search text).
    header_open: bool,
    /// The block is read to its end and then discarded with this reason.
    doomed: Option<String>,
}

const PATH_REUSED: u32 = 1;
const MARKER_REPAIRED: u32 = 2;
const CLINE_MARKERS: u32 = 4;
const LINE_HINT: u32 = 8;
/// A create block's text came wrapped in its path line and a code fence.
const NEW_FILE_WRAPPER: u32 = 16;

fn spelling_bits_for(family: Family, marker_line: &str) -> u32 {
    match family {
        Family::Search => spelling_bits(marker_line),
        Family::Edit => 0,
    }
}

/// Whether prose `line` names a file other than `previous` (a word that
/// looks like a path: `Now src/b.py:`), so that a block after it must not
/// be taken to go on in `previous`.
fn names_other_path(line: &str, previous: &str) -> bool {
    line.split_whitespace().any(|w| {
        let w = undecorated(
            w.trim_end_matches(['.', ',', ';', '!', '?', ')', ':'])
                .trim_start_matches('('),
        );
        let w = w.trim_end_matches(['.', ',', ';', '!', '?', ')', ':']);
        looks_like_path_word(w) && w != previous
    })
}

fn spelling_bits(marker_line: &str) -> u32 {
    match spelling(marker_line.trim()) {
        Spelling::Canonical => 0,
        Spelling::Repaired => MARKER_REPAIRED,
        Spelling::Cline => CLINE_MARKERS,
    }
}

/// A line of Roo Code's header at the top of the search text:
/// `:start_line:N` (the number), `:end_line:N`, or the `-------` rule that
/// ends the header.
enum RooHeader {
    Start(u32),
    End,
    Rule,
}

fn roo_header(t: &str) -> Option<RooHeader> {
    if let Some(n) = t.strip_prefix(":start_line:") {
        return n.trim().parse().ok().map(RooHeader::Start);
    }
    if let Some(n) = t.strip_prefix(":end_line:") {
        return n.trim().parse::<u32>().ok().map(|_| RooHeader::End);
    }
    ((5..=9).contains(&t.len()) && t.bytes().all(|b| b == b'-')).then_some(RooHeader::Rule)
}

/// `block` with Roo Code's escape undone: a search-replace line written
/// `\:start_line:` or `\:end_line:` (after any indentation) is that text
/// without the backslash, the way a line of text says it is no line-hint
/// header. `None` when no line is escaped so.
pub(crate) fn roo_unescaped(block: &EditBlock) -> Option<EditBlock> {
    if block.format != Format::SearchReplace {
        return None;
    }
    let unescape = |text: &str| -> Option<String> {
        let escaped = |line: &str| {
            let rest = line.trim_start_matches([' ', '\t']);
            rest.starts_with("\\:start_line:") || rest.starts_with("\\:end_line:")
        };
        if !text.split('\n').any(escaped) {
            return None;
        }
        let lines: Vec<String> = text
            .split('\n')
            .map(|line| {
                if escaped(line) {
                    line.replacen("\\:", ":", 1)
                } else {
                    line.to_string()
                }
            })
            .collect();
        Some(lines.join("\n"))
    };
    let old = unescape(&block.old_lines);
    let new = unescape(&block.new_lines);
    if old.is_none() && new.is_none() {
        return None;
    }
    let mut out = block.clone();
    if let Some(old) = old {
        out.old_lines = old;
    }
    if let Some(new) = new {
        out.new_lines = new;
    }
    Some(out)
}

/// An incremental parser for a reply that arrives in chunks.
///
/// ```
/// use editblocks::parser::{EditStream, ParseOptions, StreamEvent};
///
/// let mut stream = EditStream::new(&ParseOptions::default());
/// let mut events = stream.feed("src/a.py\n<<<<<<< SEA");
/// events.extend(stream.feed("RCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"));
/// events.extend(stream.finish());
/// let done: Vec<_> = events.iter().filter_map(|e| match e {
///     StreamEvent::BlockComplete { block, .. } => Some(block.new_lines.as_str()),
///     _ => None,
/// }).collect();
/// assert_eq!(done, ["new"]);
/// ```
pub struct EditStream {
    grammar: Grammar<EventSink>,
}

impl EditStream {
    /// A stream that looks for the formats in `options` (all when empty).
    pub fn new(options: &ParseOptions) -> EditStream {
        EditStream {
            grammar: Grammar::new(options, EventSink::default()),
        }
    }

    /// Reads a chunk of the reply (any split: inside a line, a marker or
    /// between CR and LF) and returns what happened.
    pub fn feed(&mut self, chunk: &str) -> Vec<StreamEvent> {
        self.grammar.feed(chunk);
        std::mem::take(&mut self.grammar.sink_mut().events)
    }

    /// Ends the reply: reads the last line if it had no newline, and discards
    /// a block left open, with its reason. The stream is then empty and may
    /// read a new reply from its first line.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        self.grammar.end();
        let out = std::mem::take(&mut self.grammar.sink_mut().events);
        self.grammar.reset();
        out
    }

    /// The block being written, or `None` between blocks (and while a block
    /// refused at its start marker is being skipped).
    pub fn pending(&self) -> Option<PendingBlock> {
        self.grammar.pending()
    }
}

/// The grammar of every format, read line by line: the state machine behind
/// [`EditStream`], [`parse_edits`](super::parse_edits) and
/// [`parse_spans`](super::parse_spans). It reports to its [`Sink`] and keeps
/// no output of its own.
pub struct Grammar<S> {
    core: GrammarCore,
    sink: std::marker::PhantomData<S>,
}

impl<S: Sink + 'static> Grammar<S> {
    /// A grammar for the formats in `options` (all when empty), reporting
    /// to `sink`.
    pub fn new(options: &ParseOptions, sink: S) -> Grammar<S> {
        Grammar {
            core: GrammarCore::new(options, Box::new(sink)),
            sink: std::marker::PhantomData,
        }
    }

    pub fn sink(&self) -> &S {
        match self.core.sink.as_any().downcast_ref() {
            Some(sink) => sink,
            // `new` boxed an `S`, and nothing replaces it.
            None => unreachable!(),
        }
    }

    pub fn sink_mut(&mut self) -> &mut S {
        match self.core.sink.as_any_mut().downcast_mut() {
            Some(sink) => sink,
            None => unreachable!(),
        }
    }
}

impl<S> std::ops::Deref for Grammar<S> {
    type Target = GrammarCore;
    fn deref(&self) -> &GrammarCore {
        &self.core
    }
}

impl<S> std::ops::DerefMut for Grammar<S> {
    fn deref_mut(&mut self) -> &mut GrammarCore {
        &mut self.core
    }
}

/// The grammar itself, over a sink it calls through a vtable: one compiled
/// copy serves every sink (the wasm's one-shot spans and its streaming
/// records alike). [`Grammar`] is its typed face.
pub struct GrammarCore {
    sink: Box<dyn AnySink>,
    /// `sink.events()`, asked once.
    events: bool,
    /// `sink.discards()`, asked once.
    discards: bool,
    /// `sink.marks()`, asked once.
    marks: bool,
    allow_edit_repl: bool,
    allow_anchored: bool,
    allow_search: bool,
    /// Files the caller knows: any of them is a path.
    known_files: Vec<String>,
    /// The last block was a `search-replace` block closed by a second
    /// `=======`, and only blank or fence lines followed: a
    /// `>>>>>>> REPLACE` here is its leftover.
    closed_by_divider: bool,
    /// A `=======` read outside any block (a heading underline, or the
    /// middle of a block whose `<<<<<<< SEARCH` is missing).
    stray_divider: Option<u32>,
    allow_v4a: bool,
    allow_unified: bool,
    /// The patch blocks are only applied: they leave out the copies only
    /// renderers read (see [`GrammarCore::patches_to_apply`]).
    patches_to_apply: bool,
    /// The patch being read (see `patch_reader.rs`), and whether its first
    /// line may still turn out not to start one (`--- x` without `+++ y`).
    patch: Option<PatchReader>,
    patch_tentative: bool,
    /// The last non-blank line outside patches and blocks. When it names
    /// `apply_patch` (`cd <dir> && apply_patch <<'EOF'`), the patch after it
    /// reads its paths from that folder. It is only searched when a line may
    /// start a patch: searching every line cost a twentieth of a parse.
    shell_line: String,
    /// Patches started so far (numbers each patch's operations).
    patches: u32,
    /// The last lines' numbers, offsets and marks (a patch operation is
    /// announced a few lines after its header line).
    recent: [(u32, usize, Mark); 8],
    /// Where the open patch's announced operations start, in order.
    op_starts: std::collections::VecDeque<(u32, usize, Mark)>,
    patch_out: Vec<PatchEvent>,
    /// Nothing but byte-order marks read so far.
    at_start: bool,
    partial: String,
    /// Lines consumed so far (the next line is `line_count + 1`).
    line_count: u32,
    /// Normalised byte offset of the next line's start.
    offset: usize,
    candidate: Candidate<Mark>,
    lead: String,
    previous_path: String,
    previous_span: (usize, usize),
    block: Option<Block<Mark>>,
    /// The last block's text buffer, kept to be reused by the next block.
    spare: String,
    completed: usize,
}

impl GrammarCore {
    fn new(options: &ParseOptions, sink: Box<dyn AnySink>) -> GrammarCore {
        let all = options.formats.is_empty();
        let has = |f| all || options.formats.contains(&f);
        GrammarCore {
            events: sink.events(),
            discards: sink.discards(),
            marks: sink.marks(),
            sink,
            allow_edit_repl: has(Format::EditRepl),
            allow_anchored: has(Format::Anchored),
            allow_search: has(Format::SearchReplace),
            known_files: options.known_files.clone(),
            closed_by_divider: false,
            stray_divider: None,
            allow_v4a: has(Format::ApplyPatch),
            allow_unified: has(Format::UnifiedDiff),
            patches_to_apply: false,
            patch: None,
            patch_tentative: false,
            shell_line: String::new(),
            patches: 0,
            recent: [(0, 0, 0); 8],
            op_starts: std::collections::VecDeque::new(),
            patch_out: Vec::new(),
            at_start: true,
            partial: String::new(),
            line_count: 0,
            offset: 0,
            candidate: Candidate::None,
            lead: String::new(),
            previous_path: String::new(),
            previous_span: (0, 0),
            block: None,
            spare: String::new(),
            completed: 0,
        }
    }

    /// The patch blocks will only be applied, never rendered or handed
    /// out: each leaves out what only a renderer reads (see
    /// [`super::patch_parts::make_block`]). For [`super::parse_edits_to_apply`].
    pub(crate) fn patches_to_apply(&mut self) {
        self.patches_to_apply = true;
    }

    /// Forgets the reply read so far (after [`GrammarCore::end`]): the next
    /// line is a new reply's first. Options and sink stay.
    pub fn reset(&mut self) {
        self.closed_by_divider = false;
        self.stray_divider = None;
        self.patch = None;
        self.patch_tentative = false;
        self.shell_line.clear();
        self.patches = 0;
        self.recent = [(0, 0, 0); 8];
        self.op_starts.clear();
        self.patch_out.clear();
        self.at_start = true;
        self.partial.clear();
        self.line_count = 0;
        self.offset = 0;
        self.candidate = Candidate::None;
        self.lead.clear();
        self.previous_path.clear();
        self.previous_span = (0, 0);
        self.block = None;
        self.completed = 0;
    }

    /// The current line, not yet terminated (as read: CRs before its end
    /// are still there until the line ends).
    pub fn partial_line(&self) -> &str {
        &self.partial
    }

    /// The mark of the earliest line the grammar may still point a sink at
    /// (the path line before a block, the open block's first line), if any.
    pub fn earliest_mark(&self) -> Option<Mark> {
        let candidate = match self.candidate {
            Candidate::Line { mark, .. } => Some(mark),
            _ => None,
        };
        let block = self.block.as_ref().map(|b| b.raw_mark);
        match (candidate, block) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The block being written, or `None` between blocks (and while a block
    /// refused at its start marker is being skipped).
    pub fn pending(&self) -> Option<PendingBlock> {
        if let Some(reader) = &self.patch {
            // A patch operation: one `patch` section of body lines as written.
            let (file_path, format, line_number, lines) = reader.pending()?;
            let partial_line = self.partial.trim_end_matches('\r').to_string();
            return Some(PendingBlock {
                file_path,
                format: Some(format),
                line_number,
                sections: vec![PendingSection {
                    section: Section::Patch,
                    lines,
                }],
                partial_line,
            });
        }
        let block = self.block.as_ref()?;
        let path = block.path.as_ref()?;
        let mut sections = Vec::new();
        for i in 0..=block.section {
            let end = if i < block.section {
                block.ends[i]
            } else {
                block.raw.len().saturating_sub(1).max(block.starts[i])
            };
            let text = block.raw.get(block.starts[i]..end).unwrap_or("");
            let lines = if block.counts[i] == 0 {
                Vec::new()
            } else {
                text.split('\n').map(String::from).collect()
            };
            sections.push(PendingSection {
                section: section_name(block, i),
                lines,
            });
        }
        let partial = self.partial.trim_end_matches('\r');
        Some(PendingBlock {
            file_path: path.clone(),
            format: block.format,
            line_number: block.line_number,
            sections,
            partial_line: partial.to_string(),
        })
    }

    /// Reads a chunk of the reply (any split: inside a line, a marker or
    /// between CR and LF).
    pub fn feed(&mut self, chunk: &str) {
        let mut rest = chunk;
        if self.at_start {
            // A byte-order mark (U+FEFF) opening the reply is not text.
            rest = rest.trim_start_matches('\u{feff}');
            self.at_start = rest.is_empty();
        }
        if !self.partial.is_empty() {
            match find_byte(rest.as_bytes(), b'\n') {
                None => {
                    self.partial.push_str(rest);
                    return;
                }
                Some(i) => {
                    let mut line = std::mem::take(&mut self.partial);
                    line.push_str(&rest[..i]);
                    self.line(&line);
                    line.clear();
                    self.partial = line;
                    rest = &rest[i + 1..];
                }
            }
        }
        while let Some(i) = find_byte(rest.as_bytes(), b'\n') {
            self.line(&rest[..i]);
            rest = &rest[i + 1..];
        }
        self.partial.push_str(rest);
    }

    /// Ends the reply: reads the last line if it had no newline, and
    /// discards a block left open, with its reason.
    pub fn end(&mut self) {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line);
        }
        if let Some(mut reader) = self.patch.take() {
            reader.finish(&mut self.patch_out);
            self.flush_patch("");
        }
        if let Some(block) = self.block.take() {
            let expected = self.expected_marker(&block);
            self.discard(
                block,
                format!("the reply ended before the block was closed: {expected} is missing"),
            );
        }
    }

    /// One line, without its `'\n'`.
    fn line(&mut self, line: &str) {
        // Every CR before the line end goes with it (`\r\n`, `\r\r\n`, a CR
        // at the very end): the one normalisation `js/parser.js` applies too,
        // so that offsets index its string. It is idempotent.
        let line = super::line_content(line);
        self.line_count = self.line_count.saturating_add(1);
        let offset = self.offset;
        self.offset += line.len() + 1;
        let mark = if self.marks { self.sink.line(line) } else { 0 };
        self.recent[self.line_count as usize % 8] = (self.line_count, offset, mark);
        let trimmed = trim(line);
        if self.block.is_none()
            && (self.allow_v4a || self.allow_unified)
            && self.patch_line(line, trimmed)
        {
            return;
        }
        let marker = classify(trimmed);
        if self.block.is_some() {
            let starts = match marker {
                Marker::EditStart => {
                    (self.allow_edit_repl || self.allow_anchored).then_some(Family::Edit)
                }
                Marker::Search => self.allow_search.then_some(Family::Search),
                _ => None,
            };
            // Markers of the other family are content (a search-replace edit
            // may hold an example `««« EDIT` block, path line and all).
            let open_family = self.block.as_ref().map(|b| b.family);
            let starts = starts.filter(|f| Some(*f) == open_family);
            if let (Some(family), Candidate::Line { len, .. }) = (starts, &self.candidate) {
                if path_in_line(self.lead.get(..*len).unwrap_or(""), &self.known_files).is_ok() {
                    // A start marker right after a path line begins a new
                    // block even inside an open one: the open block was
                    // never closed (a reply cut short, a forgotten marker).
                    let candidate = std::mem::replace(&mut self.candidate, Candidate::None);
                    let lead = std::mem::take(&mut self.lead);
                    if let Some(open) = self.block.take() {
                        let expected = self.expected_marker(&open);
                        let at = self.line_count;
                        self.discard(open, format!("a new block starts at line {at} before this one was closed: {expected} is missing"));
                    }
                    self.candidate = candidate;
                    self.lead = lead;
                    self.start(family, line, offset, mark);
                    return;
                }
            }
            // Cheap test first: most block lines are plain content.
            let variant = match self.block.as_ref() {
                Some(b) => {
                    b.path.is_some()
                        && ((b.section == 0 && b.header_open)
                            || (b.section == 1 && trimmed.starts_with(':'))
                            || matches!(
                                marker,
                                Marker::NearReplace | Marker::NearEditEnd | Marker::Divider
                            ))
                }
                None => false,
            };
            if variant && self.block_variants(line, trimmed, marker) {
                return;
            }
            // `search-replace` dividers. Only exactly `=======` closes a
            // block as a second divider; another run of `=` in the replace
            // text is content (a setext heading underline). And when the
            // divider taken was not exactly `=======` and an exact one
            // comes after replace text, the first was most likely a heading
            // underline in the search text: the block is dropped rather than
            // applied wrong.
            let mut marker = marker;
            if let (Marker::Divider, Some(b)) = (marker, self.block.as_ref()) {
                if b.family == Family::Search && b.section == 1 && b.counts[1] > 0 {
                    if trimmed != "=======" {
                        marker = Marker::None;
                    } else if let (Some(at), true, None) =
                        (b.loose_divider, b.path.is_some(), &b.doomed)
                    {
                        // Read on to the block's end marker, then drop it.
                        let now = self.line_count;
                        let reason = format!(
                            "line {at} (not exactly `=======`) was read as its divider, but `=======` follows at line {now} after replace text, so line {at} is probably text (a heading underline) and the block cannot be read safely; resend it with search and replace text that leave out that `=`-only line (start below it), or, if line {at} was meant as the divider, write it as exactly `=======`"
                        );
                        if let Some(b) = self.block.as_mut() {
                            b.doomed = Some(reason);
                        }
                        marker = Marker::None;
                    } else if b.doomed.is_some() {
                        marker = Marker::None;
                    }
                }
            }
            let loose = marker == Marker::Divider && trimmed != "=======";
            if self.forgotten_end(marker) {
                self.restart_at_nested(line, marker);
                return;
            }
            let section = self.block.as_ref().map(|b| b.section);
            let raw_pos = self.block.as_ref().map_or(0, |b| b.raw.len());
            self.block_line(line, marker);
            if let Some(b) = self.block.as_mut() {
                if loose && b.family == Family::Search && b.section == 1 && section == Some(0) {
                    b.loose_divider = Some(self.line_count);
                }
            }
            if let (Some(_), Some(b)) = (starts, self.block.as_mut()) {
                if Some(b.section) == section && b.path.is_some() {
                    b.nested = Some(NestedStart {
                        raw_pos,
                        line_number: self.line_count,
                        offset,
                        mark,
                    });
                }
            }
            // Track the last path-like line inside the block, for the rule above.
            match self.block.as_ref() {
                Some(b) if Some(b.section) == section && marker == Marker::None => {
                    let filler = trimmed.is_empty() || is_fence(trimmed);
                    self.note_candidate(line, filler, offset, mark)
                }
                Some(_) => {
                    self.candidate = Candidate::None;
                    self.lead.clear();
                }
                None => {}
            }
            return;
        }
        let edit = self.allow_edit_repl || self.allow_anchored;
        match marker {
            Marker::EditStart if edit => self.start(Family::Edit, line, offset, mark),
            Marker::Search if self.allow_search => self.start(Family::Search, line, offset, mark),
            // A `>>>>>>> REPLACE` left over after a block closed by a second
            // `=======` belongs to that block.
            Marker::Replace if self.closed_by_divider => self.closed_by_divider = false,
            Marker::NearSearch if self.allow_search => {
                self.near_start(Family::Search, trimmed, "`<<<<<<< SEARCH`")
            }
            Marker::NearEditStart if edit => self.near_start(Family::Edit, trimmed, "`««« EDIT`"),
            Marker::Replace | Marker::NearReplace if self.allow_search => {
                self.stray_end(trimmed, "`<<<<<<< SEARCH`")
            }
            Marker::EditEnd | Marker::ShortEnd | Marker::NearEditEnd if edit => {
                self.stray_end(trimmed, "`««« EDIT`")
            }
            _ => {
                if marker == Marker::Divider && self.allow_search {
                    self.stray_divider = Some(self.line_count);
                }
                let filler = trimmed.is_empty() || is_fence(trimmed);
                if !filler {
                    self.closed_by_divider = false;
                }
                self.note_candidate(line, filler, offset, mark)
            }
        }
    }

    /// Inside an open block: Roo Code's header lines (and one misplaced in
    /// the replace text), almost-end markers, and a divider written twice. True when the line was dealt with.
    #[inline(never)]
    fn block_variants(&mut self, line: &str, trimmed: &str, marker: Marker) -> bool {
        let Some(b) = self.block.as_mut() else {
            return false;
        };
        // A block refused at its start is read silently to its end: no
        // variants (its line counts stay 0).
        if b.path.is_none() {
            return false;
        }
        let keep = true;
        if b.family == Family::Search
            && b.section == 0
            && b.counts[0] == 0
            && b.header_open
            && marker == Marker::None
        {
            if let Some(header) = roo_header(trimmed) {
                match header {
                    RooHeader::Start(n) => b.line_hint = Some(n),
                    RooHeader::End => {}
                    RooHeader::Rule => b.header_open = false,
                }
                b.assumed |= LINE_HINT;
                self.candidate = Candidate::None;
                self.lead.clear();
                let Some(b) = self.block.as_mut() else {
                    return true;
                };
                if keep {
                    b.raw.push_str(line);
                    b.raw.push('\n');
                    b.starts[0] = b.raw.len();
                    b.ends[0] = b.raw.len();
                }
                return true;
            }
        }
        if b.section == 0 {
            // Header lines come first: after any other line, no more.
            b.header_open = false;
        }
        let near_end = match (b.family, marker) {
            (Family::Search, Marker::NearReplace) => Some("`>>>>>>> REPLACE`"),
            (Family::Edit, Marker::NearEditEnd) => Some("`»»» EDIT END`"),
            _ => None,
        };
        if let Some(expected) = near_end {
            let at = self.line_count;
            if let Some(open) = self.block.take() {
                self.discard(open, format!("line {at} `{trimmed}` looks like its end marker but is not one; write it exactly as {expected}"));
            }
            return true;
        }
        if b.family == Family::Search
            && b.section == 1
            && marker == Marker::None
            && b.doomed.is_none()
            && matches!(
                roo_header(trimmed),
                Some(RooHeader::Start(_) | RooHeader::End)
            )
        {
            // Roo Code's header belongs at the top of the search text; in the
            // replace text it is almost surely that header misplaced, and
            // writing it into the file would corrupt it. Roo Code's own
            // escape (`\:start_line:`) is how a line of text says otherwise.
            let now = self.line_count;
            b.doomed = Some(format!(
                "line {now} `{trimmed}` is a `:start_line:` / `:end_line:` line in the replace text, which would be written into the file; if it is the block's line hint, put it right after `<<<<<<< SEARCH` (followed by `-------`), and if the file should hold that text, escape it as `\\{trimmed}`"
            ));
            self.block_line(line, Marker::None);
            return true;
        }
        if b.family == Family::Search
            && b.section == 1
            && b.counts[1] == 0
            && marker == Marker::Divider
            && b.doomed.is_none()
        {
            let (first, now) = (b.divider_line, self.line_count);
            b.doomed = Some(format!(
                "`=======` is written twice (lines {first} and {now}), so it cannot be told whether the replace text is empty (the search text deleted) or starts with a `=======` line; resend the block with one `=======` between the search and replace text"
            ));
            // Read on as replace text, to the block's end marker.
            self.block_line(line, Marker::None);
            return true;
        }
        false
    }

    /// A line that is almost a start marker, outside any block: named in a
    /// discard, and what follows it is read to its end marker as a block
    /// without a path, so its lines are neither paths nor stray markers.
    #[cold]
    fn near_start(&mut self, family: Family, trimmed: &str, expected: &str) {
        let at = self.line_count;
        let path = match self.candidate {
            Candidate::Line { len, .. } => {
                path_in_line(self.lead.get(..len).unwrap_or(""), &self.known_files)
                    .ok()
                    .and_then(|(s, e)| self.lead.get(s..e))
                    .map(|p| format!(" for {p}"))
            }
            _ => None,
        }
        .unwrap_or_default();
        let reason = format!("line {at} `{trimmed}` looks like a block's start marker but is not one, so the block{path} after it was not read; write the marker exactly as {expected}, on the line after the file's path");
        self.refuse(at, reason);
        self.candidate = Candidate::None;
        self.lead.clear();
        self.closed_by_divider = false;
        self.stray_divider = None;
        let first = 0;
        self.block = Some(Block {
            family,
            format: None,
            path: None,
            path_span: (0, 0),
            line_number: at,
            raw: String::new(),
            raw_start: self.offset,
            raw_mark: 0,
            section: 0,
            starts: [first; 4],
            ends: [first; 4],
            counts: [0; 4],
            nested: None,
            loose_divider: None,
            divider_line: 0,
            assumed: 0,
            line_hint: None,
            header_open: true,
            doomed: None,
        });
    }

    /// An end marker (or almost one) outside any block: the block it ends
    /// has no start marker. Named in a discard; the next block is read as
    /// usual (it may take the previous block's path, as after prose).
    #[cold]
    fn stray_end(&mut self, trimmed: &str, opener: &str) {
        let at = self.line_count;
        let line_number = self.stray_divider.unwrap_or(at);
        let reason = match self.stray_divider.take() {
            Some(d) if opener.contains("SEARCH") => format!(
                "lines {d}–{at} (`=======` … `{trimmed}`) look like the end of a search-replace block, but no {opener} opens it, so the edit was not read; resend it with the file's path and {opener} before the search text"
            ),
            _ if matches!(self.candidate, Candidate::Previous) => format!("line {at} `{trimmed}` repeats the end marker of the block just before it; it was ignored"),
            _ => format!("line {at} `{trimmed}` ends no block: no {opener} is open, so any edit before it was not read; resend it with the file's path and {opener} before its first section"),
        };
        self.refuse(line_number, reason);
        self.closed_by_divider = false;
        self.candidate = Candidate::None;
        self.lead.clear();
    }

    /// Hands `line` to the patch being read, or starts one; true when the
    /// line was the patch's (the usual reading is skipped).
    /// `trimmed`: `line` trimmed.
    fn patch_line(&mut self, line: &str, trimmed: &str) -> bool {
        let n = self.line_count;
        let updates = self.events;
        if let Some(reader) = self.patch.as_mut() {
            let fed = reader.line(line, n, &mut self.patch_out, updates);
            let was_tentative = std::mem::replace(&mut self.patch_tentative, false);
            match fed {
                Fed::Taken => {
                    if was_tentative {
                        // The `--- x` line read as usual is a diff header
                        // after all: it is no path candidate (the patch's
                        // end resets it anyway), and keeping it would pin
                        // the reply from there for the whole diff.
                        self.after_block(None);
                    }
                    self.flush_patch(line);
                    return true;
                }
                Fed::Done => {
                    self.patch = None;
                    self.flush_patch(line);
                    self.after_block(None);
                    return true;
                }
                Fed::Ended => {
                    self.patch = None;
                    self.flush_patch(line);
                    if !was_tentative {
                        self.after_block(None);
                    }
                }
            }
        }
        // Every line that starts a patch starts with one of these bytes
        // (`*** Begin Patch` and `*** Update File:` once trimmed, `diff --git`,
        // `--- x`, `@@ -`): the readers are not asked about the others.
        let may_start =
            trimmed.starts_with('*') || matches!(line.as_bytes().first(), Some(b'd' | b'-' | b'@'));
        let started = if may_start {
            let shell = Some(self.shell_line.as_str()).filter(|l| names_apply_patch(l));
            PatchReader::start(
                line,
                n,
                self.allow_v4a,
                self.allow_unified,
                shell,
                &mut self.patch_out,
                self.events,
                self.patches_to_apply,
            )
        } else {
            None
        };
        if !trimmed.is_empty() {
            self.shell_line.clear();
            self.shell_line.push_str(line);
        }
        match started {
            Some((reader, tentative)) => {
                self.patches += 1;
                self.patch = Some(reader);
                self.patch_tentative = tentative;
                self.flush_patch(line);
                if !tentative {
                    self.after_block(None);
                }
                !tentative
            }
            None => false,
        }
    }

    /// Hands what the patch grammar reported to the sink (most lines report
    /// nothing: tested before the call).
    #[inline(always)]
    fn flush_patch(&mut self, current: &str) {
        if !self.patch_out.is_empty() {
            self.flush_patch_events(current);
        }
    }

    fn flush_patch_events(&mut self, current: &str) {
        // Drained in place: the buffer keeps its capacity for the next line.
        let mut events = std::mem::take(&mut self.patch_out);
        for event in events.drain(..) {
            match event {
                PatchEvent::Start {
                    path,
                    format,
                    line_number,
                } => {
                    if let Some(at) = self.recent.iter().find(|r| r.0 == line_number) {
                        self.op_starts.push_back(*at);
                    }
                    if self.events {
                        // The cleaned path is mostly text of the line just
                        // read (any occurrence reads the same): a sink that
                        // points into the reply can point there.
                        let (n, offset, mark) = self.recent[self.line_count as usize % 8];
                        let at = match current.find(path.as_str()) {
                            Some(s) if n == self.line_count && !path.is_empty() => PathAt::Line {
                                line: current,
                                range: (s, s + path.len()),
                                offset,
                                mark,
                            },
                            _ => PathAt::Elsewhere,
                        };
                        self.sink.block_start(Some(format), line_number, &path, at);
                    }
                }
                PatchEvent::Update { format, lines } => {
                    if self.events {
                        self.sink.patch_update(format, lines, current);
                    }
                }
                PatchEvent::Current { format } => {
                    if self.events {
                        self.sink.patch_line(format, current);
                    }
                }
                PatchEvent::Complete(mut block) => {
                    if let Some(op) = block.patch.as_mut() {
                        op.patch = self.patches.saturating_sub(1);
                    }
                    let index = self.completed;
                    self.completed += 1;
                    // Operations complete in order: earlier entries were dropped.
                    let mut raw_at = None;
                    while let Some(&(n, offset, mark)) = self.op_starts.front() {
                        if n > block.line_number {
                            break;
                        }
                        self.op_starts.pop_front();
                        if n == block.line_number {
                            raw_at = Some((offset, mark));
                            break;
                        }
                    }
                    self.sink.patch_complete(index, block, raw_at);
                }
                PatchEvent::Discarded {
                    path,
                    line_number,
                    reason,
                } => {
                    if self.discards {
                        self.sink.discarded(path, line_number, reason);
                    }
                }
            }
        }
        if self.patch_out.is_empty() {
            self.patch_out = events;
        }
    }

    /// Keeps `line` as the path candidate, or adds a blank or fence line
    /// (`filler`) to the text after it.
    fn note_candidate(&mut self, line: &str, filler: bool, offset: usize, mark: Mark) {
        if filler {
            if let Candidate::Line { .. } = self.candidate {
                self.lead.push_str(line);
                self.lead.push('\n');
            }
        } else {
            self.lead.clear();
            self.lead.push_str(line);
            self.lead.push('\n');
            self.candidate = Candidate::Line {
                line_number: self.line_count,
                offset,
                mark,
                len: line.len(),
            };
        }
    }

    fn start(&mut self, family: Family, marker_line: &str, offset: usize, mark: Mark) {
        let format = match family {
            Family::Search => Some(Format::SearchReplace),
            Family::Edit if !self.allow_anchored => Some(Format::EditRepl),
            Family::Edit if !self.allow_edit_repl => Some(Format::Anchored),
            Family::Edit => None,
        };
        let candidate = std::mem::replace(&mut self.candidate, Candidate::None);
        let marker_name = marker_line.trim();
        let mut raw_mark = mark;
        // The path line: its length, the path's range in it, its offset and mark.
        let mut path_line = None;
        let mut assumed = spelling_bits_for(family, marker_name);
        self.closed_by_divider = false;
        self.stray_divider = None;
        let (path, path_span, line_number, mut raw, raw_start) = match candidate {
            Candidate::Line {
                line_number,
                offset: line_offset,
                mark: line_mark,
                len,
            } => {
                let text = self.lead.get(..len).unwrap_or("");
                match path_in_line(text, &self.known_files) {
                    Ok((s, e)) => {
                        raw_mark = line_mark;
                        path_line = Some((len, (s, e), line_offset, line_mark));
                        let mut raw = std::mem::take(&mut self.spare);
                        raw.push_str(&self.lead);
                        (
                            Some(text[s..e].to_string()),
                            (line_offset + s, line_offset + e),
                            line_number,
                            raw,
                            line_offset,
                        )
                    }
                    Err(_)
                        if !self.previous_path.is_empty()
                            && !names_other_path(text, &self.previous_path) =>
                    {
                        // Prose between two blocks: the block goes on in the
                        // previous block's file, and says so.
                        assumed |= PATH_REUSED;
                        (
                            Some(self.previous_path.clone()),
                            self.previous_span,
                            self.line_count,
                            std::mem::take(&mut self.spare),
                            offset,
                        )
                    }
                    Err(why) => {
                        let other = if self.previous_path.is_empty() {
                            ""
                        } else {
                            "; it names another file than the block before, so that block's path is not reused"
                        };
                        let reason = format!(
                            "line {line_number} {} before `{marker_name}` is not a file path ({why}){other}; put the file's path alone on the line before the marker",
                            crate::text::quoted(&preview(text.trim()))
                        );
                        self.refuse(line_number, reason);
                        (None, (0, 0), line_number, String::new(), offset)
                    }
                }
            }
            Candidate::Previous => (
                Some(self.previous_path.clone()),
                self.previous_span,
                self.line_count,
                std::mem::take(&mut self.spare),
                offset,
            ),
            Candidate::None if !self.previous_path.is_empty() => {
                assumed |= PATH_REUSED;
                (
                    Some(self.previous_path.clone()),
                    self.previous_span,
                    self.line_count,
                    std::mem::take(&mut self.spare),
                    offset,
                )
            }
            Candidate::None => {
                let reason = format!(
                    "the block starting at line {} has no file path; put the file's path alone on the line before `{marker_name}`",
                    self.line_count
                );
                self.refuse(self.line_count, reason);
                (None, (0, 0), self.line_count, String::new(), offset)
            }
        };
        self.lead.clear();
        if path.is_some() {
            raw.push_str(marker_line);
            raw.push('\n');
        }
        let first = raw.len();
        let block = Block {
            family,
            format,
            path,
            path_span,
            line_number,
            raw,
            raw_start,
            raw_mark,
            section: 0,
            starts: [first; 4],
            ends: [first; 4],
            counts: [0; 4],
            nested: None,
            loose_divider: None,
            divider_line: 0,
            assumed,
            line_hint: None,
            header_open: family == Family::Search,
            doomed: None,
        };
        if let (true, Some(path)) = (self.events, &block.path) {
            let at = match path_line {
                Some((len, range, offset, mark)) => PathAt::Line {
                    line: block.raw.get(..len).unwrap_or(""),
                    range,
                    offset,
                    mark,
                },
                None => PathAt::Previous,
            };
            self.sink.block_start(format, line_number, path, at);
        }
        self.block = Some(block);
    }

    fn refuse(&mut self, line_number: u32, reason: String) {
        if self.discards {
            self.sink.discarded(None, line_number, reason);
        }
    }

    fn block_line(&mut self, line: &str, marker: Marker) {
        let Some(block) = self.block.as_mut() else {
            return;
        };
        let step = step(block, marker);
        let keep = block.path.is_some();
        match step {
            Step::Content => {
                if keep {
                    block.raw.push_str(line);
                    block.raw.push('\n');
                    block.counts[block.section] += 1;
                    if self.events {
                        let section = section_name(block, block.section);
                        self.sink.content(block.format, section, line);
                    }
                }
            }
            Step::Next(decided) => {
                block.nested = None;
                block.divider_line = self.line_count;
                if decided.is_some() {
                    block.format = decided;
                }
                if keep {
                    let s = block.section;
                    block.ends[s] = section_end(block, s);
                    block.raw.push_str(line);
                    block.raw.push('\n');
                }
                block.section += 1;
                let s = block.section;
                block.starts[s] = block.raw.len();
                block.ends[s] = block.raw.len();
                if keep && self.events {
                    let section = section_name(block, s);
                    self.sink.section(block.format, section);
                }
            }
            Step::Complete => {
                let Some(mut block) = self.block.take() else {
                    return;
                };
                if marker == Marker::Replace {
                    block.assumed |= spelling_bits(line);
                }
                let by_divider = marker == Marker::Divider;
                if block.path.is_some() {
                    let s = block.section;
                    block.ends[s] = section_end(&block, s);
                    block.raw.push_str(line);
                    self.complete(block);
                } else {
                    self.recycle(block.raw);
                    self.after_block(None);
                }
                self.closed_by_divider = by_divider;
            }
            Step::Missing(what) => {
                let Some(mut block) = self.block.take() else {
                    return;
                };
                block.raw.push_str(line);
                let name = line.trim().to_string();
                self.discard(block, format!("`{name}` came before {what}"));
            }
        }
    }

    /// Whether `marker` shows that the open block's end marker was forgotten:
    /// a start marker of its family was read as content of the current
    /// section, and now comes the line that divides the first section of a
    /// block of that family (`═══════ REPL` or `───────` after `««« EDIT`,
    /// `=======` after `<<<<<<< SEARCH`) where it means nothing to the open
    /// block (it would be content, or a second `=======` closing it). Read
    /// on, the open block would take the next block, markers and all, as its
    /// text.
    fn forgotten_end(&self, marker: Marker) -> bool {
        let Some(block) = &self.block else {
            return false;
        };
        if block.nested.is_none() || block.path.is_none() {
            return false;
        }
        let divides = match (block.family, marker) {
            (Family::Search, Marker::Divider) => true,
            (Family::Edit, Marker::ReplSeparator) => self.allow_edit_repl,
            (Family::Edit, Marker::LightRule) => self.allow_anchored,
            _ => false,
        };
        divides && matches!(step(block, marker), Step::Content | Step::Complete)
    }

    /// Drops the open block (its end marker is missing) and reads it again
    /// from its nested start marker as a new block in the same file; then
    /// reads `line`, the divider that showed it, in that block.
    fn restart_at_nested(&mut self, line: &str, marker: Marker) {
        let Some(mut open) = self.block.take() else {
            return;
        };
        let Some(nested) = open.nested.take() else {
            self.block = Some(open);
            return;
        };
        let family = open.family;
        let tail = open.raw.get(nested.raw_pos..).unwrap_or("").to_string();
        let mut lines = tail.split_terminator('\n');
        let start_line = lines.next().unwrap_or("");
        let expected = self.expected_marker(&open);
        let reason = format!(
            "{expected} is missing before line {}, where `{}` starts the next block for the same file",
            nested.line_number,
            start_line.trim()
        );
        self.discard(open, reason);
        let now = self.line_count;
        self.line_count = nested.line_number;
        self.start(family, start_line, nested.offset, nested.mark);
        self.line_count = now;
        let replayed: Vec<String> = lines.map(String::from).collect();
        if let Some(block) = self.block.as_mut() {
            for l in &replayed {
                block.raw.push_str(l);
                block.raw.push('\n');
                block.counts[0] += 1;
            }
            if self.events && !replayed.is_empty() {
                let section = section_name(block, 0);
                // These lines came in earlier feeds.
                self.sink.replayed(block.format, section, replayed);
            }
        }
        self.block_line(line, marker);
        self.candidate = Candidate::None;
        self.lead.clear();
    }

    fn expected_marker(&self, block: &Block<Mark>) -> &'static str {
        match (block.family, block.format, block.section) {
            (Family::Search, _, 0) => "`=======`",
            (Family::Search, _, _) => "`>>>>>>> REPLACE`",
            (Family::Edit, None, _) => "`═══════ REPL` (or `───────`)",
            (Family::Edit, Some(Format::EditRepl), 0) => "`═══════ REPL`",
            (Family::Edit, Some(Format::EditRepl), _) => "`»»» EDIT END`",
            (Family::Edit, _, 0) | (Family::Edit, _, 2) => "`───────`",
            (Family::Edit, _, 1) => "`═══════`",
            (Family::Edit, _, _) => "`»»»`",
        }
    }

    fn recycle(&mut self, mut raw: String) {
        raw.clear();
        self.spare = raw;
    }

    fn discard(&mut self, mut block: Block<Mark>, what: String) {
        let what = block.doomed.take().unwrap_or(what);
        let Some(path) = block.path else {
            self.recycle(block.raw);
            self.after_block(None);
            return;
        };
        self.recycle(block.raw);
        if self.discards {
            let reason = format!(
                "block for {path} at line {} was dropped: {what}",
                block.line_number
            );
            self.sink
                .discarded(Some(path.clone()), block.line_number, reason);
        }
        self.after_block(Some((path, block.path_span)));
    }

    fn after_block(&mut self, path: Option<(String, (usize, usize))>) {
        self.lead.clear();
        match path {
            Some((path, span)) => {
                self.previous_path = path;
                self.previous_span = span;
                self.candidate = Candidate::Previous;
            }
            None => self.candidate = Candidate::None,
        }
    }

    fn complete(&mut self, mut block: Block<Mark>) {
        if let Some(why) = block.doomed.take() {
            self.discard(block, why);
            return;
        }
        let Some(path) = block.path.clone() else {
            return;
        };
        let format = block.format.unwrap_or(Format::EditRepl);
        let text = |i: usize| block.raw.get(block.starts[i]..block.ends[i]).unwrap_or("");
        // Ranges inside `raw` of anchor, old, new, trailing anchor.
        let empty_at = |i: usize| (block.starts[i], block.starts[i]);
        let range = |i: usize| (block.starts[i], block.ends[i]);
        let c = block.counts;
        // Ranges inside `raw` of anchor, old, new, trailing anchor, and how
        // many lines each holds.
        let ((anchor, old, new, trailing), lines) = match format {
            Format::SearchReplace | Format::ApplyPatch | Format::UnifiedDiff => (
                (
                    empty_at(0),
                    range(0),
                    range(1),
                    (block.ends[1], block.ends[1]),
                ),
                [0, c[0], c[1], 0],
            ),
            Format::Anchored => ((range(0), range(1), range(2), range(3)), c),
            Format::EditRepl => {
                let (edit, repl) = (text(0), text(1));
                match common_prefix(edit, c[0], repl, c[1]) {
                    // Whole sections equal: all anchor, nothing changes.
                    Prefix::All => (
                        (
                            range(0),
                            (block.ends[0], block.ends[0]),
                            (block.ends[1], block.ends[1]),
                            (block.ends[1], block.ends[1]),
                        ),
                        [c[0], 0, 0, 0],
                    ),
                    Prefix::Bytes(0, _) => (
                        (
                            empty_at(0),
                            range(0),
                            range(1),
                            (block.ends[1], block.ends[1]),
                        ),
                        [0, c[0], c[1], 0],
                    ),
                    Prefix::Bytes(n, shared) => {
                        let (s0, s1) = (block.starts[0], block.starts[1]);
                        // The anchor ends before the newline that follows it.
                        (
                            (
                                (s0, s0 + n - 1),
                                (s0 + n, block.ends[0]),
                                (s1 + n, block.ends[1]),
                                (block.ends[1], block.ends[1]),
                            ),
                            [
                                shared,
                                c[0].saturating_sub(shared),
                                c[1].saturating_sub(shared),
                                0,
                            ],
                        )
                    }
                    Prefix::EditOnly(n) => {
                        // EDIT section is entirely prefix of REPL: anchor is all of EDIT.
                        let s1 = block.starts[1];
                        (
                            (
                                range(0),
                                (block.ends[0], block.ends[0]),
                                (s1 + n, block.ends[1]),
                                (block.ends[1], block.ends[1]),
                            ),
                            [c[0], 0, c[1].saturating_sub(c[0]), 0],
                        )
                    }
                    Prefix::ReplOnly(n) => {
                        let s0 = block.starts[0];
                        (
                            (
                                (s0, block.ends[0].min(s0 + n.saturating_sub(1)).max(s0)),
                                (s0 + n, block.ends[0]),
                                (block.ends[1], block.ends[1]),
                                (block.ends[1], block.ends[1]),
                            ),
                            [c[1], c[0].saturating_sub(c[1]), 0, 0],
                        )
                    }
                }
            }
        };
        // A new file's text wrapped in its own path line and a code fence.
        let (new, lines) =
            match (anchor.0 == anchor.1 && old.0 == old.1 && trailing.0 == trailing.1)
                .then(|| {
                    let text = block.raw.get(new.0..new.1)?;
                    new_file_wrapper(text, &path)
                })
                .flatten()
            {
                Some(((s, e), count)) => {
                    block.assumed |= NEW_FILE_WRAPPER;
                    (
                        (new.0 + s, new.0 + e),
                        [lines[0], lines[1], count, lines[3]],
                    )
                }
                None => (new, lines),
            };
        if let Some(why) = lone_blank_line(format, [anchor, old, new, trailing], lines) {
            self.discard(block, why);
            return;
        }
        let index = self.completed;
        self.completed += 1;
        self.sink.complete(
            index,
            CompleteBlock {
                format,
                file_path: &path,
                raw: &block.raw,
                raw_offset: block.raw_start,
                raw_mark: block.raw_mark,
                path_span: block.path_span,
                parts: [anchor, old, new, trailing],
                line_number: block.line_number,
                assumed: block.assumed,
                line_hint: block.line_hint,
            },
        );
        let span = block.path_span;
        self.recycle(block.raw);
        self.after_block(Some((path, span)));
    }
}

/// Whether `line` names `apply_patch` (or `applypatch`): the words a shell
/// line running a patch holds.
fn names_apply_patch(line: &str) -> bool {
    let bytes = line.as_bytes();
    memchr::memmem::find_iter(bytes, b"apply").any(|at| {
        let rest = bytes.get(at + 5..).unwrap_or(&[]);
        rest.starts_with(b"_patch") || rest.starts_with(b"patch")
    })
}

/// What a marker line does to the open block.
enum Step {
    Content,
    Next(Option<Format>),
    Complete,
    Missing(&'static str),
}

fn step<M>(block: &Block<M>, marker: Marker) -> Step {
    use Marker as M;
    match (block.family, block.format, block.section, marker) {
        (Family::Search, _, 0, M::Divider) => Step::Next(None),
        (Family::Search, _, 0, M::Replace) => {
            Step::Missing("`=======` between the search and replace text")
        }
        (Family::Search, _, 1, M::Replace) => Step::Complete,
        // A second `=======` after replace text closes the block: models
        // write it for `>>>>>>> REPLACE` (aider reads it the same way), and
        // the format leaves no way to have it as content anyway.
        (Family::Search, _, 1, M::Divider) => Step::Complete,
        (Family::Edit, None, 0, M::ReplSeparator) => Step::Next(Some(Format::EditRepl)),
        (Family::Edit, None, 0, M::LightRule) => Step::Next(Some(Format::Anchored)),
        (Family::Edit, None, 0, M::EditEnd | M::ShortEnd) => Step::Missing(
            "`═══════ REPL` (edit-repl) or `───────` (anchored) after the first section",
        ),
        (Family::Edit, Some(Format::EditRepl), 0, M::ReplSeparator) => Step::Next(None),
        (Family::Edit, Some(Format::EditRepl), 0, M::EditEnd | M::ShortEnd) => {
            Step::Missing("`═══════ REPL` between the old and new text")
        }
        (Family::Edit, Some(Format::EditRepl), 1, M::EditEnd | M::ShortEnd) => Step::Complete,
        (Family::Edit, Some(Format::Anchored), 0, M::LightRule) => Step::Next(None),
        (Family::Edit, Some(Format::Anchored), 0, M::EditEnd | M::ShortEnd) => {
            Step::Missing("`───────` after the leading anchor")
        }
        (Family::Edit, Some(Format::Anchored), 1, M::HeavyRule | M::ReplSeparator) => {
            Step::Next(None)
        }
        (Family::Edit, Some(Format::Anchored), 1, M::EditEnd | M::ShortEnd) => {
            Step::Missing("`═══════` between the old and new lines")
        }
        (Family::Edit, Some(Format::Anchored), 2, M::LightRule) => Step::Next(None),
        (Family::Edit, Some(Format::Anchored), 2, M::EditEnd | M::ShortEnd) => {
            Step::Missing("the second `───────` before the trailing anchor")
        }
        (Family::Edit, Some(Format::Anchored), 3, M::EditEnd | M::ShortEnd) => Step::Complete,
        _ => Step::Content,
    }
}

/// A start marker of the open block's own family, read as content of the
/// current section (see [`EditStream::forgotten_end`]).
#[derive(Clone, Copy)]
struct NestedStart<M> {
    /// Where its line starts in the block's `raw`.
    raw_pos: usize,
    line_number: u32,
    offset: usize,
    mark: M,
}

/// End offset in `raw` of section `s`'s content (its last line without the
/// `'\n'`), or its start when it has no lines.
fn section_end<M>(block: &Block<M>, s: usize) -> usize {
    if block.counts[s] == 0 {
        block.starts[s]
    } else {
        block.raw.len() - 1
    }
}

fn section_name<M>(block: &Block<M>, i: usize) -> Section {
    match (block.family, block.format, i) {
        (Family::Search, _, 0) => Section::Search,
        (Family::Search, _, _) => Section::Replace,
        (Family::Edit, None, _) => Section::Edit,
        (Family::Edit, Some(Format::Anchored), 0) => Section::Anchor,
        (Family::Edit, Some(Format::Anchored), 1) => Section::Old,
        (Family::Edit, Some(Format::Anchored), 2) => Section::New,
        (Family::Edit, Some(Format::Anchored), _) => Section::TrailingAnchor,
        (Family::Edit, _, 0) => Section::Edit,
        (Family::Edit, _, _) => Section::Repl,
    }
}

/// Why a block must be refused because one of its parts is exactly one
/// blank line: the contract's strings cannot tell one blank line (`""`) from
/// no lines (`""`), so applying it would write other bytes than the reply
/// shows (a blank line replaced by `y` would read as a file create; a line
/// replaced by a blank line would read as a deletion).
/// The part of a new file's text inside a wrapper the model wrote around
/// it: a first line that is the file's own path and/or a fence opener
/// (```` ```lang ````, `~~~`), and a last line that is the fence's closer,
/// with no line between them that closes that fence. The range inside
/// `text` and its line count; `None` unless the wrapper is unambiguous (a
/// fence is required, and a Markdown file, whose text may well be one
/// fenced block, also needs the path line).
fn new_file_wrapper(text: &str, path: &str) -> Option<((usize, usize), u32)> {
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        lines.push((at, line));
        at += line.len() + 1;
    }
    let own_path = |line: &str| {
        let name = undecorated(trim(line));
        !name.is_empty()
            && (name == path
                || path
                    .strip_suffix(name)
                    .is_some_and(|dir| dir.ends_with('/')))
    };
    let mut first = 0;
    if lines.first().is_some_and(|(_, l)| own_path(l)) {
        first = 1;
    } else {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        if ["md", "markdown", "mdx"].contains(&ext.to_ascii_lowercase().as_str()) {
            return None;
        }
    }
    let &(_, opener) = lines.get(first)?;
    let opener = opener.trim_start_matches(' ');
    let fence_char = opener.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = opener.len() - opener.trim_start_matches(fence_char).len();
    if run < 3 || (fence_char == '`' && opener[run..].contains('`')) {
        return None;
    }
    let closes = |line: &str| {
        let t = trim(line);
        t.len() >= run && t.chars().all(|c| c == fence_char)
    };
    let last = lines.len().checked_sub(1)?;
    if last <= first + 1 || !closes(lines[last].1) {
        return None;
    }
    let inside = &lines[first + 1..last];
    if inside.iter().any(|(_, l)| closes(l)) || inside.iter().all(|(_, l)| trim(l).is_empty()) {
        return None;
    }
    let start = inside.first()?.0;
    let end = inside.last().map(|(s, l)| s + l.len())?;
    Some(((start, end), u32::try_from(inside.len()).ok()?))
}

fn lone_blank_line(format: Format, parts: [(usize, usize); 4], lines: [u32; 4]) -> Option<String> {
    let lone = |i: usize| parts[i].0 == parts[i].1 && lines[i] == 1;
    let empty = |i: usize| parts[i].0 == parts[i].1;
    let (old_name, new_name) = match format {
        Format::SearchReplace => ("SEARCH section is", "REPLACE section is"),
        _ => ("old lines are", "new lines are"),
    };
    let fix = "it cannot be told apart from an empty section; include a non-blank line next to the blank line (in both sections) so the edit says exactly which lines change";
    if lone(1) {
        return Some(format!("its {old_name} a single blank line: {fix}"));
    }
    if lone(2) {
        return Some(format!("its {new_name} a single blank line: {fix}"));
    }
    if (lone(0) || lone(3)) && empty(0) && empty(1) && empty(3) {
        return Some(format!("its only context is a single blank line: {fix}"));
    }
    None
}

enum Prefix {
    /// Both sections identical (same lines): everything is anchor.
    All,
    /// The first `n` bytes (whole lines, each with its `'\n'`; the second
    /// field counts them) are common and both sections go on after them.
    Bytes(usize, u32),
    /// The EDIT section is a whole-line prefix of REPL; REPL's new lines start
    /// at byte `n`.
    EditOnly(usize),
    /// The REPL section is a whole-line prefix of EDIT; EDIT's old lines
    /// start at byte `n`.
    ReplOnly(usize),
}

/// The common prefix of lines of two sections holding `na` and `nb` lines.
fn common_prefix(a: &str, na: u32, b: &str, nb: u32) -> Prefix {
    if na == 0 || nb == 0 {
        return Prefix::Bytes(0, 0);
    }
    let mut ai = a.split('\n');
    let mut bi = b.split('\n');
    let (mut n, mut shared) = (0usize, 0u32);
    loop {
        match (ai.next(), bi.next()) {
            (Some(x), Some(y)) if x == y => {
                n += x.len() + 1;
                shared += 1;
            }
            (None, None) => return Prefix::All,
            (None, Some(_)) => return Prefix::EditOnly(n),
            (Some(_), None) => return Prefix::ReplOnly(n),
            _ => return Prefix::Bytes(n, shared),
        }
    }
}

fn preview(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}
