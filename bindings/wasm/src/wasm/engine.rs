//! Binding for the engine module: `validateEdit`, `applyToContent`, and the
//! plan object `js/apply.js` drives a host with (see `js/host-driver.js`).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{from_js, from_js_or_default, host_changes_with, snapshot_host, to_js, PathIndex};
use editblocks::engine::{self, ApplyOptions};
use editblocks::{ConfinedEdits, EditBlock, EditResult};

/// Why `entry` cannot be an `allowFolders` entry (`editblocks::check_allow_folder`),
/// or `undefined` when it can: the JS options check throws with this sentence.
#[wasm_bindgen(js_name = allowFolderProblem)]
pub fn allow_folder_problem(entry: &str) -> Option<String> {
    editblocks::check_allow_folder(entry)
        .err()
        .map(|e| e.reason)
}

/// Whether one file name names version-control metadata (`.git`, `.GIT.`,
/// `git~1` …): `nodeHost` hides such names from folder listings and refuses
/// a link leading into one, by the core's rule.
#[wasm_bindgen(js_name = isVcsFolderName)]
pub fn is_vcs_folder_name(component: &str) -> bool {
    editblocks::is_vcs_folder_name(component)
}

/// For each of `paths`, why its read is refused because another path of the
/// run names the same file (`real_paths`: the host's `realPath` of each, a
/// string or anything else for "could not resolve"), or `null`
/// (`editblocks::same_file_refusals`). The driver reads no refused path.
#[wasm_bindgen(js_name = sameFileRefusals)]
pub fn same_file_refusals(paths: Vec<String>, real_paths: Vec<JsValue>) -> Vec<JsValue> {
    let reals: Vec<Option<String>> = real_paths.iter().map(JsValue::as_string).collect();
    editblocks::same_file_refusals(&paths, &reals)
        .into_iter()
        .map(|r| r.map_or(JsValue::NULL, JsValue::from))
        .collect()
}

/// `resultLayout()`: the status and error-kind names by the numbers results
/// carry, and the bits of their flags word (`crate::results::result_layout_json`).
#[wasm_bindgen(js_name = resultLayout)]
pub fn result_layout() -> String {
    crate::results::result_layout_json()
}

/// A reply (string) or parsed blocks (array), as `applyEdits` accepts:
/// the blocks, and for a reply the shell commands it suggests (found here,
/// so that the reply need not be kept for the run).
///
/// `json` is the same blocks as JSON text (`js/apply.js` gives it when the
/// copy holds no number that JSON cannot spell): serde_json reads it far
/// faster than the blocks convert value by value. When it does not read, the
/// blocks are converted as before, so an invalid block is refused with the
/// same message.
/// A reply read to be applied: its blocks, the shell commands it suggests
/// and the blocks dropped while it was read.
struct ReplyRead {
    shell_suggestions: Vec<String>,
    discarded: Vec<editblocks::DiscardedBlock>,
}

fn read_input(
    input: JsValue,
    json: Option<String>,
    options: &ApplyOptions,
) -> Result<(ConfinedEdits, Option<ReplyRead>), JsError> {
    // The blocks are only applied (never handed out): a patch block leaves
    // out the texts only renderers read. The reply is read as `parseEdits`
    // reads it with the same formats and known files.
    let read_reply = |reply: &str| {
        let (edits, discarded) = ConfinedEdits::from_reply(reply, options);
        let read = ReplyRead {
            shell_suggestions: editblocks::detect_shell_suggestions(reply),
            discarded,
        };
        (edits, Some(read))
    };
    // The reply as UTF-8 bytes (`js/apply.js` encodes it with TextEncoder,
    // far faster than a string crosses: wasm-bindgen copies an ASCII string
    // one character at a time in JavaScript).
    // Or, as `js/apply.js` sends it, a byte length: the reply was encoded
    // straight into the parser's input buffer (no JavaScript buffer and no
    // copy across the boundary first), and is read there (no copy at all).
    if let Some(bytes) = input.dyn_ref::<js_sys::Uint8Array>() {
        let reply = String::from_utf8(bytes.to_vec())
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        return Ok(read_reply(&reply));
    }
    match input.as_f64() {
        Some(len) if len >= 0.0 => {
            return Ok(super::parser::with_input(len as usize, read_reply));
        }
        _ => {
            if let Some(reply) = input.as_string() {
                return Ok(read_reply(&reply));
            }
        }
    }
    if js_sys::Array::is_array(&input) {
        let blocks: Vec<EditBlock> = match json.and_then(|j| serde_json::from_str(&j).ok()) {
            Some(blocks) => blocks,
            None => from_js(
                input,
                "edit blocks (expected EditBlock objects with format and filePath)",
            )?,
        };
        return Ok((ConfinedEdits::new(blocks, options), None));
    }
    Err(JsError::new(
        "editblocks: applyEdits needs a reply (string) or an array of EditBlock objects",
    ))
}

