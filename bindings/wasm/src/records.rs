//! The parser's numeric records for `js/parser.js`: a [`Sink`] that turns
//! the grammar's reports into numbers pointing into the reply (UTF-16
//! offsets, lines numbered within a feed), so text crosses the boundary
//! once. The layout of every record is defined here once ([`layout_json`]);
//! `js/parser.js` reads it at load.
//!
//! Plain Rust, no `wasm_bindgen`: the core's tests check the records
//! against the core's own blocks in any chunking.

use editblocks::parser::{
    CompleteBlock, Grammar, ParseOptions, PathAt, Section, Sink, StreamEvent,
};
use editblocks::{EditBlock, Format};

/// The sections by the number a record gives them (`layout.sections`).
pub const SECTIONS: [Section; 9] = Section::ALL;

/// Record kinds.
pub const RECORD_UPDATE: u32 = 1;
pub const RECORD_COMPLETE: u32 = 2;
pub const RECORD_JSON: u32 = 3;
pub const RECORD_START: u32 = 4;
/// A complete patch block: `[5, index]`, then [`PATCH_FIELDS`] numbers.
pub const RECORD_PATCH: u32 = 5;

/// Fields of a streamed update record: `lineCount` lines of `section`
/// starting at the feed's line `firstLine` (counted from 0; an empty update
/// announces a section).
pub const UPDATE_FIELDS: [&str; 5] = ["kind", "section", "format", "firstLine", "lineCount"];
/// Fields of a streamed block-start record (the path as a UTF-16 range of
/// the reply, [`NONE`] twice for the previous block's path).
pub const START_FIELDS: [&str; 5] = ["kind", "format", "lineNumber", "pathStart", "pathEnd"];
/// Fields of a streamed record for an event sent as JSON.
pub const JSON_FIELDS: [&str; 2] = ["kind", "event"];
/// Fields heading a streamed complete or patch record, followed by
/// [`SPAN_FIELDS`] or [`PATCH_FIELDS`].
pub const HEAD_FIELDS: [&str; 2] = ["kind", "index"];

/// Fields of a block record, one-shot (`parseEditSpansInput`, stride
/// [`SPAN_STRIDE`]) and streamed (after `[2, index]`): positions of each.
pub const SPAN_FIELDS: [&str; 16] = [
    "format",
    "lineNumber",
    "pathStart",
    "pathEnd",
    "anchorStart",
    "anchorEnd",
    "oldStart",
    "oldEnd",
    "newStart",
    "newEnd",
    "trailingStart",
    "trailingEnd",
    "rawStart",
    "rawEnd",
    "assumed",
    "lineHint",
];
pub const SPAN_STRIDE: usize = SPAN_FIELDS.len();

/// Fields of a patch block record (same stride as [`SPAN_FIELDS`], so a
/// one-shot parse has one record per block): texts are UTF-16 ranges of the
/// call's patch text (`patchText`), hunks a range of the call's hunk
/// records (`patchHunks`).
pub const PATCH_FIELDS: [&str; 16] = [
    "format",
    "lineNumber",
    "pathStart",
    "pathEnd",
    "moveToStart",
    "moveToEnd",
    "oldStart",
    "oldEnd",
    "newStart",
    "newEnd",
    "operation",
    "patch",
    "rawStart",
    "rawEnd",
    "hunksAt",
    "hunkCount",
];

/// Fields of one hunk record in `patchHunks`, followed by `anchorCount`
/// pairs of UTF-16 ranges of the patch text (its `@@` anchors).
pub const HUNK_FIELDS: [&str; 8] = [
    "flags",
    "oldStart",
    "oldCount",
    "newStart",
    "newCount",
    "bodyStart",
    "bodyEnd",
    "anchorCount",
];

