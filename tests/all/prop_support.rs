//! How many cases each property test runs.
//!
//! `scripts/test.sh` runs the counts written in the tests with a fixed
//! `PROPTEST_RNG_SEED`, so a red CI run can be reproduced exactly. To hunt for
//! new failures, raise the count and leave the seed random:
//! `EDITBLOCKS_PROP_SCALE=50 cargo test --release`.

use proptest::test_runner::Config;

/// The property-test configuration for `cases` cases, times `EDITBLOCKS_PROP_SCALE`.
pub fn config(cases: u32) -> Config {
    let scale = std::env::var("EDITBLOCKS_PROP_SCALE")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1);
    let default = Config::default();
    // Rejected cases scale with the count, or a long hunt aborts on filters
    // that reject a fixed share of generated input.
    Config {
        cases: cases.saturating_mul(scale),
        max_global_rejects: default.max_global_rejects.saturating_mul(scale),
        ..default
    }
}
