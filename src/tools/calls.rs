//! Reading tool calls: the call envelope of each model API, arguments given
//! as an object or as a JSON string, and the shapes `edit_file` takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ops::within_project;
use super::ops::{AnchoredChange, Op, ProviderOp, Voice};
use super::schema::SchemaApi;
use crate::json::kind_of;

/// One function call the model made, as the host received it.
///
/// `arguments` is what the model sent; when it arrived as a JSON string that
/// parses, it is kept parsed, otherwise the string is kept as it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
    /// The call's id as the API gave it (`id`, `call_id`, `tool_use_id`);
    /// the answer to the call must carry it back.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
    /// The API whose shape the call came in (detected from the shape).
    #[serde(skip, default)]
    pub dialect: SchemaApi,
    /// Function call, free-form (custom) tool call, or built-in apply_patch call.
    #[serde(skip, default)]
    pub kind: CallKind,
}

/// What kind of call an item is, which decides the item that answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallKind {
    /// A function (JSON arguments) call: answered by a function/tool result.
    #[default]
    Function,
    /// A free-form (custom) tool call whose input is text.
    Custom,
    /// The Responses API's built-in `apply_patch` call.
    ApplyPatch,
    /// The Responses API's built-in `local_shell_call` (answered by a
    /// `local_shell_call_output`).
    LocalShell,
}

fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl ToolCall {
    pub fn new(name: &str, arguments: Value) -> ToolCall {
        ToolCall {
            name: name.to_string(),
            arguments,
            id: None,
            dialect: SchemaApi::Plain,
            kind: CallKind::Function,
        }
    }

    /// The call with its API id.
    pub fn with_id(mut self, id: &str) -> ToolCall {
        self.id = Some(id.to_string());
        self
    }

    /// Reads a call in any of the envelopes the main APIs and their SDKs
    /// use, detecting the API from the shape:
    ///
    /// * OpenAI Chat Completions: `{id, type: 'function', function: {name,
    ///   arguments}}` and `{id, type: 'custom', custom: {name, input}}`;
    /// * OpenAI Responses: `{type: 'function_call', call_id, name,
    ///   arguments}`, `{type: 'custom_tool_call', call_id, name, input}`,
    ///   `{type: 'apply_patch_call', call_id, operation}`,
    ///   `{type: 'local_shell_call', call_id, action}`;
    /// * Anthropic: `{type: 'tool_use', id, name, input}`;
    /// * Gemini: a part `{functionCall: {id?, name?, args?}}` or the
    ///   `FunctionCall` itself `{id?, name?, args?}`;
    /// * plain `{name, arguments, id?}`.
    ///
    /// Returns `None` for items that are not calls (a message, a reasoning
    /// item, a text block or part), so a whole `response.output`,
    /// `message.content` or list of parts can be passed as it is.
    pub fn from_value(value: &Value) -> Option<ToolCall> {
        let Value::Object(map) = value else {
            return Some(ToolCall::new("", value.clone()));
        };
        let kind_tag = map.get("type").and_then(Value::as_str);
        let str_of = |v: &Value, key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let make = |name: String,
                    arguments: Value,
                    id: Option<String>,
                    dialect: SchemaApi,
                    kind: CallKind| {
            Some(ToolCall {
                name,
                arguments,
                id,
                dialect,
                kind,
            })
        };
        let call_id = || text_of(map.get("call_id")).or_else(|| text_of(map.get("id")));
        match kind_tag {
            Some("apply_patch_call") => {
                return make(
                    "apply_patch".into(),
                    map.get("operation").cloned().unwrap_or(Value::Null),
                    call_id(),
                    SchemaApi::OpenaiResponses,
                    CallKind::ApplyPatch,
                )
            }
            // Its `action` (`{type: 'exec', command, working_directory?}`)
            // is read as the arguments of a `local_shell` call.
            Some("local_shell_call") => {
                return make(
                    "local_shell".into(),
                    map.get("action").cloned().unwrap_or(Value::Null),
                    call_id(),
                    SchemaApi::OpenaiResponses,
                    CallKind::LocalShell,
                )
            }
            Some("function_call") => {
                return make(
                    str_of(value, "name"),
                    map.get("arguments").cloned().unwrap_or(Value::Null),
                    call_id(),
                    SchemaApi::OpenaiResponses,
                    CallKind::Function,
                )
            }
            Some("custom_tool_call") => {
                return make(
                    str_of(value, "name"),
                    map.get("input").cloned().unwrap_or(Value::Null),
                    call_id(),
                    SchemaApi::OpenaiResponses,
                    CallKind::Custom,
                )
            }
            Some("tool_use") => {
                return make(
                    str_of(value, "name"),
                    map.get("input").cloned().unwrap_or(Value::Null),
                    text_of(map.get("id")),
                    SchemaApi::Anthropic,
                    CallKind::Function,
                )
            }
            // Chat Completions tool calls, read below by their `function` / `custom` member.
            Some("function") | Some("custom") | None => {}
            // Any other typed item is not a call for the client to run: a
            // message, reasoning, a text block, or a tool the provider runs
            // itself (`server_tool_use`, `web_search_call`, `mcp_call`, …).
            Some(_) => return None,
        }
        if let Some(custom) = map.get("custom").filter(|c| c.is_object()) {
            return make(
                str_of(custom, "name"),
                custom.get("input").cloned().unwrap_or(Value::Null),
                text_of(map.get("id")),
                SchemaApi::Openai,
                CallKind::Custom,
            );
        }
        if let Some(function) = map.get("function").filter(|f| f.is_object()) {
            return make(
                str_of(function, "name"),
                function.get("arguments").cloned().unwrap_or(Value::Null),
                text_of(map.get("id")),
                SchemaApi::Openai,
                CallKind::Function,
            );
        }
        if let Some(call) = map.get("functionCall").filter(|f| f.is_object()) {
            return make(
                str_of(call, "name"),
                call.get("args").cloned().unwrap_or(Value::Null),
                text_of(call.get("id")),
                SchemaApi::Gemini,
                CallKind::Function,
            );
        }
        let is_call = map.contains_key("name")
            || map.contains_key("arguments")
            || map.contains_key("input")
            || map.contains_key("args");
        if !is_call
            && (map.contains_key("text")
                || map.contains_key("thought")
                || map.contains_key("functionResponse"))
        {
            return None;
        }
        let (arguments, dialect) = if let Some(a) = map.get("arguments") {
            (a.clone(), SchemaApi::Plain)
        } else if let Some(a) = map.get("input") {
            (a.clone(), SchemaApi::Anthropic)
        } else if let Some(a) = map.get("args") {
            (a.clone(), SchemaApi::Gemini)
        } else {
            (Value::Null, SchemaApi::Plain)
        };
        make(
            str_of(value, "name"),
            arguments,
            call_id(),
            dialect,
            CallKind::Function,
        )
    }

    /// Reads a list of items: the calls in it, each with its index in the list.
    pub fn from_values(values: &[Value]) -> Vec<(usize, ToolCall)> {
        values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| ToolCall::from_value(v).map(|c| (i, c)))
            .collect()
    }

    /// The arguments as an object: parses a JSON string.
    pub fn parsed_arguments(&self) -> Result<serde_json::Map<String, Value>, String> {
        let value = match &self.arguments {
            Value::String(text) => serde_json::from_str::<Value>(text)
                .map_err(|e| format!("its arguments are not valid JSON ({e})"))?,
            other => other.clone(),
        };
        match value {
            Value::Object(map) => Ok(map),
            Value::Null => Err("it has no arguments".to_string()),
            other => Err(format!(
                "its arguments must be a JSON object, not {}",
                kind_of(&other)
            )),
        }
    }

    /// The call with string arguments parsed when they parse (for echoing
    /// back to the model).
    pub fn echo(&self) -> ToolCall {
        match &self.arguments {
            Value::String(text) => match serde_json::from_str::<Value>(text) {
                Ok(parsed) => ToolCall {
                    arguments: parsed,
                    ..self.clone()
                },
                Err(_) => self.clone(),
            },
            _ => self.clone(),
        }
    }
}

