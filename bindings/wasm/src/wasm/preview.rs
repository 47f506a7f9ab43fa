//! Binding for the live preview: one `RawBlockPreview` per streaming block,
//! driven by `js/preview.js` from the parser's events. Lines cross once, as
//! one string per update; what comes back is small (events, a state, HTML
//! of what changed).

use wasm_bindgen::prelude::*;

use super::{from_js, to_js};
use editblocks::parser::Section;
use editblocks::preview::{BlockPreview, PatchPreview, PreviewEvent, ToolCallPreview};
use editblocks::{EditBlock, Format};

/// Section numbers as `js/parser.js` numbers them (the parser records' layout).
use crate::records::SECTIONS;

/// Preview events for JavaScript: each names its file `path`, as results
/// do, and keeps `filePath` (the same value) as a deprecated alias.
fn events_to_js(events: &[PreviewEvent]) -> Result<JsValue, JsError> {
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

/// Binding for [`PatchPreview`]: one per streaming patch operation
/// (`apply-patch`, `unified-diff`), driven by `js/preview.js`.
#[wasm_bindgen]
pub struct RawPatchPreview {
    inner: PatchPreview,
    pending_events: Vec<PreviewEvent>,
}

fn patch_format(format: &str) -> Format {
    if format == "unified-diff" {
        Format::UnifiedDiff
    } else {
        Format::ApplyPatch
    }
}

#[wasm_bindgen]
impl RawPatchPreview {
    /// A preview of an operation of `format` on `path` whose file holds
    /// `content` (`undefined`: no such file; the path is checked by the
    /// caller through [`preview_path`]).
    #[wasm_bindgen(constructor)]
    pub fn new(path: &str, format: &str, content: Option<String>) -> RawPatchPreview {
        RawPatchPreview {
            inner: PatchPreview::new(path, patch_format(format), content.as_deref()),
            pending_events: Vec::new(),
        }
    }

    /// An operation whose path was refused (`reason` from [`preview_path`]).
    pub fn refused(path: &str, format: &str, reason: String) -> RawPatchPreview {
        let mut inner = PatchPreview::refused(path, patch_format(format), reason);
        let pending_events = inner.take_events();
        RawPatchPreview {
            inner,
            pending_events,
        }
    }

    /// `count` body lines joined by `'\n'`; returns how many events wait.
    pub fn push(&mut self, lines: &str, count: u32) -> u32 {
        if count > 0 {
            let lines: Vec<&str> = lines.split('\n').collect();
            self.inner.push(&lines);
        }
        self.waiting()
    }

    /// The operation completed (`block` as `block-complete` carries it).
    pub fn complete(&mut self, block: JsValue) -> Result<u32, JsError> {
        let block: EditBlock = from_js(block, "edit block")?;
        self.inner.complete(&block);
        Ok(self.waiting())
    }

    pub fn events(&mut self) -> Result<JsValue, JsError> {
        events_to_js(&std::mem::take(&mut self.pending_events))
    }

    /// The state, with `section`: the 1-based number of the open section.
    pub fn state(&self) -> Result<JsValue, JsError> {
        let v = to_js(&self.inner.state())?;
        let _ = js_sys::Reflect::set(
            &v,
            &JsValue::from_str("section"),
            &JsValue::from(self.inner.section()),
        );
        Ok(v)
    }

    #[wasm_bindgen(js_name = contentAfter)]
    pub fn content_after(&self) -> Option<String> {
        self.inner.content_after()
    }

    /// The open section drawn in place (HTML).
    #[wasm_bindgen(js_name = renderFull)]
    pub fn render_full(&mut self, partial: Option<String>, theme: Option<String>) -> String {
        self.inner.set_theme(super::render::theme_named(theme));
        self.inner.render_full(partial.as_deref())
    }

    /// As JSON: `{ reset }` when the drawing changed since the last call, `{}` otherwise.
    #[wasm_bindgen(js_name = renderDelta)]
    pub fn render_delta(&mut self, partial: Option<String>, theme: Option<String>) -> String {
        self.inner.set_theme(super::render::theme_named(theme));
        serde_json::to_string(&self.inner.render_delta(partial.as_deref()))
            .unwrap_or_else(|_| "{}".into())
    }
}

impl RawPatchPreview {
    fn waiting(&mut self) -> u32 {
        let events = self.inner.take_events();
        self.pending_events.extend(events);
        self.pending_events.len() as u32
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
