//! Binding for the parser. Text crosses the boundary once, as UTF-8 written
//! by `TextEncoder.encodeInto` straight into a wasm buffer; what comes back
//! is numbers, and `js/parser.js` slices the caller's own string:
//!
//! * `parseEditSpansInput`: one-shot, every block as UTF-16 offsets;
//! * `RawEditStream`: the incremental parser in compact mode (records of
//!   numbers per feed; only discard events carry text, as JSON);
//! * `detectFormat`.

use wasm_bindgen::prelude::*;

use crate::block::Format;
use crate::parser::{self, BlockSpans, EditStream, ParseOptions};

/// Numbers in a span record, per block (see `js/parser.js`).
pub const SPAN_STRIDE: usize = 16;

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
        self.unit += crate::parser::utf16_units(self.bytes.get(self.byte..offset).unwrap_or(&[]));
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
    let (spans, patches) = parser::parse_spans_and_patches(text, &options(formats, known));
    let mut out = Vec::with_capacity((spans.len() + patches.len()) * SPAN_STRIDE);
    // Patch blocks are not ranges of the reply: each takes its place among
    // the records as `[format code, k, 0, …]`, `k` indexing the JSON array
    // `takePatchBlocks` returns.
    let mut patches = patches.into_iter().enumerate().peekable();
    let mut json_blocks = Vec::new();
    let mut place_patches =
        |out: &mut Vec<u32>, next_index: usize, json_blocks: &mut Vec<crate::block::EditBlock>| {
            while let Some((k, (_, block))) =
                patches.next_if(|(_, (index, _))| *index <= next_index)
            {
                out.push(format_code(block.format));
                out.push(k as u32);
                // `js/parser.js` rebuilds oldLines / newLines from the hunks:
                // they would double what crosses.
                let mut block = block;
                block.old_lines.clear();
                block.new_lines.clear();
                out.extend([0u32; SPAN_STRIDE - 2]);
                json_blocks.push(block);
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
        place_patches(&mut out, n + json_blocks.len(), &mut json_blocks);
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
    place_patches(&mut out, usize::MAX, &mut json_blocks);
    PATCH_BLOCKS.with(|p| *p.borrow_mut() = json_blocks);
    out
}

thread_local! {
    /// The patch blocks of the last `parseEditSpansInput`, until taken.
    static PATCH_BLOCKS: std::cell::RefCell<Vec<crate::block::EditBlock>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The patch blocks of the last `parseEditSpansInput` (JSON array), once.
#[wasm_bindgen(js_name = takePatchBlocks)]
pub fn take_patch_blocks() -> String {
    let blocks = PATCH_BLOCKS.with(|p| std::mem::take(&mut *p.borrow_mut()));
    serde_json::to_string(&blocks).unwrap_or_else(|_| "[]".into())
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
    inner: EditStream,
    input: Vec<u8>,
    /// Records of the last `finish` (a feed's stay in `inner`).
    finished: Vec<u32>,
    json: String,
    /// After each feed: the UTF-16 offset to keep text from, the address
    /// of the records, and the UTF-16 length of the current unterminated
    /// line (read by `js/parser.js` without a call).
    slots: Box<[u32; 3]>,
}

#[wasm_bindgen]
impl RawEditStream {
    #[wasm_bindgen(constructor)]
    pub fn new(formats: u32, known: &str) -> RawEditStream {
        RawEditStream {
            inner: EditStream::compact(&options(formats, known)),
            input: Vec::new(),
            finished: Vec::new(),
            json: String::new(),
            slots: Box::new([0; 3]),
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
    /// returns twice the number of [`RawEditStream::records`], plus 1 when
    /// [`RawEditStream::events`] has events.
    #[wasm_bindgen(js_name = feedInput)]
    pub fn feed_input(&mut self, len: usize) -> usize {
        let written = &self.input[..len.min(self.input.len())];
        match std::str::from_utf8(written) {
            Ok(text) => self.inner.feed_compact_in_place(text),
            Err(_) => {
                let text = String::from_utf8_lossy(written).into_owned();
                self.inner.feed_compact_in_place(&text)
            }
        }
        self.finished.clear();
        let mut events = self.inner.take_compact_events();
        self.encode(&mut events);
        self.slots[0] = self.inner.keep_from() as u32;
        self.slots[1] = self.inner.compact_records().as_ptr() as u32;
        self.slots[2] = self.inner.partial_len16() as u32;
        self.inner.compact_records().len() * 2 + !self.json.is_empty() as usize
    }

    /// Ends the reply; returns how many numbers [`RawEditStream::records`] holds.
    #[wasm_bindgen(js_name = finishInput)]
    pub fn finish_input(&mut self) -> usize {
        let out = self.inner.finish_compact();
        self.finished = out.records;
        let mut events = out.events;
        self.encode(&mut events);
        self.slots[0] = 0;
        self.slots[1] = self.finished.as_ptr() as u32;
        self.slots[2] = 0;
        self.finished.len() * 2 + !self.json.is_empty() as usize
    }

    /// Events that carry text, as JSON. Encoding plain strings and numbers
    /// cannot fail; if it ever did, the events would be lost, not the stream.
    fn encode(&mut self, events: &mut [crate::parser::StreamEvent]) {
        self.json.clear();
        // Patch blocks: `js/parser.js` rebuilds oldLines / newLines from the hunks.
        for e in events.iter_mut() {
            if let crate::parser::StreamEvent::BlockComplete { block, .. } = e {
                if block.patch.is_some() {
                    block.old_lines.clear();
                    block.new_lines.clear();
                }
            }
        }
        if !events.is_empty() {
            self.json = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
        }
    }

    /// Address of three numbers set by every feed: the UTF-16 offset to
    /// keep text from, the address of the records, and the UTF-16 length of
    /// the current unterminated line.
    pub fn slots(&self) -> *const u32 {
        self.slots.as_ptr()
    }

    /// The events of the last feed that carry text (JSON array).
    pub fn events(&self) -> String {
        self.json.clone()
    }

    /// The pending block as JSON, or `""` when there is none.
    pub fn pending(&self) -> Result<String, JsError> {
        match self.inner.pending() {
            None => Ok(String::new()),
            Some(p) => serde_json::to_string(&p).map_err(|e| {
                JsError::new(&format!(
                    "editblocks: could not encode the pending block: {e}"
                ))
            }),
        }
    }
}
