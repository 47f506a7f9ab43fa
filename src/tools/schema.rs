//! The tool definitions the model sees, per diff mode, in the shape each
//! model API takes.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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
    /// `{ name, description, parameters }` — also what Gemini's
    /// `functionDeclarations` and most agent frameworks take.
    #[default]
    Plain,
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
            "plain" | "gemini" => Some(SchemaApi::Plain),
            "openai" | "openai-chat" => Some(SchemaApi::Openai),
            "openai-responses" => Some(SchemaApi::OpenaiResponses),
            "anthropic" => Some(SchemaApi::Anthropic),
            _ => None,
        }
    }
}

/// One function definition, before wrapping.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    pub name: &'static str,
    pub description: String,
    pub parameters: Value,
}

impl ToolDef {
    pub fn wrap(&self, api: SchemaApi) -> Value {
        match api {
            SchemaApi::Plain => json!({ "name": self.name, "description": self.description, "parameters": self.parameters }),
            SchemaApi::Openai => json!({
                "type": "function",
                "function": { "name": self.name, "description": self.description, "parameters": self.parameters }
            }),
            SchemaApi::OpenaiResponses => json!({
                "type": "function", "name": self.name, "description": self.description, "parameters": self.parameters
            }),
            SchemaApi::Anthropic => json!({ "name": self.name, "description": self.description, "input_schema": self.parameters }),
        }
    }
}

fn write_file() -> ToolDef {
    ToolDef {
        name: "write_file",
        description: "Create a file, or replace everything in an existing one. `content` becomes the whole file, so \
            write it out completely: nothing from the old version survives. Use it for new files and for rewrites \
            that touch most of a file; for anything smaller use edit_file, which is cheaper and harder to get wrong. \
            Do not use write_file and edit_file on the same file in one reply."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the project root, e.g. src/app.ts." },
                "content": { "type": "string", "description": "The complete text of the file." }
            },
            "required": ["path", "content"],
            "additionalProperties": false
        }),
    }
}

fn replace_properties(with_path: bool) -> Value {
    let mut props = serde_json::Map::new();
    if with_path {
        props.insert("path".into(), json!({ "type": "string", "description": "File path relative to the project root." }));
    }
    props.insert(
        "old_string".into(),
        json!({
            "type": "string",
            "description": "Text copied from the file, character for character, that this edit replaces. Include whole \
                lines and enough neighbouring lines to match exactly one place in the file."
        }),
    );
    props.insert(
        "new_string".into(),
        json!({
            "type": "string",
            "description": "The text that takes the place of old_string, with the same indentation style. Empty deletes old_string. Must differ from old_string."
        }),
    );
    props.insert(
        "replace_all".into(),
        json!({
            "type": "boolean",
            "description": "Replace every occurrence of old_string instead of requiring a single one (for renames). Default false."
        }),
    );
    Value::Object(props)
}

const REPLACE_RULES: &str = "Copy old_string from the current file: the lines as they are now, not as they \
    will be after your change. It must match one place only; if the text occurs more than once, add lines \
    around it until it is unique (or set replace_all to change every copy). Edits to the same file apply in \
    order, each seeing the result of the ones before. If any edit fails, none of the reply's file changes are \
    written, and you will be told exactly what to fix.";

fn edit_file_multi() -> ToolDef {
    ToolDef {
        name: "edit_file",
        description: format!(
            "Change existing files by replacing exact pieces of text. Put every edit of your reply in the one `edits` \
             list, across as many files as needed, rather than making several calls. {REPLACE_RULES} To move code, \
             use two edits: one that deletes it where it was and one that inserts it where it goes."
        ),
        parameters: json!({
            "type": "object",
            "properties": {
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "description": "All edits, applied in order.",
                    "items": {
                        "type": "object",
                        "properties": replace_properties(true),
                        "required": ["path", "old_string", "new_string"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["edits"],
            "additionalProperties": false
        }),
    }
}

fn edit_file_single() -> ToolDef {
    ToolDef {
        name: "edit_file",
        description: format!(
            "Change an existing file by replacing one exact piece of text. Call it once per edit; you may make \
             several calls in one reply, and they apply in order. {REPLACE_RULES}"
        ),
        parameters: json!({
            "type": "object",
            "properties": replace_properties(true),
            "required": ["path", "old_string", "new_string"],
            "additionalProperties": false
        }),
    }
}

fn edit_file_anchored() -> ToolDef {
    let lines = |what: &str, min: u64| {
        json!({ "type": "array", "items": { "type": "string" }, "minItems": min, "maxItems": 4, "description": what })
    };
    ToolDef {
        name: "edit_file",
        description: "Change an existing file by replacing regions of whole lines. Each change finds its region with \
            anchors: `start` (1-4 lines copied from the file) marks the first lines of the region, and the optional \
            `end` (1-4 lines found after start) marks its last lines; without end the region is just the start lines. \
            `content` is exactly what the whole region becomes, anchors included: repeat an anchor line in content to \
            keep it, change it to change it, leave it out to delete it. Pick anchors that occur once in the file, \
            such as signatures, declarations, imports or distinctive comments; a lone `}` or `end` matches many lines \
            and fails. Anchor on the file as it is now, never on text your change introduces. Changes must not \
            overlap; merge changes less than about five lines apart into one. If any change fails, none of the \
            reply's file changes are written."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the project root." },
                "changes": {
                    "type": "array",
                    "minItems": 1,
                    "description": "The regions to replace; located in the file before any of them applies.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "start": lines("1-4 consecutive lines copied from the file where the region begins.", 1),
                            "end": lines("Optional: 1-4 consecutive lines after start where the region ends (inclusive).", 1),
                            "content": {
                                "type": "array",
                                "items": { "type": "string" },
                                "description": "The lines that replace the whole region, anchors included. [] deletes the region."
                            }
                        },
                        "required": ["start", "content"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["path", "changes"],
            "additionalProperties": false
        }),
    }
}

/// The definitions for `mode`: `write_file`, plus `edit_file` unless the mode is `off`.
pub fn tool_defs(mode: DiffMode) -> Vec<ToolDef> {
    let mut defs = vec![write_file()];
    match mode {
        DiffMode::SearchReplaceMulti => defs.push(edit_file_multi()),
        DiffMode::SearchReplace => defs.push(edit_file_single()),
        DiffMode::Anchored => defs.push(edit_file_anchored()),
        DiffMode::Off => {}
    }
    defs
}

/// The definitions for `mode`, each wrapped for `api`.
pub fn tool_schemas(mode: DiffMode, api: SchemaApi) -> Vec<Value> {
    tool_defs(mode).iter().map(|d| d.wrap(api)).collect()
}