/// Hunk flag bits (`bodyInReply`: the body is a range of the reply, not of
/// the patch text).
pub const HUNK_FLAGS: [&str; 8] = [
    "endOfFile",
    "noNewlineOld",
    "noNewlineNew",
    "hasOldStart",
    "hasOldCount",
    "hasNewStart",
    "hasNewCount",
    "bodyInReply",
];

/// In a patch record's `operation` field, above the operation's number:
/// the raw block is a range of the reply, not of the patch text.
pub const RAW_IN_REPLY: u32 = 256;

/// In a patch record's `operation` field: the block has an `oldPath`, a
/// UTF-16 range of the patch text written as the first pair at `hunksAt`,
/// before the hunks.
pub const OLD_PATH_FIRST: u32 = 512;

/// `u32::MAX`: no value (a path carried over, no `moveTo`).
pub const NONE: u32 = u32::MAX;

/// 0 for unknown, else 1 + the position in [`Format::ALL`] (streamed
/// records); one-shot records use the position itself.
pub fn format_code(format: Option<Format>) -> u32 {
    format
        .and_then(|f| Format::ALL.iter().position(|x| *x == f))
        .map_or(0, |i| i as u32 + 1)
}

/// The layout above as JSON, for `js/parser.js`.
pub fn layout_json() -> String {
    let fields = |names: &[&str]| -> String {
        let inner: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\"{n}\":{i}"))
            .collect();
        format!("{{{}}}", inner.join(","))
    };
    let list = |names: &[&str]| -> String {
        let inner: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        format!("[{}]", inner.join(","))
    };
    let formats: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
    let section_names: Vec<String> = SECTIONS.iter().map(|s| s.as_str().to_string()).collect();
    let section_refs: Vec<&str> = section_names.iter().map(String::as_str).collect();
    let operations = ["add", "delete", "update"];
    let patch_formats: Vec<String> = Format::ALL
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_patch())
        .map(|(i, _)| i.to_string())
        .collect();
    format!(
        "{{\"record\":{{\"update\":{RECORD_UPDATE},\"complete\":{RECORD_COMPLETE},\"json\":{RECORD_JSON},\"start\":{RECORD_START},\"patch\":{RECORD_PATCH}}},\"stride\":{SPAN_STRIDE},\"update\":{},\"start\":{},\"json\":{},\"head\":{},\"span\":{},\"patch\":{},\"hunk\":{},\"hunkFlags\":{},\"none\":{NONE},\"rawInReply\":{RAW_IN_REPLY},\"oldPathFirst\":{OLD_PATH_FIRST},\"formats\":{},\"sections\":{},\"assumed\":{},\"operations\":{},\"patchFormats\":[{}],\"lineEnd\":{}}}",
        fields(&UPDATE_FIELDS),
        fields(&START_FIELDS),
        fields(&JSON_FIELDS),
        fields(&HEAD_FIELDS),
        fields(&SPAN_FIELDS),
        fields(&PATCH_FIELDS),
        fields(&HUNK_FIELDS),
        list(&HUNK_FLAGS),
        list(&formats),
        list(&section_refs),
        list(&editblocks::parser::ASSUMED),
        list(&operations),
        patch_formats.join(","),
        {
            let mut pattern = String::new();
            json_str(&mut pattern, editblocks::parser::LINE_END_PATTERN);
            pattern
        },
    )
}

/// How many more lines the first hunk's body may start after: a `diff
/// --git` header, all of git's extended header lines, `---` and `+++`.
const FIRST_HUNK_AFTER: usize = 12;

/// Patch blocks as numbers and one text: what neither the reply's spans
/// nor JSON would carry cheaply.
#[derive(Debug, Default)]
pub struct PatchEncoder {
    pub hunks: Vec<u32>,
    pub text: String,
    text16: usize,
}

impl PatchEncoder {
    pub fn clear(&mut self) {
        self.hunks.clear();
        self.text.clear();
        self.text16 = 0;
    }

