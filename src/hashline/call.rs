//! Reading an edit call (`{ path, edits, delete?, rename? }`) into checked
//! operations. Every refusal names the edit, the field and the expected form.

use super::id::{is_id_text, ALPHABET};
use serde_json::{Map, Value};

/// A `LINE#ID` reference as the model sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// 1-based line number.
    pub line: usize,
    /// The ID, lower-cased.
    pub id: String,
    /// Where it was written, e.g. `edits[2].after`, for messages.
    pub field: String,
}

impl Anchor {
    pub fn text(&self) -> String {
        format!("{}#{}", self.line, self.id)
    }
}

/// One operation of an edit call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HashlineOp {
    /// `target` (then `first == last`) or `first`/`last`; `None` deletes.
    Replace {
        first: Anchor,
        last: Anchor,
        new_content: Option<Vec<String>>,
    },
    /// `after`, `before` or both (then they must be adjacent).
    Insert {
        after: Option<Anchor>,
        before: Option<Anchor>,
        lines: Vec<String>,
    },
    /// `old_text` / `new_text` / `all`, only when the caller allows it.
    ReplaceText {
        old_text: String,
        new_text: String,
        all: bool,
    },
}

impl HashlineOp {
    pub fn anchors(&self) -> Vec<&Anchor> {
        match self {
            HashlineOp::Replace { first, last, .. } if first.field == last.field => vec![first],
            HashlineOp::Replace { first, last, .. } => vec![first, last],
            HashlineOp::Insert { after, before, .. } => after.iter().chain(before.iter()).collect(),
            HashlineOp::ReplaceText { .. } => Vec::new(),
        }
    }
}

/// A whole edit call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashlineCall {
    pub path: String,
    pub edits: Vec<HashlineOp>,
    pub delete: bool,
    pub rename: Option<String>,
}

/// Why a call could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    pub reason: String,
    /// 0-based index of the edit at fault.
    pub operation: Option<usize>,
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.operation {
            Some(i) => write!(f, "edit {}: {}", i + 1, self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for CallError {}

fn err<T>(operation: Option<usize>, reason: String) -> Result<T, CallError> {
    Err(CallError { reason, operation })
}

const OPERATION_FORMS: &str = "{ target, new_content }, { first, last, new_content }, { before and/or after, inserted_lines } or { old_text, new_text, all? }";

/// Field names accepted for each role (the seed's snake_case, and camelCase).
const KNOWN: &[(&str, &str)] = &[
    ("target", "target"),
    ("first", "first"),
    ("last", "last"),
    ("before", "before"),
    ("after", "after"),
    ("new_content", "new_content"),
    ("newContent", "new_content"),
    ("inserted_lines", "inserted_lines"),
    ("insertedLines", "inserted_lines"),
    ("old_text", "old_text"),
    ("oldText", "old_text"),
    ("new_text", "new_text"),
    ("newText", "new_text"),
    ("all", "all"),
];

/// Reads a call from JSON (an object, or a string holding one).
pub fn parse_call(value: &Value, width: usize) -> Result<HashlineCall, CallError> {
    let parsed;
    let value = match value {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text)
                .map_err(|e| CallError { reason: format!("The edit call is not valid JSON ({e}). Send {{ \"path\": string, \"edits\": [operation, ...] }}."), operation: None })?;
            &parsed
        }
        other => other,
    };
    let Some(object) = value.as_object() else {
        return err(None, "The edit call must be an object: { \"path\": string, \"edits\": [operation, ...], \"delete\"?: true, \"rename\"?: string }.".into());
    };
    for key in object.keys() {
        if !matches!(key.as_str(), "path" | "edits" | "delete" | "rename") {
            return err(None, format!("The edit call has an unknown field {key:?}; the fields are path, edits, delete and rename."));
        }
    }
    let path = match object.get("path") {
        Some(Value::String(p)) if !p.trim().is_empty() => p.clone(),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            return err(
                None,
                "The edit call has no path; add \"path\": \"src/file.ts\".".into(),
            )
        }
        Some(other) => {
            return err(
                None,
                format!(
                    "The edit call's path must be a string, not {}.",
                    kind_of(other)
                ),
            )
        }
    };
    let delete = match object.get("delete") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(other) => {
            return err(
                None,
                format!("\"delete\" must be true or absent, not {}.", kind_of(other)),
            )
        }
    };
    let rename = match object.get("rename") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) if !p.trim().is_empty() => Some(p.clone()),
        Some(other) => {
            return err(
                None,
                format!(
                    "\"rename\" must be the new path as a non-empty string, not {}.",
                    kind_of(other)
                ),
            )
        }
    };
    let edits = match object.get("edits") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            let mut ops = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                ops.push(parse_operation(item, index, width)?);
            }
            ops
        }
        Some(other) => {
            return err(
                None,
                format!(
                    "\"edits\" must be an array of operations, not {}.",
                    kind_of(other)
                ),
            )
        }
    };
    Ok(HashlineCall {
        path,
        edits,
        delete,
        rename,
    })
}

