//! Unit tests on blocks built directly (the reply-based fixtures live in
//! `tests/fixtures/engine/`).

use super::*;
use crate::host::{HostOp, MemoryHost};
use crate::{apply_edits, required_paths};

fn block(
    format: Format,
    path: &str,
    anchor: &str,
    old: &str,
    new: &str,
    trailing: &str,
) -> EditBlock {
    EditBlock {
        format,
        file_path: path.into(),
        anchor: anchor.into(),
        old_lines: old.into(),
        new_lines: new.into(),
        trailing_anchor: trailing.into(),
        raw_block: String::new(),
        line_number: 1,
        assumed: Vec::new(),
        line_hint: None,
        patch: None,
    }
}

fn repl(path: &str, anchor: &str, old: &str, new: &str) -> EditBlock {
    block(Format::EditRepl, path, anchor, old, new, "")
}

const MATH: &str =
    "def add(a, b):\n    return a + b\n\ndef multiply(a, b):\n    return a + b  # BUG\n";

#[test]
fn replaces_and_keeps_surroundings() {
    let (out, r) = apply_to_content(
        &repl(
            "m.py",
            "def multiply(a, b):",
            "    return a + b  # BUG",
            "    return a * b",
        ),
        MATH,
        &ApplyOptions::default(),
    );
    assert_eq!(r.status, Status::Applied);
    assert_eq!(r.estimated_line, Some(4));
    assert_eq!(
        out,
        "def add(a, b):\n    return a + b\n\ndef multiply(a, b):\n    return a * b\n"
    );
}

#[test]
fn ambiguous_names_every_line() {
    let v = validate_edit(
        &repl("m.py", "", "    return a + b", "x"),
        "    return a + b\nz\n    return a + b\n",
        &ApplyOptions::default(),
    );
    assert!(!v.ok);
    assert_eq!(v.error_kind, Some(ErrorKind::Ambiguous));
    assert!(v
        .reason
        .as_deref()
        .unwrap()
        .starts_with("Edit location is ambiguous (matches at lines 1 and 3)."));
    assert_eq!(v.diagnostics.unwrap().match_lines, [1, 3]);
}

#[test]
fn finds_whole_line_sequences() {
    let mut doc = Doc::from_text_file(TextFile::from_text("a\nb\na\nb\nab\n"));
    assert_eq!(doc.find_all(&["a", "b"]), [0, 2]);
    assert_eq!(doc.find_all(&["b", "ab"]), [3]);
    assert_eq!(
        doc.find_all(&["a", "b", "a", "b", "ab", "x"]),
        Vec::<usize>::new()
    );
    assert_eq!(doc.find_all(&[]), Vec::<usize>::new());
    doc.splice(1..3, &["z"]);
    assert_eq!(
        doc.find_all(&["z", "b"]),
        [1],
        "hashes follow the lines through a splice"
    );
}

#[test]
fn whole_lines_only() {
    // "b" occurs inside "abc" but not as a whole line.
    let v = validate_edit(&repl("f", "", "b", "c"), "abc\n", &ApplyOptions::default());
    assert_eq!(v.error_kind, Some(ErrorKind::OldMismatch));
}

#[test]
fn says_which_part_failed() {
    let file = "fn a() {\n    one();\n    two();\n}\n";
    let anchored = |anchor: &str, old: &str, trailing: &str| {
        block(Format::Anchored, "f.rs", anchor, old, "    x();", trailing)
    };
    let o = ApplyOptions::default();
    let v = validate_edit(&anchored("fn b() {", "    one();", ""), file, &o);
    assert_eq!(v.error_kind, Some(ErrorKind::AnchorNotFound));
    assert!(v
        .reason
        .unwrap()
        .starts_with("Leading anchor not found in file: f.rs has no line `fn b() {`."));
    let v = validate_edit(&anchored("fn a() {", "    uno();", ""), file, &o);
    assert_eq!(v.error_kind, Some(ErrorKind::OldMismatch));
    assert_eq!(v.estimated_line, Some(2));
    assert!(v.reason.unwrap().starts_with("Old lines don't match content after anchor: 1 line matches from line 1 of f.rs, but line 2 is `    one();` where the edit has `    uno();`"));
    let v = validate_edit(
        &anchored("fn a() {", "    one();", "    three();"),
        file,
        &o,
    );
    assert_eq!(v.error_kind, Some(ErrorKind::TrailingMismatch));
    assert_eq!(v.estimated_line, Some(3));
}