/// A unit of work for one file, in reply order.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// 0-based index of the call in the reply.
    pub call_index: usize,
    /// 0-based index inside the call's `edits` (batched edit_file); `None`
    /// for a call that is itself one change.
    pub edit_index: Option<usize>,
    pub tool: String,
    pub path: String,
    pub op: Result<Op, String>,
}

fn get_str(args: &serde_json::Map<String, Value>, key: &str) -> Result<String, String> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{key} must be a string, not {}", kind_of(other))),
        None => Err(format!("{key} is missing")),
    }
}

fn get_bool(args: &serde_json::Map<String, Value>, key: &str) -> Result<bool, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(other) => Err(format!(
            "{key} must be true or false, not {}",
            kind_of(other)
        )),
    }
}

/// Lines given as an array of strings, or as one string (split on `\n`).
fn get_lines(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let split = |s: &str| -> Vec<String> {
        crate::text::split_lines(s)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    match value {
        Value::Array(items) => {
            let mut lines = Vec::new();
            for item in items {
                match item {
                    Value::String(s) if s.contains('\n') => lines.extend(split(s)),
                    Value::String(s) => lines.push(s.clone()),
                    other => {
                        return Err(format!(
                            "{key} must be an array of strings, but holds {}",
                            kind_of(other)
                        ))
                    }
                }
            }
            Ok(lines)
        }
        Value::String(s) if s.is_empty() => Ok(Vec::new()),
        Value::String(s) => Ok(split(s)),
        other => Err(format!(
            "{key} must be an array of lines, not {}",
            kind_of(other)
        )),
    }
}

fn anchored_change(value: &Value) -> Result<AnchoredChange, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "each change must be an object with start, end and content, not {}",
            kind_of(value)
        ));
    };
    let start = get_lines(map.get("start").ok_or("start is missing")?, "start")?;
    if start.is_empty() || start.len() > 4 {
        return Err(format!(
            "start has {} lines; give 1-4 lines copied from the file",
            start.len()
        ));
    }
    let end = match map.get("end") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let lines = get_lines(v, "end")?;
            if lines.len() > 4 {
                return Err(format!(
                    "end has {} lines; give 1-4 lines copied from the file",
                    lines.len()
                ));
            }
            (!lines.is_empty()).then_some(lines)
        }
    };
    let content = match map.get("content") {
        None => {
            return Err(
                "content is missing; give the lines that replace the region ([] deletes it)".into(),
            )
        }
        Some(Value::Null) => Vec::new(),
        Some(v) => get_lines(v, "content")?,
    };
    Ok(AnchoredChange {
        start,
        end,
        content,
    })
}

fn replace_op(args: &serde_json::Map<String, Value>) -> Result<Op, String> {
    Ok(Op::Replace {
        old: get_str(args, "old_string")?,
        new: get_str(args, "new_string")?,
        replace_all: get_bool(args, "replace_all")?,
    })
}

fn get_opt_str(args: &serde_json::Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{key} must be a string, not {}", kind_of(other))),
    }
}

fn get_int(value: &Value, key: &str) -> Result<i64, String> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    }
    .ok_or_else(|| format!("{key} must be a whole number, not {}", kind_of(value)))
}

/// Anthropic's text editor (`text_editor_20250728` and `_20250124`).
fn text_editor_op(args: &serde_json::Map<String, Value>) -> Result<ProviderOp, String> {
    let command = get_str(args, "command").map_err(|_| {
        "command is missing; use one of view, create, str_replace, insert, undo_edit".to_string()
    })?;
    match command.as_str() {
        "view" => {
            let range = match args.get("view_range") {
                None | Some(Value::Null) => None,
                Some(Value::Array(items)) if items.len() == 2 => {
                    Some((get_int(&items[0], "view_range[0]")?, get_int(&items[1], "view_range[1]")?))
                }
                Some(_) => return Err("Invalid `view_range`. It should be a list of two integers, e.g. [10, 40] ([10, -1] reads to the end)".into()),
            };
            Ok(ProviderOp::View { range })
        }
        "create" => {
            let content = get_opt_str(args, "file_text")?.ok_or("Parameter `file_text` is required for command: create")?;
            Ok(ProviderOp::Create { content, voice: Voice::Anthropic })
        }
        "str_replace" => {
            let old = get_opt_str(args, "old_str")?.ok_or("Parameter `old_str` is required for command: str_replace")?;
            let new = get_opt_str(args, "new_str")?.unwrap_or_default();
            Ok(ProviderOp::Replace { old, new, expected: 1, voice: Voice::Anthropic })
        }
        "insert" => {
            let line = match args.get("insert_line") {
                None | Some(Value::Null) => return Err("Parameter `insert_line` is required for command: insert".into()),
                Some(v) => get_int(v, "insert_line")?,
            };
            // `insert_text` (text_editor_20250728) or `new_str` (older versions).
            let text = match get_opt_str(args, "insert_text")? {
                Some(t) => t,
                None => get_opt_str(args, "new_str")?.ok_or("Parameter `insert_text` is required for command: insert")?,
            };
            Ok(ProviderOp::Insert { line, text })
        }
        "undo_edit" => Ok(ProviderOp::Undo),
        other => Err(format!(
            "Unrecognized command {other}. The allowed commands for the str_replace_based_edit_tool are: view, create, str_replace, insert, undo_edit"
        )),
    }
}

