//! Binding tests for the tools feature: the core compiled for wasm32 (the
//! tolerant passes use `similar`, which must not reach for a clock here).
use editblocks::tools::{
    apply_tool_calls, retry_context, tool_schemas, DiffMode, RetryInput, SchemaApi, ToolCall,
    ToolOptions,
};
use editblocks::MemoryHost;
use serde_json::json;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn tolerant_edit_with_indent_repair_on_wasm32() {
    let mut host =
        MemoryHost::with_files([("a.py", "class A:\n    def f(self):\n        return 1\n")]);
    let calls = [ToolCall::new(
        "edit_file",
        json!({"edits": [{"path": "a.py", "old_string": "def f(self):\n    return 1", "new_string": "def f(self):\n    return 2"}]}),
    )];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(result.ok, "{:?}", result.errors);
    assert_eq!(
        result.results[0].edit.matched_by.as_deref(),
        Some("whitespace")
    );
    assert_eq!(
        host.text("a.py").unwrap(),
        "class A:\n    def f(self):\n        return 2\n"
    );
}

#[wasm_bindgen_test]
fn refusal_and_retry_context_on_wasm32() {
    let mut host = MemoryHost::with_files([("a.go", "}\n}\n")]);
    let calls = [ToolCall::new(
        "edit_file",
        json!({"path": "a.go", "changes": [{"start": ["}"], "content": []}]}),
    )];
    let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(!result.ok);
    assert_eq!(host.text("a.go").unwrap(), "}\n}\n");
    let block = retry_context(&RetryInput {
        ok: false,
        errors: result.errors.clone(),
        calls: result.calls.clone(),
    });
    assert!(
        block.contains("start anchor not unique (lines 1 and 2)"),
        "{block}"
    );
    assert_eq!(tool_schemas(DiffMode::Off, SchemaApi::Anthropic).len(), 1);
}
