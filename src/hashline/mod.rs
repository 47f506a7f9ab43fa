//! `LINE#ID` anchored edits (seed 003).
//!
//! The model reads a file as numbered, hashed lines ([`format_hashlines`]):
//!
//! ```text
//! 1#k2m|fn main() {
//! 2#7xq|    println!("hi");
//! 3#d0v|}
//! ```
//!
//! and refers to lines by `LINE#ID` instead of copying old text. An ID is a
//! short hash of the line's content ([`line_id`]), so an anchor whose line
//! changed since the read is caught, and the whole call is refused before
//! anything is written ([`apply_hashline_edit`]). All operations of a call
//! refer to the same snapshot: their line numbers are the ones the model
//! read, whatever the other operations of the call do.

mod apply;
mod call;
mod id;
mod prompt;
mod view;

pub use apply::{apply_call, apply_hashline_edit, edit_body, hashline_paths, Edited, HashlineOptions, HashlineResult, StaleLine, CONTEXT};
pub use call::{parse_anchor, parse_call, Anchor, CallError, HashlineCall, Operation};
pub use id::{fmix64, fnv1a64, is_id_text, line_hash, line_id, render_id, ALPHABET, DEFAULT_WIDTH, MAX_WIDTH};
pub use prompt::{system_prompt, system_prompt_with};
pub use view::{body_lines, excerpt, format_hashlines, hashline};
