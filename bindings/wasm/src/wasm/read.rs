//! Reads the renderers' arguments (an edit block, results, a summary, the
//! pending sections) from the plain objects `js/render.js` passes, field by
//! field through `Reflect`. Not serde: this is all `editblocks/lite` needs
//! of the boundary, and serde's deserializers (with their number
//! formatting for messages) would be a third of its module.
//!
//! Like the serde types they fill (`#[serde(default)]`), unknown fields are
//! ignored and a missing field takes its default; `null` reads as missing.
//! A field of the wrong type is refused by name.

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsError, JsValue};

use editblocks::parser::{PendingSection, Section};
use editblocks::patch::{Hunk, Operation, PatchOp};
use editblocks::render::{
    DrawOptions, Layout, ResultView, SummaryInput, SummaryOptions, SummaryView, Theme,
};
use editblocks::{EditBlock, Format};

/// What a value is, for messages.
fn kind(v: &JsValue) -> &'static str {
    if v.is_null() {
        "null"
    } else if v.is_undefined() {
        "undefined"
    } else if Array::is_array(v) {
        "an array"
    } else if v.is_string() {
        "a string"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.is_object() {
        "an object"
    } else {
        "neither a string, a number, a boolean, an array nor an object"
    }
}

/// One object being read; `what` names it in every message.
struct Obj<'a> {
    value: &'a JsValue,
    what: &'a str,
}

impl<'a> Obj<'a> {
    fn new(value: &'a JsValue, what: &'a str) -> Result<Obj<'a>, JsError> {
        if value.is_object() && !Array::is_array(value) {
            Ok(Obj { value, what })
        } else {
            Err(JsError::new(&format!(
                "editblocks: invalid {what}: expected an object, got {}",
                kind(value)
            )))
        }
    }

    /// The field, or `None` when it is missing, `undefined` or `null`.
    fn get(&self, field: &str) -> Option<JsValue> {
        let v = Reflect::get(self.value, &JsValue::from_str(field)).ok()?;
        (!v.is_undefined() && !v.is_null()).then_some(v)
    }

    fn wrong(&self, field: &str, want: &str, got: &JsValue) -> JsError {
        // A string is quoted (its first 40 characters): the value is what to fix.
        let got = match got.as_string() {
            Some(s) => {
                let cut: String = s.chars().take(40).collect();
                let more = if cut.len() < s.len() { "…" } else { "" };
                format!("the string \"{cut}{more}\"")
            }
            None => kind(got).to_string(),
        };
        JsError::new(&format!(
            "editblocks: invalid {}: `{field}` must be {want}, got {got}",
            self.what
        ))
    }

    fn missing(&self, field: &str) -> JsError {
        JsError::new(&format!(
            "editblocks: invalid {}: missing field `{field}`",
            self.what
        ))
    }

    fn string(&self, field: &str) -> Result<Option<String>, JsError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => v
                .as_string()
                .map(Some)
                .ok_or_else(|| self.wrong(field, "a string", &v)),
        }
    }

    fn text(&self, field: &str) -> Result<String, JsError> {
        Ok(self.string(field)?.unwrap_or_default())
    }

    fn required(&self, field: &str) -> Result<String, JsError> {
        self.string(field)?.ok_or_else(|| self.missing(field))
    }

    fn strings(&self, field: &str) -> Result<Option<Vec<String>>, JsError> {
        let Some(v) = self.get(field) else {
            return Ok(None);
        };
        let want = "an array of strings";
        if !Array::is_array(&v) {
            return Err(self.wrong(field, want, &v));
        }
        let array = Array::from(&v);
        let mut out = Vec::with_capacity(array.length() as usize);
        for item in array.iter() {
            out.push(
                item.as_string()
                    .ok_or_else(|| self.wrong(field, want, &item))?,
            );
        }
        Ok(Some(out))
    }

    /// A whole number from 0 to `u32::MAX`.
    fn whole(&self, field: &str) -> Result<Option<u32>, JsError> {
        let Some(v) = self.get(field) else {
            return Ok(None);
        };
        match v.as_f64() {
            Some(n) if n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n) => {
                Ok(Some(n as u32))
            }
            _ => Err(self.wrong(field, "a whole number from 0 to 4294967295", &v)),
        }
    }

    fn flag(&self, field: &str) -> Result<bool, JsError> {
        match self.get(field) {
            None => Ok(false),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| self.wrong(field, "a boolean", &v)),
        }
    }

    /// An array field, each item read by `item` (named `what: field[i]`).
    fn list<T>(
        &self,
        field: &str,
        item: impl Fn(&JsValue, &str) -> Result<T, JsError>,
    ) -> Result<Vec<T>, JsError> {
        let Some(v) = self.get(field) else {
            return Ok(Vec::new());
        };
        if !Array::is_array(&v) {
            return Err(self.wrong(field, "an array", &v));
        }
        items(&v, &format!("{}: `{field}`", self.what), item)
    }
}

