//! # editblocks
//!
//! Parse, validate, apply and render the file edits a language model writes.
//!
//! The crate is organised as a pipeline, one public module per stage:
//!
//! * [`parser`] (with [`patch`]'s grammars) — an incremental parser for every
//!   format: feed it chunks as they stream in.
//! * [`locate`] — where an edit's old lines are in the file: named,
//!   unique-only passes and one explainer for a miss.
//! * [`apply`] — the one transaction: read a snapshot through a
//!   [`FileHost`], commit every change or roll back, stage, and report each
//!   file's contents before and after ([`FileChange`]). The edit styles
//!   translate their input into edits for it: [`engine`] (text blocks),
//!   [`tools`] (tool calls), [`hashline`] (`LINE#ID` edits), [`patch`].
//! * [`preview`] — a streaming block located while it is still written.
//! * [`diff`] and [`render`] — character-level diffs and escaped HTML.
//! * [`text`] — the one line model every stage splits text with.
//!
//! The core knows nothing of JavaScript: the binding is a crate of its own
//! (`bindings/wasm`), which converts types at the boundary, so everything
//! here is tested with plain `cargo test`.

#![forbid(unsafe_code)]

// The pipeline, one public module per stage: parse → locate → apply →
// diff → render. Each stage's module chooses what it exports.
pub mod apply;
pub mod diff;
pub mod engine;
pub mod hashline;
pub mod locate;
pub mod parser;
pub mod patch;
pub mod preview;
pub mod render;
/// The one line model: lines, their endings, the BOM and the final newline.
pub mod text;
pub mod tools;

// Shared by every stage; their types are exported at the crate root.
mod block;
mod edits;
mod host;
mod json;
mod path;
mod prompts;
mod result;
mod shell;

// The unit tests of `patch` share `tests/all/fixture_support.rs`, which
// names the crate `editblocks::…` as the integration tests do.
#[cfg(test)]
extern crate self as editblocks;

pub use apply::FileChange;
pub use block::{EditBlock, Format};
pub use edits::{apply_edits, apply_reply, required_paths, ConfinedEdits};
pub use host::{FileHost, HostError, HostOp, MemoryHost, Undo};
pub use path::{
    check_allow_folder, confine, is_vcs_folder_name, normalize_path, same_file_refusals, PathError,
    MAX_PATH_COMPONENTS,
};
pub use prompts::system_prompt;
pub use result::{
    ApplyResult, Diagnostics, DiscardedBlock, EditResult, ErrorKind, NearLine, Status,
};
pub use shell::detect_shell_suggestions;
