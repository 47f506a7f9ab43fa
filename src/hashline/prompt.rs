//! The instructions for the model. (Being written.)

/// Instructions for the model using hashline edits.
pub fn system_prompt() -> String {
    system_prompt_with(false)
}

/// As [`system_prompt`], describing content replace when `allow_replace_text`.
pub fn system_prompt_with(_allow_replace_text: bool) -> String {
    String::from("Edit files by LINE#ID anchors.")
}
