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
    /// Anthropic's text editor, `text_editor_20250728` (`str_replace_based_edit_tool`):
    /// for `api: 'anthropic'` the server-defined tool entry, for other APIs a
    /// function with the same commands.
    TextEditor,
    /// The older `text_editor_20250124` (`str_replace_editor`, with `undo_edit`).
    TextEditor20250124,
    /// Gemini CLI's `replace` and `write_file`.
    GeminiCli,
    /// The hashline `read` and `edit` tools that `systemPrompt('hashline')` names.
    Hashline,
    /// The Responses API's built-in `apply_patch` tool (`api: 'openai-responses'` only).
    ApplyPatch,
}

impl DiffMode {
    /// The diff modes' names (`DIFF_MODES` in JavaScript), the default first.
    pub const DIFF_MODE_NAMES: [&'static str; 4] =
        ["search_replace_multi", "search_replace", "anchored", "off"];
    /// The names of the providers' own tool sets (`PROVIDER_TOOLS`).
    pub const PROVIDER_TOOL_NAMES: [&'static str; 5] = [
        "text_editor",
        "text_editor_20250124",
        "gemini_cli",
        "hashline",
        "apply_patch",
    ];

    pub fn from_name(name: &str) -> Option<DiffMode> {
        match name {
            "search_replace_multi" | "search-replace-multi" => Some(DiffMode::SearchReplaceMulti),
            "search_replace" | "search-replace" => Some(DiffMode::SearchReplace),
            "anchored" => Some(DiffMode::Anchored),
            "off" => Some(DiffMode::Off),
            "text_editor" | "text_editor_20250728" | "str_replace_based_edit_tool" => {
                Some(DiffMode::TextEditor)
            }
            "text_editor_20250124" | "str_replace_editor" => Some(DiffMode::TextEditor20250124),
            "gemini_cli" | "gemini-cli" => Some(DiffMode::GeminiCli),
            "hashline" => Some(DiffMode::Hashline),
            "apply_patch" | "apply-patch" => Some(DiffMode::ApplyPatch),
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
    /// Gemini `functionDeclarations`: `{ name, description,
    /// parametersJsonSchema }`, the JSON Schema without
    /// `additionalProperties`. (`parameters` would have to be the SDK's
    /// `Schema`, whose `type` is an enum, so no plain object fits its type.)
    Gemini,
    /// OpenAI Chat Completions: `{ type: 'function', function: { name, description, parameters } }`.
    Openai,
    /// OpenAI Responses: `{ type: 'function', name, description, parameters }`.
    OpenaiResponses,
    /// Anthropic Messages: `{ name, description, input_schema }`.
    Anthropic,
}

impl SchemaApi {
    /// The names the JavaScript boundary lists, in the order refusals list
    /// them ([`SchemaApi::from_name`] also takes `openai-chat` for `openai`).
    pub const NAMES: [&'static str; 5] =
        ["plain", "openai", "openai-responses", "anthropic", "gemini"];

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

/// Anthropic's text editor as a function, for APIs that do not define it
/// themselves (the commands and arguments of `text_editor_20250728`).
const TEXT_EDITOR_FUNCTION: &str = r#"{
  "name": "str_replace_based_edit_tool",
  "description": "View, create and edit files. `view` shows a file with line numbers (or a folder's entries); `create` makes a new file; `str_replace` replaces text that must occur exactly once, copied from the file character for character without the line numbers; `insert` adds text after line `insert_line` (0 = at the top). Paths are relative to the project root.",
  "parameters": {
    "type": "object",
    "properties": {
      "command": {
        "type": "string",
        "enum": [
          "view",
          "create",
          "str_replace",
          "insert"
        ],
        "description": "The command to run."
      },
      "path": {
        "type": "string",
        "description": "File or folder path relative to the project root, e.g. src/app.py."
      },
      "file_text": {
        "type": "string",
        "description": "create: the whole content of the new file."
      },
      "old_str": {
        "type": "string",
        "description": "str_replace: the exact text to replace; it must occur exactly once in the file."
      },
      "new_str": {
        "type": "string",
        "description": "str_replace: the text that replaces old_str (empty deletes it)."
      },
      "insert_line": {
        "type": "integer",
        "description": "insert: the line after which insert_text goes; 0 inserts at the top."
      },
      "insert_text": {
        "type": "string",
        "description": "insert: the text to insert."
      },
      "view_range": {
        "type": "array",
        "items": {
          "type": "integer"
        },
        "description": "view: [first, last] lines to show, 1-based; last -1 means to the end."
      }
    },
    "required": [
      "command",
      "path"
    ],
    "additionalProperties": false
  }
}"#;

const GEMINI_REPLACE: &str = r#"{
  "name": "replace",
  "description": "Replace text in a file. old_string must be the file's exact text (whitespace, indentation and line breaks included) and, unless expected_replacements says otherwise, occur exactly once: include a few lines around the change so it is unique. An empty old_string creates a new file with new_string as its content.",
  "parameters": {
    "type": "object",
    "properties": {
      "file_path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "old_string": {
        "type": "string",
        "description": "The exact text to replace, copied from the file."
      },
      "new_string": {
        "type": "string",
        "description": "The text that replaces old_string."
      },
      "expected_replacements": {
        "type": "integer",
        "description": "How many occurrences to replace; every one must be found. Default 1."
      }
    },
    "required": [
      "file_path",
      "old_string",
      "new_string"
    ],
    "additionalProperties": false
  }
}"#;

const GEMINI_WRITE_FILE: &str = r#"{
  "name": "write_file",
  "description": "Write a whole file: create it, or replace all of its content.",
  "parameters": {
    "type": "object",
    "properties": {
      "file_path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "content": {
        "type": "string",
        "description": "The complete content of the file."
      }
    },
    "required": [
      "file_path",
      "content"
    ],
    "additionalProperties": false
  }
}"#;

