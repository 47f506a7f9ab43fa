//! Tool-call edits (seed 002): the model changes files by calling
//! `write_file` and `edit_file` (or `modify_file`) instead of writing text
//! blocks.
//!
//! * [`tool_schemas`] — the tool definitions for a [`DiffMode`], wrapped for
//!   a model API ([`SchemaApi`]).
//! * [`apply_tool_calls`] — a reply's calls, applied in order in memory and
//!   written together, or not at all. `edit_file` search/replace uses the
//!   five tolerant passes of [`crate::locate`]; anchored changes use
//!   three-pass line anchors (`anchored`).
//! * [`retry_context`] — the `@retry_context` block for a failed reply.
//! * [`file_status`] — the `''` / `M` / `A` / `~` / `~M` status column.
//!
//! ```
//! use editblocks::MemoryHost;
//! use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
//! use serde_json::json;
//!
//! let mut host = MemoryHost::with_files([("app.py", "def hello():\n    print('hi')\n")]);
//! let calls = [ToolCall::new("edit_file", json!({ "edits": [
//!     { "path": "app.py", "old_string": "print('hi')", "new_string": "print('hello')" }
//! ]}))];
//! let result = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
//! assert!(result.ok);
//! assert_eq!(host.text("app.py").unwrap(), "def hello():\n    print('hello')\n");
//! ```

pub(crate) mod anchored;
mod apply;
mod batch;
pub(crate) use batch::{place_for_preview, PreviewPlaced, MIN_EDITS as MIN_RUN_EDITS};
pub(crate) mod calls;
mod excerpt;
pub(crate) mod ops;
mod options;
pub(crate) mod patch_call;
mod provider;
mod schema;
pub(crate) mod shell_call;
mod state;
mod status;
pub(crate) mod strict;

pub use apply::{
    apply_tool_calls, tool_call_paths, tool_undo_counts, tool_view_paths, CallResult,
    ToolApplyResult, ToolChangeResult,
};
pub use calls::{CallKind, ToolCall};
pub use excerpt::numbered;
pub use ops::AnchoredChange;
pub use options::{
    fingerprint, FileHistory, HistoryUpdate, Matching, ToolOptions, TrailingNewline, HISTORY_DEPTH,
};
pub use schema::{
    tool_defs, tool_schemas, tool_schemas_for, tool_schemas_json, DiffMode, SchemaApi, ToolDef,
};
pub use status::{file_status, retry_context, retry_context_with, Local, RetryInput};

const COMMON_RULES: &str = "\
You change files by calling tools; never paste a changed file into your message instead.

- write_file(path, content) creates a file or replaces all of it. content is the complete file.
  Use it for new files and for rewrites of most of a file.
- edit_file changes part of an existing file. Use it for everything else.
- Do not use write_file and edit_file on the same file in one reply.
- Everything you copy from a file to locate a change (old_string, start, end) must be copied from
  the file as it stands, character for character, including indentation. Never locate a change by
  text that only your change introduces (for example a name you are renaming something to).
- All file changes of a reply are applied together or not at all: if one fails, nothing is
  written, and the next message holds an @retry_context block listing what failed and your calls.
  Then fix those errors and send all the changes again, and also follow whatever else the user
  asks in that message.
";

const SEARCH_REPLACE_RULES: &str = "\
When edit_file takes old_string and new_string:
- old_string is text copied from the file; new_string is what replaces it. They must differ.
- old_string must occur exactly once. If it could occur more than once (a closing brace, a repeated
  line, one of several similar functions), add neighbouring lines until it is unique. To change
  every occurrence on purpose, set replace_all to true.
- Keep old_string short: the lines you change plus a line or two of context, whole lines.
- When edit_file takes an edits list, put every edit of the reply, for every file, in that one
  call. Edits apply in order, each seeing the result of the earlier ones: an edit of lines that an
  earlier edit already changed must quote them as changed. Better, make that one edit.
- To move code, delete it with one edit and insert it with another.
";

const ANCHORED_RULES: &str = "\
When edit_file (or modify_file) takes changes with start, end and content:
- start and end are anchors, 1-4 lines each, copied from the file, that locate the region to
  replace: the region runs from the first start line to the last end line. Without end, the
  region is just the start lines; use that for small edits.
- content is exactly what the region becomes. Anchors are part of the region: repeat them in
  content to keep them, change them to change them, leave them out to delete them.
- Choose anchors that occur once in the file: function or method signatures, class declarations,
  imports, distinctive comments. A lone `}`, `end` or blank line matches many places and fails.
- For a large replacement use start and end rather than copying the old code.
- Changes to one file must not overlap. Merge changes that are within about five lines of each
  other into one change.
";

const TEXT_EDITOR_RULES: &str = "\
You change files with the text editor tool. Paths are relative to the project root.
- view a file before you edit it; copy old_str from the view exactly, without the line numbers and the tab after them.
- old_str must occur exactly once in the file: add neighbouring lines until it does.
- insert puts text after line insert_line (0 = at the top); create makes a new file and never overwrites one.
- When an edit is refused, the answer shows the file's current lines or the candidates: correct the call from them and send it again.
";

const GEMINI_CLI_RULES: &str = "\
You change files with replace and write_file. Paths are relative to the project root.
- replace: old_string is the file's exact text (whitespace and indentation included), unique unless expected_replacements says how many; an empty old_string creates a new file.
- write_file writes a whole file.
- When an edit fails, the answer shows the file's current lines or every occurrence: correct the call from them and send it again.
";

const APPLY_PATCH_RULES: &str = "\
You change files with the apply_patch tool: create_file with the whole new file, update_file with V4A sections (@@ context line, then ' ' context, '-' removed and '+' added lines, copied exactly from the file), delete_file to remove one.
When an operation fails, its output says what did not match and shows the file's current lines: send a corrected operation.
";

/// Guidance for the model using the edit tools, whichever shape of
/// `edit_file` it is given.
pub fn system_prompt() -> String {
    format!("{COMMON_RULES}\n{SEARCH_REPLACE_RULES}\n{ANCHORED_RULES}")
}

/// Guidance for one diff mode only (shorter: no rules for tools the model
/// does not have).
pub fn system_prompt_for(mode: DiffMode) -> String {
    match mode {
        DiffMode::SearchReplaceMulti | DiffMode::SearchReplace => format!("{COMMON_RULES}\n{SEARCH_REPLACE_RULES}"),
        DiffMode::Anchored => format!("{COMMON_RULES}\n{ANCHORED_RULES}"),
        DiffMode::TextEditor | DiffMode::TextEditor20250124 => TEXT_EDITOR_RULES.to_string(),
        DiffMode::GeminiCli => GEMINI_CLI_RULES.to_string(),
        DiffMode::Hashline => crate::hashline::system_prompt(),
        DiffMode::ApplyPatch => APPLY_PATCH_RULES.to_string(),
        DiffMode::Off => "\
You change files by calling write_file(path, content); never paste a changed file into your message instead.
content is the complete new text of the file: everything you leave out is deleted. Write each file once per reply.
"
        .to_string(),
    }
}
