//! Binding for the parser. Text crosses the boundary once, as UTF-8 written
//! by `TextEncoder.encodeInto` straight into a wasm buffer; what comes back
//! is numbers, and `js/parser.js` slices the caller's own string:
//!
//! * `parseEditSpansInput`: one-shot, every block as UTF-16 offsets;
//! * `RawEditStream`: the incremental parser in compact mode (records of
//!   numbers per feed; only discard events carry text, as JSON);
//! * `detectFormat`.

use wasm_bindgen::prelude::*;

use crate::records::{
    events_json, layout_json, pending_json, starts_with_bytes, utf16_units, CompactStream,
    PatchEncoder, SPAN_STRIDE,
};
use editblocks::parser::{self, BlockSpans, ParseOptions};
use editblocks::Format;

/// The layout of every record `js/parser.js` reads (JSON), defined once in
/// `records.rs`.
#[wasm_bindgen(js_name = parserLayout)]
pub fn parser_layout() -> String {
    layout_json()
}

/// The names each enumerated option takes (JSON), read once by
/// `js/layout.js`; see [`crate::results::option_names_json`].
#[wasm_bindgen(js_name = optionNames)]
pub fn option_names() -> String {
    crate::results::option_names_json()
}

/// The options each applying function takes (JSON), read once by
/// `js/layout.js`; see [`crate::results::option_schemas_json`]. (Not in
/// `editblocks/lite`, which applies nothing.)
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = optionSchemas)]
pub fn option_schemas() -> String {
    crate::results::option_schemas_json()
}

/// `formats` as a bit mask: 1 edit-repl, 2 anchored, 4 search-replace; 0 all.
/// `known`: the caller's known files, one per line.
fn options(mask: u32, known: &str) -> ParseOptions {
    let formats = Format::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, f)| f)
        .collect();
    let known_files = known
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    ParseOptions {
        formats,
        known_files,
    }
}

fn format_code(format: Format) -> u32 {
    Format::ALL.iter().position(|f| *f == format).unwrap_or(0) as u32
}

/// Converts ascending byte offsets of `text` to UTF-16 offsets in one pass.
struct Utf16Cursor<'a> {
    bytes: &'a [u8],
    byte: usize,
    unit: usize,
}

impl Utf16Cursor<'_> {
    fn at(&mut self, offset: usize) -> u32 {
        let offset = offset.min(self.bytes.len());
        if offset < self.byte {
            self.byte = 0;
            self.unit = 0;
        }
        // Every byte that starts a character counts one unit; a 4-byte
        // character (a surrogate pair in UTF-16) counts one more.
        self.unit += utf16_units(self.bytes.get(self.byte..offset).unwrap_or(&[]));
        self.byte = offset;
        self.unit as u32
    }
}

/// Every complete block as 16 numbers: format code (index in
/// [`Format::ALL`]), line number, then
/// start/end UTF-16 offsets of path, anchor, old, new, trailing anchor and
/// raw block, into `text` (which must already read CRLF as LF), then the
/// assumed bits and the line hint (0: none).
pub fn parse_edit_spans(text: &str, formats: u32, known: &str) -> Vec<u32> {
    let mut grammar = parser::Grammar::new(&options(formats, known), parser::SpanSink::default());
    grammar.feed(text);
    grammar.end();
    let parser::SpanSink {
        spans,
        patches,
        patch_offsets,
        ..
    } = std::mem::take(grammar.sink_mut());
    let mut out = Vec::with_capacity((spans.len() + patches.len()) * SPAN_STRIDE);
    // Patch blocks are not ranges of the reply: each takes its place among
    // the records as a patch record, its texts in `takePatchText` (its raw
    // block a range of the reply when it reads the same) and its hunks in
    // `takePatchHunks`.
    let mut patches = patches.into_iter().zip(patch_offsets).peekable();
    let mut encoder = PatchEncoder::default();
    let mut placed = 0usize;
    // A patch block goes before the text block `spans_before` (the number of
    // text blocks placed so far) when its index among all blocks is at most
    // the count of blocks placed so far, patches included: that count grows
    // with every patch placed, so the limit is read again each time.
    let mut place_patches = |out: &mut Vec<u32>,
                             spans_before: usize,
                             placed: &mut usize,
                             cursor: &mut Utf16Cursor| {
        loop {
            let limit = spans_before.saturating_add(*placed);
            let Some(((_, block), offset)) = patches.next_if(|((index, _), _)| *index <= limit)
            else {
                break;
            };
            let raw = block.raw_block.as_bytes();
            let in_reply = offset
                .filter(|&at| {
                    text.as_bytes()
                        .get(at..)
                        .is_some_and(|r| starts_with_bytes(r, raw))
                })
                .map(|at| (cursor.at(at), cursor.at(at + raw.len())));
            out.extend(encoder.block(&block, in_reply));
            *placed += 1;
        }
    };
    let mut cursor = Utf16Cursor {
        bytes: text.as_bytes(),
        byte: 0,
        unit: 0,
    };
    let mut last_path: Option<((usize, usize), (u32, u32))> = None;
    for (
        n,
        BlockSpans {
            format,
            line_number,
            path,
            anchor,
            old,
            new,
            trailing_anchor,
            raw,
            assumed,
            line_hint,
        },
    ) in spans.into_iter().enumerate()
    {
        place_patches(&mut out, n, &mut placed, &mut cursor);
        out.push(format_code(format));
        out.push(line_number);
        // A path carried over from the previous block lies before this
        // block's text; reuse its conversion instead of walking back.
        let raw_start = cursor.at(raw.0);
        let path16 = match last_path {
            Some((bytes, units)) if bytes == path => units,
            _ => (cursor.at(path.0), cursor.at(path.1)),
        };
        last_path = Some((path, path16));
        out.extend([path16.0, path16.1]);
        for (s, e) in [anchor, old, new, trailing_anchor] {
            let s = cursor.at(s);
            out.extend([s, cursor.at(e)]);
        }
        out.extend([raw_start, cursor.at(raw.1), assumed, line_hint]);
    }
    place_patches(&mut out, usize::MAX, &mut placed, &mut cursor);
    PATCHES.with(|p| *p.borrow_mut() = encoder);
    out
}