/// Gemini CLI's `replace(file_path, old_string, new_string, expected_replacements?)`.
fn gemini_replace_op(args: &serde_json::Map<String, Value>) -> Result<ProviderOp, String> {
    let old = get_str(args, "old_string")?;
    let new = get_str(args, "new_string")?;
    let expected = match args.get("expected_replacements") {
        None | Some(Value::Null) => 1,
        Some(v) => match get_int(v, "expected_replacements")? {
            n if n >= 1 => n as usize,
            n => {
                return Err(format!(
                    "expected_replacements is {n}; it must be 1 or more"
                ))
            }
        },
    };
    Ok(ProviderOp::Replace {
        old,
        new,
        expected,
        voice: Voice::Gemini,
    })
}

/// The hashline `read(path, start_line?, end_line?)` tool.
fn hash_read_op(args: &serde_json::Map<String, Value>) -> Result<ProviderOp, String> {
    let line = |key: &str| -> Result<Option<usize>, String> {
        match args.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match get_int(v, key)? {
                n if n >= 1 => Ok(Some(n as usize)),
                n => Err(format!("{key} is {n}; lines are numbered from 1")),
            },
        }
    };
    Ok(ProviderOp::HashRead {
        start: line("start_line")?,
        end: line("end_line")?,
    })
}

/// An `apply_patch_call` operation `{type, path, diff?}`.
fn apply_patch_op(args: &serde_json::Map<String, Value>) -> (String, Result<ProviderOp, String>) {
    let path = args
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let diff = || get_str(args, "diff");
    let op = match args.get("type").and_then(Value::as_str) {
        Some("create_file") => diff().map(|diff| ProviderOp::PatchCreate { diff }),
        Some("update_file") => diff().map(|diff| ProviderOp::PatchUpdate { diff }),
        Some("delete_file") => Ok(ProviderOp::PatchDelete),
        Some(other) => Err(format!(
            "operation type {other:?} is not one of create_file, update_file, delete_file"
        )),
        None => Err(
            "the operation has no type; it must be create_file, update_file or delete_file".into(),
        ),
    };
    (path, op)
}

