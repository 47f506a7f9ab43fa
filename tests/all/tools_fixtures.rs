//! Walks `tests/fixtures/tools/`: every `<case>.calls.json` of a task folder
//! is applied to the task's `before/` files, and the files must then equal,
//! byte for byte, `<case>.after/` if present, else `after/`; or, when
//! `<case>.errors.txt` exists, the reply must be refused with exactly those
//! errors (one per line) and every file left as it was.
//!
//! Optional `<case>.outputs.txt`: each call's answer to the model, with its id.
//!
//! Optional `<case>.expect.json`: `{ "matchedBy": [...], "options": {...} }`.
//!
//! `BLESS=1 cargo test --test all tools_fixtures` writes the errors of refused
//! cases that have an `errors.txt` (to review, never to create outcomes).

use crate::fixture_support;
use fixture_support::read_tree;

use crate::apply_support;

use std::fs;
use std::path::{Path, PathBuf};

use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use editblocks::Status;
use serde_json::Value;

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

struct Case {
    task: PathBuf,
    name: String,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tools");
    let mut tasks: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    tasks.sort();
    let mut out = Vec::new();
    for task in tasks {
        let mut names: Vec<String> = fs::read_dir(&task)
            .unwrap()
            .filter_map(|e| {
                e.unwrap()
                    .file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".calls.json"))
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        for name in names {
            out.push(Case {
                task: task.clone(),
                name,
            });
        }
    }
    out
}

fn run_case(case: &Case) -> Result<(), String> {
    let id = format!(
        "{}/{}",
        case.task.file_name().unwrap().to_string_lossy(),
        case.name
    );
    let file = |suffix: &str| case.task.join(format!("{}{suffix}", case.name));
    let calls_json: Value = serde_json::from_slice(&fs::read(file(".calls.json")).unwrap())
        .map_err(|e| format!("{id}: calls: {e}"))?;
    let items = calls_json.as_array().expect("calls.json is an array");
    let calls: Vec<ToolCall> = ToolCall::from_values(items)
        .into_iter()
        .map(|(_, call)| call)
        .collect();
    let expect: Value = fs::read(file(".expect.json"))
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or(Value::Null);
    let options: ToolOptions = expect
        .get("options")
        .map(|o| serde_json::from_value(o.clone()).unwrap())
        .unwrap_or_default();

    let before = read_tree(&case.task.join("before"));
    let mut host = MemoryHost::new();
    host.files = before.clone();
    let result = apply_tool_calls(&calls, &mut host, &options);
    apply_support::check_file_changes(
        &id,
        &result.file_changes,
        &before,
        &host.files,
        options.dry_run,
    )?;
    if !result.ok && !result.file_changes.is_empty() {
        return Err(format!("{id}: a refused reply lists file changes"));
    }

    // Optional `<case>.outputs.txt`: what each call answers the model, in
    // call order, separated by `---` lines, each headed by the call's id.
    let outputs_path = file(".outputs.txt");
    if outputs_path.exists() {
        let got: String = result
            .call_results
            .iter()
            .map(|c| {
                format!(
                    "[{}] {}\n{}\n",
                    c.id.as_deref().unwrap_or("-"),
                    if c.ok { "ok" } else { "failed" },
                    c.output.trim_end()
                )
            })
            .collect::<Vec<_>>()
            .join("---\n");
        if std::env::var_os("BLESS").is_some() {
            fs::write(&outputs_path, &got).unwrap();
        }
        let want = fs::read_to_string(&outputs_path).unwrap();
        if got != want {
            return Err(format!(
                "{id}: outputs differ\n--- want\n{want}--- got\n{got}"
            ));
        }
    }

    let errors_path = file(".errors.txt");
    if errors_path.exists() {
        let got = result.errors.join("\n") + "\n";
        if std::env::var_os("BLESS").is_some() {
            fs::write(&errors_path, &got).unwrap();
        }
        let want = fs::read_to_string(&errors_path).unwrap();
        if result.ok {
            return Err(format!("{id}: expected a refusal, but the reply applied"));
        }
        if got != want {
            return Err(format!(
                "{id}: errors differ\n--- want\n{want}--- got\n{got}"
            ));
        }
        if !host.changes().is_empty() || host.files != before {
            return Err(format!(
                "{id}: a refused reply wrote something: {:?}",
                host.changes()
            ));
        }
        if result
            .results
            .iter()
            .any(|r| r.edit.status == Status::Applied)
        {
            return Err(format!("{id}: a refused reply reports an applied change"));
        }
        return Ok(());
    }

    if !result.ok {
        return Err(format!(
            "{id}: expected to apply, but: {:#?}",
            result.errors
        ));
    }
    let override_dir = file(".after");
    let expected = if override_dir.is_dir() {
        read_tree(&override_dir)
    } else {
        read_tree(&case.task.join("after"))
    };
    for (path, want) in &expected {
        match host.files.get(path) {
            Some(got) if got == want => {}
            Some(got) => {
                return Err(format!(
                    "{id}: {path} differs\n--- want\n{}--- got\n{}",
                    show(want),
                    show(got)
                ))
            }
            None => return Err(format!("{id}: {path} was not written")),
        }
    }
    for (path, bytes) in &host.files {
        if !expected.contains_key(path) && before.get(path) != Some(bytes) {
            return Err(format!(
                "{id}: {path} changed but no expected version exists"
            ));
        }
    }
    if let Some(want) = expect.get("matchedBy") {
        let got: Vec<Value> = result
            .results
            .iter()
            .map(|r| {
                r.edit
                    .matched_by
                    .clone()
                    .map(Value::String)
                    .unwrap_or(Value::Null)
            })
            .collect();
        if &Value::Array(got.clone()) != want {
            return Err(format!("{id}: matchedBy {got:?}, want {want}"));
        }
    }
    Ok(())
}

/// Guards against the walk silently finding nothing.
const MIN_CASES: usize = 50;

#[test]
fn tool_call_fixtures() {
    let cases = cases();
    assert!(
        cases.len() >= MIN_CASES,
        "expected the fixture set, found {} cases",
        cases.len()
    );
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c).err()).collect();
    fixture_support::assert_none_failed("tests/fixtures/tools", cases.len(), &failures);
}
