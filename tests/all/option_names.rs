//! The names each enumerated option takes at the JavaScript boundary (the
//! binding hands `NAMES` to `js/options.js`, which checks options against
//! them) are exactly the names serde reads and writes, one per variant.

use editblocks::engine::Mode;
use editblocks::render::{Layout, Theme};
use editblocks::text::TrailingNewline;
use editblocks::tools::{Matching, SchemaApi};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::json;

/// `names` read as `variants` (each once), and each variant written as its name.
fn names_are_the_variants<T>(names: &[&str], variants: &[T])
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    assert_eq!(names.len(), variants.len(), "{names:?} / {variants:?}");
    for variant in variants {
        let name = serde_json::to_value(variant).expect("a name");
        assert!(
            names.iter().any(|n| json!(n) == name),
            "{variant:?} is written {name}, not among {names:?}"
        );
    }
    for name in names {
        let variant: T = serde_json::from_value(json!(name)).expect(name);
        assert!(variants.contains(&variant), "{name}");
    }
}

/// Every variant of `$enum`, listed once: the exhaustive `match` fails to
/// compile when the enum gains a variant that is not listed here.
macro_rules! every {
    ($enum:ident: $($variant:ident),+) => {{
        let all = vec![$($enum::$variant),+];
        all.iter().for_each(|v| match v {
            $($enum::$variant)|+ => {}
        });
        all
    }};
}

#[test]
fn every_option_name_list_is_its_enum() {
    names_are_the_variants(&Mode::NAMES, &every!(Mode: Sequential, Atomic));
    names_are_the_variants(&Matching::NAMES, &every!(Matching: Exact, Tolerant));
    names_are_the_variants(
        &TrailingNewline::NAMES,
        &every!(TrailingNewline: Preserve, Ensure),
    );
    names_are_the_variants(&Theme::NAMES, &every!(Theme: Light, Dark, Auto));
    names_are_the_variants(&Layout::NAMES, &every!(Layout: LineByLine, SideBySide));
    names_are_the_variants(
        &SchemaApi::NAMES,
        &every!(SchemaApi: Plain, Openai, OpenaiResponses, Anthropic, Gemini),
    );
    // The renderers and the schema builder read names with `from_name` too.
    assert!(Theme::NAMES.iter().all(|n| Theme::from_name(n).is_some()));
    assert!(Layout::NAMES.iter().all(|n| Layout::from_name(n).is_some()));
    assert!(SchemaApi::NAMES
        .iter()
        .all(|n| SchemaApi::from_name(n).is_some()));
}

#[test]
fn the_binding_gives_every_list_under_its_option_name() {
    let names: serde_json::Value =
        serde_json::from_str(&editblocks_wasm::results::option_names_json()).expect("JSON");
    assert_eq!(names["mode"], json!(Mode::NAMES));
    assert_eq!(names["matching"], json!(Matching::NAMES));
    assert_eq!(names["trailingNewline"], json!(TrailingNewline::NAMES));
    assert_eq!(names["theme"], json!(Theme::NAMES));
    assert_eq!(names["layout"], json!(Layout::NAMES));
    assert_eq!(names["api"], json!(SchemaApi::NAMES));
}
