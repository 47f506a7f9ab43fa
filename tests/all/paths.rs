//! The one path check, through every way a path enters the core: text
//! blocks, `EditBlock` objects, `write_file` / `edit_file` / `modify_file`
//! tool calls, hashline paths and rename targets.
//!
//! `tests/fixtures/paths/refused.txt` lists paths that must come back
//! `skipped` / `path-escape` with nothing read or written;
//! `tests/fixtures/paths/accepted.txt` lists paths that must work, with their
//! normalised form.

use std::fs;

use editblocks::engine::ApplyOptions;
use editblocks::hashline::{apply_hashline_edit, hashline_paths, HashlineOptions};
use editblocks::tools::{apply_tool_calls, tool_call_paths, ToolCall, ToolOptions};
use editblocks::MemoryHost;
use editblocks::{apply_edits, apply_reply};
use editblocks::{confine, normalize_path};
use editblocks::{EditBlock, Format};
use editblocks::{ErrorKind, Status};
use serde_json::json;

/// Decodes `\u{XXXX}`, `\t`, `\r`, `\n` and `\0`; any other backslash stays.
fn unescape(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(hex) = tail.strip_prefix("\\u{").and_then(|t| t.split_once('}')) {
            let code = u32::from_str_radix(hex.0, 16).expect("hex escape");
            out.push(char::from_u32(code).expect("a character"));
            rest = hex.1;
            continue;
        }
        let (c, skip) = match tail.as_bytes().get(1) {
            Some(b't') => ('\t', 2),
            Some(b'r') => ('\r', 2),
            Some(b'n') => ('\n', 2),
            Some(b'0') => ('\0', 2),
            _ => ('\\', 1),
        };
        out.push(c);
        rest = &tail[skip..];
    }
    out.push_str(rest);
    out
}

fn fixture(name: &str) -> Vec<String> {
    let text = fs::read_to_string(format!("tests/fixtures/paths/{name}")).expect("fixture file");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with("# ") && *l != "#")
        .map(String::from)
        .collect()
}

fn refused() -> Vec<String> {
    fixture("refused.txt").iter().map(|l| unescape(l)).collect()
}

fn accepted() -> Vec<(String, String)> {
    fixture("accepted.txt")
        .iter()
        .map(|l| {
            let (given, want) = l.split_once(" => ").expect("`given => normalised`");
            (given.to_string(), want.to_string())
        })
        .collect()
}

fn block(path: &str, old: &str, new: &str) -> EditBlock {
    EditBlock::new(Format::SearchReplace, path, old, new)
}

/// A host where every refused path (and its normalised twin) would exist, so
/// that a missed refusal shows as a read or a write.
fn host() -> MemoryHost {
    MemoryHost::with_files([("a.txt", "one\ntwo\n")])
}

fn tool_calls(path: &str) -> Vec<ToolCall> {
    vec![
        ToolCall::new("write_file", json!({ "path": path, "content": "x\n" })),
        ToolCall::new(
            "edit_file",
            json!({ "path": path, "old_string": "one", "new_string": "1" }),
        ),
        ToolCall::new(
            "edit_file",
            json!({ "edits": [{ "path": path, "old_string": "one", "new_string": "1" }] }),
        ),
        ToolCall::new(
            "modify_file",
            json!({ "path": path, "changes": [{ "start": ["one"], "content": ["1"] }] }),
        ),
    ]
}

#[test]
fn fixtures_are_not_empty() {
    assert!(refused().len() > 40 && accepted().len() > 10);
}

