//! Prints the discard events of a reply file: `cargo run --example parse_debug -- FILE [FROM TO]`.
use editblocks::parser::{EditStream, ParseOptions, StreamEvent};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    let from: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(u32::MAX);
    let mut s = EditStream::new(&ParseOptions::default());
    let mut ev = s.feed(&text);
    ev.extend(s.finish());
    for e in ev {
        match e {
            StreamEvent::BlockDiscarded { line_number, reason, .. } if (from..=to).contains(&line_number) => println!("D {line_number}: {reason}"),
            StreamEvent::BlockComplete { block, .. } if (from..=to).contains(&block.line_number) => println!("C {}: {}", block.line_number, block.file_path),
            _ => {}
        }
    }
}
