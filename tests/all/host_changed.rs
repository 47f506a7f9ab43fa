//! A host that refuses a file because it changed on disk under the run
//! twice (`FileHost::changed_since_read`) is reported as `failed` /
//! `file-changed` by every apply style, in one sentence that adds the
//! host's words; in a run applied all or nothing, every other edit is
//! `atomic-aborted`, naming the file that changed.

use editblocks::apply_edits;
use editblocks::engine::{ApplyOptions, Mode};
use editblocks::hashline::{apply_hashline_edit, HashlineOptions};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format};
use editblocks::{ErrorKind, Status};
use serde_json::json;

const CHANGED: &str = "a.txt was changed by someone else while the edits were applied";
const REASON: &str = "a.txt was changed by someone else while the edits were applied It changed again after being read a second time, so this edit was not applied.";
const ABORTED: &str = "Not written: a.txt changed on disk while the reply was written, and the reply is applied all or nothing. This edit was fine: send it again as it was, once a.txt has been read again.";

fn host() -> MemoryHost {
    let mut host = MemoryHost::with_files([("b.txt", "bee\n")]);
    host.unreadable.insert("a.txt".into(), CHANGED.into());
    host.changed_on_disk.insert("a.txt".into());
    host
}

#[test]
fn edit_blocks_fail_the_file_and_in_an_atomic_reply_hold_back_the_rest() {
    let blocks = [
        EditBlock::new(Format::EditRepl, "b.txt", "bee", "BEE"),
        EditBlock::new(Format::EditRepl, "a.txt", "one", "ONE"),
    ];
    for mode in [Mode::Sequential, Mode::Atomic] {
        let mut host = host();
        let options = ApplyOptions {
            mode,
            ..ApplyOptions::default()
        };
        let r = apply_edits(&blocks, &mut host, &options);
        let a = &r.results[1];
        assert_eq!(
            (a.status, a.error_kind),
            (Status::Failed, Some(ErrorKind::FileChanged))
        );
        assert_eq!(a.reason.as_deref(), Some(REASON));
        let b = &r.results[0];
        if mode == Mode::Atomic {
            assert_eq!(
                (b.status, b.error_kind),
                (Status::Skipped, Some(ErrorKind::AtomicAborted))
            );
            assert_eq!(b.reason.as_deref(), Some(ABORTED));
            assert!(host.changes().is_empty());
        } else {
            assert_eq!(b.status, Status::Applied);
            assert_eq!(host.text("b.txt").as_deref(), Some("BEE\n"));
        }
    }
}

#[test]
fn tool_calls_fail_the_call_and_hold_back_the_others() {
    let calls = [
        ToolCall::new(
            "edit_file",
            json!({ "path": "b.txt", "old_string": "bee", "new_string": "BEE" }),
        ),
        ToolCall::new("write_file", json!({ "path": "a.txt", "content": "new\n" })),
    ];
    let mut host = host();
    let r = apply_tool_calls(&calls, &mut host, &ToolOptions::default());
    let a = &r.results[1];
    assert_eq!(
        (a.edit.status, a.edit.error_kind),
        (Status::Failed, Some(ErrorKind::FileChanged))
    );
    // write_file says nothing of its own beside the sentence.
    assert_eq!(a.output.as_deref(), Some(REASON));
    let b = &r.results[0];
    assert_eq!(
        (b.edit.status, b.edit.error_kind),
        (Status::Skipped, Some(ErrorKind::AtomicAborted))
    );
    assert_eq!(b.edit.reason.as_deref(), Some(ABORTED));
    assert!(!r.ok);
    assert!(host.changes().is_empty());
}

#[test]
fn a_hashline_edit_fails_with_the_same_sentence() {
    let call = json!({ "path": "a.txt", "delete": true, "edits": [] });
    let r = apply_hashline_edit(&call, &mut host(), &HashlineOptions::default());
    assert_eq!(
        (r.status, r.error_kind),
        (Status::Failed, Some(ErrorKind::FileChanged))
    );
    assert_eq!(r.reason.as_deref(), Some(REASON));
}
