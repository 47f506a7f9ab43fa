//! Binding for the diff and render modules. The JS wrappers (`js/render.js`)
//! check arguments and shape them; these functions convert and call the core.

use wasm_bindgen::prelude::*;

use super::read;
use editblocks::render::{SummaryView, Theme};

/// `diffBlock`, packed as numbers: JS already holds both texts, so only the
/// structure crosses the boundary and `js/render.js` builds the objects from
/// its own split of the texts (far quicker than building them from wasm or
/// parsing JSON). Layout: first `1` when the diff is complete, `0` when a
/// budget of `DiffLimits` cut it short; then for each line `kind` (0 context, 1 removed,
/// 2 added), `oldLine` (0: none), `newLine` (0: none), `spans + 1` (0: no
/// spans), then per span `utf16Length << 1 | changed`.
///
/// The texts arrive as UTF-8 bytes (`TextEncoder.encode`, a native copy),
/// which is several times quicker for long texts than passing strings.
#[wasm_bindgen(js_name = diffBlockPacked)]
pub fn diff_block_packed(old_utf8: &[u8], new_utf8: &[u8]) -> Vec<u32> {
    use editblocks::diff::LineKind;
    let (old_text, new_text) = (utf8_text(old_utf8), utf8_text(new_utf8));
    let diff = editblocks::diff::diff_block_ref(
        &old_text,
        &new_text,
        &editblocks::diff::DiffLimits::default(),
    );
    // Each line's text as a UTF-16 range of the caller's own string (old text
    // for context and removed lines, new text for added ones): `js/render.js`
    // slices it, so it never splits lines itself.
    let old_ranges = line_ranges16(&old_text);
    let new_ranges = line_ranges16(&new_text);
    let mut out = Vec::with_capacity(diff.lines.len() * 6 + 2);
    out.push(u32::from(diff.complete));
    for line in &diff.lines {
        let at = |ranges: &[(u32, u32)], n: Option<u32>| {
            n.and_then(|n| (n as usize).checked_sub(1))
                .and_then(|i| ranges.get(i).copied())
        };
        let (kind, range) = match line.kind {
            LineKind::Context => (0, at(&old_ranges, line.old_line)),
            LineKind::Removed => (1, at(&old_ranges, line.old_line)),
            LineKind::Added => (2, at(&new_ranges, line.new_line)),
        };
        let (start, end) = range.unwrap_or((0, 0));
        out.extend([
            kind,
            line.old_line.unwrap_or(0),
            line.new_line.unwrap_or(0),
            start,
            end,
        ]);
        match &line.spans {
            None => out.push(0),
            Some(spans) => {
                out.push(u32::try_from(spans.len() + 1).unwrap_or(u32::MAX));
                for span in spans {
                    let units = if span.text.is_ascii() {
                        span.text.len()
                    } else {
                        span.text.chars().map(char::len_utf16).sum()
                    };
                    out.push(
                        (u32::try_from(units).unwrap_or(u32::MAX >> 1) << 1)
                            | u32::from(span.changed),
                    );
                }
            }
        }
    }
    out
}

/// The UTF-16 range in `text` of each line of the diff's line model
/// ([`editblocks::diff::split_lines`]).
fn line_ranges16(text: &str) -> Vec<(u32, u32)> {
    let base = text.as_ptr() as usize;
    let (mut at, mut units) = (0usize, 0usize);
    let mut to16 = |offset: usize| -> u32 {
        let offset = offset.clamp(at, text.len());
        units += crate::records::utf16_units(&text.as_bytes()[at..offset]);
        at = offset;
        units as u32
    };
    editblocks::diff::split_lines(text)
        .into_iter()
        .map(|line| {
            let start = line.as_ptr() as usize - base;
            (to16(start), to16(start + line.len()))
        })
        .collect()
}

/// `from_utf8` has a fast path for ASCII; the lossy decoder does not.
fn utf8_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// `renderEditBlock`: `results` is an array of results (or undefined);
/// `index` picks the result by block index.
#[wasm_bindgen(js_name = renderEditBlockHtml)]
pub fn render_edit_block_html(
    block: JsValue,
    results: JsValue,
    index: Option<u32>,
    options: JsValue,
) -> Result<String, JsError> {
    let block = read::edit_block(&block, "edit block (renderEditBlock's first argument)")?;
    let results = read::results(&results, "results (renderEditBlock's second argument)")?;
    let options = read::draw_options(&options, "renderEditBlock options")?;
    let index = index.map(|i| i as usize);
    Ok(editblocks::render::render_edit_block_with(
        &block,
        editblocks::render::find_result(&block, &results, index),
        &options,
    ))
}

