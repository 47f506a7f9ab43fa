//! The one set of defaults: every style treats a no-op the same
//! way (`skipped` / `no-op`, never aborting the others) and stages what it
//! wrote unless asked not to.

use editblocks::apply_edits;
use editblocks::engine::ApplyOptions;
use editblocks::hashline::{apply_hashline_edit, line_id, HashlineOptions, DEFAULT_WIDTH};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::{EditBlock, Format};
use editblocks::{ErrorKind, Status};
use editblocks::{HostOp, MemoryHost};
use serde_json::json;

fn staged(host: &MemoryHost) -> Vec<String> {
    host.ops
        .iter()
        .filter_map(|op| match op {
            HostOp::Stage { paths } => Some(paths.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn edit_call(path: &str, old: &str, new: &str) -> ToolCall {
    ToolCall::new(
        "edit_file",
        json!({ "path": path, "old_string": old, "new_string": new }),
    )
}

fn block(old: &str, new: &str) -> EditBlock {
    EditBlock::new(Format::SearchReplace, "a.txt", old, new)
}

#[test]
fn a_no_op_is_skipped_in_every_style_and_the_rest_is_written() {
    // Text blocks.
    let mut host = MemoryHost::with_files([("a.txt", "one\ntwo\n")]);
    let r = apply_edits(
        &[block("one", "one"), block("two", "2")],
        &mut host,
        &ApplyOptions::default(),
    );
    assert_eq!(
        (r.results[0].status, r.results[0].error_kind),
        (Status::Skipped, Some(ErrorKind::NoOp))
    );
    assert_eq!(r.results[1].status, Status::Applied);
    assert_eq!(host.text("a.txt").unwrap(), "one\n2\n");

    // Tool calls: atomic, and the no-op does not abort the other call.
    let mut host = MemoryHost::with_files([("a.txt", "one\ntwo\n")]);
    let calls = [
        edit_call("a.txt", "one", "one"),
        edit_call("a.txt", "two", "2"),
    ];
    let r = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert_eq!(
        (r.results[0].edit.status, r.results[0].edit.error_kind),
        (Status::Skipped, Some(ErrorKind::NoOp))
    );
    assert!(r.ok, "{:?}", r.errors);
    assert!(r.call_results[0].output.contains("identical"));
    assert_eq!(r.results[1].edit.status, Status::Applied);
    assert_eq!(host.text("a.txt").unwrap(), "one\n2\n");

    // Hashline: the call is one unit; changing nothing is skipped, not failed.
    let mut host = MemoryHost::with_files([("a.txt", "one\ntwo\n")]);
    let call = json!({ "path": "a.txt", "edits": [
        { "target": format!("1#{}", line_id("one", DEFAULT_WIDTH)), "new_content": ["one"] }
    ] });
    let r = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
    assert_eq!(
        (r.status, r.error_kind),
        (Status::Skipped, Some(ErrorKind::NoOp))
    );
    assert!(host.changes().is_empty());
}

#[test]
fn every_style_stages_by_default_and_not_when_asked() {
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    apply_edits(&[block("one", "1")], &mut host, &ApplyOptions::default());
    assert_eq!(staged(&host), ["a.txt"]);

    let call = edit_call("a.txt", "one", "1");
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    apply_tool_calls(
        std::slice::from_ref(&call),
        &mut host,
        &ToolOptions::default(),
    );
    assert_eq!(staged(&host), ["a.txt"]);
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let no = ToolOptions {
        stage: false,
        ..ToolOptions::default()
    };
    apply_tool_calls(&[call], &mut host, &no);
    assert!(staged(&host).is_empty());

    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let call = json!({ "path": "a.txt", "edits": [
        { "target": format!("1#{}", line_id("one", DEFAULT_WIDTH)), "new_content": ["1"] }
    ] });
    let r = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
    assert_eq!(r.status, Status::Applied, "{}", r.message);
    assert_eq!(staged(&host), ["a.txt"]);
}

#[test]
fn every_style_says_the_same_of_a_staging_that_failed_and_keeps_what_it_wrote() {
    let said = "host.stage failed: git is not installed. Every change was written (a.txt); nothing was staged. Stage those paths yourself.";
    let failing_stage = || {
        let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
        host.fail_stage("git is not installed");
        host
    };

    let mut host = failing_stage();
    let r = apply_edits(&[block("one", "1")], &mut host, &ApplyOptions::default());
    assert_eq!(r.stage_error.as_deref(), Some(said));
    assert_eq!(r.results[0].status, Status::Applied);
    assert_eq!(host.text("a.txt").as_deref(), Some("1\n"));

    let mut host = failing_stage();
    let reply = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n";
    let r = editblocks::apply_reply(reply, &mut host, &ApplyOptions::default());
    assert_eq!(r.stage_error.as_deref(), Some(said));
    assert_eq!(host.text("a.txt").as_deref(), Some("1\n"));

    let mut host = failing_stage();
    let r = apply_tool_calls(
        &[edit_call("a.txt", "one", "1")],
        &mut host,
        &ToolOptions::default(),
    );
    assert_eq!(r.stage_error.as_deref(), Some(said));
    assert!(r.ok && r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(host.text("a.txt").as_deref(), Some("1\n"));

    let mut host = failing_stage();
    let call = json!({ "path": "a.txt", "edits": [
        { "target": format!("1#{}", line_id("one", DEFAULT_WIDTH)), "new_content": ["1"] }
    ] });
    let r = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
    assert_eq!(r.stage_error.as_deref(), Some(said));
    assert_eq!(host.text("a.txt").as_deref(), Some("1\n"));

    // Staging that works, or was not asked for, says nothing.
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let r = apply_edits(&[block("one", "1")], &mut host, &ApplyOptions::default());
    assert_eq!(r.stage_error, None);
    let mut host = failing_stage();
    let no = ApplyOptions {
        stage: false,
        ..ApplyOptions::default()
    };
    let r = apply_edits(&[block("one", "1")], &mut host, &no);
    assert_eq!(r.stage_error, None);
}

fn block_in(path: &str, old: &str, new: &str) -> EditBlock {
    EditBlock {
        file_path: path.into(),
        ..block(old, new)
    }
}

/// One rule and one sentence for every style: a refused path is a failure
/// (it aborts an atomic reply, and the edits that were fine say so in the
/// same words), a later edit to a failed file is not tried.
#[test]
fn a_refused_path_aborts_an_atomic_reply_in_the_same_words_in_every_style() {
    use editblocks::apply::{atomic_aborted, previous_failed, Scope};

    // Text blocks, atomic.
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let atomic: ApplyOptions = serde_json::from_value(json!({ "mode": "atomic" })).unwrap();
    let r = apply_edits(
        &[block("one", "1"), block_in("../x.txt", "a", "b")],
        &mut host,
        &atomic,
    );
    assert_eq!(
        (r.results[1].status, r.results[1].error_kind),
        (Status::Skipped, Some(ErrorKind::PathEscape))
    );
    assert_eq!(r.results[0].error_kind, Some(ErrorKind::AtomicAborted));
    assert_eq!(
        r.results[0].reason.as_deref(),
        Some(atomic_aborted("block 2 (../x.txt)", Scope::Reply).as_str())
    );
    assert!(host.changes().is_empty());
    // Sequential: the refused path stops only itself.
    let r = apply_edits(
        &[block("one", "1"), block_in("../x.txt", "a", "b")],
        &mut host,
        &ApplyOptions::default(),
    );
    assert_eq!(r.results[0].status, Status::Applied);
    assert_eq!(host.text("a.txt").unwrap(), "1\n");

    // Tool calls (always atomic): the reason and the model's answer are one sentence.
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let calls = [
        edit_call("a.txt", "one", "1"),
        ToolCall::new("write_file", json!({ "path": "../x.txt", "content": "x" })),
    ];
    let r = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert!(!r.ok);
    let aborted = atomic_aborted("call 2 (../x.txt)", Scope::Reply);
    assert_eq!(r.results[0].edit.error_kind, Some(ErrorKind::AtomicAborted));
    assert_eq!(r.results[0].edit.reason.as_deref(), Some(aborted.as_str()));
    assert_eq!(r.results[0].output.as_deref(), Some(aborted.as_str()));
    assert!(host.changes().is_empty());

    // An edit after a failed one on the same file: not tried, the earlier
    // one named in the style's own words.
    let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
    let r = apply_edits(
        &[block("zzz", "1"), block("one", "1")],
        &mut host,
        &ApplyOptions::default(),
    );
    assert_eq!(r.results[1].error_kind, Some(ErrorKind::PreviousFailed));
    assert_eq!(
        r.results[1].reason.as_deref(),
        Some(previous_failed("block 1").as_str())
    );
    let calls = [
        edit_call("a.txt", "zzz", "1"),
        edit_call("a.txt", "one", "1"),
    ];
    let r = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    assert_eq!(
        r.results[1].edit.error_kind,
        Some(ErrorKind::PreviousFailed)
    );
    assert!(r.results[1]
        .edit
        .reason
        .as_deref()
        .is_some_and(|why| why.ends_with(&previous_failed("call 1"))));
}