#[test]
fn names_tabs_against_spaces() {
    let v = validate_edit(
        &repl(
            "f.go",
            "func main() {",
            "    fmt.Println(1)",
            "    fmt.Println(2)",
        ),
        "func main() {\n\tfmt.Println(1)\n}\n",
        &ApplyOptions::default(),
    );
    let d = v.diagnostics.unwrap();
    assert_eq!(d.failed_part.as_deref(), Some("old"));
    assert!(d
        .whitespace
        .unwrap()
        .starts_with("tabs vs spaces: line 2 of the file indents with tabs, the edit with spaces"));
    assert_eq!(d.nearest.first().map(|n| n.line), Some(2));
}

#[test]
fn whitespace_named_when_the_anchor_is_nowhere() {
    let v = validate_edit(
        &repl("f.py", "def f():   ", "    pass", "    return 1"),
        "x = 1\ndef f():\n    pass\n",
        &ApplyOptions::default(),
    );
    assert_eq!(v.error_kind, Some(ErrorKind::AnchorNotFound));
    assert_eq!(v.estimated_line, Some(2));
    assert!(v
        .reason
        .unwrap()
        .contains("line 2 differs only in whitespace: trailing whitespace"));
}

#[test]
fn crlf_bom_and_missing_final_newline_are_kept() {
    let (out, _) = apply_to_content(
        &repl("f", "a", "b", "c"),
        "\u{feff}a\r\nb\r\nd",
        &ApplyOptions::default(),
    );
    assert_eq!(out, "\u{feff}a\r\nc\r\nd");
    let ensure = ApplyOptions {
        trailing_newline: TrailingNewline::Ensure,
        ..ApplyOptions::default()
    };
    let (out, _) = apply_to_content(&repl("f", "a", "b", "c"), "a\nb", &ensure);
    assert_eq!(out, "a\nc\n");
}

#[test]
fn blank_lines_at_the_end_survive() {
    let o = ApplyOptions::default();
    let (out, _) = apply_to_content(&repl("f", "a", "b", "c"), "a\nb\n\n", &o);
    assert_eq!(out, "a\nc\n\n");
    let (out, _) = apply_to_content(&repl("f", "a", "b", "c"), "a\nb\n\n\n", &o);
    assert_eq!(out, "a\nc\n\n\n");
    let (out, _) = apply_to_content(&repl("f", "", "a", ""), "a\n\n", &o);
    assert_eq!(out, "\n");
    let (out, _) = apply_to_content(&repl("f", "", "", "x\n"), "", &o);
    assert_eq!(
        out, "x\n\n",
        "a create keeps the blank last line it was given"
    );
}

#[test]
fn deleting_and_inserting_at_the_ends() {
    let o = ApplyOptions::default();
    let (out, _) = apply_to_content(
        &block(Format::Anchored, "f", "", "", "first", "a"),
        "a\nb\n",
        &o,
    );
    assert_eq!(out, "first\na\nb\n");
    let (out, _) = apply_to_content(
        &block(Format::Anchored, "f", "b", "", "last", ""),
        "a\nb\n",
        &o,
    );
    assert_eq!(out, "a\nb\nlast\n");
    let (out, _) = apply_to_content(
        &block(Format::Anchored, "f", "", "a\nb", "", ""),
        "a\nb\n",
        &o,
    );
    assert_eq!(out, "");
}

#[test]
fn no_op_is_skipped_not_failed() {
    let mut host = MemoryHost::with_files([("f", "a\nb\n")]);
    let blocks = [repl("f", "a", "b", "b"), repl("f", "a", "b", "c")];
    let r = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    assert_eq!(r.results[0].status, Status::Skipped);
    assert_eq!(r.results[0].error_kind, Some(ErrorKind::NoOp));
    assert_eq!(r.results[1].status, Status::Applied);
    assert_eq!(host.text("f").unwrap(), "a\nc\n");
}

