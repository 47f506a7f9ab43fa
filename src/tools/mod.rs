//! Tool-call edits: `write_file`, `edit_file`, `modify_file`. (Being written: issue 4.)

/// Guidance for the model using the edit tools. (Being written.)
pub fn system_prompt() -> String {
    String::from("Edit files with the write_file and edit_file tools.")
}