    fn push(&mut self, s: &str) -> (u32, u32) {
        let start = self.text16;
        self.text.push_str(s);
        self.text16 += utf16_len(s);
        (start as u32, self.text16 as u32)
    }

    /// The [`PATCH_FIELDS`] record of `block` (a patch block), its texts and
    /// hunks appended here. `in_reply`: the UTF-16 range of the reply that
    /// reads exactly as `block.raw_block`, when the caller holds the reply.
    pub fn block(&mut self, block: &EditBlock, in_reply: Option<(u32, u32)>) -> [u32; 16] {
        let reserve = block.old_lines.len() + block.new_lines.len();
        self.text.reserve(reserve + block.file_path.len());
        let path = self.push(&block.file_path);
        let raw = match in_reply {
            Some(range) => range,
            None => self.push(&block.raw_block),
        };
        let body_flag = if in_reply.is_some() { 1 << 7 } else { 0 };
        let old = self.push(&block.old_lines);
        let new = self.push(&block.new_lines);
        let mut out = [0u32; 16];
        out[0] = format_code(Some(block.format)).saturating_sub(1);
        out[1] = block.line_number;
        out[2] = path.0;
        out[3] = path.1;
        out[4] = NONE;
        out[5] = NONE;
        out[6] = old.0;
        out[7] = old.1;
        out[8] = new.0;
        out[9] = new.1;
        out[12] = raw.0;
        out[13] = raw.1;
        out[14] = self.hunks.len() as u32;
        if in_reply.is_some() {
            out[10] = RAW_IN_REPLY;
        }
        let Some(op) = &block.patch else {
            return out;
        };
        if let Some(to) = &op.move_to {
            let m = self.push(to);
            out[4] = m.0;
            out[5] = m.1;
        }
        out[10] |= match op.operation {
            editblocks::patch::Operation::Add => 0,
            editblocks::patch::Operation::Delete => 1,
            editblocks::patch::Operation::Update => 2,
        };
        out[11] = op.patch;
        out[15] = op.hunks.len() as u32;
        if let Some(old_path) = &op.old_path {
            out[10] |= OLD_PATH_FIRST;
            let (s, e) = self.push(old_path);
            self.hunks.extend([s, e]);
        }
        let raw_text = block.raw_block.as_str();
        let ascii = raw_text.is_ascii();
        // Hunk bodies are mostly runs of the block's own lines: point into
        // the raw text when so (in order), else carry the body.
        let mut from = 0usize;
        for h in &op.hunks {
            let numbers = [h.old_start, h.old_count, h.new_start, h.new_count];
            let mut flags = h.end_of_file as u32
                | (h.no_newline_old as u32) << 1
                | (h.no_newline_new as u32) << 2;
            for (i, n) in numbers.iter().enumerate() {
                if n.is_some() {
                    flags |= 1 << (3 + i);
                }
            }
            let body = h.body();
            // Any occurrence holds the same text. The body starts at one of
            // the lines right after the previous one (past the section's `@@`
            // lines), or for the first hunk after the operation's header
            // lines (a unified diff's `diff --git`, git's extended headers,
            // `---` and `+++`: more than the two lines of `*** Update File:`
            // and `@@`), so only those are tried: linear over the block.
            let header_lines = if from == 0 { FIRST_HUNK_AFTER } else { 0 };
            let anchors = h.anchors.len() + 2 + header_lines;
            let bytes = raw_text.as_bytes();
            let mut at = from;
            let mut found = None;
            for _ in 0..=anchors {
                if bytes
                    .get(at..)
                    .is_some_and(|rest| starts_with_bytes(rest, body.as_bytes()))
                {
                    found = Some(at);
                    break;
                }
                match bytes
                    .get(at..)
                    .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
                {
                    Some(i) => at += i + 1,
                    None => break,
                }
            }
            let (body_start, body_end) = match found {
                Some(p) if !body.is_empty() => {
                    flags |= body_flag;
                    from = p + body.len();
                    let to16 = |b: usize| -> u32 {
                        if ascii {
                            raw.0 + b as u32
                        } else {
                            raw.0 + utf16_units(&raw_text.as_bytes()[..b]) as u32
                        }
                    };
                    (to16(p), to16(p + body.len()))
                }
                _ => self.push(body),
            };
            self.hunks.push(flags);
            self.hunks.extend(numbers.map(|n| n.unwrap_or(0)));
            self.hunks
                .extend([body_start, body_end, h.anchors.len() as u32]);
            for a in &h.anchors {
                let (s, e) = self.push(a);
                self.hunks.extend([s, e]);
            }
        }
        out
    }
}