thread_local! {
    /// The patch texts and hunks of the last `parseEditSpansInput`, until taken.
    static PATCHES: std::cell::RefCell<PatchEncoder> = std::cell::RefCell::new(PatchEncoder::default());
}

/// The patch texts of the last `parseEditSpansInput` (one string; patch
/// records hold UTF-16 ranges of it).
#[wasm_bindgen(js_name = takePatchText)]
pub fn take_patch_text() -> String {
    PATCHES.with(|p| std::mem::take(&mut p.borrow_mut().text))
}

/// The hunk records of the last `parseEditSpansInput`.
#[wasm_bindgen(js_name = takePatchHunks)]
pub fn take_patch_hunks() -> Vec<u32> {
    PATCHES.with(|p| std::mem::take(&mut p.borrow_mut().hunks))
}

thread_local! {
    /// Where `js/parser.js` writes the text for `parseEditSpansInput`
    /// (TextEncoder.encodeInto straight into wasm memory: no per-call
    /// allocation and no byte-by-byte copy in JavaScript).
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The wasm memory, so `js/parser.js` can write into the input buffers.
#[wasm_bindgen(js_name = parserMemory)]
pub fn parser_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Makes the shared input buffer hold at least `capacity` bytes; returns
/// its address in wasm memory.
#[wasm_bindgen(js_name = parserInput)]
pub fn parser_input(capacity: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        // Grown zero-filled and never shrunk: every byte JavaScript may leave
        // unwritten is initialised, and a reused buffer costs nothing.
        if b.len() < capacity {
            b.resize(capacity, 0);
        }
        b.as_mut_ptr()
    })
}

/// `read` over the first `len` bytes written at [`parser_input`] as a
/// string (UTF-8 from TextEncoder.encodeInto; the lossy copy is only a
/// fallback for misuse), read in place: how `applyEdits` hands the core a
/// reply (`js/apply.js`), with no copy of it.
#[cfg(feature = "full")]
pub(super) fn with_input<R>(len: usize, read: impl FnOnce(&str) -> R) -> R {
    INPUT.with(|b| {
        let b = b.borrow();
        let written = &b[..len.min(b.len())];
        match std::str::from_utf8(written) {
            Ok(text) => read(text),
            Err(_) => read(&String::from_utf8_lossy(written)),
        }
    })
}

/// [`parse_edit_spans`] over the first `len` bytes written at
/// [`parser_input`] (UTF-8 from TextEncoder.encodeInto).
#[wasm_bindgen(js_name = parseEditSpansInput)]
pub fn parse_edit_spans_input(len: usize, formats: u32, known: &str) -> Vec<u32> {
    INPUT.with(|b| {
        let b = b.borrow();
        let written = &b[..len.min(b.len())];
        // TextEncoder writes valid UTF-8: the fast check passes, and the
        // lossy copy is only a fallback for misuse.
        let out = match std::str::from_utf8(written) {
            Ok(text) => parse_edit_spans(text, formats, known),
            Err(_) => parse_edit_spans(&String::from_utf8_lossy(written), formats, known),
        };
        out
    })
}