#[test]
fn sequential_skips_rest_of_failed_file_and_goes_on() {
    let mut host = MemoryHost::with_files([("a", "1\n2\n3\n"), ("b", "x\n")]);
    let blocks = [
        repl("a", "1", "2", "two"),
        repl("a", "nope", "", "z"),
        repl("a", "1", "two", "2"),
        repl("b", "", "x", "y"),
    ];
    let r = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    let statuses: Vec<Status> = r.results.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Applied,
            Status::Failed,
            Status::Skipped,
            Status::Applied
        ]
    );
    assert_eq!(r.results[2].error_kind, Some(ErrorKind::PreviousFailed));
    assert_eq!(
        host.text("a").unwrap(),
        "1\ntwo\n3\n",
        "earlier successes stay"
    );
    assert_eq!(host.text("b").unwrap(), "y\n");
    assert_eq!(r.files_modified, ["a", "b"]);
    assert_eq!(
        host.ops.last(),
        Some(&HostOp::Stage {
            paths: vec!["a".into(), "b".into()]
        })
    );
}

#[test]
fn atomic_writes_nothing_after_a_failure() {
    let mut host = MemoryHost::with_files([("a", "1\n"), ("b", "x\n")]);
    let opts = ApplyOptions {
        mode: Mode::Atomic,
        ..ApplyOptions::default()
    };
    let r = apply_edits(
        &[repl("a", "", "1", "one"), repl("b", "", "nope", "y")],
        &mut host,
        &opts,
    );
    assert_eq!(r.results[0].status, Status::Skipped);
    assert_eq!(r.results[0].error_kind, Some(ErrorKind::AtomicAborted));
    assert_eq!(r.results[1].status, Status::Failed);
    assert!(host.ops.is_empty());
    assert!(r.files_modified.is_empty());
}

#[test]
fn refused_paths_are_never_read() {
    let mut host = MemoryHost::with_files([("a", "1\n")]);
    let blocks = [
        repl("../etc/passwd", "", "root", "x"),
        repl("/abs", "", "1", "2"),
        repl("./a", "", "1", "2"),
    ];
    assert_eq!(required_paths(&blocks, &ApplyOptions::default()), ["a"]);
    let r = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    assert_eq!(host.reads, ["a"]);
    assert_eq!(r.results[0].status, Status::Skipped);
    assert_eq!(r.results[0].error_kind, Some(ErrorKind::PathEscape));
    assert_eq!(r.results[2].path, "a");
}

#[test]
fn creates_and_refuses_to_clobber() {
    let mut host = MemoryHost::with_files([("old.txt", "keep\n")]);
    let blocks = [
        repl("new/dir/x.py", "", "", "print(1)"),
        repl("old.txt", "", "", "lost"),
    ];
    let r = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    assert_eq!(r.results[0].status, Status::Applied);
    assert_eq!(host.text("new/dir/x.py").unwrap(), "print(1)\n");
    assert_eq!(r.results[1].error_kind, Some(ErrorKind::FileExists));
    assert_eq!(host.text("old.txt").unwrap(), "keep\n");
    assert_eq!(r.files_created, ["new/dir/x.py"]);
    let mut host = MemoryHost::with_files([("old.txt", "keep\n")]);
    let r = apply_edits(
        &blocks[1..],
        &mut host,
        &ApplyOptions {
            overwrite: true,
            ..ApplyOptions::default()
        },
    );
    assert_eq!(r.results[0].status, Status::Applied);
    assert_eq!(host.text("old.txt").unwrap(), "lost\n");
}

