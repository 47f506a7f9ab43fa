//! The parser: any reply parses without a panic, and any chunking of it gives
//! the blocks and discards of the whole text (parse_edits and one feed).
#![no_main]

use editblocks::parser::{
    detect_format, parse_edits, parse_spans, EditStream, ParseOptions, StreamEvent,
};
use editblocks::Format;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fn run(options: &ParseOptions, chunks: &[&str], pending: bool) -> Vec<StreamEvent> {
    let mut stream = EditStream::new(options);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(stream.feed(chunk));
        if pending {
            let _ = stream.pending();
        }
    }
    events.extend(stream.finish());
    // Only the outcome must not depend on the chunking; updates may merge differently.
    events.retain(|e| {
        matches!(
            e,
            StreamEvent::BlockComplete { .. } | StreamEvent::BlockDiscarded { .. }
        )
    });
    events
}

fuzz_target!(|data: &[u8]| {
    let (flags, parts) = common::parts(data, 1);
    let text = &parts[0];
    let all = Format::ALL;
    let formats = all
        .iter()
        .enumerate()
        .filter(|(i, _)| flags & (1 << i) != 0)
        .map(|(_, f)| *f)
        .collect();
    let options = ParseOptions {
        formats,
        ..Default::default()
    };
    let blocks = parse_edits(text, &options);
    let _ = parse_spans(text, &options);
    let _ = detect_format(text);
    let whole = run(&options, &[text.as_str()], false);
    let from_whole: Vec<_> = whole
        .iter()
        .filter_map(|e| match e {
            StreamEvent::BlockComplete { block, .. } => Some(block.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(from_whole, blocks, "one feed and parse_edits differ");
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15 ^ data.len() as u64 ^ u64::from(flags) << 32);
    for max in [1, 3, 17] {
        let chunks = common::chunks(text, &mut rng, max);
        assert_eq!(
            run(&options, &chunks, max == 3),
            whole,
            "chunked in pieces of up to {max} bytes"
        );
    }
});
