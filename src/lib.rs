//! # editblocks
//!
//! Parse, validate, apply and render the file edits a language model writes.
//!
//! The crate is organised as a pipeline, one module per stage:
//!
//! * [`parser`] — an incremental parser for the text formats (`edit-repl`,
//!   `anchored`, `search-replace`): feed it chunks as they stream in.
//! * [`engine`] — locate every edit in the real file, refuse anything
//!   ambiguous, explain every failure, and apply through a [`host::FileHost`].
//! * [`tools`] — the tool-call edits (`write_file`, `edit_file`, `modify_file`).
//! * [`hashline`] — `LINE#ID` anchored edits against a read snapshot.
//! * [`diff`] and [`render`] — character-level diffs and escaped HTML.
//!
//! The core knows nothing of JavaScript: the `wasm` module (compiled only for
//! `wasm32`) converts types at the boundary, so everything here is tested
//! with plain `cargo test`.

pub mod apply;
pub mod block;
pub mod diff;
pub mod engine;
pub mod hashline;
pub mod host;
pub mod locate;
pub mod parser;
pub mod patch;
pub mod path;
pub mod preview;
pub mod prompts;
pub mod render;
pub mod result;
pub mod shell;
pub mod text;
pub mod tools;

#[cfg(target_arch = "wasm32")]
mod wasm;

// `src/wasm/parser_records.rs` names the crate `editblocks::…`, so that the
// core's native tests can include it as it is.
extern crate self as editblocks;

pub use block::{EditBlock, Format};
pub use result::{ApplyResult, Diagnostics, EditResult, ErrorKind, Status};
