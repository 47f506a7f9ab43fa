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
//!
//! How a call is checked, in order; the first failing step refuses the whole
//! call and nothing is written:
//!
//! 1. the call's shape: every operation is exactly one of `target`,
//!    `first`/`last`, `before`/`after` + `inserted_lines`, `old_text`/`new_text`
//!    (only with [`HashlineOptions::allow_replace_text`]); anchors are
//!    `LINE#ID` without `|content`; content lines carry no `N#ID|` prefix;
//! 2. the paths ([`crate::path::normalize_path`]), `delete` xor `rename`, a
//!    rename target that does not exist (unless `overwrite`);
//! 3. every anchor names an existing line (the error says how many there are);
//! 4. every anchor's ID matches its line now (else every stale line is shown
//!    with `>>>`, its current `LINE#ID` and two lines of context);
//! 5. no operation is a no-op, and no two touch the same lines or insert into
//!    the same gap (an insert's anchors count as touched).
//!
//! `new_content: null` and `new_content: []` both delete. A bare string, or a
//! string holding `\n`, is read as its lines. Files go through
//! [`crate::text::TextFile`]: BOM, CRLF and the final newline are kept.
//!
//! Known limit of the format: a range replace checks only its `first` and
//! `last` anchors, so a line changed in place strictly inside the range since
//! the read is overwritten without notice.

mod apply;
mod call;
pub(crate) mod id;
mod prompt;
mod view;

pub use apply::{
    apply_call, apply_hashline_edit, deletes_a_file, edit_body, hashline_paths, Edited,
    HashlineOptions, HashlineResult, StaleLine, CONTEXT,
};
pub use call::{parse_anchor, parse_call, Anchor, CallError, HashlineCall, HashlineOp};
pub use id::{
    fmix64, fnv1a64, is_id_text, line_hash, line_id, render_id, ALPHABET, DEFAULT_WIDTH, MAX_WIDTH,
};
pub use prompt::{system_prompt, system_prompt_with};
pub use view::{body_lines, excerpt, format_hashlines, hashline};
