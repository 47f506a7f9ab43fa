//! The live preview of `apply-patch` and `unified-diff` operations against
//! its fixtures (`tests/fixtures/preview_patch/<case>/`: `reply.md`, the
//! files under `files/`, `expected.json`): the state after every line of
//! the reply, the preview events, each operation's final state and the
//! files as the session leaves them. Fed in any chunking, the events, final
//! states and files are the same; and the file the preview composed from
//! the streamed lines just before an operation completes (located, or
//! created) is the file the patch applier makes of the complete operation.
//! `UPDATE_FIXTURES=1 cargo test --test all preview_patch` writes `expected.json` for review.

use crate::fixture_support;
use fixture_support::{
    brief, case_name, check_expected, read_case_text, read_text_tree, run_cases, same,
};

use crate::parser_support;

use std::collections::BTreeMap;

use editblocks::parser::{EditStream, ParseOptions, StreamEvent};
use editblocks::preview::{PreviewSession, PreviewState};
use parser_support::{chunkings, cut_at};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Expected {
    /// The open operation's state after each line of the reply (repeats left out).
    states: Vec<String>,
    events: Vec<serde_json::Value>,
    /// Each operation's final state.
    finals: Vec<String>,
    /// Every file of the session at the end (`null`: none).
    files: BTreeMap<String, Option<String>>,
}

struct Run {
    states: Vec<String>,
    events: Vec<serde_json::Value>,
    finals: Vec<String>,
    files: BTreeMap<String, Option<String>>,
    /// (what the preview composed before completion, what the applier made)
    composed: Vec<(String, Option<String>, Option<String>)>,
}

fn run(files: &[(String, String)], chunks: &[&str]) -> Run {
    let mut session = PreviewSession::new(files.iter().cloned());
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut out = Run {
        states: Vec::new(),
        events: Vec::new(),
        finals: Vec::new(),
        files: BTreeMap::new(),
        composed: Vec::new(),
    };
    let mut paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut handle = |session: &mut PreviewSession, e: StreamEvent, out: &mut Run| {
        if let StreamEvent::BlockStart { file_path, .. } = &e {
            paths.push(file_path.clone());
        }
        if let StreamEvent::BlockComplete { block, .. } = &e {
            if let Some(to) = block.patch.as_ref().and_then(|p| p.move_to.clone()) {
                paths.push(to);
            }
        }
        for pe in session.on_event(&e) {
            out.events.push(serde_json::to_value(&pe).unwrap());
        }
        if matches!(
            e,
            StreamEvent::BlockComplete { .. } | StreamEvent::BlockDiscarded { .. }
        ) {
            if let Some(p) = session.patch_preview() {
                let state = p.state();
                out.finals
                    .push(format!("{}: {}", p.file_path(), brief(&state)));
                // Located or created as streamed, and by the applier.
                let kind = |s: &PreviewState| match s {
                    PreviewState::Located { .. } => Some("located"),
                    PreviewState::Create => Some("create"),
                    _ => None,
                };
                if let Some((_, composed)) = p
                    .streamed()
                    .filter(|(s, _)| kind(s).is_some() && kind(s) == kind(&state))
                {
                    out.composed.push((
                        p.file_path().to_string(),
                        composed.clone(),
                        p.content_after(),
                    ));
                }
            }
        }
    };
    for chunk in chunks {
        for e in stream.feed(chunk) {
            handle(&mut session, e, &mut out);
        }
        if let Some(p) = session.patch_preview() {
            let s = format!("{}: {}", p.file_path(), brief(&p.state()));
            if out.states.last() != Some(&s) {
                out.states.push(s);
            }
        }
    }
    for e in stream.finish() {
        handle(&mut session, e, &mut out);
    }
    for p in paths {
        let key = editblocks::normalize_path(&p).unwrap_or(p);
        let v = session.file(&key).map(String::from);
        out.files.insert(key, v);
    }
    out
}

#[test]
fn patch_fixtures_give_their_states_in_any_chunking() {
    run_cases("preview_patch", 10, |case| {
        let name = case_name(case);
        let reply = read_case_text(case, "reply.md")?;
        let files = read_text_tree(&case.join("files"));
        // Line by line: the state sequence the fixture records.
        let lines: Vec<&str> = reply.split_inclusive('\n').collect();
        let by_line = run(&files, &lines);
        for (path, composed, applied) in &by_line.composed {
            same(
                composed,
                applied,
                format!("{name}: {path}: the streamed preview differs from what the applier made"),
            )?;
        }
        let actual = Expected {
            states: by_line.states,
            events: by_line.events,
            finals: by_line.finals,
            files: by_line.files,
        };
        let Some(expected) = check_expected(case, &actual)? else {
            return Ok(());
        };
        for chunks in chunkings(&reply, 0x9a7c_4e11, 30, 9) {
            let r = run(&files, &chunks);
            same(
                (&r.events, &r.finals, &r.files),
                (&expected.events, &expected.finals, &expected.files),
                format!("{name}: chunks {chunks:?}"),
            )?;
        }
        Ok(())
    });
}