#[test]
fn refused_paths_are_refused_by_every_way_in() {
    for path in refused() {
        assert!(
            normalize_path(&path).is_err(),
            "normalize_path accepted {path:?}"
        );

        // EditBlock objects: an edit and a create.
        for b in [block(&path, "one", "1"), block(&path, "", "new")] {
            let mut h = host();
            let r = apply_edits(&[b], &mut h, &ApplyOptions::default());
            let e = &r.results[0];
            assert_eq!(
                (e.status, e.error_kind),
                (Status::Skipped, Some(ErrorKind::PathEscape)),
                "EditBlock {path:?}: {e:?}"
            );
            assert!(
                e.reason.as_deref().unwrap_or("").contains("refused"),
                "{path:?}: {:?}",
                e.reason
            );
            assert!(
                h.reads.is_empty() && h.ops.is_empty(),
                "EditBlock {path:?} touched the host: {:?} {:?}",
                h.reads,
                h.ops
            );
        }

        // Tool calls, each style on its own.
        for call in tool_calls(&path) {
            let mut h = host();
            assert!(
                tool_call_paths(std::slice::from_ref(&call), &ToolOptions::default()).is_empty(),
                "{path:?} listed for reading"
            );
            let r = apply_tool_calls(std::slice::from_ref(&call), &mut h, &ToolOptions::default());
            let e = &r.results[0].edit;
            assert_eq!(
                (e.status, e.error_kind),
                (Status::Skipped, Some(ErrorKind::PathEscape)),
                "{} {path:?}: {e:?}",
                call.name
            );
            assert!(
                h.reads.is_empty() && h.ops.is_empty(),
                "{} {path:?} touched the host",
                call.name
            );
        }

        // Hashline: the path, and the rename target.
        let mut h = host();
        assert!(hashline_paths(
            &json!({ "path": path, "edits": [] }),
            &HashlineOptions::default()
        )
        .is_empty());
        let r = apply_hashline_edit(
            &json!({ "path": path, "delete": true, "edits": [] }),
            &mut h,
            &HashlineOptions::default(),
        );
        assert_eq!(
            (r.status, r.error_kind),
            (Status::Skipped, Some(ErrorKind::PathEscape)),
            "hashline path {path:?}: {}",
            r.message
        );
        let r = apply_hashline_edit(
            &json!({ "path": "a.txt", "rename": path, "edits": [] }),
            &mut h,
            &HashlineOptions::default(),
        );
        assert_eq!(
            (r.status, r.error_kind),
            (Status::Skipped, Some(ErrorKind::PathEscape)),
            "hashline rename {path:?}: {}",
            r.message
        );
        assert!(
            hashline_paths(
                &json!({ "path": "a.txt", "rename": path, "edits": [] }),
                &HashlineOptions::default()
            )
            .is_empty(),
            "a refused rename target reads nothing"
        );
        assert!(
            h.reads.is_empty() && h.ops.is_empty(),
            "hashline {path:?} touched the host: {:?}",
            h.reads
        );
    }
}

#[test]
fn a_text_block_into_git_config_is_refused_before_reading() {
    let reply = "Adding a helper:\n\n.git/config\n<<<<<<< SEARCH\n[core]\n=======\n[core]\n\tfsmonitor = \"touch /tmp/pwned\"\n>>>>>>> REPLACE\n";
    let mut h = MemoryHost::with_files([(".git/config", "[core]\n\tbare = false\n")]);
    let r = apply_reply(reply, &mut h, &ApplyOptions::default());
    assert_eq!(r.results.len(), 1, "the block parses");
    assert_eq!(r.results[0].error_kind, Some(ErrorKind::PathEscape));
    assert!(h.reads.is_empty() && h.ops.is_empty());
}

