//! Reading tool calls: the call envelope of each model API, arguments given
//! as an object or as a JSON string, and the shapes `edit_file` takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One function call the model made, as the host received it.
///
/// `arguments` is what the model sent; when it arrived as a JSON string that
/// parses, it is kept parsed, otherwise the string is kept as it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
}

impl ToolCall {
    pub fn new(name: &str, arguments: Value) -> ToolCall {
        ToolCall { name: name.to_string(), arguments }
    }

    /// Reads a call in any of the envelopes the main APIs use:
    /// `{name, arguments}` (plain, OpenAI Responses), `{function: {name,
    /// arguments}}` (OpenAI Chat Completions), `{name, input}` (Anthropic
    /// `tool_use`), `{name, args}` (Gemini `functionCall`).
    pub fn from_value(value: &Value) -> ToolCall {
        let inner = value.get("function").filter(|f| f.is_object()).unwrap_or(value);
        let name = inner.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let arguments = ["arguments", "input", "args"]
            .iter()
            .find_map(|key| inner.get(*key))
            .cloned()
            .unwrap_or(Value::Null);
        ToolCall { name, arguments }
    }

    /// The arguments as an object: parses a JSON string.
    pub fn parsed_arguments(&self) -> Result<serde_json::Map<String, Value>, String> {
        let value = match &self.arguments {
            Value::String(text) => serde_json::from_str::<Value>(text).map_err(|e| format!("its arguments are not valid JSON ({e})"))?,
            other => other.clone(),
        };
        match value {
            Value::Object(map) => Ok(map),
            Value::Null => Err("it has no arguments".to_string()),
            other => Err(format!("its arguments must be a JSON object, not {}", kind_of(&other))),
        }
    }

    /// The call with string arguments parsed when they parse (for echoing
    /// back to the model).
    pub fn echo(&self) -> ToolCall {
        match &self.arguments {
            Value::String(text) => match serde_json::from_str::<Value>(text) {
                Ok(parsed) => ToolCall { name: self.name.clone(), arguments: parsed },
                Err(_) => self.clone(),
            },
            _ => self.clone(),
        }
    }
}

pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// One anchored change (`modify_file`, or `edit_file` in anchored mode).
#[derive(Debug, Clone, PartialEq)]
pub struct AnchoredChange {
    pub start: Vec<String>,
    pub end: Option<Vec<String>>,
    pub content: Vec<String>,
}

/// What one call (or one entry of a batched call) asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Write { content: String },
    Replace { old: String, new: String, replace_all: bool },
    Modify { changes: Vec<Result<AnchoredChange, String>> },
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
        Some(other) => Err(format!("{key} must be true or false, not {}", kind_of(other))),
    }
}

/// Lines given as an array of strings, or as one string (split on `\n`).
fn get_lines(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let split = |s: &str| -> Vec<String> {
        let s = s.strip_suffix('\n').unwrap_or(s);
        s.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).to_string()).collect()
    };
    match value {
        Value::Array(items) => {
            let mut lines = Vec::new();
            for item in items {
                match item {
                    Value::String(s) if s.contains('\n') => lines.extend(split(s)),
                    Value::String(s) => lines.push(s.clone()),
                    other => return Err(format!("{key} must be an array of strings, but holds {}", kind_of(other))),
                }
            }
            Ok(lines)
        }
        Value::String(s) if s.is_empty() => Ok(Vec::new()),
        Value::String(s) => Ok(split(s)),
        other => Err(format!("{key} must be an array of lines, not {}", kind_of(other))),
    }
}

fn anchored_change(value: &Value) -> Result<AnchoredChange, String> {
    let Value::Object(map) = value else {
        return Err(format!("each change must be an object with start, end and content, not {}", kind_of(value)));
    };
    let start = get_lines(map.get("start").ok_or("start is missing")?, "start")?;
    if start.is_empty() || start.len() > 4 {
        return Err(format!("start has {} lines; give 1-4 lines copied from the file", start.len()));
    }
    let end = match map.get("end") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let lines = get_lines(v, "end")?;
            if lines.len() > 4 {
                return Err(format!("end has {} lines; give 1-4 lines copied from the file", lines.len()));
            }
            (!lines.is_empty()).then_some(lines)
        }
    };
    let content = match map.get("content") {
        None => return Err("content is missing; give the lines that replace the region ([] deletes it)".into()),
        Some(Value::Null) => Vec::new(),
        Some(v) => get_lines(v, "content")?,
    };
    Ok(AnchoredChange { start, end, content })
}

fn replace_op(args: &serde_json::Map<String, Value>) -> Result<Op, String> {
    Ok(Op::Replace { old: get_str(args, "old_string")?, new: get_str(args, "new_string")?, replace_all: get_bool(args, "replace_all")? })
}

/// Turns the calls of a reply into per-file work, in order. Calls that
/// cannot be read become entries whose `op` is the reason.
pub fn plan(calls: &[ToolCall]) -> Vec<Planned> {
    let mut out = Vec::new();
    for (call_index, call) in calls.iter().enumerate() {
        let tool = call.name.clone();
        let whole = |path: String, op: Result<Op, String>| Planned { call_index, edit_index: None, tool: tool.clone(), path, op };
        let args = match call.parsed_arguments() {
            Ok(args) => args,
            Err(why) => {
                out.push(whole(String::new(), Err(why)));
                continue;
            }
        };
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
        match tool.as_str() {
            "write_file" => out.push(whole(path, get_str(&args, "content").map(|content| Op::Write { content }))),
            "edit_file" | "modify_file" | "search_replace" => {
                if let Some(edits) = args.get("edits") {
                    let Value::Array(edits) = edits else {
                        out.push(whole(path, Err(format!("edits must be an array, not {}", kind_of(edits)))));
                        continue;
                    };
                    if edits.is_empty() {
                        out.push(whole(path, Err("edits is empty; list at least one edit".into())));
                        continue;
                    }
                    for (i, edit) in edits.iter().enumerate() {
                        let (path, op) = match edit {
                            Value::Object(e) => {
                                let p = e.get("path").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| path.clone());
                                (p, replace_op(e))
                            }
                            other => (path.clone(), Err(format!("each edit must be an object, not {}", kind_of(other)))),
                        };
                        out.push(Planned { call_index, edit_index: Some(i), tool: tool.clone(), path, op });
                    }
                } else if let Some(changes) = args.get("changes") {
                    let op = match changes {
                        Value::Array(list) if list.is_empty() => Err("changes is empty; list at least one change".into()),
                        Value::Array(list) => Ok(Op::Modify { changes: list.iter().map(anchored_change).collect() }),
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
            "" => out.push(whole(path, Err("it has no tool name".into()))),
            other => out.push(whole(path, Err(format!("{other} is not an edit tool; use write_file or edit_file")))),
        }
    }
    out
}
