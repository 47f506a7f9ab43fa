//! Binding for the live preview: a `RawPreviewSession` per `EditStream`
//! with a preview, fed the parser's events by `js/preview.js` (which reads
//! the files the session asks for), and a `RawBlockPreview` per edit fed by
//! hand (`EditPreview`). Lines cross once, as one string per update; what
//! comes back is small (events, a state, HTML of what changed).

use wasm_bindgen::prelude::*;

use super::{from_js, to_js};
use editblocks::parser::Section;
use editblocks::preview::{
    BlockPreview, FinalState, LinedEvent, PreviewEvent, PreviewSession, ToolCallPreview,
};
use editblocks::{EditBlock, Format};

/// Section numbers as `js/parser.js` numbers them (the parser records' layout).
use crate::records::SECTIONS;

/// Preview events for JavaScript: each names its file `path`, as results
/// do, and keeps `filePath` (the same value) as a deprecated alias.
fn events_to_js<E: serde::Serialize>(events: &[E]) -> Result<JsValue, JsError> {
    let v = to_js(events)?;
    let (path, file_path) = (JsValue::from_str("path"), JsValue::from_str("filePath"));
    for e in js_sys::Array::from(&v).iter() {
        if let Ok(p) = js_sys::Reflect::get(&e, &file_path) {
            if p.is_string() {
                let _ = js_sys::Reflect::set(&e, &path, &p);
            }
        }
    }
    Ok(v)
}

#[wasm_bindgen]
pub struct RawBlockPreview {
    inner: BlockPreview,
    pending_events: Vec<PreviewEvent>,
}

#[wasm_bindgen]
impl RawBlockPreview {
    /// A preview of a block to `path` whose file holds `content`
    /// (`undefined`: no such file; the path is checked by the caller
    /// through [`preview_path`]).
    #[wasm_bindgen(constructor)]
    pub fn new(path: &str, content: Option<String>) -> RawBlockPreview {
        RawBlockPreview {
            inner: BlockPreview::new(path, content.as_deref()),
            pending_events: Vec::new(),
        }
    }

    /// A preview without the file, for drawing the block incrementally only.
    pub fn unlocated(path: &str) -> RawBlockPreview {
        RawBlockPreview {
            inner: BlockPreview::unlocated(path),
            pending_events: Vec::new(),
        }
    }

    /// A block whose path was refused (`reason` from [`preview_path`]).
    pub fn refused(path: &str, reason: String) -> RawBlockPreview {
        let mut inner = BlockPreview::refused(path, reason);
        let pending_events = inner.take_events();
        RawBlockPreview {
            inner,
            pending_events,
        }
    }

    /// `count` lines appended to a section (joined by `'\n'`; none when a
    /// section begins); returns how many events are waiting (read them with `events`).
    pub fn push(&mut self, section: u32, lines: &str, count: u32) -> u32 {
        // A text block's sections only (a patch's body goes to `RawPatchPreview`).
        if let Some(section) = SECTIONS
            .get(section as usize)
            .filter(|s| **s != Section::Patch)
        {
            let lines: Vec<&str> = if count == 0 {
                Vec::new()
            } else {
                lines.split('\n').collect()
            };
            self.inner.push(*section, &lines);
        }
        self.waiting()
    }

    /// The block's end marker was read (`block` as `block-complete` carries it).
    pub fn complete(&mut self, block: JsValue) -> Result<u32, JsError> {
        let block: EditBlock = from_js(block, "edit block")?;
        self.inner.complete(&block);
        Ok(self.waiting())
    }
}

impl RawBlockPreview {
    fn waiting(&mut self) -> u32 {
        // Events are taken out by `events`; count without moving them.
        let events = self.inner.take_events();
        self.pending_events.extend(events);
        self.pending_events.len() as u32
    }
}

