//! What the readers of a model's JSON arguments (tool calls, hashline
//! calls) share.

use serde_json::Value;

/// How a JSON value is named in a refusal ("a number", "an array").
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
