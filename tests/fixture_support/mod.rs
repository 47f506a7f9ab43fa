//! Reading fixture folders: shared by every fixture harness.
// Each test binary uses the part it needs.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every file below `dir` by its `/`-separated path relative to `dir`;
/// empty when `dir` does not exist.
pub fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("a readable fixture folder").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let rel = path
                    .strip_prefix(base)
                    .expect("below the fixture folder")
                    .to_string_lossy()
                    .replace('\\', "/");
                let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// [`read_tree`] as text, sorted by path.
pub fn read_text_tree(dir: &Path) -> Vec<(String, String)> {
    read_tree(dir)
        .into_iter()
        .map(|(path, bytes)| {
            let text = String::from_utf8(bytes).unwrap_or_else(|_| panic!("{path}: not UTF-8"));
            (path, text)
        })
        .collect()
}

/// The files as `--- path` and their text, for a failure message.
pub fn show_tree(files: &BTreeMap<String, Vec<u8>>) -> String {
    files
        .iter()
        .map(|(p, b)| format!("--- {p}\n{}\n", String::from_utf8_lossy(b)))
        .collect()
}

/// The case folders of `tests/fixtures/<kind>`, sorted; at least `at_least`
/// of them, so that a folder missing in CI fails instead of passing empty.
pub fn case_dirs(kind: &str, at_least: usize) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind);
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= at_least,
        "tests/fixtures/{kind} has {} cases, fewer than {at_least}: the folder looks incomplete",
        cases.len()
    );
    cases
}
