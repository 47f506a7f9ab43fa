//! The Responses API's `apply_patch_call` operations: `create_file` carries
//! the V4A body of a new file (every line `+`), `update_file` carries V4A
//! sections (`@@ context`, then ` `, `-`, `+` lines), `delete_file` none.

use crate::result::ErrorKind;

/// Why a V4A update did not apply.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchRefusal {
    pub kind: ErrorKind,
    /// A sentence the model can act on.
    pub reason: String,
    /// 1-based line where the update was aimed, when known.
    pub line: Option<u32>,
}

impl std::fmt::Display for PatchRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for PatchRefusal {}

/// The content of a file added by a `create_file` operation: its diff's
/// lines without their leading `+` (a diff given as plain text, with no `+`
/// on any line, is taken as the content itself).
pub fn added_file_content(diff: &str) -> Result<String, String> {
    let diff = crate::text::to_lf(diff).into_owned();
    let body = diff.strip_suffix('\n').unwrap_or(&diff);
    if body.is_empty() {
        return Ok(String::new());
    }
    let lines: Vec<&str> = body.split('\n').collect();
    if !lines.iter().any(|l| l.starts_with('+')) {
        return Ok(format!("{body}\n"));
    }
    let mut out = String::with_capacity(diff.len());
    for (i, line) in lines.iter().enumerate() {
        match line.strip_prefix('+') {
            Some(rest) => {
                out.push_str(rest);
                out.push('\n');
            }
            None => {
                return Err(format!(
                    "line {} of the create_file diff does not start with `+`; every line of an added file is written `+line`.",
                    i + 1
                ))
            }
        }
    }
    Ok(out)
}

/// Applies a V4A `update_file` diff to `body` (LF text) of the file at
/// `path`: the sections are read by the patch grammar, as the one
/// operation of a patch, and applied to the text directly
/// ([`crate::patch`]'s update, with its refusals).
pub fn apply_v4a_update(path: &str, body: &str, diff: &str) -> Result<String, PatchRefusal> {
    use crate::block::Format;
    use crate::parser::{parse_edits, ParseOptions};

    let sections = crate::text::to_lf(diff).into_owned();
    let sections = sections.trim_end_matches('\n');
    // The Responses API sends an update's sections without the envelope and
    // header; they are what follows `*** Update File:` in a V4A patch.
    let patch = format!("*** Begin Patch\n*** Update File: {path}\n{sections}\n*** End Patch\n");
    let blocks = parse_edits(
        &patch,
        &ParseOptions {
            formats: vec![Format::ApplyPatch],
            ..ParseOptions::default()
        },
    );
    let op = match blocks.as_slice() {
        [block] if !sections.trim().is_empty() => block.patch.as_deref(),
        _ => None,
    };
    let Some(op) = op else {
        return Err(PatchRefusal {
            kind: ErrorKind::Malformed,
            reason: "the update_file diff could not be read as V4A sections: each section is an `@@` line (optionally with a line to find after it) followed by lines starting with ' ' (context), '-' (removed) or '+' (added), copied exactly from the file.".into(),
            line: None,
        });
    };
    if op.move_to.is_some() {
        return Err(PatchRefusal {
            kind: ErrorKind::Malformed,
            reason: "the update_file diff has a `*** Move to:` line, which an update_file operation cannot carry: it edits the file in place. Send the sections only; to rename the file, create it under the new name and delete the old one.".into(),
            line: None,
        });
    }
    match crate::patch::update_body(Format::ApplyPatch, path, path, op, body) {
        Ok(updated) => Ok(updated.text),
        Err(f) => Err(PatchRefusal {
            kind: f.kind,
            reason: f.reason,
            line: f.line,
        }),
    }
}