/// The items of an array, each read by `item` (named `what[i]`).
fn items<T>(
    value: &JsValue,
    what: &str,
    item: impl Fn(&JsValue, &str) -> Result<T, JsError>,
) -> Result<Vec<T>, JsError> {
    if !Array::is_array(value) {
        return Err(JsError::new(&format!(
            "editblocks: invalid {what}: expected an array, got {}",
            kind(value)
        )));
    }
    let array = Array::from(value);
    let mut out = Vec::with_capacity(array.length() as usize);
    for (i, v) in array.iter().enumerate() {
        out.push(item(&v, &format!("{what}[{i}]"))?);
    }
    Ok(out)
}

/// An edit block as `parseEdits` gives it (a patch block with its operation).
pub(crate) fn edit_block(value: &JsValue, what: &str) -> Result<EditBlock, JsError> {
    let o = Obj::new(value, what)?;
    let format = match o.get("format") {
        None => return Err(o.missing("format")),
        Some(v) => v
            .as_string()
            .and_then(|name| Format::from_name(&name))
            .ok_or_else(|| {
                o.wrong(
                    "format",
                    "'edit-repl', 'anchored', 'search-replace', 'apply-patch' or 'unified-diff'",
                    &v,
                )
            })?,
    };
    let patch = match o.get("operation") {
        None => None,
        Some(_) => Some(Box::new(patch_op(&o)?)),
    };
    Ok(EditBlock {
        format,
        file_path: o.required("filePath")?,
        anchor: o.text("anchor")?,
        old_lines: o.text("oldLines")?,
        new_lines: o.text("newLines")?,
        trailing_anchor: o.text("trailingAnchor")?,
        raw_block: o.text("rawBlock")?,
        line_number: o.whole("lineNumber")?.unwrap_or(0),
        assumed: o.strings("assumed")?.unwrap_or_default(),
        line_hint: o.whole("lineHint")?,
        patch,
    })
}

fn patch_op(o: &Obj<'_>) -> Result<PatchOp, JsError> {
    let operation = match o.string("operation")?.as_deref() {
        Some("add") => Operation::Add,
        Some("delete") => Operation::Delete,
        Some("update") => Operation::Update,
        _ => {
            let got = o.get("operation").unwrap_or(JsValue::UNDEFINED);
            return Err(o.wrong("operation", "'add', 'delete' or 'update'", &got));
        }
    };
    Ok(PatchOp {
        operation,
        move_to: o.string("moveTo")?,
        old_path: o.string("oldPath")?,
        hunks: o.list("hunks", hunk)?,
        patch: o.whole("patch")?.unwrap_or(0),
    })
}

fn hunk(value: &JsValue, what: &str) -> Result<Hunk, JsError> {
    let o = Obj::new(value, what)?;
    let mut h = Hunk::default();
    h.anchors = o.strings("anchors")?.unwrap_or_default();
    h.old_start = o.whole("oldStart")?;
    h.old_count = o.whole("oldCount")?;
    h.new_start = o.whole("newStart")?;
    h.new_count = o.whole("newCount")?;
    h.end_of_file = o.flag("endOfFile")?;
    h.no_newline_old = o.flag("noNewlineOld")?;
    h.no_newline_new = o.flag("noNewlineNew")?;
    // As serde reads a hunk (`HunkRepr`): an empty line is a blank context line.
    for line in o.strings("lines")?.unwrap_or_default() {
        h.push_line(if line.is_empty() { " " } else { &line });
    }
    Ok(h)
}

