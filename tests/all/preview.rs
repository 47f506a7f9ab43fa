//! The live preview against its fixtures (`tests/fixtures/preview/<case>/`:
//! `reply.md`, the files under `files/`, `expected.json` with the preview
//! events and each block's final state), in any chunking; and properties:
//! whatever the chunking, the events are the same and the final state of
//! each block is what a one-shot `validate_edit` of the complete block says.
//! `UPDATE_FIXTURES=1 cargo test --test all preview` writes `expected.json` for review.

use crate::fixture_support;
use fixture_support::{case_name, check_expected, read_case_text, read_text_tree, run_cases, same};

use crate::parser_support;
use crate::prop_support;

use std::collections::BTreeMap;

use editblocks::engine::{apply_to_content, validate_edit, ApplyOptions};
use editblocks::parser::{EditStream, ParseOptions, StreamEvent};
use editblocks::preview::{PreviewEvent, PreviewSession, PreviewState};
use parser_support::{chunkings, cut_at};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Expected {
    events: Vec<serde_json::Value>,
    /// The final state of each block that completed or was discarded, in order.
    states: Vec<serde_json::Value>,
}

/// What a run gives: preview events, final states, and for each completed
/// block the file it was previewed against (to check against validate).
struct Run {
    events: Vec<PreviewEvent>,
    states: Vec<PreviewState>,
    checks: Vec<(editblocks::EditBlock, Option<String>, PreviewState)>,
    /// For each block that completed located (or creating its file): the
    /// file as the session keeps it after, and as apply makes it.
    afters: Vec<(Option<String>, String)>,
}

fn run(files: &[(String, String)], reply: &str, chunks: &[&str]) -> Run {
    let mut session = PreviewSession::new(files.iter().cloned());
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut out = Run {
        events: Vec::new(),
        states: Vec::new(),
        checks: Vec::new(),
        afters: Vec::new(),
    };
    let handle = |session: &mut PreviewSession, e: StreamEvent, out: &mut Run| {
        let before = match &e {
            StreamEvent::BlockComplete { block, .. } => Some((
                block.clone(),
                session.file(&block.file_path).map(String::from),
            )),
            _ => None,
        };
        out.events.extend(session.on_event(&e));
        if matches!(
            e,
            StreamEvent::BlockComplete { .. } | StreamEvent::BlockDiscarded { .. }
        ) {
            if let Some(p) = session.preview() {
                out.states.push(p.state());
            }
        }
        if let (Some((block, content)), Some(p)) = (before, session.preview()) {
            let state = p.state();
            if matches!(state, PreviewState::Located { .. } | PreviewState::Create) {
                let (applied, _) = apply_to_content(
                    &block,
                    content.as_deref().unwrap_or(""),
                    &ApplyOptions::default(),
                );
                let kept = session.file(&block.file_path).map(String::from);
                out.afters.push((kept, applied));
            }
            out.checks.push((block, content, state));
        }
    };
    let _ = reply;
    for chunk in chunks {
        for e in stream.feed(chunk) {
            handle(&mut session, e, &mut out);
        }
    }
    for e in stream.finish() {
        handle(&mut session, e, &mut out);
    }
    out
}

fn to_json<T: Serialize>(values: &[T]) -> Vec<serde_json::Value> {
    values
        .iter()
        .map(|v| serde_json::to_value(v).expect("serialisable"))
        .collect()
}

/// The final state must be what validate_edit says of the complete block.
fn check_against_validate(
    block: &editblocks::EditBlock,
    content: Option<&str>,
    state: &PreviewState,
) -> Result<(), String> {
    let v = validate_edit(block, content.unwrap_or(""), &ApplyOptions::default());
    let ok = match (state, content) {
        (PreviewState::NoMatch { error_kind, .. }, None) => {
            error_kind == "file-not-found" || !block.is_create()
        }
        (PreviewState::Create, _) => v.ok && block.is_create(),
        (PreviewState::Located { line }, _) => v.ok && v.estimated_line == Some(*line),
        (PreviewState::Ambiguous { lines, reason }, _) => {
            !v.ok
                && v.error_kind.map(|k| k.as_str()) == Some("ambiguous")
                && v.diagnostics.as_ref().map(|d| &d.match_lines) == Some(lines)
                && v.reason.as_ref() == Some(reason)
        }
        (
            PreviewState::NoMatch {
                error_kind, reason, ..
            },
            Some(_),
        ) => {
            !v.ok
                && v.error_kind.map(|k| k.as_str()) == Some(error_kind.as_str())
                && v.reason.as_ref() == Some(reason)
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "preview says {state:?}, validate says {v:?} for {block:?}"
        ))
    }
}

#[test]
fn fixtures_give_their_events_and_states_in_any_chunking() {
    run_cases("preview", 8, |case| {
        let name = case_name(case);
        let reply = read_case_text(case, "reply.md")?;
        let files = read_text_tree(&case.join("files"));
        let whole = run(&files, &reply, &[&reply]);
        for (block, content, state) in &whole.checks {
            check_against_validate(block, content.as_deref(), state)
                .map_err(|e| format!("{name}: {e}"))?;
        }
        for (kept, applied) in &whole.afters {
            same(
                kept.as_deref(),
                Some(applied.as_str()),
                format!("{name}: the file after a located block, as the preview kept it and as apply makes it"),
            )?;
        }
        let actual = Expected {
            events: to_json(&whole.events),
            states: to_json(&whole.states),
        };
        if check_expected(case, &actual)?.is_none() {
            return Ok(());
        }
        for chunks in chunkings(&reply, 0x51f1_5eed, 40, 9) {
            let r = run(&files, &reply, &chunks);
            same(
                (&r.events, &r.states),
                (&whole.events, &whole.states),
                format!("{name}: chunks {chunks:?}"),
            )?;
        }
        Ok(())
    });
}

