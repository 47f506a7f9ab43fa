use super::*;
use crate::parser::{EditStream, ParseOptions};

const FILE: &str = "fn a() {\n    x();\n}\nfn b() {\n    x();\n}\nfn c() {\n    y();\n}\n";

fn feed_all(session: &mut PreviewSession, reply: &str, chunk: usize) -> Vec<PreviewEvent> {
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut out = Vec::new();
    let chars: Vec<char> = reply.chars().collect();
    for piece in chars.chunks(chunk) {
        let s: String = piece.iter().collect();
        for e in stream.feed(&s) {
            out.extend(session.on_event(&e));
        }
    }
    for e in stream.finish() {
        out.extend(session.on_event(&e));
    }
    out
}

#[test]
fn candidates_narrow_line_by_line() {
    let mut p = BlockPreview::new("a.rs", Some(FILE));
    assert_eq!(p.state(), PreviewState::Waiting);
    p.push(Section::Search, &["    x();"]);
    assert_eq!(
        p.state(),
        PreviewState::Searching {
            count: 2,
            lines: vec![2, 5]
        }
    );
    assert!(p.take_events().is_empty());
    p.push(Section::Search, &["}", "fn c() {"]);
    assert_eq!(p.state(), PreviewState::Located { line: 5 });
    assert_eq!(
        p.take_events(),
        [PreviewEvent::BlockLocated {
            file_path: "a.rs".into(),
            line: 5
        }]
    );
    p.push(Section::Replace, &["    z();"]);
    // The old lines are replaced by the new lines written so far.
    assert_eq!(
        p.content_after().as_deref(),
        Some("fn a() {\n    x();\n}\nfn b() {\n    z();\n    y();\n}\n")
    );
}