const HASHLINE_READ: &str = r#"{
  "name": "read",
  "description": "Read a file as numbered lines, each `LINE#ID|content`: the anchors the edit tool takes. Read only the part you need with start_line and end_line.",
  "parameters": {
    "type": "object",
    "properties": {
      "path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "start_line": {
        "type": "integer",
        "description": "First line to show, 1-based. Default 1."
      },
      "end_line": {
        "type": "integer",
        "description": "Last line to show. Default: the end of the file."
      }
    },
    "required": [
      "path"
    ],
    "additionalProperties": false
  }
}"#;

const HASHLINE_EDIT: &str = r#"{
  "name": "edit",
  "description": "Change one file by the LINE#ID anchors the read tool showed. Every operation refers to the file as you read it; if a line changed since, the call is refused and nothing is written.",
  "parameters": {
    "type": "object",
    "properties": {
      "path": {
        "type": "string",
        "description": "File path relative to the project root."
      },
      "edits": {
        "type": "array",
        "description": "The operations: {target, new_content} or {first, last, new_content} replace lines (new_content null deletes them); {after or before, inserted_lines} inserts lines.",
        "items": {
          "type": "object",
          "properties": {
            "target": {
              "type": "string",
              "description": "LINE#ID of the one line to replace."
            },
            "first": {
              "type": "string",
              "description": "LINE#ID of the first line of a range to replace."
            },
            "last": {
              "type": "string",
              "description": "LINE#ID of the last line of that range."
            },
            "new_content": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "The lines that replace target or first..last; [] or null deletes them."
            },
            "after": {
              "type": "string",
              "description": "LINE#ID of the line after which inserted_lines go."
            },
            "before": {
              "type": "string",
              "description": "LINE#ID of the line before which inserted_lines go."
            },
            "inserted_lines": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "The lines to insert."
            }
          }
        }
      },
      "delete": {
        "type": "boolean",
        "description": "Delete the file (with edits: [])."
      }
    },
    "required": [
      "path",
      "edits"
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
        DiffMode::TextEditor | DiffMode::TextEditor20250124 => vec![TEXT_EDITOR_FUNCTION],
        DiffMode::GeminiCli => vec![GEMINI_REPLACE, GEMINI_WRITE_FILE],
        DiffMode::Hashline => vec![HASHLINE_READ, HASHLINE_EDIT],
        DiffMode::ApplyPatch => vec![],
    }
}

