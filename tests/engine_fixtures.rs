//! Walks `tests/fixtures/engine/`: each folder is one case with
//!
//! - `reply.md`: the model's reply, parsed by the real parser;
//! - `before/`: the files before (optional);
//! - `after/`: every file afterwards, byte for byte (absent: nothing may change);
//! - `options.json`: `ApplyOptions` in camelCase (optional);
//! - `expected.json`: the `ApplyResult` exactly, plus `staged` (what the host was asked to stage);
//! - `README`: what the case checks, in a line.
//!
//! `BLESS=1 cargo test --test engine_fixtures` rewrites `expected.json` from
//! the actual results (review the diff before committing).

mod fixture_support;
use fixture_support::{case_dirs, read_tree, show_tree};

mod apply_support;

use std::fs;
use std::path::Path;

use editblocks::engine::{apply_reply, ApplyOptions};
use editblocks::normalize_path;
use editblocks::{HostOp, MemoryHost};

fn run_case(dir: &Path) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let reply =
        fs::read_to_string(dir.join("reply.md")).map_err(|e| format!("{name}: reply.md: {e}"))?;
    let before = read_tree(&dir.join("before"));
    let after = if dir.join("after").is_dir() {
        read_tree(&dir.join("after"))
    } else {
        before.clone()
    };
    let options: ApplyOptions = match fs::read_to_string(dir.join("options.json")) {
        Ok(text) => {
            serde_json::from_str(&text).map_err(|e| format!("{name}: options.json: {e}"))?
        }
        Err(_) => ApplyOptions::default(),
    };

    let mut host = MemoryHost::new();
    host.files = before.clone();
    let result = apply_reply(&reply, &mut host, &options);

    if result.results.is_empty() {
        return Err(format!("{name}: the reply parsed to no blocks"));
    }
    for read in &host.reads {
        if normalize_path(read).as_deref() != Ok(read.as_str()) {
            return Err(format!("{name}: the host was asked to read {read:?}, which is not a confined, normalised path"));
        }
    }
    if host.files != after {
        return Err(format!(
            "{name}: files after applying differ.\nexpected:\n{}\nactual:\n{}",
            show_tree(&after),
            show_tree(&host.files)
        ));
    }
    if options.dry_run && !host.ops.is_empty() {
        return Err(format!(
            "{name}: a dry run changed the host: {:?}",
            host.ops
        ));
    }
    let staged: Vec<String> = host
        .ops
        .iter()
        .filter_map(|op| {
            if let HostOp::Stage { paths } = op {
                Some(paths.clone())
            } else {
                None
            }
        })
        .flatten()
        .collect();
    apply_support::check_file_changes(
        &name,
        &result.file_changes,
        &before,
        &host.files,
        options.dry_run,
    )?;
    let mut actual = serde_json::to_value(&result).unwrap();
    // `fileChanges` is checked against `before/` and the files afterwards
    // above, not repeated in expected.json.
    if let Some(map) = actual.as_object_mut() {
        map.remove("fileChanges");
    }
    actual["staged"] = serde_json::to_value(&staged).unwrap();
    let expected_path = dir.join("expected.json");
    if std::env::var_os("BLESS").is_some() {
        fs::write(
            &expected_path,
            serde_json::to_string_pretty(&actual).unwrap() + "\n",
        )
        .unwrap();
        return Ok(());
    }
    let expected: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(&expected_path)
            .map_err(|e| format!("{name}: expected.json: {e} (run with BLESS=1 to create it)"))?,
    )
    .map_err(|e| format!("{name}: expected.json: {e}"))?;
    if expected != actual {
        return Err(format!(
            "{name}: result differs.\nexpected:\n{}\nactual:\n{}",
            serde_json::to_string_pretty(&expected).unwrap(),
            serde_json::to_string_pretty(&actual).unwrap()
        ));
    }
    Ok(())
}

#[test]
fn engine_fixtures() {
    let dirs = case_dirs("engine", 50);
    let failures: Vec<String> = dirs.iter().filter_map(|d| run_case(d).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}
