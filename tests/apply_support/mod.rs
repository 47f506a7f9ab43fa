//! Checks shared by the apply fixture harnesses.

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