#[wasm_bindgen]
impl RawBlockPreview {
    pub fn events(&mut self) -> Result<JsValue, JsError> {
        events_to_js(&std::mem::take(&mut self.pending_events))
    }

    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.state())
    }

    #[wasm_bindgen(js_name = contentAfter)]
    pub fn content_after(&self) -> Option<String> {
        self.inner.content_after()
    }

    /// What changed since the last call, as JSON (`"{}"` when nothing did):
    /// one string crossing is cheaper per token than building an object field by field.
    #[wasm_bindgen(js_name = renderDelta)]
    pub fn render_delta(&mut self, partial: Option<String>, theme: Option<String>) -> String {
        self.inner.set_theme(super::render::theme_named(theme));
        serde_json::to_string(&self.inner.render_delta(partial.as_deref()))
            .unwrap_or_else(|_| "{}".into())
    }

    #[wasm_bindgen(js_name = renderFull)]
    pub fn render_full(&mut self, partial: Option<String>, theme: Option<String>) -> String {
        self.inner.set_theme(super::render::theme_named(theme));
        self.inner.render_full(partial.as_deref())
    }
}

/// The normalised path, or `{ reason }` when the path is refused (it would
/// leave the root): such a file is never read.
#[wasm_bindgen(js_name = previewPath)]
pub fn preview_path(path: &str) -> JsValue {
    match editblocks::normalize_path(path) {
        Ok(p) => JsValue::from_str(&p),
        Err(e) => {
            let o = js_sys::Object::new();
            let _ = js_sys::Reflect::set(
                &o,
                &JsValue::from_str("reason"),
                &JsValue::from_str(&e.reason),
            );
            o.into()
        }
    }
}

/// Binding for [`PreviewSession`]: the live preview of an `EditStream`
/// (`options.preview`), fed the parser's events by `js/preview.js`, which
/// only reads the files the session asks for.
#[wasm_bindgen]
pub struct RawPreviewSession {
    inner: PreviewSession,
    made: Vec<LinedEvent>,
}

/// Events for JavaScript, each with its block's `lineNumber`.
fn lined_events_to_js(events: &[LinedEvent]) -> Result<JsValue, JsError> {
    let plain: Vec<&PreviewEvent> = events.iter().map(|(_, e)| e).collect();
    let v = events_to_js(&plain)?;
    let key = JsValue::from_str("lineNumber");
    for (e, (line, _)) in js_sys::Array::from(&v).iter().zip(events) {
        let _ = js_sys::Reflect::set(&e, &key, &JsValue::from(*line));
    }
    Ok(v)
}

/// A state as JavaScript reads it: the state's fields, then a patch
/// operation's open `section`.
fn final_to_js((state, section): &FinalState) -> Result<JsValue, JsError> {
    let v = to_js(state)?;
    if let Some(section) = section {
        let _ = js_sys::Reflect::set(&v, &JsValue::from_str("section"), &JsValue::from(*section));
    }
    Ok(v)
}

#[wasm_bindgen]
impl RawPreviewSession {
    /// `locate: false` draws the blocks without their files.
    #[wasm_bindgen(constructor)]
    pub fn new(locate: bool) -> RawPreviewSession {
        RawPreviewSession {
            inner: PreviewSession::reading(locate),
            made: Vec::new(),
        }
    }

    /// A block starts (`format` by name, `''` while unknown). Serve
    /// `wanted`, then call `opened`.
    pub fn start(&mut self, file_path: &str, format: &str, line_number: u32) {
        self.inner
            .start(file_path, Format::from_name(format), line_number);
        self.collect();
    }

    /// The next file to read: `[ticket, path, filePath]`, or `undefined`.
    pub fn wanted(&mut self) -> JsValue {
        match self.inner.wanted() {
            None => JsValue::UNDEFINED,
            Some(w) => {
                let a = js_sys::Array::new();
                a.push(&JsValue::from(w.ticket));
                a.push(&JsValue::from_str(&w.path));
                a.push(&JsValue::from_str(&w.file_path));
                a.into()
            }
        }
    }

