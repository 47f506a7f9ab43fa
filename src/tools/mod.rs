//! Tool-call edits: `write_file`, `edit_file`, `modify_file`. (Being written: issue 4.)
