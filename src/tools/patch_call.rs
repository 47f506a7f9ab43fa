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

/// The content of a file added by a `create_file` operation: its diff's
/// lines without their leading `+` (a diff given as plain text, with no `+`
/// on any line, is taken as the content itself).
pub fn added_file_content(diff: &str) -> Result<String, String> {
    let diff = diff.replace("\r\n", "\n");
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

/// Applies a V4A `update_file` diff to `body` (LF text).
///
/// The V4A engine is the patch-formats work (`*** Begin Patch`); this is the
/// one place where an `update_file` operation reaches it.
pub fn apply_v4a_update(_body: &str, _diff: &str) -> Result<String, PatchRefusal> {
    Err(PatchRefusal {
        kind: ErrorKind::Malformed,
        reason: "update_file is not available in this build: the V4A patch engine is not connected yet; send the change as create_file of the whole file instead.".into(),
        line: None,
    })
}
