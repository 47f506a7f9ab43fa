//! Tolerant matching: the five passes of seed 002, unique-only.
//! (Being written: issue 4. Until then only the exact pass exists.)

/// The pass that located a match, weakest last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchPass {
    Exact,
    TrailingWhitespace,
    Whitespace,
    BoundaryPrefix,
    Substring,
}

impl MatchPass {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchPass::Exact => "exact",
            MatchPass::TrailingWhitespace => "trailing-whitespace",
            MatchPass::Whitespace => "whitespace",
            MatchPass::BoundaryPrefix => "boundary-prefix",
            MatchPass::Substring => "substring",
        }
    }
}

/// Where `old` was found and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TolerantMatch {
    /// Byte range in the content that is replaced.
    pub start: usize,
    pub end: usize,
    pub pass: MatchPass,
    /// The new text, with indentation repaired or truncated lines expanded
    /// when the pass required it.
    pub replacement: String,
}

/// Why no unique match was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TolerantError {
    NotFound,
    /// 1-based first lines of every candidate in the first pass that found any.
    Ambiguous { pass: MatchPass, lines: Vec<u32> },
}

/// Finds the unique location of `old` in `content` (LF text), trying each
/// pass in order and stopping at the first pass that finds anything.
pub fn find_unique(content: &str, old: &str, new: &str) -> Result<TolerantMatch, TolerantError> {
    let starts: Vec<usize> = content.match_indices(old).map(|(i, _)| i).collect();
    match starts.as_slice() {
        [] => Err(TolerantError::NotFound),
        [start] => Ok(TolerantMatch { start: *start, end: start + old.len(), pass: MatchPass::Exact, replacement: new.to_string() }),
        many => Err(TolerantError::Ambiguous {
            pass: MatchPass::Exact,
            lines: many.iter().map(|&i| content[..i].matches('\n').count() as u32 + 1).collect(),
        }),
    }
}
