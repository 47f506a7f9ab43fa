//! Instructions for the model, in our own words, one per edit style.
//! Each edit style's owner module supplies its text; this only dispatches.

/// The system prompt for `kind`: a format name (`edit-repl`, `anchored`,
/// `search-replace`), `tools` or `hashline`. `None` for an unknown kind.
pub fn system_prompt(kind: &str) -> Option<String> {
    let _ = kind;
    None
}
