//! The OpenAI Responses API's strict mode for function tools: every object
//! lists all its properties as `required` and allows no others
//! (`additionalProperties: false`); what was optional takes `null` instead
//! (`"type": [t, "null"]`).
//!
//! The schema is rewritten as an ordered tree so the properties keep their
//! reading order (a `serde_json::Value` would sort them, and property order
//! steers the order in which models write arguments).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// A JSON value whose objects keep their members' order.
#[derive(Debug, Clone, PartialEq)]
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar(Value),
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Ordered>()? {
                    members.push((k, v));
                }
                Ok(Ordered::Object(members))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<Ordered>()? {
                    items.push(v);
                }
                Ok(Ordered::Array(items))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(v)))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::String(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::Null))
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Ordered::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Ordered::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Ordered::Scalar(v) => v.serialize(serializer),
        }
    }
}

impl Ordered {
    fn get(&self, key: &str) -> Option<&Ordered> {
        match self {
            Ordered::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` in place when present, else appends it.
    fn set(&mut self, key: &str, value: Ordered) {
        if let Ordered::Object(members) = self {
            match members.iter_mut().find(|(k, _)| k == key) {
                Some(slot) => slot.1 = value,
                None => members.push((key.to_string(), value)),
            }
        }
    }

    fn text(s: &str) -> Ordered {
        Ordered::Scalar(Value::String(s.to_string()))
    }

    /// The schema in strict form (see the module documentation).
    fn strict(self) -> Ordered {
        let Ordered::Object(members) = self else {
            return self;
        };
        let mut out = Ordered::Object(
            members
                .into_iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("properties", Ordered::Object(props)) => (
                        k,
                        Ordered::Object(
                            props
                                .into_iter()
                                .map(|(name, sub)| (name, sub.strict()))
                                .collect(),
                        ),
                    ),
                    ("items", v) => (k, v.strict()),
                    (_, v) => (k, v),
                })
                .collect(),
        );
        let is_object =
            matches!(out.get("type"), Some(Ordered::Scalar(Value::String(t))) if t == "object");
        let Some(Ordered::Object(props)) = out.get("properties").cloned() else {
            return out;
        };
        if !is_object {
            return out;
        }
        let required: Vec<String> = match out.get("required") {
            Some(Ordered::Array(items)) => items
                .iter()
                .filter_map(|i| match i {
                    Ordered::Scalar(Value::String(s)) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let props: Vec<(String, Ordered)> = props
            .into_iter()
            .map(|(name, mut sub)| {
                if !required.contains(&name) {
                    let nullable = match sub.get("type") {
                        Some(Ordered::Scalar(Value::String(t))) => {
                            Ordered::Array(vec![Ordered::text(t), Ordered::text("null")])
                        }
                        Some(Ordered::Array(types)) if !types.contains(&Ordered::text("null")) => {
                            let mut t = types.clone();
                            t.push(Ordered::text("null"));
                            Ordered::Array(t)
                        }
                        Some(other) => other.clone(),
                        None => Ordered::text("null"),
                    };
                    sub.set("type", nullable);
                    if let Some(Ordered::Array(values)) = sub.get("enum").cloned() {
                        let mut values = values;
                        values.push(Ordered::Scalar(Value::Null));
                        sub.set("enum", Ordered::Array(values));
                    }
                }
                (name, sub)
            })
            .collect();
        let all: Vec<Ordered> = props.iter().map(|(name, _)| Ordered::text(name)).collect();
        out.set("properties", Ordered::Object(props));
        out.set("required", Ordered::Array(all));
        out.set("additionalProperties", Ordered::Scalar(Value::Bool(false)));
        out
    }
}

/// A JSON array of tools with every function tool in strict mode, as
/// each function tool is rewritten one by one.
pub fn strict_tools(tools_json: &str) -> String {
    let Ok(tools) = serde_json::from_str::<Vec<Ordered>>(tools_json) else {
        return tools_json.to_string();
    };
    let strict: Vec<Ordered> = tools.into_iter().map(strict_tool).collect();
    serde_json::to_string_pretty(&strict).unwrap_or_else(|_| tools_json.to_string())
}

fn strict_tool(mut tool: Ordered) -> Ordered {
    let is_function =
        matches!(tool.get("type"), Some(Ordered::Scalar(Value::String(t))) if t == "function");
    match tool.get("parameters").cloned() {
        Some(parameters) if is_function => {
            tool.set("parameters", parameters.strict());
            tool.set("strict", Ordered::Scalar(Value::Bool(true)));
            tool
        }
        _ => tool,
    }
}

/// A Responses API function tool (JSON text, members in reading order) in
/// strict mode: `parameters` rewritten, `"strict": true` added. Text that
/// is no such tool comes back unchanged.
#[cfg(test)]
fn strict_function_tool(tool_json: &str) -> String {
    let Ok(tool) = serde_json::from_str::<Ordered>(tool_json) else {
        return tool_json.to_string();
    };
    let is_function =
        matches!(tool.get("type"), Some(Ordered::Scalar(Value::String(t))) if t == "function");
    if !is_function || tool.get("parameters").is_none() {
        return tool_json.to_string();
    }
    serde_json::to_string_pretty(&strict_tool(tool)).unwrap_or_else(|_| tool_json.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_members_become_nullable_and_required_in_order() {
        let tool = r#"{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {
            "b": {"type": "string"}, "a": {"type": "boolean"}, "c": {"type": "string", "enum": ["x"]},
            "list": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "integer"}, "y": {"type": "string"}}, "required": ["y"]}}
        }, "required": ["b"]}}"#;
        let out = strict_function_tool(tool);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["strict"], Value::Bool(true));
        assert_eq!(
            v["parameters"]["required"],
            serde_json::json!(["b", "a", "c", "list"])
        );
        assert_eq!(
            v["parameters"]["properties"]["a"]["type"],
            serde_json::json!(["boolean", "null"])
        );
        assert_eq!(
            v["parameters"]["properties"]["b"]["type"],
            serde_json::json!("string")
        );
        assert_eq!(
            v["parameters"]["properties"]["c"]["enum"],
            serde_json::json!(["x", null])
        );
        let items = &v["parameters"]["properties"]["list"]["items"];
        assert_eq!(items["required"], serde_json::json!(["z", "y"]));
        assert_eq!(items["additionalProperties"], Value::Bool(false));
        // Reading order kept: b before a.
        assert!(out.find("\"b\"").unwrap() < out.find("\"a\"").unwrap());
        assert_eq!(
            strict_function_tool("{\"type\": \"apply_patch\"}"),
            "{\"type\": \"apply_patch\"}"
        );
    }
}