/// Everything one `applyEdits` call needs, kept on the Rust side between the
/// driver's read and run steps so the input is parsed and converted once.
#[wasm_bindgen(js_name = EngineApplyPlan)]
pub struct ApplyPlan {
    /// The blocks, each path confined once for both the paths to read and
    /// every run.
    edits: ConfinedEdits,
    /// For a reply, the shell commands it suggests and the blocks dropped.
    reply: Option<ReplyRead>,
    options: ApplyOptions,
}

impl ApplyPlan {
    /// The paths to read, in order: the same list for `pathsJson` and
    /// every run (worked out again rather than kept: no copy of each path).
    fn paths(&self) -> Vec<std::borrow::Cow<'_, str>> {
        self.edits.required_paths(&self.options)
    }
}

#[wasm_bindgen(js_class = EngineApplyPlan)]
impl ApplyPlan {
    #[wasm_bindgen(constructor)]
    pub fn new(
        input: JsValue,
        options: JsValue,
        json: Option<String>,
    ) -> Result<ApplyPlan, JsError> {
        let options: ApplyOptions = from_js_or_default(options, "apply options")?;
        let (edits, reply) = read_input(input, json, &options)?;
        Ok(ApplyPlan {
            edits,
            reply,
            options,
        })
    }

    /// The normalised, confined paths to read (refused paths are never
    /// listed), as a JSON array: one string crosses instead of one per
    /// path (`js/apply.js` parses it).
    #[wasm_bindgen(js_name = pathsJson)]
    pub fn paths_json(&self) -> String {
        serde_json::to_string(&self.paths()).unwrap_or_else(|_| "[]".into())
    }

    /// Whether applying needs the host's `deleteFile` (a patch deletes or
    /// moves a file).
    #[wasm_bindgen(js_name = needsDelete)]
    pub fn needs_delete(&self) -> bool {
        self.edits
            .blocks()
            .iter()
            .filter_map(|b| b.patch.as_ref())
            .any(|p| p.operation == editblocks::patch::Operation::Delete || p.move_to.is_some())
    }

    /// Runs the core over the snapshot the driver read; returns
    /// `{ result, writes, deletes, stage }`.
    pub fn run(&self, files: JsValue) -> Result<JsValue, JsError> {
        let mut host = snapshot_host(&files)?;
        let mut result = self.edits.apply(&mut host, &self.options);
        if let Some(reply) = &self.reply {
            result.shell_suggestions = reply.shell_suggestions.clone();
            result.discarded = reply.discarded.clone();
        }
        // The result names a path the driver read by its position in the
        // list `pathsJson` gave: a packed snapshot came in that order (the
        // host knows each position); for another, the list is indexed.
        if host.is_lent_snapshot() {
            return host_changes_with(&host, result, None);
        }
        let paths = self.paths();
        let index: PathIndex = paths.iter().enumerate().map(|(i, p)| (&**p, i)).collect();
        host_changes_with(&host, result, Some(&index))
    }
}

/// Checks one block against a file's content without changing anything.
#[wasm_bindgen(js_name = validateEdit)]
pub fn validate_edit(block: JsValue, content: &str, options: JsValue) -> Result<JsValue, JsError> {
    let block: EditBlock = from_js(block, "edit block")?;
    let options: ApplyOptions = from_js_or_default(options, "options")?;
    to_js(&engine::validate_edit(&block, content, &options))
}

#[derive(Serialize)]
struct ContentResult {
    content: String,
    result: EditResult,
}

/// Applies one block to a file's content; `{ content, result }`. On failure
/// the content comes back unchanged.
#[wasm_bindgen(js_name = applyToContent)]
pub fn apply_to_content(
    block: JsValue,
    content: &str,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let block: EditBlock = from_js(block, "edit block")?;
    let options: ApplyOptions = from_js_or_default(options, "options")?;
    let (content, result) = engine::apply_to_content(&block, content, &options);
    to_js(&ContentResult { content, result })
}