/// The binding's sink: numbers per feed (see the layout above); events that
/// carry text of their own (discards, replayed lines, patch starts) as
/// [`TextEvent`]s to send as JSON.
#[derive(Debug, Default)]
pub struct RecordSink {
    pub records: Vec<u32>,
    pub events: Vec<TextEvent>,
    pub patches: PatchEncoder,
    last_update: Option<usize>,
    /// UTF-16 offset of the next line's start in the normalised reply.
    offset16: usize,
    /// Lines completed in the current feed (updates number them).
    feed_lines: u32,
}

impl RecordSink {
    /// The UTF-16 offset of the first character still needed, given the
    /// grammar's earliest mark: that mark, or the next line's start.
    pub fn keep_from(&self, earliest_mark: Option<usize>) -> usize {
        earliest_mark.map_or(self.offset16, |m| m.min(self.offset16))
    }

    fn json(&mut self, event: TextEvent) {
        self.last_update = None;
        self.records.extend([RECORD_JSON, self.events.len() as u32]);
        self.events.push(event);
    }

    /// Starts a feed's output.
    pub fn clear(&mut self) {
        self.records.clear();
        self.events.clear();
        self.patches.clear();
        self.last_update = None;
        self.feed_lines = 0;
    }

    /// Appends `count` lines starting at this feed's line `first` to the
    /// last update when it ends right before them, else starts one.
    fn lines(&mut self, section: Section, format: Option<Format>, first: u32, check_section: bool) {
        if let Some(at) = self.last_update {
            let same_section =
                !check_section || self.records.get(at + 1) == Some(&(section as u32));
            let follows = self
                .records
                .get(at + 3)
                .zip(self.records.get(at + 4))
                .is_some_and(|(f, n)| f + n == first);
            if same_section && follows {
                self.records[at + 4] += 1;
                return;
            }
        }
        self.last_update = Some(self.records.len());
        self.records
            .extend([RECORD_UPDATE, section as u32, format_code(format), first, 1]);
    }
}

impl Sink for RecordSink {
    fn events(&self) -> bool {
        true
    }

    fn line(&mut self, line: &str) -> usize {
        let mark = self.offset16;
        self.offset16 += utf16_len(line) + 1;
        self.feed_lines += 1;
        mark
    }

    fn block_start(
        &mut self,
        format: Option<Format>,
        line_number: u32,
        file_path: &str,
        at: PathAt<'_, usize>,
    ) {
        // The path as UTF-16 offsets into the reply, or NONE twice when it
        // is the previous block's path.
        let (s, e) = match at {
            PathAt::Line {
                line, range, mark, ..
            } => {
                let before = utf16_units(line.as_bytes().get(..range.0).unwrap_or(&[]));
                let inside = utf16_units(line.as_bytes().get(range.0..range.1).unwrap_or(&[]));
                ((mark + before) as u32, (mark + before + inside) as u32)
            }
            PathAt::Previous => (NONE, NONE),
            PathAt::Elsewhere => {
                return self.json(TextEvent::Start {
                    file_path: file_path.to_string(),
                    format,
                    line_number,
                })
            }
        };
        self.last_update = None;
        self.records
            .extend([RECORD_START, format_code(format), line_number, s, e]);
    }

