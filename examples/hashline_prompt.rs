//! Prints the hashline system prompt: `cargo run --example hashline_prompt [--replace-text] [--width N]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut options = editblocks::hashline::HashlineOptions {
        allow_replace_text: args.iter().any(|a| a == "--replace-text"),
        ..Default::default()
    };
    if let Some(i) = args.iter().position(|a| a == "--width") {
        options.width = args
            .get(i + 1)
            .and_then(|w| w.parse().ok())
            .unwrap_or(options.width);
    }
    print!("{}", editblocks::hashline::system_prompt_with(&options));
}