#[test]
fn tolerant_matching_reports_its_pass() {
    let opts = ApplyOptions {
        matching: Matching::Tolerant,
        ..ApplyOptions::default()
    };
    let (out, r) = apply_to_content(
        &repl("f", "", "let x = 1;", "let x = 2;"),
        "let x = 1;  \n",
        &opts,
    );
    assert_eq!(
        (r.status, r.matched_by.as_deref()),
        (Status::Applied, Some("trailing-whitespace"))
    );
    assert_eq!(out, "let x = 2;\n");
    // Old lines are whole lines: text inside a line is never a match, and
    // never a cut-off line whose rest would be dropped.
    let (out, r) = apply_to_content(
        &repl("f", "", "let x = 1;", "let x = 2;"),
        "    let x = 1; // one\n",
        &opts,
    );
    assert_eq!(
        (r.status, r.error_kind, out.as_str()),
        (
            Status::Failed,
            Some(ErrorKind::OldMismatch),
            "    let x = 1; // one\n"
        )
    );
    let v = validate_edit(
        &repl("f", "", "let x = 1;", "let x = 2;"),
        "    let x = 1; // one\n",
        &ApplyOptions::default(),
    );
    assert!(!v.ok, "exact matching never accepts a partial line");
}

#[test]
fn retry_prompt_only_for_ambiguous() {
    let mut host = MemoryHost::with_files([("a", "x\nx\n"), ("b", "y\n")]);
    let r = apply_edits(
        &[repl("b", "", "nope", "z")],
        &mut host,
        &ApplyOptions::default(),
    );
    assert_eq!(r.retry_prompt, None);
    let r = apply_edits(
        &[repl("a", "", "x", "z"), repl("b", "", "nope", "z")],
        &mut host,
        &ApplyOptions::default(),
    );
    let prompt = r.retry_prompt.unwrap();
    assert!(
        prompt.contains("- a (2 matches): Edit location is ambiguous (matches at lines 1 and 2).")
    );
    assert!(!prompt.contains("- b"));
}

