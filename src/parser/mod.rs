//! The incremental parser for the text formats. (Being written: issue 2.)

use crate::block::{EditBlock, Format};

/// Which formats to look for; empty means all of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    pub formats: Vec<Format>,
}

/// Every complete block in `text`, in order.
pub fn parse_edits(_text: &str, _options: &ParseOptions) -> Vec<EditBlock> {
    Vec::new()
}

/// The format of the first block marker in `text`, if any.
pub fn detect_format(_text: &str) -> Option<Format> {
    None
}

/// Instructions for the model to write edits in `format`. (Being written.)
pub fn system_prompt(format: Format) -> String {
    format!("Write file edits in the {} format.", format.as_str())
}
