//! A forgotten end marker, through compact mode (what `js/parser.js` reads):
//! the events rebuilt from the records, as the wrapper rebuilds them, are
//! the events of `EditStream::feed`, however the reply is chunked. The
//! lines of the new block read again after the dropped one travel as text.

use crate::parser_records;

use editblocks::parser::{EditStream, ParseOptions, Section, StreamEvent};
use editblocks::Format;
use parser_records::{
    CompactStream, TextEvent, RECORD_COMPLETE, RECORD_JSON, RECORD_START, RECORD_UPDATE, SECTIONS,
};

/// (kind, section or path, lines) of every event but `block-complete`.
type Ev = (String, String, Vec<String>);

fn summary(e: &StreamEvent) -> Option<Ev> {
    Some(match e {
        StreamEvent::BlockStart { file_path, .. } => ("start".into(), file_path.clone(), vec![]),
        StreamEvent::BlockUpdate { section, lines, .. } => {
            ("update".into(), format!("{section:?}"), lines.clone())
        }
        StreamEvent::BlockDiscarded { reason, .. } => ("discarded".into(), reason.clone(), vec![]),
        StreamEvent::BlockComplete { block, .. } => (
            "complete".into(),
            block.file_path.clone(),
            vec![block.old_lines.clone(), block.new_lines.clone()],
        ),
    })
}

fn compact_events(chunks: &[&str]) -> Vec<Ev> {
    let mut stream = CompactStream::new(&ParseOptions::default());
    let mut out = Vec::new();
    let mut path = String::new();
    let mut carried = String::new();
    let ends = chunks.iter().map(|c| Some(*c)).chain([None]);
    for chunk in ends {
        let o = match chunk {
            Some(c) => stream.feed(c),
            None => stream.finish(),
        };
        let chunk = chunk.unwrap_or("");
        // Lines completed by this feed (the first one joined to the carried part).
        let text = format!("{carried}{chunk}");
        let mut lines: Vec<&str> = text.split('\n').collect();
        carried = lines.pop().unwrap_or("").to_string();
        let r = &o.records;
        let mut i = 0;
        while i < r.len() {
            match r[i] {
                RECORD_UPDATE => {
                    let (first, count) = (r[i + 3] as usize, r[i + 4] as usize);
                    out.push((
                        "update".into(),
                        format!("{:?}", SECTIONS[r[i + 1] as usize]),
                        lines[first..first + count]
                            .iter()
                            .map(|s| s.to_string())
                            .collect(),
                    ));
                    i += 5;
                }
                RECORD_JSON => {
                    let event = o.events[r[i + 1] as usize].clone();
                    // The binding's JSON is serde_json's text for the same event.
                    assert_eq!(
                        parser_records::events_json(std::slice::from_ref(&event)),
                        serde_json::to_string(&[StreamEvent::from(event.clone())]).unwrap()
                    );
                    out.extend(summary(&event.into()));
                    i += 2;
                }
                RECORD_START => {
                    if r[i + 3] != u32::MAX {
                        path = "src/a.py".into();
                    }
                    out.push(("start".into(), path.clone(), vec![]));
                    i += 5;
                }
                RECORD_COMPLETE => {
                    out.push(("complete".into(), path.clone(), vec![]));
                    i += 18;
                }
                other => panic!("record {other}"),
            }
        }
    }
    out
}

fn merged(events: Vec<Ev>) -> Vec<Ev> {
    let mut out: Vec<Ev> = Vec::new();
    for e in events {
        match (out.last_mut(), &e) {
            (Some(last), (k, s, l))
                if k == "update" && last.0 == "update" && &last.1 == s && !l.is_empty() =>
            {
                last.2.extend(l.iter().cloned())
            }
            _ => out.push(e),
        }
    }
    out
}

#[test]
fn compact_records_give_the_events_of_feed() {
    let reply = "src/a.py\n««« EDIT\ndef f():\n    return 1\n═══════ REPL\ndef f():\n    return 2\n\n««« EDIT\ndef g():\n    return 1\n═══════ REPL\ndef g():\n    return 2\n»»» EDIT END\n";
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut events = stream.feed(reply);
    events.extend(stream.finish());
    let expected: Vec<Ev> = merged(
        events
            .iter()
            .filter_map(summary)
            .map(|(k, s, l)| {
                if k == "complete" {
                    (k, s, vec![])
                } else {
                    (k, s, l)
                }
            })
            .collect(),
    );
    assert!(expected.iter().any(|e| e.0 == "discarded"));
    assert_eq!(events.iter().filter(|e| matches!(e, StreamEvent::BlockComplete { block, .. } if block.format == Format::EditRepl && block.old_lines == "    return 1" && block.anchor == "def g():")).count(), 1);
    let lines: Vec<&str> = reply.split_inclusive('\n').collect();
    assert_eq!(merged(compact_events(&lines)), expected, "a line per feed");
    assert_eq!(merged(compact_events(&[reply])), expected, "whole");
    for cut in 1..lines.len() {
        let (a, b) = lines.split_at(cut);
        assert_eq!(
            merged(compact_events(&[&a.concat(), &b.concat()])),
            expected,
            "cut after line {cut}"
        );
    }
}