    fn content(&mut self, format: Option<Format>, section: Section, _: &str) {
        let first = self.feed_lines.saturating_sub(1);
        self.lines(section, format, first, false);
    }

    fn section(&mut self, format: Option<Format>, section: Section) {
        self.last_update = Some(self.records.len());
        self.records.extend([
            RECORD_UPDATE,
            section as u32,
            format_code(format),
            self.feed_lines,
            0,
        ]);
    }

    fn replayed(&mut self, format: Option<Format>, section: Section, lines: Vec<String>) {
        // These lines came in earlier feeds: they travel as text.
        self.json(TextEvent::Update {
            format,
            section,
            lines,
        });
    }

    fn complete(&mut self, index: usize, block: CompleteBlock<'_, usize>) {
        // UTF-16 offsets, walking the block's text once in order.
        let bytes = block.raw.as_bytes();
        let (mut at, mut units) = (0usize, block.raw_mark);
        let mut to16 = |offset: usize| -> u32 {
            let offset = offset.clamp(at, bytes.len());
            units += utf16_units(&bytes[at..offset]);
            at = offset;
            units as u32
        };
        let mut record = [0u32; SPAN_STRIDE];
        record[0] = format_code(Some(block.format));
        record[1] = block.line_number;
        for (i, (s, e)) in block.parts.into_iter().enumerate() {
            record[4 + 2 * i] = to16(s);
            record[5 + 2 * i] = to16(e);
        }
        record[12] = block.raw_mark as u32;
        record[13] = to16(bytes.len());
        record[14] = block.assumed;
        record[15] = block.line_hint.unwrap_or(0);
        self.last_update = None;
        self.records.extend([RECORD_COMPLETE, index as u32]);
        self.records.extend(record);
    }

    fn patch_line(&mut self, format: Format, _: &str) {
        // A numeric record: the binding slices the line from the text it holds.
        let first = self.feed_lines.saturating_sub(1);
        self.lines(Section::Patch, Some(format), first, true);
    }

    fn patch_update(&mut self, format: Format, lines: Vec<String>, current: &str) {
        if lines.len() == 1 && lines[0] == current && self.feed_lines > 0 {
            // The current line, verbatim: a numeric record (the binding
            // slices it from the text it holds), as for the other formats.
            let first = self.feed_lines - 1;
            self.lines(Section::Patch, Some(format), first, true);
            return;
        }
        let k = self.events.len();
        let tail = self.records.len() >= 2
            && self.records[self.records.len() - 2..] == [RECORD_JSON, k.wrapping_sub(1) as u32];
        if let (
            true,
            Some(TextEvent::Update {
                section: Section::Patch,
                lines: last,
                ..
            }),
        ) = (tail, self.events.last_mut())
        {
            last.extend(lines);
            return;
        }
        self.json(TextEvent::Update {
            format: Some(format),
            section: Section::Patch,
            lines,
        });
    }

    fn patch_complete(&mut self, index: usize, block: EditBlock, _: Option<(usize, usize)>) {
        // The binding may have dropped the reply's text by now: texts travel.
        let record = self.patches.block(&block, None);
        self.last_update = None;
        self.records.extend([RECORD_PATCH, index as u32]);
        self.records.extend(record);
    }

    fn discarded(&mut self, file_path: Option<String>, line_number: u32, reason: String) {
        self.json(TextEvent::Discarded {
            file_path,
            line_number,
            reason,
        });
    }
}

/// What one feed produced.
#[derive(Debug, Default)]
pub struct CompactOutput {
    pub records: Vec<u32>,
    pub events: Vec<TextEvent>,
    pub patch_hunks: Vec<u32>,
    pub patch_text: String,
    /// UTF-16 offset of the first character the binding still needs to
    /// keep (the path candidate, the open block, or the current line).
    pub keep_from: usize,
}

/// The incremental parser in record form, as `js/parser.js` drives it.
pub struct CompactStream {
    grammar: Grammar<RecordSink>,
}

