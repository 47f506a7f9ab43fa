//! Binding tests for the parser feature: the core compiled for wasm32 gives
//! the same blocks whole, streamed, in compact mode and as spans.
use editblocks::parser::{parse_edits, parse_spans, EditStream, ParseOptions, StreamEvent};
use editblocks_wasm::records::{
    CompactStream, RECORD_COMPLETE, RECORD_JSON, RECORD_START, RECORD_UPDATE,
};
use wasm_bindgen_test::*;

const REPLY: &str = "Voilà 🎉\n\nsrc/héllo.py\n```python\n<<<<<<< SEARCH\nold 日本\n=======\nnew 👋🏽\n>>>>>>> REPLACE\n```\nsrc/b.rs\r\n««« EDIT\r\nfn a() {}\r\n═══════ REPL\r\nfn a() {}\r\nfn b() {}\r\n»»» EDIT END\r\n";

#[wasm_bindgen_test]
fn streamed_byte_by_byte_equals_whole() {
    let options = ParseOptions::default();
    let whole = parse_edits(REPLY, &options);
    assert_eq!(whole.len(), 2);
    assert_eq!(whole[1].anchor, "fn a() {}");
    assert_eq!(whole[1].new_lines, "fn b() {}");
    let mut stream = EditStream::new(&options);
    let mut blocks = Vec::new();
    let mut collect = |events: Vec<StreamEvent>| {
        for e in events {
            if let StreamEvent::BlockComplete { block, .. } = e {
                blocks.push(block);
            }
        }
    };
    for (i, c) in REPLY.char_indices() {
        collect(stream.feed(&REPLY[i..i + c.len_utf8()]));
    }
    collect(stream.finish());
    assert_eq!(blocks, whole);
}

#[wasm_bindgen_test]
fn spans_and_compact_records_point_at_the_same_text() {
    let options = ParseOptions::default();
    let whole = parse_edits(REPLY, &options);
    let normal = REPLY.replace("\r\n", "\n");
    let spans = parse_spans(REPLY, &options);
    assert_eq!(spans.len(), 2);
    assert_eq!(&normal[spans[0].new.0..spans[0].new.1], whole[0].new_lines);

    // Compact mode: offsets are UTF-16 units of the normalised reply.
    let units: Vec<u16> = normal.encode_utf16().collect();
    let slice = |s: u32, e: u32| String::from_utf16(&units[s as usize..e as usize]).unwrap();
    let mut stream = CompactStream::new(&options);
    let mut starts = Vec::new();
    let mut completes = Vec::new();
    stream.feed_in_place(&normal);
    let mut records = stream.sink().records.clone();
    records.extend(stream.finish().records);
    let mut i = 0;
    while i < records.len() {
        match records[i] {
            RECORD_UPDATE => i += 5,
            RECORD_JSON => i += 2,
            RECORD_START => {
                starts.push(slice(records[i + 3], records[i + 4]));
                i += 5;
            }
            RECORD_COMPLETE => {
                completes.push((
                    slice(records[i + 10], records[i + 11]),
                    slice(records[i + 14], records[i + 15]),
                ));
                i += 18;
            }
            other => panic!("unknown record {other}"),
        }
    }
    assert_eq!(starts, ["src/héllo.py", "src/b.rs"]);
    assert_eq!(
        completes,
        whole
            .iter()
            .map(|b| (b.new_lines.clone(), b.raw_block.clone()))
            .collect::<Vec<_>>()
    );
}
