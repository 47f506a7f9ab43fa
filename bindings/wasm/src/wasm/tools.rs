//! Binding for the tools module (seed 002 tool calls). `js/tools.js` wraps
//! these into `toolSchemas`, `applyToolCalls(Sync)`, `fileStatus`,
//! `retryContext` and `toolSystemPrompt`.

use wasm_bindgen::prelude::*;

use super::{from_js, from_js_or_default, host_changes, snapshot_host, to_js};
use editblocks::tools::{self, DiffMode, Local, RetryInput, SchemaApi, ToolCall, ToolOptions};

/// The names `diffMode` takes, as a refusal lists them: `'a', 'b' or 'c'`.
fn mode_names() -> String {
    let names: Vec<String> = DiffMode::DIFF_MODE_NAMES
        .iter()
        .chain(&DiffMode::PROVIDER_TOOL_NAMES)
        .map(|name| format!("'{name}'"))
        .collect();
    match names.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A wrong argument is a TypeError naming it, as the JS checks throw.
fn type_error(message: String) -> JsValue {
    js_sys::TypeError::new(&message).into()
}

fn diff_mode(value: &JsValue, function: &str) -> Result<DiffMode, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(DiffMode::default());
    }
    let name = value.as_string().ok_or_else(|| {
        type_error(format!(
            "editblocks: {function}: diffMode must be a string: {}",
            mode_names()
        ))
    })?;
    DiffMode::from_name(&name).ok_or_else(|| {
        type_error(format!(
            "editblocks: {function}: unknown diffMode {name:?}; use {}",
            mode_names()
        ))
    })
}

fn calls_from(value: JsValue) -> Result<Vec<ToolCall>, JsError> {
    if !js_sys::Array::is_array(&value) {
        return Err(JsError::new(
            "editblocks: tool calls must be an array of { name, arguments } objects",
        ));
    }
    let raw: Vec<serde_json::Value> = from_js(value, "tool calls")?;
    Ok(ToolCall::from_values(&raw)
        .into_iter()
        .map(|(_, call)| call)
        .collect())
}

/// `toolSchemas(diffMode?, { api? })`: the tool definitions for a diff mode,
/// as JSON text (parsed in JS, which keeps the property order).
#[wasm_bindgen(js_name = toolsSchemas)]
pub fn tools_schemas(mode: JsValue, options: JsValue) -> Result<String, JsValue> {
    let mode = diff_mode(&mode, "toolSchemas")?;
    let api = if options.is_undefined() || options.is_null() {
        SchemaApi::default()
    } else {
        match js_sys::Reflect::get(&options, &JsValue::from_str("api"))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
        {
            None => SchemaApi::default(),
            Some(v) => {
                let name = v.as_string().unwrap_or_default();
                SchemaApi::from_name(&name).ok_or_else(|| {
                    type_error(format!(
                        "editblocks: toolSchemas: unknown api {name:?}; use 'plain', 'openai', 'openai-responses', 'anthropic' or 'gemini'"
                    ))
                })?
            }
        }
    };
    tools::tool_schemas_for(mode, api)
        .map_err(|why| JsValue::from(JsError::new(&format!("editblocks: {why}"))))
}

/// What `applyToolCalls` needs before it reads: the normalised paths the
/// calls read (refused paths left out), the path of each `undo_edit` call
/// once per call (the edit session passes that many of the file's most
/// recent texts in `options.history`), and the paths `view` commands name
/// (`.` for the root; JS lists the folders among them through the host's
/// `listDir`). One call, so the calls cross the boundary once.
#[wasm_bindgen(js_name = toolsPlan)]
pub fn tools_plan(calls: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Plan {
        paths: Vec<String>,
        undo_paths: Vec<String>,
        view_paths: Vec<String>,
    }
    let options: ToolOptions = from_js_or_default(options, "options")?;
    let calls = calls_from(calls)?;
    let undo_paths = tools::tool_undo_counts(&calls, &options)
        .into_iter()
        .flat_map(|(path, count)| std::iter::repeat(path).take(count))
        .collect();
    to_js(&Plan {
        paths: tools::tool_call_paths(&calls, &options),
        undo_paths,
        view_paths: tools::tool_view_paths(&calls, &options),
    })
}

/// Runs the calls over a snapshot of the files; returns
/// `{ result, writes, deletes, stage }` for the JS host driver.
#[wasm_bindgen(js_name = toolsApplySnapshot)]
pub fn tools_apply_snapshot(
    calls: JsValue,
    files: JsValue,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let calls = calls_from(calls)?;
    let options: ToolOptions = from_js_or_default(options, "options")?;
    let mut host = snapshot_host(&files)?;
    let result = tools::apply_tool_calls(&calls, &mut host, &options);
    host_changes(&host, result)
}

fn text_field(object: &JsValue, key: &str) -> Result<JsValue, JsError> {
    let value = js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() || value.is_null() || value.is_string() {
        Ok(value)
    } else {
        Err(JsError::new(&format!(
            "editblocks: fileStatus: {key} must be a string, null or undefined"
        )))
    }
}

/// `fileStatus({ context, local, output })`: `''`, `'M'`, `'A'`, `'~'` or `'~M'`.
/// `local: undefined` means not known (taken as equal to context); `null`
/// means the file does not exist locally.
#[wasm_bindgen(js_name = toolsFileStatus)]
pub fn tools_file_status(state: JsValue) -> Result<String, JsError> {
    if !state.is_object() {
        return Err(JsError::new(
            "editblocks: fileStatus expects an object { context, local, output }",
        ));
    }
    let context = text_field(&state, "context")?.as_string();
    let output = text_field(&state, "output")?.as_string();
    let local_value = text_field(&state, "local")?;
    let local_text = local_value.as_string();
    let local = match (&local_text, local_value.is_null()) {
        (Some(text), _) => Local::Text(text),
        (None, true) => Local::Missing,
        (None, false) => Local::Unknown,
    };
    Ok(tools::file_status(context.as_deref(), local, output.as_deref()).to_string())
}

/// `retryContext(result)`: the `@retry_context` block ('' when nothing failed).
#[wasm_bindgen(js_name = toolsRetryContext)]
/// `calls_json`, when given, is the calls already written as JSON.
pub fn tools_retry_context(result: JsValue, calls_json: Option<String>) -> Result<String, JsError> {
    let input: RetryInput = from_js(result, "result (pass what applyToolCalls returned)")?;
    Ok(match calls_json {
        Some(json) => tools::retry_context_with(&input.errors, &json),
        None => tools::retry_context(&input),
    })
}

/// The system prompt for one diff mode.
#[wasm_bindgen(js_name = toolsSystemPrompt)]
pub fn tools_system_prompt(mode: JsValue) -> Result<String, JsValue> {
    Ok(tools::system_prompt_for(diff_mode(
        &mode,
        "toolSystemPrompt",
    )?))
}