/// A file of lines from a small set (so section lines often occur at
/// several places, blank ones included), and a patch of one or two
/// sections copied from it: context and removed lines, added lines between,
/// sometimes a changed line (it then matches nowhere), as `apply-patch`
/// (blank context lines sometimes written as empty lines, which the stream
/// drops) or as a unified diff with the lines' numbers, whose second hunk
/// may start in the first one's trailing context (as jsdiff allows).
fn patch_case() -> impl proptest::strategy::Strategy<Value = (String, String, Vec<usize>)> {
    use proptest::prelude::*;
    let words = ["a", "b", "}", "", "  x = 1", "fn f() {", "c"];
    (
        prop::collection::vec(0..words.len(), 4..30),
        prop::collection::vec(
            (0usize..30, 1usize..5, prop::collection::vec(0u8..4, 5)),
            1..3,
        ),
        prop::bool::ANY,
        0u8..6,
        prop::collection::vec(1usize..12, 1..40),
    )
        .prop_map(move |(idx, sections, unified, change, cuts)| {
            let lines: Vec<&str> = idx.iter().map(|&i| words[i]).collect();
            let file = lines.join("\n") + "\n";
            let mut reply = String::from("The patch:\n\n");
            if unified {
                reply.push_str("--- a/f.txt\n+++ b/f.txt\n");
            } else {
                reply.push_str("*** Begin Patch\n*** Update File: f.txt\n");
            }
            let mut next = 0usize;
            // unified: the last hunk's trailing context lines, when it changes any.
            let mut trailing = 0usize;
            let mut shift: isize = 0;
            for (k, (at, n, kinds)) in sections.iter().enumerate() {
                let from = next - trailing;
                let start = from + at % (lines.len().saturating_sub(from).max(1));
                if start >= lines.len() {
                    break;
                }
                let n = (*n).min(lines.len() - start);
                let mut body = Vec::new();
                let (mut old_n, mut new_n) = (0, 0);
                for (j, line) in lines[start..start + n].iter().enumerate() {
                    let mut text = line.to_string();
                    if change == 1 && j == n / 2 && k == 0 {
                        text.push('!');
                    }
                    match kinds[j % kinds.len()] {
                        0 => {
                            body.push(format!("-{text}"));
                            old_n += 1;
                        }
                        1 => {
                            body.push(format!("-{text}"));
                            body.push(format!("+{text} changed"));
                            old_n += 1;
                            new_n += 1;
                        }
                        2 if !unified && text.is_empty() && j > 0 && j + 1 < n => {
                            body.push(String::new());
                            old_n += 1;
                            new_n += 1;
                        }
                        _ => {
                            body.push(format!(" {text}"));
                            old_n += 1;
                            new_n += 1;
                        }
                    }
                }
                if unified {
                    let changes = |l: &String| l.starts_with(['-', '+']);
                    trailing = if body.iter().any(changes) {
                        body.iter().rev().take_while(|l| !changes(l)).count()
                    } else {
                        0
                    };
                    let new_start = start as isize + 1 + shift;
                    reply.push_str(&format!(
                        "@@ -{},{old_n} +{new_start},{new_n} @@\n",
                        start + 1
                    ));
                    shift += new_n as isize - old_n as isize;
                } else {
                    reply.push_str("@@\n");
                }
                for l in body {
                    reply.push_str(&l);
                    reply.push('\n');
                }
                next = start + n;
            }
            if !unified {
                reply.push_str("*** End Patch\n");
            }
            (file, reply, cuts)
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    #[test]
    fn patch_previews_do_not_depend_on_chunking((file, reply, cuts) in patch_case()) {
        let files = vec![("f.txt".to_string(), file)];
        let whole = run(&files, &[&reply]);
        let lines: Vec<&str> = reply.split_inclusive('\n').collect();
        for r in [run(&files, &cut_at(&reply, &cuts)), run(&files, &lines)] {
            proptest::prop_assert_eq!(&r.events, &whole.events);
            proptest::prop_assert_eq!(&r.finals, &whole.finals);
            proptest::prop_assert_eq!(&r.files, &whole.files);
            for (path, composed, applied) in &r.composed {
                proptest::prop_assert_eq!(composed, applied, "{} in {}", path, reply);
            }
        }
        let located = whole.events.iter().filter(|e| e["type"] == "block-located").count();
        let unmatched = whole.events.iter().filter(|e| e["type"] == "block-unmatched").count();
        proptest::prop_assert!(located <= 1 && unmatched <= 1, "{:?}", whole.events);
    }
}
