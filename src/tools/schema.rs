//! The tool definitions the model sees, per diff mode, in the shape each
//! model API takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which `edit_file` the model is offered (seed 002's `diff_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffMode {
    /// `edit_file(edits: [{path, old_string, new_string, replace_all?}])`: every edit in one call.
    #[default]
    SearchReplaceMulti,
    /// `edit_file(path, old_string, new_string, replace_all?)`: one edit per call.
    SearchReplace,
    /// `edit_file(path, changes: [{start, end?, content}])`: anchored regions.
    Anchored,
    /// `write_file` only.
    Off,
}

impl DiffMode {
    pub fn from_name(name: &str) -> Option<DiffMode> {
        match name {
            "search_replace_multi" | "search-replace-multi" => Some(DiffMode::SearchReplaceMulti),
            "search_replace" | "search-replace" => Some(DiffMode::SearchReplace),
            "anchored" => Some(DiffMode::Anchored),
            "off" => Some(DiffMode::Off),
            _ => None,
        }
    }
}

/// The envelope a model API wants around each function definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchemaApi {
    /// `{ name, description, parameters }` — what most agent frameworks take.
    #[default]
    Plain,
    /// Gemini `functionDeclarations`: `{ name, description, parameters }`
    /// with `parameters` in Gemini's OpenAPI subset, which rejects
    /// `additionalProperties` (the only keyword we emit that it lacks; it
    /// takes `type`, `description`, `properties`, `required`, `items`,
    /// `minItems` and `maxItems`).
    Gemini,
    /// OpenAI Chat Completions: `{ type: 'function', function: { name, description, parameters } }`.
    Openai,
    /// OpenAI Responses: `{ type: 'function', name, description, parameters }`.
    OpenaiResponses,
    /// Anthropic Messages: `{ name, description, input_schema }`.
    Anthropic,
}

impl SchemaApi {
    pub fn from_name(name: &str) -> Option<SchemaApi> {
        match name {
            "plain" => Some(SchemaApi::Plain),
            "gemini" => Some(SchemaApi::Gemini),
            "openai" | "openai-chat" => Some(SchemaApi::Openai),
            "openai-responses" => Some(SchemaApi::OpenaiResponses),
            "anthropic" => Some(SchemaApi::Anthropic),
            _ => None,
        }
    }
}

// The definitions, as JSON text in the order a model should read them
// (path first, old_string before new_string): property order steers the
// order in which models write arguments, and a JSON text keeps it where a
// `serde_json::Value` would sort the keys.

const WRITE_FILE: &str = r#"{
  "name": "write_file",
  "description": "Create a file, or replace everything in an existing one. `content` becomes the whole file, so write it out completely: nothing from the old version survives. Use it for new files and for rewrites that touch most of a file; for anything smaller use edit_file, which is cheaper and harder to get wrong. Do not use write_file and edit_file on the same file in one reply.",
  "parameters": {
    "type": "object",
    "properties": {
      "path": {
        "type": "string",
        "description": "File path relative to the project root, e.g. src/app.ts."
      },
      "content": {
        "type": "string",
        "description": "The complete text of the file."
      }
    },
    "required": [
      "path",
      "content"
    ],
    "additionalProperties": false
  }
}"#;

/// The properties of one search/replace edit, shared by the batched and the
/// single-call `edit_file` (a macro, so `concat!` can splice it into both).
macro_rules! search_replace_edit_properties {
    () => {
        r#"{
      "path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "old_string": {
        "type": "string",
        "description": "Text copied from the file, character for character, that this edit replaces. Include whole lines and enough neighbouring lines to match exactly one place in the file."
      },
      "new_string": {
        "type": "string",
        "description": "The text that takes the place of old_string, with the same indentation style. Empty deletes old_string. Must differ from old_string."
      },
      "replace_all": {
        "type": "boolean",
        "description": "Replace every occurrence of old_string instead of requiring a single one (for renames). Default false."
      }
    }"#
    };
}

const EDIT_FILE_MULTI: &str = concat!(
    r#"{
  "name": "edit_file",
  "description": "Change existing files by replacing exact pieces of text. Put every edit of your reply in the one `edits` list, across as many files as needed, rather than making several calls. Copy old_string from the current file: the lines as they are now, not as they will be after your change. It must match one place only; if the text occurs more than once, add lines around it until it is unique (or set replace_all to change every copy). Edits to the same file apply in order, each seeing the result of the ones before. If any edit fails, none of the reply's file changes are written, and you will be told exactly what to fix. To move code, use two edits: one that deletes it where it was and one that inserts it where it goes.",
  "parameters": {
    "type": "object",
    "properties": {
      "edits": {
        "type": "array",
        "description": "All edits, applied in order.",
        "items": {
          "type": "object",
          "properties": "#,
    search_replace_edit_properties!(),
    r#",
          "required": [
            "path",
            "old_string",
            "new_string"
          ],
          "additionalProperties": false
        },
        "minItems": 1
      }
    },
    "required": [
      "edits"
    ],
    "additionalProperties": false
  }
}"#
);

