//! Binding for the diff and render modules. The JS wrappers (`js/render.js`)
//! check arguments and shape them; these functions convert and call the core.

use wasm_bindgen::prelude::*;

use super::{from_js, from_js_or_default};
use crate::block::EditBlock;
use crate::render::{ResultView, SummaryInput, SummaryOptions, SummaryView};

/// `diffBlock`, as JSON text: one `JSON.parse` on the JS side builds the
/// objects far faster than creating them one property at a time from wasm.
#[wasm_bindgen(js_name = diffBlockJson)]
pub fn diff_block_json(old_text: &str, new_text: &str) -> String {
    let lines = crate::diff::diff_block(old_text, new_text);
    serde_json::to_string(&lines).unwrap_or_else(|_| "[]".to_string())
}

/// `renderEditBlock`: `results` is an array of results (or undefined);
/// `index` picks the result by block index.
#[wasm_bindgen(js_name = renderEditBlockHtml)]
pub fn render_edit_block_html(block: JsValue, results: JsValue, index: Option<u32>) -> Result<String, JsError> {
    let block: EditBlock = from_js(block, "edit block (renderEditBlock's first argument)")?;
    let results: Vec<ResultView> = from_js_or_default(results, "results (renderEditBlock's second argument)")?;
    let index = index.map(|i| i as usize);
    Ok(crate::render::render_edit_block(&block, crate::render::find_result(&block, &results, index)))
}

/// `renderInProgressEditBlock`.
#[wasm_bindgen(js_name = renderInProgressHtml)]
pub fn render_in_progress_html(file_path: &str, partial_lines: Vec<String>) -> String {
    crate::render::render_in_progress_edit_block(file_path, &partial_lines)
}

/// `renderEditsSummary`: `summary` is an array of results or an apply result.
#[wasm_bindgen(js_name = renderSummaryHtml)]
pub fn render_summary_html(summary: JsValue, options: JsValue) -> Result<String, JsError> {
    let input: SummaryInput = from_js(summary, "results (renderEditsSummary takes an array of results or an apply result)")?;
    let options: SummaryOptions = from_js_or_default(options, "renderEditsSummary options")?;
    Ok(crate::render::render_edits_summary(&SummaryView::from(input), &options))
}
