//! A unified diff whose `---` line names another file than its `+++` line
//! (with no rename lines) edits the `+++` file; the parser keeps the `---`
//! name in the block (`oldPath`), and the refusal of a missing `+++` file
//! names it from there. Applying never reads the block's raw text.

use editblocks::engine::ApplyOptions;
use editblocks::parser::{parse_edits, ParseOptions};
use editblocks::{apply_edits, EditBlock, ErrorKind, MemoryHost};

const OTHER_NAMES: &str = "--- util.py\n+++ helpers.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n";

fn one_block(reply: &str) -> EditBlock {
    let mut blocks = parse_edits(reply, &ParseOptions::default());
    assert_eq!(blocks.len(), 1, "{reply}");
    blocks.remove(0)
}

fn old_path(reply: &str) -> Option<String> {
    one_block(reply).patch.and_then(|op| op.old_path)
}

/// The reason the block was refused with, on a host holding only `util.py`.
fn refusal(block: &EditBlock) -> String {
    let mut host = MemoryHost::with_files([("util.py", "def add(a, b):\n    return a - b\n")]);
    let result = apply_edits(
        std::slice::from_ref(block),
        &mut host,
        &ApplyOptions::default(),
    );
    let only = &result.results[0];
    assert_eq!(only.error_kind, Some(ErrorKind::FileNotFound));
    only.reason.clone().expect("a refusal has a reason")
}

#[test]
fn the_minus_name_is_kept_only_when_it_names_another_file() {
    assert_eq!(old_path(OTHER_NAMES).as_deref(), Some("util.py"));
    // `a/` is dropped, as the `+++` side's `b/` is.
    let prefixed = OTHER_NAMES.replace("--- util.py", "--- a/util.py");
    assert_eq!(old_path(&prefixed).as_deref(), Some("util.py"));
    for same in [
        "--- helpers.py\n+++ helpers.py\n@@ -1 +1 @@\n-a\n+b\n",
        "--- a/helpers.py\n+++ b/helpers.py\n@@ -1 +1 @@\n-a\n+b\n",
        "--- /dev/null\n+++ helpers.py\n@@ -0,0 +1 @@\n+b\n",
        // A rename says what it does: the block moves the file instead.
        "diff --git a/util.py b/helpers.py\nrename from util.py\nrename to helpers.py\n--- a/util.py\n+++ b/helpers.py\n@@ -1 +1 @@\n-a\n+b\n",
    ] {
        assert_eq!(old_path(same), None, "{same}");
    }
}

#[test]
fn the_refusal_names_the_minus_file_from_the_block_not_its_raw_text() {
    let parsed = one_block(OTHER_NAMES);
    let hint = "The `---` line names util.py";
    assert!(refusal(&parsed).contains(hint), "{}", refusal(&parsed));
    // Without its raw text the block still says which file the `---` line meant.
    let without_raw = EditBlock {
        raw_block: String::new(),
        ..parsed.clone()
    };
    assert_eq!(refusal(&without_raw), refusal(&parsed));
    // Raw text is not read: a block that carries no `oldPath` gets no hint,
    // whatever its raw text says.
    let mut without_old_path = parsed;
    without_old_path.patch.as_mut().unwrap().old_path = None;
    assert!(!refusal(&without_old_path).contains(hint));
}
