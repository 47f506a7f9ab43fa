//! The status column of a file in a chat (`''`, `M`, `A`, `~`, `~M`) and the
//! `@retry_context` block sent back to the model after a failed reply.

use serde::{Deserialize, Serialize};

use super::calls::ToolCall;

/// What the user's copy of a file is, as far as the caller knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Local<'a> {
    /// Not told: taken to be the same as the context snapshot.
    Unknown,
    /// The file does not exist locally.
    Missing,
    Text(&'a str),
}

/// The status of one file, following seed 002's table literally:
///
/// * `""` — unchanged: no change from the model, local copy as in context;
/// * `"M"` — the model's output differs from the context snapshot;
/// * `"A"` — the model added a file that was not in context;
/// * `"~"` — the local copy differs from the context snapshot, no output;
/// * `"~M"` — the local copy differs from the context snapshot AND the
///   model has output (any output, even one identical to the context): a
///   conflict to resolve before applying.
///
/// With the local copy as in context, output identical to the context is
/// no change (`""`). A file that is neither in context nor in the output
/// has no status.
pub fn file_status(context: Option<&str>, local: Local, output: Option<&str>) -> &'static str {
    if context.is_none() && output.is_none() {
        return "";
    }
    let output_changes = output.is_some() && output != context;
    let local_moved = match local {
        Local::Unknown => false,
        Local::Missing => context.is_some(),
        Local::Text(text) => context != Some(text),
    };
    match (output_changes, local_moved) {
        (_, true) if output.is_some() => "~M",
        (true, false) if context.is_none() => "A",
        (true, false) => "M",
        (_, true) => "~",
        (false, false) => "",
    }
}

/// What `retryContext` needs from a result (a whole `ToolApplyResult` fits).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RetryInput {
    pub ok: bool,
    pub errors: Vec<String>,
    pub calls: Vec<ToolCall>,
}

/// The `@retry_context` … `@end retry_context` block for a failed reply:
/// the errors, the calls as the model sent them (JSON), and what to do.
/// Empty when there is nothing to retry.
pub fn retry_context(input: &RetryInput) -> String {
    let calls = serde_json::to_string_pretty(&input.calls).unwrap_or_else(|_| "[]".into());
    retry_context_with(&input.errors, &calls)
}

/// As [`retry_context`], with the calls already written as JSON (the JS
/// layer does that to keep the model's own key order).
pub fn retry_context_with(errors: &[String], calls_json: &str) -> String {
    if errors.is_empty() {
        return String::new();
    }
    let calls = calls_json.trim_end();
    let mut out = String::from("@retry_context\n");
    out.push_str(
        "The file changes in your previous reply could not be applied, so none of them were written: \
         not even the calls that worked.\n\nErrors:\n",
    );
    for e in errors {
        out.push_str("- ");
        out.push_str(e);
        out.push('\n');
    }
    out.push_str("\nYour tool calls, as sent:\n");
    out.push_str(calls);
    out.push_str(
        "\n\nSend all the file changes again, with the errors above fixed: copy old_string and anchors from the \
         files as they are now (not as your change will make them), add lines until each one matches a single \
         place, and keep the calls that worked. If a file is hard to edit piece by piece, rewrite it with \
         write_file. Also follow any new instructions in the user's message.\n",
    );
    out.push_str("@end retry_context\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_table() {
        assert_eq!(file_status(Some("a"), Local::Text("a"), None), "");
        assert_eq!(file_status(Some("a"), Local::Unknown, None), "");
        assert_eq!(file_status(Some("a"), Local::Text("a"), Some("b")), "M");
        assert_eq!(file_status(Some("a"), Local::Text("a"), Some("a")), "");
        assert_eq!(file_status(None, Local::Missing, Some("b")), "A");
        assert_eq!(file_status(None, Local::Unknown, Some("b")), "A");
        assert_eq!(file_status(Some("a"), Local::Text("x"), None), "~");
        assert_eq!(file_status(Some("a"), Local::Missing, None), "~");
        assert_eq!(file_status(Some("a"), Local::Text("x"), Some("b")), "~M");
        assert_eq!(file_status(None, Local::Text("x"), Some("b")), "~M");
        assert_eq!(file_status(None, Local::Text("x"), None), "");
    }
}
