//! Checks shared by the apply fixture harnesses.
// Each test binary uses the part it needs.
#![allow(dead_code)]

use std::collections::BTreeMap;

/// `fileChanges` lists exactly the files that changed, in a real run, with
/// their bytes before and after; in a dry run, the files as they were before.
pub fn check_file_changes(
    name: &str,
    changes: &[editblocks::apply::FileChange],
    before: &BTreeMap<String, Vec<u8>>,
    now: &BTreeMap<String, Vec<u8>>,
    dry_run: bool,
) -> Result<(), String> {
    let text = |b: Option<&Vec<u8>>| b.map(|b| String::from_utf8_lossy(b).into_owned());
    for c in changes {
        let source = c.moved_from.as_deref().unwrap_or(&c.path);
        if c.before != text(before.get(source)) {
            return Err(format!(
                "{name}: fileChanges[{}].before is not the file as it was",
                c.path
            ));
        }
        if !dry_run && c.after != text(now.get(&c.path)) {
            return Err(format!(
                "{name}: fileChanges[{}].after is not the file as written",
                c.path
            ));
        }
    }
    if !dry_run {
        let listed = |p: &String| {
            changes
                .iter()
                .any(|c| &c.path == p || c.moved_from.as_ref() == Some(p))
        };
        for p in before.keys().chain(now.keys()) {
            if before.get(p) != now.get(p) && !listed(p) {
                return Err(format!("{name}: {p} changed but is not in fileChanges"));
            }
        }
    }
    Ok(())
}

/// One case of an apply fixture folder: `reply.md`, the files `before/`,
/// every file `after/` (absent: nothing may change) and `options.json`
/// (`ApplyOptions` in camelCase; absent: the defaults).
pub struct ApplyCase {
    pub name: String,
    pub reply: String,
    pub before: BTreeMap<String, Vec<u8>>,
    pub after: BTreeMap<String, Vec<u8>>,
    pub options: editblocks::engine::ApplyOptions,
}

pub fn read_apply_case(dir: &std::path::Path) -> Result<ApplyCase, String> {
    use crate::fixture_support::{case_name, read_case_text, read_tree};
    let name = case_name(dir);
    let reply = read_case_text(dir, "reply.md")?;
    let before = read_tree(&dir.join("before"));
    let after = if dir.join("after").is_dir() {
        read_tree(&dir.join("after"))
    } else {
        before.clone()
    };
    let options = match std::fs::read_to_string(dir.join("options.json")) {
        Ok(text) => {
            serde_json::from_str(&text).map_err(|e| format!("{name}: options.json: {e}"))?
        }
        Err(_) => editblocks::engine::ApplyOptions::default(),
    };
    Ok(ApplyCase {
        name,
        reply,
        before,
        after,
        options,
    })
}

/// Applies the case's reply to a memory host holding `before/`, checks that
/// the files afterwards are `after/` byte for byte and that `fileChanges`
/// tells them; returns the result as JSON without `fileChanges` (checked
/// here, not repeated in `expected.json`), and the host.
pub fn apply_case(case: &ApplyCase) -> Result<(serde_json::Value, editblocks::MemoryHost), String> {
    use crate::fixture_support::show_tree;
    let name = &case.name;
    let mut host = editblocks::MemoryHost::new();
    host.files = case.before.clone();
    let result = editblocks::apply_reply(&case.reply, &mut host, &case.options);
    if host.files != case.after {
        return Err(format!(
            "{name}: files after applying differ.\nexpected:\n{}\nactual:\n{}\nresult: {result:#?}",
            show_tree(&case.after),
            show_tree(&host.files)
        ));
    }
    check_file_changes(
        name,
        &result.file_changes,
        &case.before,
        &host.files,
        case.options.dry_run,
    )?;
    let mut json = serde_json::to_value(&result).map_err(|e| format!("{name}: {e}"))?;
    if let Some(map) = json.as_object_mut() {
        map.remove("fileChanges");
    }
    Ok((json, host))
}