#[test]
fn unmatched_as_soon_as_no_place_is_left() {
    let mut p = BlockPreview::new("a.rs", Some(FILE));
    p.push(Section::Search, &["fn b() {", "    q();"]);
    match p.state() {
        PreviewState::NoMatch {
            since,
            error_kind,
            reason,
        } => {
            assert_eq!(since, 2);
            assert_eq!(error_kind, "old-mismatch");
            assert!(reason.contains("line 5 is `    x();`"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let events = p.take_events();
    assert!(
        matches!(
            &events[..],
            [
                PreviewEvent::BlockLocated { line: 4, .. },
                PreviewEvent::BlockUnmatched { since: 2, .. }
            ]
        ),
        "{events:?}"
    );
}

#[test]
fn ambiguous_when_the_old_text_ends_at_several_places() {
    let mut p = BlockPreview::new("a.rs", Some(FILE));
    p.push(Section::Search, &["    x();", "}"]);
    assert!(matches!(
        p.state(),
        PreviewState::Searching { count: 2, .. }
    ));
    p.push(Section::Replace, &["    z();"]);
    match p.state() {
        PreviewState::Ambiguous { lines, reason } => {
            assert_eq!(lines, [2, 5]);
            assert!(reason.contains("ambiguous"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn session_matches_validate_in_any_chunking() {
    let reply = "a.rs\n<<<<<<< SEARCH\n    y();\n=======\n    w();\n>>>>>>> REPLACE\n\na.rs\n««« EDIT\nfn b() {\n    x();\n═══════ REPL\nfn b() {\n    v();\n»»» EDIT END\n";
    let mut first = None;
    for chunk in [1, 2, 3, 7, 1000] {
        let mut s = PreviewSession::new([("a.rs", FILE)]);
        let events = feed_all(&mut s, reply, chunk);
        assert_eq!(
            s.file("a.rs"),
            Some("fn a() {\n    x();\n}\nfn b() {\n    v();\n}\nfn c() {\n    w();\n}\n")
        );
        match &first {
            None => first = Some(events),
            Some(f) => assert_eq!(&events, f, "chunk {chunk}"),
        }
    }
    let events = first.unwrap_or_default();
    assert_eq!(
        events,
        [
            PreviewEvent::BlockLocated {
                file_path: "a.rs".into(),
                line: 8
            },
            PreviewEvent::BlockLocated {
                file_path: "a.rs".into(),
                line: 4
            }
        ]
    );
}

#[test]
fn missing_file_and_create() {
    let mut p = BlockPreview::new("n.rs", None);
    p.push(Section::Search, &["x"]);
    assert!(
        matches!(p.state(), PreviewState::NoMatch { since: 0, ref error_kind, .. } if error_kind == "file-not-found")
    );
    let mut c = BlockPreview::new("n.rs", None);
    c.push(Section::Repl, &["hello"]);
    assert_eq!(c.state(), PreviewState::Create);
    assert_eq!(c.content_after().as_deref(), Some("hello\n"));
    let mut e = BlockPreview::new("a.rs", Some(FILE));
    e.push(Section::Replace, &["hello"]);
    assert!(
        matches!(e.state(), PreviewState::NoMatch { ref error_kind, .. } if error_kind == "file-exists")
    );
}

#[test]
fn render_delta_appends_only_new_rows() {
    let mut p = BlockPreview::new("a.rs", Some(FILE));
    let first = p.render_delta(None);
    assert!(first.reset.is_some());
    p.push(Section::Search, &["fn c() {", "    y();"]);
    let located = p.render_delta(Some("}"));
    let html = located
        .reset
        .expect("located: drawn again with line numbers");
    assert!(html.contains("data-preview-state=\"located\""), "{html}");
    assert!(html.contains("data-old-line=\"7\""), "{html}");
    p.push(Section::Replace, &["fn c() {"]);
    let _ = p.render_delta(None);
    p.push(Section::Replace, &["    yy();"]);
    let d = p.render_delta(Some("    more"));
    assert!(d.reset.is_none());
    assert!(
        d.append.contains("eb-line-added") && d.append.contains("data-new-line=\"8\""),
        "{d:?}"
    );
    assert!(d.append.contains("eb-change"), "{d:?}");
    assert_eq!(d.replace.len(), 1, "{d:?}");
    assert!(d.partial.as_deref().is_some_and(|h| h.contains("more")));
    let again = p.render_delta(Some("    more"));
    assert_eq!(again, PreviewHtml::default());
}

#[test]
fn unlocated_preview_draws_without_a_file() {
    let mut p = BlockPreview::unlocated("a.rs");
    p.push(Section::Search, &["x", "y"]);
    assert_eq!(p.state(), PreviewState::Unlocated);
    assert!(p.take_events().is_empty());
    let first = p.render_delta(None).reset.unwrap_or_default();
    assert!(
        first.contains("data-preview-state=\"unlocated\"") && first.contains(">y<"),
        "{first}"
    );
    p.push(Section::Replace, &[] as &[&str]);
    let _ = p.render_delta(None);
    p.push(Section::Replace, &["z"]);
    let d = p.render_delta(Some("w"));
    assert!(
        d.reset.is_none() && d.append.contains(">z<") && !d.append.contains("data-new-line"),
        "{d:?}"
    );
    assert_eq!(p.content_after(), None);
}

#[test]
fn the_template_block_exists() {
    assert!(template_block().is_some_and(|b| b.format == Format::SearchReplace));
}

#[test]
fn patch_preview_states_for_binary_files_added_files_and_deletes() {
    use crate::block::Format;
    use crate::patch::Operation;
    use crate::preview::PatchPreview;
    let mut bin = PatchPreview::new("b.bin", Format::ApplyPatch, Some("a\0b\n"));
    bin.push(&["@@", " a"]);
    assert!(
        matches!(bin.state(), PreviewState::NoMatch { ref error_kind, since: 0, .. } if error_kind == "binary")
    );
    assert_eq!(bin.take_events().len(), 1);
    let mut add = PatchPreview::new("x.txt", Format::ApplyPatch, Some("old\n"));
    add.set_operation(Operation::Add);
    assert!(
        matches!(add.state(), PreviewState::NoMatch { ref error_kind, .. } if error_kind == "file-exists")
    );
    let mut new = PatchPreview::new("n.txt", Format::ApplyPatch, None);
    new.push(&["+hello", "+world"]);
    assert_eq!(new.state(), PreviewState::Create);
    assert_eq!(new.content_after().as_deref(), Some("hello\nworld\n"));
    let mut del = PatchPreview::new("d.txt", Format::UnifiedDiff, Some("a\nb\n"));
    del.push(&["@@ -1,2 +0,0 @@", "-a"]);
    assert_eq!(del.state(), PreviewState::Located { line: 1 });
    assert_eq!(del.content_after(), None, "a deleted file has no content");
    // Hostile lines: headers without numbers, lone prefixes, odd Unicode.
    let mut odd = PatchPreview::new("o.txt", Format::UnifiedDiff, Some("é\n\u{200B}\n"));
    odd.push(&[
        "@@ -x,y +z @@",
        "-",
        " \u{FFFF}",
        "+",
        "@@",
        "@@ -99999999999,1 +1 @@",
        " é",
    ]);
    let _ = (odd.state(), odd.content_after());
}

#[test]
fn json_reader_caps_long_keys_and_scalars() {
    use crate::preview::{JsonEvent, JsonReader};
    let mut r = JsonReader::new();
    let long_key = "k".repeat(10_000);
    let events = r.feed(&format!(
        "{{\"{long_key}\": 1{}, \"b\": \"x\"}}",
        "0".repeat(1_000)
    ));
    assert!(r.done(), "{:?}", r.broken());
    assert!(events
        .iter()
        .any(|e| matches!(e, JsonEvent::Text { text, .. } if text == "x")));
}

#[test]
fn patch_preview_draws_the_open_section_in_place() {
    use crate::block::Format;
    use crate::preview::PatchPreview;
    let file: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let mut p = PatchPreview::new("n.txt", Format::ApplyPatch, Some(&file));
    p.push(&["@@", " line 9", "-line 10", "+<script>x</script>"]);
    let html = p.render_full(Some("+par"));
    assert!(html.contains("data-preview-state=\"located\""), "{html}");
    assert!(html.contains("data-section=\"1\""), "{html}");
    assert!(html.contains("section 1: located at line 9"), "{html}");
    assert!(
        html.contains("eb-line eb-line-removed\" data-row=\"1\" data-old-line=\"10\""),
        "{html}"
    );
    assert!(html.contains("&lt;script&gt;x&lt;/script&gt;") && !html.contains("<script>"));
    // Context: lines 6-8 above, 11-13 below.
    assert!(html.contains("data-old-line=\"6\"") && !html.contains("data-old-line=\"5\""));
    assert!(html.contains("data-old-line=\"13\"") && !html.contains("data-old-line=\"14\""));
    let first = p.render_delta(None);
    assert!(first.reset.is_some());
    assert_eq!(p.render_delta(None), crate::preview::PreviewHtml::default());
    // A new line: its row only, and the context below moved on.
    p.push(&["+more", " line 11"]);
    let d = p.render_delta(Some("x"));
    assert!(d.reset.is_none(), "{d:?}");
    assert!(
        d.append.contains("more") && d.append.contains("data-old-line=\"11\""),
        "{d:?}"
    );
    assert!(d.partial.is_some_and(|h| h.contains('x')));
    assert!(d.below.is_some_and(|h| h.contains("data-old-line=\"14\"")));
    // A new section: drawn again whole.
    p.push(&["@@", " line 15"]);
    assert!(p
        .render_delta(None)
        .reset
        .is_some_and(|h| h.contains("data-section=\"2\"")));
}