/// One result as the renderers read it: every field optional.
fn result_view(value: &JsValue, what: &str) -> Result<ResultView, JsError> {
    let o = Obj::new(value, what)?;
    Ok(ResultView {
        block_index: o.whole("blockIndex")?.map(|i| i as usize),
        // Results name it `path`; `filePath` is the older name.
        file_path: match o.string("path")? {
            Some(path) => path,
            None => o.text("filePath")?,
        },
        status: o.text("status")?,
        error_kind: o.string("errorKind")?,
        reason: o.string("reason")?,
        estimated_line: o.whole("estimatedLine")?,
        anchor_preview: o.string("anchorPreview")?,
        old_preview: o.string("oldPreview")?,
        new_preview: o.string("newPreview")?,
    })
}

/// An array of results; `undefined` or `null` is none.
pub(crate) fn results(value: &JsValue, what: &str) -> Result<Vec<ResultView>, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    items(value, what, result_view)
}

/// A summary's input: an array of results, or an apply result.
pub(crate) fn summary_input(value: &JsValue, what: &str) -> Result<SummaryInput, JsError> {
    if Array::is_array(value) {
        return Ok(SummaryInput::Results(items(value, what, result_view)?));
    }
    let o = Obj::new(value, what)?;
    Ok(SummaryInput::Apply(SummaryView {
        results: o.list("results", result_view)?,
        files_modified: o.strings("filesModified")?,
        files_created: o.strings("filesCreated")?.unwrap_or_default(),
        files_auto_added: o.strings("filesAutoAdded")?.unwrap_or_default(),
        shell_suggestions: o.strings("shellSuggestions")?.unwrap_or_default(),
        retry_prompt: o.string("retryPrompt")?,
    }))
}

/// `renderEditsSummary`'s options; `undefined` or `null` is the default.
pub(crate) fn summary_options(value: &JsValue, what: &str) -> Result<SummaryOptions, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(SummaryOptions::default());
    }
    let o = Obj::new(value, what)?;
    Ok(SummaryOptions {
        retry_prompt_prepared: o.flag("retryPromptPrepared")?,
        retry_note: o.string("retryNote")?,
        theme: match o.string("theme")? {
            None => Theme::Auto,
            Some(name) => Theme::from_name(&name).ok_or_else(|| {
                let got = JsValue::from_str(&name);
                o.wrong("theme", "'light', 'dark' or 'auto'", &got)
            })?,
        },
    })
}

/// The renderers' `theme`, `layout` and `context` (`renderEditBlock`,
/// `renderFileChange`); `undefined` or `null` is the default.
pub(crate) fn draw_options(value: &JsValue, what: &str) -> Result<DrawOptions, JsError> {
    let mut options = DrawOptions::default();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    let o = Obj::new(value, what)?;
    if let Some(name) = o.string("theme")? {
        options.theme = Theme::from_name(&name).ok_or_else(|| {
            o.wrong(
                "theme",
                "'light', 'dark' or 'auto'",
                &JsValue::from_str(&name),
            )
        })?;
    }
    if let Some(name) = o.string("layout")? {
        options.layout = Layout::from_name(&name).ok_or_else(|| {
            o.wrong(
                "layout",
                "'line-by-line' or 'side-by-side'",
                &JsValue::from_str(&name),
            )
        })?;
    }
    match o.get("context") {
        None => {}
        Some(v) if v.as_string().as_deref() == Some("all") => options.context = None,
        Some(_) => {
            options.context = Some(
                o.whole("context")
                    .map_err(|_| {
                        let got = o.get("context").unwrap_or(JsValue::UNDEFINED);
                        o.wrong("context", "a whole number of lines or 'all'", &got)
                    })?
                    .unwrap_or(editblocks::render::FILE_CHANGE_CONTEXT),
            );
        }
    }
    Ok(options)
}

/// `EditStream.pending().sections`: `{ section, lines }` each, both required.
/// A section of a name the parser does not give is left out (nothing draws it).
pub(crate) fn pending_sections(
    value: &JsValue,
    what: &str,
) -> Result<Vec<PendingSection>, JsError> {
    let sections = items(value, what, |v, what| {
        let o = Obj::new(v, what)?;
        let name: String = o.required("section")?;
        let lines = o.strings("lines")?.ok_or_else(|| o.missing("lines"))?;
        Ok(Section::from_name(&name).map(|section| PendingSection { section, lines }))
    })?;
    Ok(sections.into_iter().flatten().collect())
}