impl CompactStream {
    pub fn new(options: &ParseOptions) -> CompactStream {
        CompactStream {
            grammar: Grammar::new(options, RecordSink::default()),
        }
    }

    /// Reads a chunk; its output stays here (see [`CompactStream::sink`]).
    pub fn feed_in_place(&mut self, chunk: &str) {
        self.grammar.sink_mut().clear();
        self.grammar.feed(chunk);
    }

    /// Ends the reply; its output stays here until the next feed. The
    /// grammar is then ready for a new reply.
    pub fn finish_in_place(&mut self) {
        self.grammar.sink_mut().clear();
        self.grammar.end();
        self.grammar.reset();
        self.grammar.sink_mut().offset16 = 0;
    }

    pub fn sink(&self) -> &RecordSink {
        self.grammar.sink()
    }

    pub fn sink_mut(&mut self) -> &mut RecordSink {
        self.grammar.sink_mut()
    }

    /// The UTF-16 offset of the first character still needed.
    pub fn keep_from(&self) -> usize {
        self.grammar.sink().keep_from(self.grammar.earliest_mark())
    }

    /// The grammar's earliest mark (see [`RecordSink::keep_from`]).
    pub fn earliest_mark(&self) -> Option<usize> {
        self.grammar.earliest_mark()
    }

    /// UTF-16 length of the current unterminated line.
    pub fn partial_len16(&self) -> usize {
        utf16_len(self.grammar.partial_line())
    }

    pub fn pending(&self) -> Option<editblocks::parser::PendingBlock> {
        self.grammar.pending()
    }

    fn output(&mut self) -> CompactOutput {
        let keep_from = self.keep_from();
        let sink = self.grammar.sink_mut();
        CompactOutput {
            records: std::mem::take(&mut sink.records),
            events: std::mem::take(&mut sink.events),
            patch_hunks: std::mem::take(&mut sink.patches.hunks),
            patch_text: std::mem::take(&mut sink.patches.text),
            keep_from,
        }
    }

    /// [`CompactStream::feed_in_place`], the output moved out.
    pub fn feed(&mut self, chunk: &str) -> CompactOutput {
        self.feed_in_place(chunk);
        self.output()
    }

    /// [`CompactStream::finish_in_place`], the output moved out.
    pub fn finish(&mut self) -> CompactOutput {
        self.finish_in_place();
        let mut out = self.output();
        out.keep_from = 0;
        out
    }
}

/// `hay` starts with `needle`, compared eight bytes at a time (the wasm
/// target's `memcmp` goes byte by byte, and patch texts are long).
pub fn starts_with_bytes(hay: &[u8], needle: &[u8]) -> bool {
    let Some(head) = hay.get(..needle.len()) else {
        return false;
    };
    let (mut a, mut b) = (head.chunks_exact(8), needle.chunks_exact(8));
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
    for (x, y) in (&mut a).zip(&mut b) {
        if word(x) != word(y) {
            return false;
        }
    }
    a.remainder() == b.remainder()
}

/// UTF-16 length of a UTF-8 byte string, eight ASCII bytes at a time.
#[inline]
pub fn utf16_units(bytes: &[u8]) -> usize {
    let unit = |&b: &u8| ((b & 0xC0) != 0x80) as usize + (b >= 0xF0) as usize;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for chunk in &mut words {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0x80; 8]));
        n += if word & 0x8080_8080_8080_8080 == 0 {
            8
        } else {
            chunk.iter().map(unit).sum()
        };
    }
    n + words.remainder().iter().map(unit).sum::<usize>()
}

#[inline(always)]
pub fn utf16_len(line: &str) -> usize {
    if line.is_ascii() {
        line.len()
    } else {
        utf16_units(line.as_bytes())
    }
}