#[test]
fn accepted_paths_work_through_every_way_in() {
    for (given, want) in accepted() {
        assert_eq!(
            normalize_path(&given).as_deref(),
            Ok(want.as_str()),
            "{given:?}"
        );

        let mut h = MemoryHost::new();
        let r = apply_edits(
            &[block(&given, "", "new")],
            &mut h,
            &ApplyOptions::default(),
        );
        assert_eq!(
            r.results[0].status,
            Status::Applied,
            "EditBlock {given:?}: {:?}",
            r.results[0].reason
        );
        assert_eq!(h.text(&want).as_deref(), Some("new\n"));

        let mut h = MemoryHost::new();
        let r = apply_tool_calls(
            &[ToolCall::new(
                "write_file",
                json!({ "path": given, "content": "x\n" }),
            )],
            &mut h,
            &ToolOptions::default(),
        );
        assert!(r.ok, "write_file {given:?}: {:?}", r.errors);
        assert_eq!(h.text(&want).as_deref(), Some("x\n"));

        let mut h = host();
        let r = apply_hashline_edit(
            &json!({ "path": "a.txt", "rename": given, "edits": [] }),
            &mut h,
            &HashlineOptions::default(),
        );
        assert_eq!(
            r.status,
            Status::Applied,
            "hashline rename {given:?}: {}",
            r.message
        );
        assert_eq!(h.text(&want).as_deref(), Some("one\ntwo\n"));
    }
}

#[test]
fn allow_folders_widens_only_the_folders_named() {
    let allow = vec![".git/info".to_string()];
    assert_eq!(
        confine(".git/info/exclude", &allow).as_deref(),
        Ok(".git/info/exclude")
    );

    // Every way in honours the option...
    let opts = ApplyOptions {
        allow_folders: allow.clone(),
        ..ApplyOptions::default()
    };
    let mut h = MemoryHost::new();
    let r = apply_edits(&[block(".git/info/exclude", "", "target/")], &mut h, &opts);
    assert_eq!(
        r.results[0].status,
        Status::Applied,
        "{:?}",
        r.results[0].reason
    );
    assert_eq!(h.text(".git/info/exclude").as_deref(), Some("target/\n"));

    let topts = ToolOptions {
        allow_folders: allow.clone(),
        ..ToolOptions::default()
    };
    let mut h = MemoryHost::new();
    let r = apply_tool_calls(
        &[ToolCall::new(
            "write_file",
            json!({ "path": ".git/info/exclude", "content": "x\n" }),
        )],
        &mut h,
        &topts,
    );
    assert!(r.ok, "{:?}", r.errors);

    let hopts = HashlineOptions {
        allow_folders: allow.clone(),
        ..HashlineOptions::default()
    };
    let mut h = host();
    let r = apply_hashline_edit(
        &json!({ "path": "a.txt", "rename": ".git/info/exclude", "edits": [] }),
        &mut h,
        &hopts,
    );
    assert_eq!(r.status, Status::Applied, "{}", r.message);

    // ...and nothing else: other folders, other spellings, escapes through `..`.
    for other in [
        ".git/config",
        ".git/hooks/pre-commit",
        ".GIT/info/exclude",
        "git~1/info/exclude",
        ".git/info/../hooks/x",
        ".git/info",
        ".hg/hgrc",
    ] {
        let mut h = MemoryHost::new();
        let r = apply_edits(&[block(other, "", "x")], &mut h, &opts);
        assert_eq!(
            r.results[0].error_kind,
            Some(ErrorKind::PathEscape),
            "{other:?} with allow_folders [.git/info]"
        );
        assert!(h.ops.is_empty());
    }
}

#[test]
fn refusals_say_what_was_wrong_and_how_to_fix_it() {
    let reason = normalize_path(".GIT/hooks/pre-commit").unwrap_err().reason;
    assert!(
        reason.contains("version-control metadata") && reason.contains("allowFolders"),
        "{reason}"
    );
    let reason = normalize_path("a\u{202E}b").unwrap_err().reason;
    assert!(
        reason.contains("U+202E") && reason.contains("relative to the project root"),
        "{reason}"
    );
    let reason = normalize_path("a\u{FFFD}b").unwrap_err().reason;
    assert!(reason.contains("U+FFFD"), "{reason}");
}