/// A theme by name (`js/render.js` checks the names; an unknown one is `auto`).
pub(super) fn theme_named(theme: Option<String>) -> Theme {
    theme
        .as_deref()
        .and_then(Theme::from_name)
        .unwrap_or_default()
}

/// `renderInProgressEditBlock`.
#[wasm_bindgen(js_name = renderInProgressHtml)]
pub fn render_in_progress_html(
    file_path: &str,
    partial_lines: Vec<String>,
    theme: Option<String>,
) -> String {
    editblocks::render::render_in_progress_edit_block_with(
        file_path,
        &partial_lines,
        theme_named(theme),
    )
}

/// `renderInProgressEditBlock(pending)`: the sections of `EditStream.pending()`.
#[wasm_bindgen(js_name = renderPendingHtml)]
pub fn render_pending_html(
    file_path: &str,
    sections: JsValue,
    partial_line: Option<String>,
    theme: Option<String>,
) -> Result<String, JsError> {
    let sections = read::pending_sections(
        &sections,
        "pending.sections (an array of { section, lines } as EditStream.pending() returns)",
    )?;
    Ok(editblocks::render::render_pending_sections_with(
        file_path,
        &sections,
        partial_line.as_deref(),
        theme_named(theme),
    ))
}

/// `renderEditsSummary`: `summary` is an array of results or an apply result.
#[wasm_bindgen(js_name = renderSummaryHtml)]
pub fn render_summary_html(summary: JsValue, options: JsValue) -> Result<String, JsError> {
    let input = read::summary_input(
        &summary,
        "results (renderEditsSummary takes an array of results or an apply result)",
    )?;
    let options = read::summary_options(&options, "renderEditsSummary options")?;
    Ok(editblocks::render::render_edits_summary(
        &SummaryView::from(input),
        &options,
    ))
}

/// `renderFileChange(change, { status?, theme?, layout?, context? })`: one file's before and after
/// (from any style's `fileChanges`) drawn like a text block. `js/render.js`
/// checks the change and passes its fields. Not in `editblocks/lite` (no
/// `fileChanges` without applying).
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = renderFileChangeHtml)]
pub fn render_file_change_html(
    path: String,
    before: Option<String>,
    after: Option<String>,
    moved_from: Option<String>,
    status: Option<String>,
    options: JsValue,
) -> Result<String, JsError> {
    let change = editblocks::apply::FileChange {
        path,
        before,
        after,
        moved_from,
    };
    let options = read::draw_options(&options, "renderFileChange options")?;
    Ok(editblocks::render::render_file_change_with(
        &change,
        status.as_deref(),
        &options,
    ))
}

// `editblocks/lite` is built without `unicode-segmentation` (its tables are a
// fifth of the module): the intra-line diff asks the host's
// `Intl.Segmenter` for extended grapheme clusters instead, only for lines
// that are not ASCII. Where the host has none, every code point is one.
// The offsets come back in UTF-8 bytes; `editblocks::diff` checks them.
#[cfg(not(feature = "full"))]
#[wasm_bindgen(inline_js = "let segmenter;
export function graphemeStarts8(text) {
  if (segmenter === undefined) {
    segmenter = typeof Intl === 'object' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  }
  const out = [];
  let byte = 0;
  for (const { segment } of segmenter === null ? Array.from(text, (segment) => ({ segment })) : segmenter.segment(text)) {
    out.push(byte);
    for (const c of segment) {
      const u = c.codePointAt(0);
      byte += u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
    }
  }
  return new Uint32Array(out);
}")]
extern "C" {
    #[wasm_bindgen(js_name = graphemeStarts8)]
    fn grapheme_starts8(text: &str) -> Vec<u32>;
}

/// The byte offset of each grapheme's start in `text`, by the host's segmenter.
#[cfg(not(feature = "full"))]
pub(crate) fn host_grapheme_starts(text: &str) -> Vec<usize> {
    grapheme_starts8(text)
        .into_iter()
        .map(|b| b as usize)
        .collect()
}

/// `unifiedDiff(change, { context? })`: one file change as a unified diff
/// (`diff -u`, readable by git and patch). `js/render.js` checks the change.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = unifiedDiffText)]
pub fn unified_diff_text(
    path: String,
    before: Option<String>,
    after: Option<String>,
    moved_from: Option<String>,
    context: u32,
) -> String {
    let old_name = moved_from.as_deref().unwrap_or(&path);
    editblocks::diff::unified_diff(
        old_name,
        &path,
        before.as_deref(),
        after.as_deref(),
        context as usize,
    )
}
