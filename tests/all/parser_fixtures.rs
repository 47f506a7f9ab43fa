//! Every reply in `tests/fixtures/parser/*.md` against its `.json`: the
//! blocks and discards, through `parse_edits` and through `EditStream` fed
//! whole, one character at a time, split at every position, and in random
//! chunks. `UPDATE_FIXTURES=1 cargo test --test all parser_fixtures` writes the
//! `.json` files for review.

use crate::parser_support;

use editblocks::parser::{parse_edits, ParseOptions};
use parser_support::*;

#[test]
fn fixtures_give_their_expected_blocks_in_any_chunking() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 25, "fixture folder looks incomplete");
    let update = std::env::var_os("UPDATE_FIXTURES").is_some();
    for fixture in fixtures {
        let name = &fixture.name;
        let existing: Option<Expected> = std::fs::read_to_string(&fixture.expected_path)
            .ok()
            .map(|t| serde_json::from_str(&t).expect("expected json"));
        let formats = existing
            .as_ref()
            .map(|e| e.formats.clone())
            .unwrap_or_default();
        let options = ParseOptions {
            formats: formats.clone(),
            ..Default::default()
        };
        let text = fixture.reply.as_str();
        let (blocks, discarded) = run_stream(&options, &[text]);
        let actual = Expected {
            formats,
            blocks,
            discarded,
        };
        if update {
            std::fs::write(
                &fixture.expected_path,
                serde_json::to_string_pretty(&actual).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let expected = existing.unwrap_or_else(|| panic!("{name}: no expected .json"));
        assert_eq!(actual, expected, "{name}: stream fed whole");
        assert_eq!(
            parse_edits(text, &options),
            expected.blocks,
            "{name}: parse_edits"
        );

        let chars: Vec<&str> = text.split_inclusive(|_| true).collect();
        assert_eq!(
            run_stream(&options, &chars),
            (expected.blocks.clone(), expected.discarded.clone()),
            "{name}: one char at a time"
        );
        for (cut, _) in text.char_indices().skip(1) {
            let two = [&text[..cut], &text[cut..]];
            assert_eq!(
                run_stream(&options, &two),
                (expected.blocks.clone(), expected.discarded.clone()),
                "{name}: split at byte {cut}"
            );
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ text.len() as u64);
        for _ in 0..50 {
            let chunks = random_chunks(text, &mut rng, 12);
            assert_eq!(
                run_stream(&options, &chunks),
                (expected.blocks.clone(), expected.discarded.clone()),
                "{name}: random chunks {chunks:?}"
            );
        }
    }
}
