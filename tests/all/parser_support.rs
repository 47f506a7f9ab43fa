//! Shared by the parser's host tests: the fixture folder, and running a
//! reply through `EditStream` in given chunks.
#![allow(dead_code)]

use std::path::PathBuf;

use editblocks::parser::{EditStream, ParseOptions, Section, StreamEvent};
use editblocks::{EditBlock, Format};
use serde::{Deserialize, Serialize};

/// What a fixture expects: every block and every discard, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<Format>,
    pub blocks: Vec<EditBlock>,
    pub discarded: Vec<Discard>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Discard {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    pub line_number: u32,
    pub reason: String,
}

pub struct Fixture {
    pub name: String,
    pub reply: String,
    pub expected_path: PathBuf,
}

/// Every `tests/fixtures/parser/*.md`, sorted by name.
pub fn fixtures() -> Vec<Fixture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parser");
    let mut out: Vec<Fixture> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| Fixture {
            name: p.file_stem().unwrap().to_string_lossy().into_owned(),
            reply: std::fs::read_to_string(&p).expect("fixture text"),
            expected_path: p.with_extension("json"),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Blocks and discards from a stream fed `chunks`, with the event sequence
/// checked along the way (start → updates → complete | discarded).
pub fn run_stream(options: &ParseOptions, chunks: &[&str]) -> (Vec<EditBlock>, Vec<Discard>) {
    let mut stream = EditStream::new(options);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(stream.feed(chunk));
    }
    events.extend(stream.finish());
    check_events(&events)
}

/// Checks the event grammar and that the update lines of each block add up
/// to its sections; returns its blocks and discards.
pub fn check_events(events: &[StreamEvent]) -> (Vec<EditBlock>, Vec<Discard>) {
    let mut blocks = Vec::new();
    let mut discards = Vec::new();
    let mut open: Option<Vec<(Section, Vec<String>)>> = None;
    let mut last_format: Option<Format> = None;
    for event in events {
        match event {
            StreamEvent::BlockStart { format, .. } => {
                assert!(open.is_none(), "block-start inside an open block");
                open = Some(Vec::new());
                last_format = *format;
            }
            StreamEvent::BlockUpdate {
                section,
                lines,
                format,
            } => {
                let sections = open.as_mut().expect("block-update outside a block");
                if format.is_some() {
                    last_format = *format;
                }
                match sections.last_mut() {
                    Some((s, l)) if s == section => l.extend(lines.iter().cloned()),
                    _ => sections.push((*section, lines.clone())),
                }
            }
            StreamEvent::BlockComplete { index, block } => {
                assert_eq!(*index, blocks.len(), "block-complete index");
                let sections = open.take().expect("block-complete outside a block");
                assert_eq!(Some(block.format), last_format.or(Some(block.format)));
                check_sections(block, &sections);
                blocks.push(block.clone());
            }
            StreamEvent::BlockDiscarded {
                file_path,
                line_number,
                reason,
            } => {
                if file_path.is_some() {
                    assert!(
                        open.take().is_some(),
                        "a discard with a path ends an open block"
                    );
                }
                discards.push(Discard {
                    file_path: file_path.clone(),
                    line_number: *line_number,
                    reason: reason.clone(),
                });
            }
        }
    }
    assert!(open.is_none(), "a block was left open after finish()");
    (blocks, discards)
}

fn check_sections(block: &EditBlock, sections: &[(Section, Vec<String>)]) {
    let get = |names: &[Section]| -> String {
        sections
            .iter()
            .filter(|(s, _)| names.contains(s))
            .flat_map(|(_, l)| l.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    match block.format {
        Format::SearchReplace => {
            assert_eq!(get(&[Section::Search]), block.old_lines);
            let replace = get(&[Section::Replace]);
            if block
                .assumed
                .iter()
                .any(|a| a == "new-file-wrapper-stripped")
            {
                // The lines streamed as written; the block holds them without the wrapper.
                assert!(
                    replace.contains(&block.new_lines) && replace != block.new_lines,
                    "replace section {replace:?} vs {block:?}"
                );
            } else {
                assert_eq!(replace, block.new_lines);
            }
        }
        Format::Anchored => {
            assert_eq!(get(&[Section::Edit, Section::Anchor]), block.anchor);
            assert_eq!(get(&[Section::Old]), block.old_lines);
            assert_eq!(get(&[Section::New]), block.new_lines);
            assert_eq!(get(&[Section::TrailingAnchor]), block.trailing_anchor);
        }
        Format::EditRepl => {
            let edit = get(&[Section::Edit]);
            let repl = get(&[Section::Repl]);
            assert!(
                edit.starts_with(&block.anchor) && edit.ends_with(&block.old_lines),
                "edit section {edit:?} vs {block:?}"
            );
            assert!(
                repl.starts_with(&block.anchor) && repl.ends_with(&block.new_lines),
                "repl section {repl:?} vs {block:?}"
            );
        }
        Format::ApplyPatch | Format::UnifiedDiff => {
            // The updates carry the body as written; every hunk line is among them, in order.
            let written = get(&[Section::Patch]);
            let mut rest = written.as_str();
            for line in block
                .patch
                .iter()
                .flat_map(|p| p.hunks.iter())
                .flat_map(|h| h.lines().map(String::from).collect::<Vec<_>>())
                .filter(|l| l.len() > 1)
            {
                let at = rest
                    .find(line.as_str())
                    .unwrap_or_else(|| panic!("hunk line {line:?} not in the updates {written:?}"));
                rest = &rest[at + line.len()..];
            }
        }
    }
}

/// A small deterministic generator (xorshift), so chunkings are reproducible.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Splits `text` at random char boundaries into pieces of 1..=max bytes.
pub fn random_chunks<'a>(text: &'a str, rng: &mut Rng, max: usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = (1 + rng.below(max)).min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out
}

/// Cuts `text` at the given lengths in turn (moved on to char boundaries).
pub fn cut_at<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut i = 0;
    while !rest.is_empty() {
        let mut k = cuts[i % cuts.len()].max(1).min(rest.len());
        while !rest.is_char_boundary(k) {
            k += 1;
        }
        out.push(&rest[..k]);
        rest = &rest[k..];
        i += 1;
    }
    out
}

/// The chunkings a fixture is fed in: whole, one character at a time, and
/// `random` random ones of 1..=`max` bytes from `seed` (the same every run).
pub fn chunkings(text: &str, seed: u64, random: usize, max: usize) -> Vec<Vec<&str>> {
    let mut out = vec![vec![text], text.split_inclusive(|_| true).collect()];
    let mut rng = Rng(seed ^ text.len() as u64);
    for _ in 0..random {
        out.push(random_chunks(text, &mut rng, max));
    }
    out
}