use crate::json::kind_of;

fn parse_operation(item: &Value, index: usize, width: usize) -> Result<HashlineOp, CallError> {
    let at = Some(index);
    let Some(object) = item.as_object() else {
        return err(
            at,
            format!(
                "edits[{index}] must be an object, one of {OPERATION_FORMS}; got {}.",
                kind_of(item)
            ),
        );
    };
    let mut fields: Map<String, Value> = Map::new();
    for (key, value) in object {
        let Some((_, role)) = KNOWN.iter().find(|(name, _)| name == key) else {
            return err(at, format!("edits[{index}] has an unknown field {key:?}; an operation is one of {OPERATION_FORMS}."));
        };
        if fields.insert((*role).to_string(), value.clone()).is_some() {
            return err(
                at,
                format!(
                    "edits[{index}] gives {role} twice (in snake_case and camelCase); keep one."
                ),
            );
        }
    }
    let has = |name: &str| fields.contains_key(name);
    let line_op = has("target") || has("first") || has("last");
    let insert_op = has("before") || has("after");
    let text_op = has("old_text") || has("new_text") || has("all");
    let kinds = [line_op, insert_op, text_op].iter().filter(|&&k| k).count();
    if kinds == 0 {
        return err(
            at,
            format!("edits[{index}] is not an operation; use one of {OPERATION_FORMS}."),
        );
    }
    if kinds > 1 || (has("target") && (has("first") || has("last"))) {
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        return err(at, format!("edits[{index}] mixes fields of different operations ({}); each operation is exactly one of {OPERATION_FORMS}.", names.join(", ")));
    }
    let field = |name: &str| format!("edits[{index}].{name}");
    if line_op {
        if has("inserted_lines") {
            return err(at, format!("edits[{index}] uses inserted_lines with a line anchor; replacing lines takes new_content, inserting takes before/after with inserted_lines."));
        }
        let Some(new_content) = fields.get("new_content") else {
            return err(at, format!("edits[{index}] has no new_content: give the new lines as an array of strings, [\"\"] for a blank line, or null to delete."));
        };
        let new_content = match new_content {
            Value::Null => None,
            other => {
                let lines = parse_lines(other, &field("new_content"), at)?;
                check_no_view_prefix(&lines, &field("new_content"), width, at)?;
                Some(lines)
            }
        };
        let (first, last) = if let Some(target) = fields.get("target") {
            let anchor = parse_anchor(target, &field("target"), width, at)?;
            (anchor.clone(), anchor)
        } else {
            let (Some(first), Some(last)) = (fields.get("first"), fields.get("last")) else {
                let missing = if has("first") { "last" } else { "first" };
                return err(at, format!("edits[{index}] has no {missing}: a range needs both first and last (for one line use target)."));
            };
            (
                parse_anchor(first, &field("first"), width, at)?,
                parse_anchor(last, &field("last"), width, at)?,
            )
        };
        if first.line > last.line {
            return err(at, format!("edits[{index}]: first ({}) comes after last ({}); first is the top line of the range.", first.text(), last.text()));
        }
        return Ok(HashlineOp::Replace {
            first,
            last,
            new_content,
        });
    }
    if insert_op {
        if has("new_content") {
            return err(at, format!("edits[{index}] uses new_content with before/after; an insert takes inserted_lines."));
        }
        let after = fields
            .get("after")
            .map(|v| parse_anchor(v, &field("after"), width, at))
            .transpose()?;
        let before = fields
            .get("before")
            .map(|v| parse_anchor(v, &field("before"), width, at))
            .transpose()?;
        let lines = match fields.get("inserted_lines") {
            None | Some(Value::Null) => return err(at, format!("edits[{index}] has no inserted_lines: give the lines to insert as a non-empty array of strings.")),
            Some(v) => parse_lines(v, &field("inserted_lines"), at)?,
        };
        check_no_view_prefix(&lines, &field("inserted_lines"), width, at)?;
        if lines.is_empty() {
            return err(at, format!("edits[{index}].inserted_lines is empty; an insert needs at least one line ([\"\"] inserts a blank line)."));
        }
        if let (Some(a), Some(b)) = (&after, &before) {
            if a.line + 1 != b.line {
                return err(at, format!(
                    "edits[{index}]: after {} and before {} are not adjacent lines, so the gap between them is not one place; use anchors on neighbouring lines, or only one of them.",
                    a.text(),
                    b.text()
                ));
            }
        }
        return Ok(HashlineOp::Insert {
            after,
            before,
            lines,
        });
    }
    if has("new_content") || has("inserted_lines") {
        return err(at, format!("edits[{index}] mixes old_text/new_text with line content fields; a content replace is {{ old_text, new_text, all? }}."));
    }
    let old_text = match fields.get("old_text") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::String(_)) => {
            return err(
                at,
                format!("edits[{index}].old_text is empty; give the exact text to replace."),
            )
        }
        _ => {
            return err(
                at,
                format!("edits[{index}] needs old_text as a string (the exact text to replace)."),
            )
        }
    };
    let new_text = match fields.get("new_text") {
        Some(Value::String(s)) => s.clone(),
        _ => {
            return err(
                at,
                format!("edits[{index}] needs new_text as a string (\"\" removes old_text)."),
            )
        }
    };
    let all = match fields.get("all") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(other) => {
            return err(
                at,
                format!(
                    "edits[{index}].all must be true or false, not {}.",
                    kind_of(other)
                ),
            )
        }
    };
    Ok(HashlineOp::ReplaceText {
        old_text: crate::text::to_lf(&old_text).into_owned(),
        new_text: crate::text::to_lf(&new_text).into_owned(),
        all,
    })
}

