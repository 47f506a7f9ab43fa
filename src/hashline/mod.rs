//! `LINE#ID` anchored edits. (Being written: issue 5.)

mod id;

pub use id::{fmix64, fnv1a64, is_id_text, line_hash, line_id, render_id, ALPHABET, DEFAULT_WIDTH, MAX_WIDTH};

/// Instructions for the model using hashline edits. (Being written.)
pub fn system_prompt() -> String {
    String::from("Edit files by LINE#ID anchors.")
}