/// Turns the calls of a reply into per-file work, in order. Calls that
/// cannot be read become entries whose `op` is the reason. `project_dir`
/// is the root's absolute path, when known (a shell call's absolute
/// `workdir` is read against it).
pub fn plan(calls: &[ToolCall], project_dir: Option<&str>) -> Vec<Planned> {
    let mut out = Vec::new();
    for (call_index, call) in calls.iter().enumerate() {
        let tool = call.name.clone();
        let whole = |path: String, op: Result<Op, String>| Planned {
            call_index,
            edit_index: None,
            tool: tool.clone(),
            path,
            op,
        };
        let args = match call.parsed_arguments() {
            Ok(args) => args,
            Err(why) => {
                out.push(whole(String::new(), Err(why)));
                continue;
            }
        };
        let path = args
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if super::shell_call::is_shell_tool(&tool) {
            match super::shell_call::read_shell_call(&args, project_dir) {
                Ok(ops) => {
                    let numbered = ops.len() > 1;
                    for (i, (path, op)) in ops.into_iter().enumerate() {
                        out.push(Planned {
                            call_index,
                            edit_index: numbered.then_some(i),
                            tool: tool.clone(),
                            path,
                            op,
                        });
                    }
                }
                Err(why) => out.push(whole(String::new(), Err(why))),
            }
            continue;
        }
        match tool.as_str() {
            // Gemini CLI's write_file names the file `file_path`.
            "write_file" if !args.contains_key("path") && args.contains_key("file_path") => {
                let path = args
                    .get("file_path")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                out.push(whole(
                    path,
                    get_str(&args, "content")
                        .map(|content| Op::Provider(ProviderOp::WriteWhole { content })),
                ))
            }
            "write_file" => out.push(whole(
                path,
                get_str(&args, "content").map(|content| Op::Write { content }),
            )),
            "edit_file" | "modify_file" | "search_replace" => {
                if let Some(edits) = args.get("edits") {
                    let Value::Array(edits) = edits else {
                        out.push(whole(
                            path,
                            Err(format!("edits must be an array, not {}", kind_of(edits))),
                        ));
                        continue;
                    };
                    if edits.is_empty() {
                        out.push(whole(
                            path,
                            Err("edits is empty; list at least one edit".into()),
                        ));
                        continue;
                    }
                    for (i, edit) in edits.iter().enumerate() {
                        let (path, op) = match edit {
                            Value::Object(e) => {
                                let p = e
                                    .get("path")
                                    .and_then(Value::as_str)
                                    .map(str::to_string)
                                    .unwrap_or_else(|| path.clone());
                                (p, replace_op(e))
                            }
                            other => (
                                path.clone(),
                                Err(format!(
                                    "each edit must be an object, not {}",
                                    kind_of(other)
                                )),
                            ),
                        };
                        out.push(Planned {
                            call_index,
                            edit_index: Some(i),
                            tool: tool.clone(),
                            path,
                            op,
                        });
                    }
                } else if let Some(changes) = args.get("changes") {
                    let op = match changes {
                        Value::Array(list) if list.is_empty() => {
                            Err("changes is empty; list at least one change".into())
                        }
                        Value::Array(list) => Ok(Op::Modify {
                            changes: list.iter().map(anchored_change).collect(),
                        }),
                        other => Err(format!("changes must be an array, not {}", kind_of(other))),
                    };
                    out.push(whole(path, op));
                } else if args.contains_key("old_string") || args.contains_key("new_string") {
                    out.push(whole(path, replace_op(&args)));
                } else {
                    out.push(whole(
                        path,
                        Err("it has neither edits, changes nor old_string/new_string; see the tool's schema".into()),
                    ));
                }
            }
            "str_replace_based_edit_tool" | "str_replace_editor" => {
                out.push(whole(path, text_editor_op(&args).map(Op::Provider)))
            }
            "replace" | "write_file_gemini" => {
                let path = args
                    .get("file_path")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or(path);
                out.push(whole(path, gemini_replace_op(&args).map(Op::Provider)))
            }
            "read" => out.push(whole(path, hash_read_op(&args).map(Op::Provider))),
            "edit" => out.push(whole(
                path,
                Ok(Op::Provider(ProviderOp::HashEdit {
                    call: Value::Object(args.clone()),
                })),
            )),
            "apply_patch" => {
                let (path, op) = apply_patch_op(&args);
                out.push(whole(path, op.map(Op::Provider)))
            }
            "" => out.push(whole(path, Err("it has no tool name".into()))),
            other => out.push(whole(
                path,
                Err(format!(
                    "{other} is not an edit tool; use write_file or edit_file"
                )),
            )),
        }
    }
    if let Some(root) = project_dir {
        for item in &mut out {
            if let Some(path) = within_project(&item.path, root) {
                item.path = path;
            }
            if let Ok(Op::Provider(
                ProviderOp::PatchMoveOut { to: other, .. }
                | ProviderOp::PatchMoveIn { from: other },
            )) = &mut item.op
            {
                if let Some(path) = within_project(other, root) {
                    *other = path;
                }
            }
        }
    }
    out
}
