//! Times the parser alone (native) on a reply file: one shot and in 64-byte chunks.
//! Usage: cargo run --release --example parse_timing -- FILE...
use std::time::Instant;

use editblocks::parser::{parse_spans_and_patches, Grammar, ParseOptions, SpanSink};

fn best(mut f: impl FnMut()) -> f64 {
    f();
    let mut best = f64::MAX;
    for _ in 0..8 {
        let t0 = Instant::now();
        let mut runs = 0;
        while t0.elapsed().as_millis() < 250 {
            f();
            runs += 1;
        }
        best = best.min(t0.elapsed().as_secs_f64() / runs as f64);
    }
    best
}

fn main() {
    for file in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&file).expect("readable file");
        let mb = text.len() as f64 / 1e6;
        let opts = ParseOptions::default();
        if std::env::var_os("PARSE_OFFSETS").is_some() {
            let mut g = Grammar::new(&opts, SpanSink::default());
            g.feed(&text);
            g.end();
            let sink = std::mem::take(g.sink_mut());
            let mut found = 0;
            for ((_, b), at) in sink.patches.iter().zip(&sink.patch_offsets) {
                let same = at.is_some_and(|at| text[at..].starts_with(&b.raw_block));
                found += usize::from(same);
                if !same && found == 0 {
                    println!("not in reply: {at:?} {:?}", &b.raw_block[..80]);
                    found = usize::MAX / 2;
                }
            }
            println!("{file}: raw in reply {found} of {}", sink.patches.len());
            continue;
        }
        if std::env::var_os("PARSE_ONCE").is_some() {
            // One run each (for an instruction count: callgrind, perf stat).
            std::hint::black_box(parse_spans_and_patches(&text, &opts));
            let mut g = Grammar::new(&opts, SpanSink::default());
            for chunk in text.as_bytes().chunks(64) {
                g.feed(std::str::from_utf8(chunk).expect("ASCII text"));
            }
            g.end();
            std::hint::black_box(g.sink_mut());
            continue;
        }
        let n = parse_spans_and_patches(&text, &opts).1.len();
        let one = best(|| {
            std::hint::black_box(parse_spans_and_patches(&text, &opts));
        });
        let chunked = best(|| {
            let mut g = Grammar::new(&opts, SpanSink::default());
            for chunk in text.as_bytes().chunks(64) {
                g.feed(std::str::from_utf8(chunk).expect("ASCII text"));
            }
            g.end();
            std::hint::black_box(g.sink_mut());
        });
        println!(
            "{file}: {n} blocks, one shot {:.0} MB/s, 64-byte chunks {:.0} MB/s",
            mb / one,
            mb / chunked
        );
    }
}
