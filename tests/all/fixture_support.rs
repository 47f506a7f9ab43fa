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

/// A case's name: its folder's.
pub fn case_name(case: &Path) -> String {
    case.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| case.display().to_string())
}

/// A text file of a case, or an error naming the case and the file.
pub fn read_case_text(case: &Path, file: &str) -> Result<String, String> {
    fs::read_to_string(case.join(file)).map_err(|e| format!("{}: {file}: {e}", case_name(case)))
}

/// Whether the run writes each case's `expected.json` from what it got, for
/// review, instead of comparing (`BLESS=1` or `UPDATE_FIXTURES=1`).
pub fn updating() -> bool {
    std::env::var_os("BLESS").is_some() || std::env::var_os("UPDATE_FIXTURES").is_some()
}

/// Compares `actual` with the case's `expected.json` and returns what that
/// holds; when [`updating`], writes `actual` there instead and returns `None`.
pub fn check_expected<T>(case: &Path, actual: &T) -> Result<Option<T>, String>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let name = case_name(case);
    let path = case.join("expected.json");
    if updating() {
        let text = serde_json::to_string_pretty(actual).map_err(|e| format!("{name}: {e}"))?;
        fs::write(&path, text + "\n").map_err(|e| format!("{name}: expected.json: {e}"))?;
        return Ok(None);
    }
    let text = fs::read_to_string(&path).map_err(|e| {
        format!("{name}: expected.json: {e} (run with UPDATE_FIXTURES=1 to write it)")
    })?;
    let expected: T =
        serde_json::from_str(&text).map_err(|e| format!("{name}: expected.json: {e}"))?;
    if &expected != actual {
        let show = |v: &T| serde_json::to_string_pretty(v).unwrap_or_else(|_| format!("{v:?}"));
        return Err(format!(
            "{name}: the result differs from expected.json.\nexpected:\n{}\nactual:\n{}",
            show(&expected),
            show(actual)
        ));
    }
    Ok(Some(expected))
}

/// Runs `run_case` on every case of `tests/fixtures/<kind>` (at least
/// `at_least` of them) and fails listing every case that failed.
pub fn run_cases(kind: &str, at_least: usize, run_case: impl Fn(&Path) -> Result<(), String>) {
    let dirs = case_dirs(kind, at_least);
    let failures: Vec<String> = dirs.iter().filter_map(|d| run_case(d).err()).collect();
    assert_none_failed(&format!("tests/fixtures/{kind}"), dirs.len(), &failures);
}

/// Fails listing `failures` (each naming its case) when there are any, of `total` cases of `what`.
pub fn assert_none_failed(what: &str, total: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {total} cases of {what} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A state of a preview in a few words, as the preview fixtures write it.
pub fn brief(s: &editblocks::preview::PreviewState) -> String {
    use editblocks::preview::PreviewState;
    match s {
        PreviewState::Waiting => "waiting".into(),
        PreviewState::Searching { count, lines } => format!("searching {count} at {lines:?}"),
        PreviewState::Located { line } => format!("located {line}"),
        PreviewState::Ambiguous { lines, .. } => format!("ambiguous {lines:?}"),
        PreviewState::NoMatch {
            since, error_kind, ..
        } => format!("no-match since {since} ({error_kind})"),
        PreviewState::Create => "create".into(),
        PreviewState::Delete => "delete".into(),
        PreviewState::Unlocated => "unlocated".into(),
    }
}

/// `Ok` when `actual` equals `expected`; else both, after `what` (the case and the run).
pub fn same<T: PartialEq + std::fmt::Debug>(
    actual: T,
    expected: T,
    what: impl std::fmt::Display,
) -> Result<(), String> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "{what}\n  actual: {actual:?}\nexpected: {expected:?}"
        ))
    }
}