/// The events the records carry as text (lines of earlier feeds, a patch
/// operation's tidied lines, a path that is not text of the reply,
/// discards): the [`StreamEvent`]s a sink of complete blocks never sends as
/// text, written as JSON by [`events_json`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextEvent {
    Start {
        file_path: String,
        format: Option<Format>,
        line_number: u32,
    },
    Update {
        format: Option<Format>,
        section: Section,
        lines: Vec<String>,
    },
    Discarded {
        file_path: Option<String>,
        line_number: u32,
        reason: String,
    },
}

impl From<TextEvent> for StreamEvent {
    fn from(event: TextEvent) -> StreamEvent {
        match event {
            TextEvent::Start {
                file_path,
                format,
                line_number,
            } => StreamEvent::BlockStart {
                file_path,
                format,
                line_number,
            },
            TextEvent::Update {
                format,
                section,
                lines,
            } => StreamEvent::BlockUpdate {
                format,
                section,
                lines,
            },
            TextEvent::Discarded {
                file_path,
                line_number,
                reason,
            } => StreamEvent::BlockDiscarded {
                file_path,
                line_number,
                reason,
            },
        }
    }
}

/// `text` as a JSON string, escaped as serde_json escapes it (so the
/// binding links no serde_json: the text is the same).
pub fn json_str(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let hex = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(hex[(c as usize) >> 4] as char);
                out.push(hex[(c as usize) & 0xf] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_u32(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let (mut n, mut i) = (n, digits.len());
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(d as char);
    }
}

fn json_lines(out: &mut String, lines: &[String]) {
    out.push('[');
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_str(out, line);
    }
    out.push(']');
}

fn json_format(out: &mut String, format: Option<Format>) {
    if let Some(f) = format {
        out.push_str(",\"format\":\"");
        out.push_str(f.as_str());
        out.push('"');
    }
}

/// The events as a JSON array: the text `serde_json` writes for the same
/// [`StreamEvent`]s (the core's tests compare them).
pub fn events_json(events: &[TextEvent]) -> String {
    let mut out = String::from("[");
    for (i, event) in events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match event {
            TextEvent::Start {
                file_path,
                format,
                line_number,
            } => {
                out.push_str("{\"type\":\"block-start\",\"filePath\":");
                json_str(&mut out, file_path);
                json_format(&mut out, *format);
                out.push_str(",\"lineNumber\":");
                json_u32(&mut out, *line_number);
            }
            TextEvent::Update {
                format,
                section,
                lines,
            } => {
                out.push_str("{\"type\":\"block-update\"");
                json_format(&mut out, *format);
                out.push_str(",\"section\":\"");
                out.push_str(section.as_str());
                out.push_str("\",\"lines\":");
                json_lines(&mut out, lines);
            }
            TextEvent::Discarded {
                file_path,
                line_number,
                reason,
            } => {
                out.push_str("{\"type\":\"block-discarded\"");
                if let Some(path) = file_path {
                    out.push_str(",\"filePath\":");
                    json_str(&mut out, path);
                }
                out.push_str(",\"lineNumber\":");
                json_u32(&mut out, *line_number);
                out.push_str(",\"reason\":");
                json_str(&mut out, reason);
            }
        }
        out.push('}');
    }
    out.push(']');
    out
}

/// The pending block as JSON: the text `serde_json` writes for it.
pub fn pending_json(block: &editblocks::parser::PendingBlock) -> String {
    let mut out = String::from("{\"filePath\":");
    json_str(&mut out, &block.file_path);
    json_format(&mut out, block.format);
    out.push_str(",\"lineNumber\":");
    json_u32(&mut out, block.line_number);
    out.push_str(",\"sections\":[");
    for (i, section) in block.sections.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"section\":\"");
        out.push_str(section.section.as_str());
        out.push_str("\",\"lines\":");
        json_lines(&mut out, &section.lines);
        out.push('}');
    }
    out.push_str("],\"partialLine\":");
    json_str(&mut out, &block.partial_line);
    out.push('}');
    out
}