const EDIT_FILE_SINGLE: &str = concat!(
    r#"{
  "name": "edit_file",
  "description": "Change an existing file by replacing one exact piece of text. Call it once per edit; you may make several calls in one reply, and they apply in order. Copy old_string from the current file: the lines as they are now, not as they will be after your change. It must match one place only; if the text occurs more than once, add lines around it until it is unique (or set replace_all to change every copy). Edits to the same file apply in order, each seeing the result of the ones before. If any edit fails, none of the reply's file changes are written, and you will be told exactly what to fix.",
  "parameters": {
    "type": "object",
    "properties": "#,
    search_replace_edit_properties!(),
    r#",
    "required": [
      "path",
      "old_string",
      "new_string"
    ],
    "additionalProperties": false
  }
}"#
);

const EDIT_FILE_ANCHORED: &str = r#"{
  "name": "edit_file",
  "description": "Change an existing file by replacing regions of whole lines. Each change finds its region with anchors: `start` (1-4 lines copied from the file) marks the first lines of the region, and the optional `end` (1-4 lines found after start) marks its last lines; without end the region is just the start lines. `content` is exactly what the whole region becomes, anchors included: repeat an anchor line in content to keep it, change it to change it, leave it out to delete it. Pick anchors that occur once in the file, such as signatures, declarations, imports or distinctive comments; a lone `}` or `end` matches many lines and fails. Anchor on the file as it is now, never on text your change introduces. Changes must not overlap; merge changes less than about five lines apart into one. If any change fails, none of the reply's file changes are written.",
  "parameters": {
    "type": "object",
    "properties": {
      "path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "changes": {
        "type": "array",
        "description": "The regions to replace; located in the file before any of them applies.",
        "items": {
          "type": "object",
          "properties": {
            "start": {
              "type": "array",
              "description": "1-4 consecutive lines copied from the file where the region begins.",
              "items": {
                "type": "string"
              },
              "minItems": 1,
              "maxItems": 4
            },
            "end": {
              "type": "array",
              "description": "Optional: 1-4 consecutive lines after start where the region ends (inclusive).",
              "items": {
                "type": "string"
              },
              "minItems": 1,
              "maxItems": 4
            },
            "content": {
              "type": "array",
              "description": "The lines that replace the whole region, anchors included. [] deletes the region.",
              "items": {
                "type": "string"
              }
            }
          },
          "required": [
            "start",
            "content"
          ],
          "additionalProperties": false
        },
        "minItems": 1
      }
    },
    "required": [
      "path",
      "changes"
    ],
    "additionalProperties": false
  }
}"#;

/// One function definition, before wrapping.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

fn def_texts(mode: DiffMode) -> Vec<&'static str> {
    match mode {
        DiffMode::SearchReplaceMulti => vec![WRITE_FILE, EDIT_FILE_MULTI],
        DiffMode::SearchReplace => vec![WRITE_FILE, EDIT_FILE_SINGLE],
        DiffMode::Anchored => vec![WRITE_FILE, EDIT_FILE_ANCHORED],
        DiffMode::Off => vec![WRITE_FILE],
    }
}

/// Wraps one definition's JSON text (an object starting with `{` and
/// holding a top-level `"parameters":` key) for `api`.
fn wrap_text(text: &str, api: SchemaApi) -> String {
    let body = text.trim();
    match api {
        SchemaApi::Plain => body.to_string(),
        SchemaApi::Gemini => without_additional_properties(body),
        SchemaApi::Openai => format!("{{\"type\": \"function\", \"function\": {body}}}"),
        SchemaApi::OpenaiResponses => format!("{{\"type\": \"function\", {}", body.strip_prefix('{').unwrap_or(body).trim_start()),
        // Descriptions never contain the key text, so the one occurrence is the top-level key.
        SchemaApi::Anthropic => body.replacen("\"parameters\":", "\"input_schema\":", 1),
    }
}

/// The JSON text without its `"additionalProperties": false` members (each
/// follows another member, so its leading comma goes with it).
fn without_additional_properties(text: &str) -> String {
    const MEMBER: &str = "\"additionalProperties\": false";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MEMBER) {
        let before = rest[..at].trim_end();
        out.push_str(before.strip_suffix(',').unwrap_or(before));
        rest = &rest[at + MEMBER.len()..];
    }
    out.push_str(rest);
    out
}

/// The definitions for `mode`, wrapped for `api`, as a JSON array text in
/// reading order (what the JavaScript `toolSchemas` parses).
pub fn tool_schemas_json(mode: DiffMode, api: SchemaApi) -> String {
    let items: Vec<String> = def_texts(mode).into_iter().map(|t| wrap_text(t, api)).collect();
    format!("[{}]", items.join(",\n"))
}

/// The definitions for `mode`: `write_file`, plus `edit_file` unless the mode is `off`.
pub fn tool_defs(mode: DiffMode) -> Vec<ToolDef> {
    def_texts(mode)
        .into_iter()
        .filter_map(|text| {
            let mut value: Value = serde_json::from_str(text).ok()?;
            Some(ToolDef {
                name: value.get("name")?.as_str()?.to_string(),
                description: value.get("description")?.as_str()?.to_string(),
                parameters: value.get_mut("parameters")?.take(),
            })
        })
        .collect()
}

/// The definitions for `mode`, each wrapped for `api`, as values (keys
/// sorted; use [`tool_schemas_json`] to keep the reading order).
pub fn tool_schemas(mode: DiffMode, api: SchemaApi) -> Vec<Value> {
    serde_json::from_str(&tool_schemas_json(mode, api)).unwrap_or_default()
}
