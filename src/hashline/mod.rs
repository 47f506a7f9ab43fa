//! `LINE#ID` anchored edits. (Being written: issue 5.)

/// Instructions for the model using hashline edits. (Being written.)
pub fn system_prompt() -> String {
    String::from("Edit files by LINE#ID anchors.")
}
