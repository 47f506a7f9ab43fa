//! `cargo run --release --example preview_repetitive [LINES]`: the live
//! preview of an `apply-patch` section against a file whose lines repeat
//! with period 3 (the case a hostile reply can make: thousands of places
//! stay candidates on every streamed line). Prints the time to stream the
//! reply through the parser alone and through the parser and the preview
//! (the state asked after every chunk, as a UI does), and the preview's
//! final state. Default: 16,000 file lines, a section of as many old lines.

use std::time::Instant;

use editblocks::parser::{EditStream, ParseOptions};
use editblocks::preview::PreviewSession;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16_000);
    let period = ["alpha();", "beta();", "gamma();"];
    let file: String = (0..n).map(|i| format!("{}\n", period[i % 3])).collect();
    // Every file line as context but the last, which the section replaces.
    let mut body = String::new();
    for i in 0..n - 1 {
        body.push_str(&format!(" {}\n", period[i % 3]));
    }
    body.push_str(&format!("-{}\n+delta();\n", period[(n - 1) % 3]));
    let reply = format!(
        "Here is the change.\n\n*** Begin Patch\n*** Update File: src/rep.js\n@@\n{body}*** End Patch\n"
    );
    let chunks: Vec<&str> = reply
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).expect("ASCII"))
        .collect();

    let t = Instant::now();
    let mut stream = EditStream::new(&ParseOptions::default());
    for c in &chunks {
        stream.feed(c);
    }
    stream.finish();
    let parse = t.elapsed();

    let t = Instant::now();
    let mut session = PreviewSession::new([("src/rep.js", file.as_str())]);
    let mut stream = EditStream::new(&ParseOptions::default());
    let mut states = 0usize;
    for c in &chunks {
        for e in stream.feed(c) {
            session.on_event(&e);
        }
        states += usize::from(session.state().is_some());
    }
    for e in stream.finish() {
        session.on_event(&e);
    }
    let preview = t.elapsed();
    let last = session.patch_preview().map(|p| p.state());
    println!(
        "{n} file lines, a section of {n} old lines, {} chunks ({states} states asked)",
        chunks.len()
    );
    println!(
        "parse alone:          {:>9.1} ms",
        parse.as_secs_f64() * 1e3
    );
    println!(
        "parse + live preview: {:>9.1} ms",
        preview.as_secs_f64() * 1e3
    );
    println!("final state: {last:?}");
}
