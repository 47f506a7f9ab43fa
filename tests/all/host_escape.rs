//! A host that refuses a path because it leads outside the root (a symbolic
//! link, found only by the host) is reported as `skipped` / `path-escape` by
//! every apply style, like a path the core itself refuses; any other read
//! failure stays `failed` / `host-error`.

use editblocks::apply_edits;
use editblocks::engine::ApplyOptions;
use editblocks::hashline::{apply_hashline_edit, HashlineOptions};
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format};
use editblocks::{ErrorKind, Status};
use serde_json::json;

const REFUSED: &str = "refused \"link/x.py\": a symbolic link leads outside the project root";

fn host(escape: bool) -> MemoryHost {
    let mut host = MemoryHost::new();
    host.unreadable.insert("link/x.py".into(), REFUSED.into());
    if escape {
        host.escapes.insert("link/x.py".into());
    }
    host
}

fn block() -> EditBlock {
    EditBlock::new(Format::EditRepl, "link/x.py", "a = 1", "a = 2")
}

#[test]
fn edit_blocks() {
    let r = apply_edits(&[block()], &mut host(true), &ApplyOptions::default());
    assert_eq!(
        (r.results[0].status, r.results[0].error_kind),
        (Status::Skipped, Some(ErrorKind::PathEscape))
    );
    assert_eq!(
        r.results[0].reason.as_deref(),
        Some("Cannot edit link/x.py: refused \"link/x.py\": a symbolic link leads outside the project root. Nothing outside the project root is read or written.")
    );
    let r = apply_edits(&[block()], &mut host(false), &ApplyOptions::default());
    assert_eq!(
        (r.results[0].status, r.results[0].error_kind),
        (Status::Failed, Some(ErrorKind::HostError))
    );
}

#[test]
fn tool_calls() {
    let calls = [ToolCall::new(
        "edit_file",
        json!({ "path": "link/x.py", "old_string": "a = 1", "new_string": "a = 2" }),
    )];
    let r = apply_tool_calls(&calls, &mut host(true), &ToolOptions::default());
    assert_eq!(
        (r.results[0].edit.status, r.results[0].edit.error_kind),
        (Status::Skipped, Some(ErrorKind::PathEscape))
    );
    let r = apply_tool_calls(&calls, &mut host(false), &ToolOptions::default());
    assert_eq!(
        (r.results[0].edit.status, r.results[0].edit.error_kind),
        (Status::Failed, Some(ErrorKind::HostError))
    );
}

#[test]
fn hashline() {
    let call = json!({ "path": "link/x.py", "delete": true, "edits": [] });
    let r = apply_hashline_edit(&call, &mut host(true), &HashlineOptions::default());
    assert_eq!(
        (r.status, r.error_kind),
        (Status::Skipped, Some(ErrorKind::PathEscape))
    );
    let r = apply_hashline_edit(&call, &mut host(false), &HashlineOptions::default());
    assert_eq!(
        (r.status, r.error_kind),
        (Status::Failed, Some(ErrorKind::HostError))
    );
}