/// Refuses content lines that still carry a read-view prefix (`12#abc|`).
fn check_no_view_prefix(
    lines: &[String],
    field: &str,
    width: usize,
    at: Option<usize>,
) -> Result<(), CallError> {
    for (i, line) in lines.iter().enumerate() {
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        let rest = line.get(digits..).unwrap_or("");
        let Some(after_hash) = rest.strip_prefix('#') else {
            continue;
        };
        let id = after_hash.get(..width).unwrap_or("");
        if digits > 0
            && is_id_text(id)
            && after_hash.get(width..).is_some_and(|r| r.starts_with('|'))
        {
            let prefix = line.get(..digits + 1 + width + 1).unwrap_or(line);
            return err(at, format!("{field}[{i}] starts with the read-view prefix {prefix:?}; content lines hold only the file's text, so drop the prefix."));
        }
    }
    Ok(())
}

/// An array of line strings; a string inside holding `\n` is several lines,
/// and a bare string is read as its lines. A string's one final newline
/// ends its last line rather than starting another (as in `modify_file`):
/// `"a\n"` is the line `a`, and `"\n"` one blank line. A bare `""` is no
/// lines (the one line model's rule, as in `modify_file`); an array item
/// `""` is one blank line.
fn parse_lines(value: &Value, field: &str, at: Option<usize>) -> Result<Vec<String>, CallError> {
    let split = |s: &str| -> Vec<String> {
        if s.is_empty() {
            return vec![String::new()];
        }
        crate::text::split_lines(s)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    match value {
        Value::String(s) => Ok(crate::text::split_lines(s)
            .into_iter()
            .map(str::to_string)
            .collect()),
        Value::Array(items) => {
            let mut lines = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => lines.extend(split(s)),
                    other => {
                        return err(
                            at,
                            format!(
                                "{field}[{i}] must be a string (one line of content), not {}.",
                                kind_of(other)
                            ),
                        )
                    }
                }
            }
            Ok(lines)
        }
        other => err(
            at,
            format!(
                "{field} must be an array of strings (one per line), not {}.",
                kind_of(other)
            ),
        ),
    }
}

