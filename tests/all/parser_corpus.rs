//! Real replies: aider's chat history (4 MB of `search-replace` blocks)
//! against what aider's own parser extracted (`gold.txt`). See the corpus
//! README in `../shared/corpora/aider-chat-history/`; point
//! `EDITBLOCKS_AIDER_CORPUS` at another copy if needed. The test is skipped,
//! with a notice, when the corpus is not on this machine.
//!
//! Run with `--nocapture` to see the tally of recovered and differing blocks.

use crate::parser_support;

use std::collections::HashMap;
use std::path::PathBuf;

use editblocks::parser::{parse_edits, EditStream, ParseOptions, StreamEvent};
use parser_support::{random_chunks, Rng};

/// The aider chat-history corpus: `../shared` beside the repository (or
/// `EDITBLOCKS_AIDER_CORPUS`). Missing data fails the test instead of
/// skipping it.
fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("EDITBLOCKS_AIDER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/aider-chat-history")
        });
    assert!(
        dir.join("gold.txt").exists(),
        "aider corpus not found at {} (expected ../shared beside the repository, or set EDITBLOCKS_AIDER_CORPUS)",
        dir.display()
    );
    dir
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Gold {
    path: String,
    old: String,
    new: String,
}

/// The SEARCH blocks of gold.txt; aider keeps each section's final newline,
/// ours does not, so one trailing `'\n'` is removed.
fn read_gold(text: &str) -> Vec<Gold> {
    let rule = "@".repeat(20);
    let mut out = Vec::new();
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("@@@ SEARCH: ") else {
            continue;
        };
        let path = rest.trim_end().trim_end_matches('@').trim_end().to_string();
        let mut old = String::new();
        for l in lines.by_ref() {
            if l.trim_end_matches('\n') == rule {
                break;
            }
            old.push_str(l);
        }
        let mut new = String::new();
        for l in lines.by_ref() {
            if l.starts_with("@@@ REPLACE @@@") {
                break;
            }
            new.push_str(l);
        }
        let chop = |s: String| s.strip_suffix('\n').map(String::from).unwrap_or(s);
        out.push(Gold {
            path,
            old: chop(old),
            new: chop(new),
        });
    }
    out
}

#[test]
fn aider_corpus_blocks_are_recovered_in_any_chunking() {
    let dir = corpus_dir();
    let reply = std::fs::read_to_string(dir.join("chat-history.md")).unwrap();
    let gold = read_gold(&std::fs::read_to_string(dir.join("gold.txt")).unwrap());
    assert_eq!(gold.len(), 577, "gold.txt holds 577 SEARCH blocks");

    let options = ParseOptions {
        formats: vec![editblocks::Format::SearchReplace],
        ..Default::default()
    };
    let ours = parse_edits(&reply, &options);
    // Blocks refused on purpose: `=======` written twice in a row,
    // which aider reads as deleting the search text; each must be named in
    // a discard for its file.
    let mut twice: HashMap<String, usize> = HashMap::new();
    {
        let mut stream = EditStream::new(&options);
        let mut events = stream.feed(&reply);
        events.extend(stream.finish());
        for e in events {
            if let editblocks::parser::StreamEvent::BlockDiscarded {
                file_path: Some(p),
                reason,
                ..
            } = e
            {
                if reason.contains("`=======` is written twice") {
                    *twice.entry(p).or_default() += 1;
                }
            }
        }
    }
    let mut refused = 0;

    // Match as multisets: aider parsed section by section and skipped some.
    let mut available: HashMap<Gold, usize> = HashMap::new();
    let mut by_text: HashMap<(String, String), Vec<String>> = HashMap::new();
    for b in &ours {
        *available
            .entry(Gold {
                path: b.file_path.clone(),
                old: b.old_lines.clone(),
                new: b.new_lines.clone(),
            })
            .or_default() += 1;
        by_text
            .entry((b.old_lines.clone(), b.new_lines.clone()))
            .or_default()
            .push(b.file_path.clone());
    }
    let mut recovered = 0;
    let mut other_path = Vec::new();
    let mut missing = Vec::new();
    for g in &gold {
        match available.get_mut(g) {
            Some(n) if *n > 0 => {
                *n -= 1;
                recovered += 1;
            }
            _ => match by_text
                .get(&(g.old.clone(), g.new.clone()))
                .filter(|paths| !paths.contains(&g.path))
            {
                Some(paths) => other_path.push((g.path.clone(), paths.clone())),
                None if g.new.is_empty() && twice.get(&g.path).is_some_and(|n| *n > 0) => {
                    *twice.get_mut(&g.path).unwrap() -= 1;
                    refused += 1;
                }
                None => {
                    // Where does the nearest block of ours differ?
                    if let Some(b) = ours
                        .iter()
                        .find(|b| b.file_path == g.path && b.old_lines == g.old)
                    {
                        let (a, n) = (
                            b.new_lines.split('\n').collect::<Vec<_>>(),
                            g.new.split('\n').collect::<Vec<_>>(),
                        );
                        let at = a
                            .iter()
                            .zip(&n)
                            .position(|(x, y)| x != y)
                            .unwrap_or(a.len().min(n.len()));
                        eprintln!("    differs from ours at line {} (line {at} of new): ours {:?} gold {:?}", b.line_number, a.get(at), n.get(at));
                    }
                    missing.push(g.clone())
                }
            },
        }
    }
    eprintln!(
        "aider corpus: {} blocks parsed; {recovered} of {} gold blocks recovered identically",
        ours.len(),
        gold.len()
    );
    eprintln!("  refused on purpose (`=======` written twice, named in a discard): {refused}");
    eprintln!("  same text, other path: {}", other_path.len());
    for (g, ours) in other_path.iter().take(20) {
        eprintln!("    gold {g:?}, ours {ours:?}");
    }
    eprintln!("  not found: {}", missing.len());
    for g in missing.iter().take(40) {
        let first = |s: &str| {
            s.lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(60)
                .collect::<String>()
        };
        eprintln!(
            "    {} | old {:?} | new {:?}",
            g.path,
            first(&g.old),
            first(&g.new)
        );
    }
    // A floor at what this parser recovers today, so a regression fails.
    assert!(
        recovered + refused >= RECOVERED_FLOOR,
        "recovered only {recovered} (+{refused} refused on purpose)"
    );

    // Streaming in random chunkings gives exactly the same blocks.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for max in [1usize, 7, 64, 4096] {
        let mut stream = EditStream::new(&options);
        let mut streamed = Vec::new();
        let chunks = random_chunks(&reply, &mut rng, max);
        for chunk in &chunks {
            for e in stream.feed(chunk) {
                if let StreamEvent::BlockComplete { block, .. } = e {
                    streamed.push(block);
                }
            }
        }
        for e in stream.finish() {
            if let StreamEvent::BlockComplete { block, .. } = e {
                streamed.push(block);
            }
        }
        assert!(
            streamed == ours,
            "chunks of up to {max} bytes gave different blocks"
        );
    }
}

const RECOVERED_FLOOR: usize = 577;