    /// The file for `ticket` (`undefined`: no such file); `late` when read
    /// asynchronously, after the event that asked for it.
    pub fn provide(&mut self, ticket: u32, content: Option<String>, late: bool) {
        self.inner.provide(ticket, content.as_deref(), late);
        self.collect();
    }

    /// The started block has its file if it could have it at once; returns
    /// how many events wait in `made`.
    pub fn opened(&mut self) -> u32 {
        self.inner.opened();
        self.collect()
    }

    /// `count` lines (joined by `'\n'`) appended to section number
    /// `section`; returns how many events wait in `made`.
    pub fn update(&mut self, section: u32, lines: &str, count: u32) -> u32 {
        if let Some(section) = SECTIONS.get(section as usize) {
            let lines: Vec<&str> = if count == 0 {
                Vec::new()
            } else {
                lines.split('\n').collect()
            };
            self.inner.update(*section, &lines);
        }
        self.collect()
    }

    /// The open block completed (`block` as `block-complete` carries it).
    pub fn complete(&mut self, block: JsValue) -> Result<u32, JsError> {
        let block: EditBlock = from_js(block, "edit block")?;
        self.inner.complete(&block);
        Ok(self.collect())
    }

    /// The open block was discarded.
    pub fn discard(&mut self) -> u32 {
        self.inner.discard();
        self.collect()
    }

    /// The events the calls since the last `made` made true.
    pub fn made(&mut self) -> Result<JsValue, JsError> {
        lined_events_to_js(&std::mem::take(&mut self.made))
    }

    /// Events made true by files read late, or `undefined` when none wait.
    pub fn queued(&mut self) -> Result<JsValue, JsError> {
        if !self.inner.has_queued() {
            return Ok(JsValue::UNDEFINED);
        }
        lined_events_to_js(&self.inner.take_queued())
    }

    /// The final state of the block the last `complete` / `discard` ended, or `undefined`.
    #[wasm_bindgen(js_name = finalState)]
    pub fn final_state(&self) -> Result<JsValue, JsError> {
        match self.inner.final_state() {
            None => Ok(JsValue::UNDEFINED),
            Some(f) => final_to_js(f),
        }
    }

    /// For a patch operation completed while its file was being read: the
    /// number its final state comes under in `lateStates` (0: none).
    pub fn deferred(&self) -> u32 {
        self.inner.deferred().unwrap_or(0)
    }

    /// `[[number, state], …]`: final states that arrived with late files.
    #[wasm_bindgen(js_name = lateStates)]
    pub fn late_states(&mut self) -> Result<js_sys::Array, JsError> {
        let out = js_sys::Array::new();
        for (number, f) in self.inner.take_late_states() {
            let pair = js_sys::Array::new();
            pair.push(&JsValue::from(number));
            pair.push(&final_to_js(&f)?);
            out.push(&pair);
        }
        Ok(out)
    }

    /// `{ path, filePath, lineNumber, state, … }` of the open block (or the last), or `undefined`.
    pub fn state(&self) -> Result<JsValue, JsError> {
        let Some(s) = self.inner.standing() else {
            return Ok(JsValue::UNDEFINED);
        };
        let o = js_sys::Object::new();
        let path = JsValue::from_str(&s.file_path);
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str("path"), &path);
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str("filePath"), &path);
        let _ = js_sys::Reflect::set(
            &o,
            &JsValue::from_str("lineNumber"),
            &JsValue::from(s.line_number),
        );
        let state = final_to_js(&(s.state, s.section))?;
        Ok(js_sys::Object::assign(&o, &state.into()).into())
    }

    /// The open block's file with its new lines so far.
    pub fn content(&self) -> Option<String> {
        self.inner.content()
    }

    /// The open block drawn in full (HTML), or `undefined`.
    #[wasm_bindgen(js_name = renderFull)]
    pub fn render_full(
        &mut self,
        partial: Option<String>,
        theme: Option<String>,
    ) -> Option<String> {
        self.inner
            .render_full(partial.as_deref(), super::render::theme_named(theme))
    }

    /// What changed in the drawing since the last call, as JSON (`"{}"`:
    /// nothing), or `undefined` when no block is drawn.
    #[wasm_bindgen(js_name = renderDelta)]
    pub fn render_delta(
        &mut self,
        partial: Option<String>,
        theme: Option<String>,
    ) -> Option<String> {
        let html = self
            .inner
            .render_delta(partial.as_deref(), super::render::theme_named(theme))?;
        Some(serde_json::to_string(&html).unwrap_or_else(|_| "{}".into()))
    }

    /// The reply ended: the blocks still open end.
    pub fn close(&mut self) {
        self.inner.close();
        self.collect();
    }
}

