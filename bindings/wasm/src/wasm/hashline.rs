//! Binding for the hashline module: `LINE#ID` views and edits.
//!
//! `js/hashline.js` drives the host: it asks [`hashline_plan`] what to read,
//! reads it through the user's host, and calls [`hashline_apply`] on that
//! snapshot, then replays the writes and deletes.

use super::{from_js, from_js_or_default, host_changes, snapshot_host};
use editblocks::hashline::{self, HashlineOptions, MAX_WIDTH};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// The ID width an option gave (the default when none), refused outside 1
/// to [`MAX_WIDTH`] as a `RangeError` naming the JavaScript `function`
/// called. (`js/options.js` has checked it is a whole number.)
fn width_or_default(width: Option<f64>, function: &str) -> Result<usize, JsValue> {
    match width {
        None => Ok(hashline::DEFAULT_WIDTH),
        Some(w) if w >= 1.0 && w <= MAX_WIDTH as f64 => Ok(w as usize),
        Some(w) => {
            // As JavaScript writes the number (`1e+21`, not `1000…`).
            let shown = String::from(
                js_sys::Number::from(w)
                    .to_string_with_radix(10)
                    .unwrap_or_default(),
            );
            Err(js_sys::RangeError::new(&format!(
                "editblocks: {function} width must be an integer from 1 to {MAX_WIDTH}, got {shown}"
            ))
            .into())
        }
    }
}

/// The ID of one line (`lineId`).
#[wasm_bindgen(js_name = hashlineLineId)]
pub fn hashline_line_id(line: &str, width: Option<f64>) -> Result<String, JsValue> {
    let width = width_or_default(width, "lineId")?;
    Ok(hashline::line_id(line, width))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct FormatOptions {
    start_line: Option<f64>,
    end_line: Option<f64>,
    width: Option<f64>,
}

fn line_number(value: Option<f64>, what: &str) -> Result<Option<usize>, JsError> {
    match value {
        None => Ok(None),
        Some(v) if v.is_finite() && v.fract() == 0.0 && v >= 0.0 => Ok(Some(v as usize)),
        Some(_) => Err(JsError::new(&format!(
            "editblocks: {what} must be a whole, non-negative line number (1-based)"
        ))),
    }
}

/// The read view (`formatHashlines`).
#[wasm_bindgen(js_name = hashlineFormat)]
pub fn hashline_format(content: &str, options: JsValue) -> Result<String, JsValue> {
    let options: FormatOptions = from_js_or_default(options, "formatHashlines options")?;
    let width = width_or_default(options.width, "formatHashlines")?;
    let start = line_number(options.start_line, "startLine")?.unwrap_or(1);
    let end = line_number(options.end_line, "endLine")?;
    Ok(hashline::format_hashlines(content, start, end, width))
}

/// The options of `function`, its width checked before the rest is read
/// (a negative one is out of range, not a type error).
fn read_options(options: JsValue, function: &str) -> Result<HashlineOptions, JsValue> {
    // (`js/options.js` made `options` a plain object, or left it undefined.)
    let width = match options.is_object() {
        true => js_sys::Reflect::get(&options, &JsValue::from_str("width"))?.as_f64(),
        false => None,
    };
    width_or_default(width, function)?;
    Ok(from_js_or_default(options, "applyHashlineEdit options")?)
}

/// The normalised paths a call needs read (refused paths are never
/// listed), and whether it deletes a file (a delete or a rename that is
/// not a dry run): `[paths, needsDelete]`. `function` is the JavaScript
/// function called, named by an error.
#[wasm_bindgen(js_name = hashlinePlan)]
pub fn hashline_plan(
    call: JsValue,
    options: JsValue,
    function: &str,
) -> Result<js_sys::Array, JsValue> {
    let call: serde_json::Value = from_js(call, "hashline edit call")?;
    let options = read_options(options, function)?;
    let paths: js_sys::Array = hashline::hashline_paths(&call, &options)
        .into_iter()
        .map(JsValue::from)
        .collect();
    let deletes = !options.dry_run && hashline::deletes_a_file(&call);
    Ok(js_sys::Array::of2(&paths, &JsValue::from_bool(deletes)))
}

/// Runs a call on the snapshot the driver read; returns `{ result, writes, deletes, stage }`.
#[wasm_bindgen(js_name = hashlineApply)]
pub fn hashline_apply(
    call: JsValue,
    files: JsValue,
    options: JsValue,
    function: &str,
) -> Result<JsValue, JsValue> {
    let call: serde_json::Value = from_js(call, "hashline edit call")?;
    let options = read_options(options, function)?;
    let mut host = snapshot_host(&files)?;
    let result = hashline::apply_hashline_edit(&call, &mut host, &options);
    Ok(host_changes(&host, result)?)
}

/// The system prompt for these options (`width`, `allowReplaceText`).
#[wasm_bindgen(js_name = hashlineSystemPrompt)]
pub fn hashline_system_prompt(options: JsValue) -> Result<String, JsValue> {
    Ok(hashline::system_prompt_with(&read_options(
        options,
        "hashlineSystemPrompt",
    )?))
}