/// `'edit-repl'`, `'anchored'`, `'search-replace'`, `'apply-patch'`, `'unified-diff'` or `'none'`.
#[wasm_bindgen(js_name = detectFormat)]
pub fn detect_format(text: &str) -> String {
    parser::detect_format(text)
        .map(|f| f.as_str())
        .unwrap_or("none")
        .to_string()
}

/// The incremental parser in compact mode; `js/parser.js` wraps it as
/// `EditStream`, keeps the reply text itself, and slices event text out of
/// it, so only numbers (and the few events that carry their own text, as
/// JSON) cross the boundary.
#[wasm_bindgen]
pub struct RawEditStream {
    inner: CompactStream,
    input: Vec<u8>,
    json: String,
    /// After each feed, read by `js/parser.js` without a call: the UTF-16
    /// offset to keep text from, the address of the records, the UTF-16
    /// length of the current unterminated line, then address and length of
    /// the events' JSON, of the patch texts (UTF-8) and of the hunk records
    /// (in `u32`s). JavaScript reads those in place: no copy per feed.
    slots: Box<[u32; 9]>,
}

#[wasm_bindgen]
impl RawEditStream {
    #[wasm_bindgen(constructor)]
    pub fn new(formats: u32, known: &str) -> RawEditStream {
        RawEditStream {
            inner: CompactStream::new(&options(formats, known)),
            input: Vec::new(),
            json: String::new(),
            slots: Box::new([0; 9]),
        }
    }

    /// Makes this stream's input buffer hold at least `capacity` bytes;
    /// returns its address in wasm memory (see [`parser_memory`]).
    pub fn input(&mut self, capacity: usize) -> *mut u8 {
        // Grown zero-filled and kept at full length: the buffer is reused
        // across feeds, and every byte of it is always initialised.
        if self.input.len() < capacity {
            self.input.resize(capacity, 0);
        }
        self.input.as_mut_ptr()
    }

    /// Feeds the first `len` bytes written at [`RawEditStream::input`];
    /// returns [`RawEditStream::publish`].
    #[wasm_bindgen(js_name = feedInput)]
    pub fn feed_input(&mut self, len: usize) -> usize {
        let written = &self.input[..len.min(self.input.len())];
        match std::str::from_utf8(written) {
            Ok(text) => self.inner.feed_in_place(text),
            Err(_) => {
                let text = String::from_utf8_lossy(written).into_owned();
                self.inner.feed_in_place(&text)
            }
        }
        let partial = self.inner.partial_len16() as u32;
        let earliest = self.inner.earliest_mark();
        self.publish(Some(earliest), partial)
    }

    /// Ends the reply; returns what [`RawEditStream::feed_input`] returns.
    #[wasm_bindgen(js_name = finishInput)]
    pub fn finish_input(&mut self) -> usize {
        self.inner.finish_in_place();
        self.publish(None, 0)
    }

    /// Sets the slots after a feed (`earliest`: the grammar's earliest mark,
    /// `None` after the reply's end: nothing to keep) and returns four times
    /// the number of records, plus 1 when there are events carrying text,
    /// plus 2 when there are patch records. The sink is looked up once.
    fn publish(&mut self, earliest: Option<Option<usize>>, partial: u32) -> usize {
        let sink = self.inner.sink();
        // Events that carry text, as JSON. Encoding plain strings and
        // numbers cannot fail; if it ever did, the events would be lost,
        // not the stream.
        self.json.clear();
        if !sink.events.is_empty() {
            self.json = events_json(&sink.events);
        }
        let keep_from = earliest.map_or(0, |m| sink.keep_from(m));
        let patches = &sink.patches;
        *self.slots = [
            keep_from as u32,
            sink.records.as_ptr() as u32,
            partial,
            self.json.as_ptr() as u32,
            self.json.len() as u32,
            patches.text.as_ptr() as u32,
            patches.text.len() as u32,
            patches.hunks.as_ptr() as u32,
            patches.hunks.len() as u32,
        ];
        sink.records.len() * 4
            + !self.json.is_empty() as usize
            + 2 * !patches.text.is_empty() as usize
    }

    /// Address of the numbers set by every feed (see the field `slots`).
    pub fn slots(&self) -> *const u32 {
        self.slots.as_ptr()
    }

    /// The pending block as JSON, or `""` when there is none.
    pub fn pending(&self) -> Result<String, JsError> {
        match self.inner.pending() {
            None => Ok(String::new()),
            Some(p) => Ok(pending_json(&p)),
        }
    }
}