/// Reads `LINE#ID`. Refuses content copied after `|`, other shapes, line 0,
/// and IDs of the wrong width or alphabet.
pub fn parse_anchor(
    value: &Value,
    field: &str,
    width: usize,
    at: Option<usize>,
) -> Result<Anchor, CallError> {
    let example = format!(
        "12#{}",
        std::str::from_utf8(&ALPHABET[10..10 + width.min(12)]).unwrap_or("k3f")
    );
    let Value::String(raw) = value else {
        return err(at, format!("{field} must be a string of the form LINE#ID (such as \"{example}\"), copied from the read output; got {}.", kind_of(value)));
    };
    let text = raw.trim();
    if let Some((anchor, _content)) = text.split_once('|') {
        return err(
            at,
            format!("{field} {raw:?} has the line's content attached after '|'; send only the anchor {:?}.", anchor.trim()),
        );
    }
    let malformed = || {
        err(at, format!("{field} {raw:?} is not a line reference; the expected form is LINE#ID, such as \"{example}\", copied from the read output."))
    };
    let Some((number, id)) = text.split_once('#') else {
        return malformed();
    };
    let number = number.trim();
    let id = id.trim().to_ascii_lowercase();
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || id.is_empty() {
        return malformed();
    }
    let Ok(line) = number.parse::<usize>() else {
        return malformed();
    };
    if line == 0 {
        return err(
            at,
            format!(
                "{field} {raw:?} names line 0; lines are numbered from 1 as in the read output."
            ),
        );
    }
    if !is_id_text(&id) || id.chars().count() != width {
        return err(
            at,
            format!(
                "{field} {raw:?} does not carry a valid ID: IDs here are {width} characters from \"{}\". Copy LINE#ID exactly from the read output, such as \"{example}\".",
                std::str::from_utf8(ALPHABET).unwrap_or_default()
            ),
        );
    }
    Ok(Anchor {
        line,
        id,
        field: field.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn anchors() {
        let a = parse_anchor(&json!(" 12#K3F "), "t", 3, None).unwrap();
        assert_eq!((a.line, a.id.as_str()), (12, "k3f"));
        for bad in [
            "12", "#abc", "x#abc", "12#", "12#ab", "12#abcd", "12#ab!", "-1#abc", "1.5#abc",
        ] {
            let e = parse_anchor(&json!(bad), "t", 3, None).unwrap_err();
            assert!(
                e.reason.contains("LINE#ID") || e.reason.contains("valid ID"),
                "{bad}: {}",
                e.reason
            );
        }
        let e = parse_anchor(&json!("0#abc"), "t", 3, None).unwrap_err();
        assert!(e.reason.contains("line 0"));
        let e = parse_anchor(&json!("12#abc|  let x = 1;"), "t", 3, None).unwrap_err();
        assert!(
            e.reason.contains("send only the anchor \"12#abc\""),
            "{}",
            e.reason
        );
        let e = parse_anchor(&json!(12), "t", 3, None).unwrap_err();
        assert!(e.reason.contains("got a number"));
    }

    #[test]
    fn operations() {
        let call = parse_call(
            &json!({"path": "a", "edits": [
                {"target": "1#abc", "new_content": null},
                {"first": "1#abc", "last": "2#abc", "newContent": "x\ny"},
                {"after": "1#abc", "before": "2#abc", "inserted_lines": ["z"]},
                {"old_text": "a", "new_text": "b", "all": true}
            ]}),
            3,
        )
        .unwrap();
        assert_eq!(call.edits.len(), 4);
        assert!(
            matches!(&call.edits[1], HashlineOp::Replace { new_content: Some(l), .. } if l == &["x", "y"])
        );
        for (bad, needle) in [
            (json!({"target": "1#abc"}), "no new_content"),
            (json!({"first": "1#abc", "new_content": []}), "no last"),
            (
                json!({"first": "3#abc", "last": "2#abc", "new_content": []}),
                "comes after",
            ),
            (json!({"after": "1#abc", "inserted_lines": []}), "is empty"),
            (
                json!({"after": "1#abc", "before": "3#abc", "inserted_lines": ["x"]}),
                "not adjacent",
            ),
            (
                json!({"target": "1#abc", "after": "1#abc", "new_content": []}),
                "mixes",
            ),
            (json!({"line": 3}), "unknown field"),
            (json!({}), "not an operation"),
            (json!({"old_text": "", "new_text": "x"}), "empty"),
            (
                json!({"target": "1#abc", "new_content": [1]}),
                "must be a string",
            ),
            (
                json!({"after": "1#abc", "inserted_lines": ["ok", "7#x2z|  let y = 2;"]}),
                "prefix \"7#x2z|\"",
            ),
        ] {
            let e = parse_call(&json!({"path": "a", "edits": [bad]}), 3).unwrap_err();
            assert!(e.reason.contains(needle), "{needle}: {}", e.reason);
            assert_eq!(e.operation, Some(0));
        }
    }

    #[test]
    fn call_shape() {
        assert!(parse_call(&json!("{\"path\":\"a\",\"edits\":[]}"), 3).is_ok());
        assert!(parse_call(&json!({"edits": []}), 3)
            .unwrap_err()
            .reason
            .contains("no path"));
        assert!(parse_call(&json!({"path": "a", "edits": {}}), 3)
            .unwrap_err()
            .reason
            .contains("array"));
        assert!(parse_call(&json!("not json"), 3)
            .unwrap_err()
            .reason
            .contains("not valid JSON"));
    }
}