/// A file of lines drawn from a small set, so that old text often occurs
/// at several places, and a reply of blocks whose old text is taken from
/// the file (sometimes changed, so it matches nowhere).
fn case() -> impl Strategy<Value = (String, String, Vec<usize>)> {
    let words = ["a", "b", "}", "", "  x = 1", "fn f() {", "c"];
    (
        prop::collection::vec(0..words.len(), 0..30),
        prop::collection::vec(
            (0usize..30, 1usize..5, 0usize..4, 0usize..3, prop::bool::ANY),
            1..4,
        ),
        prop::collection::vec(1usize..12, 1..40),
    )
        .prop_map(move |(file_idx, blocks, cuts)| {
            let lines: Vec<&str> = file_idx.iter().map(|&i| words[i]).collect();
            let mut file = lines.join("\n");
            if !lines.is_empty() {
                file.push('\n');
            }
            let mut reply = String::from("Some prose.\n\n");
            for (k, (start, len, style, change, mutate)) in blocks.into_iter().enumerate() {
                let start = start.min(lines.len().saturating_sub(1));
                let mut old: Vec<String> = lines
                    .iter()
                    .skip(start)
                    .take(len)
                    .map(|s| s.to_string())
                    .collect();
                if mutate && !old.is_empty() {
                    let i = (start + k) % old.len();
                    old[i].push_str(" changed");
                }
                let mut new = old.clone();
                match change {
                    0 => new.push(format!("added {k}")),
                    1 => {
                        if let Some(l) = new.last_mut() {
                            l.push_str(" // edited");
                        }
                    }
                    _ => new.insert(0, format!("first {k}")),
                }
                reply.push_str("src/f.txt\n");
                match style {
                    0 | 3 => {
                        reply.push_str("<<<<<<< SEARCH\n");
                        for l in &old {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("=======\n");
                        for l in &new {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str(">>>>>>> REPLACE\n\n");
                    }
                    1 => {
                        reply.push_str("««« EDIT\n");
                        for l in &old {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("═══════ REPL\n");
                        for l in &new {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("»»» EDIT END\n\n");
                    }
                    _ => {
                        let (anchor, rest) = old.split_at(old.len().min(1));
                        reply.push_str("««« EDIT\n");
                        for l in anchor {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("───────\n");
                        for l in rest {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("═══════\n");
                        for l in &new[new.len().min(1)..] {
                            reply.push_str(l);
                            reply.push('\n');
                        }
                        reply.push_str("───────\n");
                        if let Some(t) = lines.get(start + old.len()) {
                            reply.push_str(t);
                            reply.push('\n');
                        }
                        reply.push_str("»»»\n\n");
                    }
                }
            }
            (file, reply, cuts)
        })
}

proptest! {
    #![proptest_config(prop_support::config(200))]
    #[test]
    fn final_state_is_validate_and_events_do_not_depend_on_chunking((file, reply, cuts) in case()) {
        let files = vec![("src/f.txt".to_string(), file)];
        let whole = run(&files, &reply, &[&reply]);
        for (block, content, state) in &whole.checks {
            prop_assert!(check_against_validate(block, content.as_deref(), state).is_ok(), "{}", check_against_validate(block, content.as_deref(), state).unwrap_err());
        }
        for (kept, applied) in &whole.afters {
            prop_assert_eq!(kept.as_deref(), Some(applied.as_str()));
        }
        // Chunks at the generated cut lengths (on char boundaries).
        let chunked = run(&files, &reply, &cut_at(&reply, &cuts));
        prop_assert_eq!(&chunked.events, &whole.events);
        prop_assert_eq!(&chunked.states, &whole.states);
        let _ = BTreeMap::<u8, u8>::new();
    }
}

proptest! {
    #![proptest_config(prop_support::config(300))]
    /// Any sequence of updates, in any section order, with any text (a
    /// caller feeding by hand may be wrong): no panic, and rendering and the
    /// content stay consistent.
    #[test]
    fn no_update_sequence_panics(
        file in prop::option::of("(\\PC|\r|\n|\u{0}){0,80}"),
        updates in prop::collection::vec((0usize..8, prop::collection::vec("(\\PC|\r|é|👍🏽){0,12}", 0..4), prop::option::of("\\PC{0,10}")), 0..12),
        end in prop::option::of(("\\PC{0,20}", "\\PC{0,20}")),
    ) {
        use editblocks::parser::Section;
        use editblocks::preview::BlockPreview;
        const SECTIONS: [Section; 8] = [Section::Edit, Section::Repl, Section::Anchor, Section::Old, Section::New, Section::TrailingAnchor, Section::Search, Section::Replace];
        let mut p = BlockPreview::for_reply_path("src/a.txt", |_| file.clone());
        let mut live = String::new();
        for (section, lines, partial) in &updates {
            p.push(SECTIONS[*section], lines);
            let d = p.render_delta(partial.as_deref());
            if let Some(reset) = d.reset { live = reset; }
            let _ = p.render_full(partial.as_deref());
            let _ = p.content_after();
            let _ = p.state();
        }
        if let Some((old, new)) = end {
            // A parsed block with its text replaced (whatever other fields the block type has).
            let mut block = editblocks::parser::parse_edits("src/a.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", &ParseOptions::default()).remove(0);
            block.old_lines = old;
            block.new_lines = new;
            p.complete(&block);
            let _ = p.render_delta(None);
            let _ = p.content_after();
        }
        let _ = live;
        let _ = p.take_events();
    }
}
