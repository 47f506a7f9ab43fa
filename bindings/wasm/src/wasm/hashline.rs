//! Binding for the hashline module: `LINE#ID` views and edits.
//!
//! `js/hashline.js` drives the host: it asks [`hashline_paths`] what to read,
//! reads it through the user's host, and calls [`hashline_apply`] on that
//! snapshot, then replays the writes and deletes.

use super::{from_js, from_js_or_default, host_changes, snapshot_host};
use editblocks::hashline::{self, HashlineOptions, MAX_WIDTH};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

fn check_width(width: usize) -> Result<usize, JsError> {
    if (1..=MAX_WIDTH).contains(&width) {
        Ok(width)
    } else {
        Err(JsError::new(&format!(
            "editblocks: width must be an integer from 1 to {MAX_WIDTH}, got {width}"
        )))
    }
}

/// The ID of one line (`lineId`).
#[wasm_bindgen(js_name = hashlineLineId)]
pub fn hashline_line_id(line: &str, width: Option<u32>) -> Result<String, JsError> {
    let width = check_width(width.map_or(hashline::DEFAULT_WIDTH, |w| w as usize))?;
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
pub fn hashline_format(content: &str, options: JsValue) -> Result<String, JsError> {
    let options: FormatOptions = from_js_or_default(options, "formatHashlines options")?;
    let start = line_number(options.start_line, "startLine")?.unwrap_or(1);
    let end = line_number(options.end_line, "endLine")?;
    let width =
        check_width(line_number(options.width, "width")?.unwrap_or(hashline::DEFAULT_WIDTH))?;
    Ok(hashline::format_hashlines(content, start, end, width))
}

fn read_options(options: JsValue) -> Result<HashlineOptions, JsError> {
    let options: HashlineOptions = from_js_or_default(options, "applyHashlineEdit options")?;
    check_width(options.width)?;
    Ok(options)
}

/// The normalised paths a call needs read (refused paths are never listed).
#[wasm_bindgen(js_name = hashlinePaths)]
pub fn hashline_paths(call: JsValue, options: JsValue) -> Result<Vec<String>, JsError> {
    let call: serde_json::Value = from_js(call, "hashline edit call")?;
    Ok(hashline::hashline_paths(&call, &read_options(options)?))
}

/// Runs a call on the snapshot the driver read; returns `{ result, writes, deletes, stage }`.
#[wasm_bindgen(js_name = hashlineApply)]
pub fn hashline_apply(call: JsValue, files: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let call: serde_json::Value = from_js(call, "hashline edit call")?;
    let options = read_options(options)?;
    let mut host = snapshot_host(&files)?;
    let result = hashline::apply_hashline_edit(&call, &mut host, &options);
    host_changes(&host, result)
}

/// The system prompt for these options (`width`, `allowReplaceText`).
#[wasm_bindgen(js_name = hashlineSystemPrompt)]
pub fn hashline_system_prompt(options: JsValue) -> Result<String, JsError> {
    Ok(hashline::system_prompt_with(&read_options(options)?))
}