/// The definitions for `mode` wrapped for `api`, or why that pair does not
/// exist. Anthropic defines its text editor on the server, so for
/// `api: 'anthropic'` it is the versioned entry with no schema; the
/// Responses API's `apply_patch` is built in and exists for that API only.
/// The Responses API's function tools are in strict mode (see
/// `super::strict`): what that API expects, and what it would otherwise
/// turn the schema into itself.
pub fn tool_schemas_for(mode: DiffMode, api: SchemaApi) -> Result<String, String> {
    let text = provider_or_wrapped(mode, api)?;
    Ok(if api == SchemaApi::OpenaiResponses {
        super::strict::strict_tools(&text)
    } else {
        text
    })
}

fn provider_or_wrapped(mode: DiffMode, api: SchemaApi) -> Result<String, String> {
    match (mode, api) {
        (DiffMode::TextEditor, SchemaApi::Anthropic) => {
            Ok(r#"[{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}]"#.to_string())
        }
        (DiffMode::TextEditor20250124, SchemaApi::Anthropic) => Ok(r#"[{"type": "text_editor_20250124", "name": "str_replace_editor"}]"#.to_string()),
        (DiffMode::TextEditor20250124, _) => Ok(wrapped_json(DiffMode::TextEditor, api).replacen(
            "\"name\": \"str_replace_based_edit_tool\"",
            "\"name\": \"str_replace_editor\"",
            1,
        )),
        (DiffMode::ApplyPatch, SchemaApi::OpenaiResponses) => Ok(r#"[{"type": "apply_patch"}]"#.to_string()),
        (DiffMode::ApplyPatch, _) => Err(
            "apply_patch is a built-in tool of the OpenAI Responses API; use { api: 'openai-responses' }, or offer the edit_file tools to other APIs".into(),
        ),
        _ => Ok(wrapped_json(mode, api)),
    }
}

/// Wraps one definition's JSON text (an object starting with `{` and
/// holding a top-level `"parameters":` key) for `api`.
fn wrap_text(text: &str, api: SchemaApi) -> String {
    let body = text.trim();
    match api {
        SchemaApi::Plain => body.to_string(),
        // `parametersJsonSchema` takes JSON Schema as it is; `parameters` wants
        // the SDK's own `Schema` type (its `type` an enum, `'OBJECT'`).
        SchemaApi::Gemini => without_additional_properties(body).replacen(
            "\"parameters\":",
            "\"parametersJsonSchema\":",
            1,
        ),
        SchemaApi::Openai => format!("{{\"type\": \"function\", \"function\": {body}}}"),
        SchemaApi::OpenaiResponses => format!(
            "{{\"type\": \"function\", {}",
            body.strip_prefix('{').unwrap_or(body).trim_start()
        ),
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

fn wrapped_json(mode: DiffMode, api: SchemaApi) -> String {
    let items: Vec<String> = def_texts(mode)
        .into_iter()
        .map(|t| wrap_text(t, api))
        .collect();
    format!("[{}]", items.join(",\n"))
}

/// The definitions for `mode`, wrapped for `api`, as a JSON array text in
/// reading order (what the JavaScript `toolSchemas` parses); `[]` for a
/// pair that does not exist (see [`tool_schemas_for`]).
pub fn tool_schemas_json(mode: DiffMode, api: SchemaApi) -> String {
    tool_schemas_for(mode, api).unwrap_or_else(|_| "[]".to_string())
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

/// The definitions for `mode`, each wrapped for `api` as
/// [`tool_schemas_for`] does, as values (keys sorted; the JSON text
/// keeps the reading order). Empty for a pair that does not exist.
pub fn tool_schemas(mode: DiffMode, api: SchemaApi) -> Vec<Value> {
    serde_json::from_str(&tool_schemas_json(mode, api)).unwrap_or_default()
}
