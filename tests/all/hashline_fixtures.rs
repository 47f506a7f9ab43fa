//! Walks tests/fixtures/hashline/: each folder holds `call.json`
//! (`{ call, options?, expect }`), `before/` (the files on disk), optionally
//! `read/` (the files as the model read them, when they changed since), and
//! either `after/` (every file after the call) or `error.txt` (the exact
//! refusal; the files must stay byte-for-byte as they were).
//!
//! `BLESS=1 cargo test --test all hashline_fixtures` writes a missing `error.txt`
//! from the current output, for review.

use crate::fixture_support;
use fixture_support::read_tree;

use crate::apply_support;
use editblocks::hashline::{apply_hashline_edit, line_id, HashlineOptions};
use editblocks::MemoryHost;
use editblocks::Status;
use serde_json::Value;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hashline");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    // (README.md and .gitattributes sit beside the case folders.)
    dirs.sort();
    assert!(
        dirs.len() >= 30,
        "fixtures missing under {}",
        root.display()
    );
    dirs
}

fn anchors(call: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for op in call["edits"].as_array().into_iter().flatten() {
        for key in ["target", "first", "last", "before", "after"] {
            if let Some(a) = op.get(key).and_then(Value::as_str) {
                out.push(a.to_string());
            }
        }
    }
    out
}

/// The fixture is honest: every well-formed anchor was valid in the version the model read.
fn check_anchors_were_read(
    name: &str,
    call: &Value,
    read: &BTreeMap<String, Vec<u8>>,
    width: usize,
) {
    let Some(path) = call["path"].as_str() else {
        return;
    };
    let Some(bytes) = read.get(path) else { return };
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    let text = text.trim_start_matches('\u{feff}');
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect();
    for anchor in anchors(call) {
        let Some((n, id)) = anchor.split_once('#') else {
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        if id.contains('|') || id.len() != width || n == 0 || n > lines.len() {
            continue;
        }
        assert!(
            line_id(lines[n - 1], width) == id,
            "{name}: anchor {anchor} does not match the file the model read"
        );
    }
}

#[test]
fn hashline_fixtures() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let spec: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("call.json")).unwrap()).unwrap();
        let call = &spec["call"];
        let options: HashlineOptions = serde_json::from_value(
            spec.get("options")
                .cloned()
                .unwrap_or(Value::Object(Default::default())),
        )
        .unwrap();
        let expect = spec["expect"].as_str().unwrap();
        let before = read_tree(&dir.join("before"));
        let read = if dir.join("read").is_dir() {
            read_tree(&dir.join("read"))
        } else {
            before.clone()
        };
        check_anchors_were_read(&name, call, &read, options.width);

        let mut host = MemoryHost::new();
        host.files = before.clone();
        let result = apply_hashline_edit(call, &mut host, &options);
        if expect == "applied" {
            if result.status != Status::Applied {
                failures.push(format!(
                    "{name}: expected applied, got {:?}: {}",
                    result.error_kind, result.message
                ));
                continue;
            }
            let after = read_tree(&dir.join("after"));
            if host.files != after {
                let show = |t: &BTreeMap<String, Vec<u8>>| {
                    t.iter()
                        .map(|(k, v)| format!("{k}: {:?}", String::from_utf8_lossy(v)))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                failures.push(format!(
                    "{name}: files after differ\n--- expected\n{}\n--- got\n{}",
                    show(&after),
                    show(&host.files)
                ));
            }
            // A dry run validates the same call and writes nothing.
            let mut dry = MemoryHost::new();
            dry.files = before.clone();
            let dry_result = apply_hashline_edit(
                call,
                &mut dry,
                &HashlineOptions {
                    dry_run: true,
                    ..options.clone()
                },
            );
            assert_eq!(dry_result.status, Status::Validated, "{name}: dry run");
            // Both runs name the same before and after contents, and they are the files.
            if let Err(e) = apply_support::check_file_changes(
                &name,
                &result.file_changes,
                &before,
                &host.files,
                false,
            ) {
                failures.push(e);
            }
            assert_eq!(
                dry_result.file_changes, result.file_changes,
                "{name}: the dry run's fileChanges are the real run's"
            );
            assert!(
                dry.changes().is_empty() && dry.files == before,
                "{name}: dry run wrote"
            );
        } else {
            let kind = result.error_kind.map(|k| k.as_str()).unwrap_or("none");
            if kind != expect {
                failures.push(format!(
                    "{name}: expected {expect}, got {kind}: {}",
                    result.message
                ));
                continue;
            }
            if !result.file_changes.is_empty() {
                failures.push(format!("{name}: a refused call lists file changes"));
            }
            if !host.changes().is_empty() || host.files != before {
                failures.push(format!(
                    "{name}: a refused call changed files: {:?}",
                    host.changes()
                ));
            }
            let reason = result.reason.clone().unwrap_or_default();
            let error_file = dir.join("error.txt");
            match fs::read_to_string(&error_file) {
                Ok(expected) => {
                    if expected != reason {
                        failures.push(format!(
                            "{name}: error differs\n--- expected\n{expected}\n--- got\n{reason}"
                        ));
                    }
                }
                Err(_) if bless => fs::write(&error_file, &reason).unwrap(),
                Err(_) => failures.push(format!("{name}: no error.txt; got\n{reason}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