#[test]
fn options_read_from_camel_case_json() {
    let o: ApplyOptions = serde_json::from_str(r#"{"dryRun":true,"mode":"atomic","matching":"tolerant","inContext":["a"],"trailingNewline":"ensure"}"#).unwrap();
    assert!(o.dry_run && o.stage);
    assert_eq!(
        (o.mode, o.matching, o.trailing_newline),
        (Mode::Atomic, Matching::Tolerant, TrailingNewline::Ensure)
    );
    assert!(serde_json::from_str::<ApplyOptions>(r#"{"dryrun":true}"#).is_err());
}

fn tolerant() -> ApplyOptions {
    ApplyOptions {
        matching: Matching::Tolerant,
        ..ApplyOptions::default()
    }
}

#[test]
fn content_with_a_nul_byte_is_binary() {
    let content = "PK\u{3}\u{4}\0\0header\nb\n";
    let b = repl("f.bin", "PK\u{3}\u{4}\0\0header", "b", "B");
    let v = validate_edit(&b, content, &ApplyOptions::default());
    assert!(!v.ok);
    assert_eq!(v.error_kind, Some(ErrorKind::Binary));
    assert!(v
        .reason
        .as_deref()
        .unwrap()
        .starts_with("Cannot edit binary file: f.bin has a NUL byte"));
    let (out, r) = apply_to_content(&b, content, &ApplyOptions::default());
    assert_eq!(
        (r.status, r.error_kind, out.as_str()),
        (Status::Failed, Some(ErrorKind::Binary), content)
    );
}

#[test]
fn mixed_endings_match_as_lf_in_every_mode() {
    let b = repl("f", "a", "b", "B");
    for opts in [ApplyOptions::default(), tolerant()] {
        let (out, r) = apply_to_content(&b, "a\r\nb\nc\r\n", &opts);
        assert_eq!(
            (r.status, r.matched_by.as_deref()),
            (Status::Applied, Some("exact"))
        );
        assert_eq!(out, "a\r\nB\r\nc\r\n");
        // Majority LF: the untouched CRLF anchor keeps its CRLF.
        let (out, _) = apply_to_content(&b, "a\r\nb\nc\n", &opts);
        assert_eq!(out, "a\r\nB\nc\n");
    }
}

#[test]
fn tolerant_never_matches_inside_a_line() {
    let (out, r) = apply_to_content(
        &repl("f", "x = 1", "y = 2", "y = 3"),
        "max = 1\ny = 2\n",
        &tolerant(),
    );
    assert_eq!(
        (r.status, r.error_kind, out.as_str()),
        (
            Status::Failed,
            Some(ErrorKind::AnchorNotFound),
            "max = 1\ny = 2\n"
        )
    );
    let sr = block(Format::SearchReplace, "f", "", "count", "x = 1", "");
    let (out, r) = apply_to_content(&sr, "def foo():\n    return total_count\n", &tolerant());
    assert_eq!(
        (r.status, out.as_str()),
        (Status::Failed, "def foo():\n    return total_count\n")
    );
    let (_, r) = apply_to_content(
        &repl("f", "if ok:", "    run", "    stop()"),
        "if ok:\n    run_all()\n",
        &tolerant(),
    );
    assert_eq!(r.error_kind, Some(ErrorKind::OldMismatch));
}

#[test]
fn tolerant_keeps_the_files_context_lines() {
    let b = block(
        Format::Anchored,
        "f",
        "def f():",
        "    return 1",
        "    return 2",
        "# end",
    );
    let (out, r) = apply_to_content(&b, "def f():   \n    return 1\n# end\t\n", &tolerant());
    assert_eq!(
        (r.matched_by.as_deref(), out.as_str()),
        (
            Some("trailing-whitespace"),
            "def f():   \n    return 2\n# end\t\n"
        )
    );
    // The whitespace pass re-indents the new lines only; the anchor is the file's.
    let (out, r) = apply_to_content(
        &repl("f", "if x:", "  y = 1", "  y = 2"),
        "    if x:   \n      y = 1\n",
        &tolerant(),
    );
    assert_eq!(
        (r.matched_by.as_deref(), out.as_str()),
        (Some("whitespace"), "    if x:   \n      y = 2\n")
    );
    // Blank lines in the sequence are whole lines too.
    let (out, r) = apply_to_content(&repl("f", "a \n", "b", "x"), "a\n\nb\n", &tolerant());
    assert_eq!((r.status, out.as_str()), (Status::Applied, "a\n\nx\n"));
    let (_, r) = apply_to_content(&repl("f", "a \n", "b", "x"), "a\nz\nb\n", &tolerant());
    assert_eq!(
        r.error_kind,
        Some(ErrorKind::AnchorNotFound),
        "a blank anchor line must match a blank file line"
    );
}

#[test]
fn tolerant_deletion_removes_the_line() {
    let del = block(Format::SearchReplace, "f", "", "    debug()", "", "");
    for (before, after) in [
        (
            "def f():\n    debug()\n    run()\n",
            "def f():\n    run()\n",
        ),
        (
            "def f():\n    debug() \n    run()\n",
            "def f():\n    run()\n",
        ),
        ("def f():\n  debug()\n  run()\n", "def f():\n  run()\n"),
    ] {
        let (out, r) = apply_to_content(&del, before, &tolerant());
        assert_eq!(
            (r.status, out.as_str()),
            (Status::Applied, after),
            "{before:?}"
        );
    }
}

#[test]
fn no_final_newline_keeps_untouched_blank_lines() {
    let del = block(Format::SearchReplace, "f", "", "# end", "", "");
    let (out, _) = apply_to_content(
        &del,
        "def f():\n    pass\n\n# end",
        &ApplyOptions::default(),
    );
    assert_eq!(out, "def f():\n    pass\n");
    let (out, _) = apply_to_content(
        &del,
        "def f():\n    pass\n\n# end",
        &ApplyOptions {
            trailing_newline: TrailingNewline::Ensure,
            ..ApplyOptions::default()
        },
    );
    assert_eq!(out, "def f():\n    pass\n\n");
    let (out, _) = apply_to_content(
        &repl("f", "x = 1", "", "y = 2\n"),
        "x = 1",
        &ApplyOptions::default(),
    );
    assert_eq!(out, "x = 1\ny = 2\n");
    let (out, _) = apply_to_content(&del, "# end", &ApplyOptions::default());
    assert_eq!(out, "");
}