/// Patch replies (apply-patch and unified diff): every path a patch names —
/// the file, a move or rename target — goes through the one check.
#[test]
fn refused_paths_are_refused_in_patches() {
    for path in refused() {
        // A path with a line break cannot be one line of a patch; a tab in a
        // diff header starts its timestamp.
        if path.contains(['\n', '\r', '\t']) || path.trim().is_empty() || path.trim() != path {
            continue;
        }
        let replies = [
            format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n"),
            format!("*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n"),
            format!("*** Begin Patch\n*** Update File: {path}\n@@\n-one\n+1\n*** End Patch\n"),
            format!("*** Begin Patch\n*** Update File: a.txt\n*** Move to: {path}\n@@\n-one\n+1\n*** End Patch\n"),
            format!("```diff\n--- a/a.txt\n+++ b/{path}\n@@ -1,2 +1,2 @@\n-one\n+1\n two\n```\n"),
            format!("```diff\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x\n```\n"),
            format!("```diff\ndiff --git a/a.txt b/{path}\nsimilarity index 100%\nrename from a.txt\nrename to {path}\n```\n"),
        ];
        for reply in replies {
            let mut h = host();
            let r = apply_reply(&reply, &mut h, &ApplyOptions::default());
            assert!(h.ops.is_empty(), "{reply:?} wrote: {:?}", h.ops);
            assert!(
                h.reads.iter().all(|p| p == "a.txt"),
                "{reply:?} read {:?}",
                h.reads
            );
            assert_eq!(h.text("a.txt").as_deref(), Some("one\ntwo\n"));
            let _ = r;
        }
    }
}

/// A path the model misspelt or wrote without its folder is resolved against
/// the known files; a known file the path check refuses (inside `.git`, out
/// of the root) is never the answer.
#[test]
fn known_files_never_resolve_into_refused_paths() {
    for (given, known) in [
        ("config", ".git/config"),
        ("hooks/pre-commit", ".git/hooks/pre-commit"),
        ("passwd", "../etc/passwd"),
        ("passwd", "/etc/passwd"),
        ("confg", ".git/config"),
    ] {
        let mut h = MemoryHost::with_files([
            (known.trim_start_matches(['.', '/']), "[core]\n"),
            (".git/config", "[core]\n"),
            (".git/hooks/pre-commit", "[core]\n"),
        ]);
        let opts = ApplyOptions {
            known_files: Some(vec![known.to_string()]),
            ..ApplyOptions::default()
        };
        let r = apply_edits(
            &[block(
                given,
                "[core]",
                "[core]\n\tfsmonitor = \"touch /tmp/pwned\"",
            )],
            &mut h,
            &opts,
        );
        let e = &r.results[0];
        assert_ne!(
            e.status,
            Status::Applied,
            "{given:?} resolved to {known:?}: {e:?}"
        );
        assert!(
            h.ops.is_empty(),
            "{given:?} with known {known:?} wrote: {:?}",
            h.ops
        );
        assert!(
            h.reads.iter().all(|p| p == given),
            "{given:?} with known {known:?} read {:?}",
            h.reads
        );
    }
}

#[test]
fn paths_that_name_one_file_are_refused_together_and_the_others_are_not() {
    use editblocks::same_file_refusals;
    let paths: Vec<String> = ["a.txt", "link/a.txt", "b.txt", "c\n.txt", "d.txt"]
        .map(String::from)
        .to_vec();
    let reals = [
        Some("a.txt".to_string()),
        Some("a.txt".to_string()),
        None,
        Some("d.txt".to_string()),
        // Unresolved: taken as itself, so it is the file c\n.txt resolved to.
        None,
    ];
    let refused = same_file_refusals(&paths, &reals);
    let one = "\"a.txt\" and \"link/a.txt\" name the same file (\"a.txt\", through a symbolic link); edit it under one name only";
    let other = "\"c\\n.txt\" and \"d.txt\" name the same file (\"d.txt\", through a symbolic link); edit it under one name only";
    assert_eq!(
        refused,
        [
            Some(one.to_string()),
            Some(one.to_string()),
            None,
            Some(other.to_string()),
            Some(other.to_string()),
        ]
    );
    // No host resolution at all: nothing is refused.
    assert_eq!(same_file_refusals(&paths, &[]), vec![None; 5]);
}
