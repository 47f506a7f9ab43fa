//! The JavaScript binding: every `#[wasm_bindgen]` item lives under this
//! module, one file per feature, and converts types at the boundary. The
//! core never sees a `JsValue`.

#[cfg(feature = "preview")]
use serde::de::DeserializeOwned;
#[cfg(feature = "preview")]
use serde::Serialize;
use wasm_bindgen::prelude::*;

// Without the `full` feature (the `editblocks/lite` build) only parsing and
// rendering are bound; the rest of the core is then never linked in.
#[cfg(feature = "full")]
mod engine;
#[cfg(feature = "full")]
mod hashline;
mod parser;
mod parser_records;
#[cfg(feature = "preview")]
mod preview;
mod read;
mod render;
#[cfg(feature = "full")]
mod tools;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Converts a core value to a plain JS object (maps as objects, `None` as
/// `undefined` where the field is skipped).
#[cfg(feature = "preview")]
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            JsError::new(&format!(
                "editblocks: could not convert a result to JavaScript: {e}"
            ))
        })
}

/// Converts a JS value to a core type; `what` names the argument in the error.
/// (`editblocks/lite` reads its arguments without serde: `read`.)
#[cfg(feature = "preview")]
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("editblocks: invalid {what}: {e}")))
}

/// `undefined` and `null` become the default; anything else is converted.
#[cfg(feature = "full")]
pub(crate) fn from_js_or_default<T: DeserializeOwned + Default>(
    value: JsValue,
    what: &str,
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        Ok(T::default())
    } else {
        from_js(value, what)
    }
}

/// Builds a [`crate::host::MemoryHost`] from the snapshot the JS driver read
/// (`js/host-driver.js`): an object mapping each path to a string, a
/// `Uint8Array`, `null` (no such file) or `{ error, kind? }` (the read failed;
/// `kind: 'path-escape'` when the host refused a path leading outside the root).
#[cfg(feature = "full")]
pub(crate) fn snapshot_host(files: &JsValue) -> Result<crate::host::MemoryHost, JsError> {
    use js_sys::{Object, Reflect, Uint8Array};
    let mut host = crate::host::MemoryHost::new();
    if files.is_undefined() || files.is_null() {
        return Ok(host);
    }
    let object: &Object = files
        .dyn_ref()
        .ok_or_else(|| JsError::new("editblocks: the file snapshot must be an object"))?;
    let mut read = std::collections::BTreeSet::new();
    for entry in Object::entries(object).iter() {
        let pair: js_sys::Array = entry.into();
        let path = pair.get(0).as_string().unwrap_or_default();
        read.insert(path.clone());
        let value = pair.get(1);
        if let Some(text) = value.as_string() {
            host.files.insert(path, text.into_bytes());
        } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
            host.files.insert(path, bytes.to_vec());
        } else if value.is_object() {
            let message = Reflect::get(&value, &JsValue::from_str("error"))
                .ok()
                .and_then(|v| v.as_string());
            let kind = Reflect::get(&value, &JsValue::from_str("kind"))
                .ok()
                .and_then(|v| v.as_string());
            if kind.as_deref() == Some("path-escape") {
                host.escapes.insert(path.clone());
            }
            host.unreadable.insert(
                path,
                message.unwrap_or_else(|| "the host could not read this file".into()),
            );
        }
    }
    host.snapshot_of = Some(read);
    Ok(host)
}

/// What the JS driver replays onto the real host after the core ran.
#[cfg(feature = "full")]
#[derive(Serialize)]
pub(crate) struct HostChanges<R: Serialize> {
    pub result: R,
    pub writes: Vec<WriteOp>,
    pub deletes: Vec<String>,
    pub stage: Vec<String>,
}

#[cfg(feature = "full")]
#[derive(Serialize)]
pub(crate) struct WriteOp {
    pub path: String,
    pub content: String,
}

/// Packs the operations a snapshot host recorded, in order, with `result`.
#[cfg(feature = "full")]
pub(crate) fn host_changes<R: Serialize>(
    host: &crate::host::MemoryHost,
    result: R,
) -> Result<JsValue, JsError> {
    use crate::host::HostOp;
    let mut changes = HostChanges {
        result,
        writes: Vec::new(),
        deletes: Vec::new(),
        stage: Vec::new(),
    };
    for op in &host.ops {
        match op {
            HostOp::Write { path, content } => changes.writes.push(WriteOp {
                path: path.clone(),
                content: content.clone(),
            }),
            HostOp::Delete { path } => changes.deletes.push(path.clone()),
            HostOp::Stage { paths } => changes.stage.extend(paths.iter().cloned()),
        }
    }
    // As JSON text, parsed by the engine: one string crossing instead of an
    // object built call by call (a reply touching 1,000 files builds ~30,000
    // values). The objects are the same: `to_js` is JSON-compatible too.
    let json = serde_json::to_string(&changes).map_err(|e| {
        JsError::new(&format!(
            "editblocks: could not convert a result to JavaScript: {e}"
        ))
    })?;
    js_sys::JSON::parse(&json)
        .map_err(|_| JsError::new("editblocks: could not convert a result to JavaScript"))
}

/// Shell commands suggested in backticks (`git rm`, `git mv`, `mkdir -p`, `rm -rf`).
#[wasm_bindgen(js_name = detectShellSuggestions)]
pub fn detect_shell_suggestions(text: &str) -> Vec<String> {
    crate::shell::detect_shell_suggestions(text)
}

/// The instructions for the model for one edit style.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = systemPrompt)]
pub fn system_prompt(kind: &str) -> Result<String, JsError> {
    crate::prompts::system_prompt(kind).ok_or_else(|| {
        JsError::new(&format!(
            "editblocks: systemPrompt does not know {kind:?}; use 'edit-repl', 'anchored', 'search-replace', 'apply-patch', 'unified-diff', 'tools' or 'hashline'"
        ))
    })
}
