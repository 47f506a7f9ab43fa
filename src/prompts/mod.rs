//! Instructions for the model, in our own words, one per edit style.
//! Each edit style's owner module supplies its text; this only dispatches.

use crate::block::Format;

/// The system prompt for `kind`: a format name (`edit-repl`, `anchored`,
/// `search-replace`), `tools` or `hashline`. `None` for an unknown kind.
pub fn system_prompt(kind: &str) -> Option<String> {
    match kind {
        "tools" => Some(crate::tools::system_prompt()),
        "hashline" => Some(crate::hashline::system_prompt()),
        other => Format::from_name(other).map(crate::parser::system_prompt),
    }
}
