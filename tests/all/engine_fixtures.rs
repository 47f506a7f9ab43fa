//! Walks `tests/fixtures/engine/`: each folder is one case with
//!
//! - `reply.md`: the model's reply, parsed by the real parser;
//! - `before/`: the files before (optional);
//! - `after/`: every file afterwards, byte for byte (absent: nothing may change);
//! - `options.json`: `ApplyOptions` in camelCase (optional);
//! - `expected.json`: the `ApplyResult` exactly, plus `staged` (what the host was asked to stage);
//! - `README`: what the case checks, in a line.
//!
//! `BLESS=1 cargo test --test all engine_fixtures` rewrites `expected.json` from
//! the actual results (review the diff before committing).

use crate::fixture_support;
use fixture_support::{check_expected, run_cases};

use crate::apply_support;
use apply_support::{apply_case, read_apply_case};

use std::path::Path;

use editblocks::normalize_path;
use editblocks::HostOp;

fn run_case(dir: &Path) -> Result<(), String> {
    let case = read_apply_case(dir)?;
    let name = &case.name;
    let (mut actual, host) = apply_case(&case)?;
    if actual["results"].as_array().map_or(true, Vec::is_empty) {
        return Err(format!("{name}: the reply parsed to no blocks"));
    }
    for read in &host.reads {
        if normalize_path(read).as_deref() != Ok(read.as_str()) {
            return Err(format!("{name}: the host was asked to read {read:?}, which is not a confined, normalised path"));
        }
    }
    if case.options.dry_run && !host.ops.is_empty() {
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
    actual["staged"] = serde_json::to_value(&staged).unwrap();
    check_expected(dir, &actual).map(|_| ())
}

#[test]
fn engine_fixtures() {
    run_cases("engine", 50, run_case);
}
