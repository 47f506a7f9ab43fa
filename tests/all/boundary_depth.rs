//! Input nested deeper than anything legitimate never makes the core recurse
//! deeply: JSON text (tool-call arguments, a hashline call given as text) is
//! parsed by serde_json, which stops at 128 levels with an error the result
//! names. Each case runs on a thread with a 256 KiB stack, a quarter of the
//! wasm module's, so a recursion that would overflow the module fails here.

use editblocks::hashline::{apply_hashline_edit, HashlineOptions};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use serde_json::Value;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no stack overflow, no panic")
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn tool_call_arguments_nested_5000_deep_are_refused_by_the_json_parser() {
    for name in ["write_file", "edit_file", "modify_file"] {
        let text = format!("{{\"path\":\"a.txt\",\"content\":{}}}", nested(5000));
        let result = on_small_stack(move || {
            let mut host = MemoryHost::with_files([("a.txt", "x\n")]);
            apply_tool_calls(
                &[ToolCall::new(name, Value::String(text))],
                &mut host,
                &ToolOptions::default(),
            )
        });
        assert!(!result.ok, "{name}");
        assert!(
            result
                .errors
                .iter()
                .any(|e| e.contains("recursion limit exceeded")),
            "{name}: {:?}",
            result.errors
        );
    }
}

#[test]
fn a_hashline_call_nested_5000_deep_is_refused_by_the_json_parser() {
    let call = Value::String(format!("{{\"path\":\"a.txt\",\"edits\":{}}}", nested(5000)));
    let result = on_small_stack(move || {
        let mut host = MemoryHost::with_files([("a.txt", "x\n")]);
        let result = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
        assert!(host.changes().is_empty(), "nothing written");
        result
    });
    assert!(!result.ok());
    let text = serde_json::to_string(&result).expect("result serialises");
    assert!(text.contains("recursion limit exceeded"), "{text}");
}

#[test]
fn json_nested_just_under_the_limit_is_read_and_dropped_on_a_small_stack() {
    // 120 levels parse; the value is then cloned, compared and dropped by the core.
    let text = format!(
        "{{\"path\":\"a.txt\",\"old_string\":\"x\",\"new_string\":\"y\",\"extra\":{}}}",
        nested(120)
    );
    let result = on_small_stack(move || {
        let mut host = MemoryHost::with_files([("a.txt", "x\n")]);
        apply_tool_calls(
            &[ToolCall::new("edit_file", Value::String(text))],
            &mut host,
            &ToolOptions::default(),
        )
    });
    assert!(
        result.errors.iter().all(|e| !e.contains("recursion limit")),
        "{:?}",
        result.errors
    );
}
