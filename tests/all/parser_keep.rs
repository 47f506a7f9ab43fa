//! Through compact mode (what `js/parser.js` reads): how much of the reply
//! the wrapper must keep while a patch streams, and how a patch operation's
//! start reaches it. The replies are in `tests/fixtures/parser_keep/`.

use crate::parser_records;

use editblocks::parser::ParseOptions;
use parser_records::{CompactStream, NONE, RECORD_JSON, RECORD_PATCH, RECORD_START};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/parser_keep/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// UTF-16 offset of byte `at` of `text` (the records' unit).
fn utf16_at(text: &str, at: usize) -> u32 {
    text[..at].encode_utf16().count() as u32
}

/// Record kinds and their sizes, to walk a feed's records.
fn walk(records: &[u32], mut each: impl FnMut(&[u32])) {
    let mut i = 0;
    while i < records.len() {
        let size = match records[i] {
            RECORD_JSON => 2,
            RECORD_PATCH | parser_records::RECORD_COMPLETE => 18,
            _ => 5,
        };
        each(&records[i..i + size]);
        i += size;
    }
}

#[test]
fn a_streamed_unified_diff_is_kept_from_its_current_file_not_its_first() {
    let reply = fixture("three-file-diff.md");
    let mut stream = CompactStream::new(&ParseOptions::default());
    let (mut at, mut file_start, mut confirmed, mut patches) = (0, None, false, 0);
    for line in reply.split_inclusive('\n') {
        if line.starts_with("--- ") {
            file_start = Some(utf16_at(&reply, at));
        }
        confirmed |= line.starts_with("+++ ");
        stream.feed_in_place(line);
        walk(&stream.sink().records, |r| {
            patches += (r[0] == RECORD_PATCH) as usize
        });
        at += line.len();
        if let (true, Some(start)) = (confirmed, file_start) {
            // The `---` line of the first file was once a path candidate; once
            // the diff is confirmed nothing before the current file is needed.
            let keep = stream.keep_from() as u32;
            assert!(
                keep >= start,
                "after {line:?} the wrapper must keep from {keep}, before the current file at {start}"
            );
        }
    }
    stream.finish_in_place();
    walk(&stream.sink().records, |r| {
        patches += (r[0] == RECORD_PATCH) as usize
    });
    assert_eq!(patches, 3, "each file is a patch block");
}

#[test]
fn a_patch_operation_start_points_at_its_path_in_the_reply() {
    let reply = fixture("two-op-patch.md");
    let units: Vec<u16> = reply.encode_utf16().collect();
    let mut stream = CompactStream::new(&ParseOptions::default());
    let mut starts = Vec::new();
    let mut json = 0;
    for line in reply.split_inclusive('\n') {
        stream.feed_in_place(line);
        walk(&stream.sink().records, |r| match r[0] {
            RECORD_START => {
                assert_ne!(r[3], NONE, "a patch operation's path is its own");
                starts.push((
                    r[2],
                    String::from_utf16_lossy(&units[r[3] as usize..r[4] as usize]),
                ));
            }
            RECORD_JSON => json += 1,
            _ => {}
        });
    }
    // The cleaned path (quotes dropped; UTF-16 offsets past `é`), as numbers.
    assert_eq!(
        starts,
        [
            (2, "src/quoted path.js".to_string()),
            (6, "src/added é.js".to_string())
        ]
    );
    assert_eq!(json, 0, "no event of this patch needs JSON");
}
