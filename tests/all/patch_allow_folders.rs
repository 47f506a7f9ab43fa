//! `allowFolders` widens the version-control refusal for patches as it does
//! for text blocks, tool calls and hashline calls (the refusal tells the
//! caller to use it): a patch may edit, add, delete or move into a folder
//! named exactly, and nothing else inside version-control metadata.

use editblocks::apply_reply;
use editblocks::engine::ApplyOptions;
use editblocks::MemoryHost;
use editblocks::{ErrorKind, Status};

fn apply(reply: &str) -> (Vec<(Status, Option<ErrorKind>)>, MemoryHost) {
    let mut host = MemoryHost::with_files([
        (".git/info/exclude", "a\n"),
        (".git/hooks/pre-commit", "a\n"),
        ("notes.txt", "a\n"),
    ]);
    let opts = ApplyOptions {
        allow_folders: vec![".git/info".into()],
        ..ApplyOptions::default()
    };
    let r = apply_reply(reply, &mut host, &opts);
    (
        r.results.iter().map(|e| (e.status, e.error_kind)).collect(),
        host,
    )
}

fn patch(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

#[test]
fn a_patch_may_write_inside_an_allowed_folder() {
    let applied = vec![(Status::Applied, None)];
    for (reply, path, text) in [
        (
            patch("*** Update File: .git/info/exclude\n@@\n-a\n+b\n"),
            ".git/info/exclude",
            Some("b\n"),
        ),
        (
            patch("*** Add File: .git/info/attributes\n+* text\n"),
            ".git/info/attributes",
            Some("* text\n"),
        ),
        (
            patch("*** Delete File: .git/info/exclude\n"),
            ".git/info/exclude",
            None,
        ),
        (
            patch("*** Update File: notes.txt\n*** Move to: .git/info/notes\n@@\n-a\n+b\n"),
            ".git/info/notes",
            Some("b\n"),
        ),
        (
            "```diff\n--- a/.git/info/exclude\n+++ b/.git/info/exclude\n@@ -1 +1 @@\n-a\n+b\n```\n"
                .to_string(),
            ".git/info/exclude",
            Some("b\n"),
        ),
    ] {
        let (results, host) = apply(&reply);
        assert_eq!(results, applied, "{reply}");
        assert_eq!(host.text(path).as_deref(), text, "{reply}");
    }
}

#[test]
fn a_patch_may_not_write_elsewhere_in_version_control_metadata() {
    let refused = vec![(Status::Skipped, Some(ErrorKind::PathEscape))];
    for reply in [
        patch("*** Update File: .git/hooks/pre-commit\n@@\n-a\n+b\n"),
        patch("*** Add File: .git/config\n+[core]\n"),
        patch("*** Update File: .git/info/exclude\n*** Move to: .git/hooks/post-checkout\n@@\n-a\n+b\n"),
        patch("*** Add File: .GIT/info/x\n+x\n"),
        patch("*** Add File: .git/info/../hooks/x\n+x\n"),
        "```diff\n--- /dev/null\n+++ b/.git/hooks/post-merge\n@@ -0,0 +1 @@\n+x\n```\n".to_string(),
    ] {
        let (results, host) = apply(&reply);
        assert_eq!(results, refused, "{reply}");
        assert!(
            host.ops.is_empty(),
            "{reply} wrote {:?}",
            host.ops
        );
    }
}
