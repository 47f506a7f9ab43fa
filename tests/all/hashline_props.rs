//! Property: a random valid call on a random file applies when the file is
//! as read, and never writes anything when any of its anchors is stale.

use editblocks::hashline::{apply_hashline_edit, line_id, HashlineOptions};
use editblocks::MemoryHost;
use editblocks::Status;
use proptest::prelude::*;
use serde_json::{json, Value};

const WIDTH: usize = 3;

fn anchor(lines: &[String], n: usize) -> String {
    format!("{n}#{}", line_id(&lines[n - 1], WIDTH))
}

/// Lays operations out top to bottom with at least one untouched line
/// between them, so the call is valid for `lines`. Returns the edits and
/// every anchored line (1-based).
fn build_call(lines: &[String], ops: &[(u8, usize)]) -> (Vec<Value>, Vec<usize>) {
    let mut edits = Vec::new();
    let mut anchored = Vec::new();
    let mut next = 1; // first line free to use
    for (i, &(kind, len)) in ops.iter().enumerate() {
        let fresh = |k: usize| -> Vec<String> { (0..k).map(|j| format!("new {i}.{j}")).collect() };
        let span = match kind {
            0 | 1 => 1,
            2 | 3 => len + 1,
            6 => 2,
            _ => 1,
        };
        if next + span - 1 > lines.len() {
            break;
        }
        let (a, b) = (next, next + span - 1);
        let edit = match kind {
            0 => json!({ "target": anchor(lines, a), "new_content": fresh(len) }),
            1 => json!({ "target": anchor(lines, a), "new_content": null }),
            2 => {
                json!({ "first": anchor(lines, a), "last": anchor(lines, b), "new_content": fresh(len) })
            }
            3 => {
                json!({ "first": anchor(lines, a), "last": anchor(lines, b), "new_content": null })
            }
            4 => json!({ "after": anchor(lines, a), "inserted_lines": fresh(len) }),
            5 => json!({ "before": anchor(lines, a), "inserted_lines": fresh(len) }),
            _ => {
                json!({ "after": anchor(lines, a), "before": anchor(lines, b), "inserted_lines": fresh(len) })
            }
        };
        edits.push(edit);
        anchored.extend([a, b]);
        next = b + 2;
    }
    anchored.sort_unstable();
    anchored.dedup();
    (edits, anchored)
}

fn render(lines: &[String], crlf: bool, final_newline: bool) -> String {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut text = lines.join(eol);
    // An empty last line without a newline after it is not a line of its own
    // ("a\n" is one line), so such a file always ends with a newline here.
    let last_is_empty = lines.last().is_some_and(|l| l.is_empty());
    if (final_newline || last_is_empty) && !lines.is_empty() {
        text.push_str(eol);
    }
    text
}

fn is_stale(lines: &[String], edits: &[Value]) -> bool {
    edits.iter().any(|edit| {
        ["target", "first", "last", "before", "after"]
            .iter()
            .filter_map(|k| edit.get(*k).and_then(Value::as_str))
            .any(|a| {
                let (n, id) = a.split_once('#').unwrap();
                let n: usize = n.parse().unwrap();
                n > lines.len() || line_id(&lines[n - 1], WIDTH) != id
            })
    })
}

proptest! {
    #![proptest_config(crate::prop_support::config(400))]

    #[test]
    fn stale_calls_never_write(
        words in prop::collection::vec(0u8..10, 1..40),
        ops in prop::collection::vec((0u8..7, 1usize..4), 1..6),
        mutation in (0u8..4, any::<prop::sample::Index>(), 0u8..10),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
    ) {
        // Repeated and blank lines on purpose: IDs of equal lines are equal.
        let lines: Vec<String> = words.iter().map(|&w| if w == 0 { String::new() } else { format!("line {w}") }).collect();
        let (edits, anchored) = build_call(&lines, &ops);
        prop_assume!(!edits.is_empty());
        let call = json!({ "path": "f.txt", "edits": edits });
        let original = render(&lines, crlf, final_newline);

        // As read, the call applies: the property below is not vacuous.
        let mut fresh = MemoryHost::with_files([("f.txt", original.as_str())]);
        let ok = apply_hashline_edit(&call, &mut fresh, &HashlineOptions::default());
        prop_assert_eq!(ok.status, Status::Applied, "{}", ok.message);

        // Someone changes the file after the read.
        let (how, at, word) = mutation;
        let mut changed = lines.clone();
        match how {
            0 => { let n = anchored[at.index(anchored.len())]; changed[n - 1] = format!("changed {word}"); }
            1 => { let n = at.index(changed.len() + 1); changed.insert(n, format!("inserted {word}")); }
            2 => { changed.remove(at.index(changed.len())); }
            _ => { let n = at.index(changed.len()); changed[n].push_str(" edited"); }
        }
        prop_assume!(is_stale(&changed, call["edits"].as_array().unwrap()));
        let now = render(&changed, crlf, final_newline);
        let mut host = MemoryHost::with_files([("f.txt", now.as_str())]);
        let result = apply_hashline_edit(&call, &mut host, &HashlineOptions::default());
        prop_assert_eq!(result.status, Status::Failed);
        prop_assert!(host.changes().is_empty(), "wrote: {:?}", host.changes());
        prop_assert_eq!(host.text("f.txt").unwrap(), now);
        let kind = result.error_kind.map(|k| k.as_str()).unwrap_or("none");
        prop_assert!(kind == "stale-anchor" || kind == "line-out-of-range", "{}: {}", kind, result.message);
        if kind == "stale-anchor" {
            prop_assert!(result.message.contains(">>> "));
            for s in &result.stale {
                let marked = format!(">>> {}|", s.current);
                prop_assert!(result.message.contains(&marked), "{} not in {}", marked, result.message);
            }
        }
    }

    #[test]
    fn any_json_call_is_answered_without_panicking(text in "\\PC{0,200}", line in 0usize..50, id in "[0-9a-zA-Z|#]{0,6}") {
        let mut host = MemoryHost::with_files([("f.txt", text.as_str())]);
        let call = json!({ "path": "f.txt", "edits": [
            { "target": format!("{line}#{id}"), "new_content": ["x"] },
            { "after": format!("{line}#{id}"), "inserted_lines": [text.clone()] },
            { "old_text": text.clone(), "new_text": "y", "all": true }
        ]});
        let options = HashlineOptions { allow_replace_text: true, ..HashlineOptions::default() };
        let _ = apply_hashline_edit(&call, &mut host, &options);
        let _ = editblocks::hashline::format_hashlines(&text, line, Some(line + 3), 3);
    }
}
