//! Times the core natively on a reply file: `cargo run --release --example parse_time -- FILE`.
use editblocks::parser::{parse_edits, parse_spans, EditStream, ParseOptions};
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).expect("a reply file");
    let text = std::fs::read_to_string(path).expect("file");
    let mb = text.len() as f64 / 1048576.0;
    let o = ParseOptions::default();
    for _ in 0..3 {
        let t = Instant::now();
        let n = parse_spans(&text, &o).len();
        let a = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let m = parse_edits(&text, &o).len();
        let b = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut s = EditStream::new(&o);
        let mut e = 0;
        for c in text.as_bytes().chunks(64) {
            e += s.feed(std::str::from_utf8(c).unwrap_or("")).len();
        }
        e += s.finish().len();
        let c = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut s = EditStream::compact(&o);
        let mut r = 0;
        for c in text.as_bytes().chunks(64) {
            s.feed_compact_in_place(std::str::from_utf8(c).unwrap_or(""));
            r += s.compact_records().len() + s.take_compact_events().len();
        }
        let d = t.elapsed().as_secs_f64();
        println!("compact64 {r}: {:.0} MB/s", mb / d);
        println!("spans {n}: {:.0} MB/s; blocks {m}: {:.0} MB/s; stream64 {e} events: {:.0} MB/s", mb / a, mb / b, mb / c);
    }
}