/// The layout `js/parser.js` reads is valid JSON and names the positions
/// the records are written with (the ones this file reads).
#[test]
fn the_record_layout_names_the_positions_the_records_use() {
    let layout: serde_json::Value = serde_json::from_str(&parser_records::layout_json()).unwrap();
    assert_eq!(layout["record"]["update"], RECORD_UPDATE);
    assert_eq!(layout["record"]["start"], RECORD_START);
    assert_eq!(layout["update"]["firstLine"], 3);
    assert_eq!(layout["update"]["lineCount"], 4);
    assert_eq!(layout["start"]["pathStart"], 3);
    assert_eq!(layout["head"]["index"], 1);
    assert_eq!(layout["stride"], 16);
    assert_eq!(layout["span"]["rawStart"], 12);
    assert_eq!(layout["lineEnd"], editblocks::parser::LINE_END_PATTERN);
    let formats: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
    assert_eq!(layout["formats"], serde_json::json!(formats));
    assert_eq!(layout["sections"][Section::Patch as usize], "patch");
    assert_eq!(
        layout["sections"][Section::TrailingAnchor as usize],
        "trailing-anchor"
    );
}

/// The binding writes its JSON without serde_json: the same text, for every
/// event kind it sends, with and without a format or path, and for the
/// pending block at every line of replies in each format.
#[test]
fn the_binding_json_is_serde_json_text() {
    let tricky = "a \"q\" \\ \t\r\u{1}\u{8}\u{c}\u{1f}\u{7f} é 👍 \u{2028}";
    let events = vec![
        TextEvent::Start {
            file_path: tricky.into(),
            format: Some(Format::ApplyPatch),
            line_number: 4_000_000_000,
        },
        TextEvent::Start {
            file_path: "src/a.py".into(),
            format: None,
            line_number: 0,
        },
        TextEvent::Update {
            format: None,
            section: Section::TrailingAnchor,
            lines: vec![],
        },
        TextEvent::Update {
            format: Some(Format::Anchored),
            section: Section::Patch,
            lines: vec![tricky.into(), String::new()],
        },
        TextEvent::Discarded {
            file_path: None,
            line_number: 7,
            reason: tricky.into(),
        },
        TextEvent::Discarded {
            file_path: Some("b/\u{0}c".into()),
            line_number: 10,
            reason: String::new(),
        },
    ];
    let serde_events: Vec<StreamEvent> = events.iter().cloned().map(StreamEvent::from).collect();
    assert_eq!(
        parser_records::events_json(&events),
        serde_json::to_string(&serde_events).unwrap()
    );
    assert_eq!(parser_records::events_json(&[]), "[]");

    let replies = [
        "src/a.py\n««« EDIT\nx = \"1\"\t\\\n═══════ REPL\ny\n»»» EDIT END\n",
        "src/a.py\n««« EDIT\nlead\n───────\nold\n═══════\nnew\n───────\ntrail\n»»»\n",
        "src/b.rs\n<<<<<<< SEARCH\nfn a() {}\n=======\nfn b() {}\n>>>>>>> REPLACE\n",
        "*** Begin Patch\n*** Update File: c.txt\n@@\n-a\n+b é\n*** End Patch\n",
        "--- a/d.txt\n+++ b/d.txt\n@@ -1 +1 @@\n-x\n+y\n",
    ];
    let mut seen = 0;
    for reply in replies {
        let mut stream = CompactStream::new(&ParseOptions::default());
        for piece in reply.split_inclusive(['\n', ' ']) {
            stream.feed(piece);
            if let Some(p) = stream.pending() {
                seen += 1;
                assert_eq!(
                    parser_records::pending_json(&p),
                    serde_json::to_string(&p).unwrap()
                );
            }
        }
    }
    assert!(seen > 20, "pending blocks seen: {seen}");
}