impl RawPreviewSession {
    /// Moves the session's new events into `made`; how many wait there.
    fn collect(&mut self) -> u32 {
        self.made.extend(self.inner.take_made());
        self.made.len() as u32
    }
}

/// Binding for [`ToolCallPreview`]: one per streaming tool call, fed the
/// argument JSON as it arrives (`js/preview.js`'s `ToolCallPreview`).
#[wasm_bindgen]
pub struct RawToolCallPreview {
    inner: ToolCallPreview,
    pending_events: Vec<PreviewEvent>,
}

#[wasm_bindgen]
impl RawToolCallPreview {
    #[wasm_bindgen(constructor)]
    pub fn new(tool: &str) -> RawToolCallPreview {
        RawToolCallPreview {
            inner: ToolCallPreview::new(tool),
            pending_events: Vec::new(),
        }
    }

    /// A chunk of the arguments; returns how many events wait.
    pub fn feed(&mut self, chunk: &str) -> u32 {
        let events = self.inner.feed(chunk);
        self.pending_events.extend(events);
        self.pending_events.len() as u32
    }

    /// The arguments ended.
    pub fn finish(&mut self) -> u32 {
        let events = self.inner.finish();
        self.pending_events.extend(events);
        self.pending_events.len() as u32
    }

    /// The normalised path of a file to read and give with `provideFile`.
    #[wasm_bindgen(js_name = wantedFile)]
    pub fn wanted_file(&self) -> Option<String> {
        self.inner.wanted_file()
    }

    /// The file asked for (`undefined`: no such file).
    #[wasm_bindgen(js_name = provideFile)]
    pub fn provide_file(&mut self, path: &str, content: Option<String>) -> u32 {
        let events = self.inner.provide_file(path, content.as_deref());
        self.pending_events.extend(events);
        self.pending_events.len() as u32
    }

    /// The file asked for, which the host refused to read (`escape`: as
    /// leading outside the root).
    #[wasm_bindgen(js_name = provideRefused)]
    pub fn provide_refused(&mut self, path: &str, message: &str, escape: bool) -> u32 {
        let events = self.inner.provide_refused(path, message, escape);
        self.pending_events.extend(events);
        self.pending_events.len() as u32
    }

    pub fn events(&mut self) -> Result<JsValue, JsError> {
        events_to_js(&std::mem::take(&mut self.pending_events))
    }

    /// The state, with `path` (and its deprecated alias `filePath`) and
    /// `edit` (index in `edits`) when known.
    pub fn state(&self) -> Result<JsValue, JsError> {
        let v = to_js(&self.inner.state())?;
        if let Some(p) = self.inner.file_path() {
            let p = JsValue::from_str(p);
            let _ = js_sys::Reflect::set(&v, &JsValue::from_str("path"), &p);
            let _ = js_sys::Reflect::set(&v, &JsValue::from_str("filePath"), &p);
        }
        if let Some(i) = self.inner.edit_index() {
            let _ = js_sys::Reflect::set(&v, &JsValue::from_str("edit"), &JsValue::from(i as u32));
        }
        Ok(v)
    }

    #[wasm_bindgen(js_name = contentAfter)]
    pub fn content_after(&self) -> Option<String> {
        self.inner.content_after()
    }
}
