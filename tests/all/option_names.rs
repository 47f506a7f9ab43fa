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

// Each list names every variant: a new one fails to compile here until it is listed.
fn modes() -> Vec<Mode> {
    let all = vec![Mode::Sequential, Mode::Atomic];
    all.iter().for_each(|m| match m {
        Mode::Sequential | Mode::Atomic => {}
    });
    all
}

fn matchings() -> Vec<Matching> {
    let all = vec![Matching::Exact, Matching::Tolerant];
    all.iter().for_each(|m| match m {
        Matching::Exact | Matching::Tolerant => {}
    });
    all
}

fn trailing_newlines() -> Vec<TrailingNewline> {
    let all = vec![TrailingNewline::Preserve, TrailingNewline::Ensure];
    all.iter().for_each(|t| match t {
        TrailingNewline::Preserve | TrailingNewline::Ensure => {}
    });
    all
}

fn themes() -> Vec<Theme> {
    let all = vec![Theme::Light, Theme::Dark, Theme::Auto];
    all.iter().for_each(|t| match t {
        Theme::Light | Theme::Dark | Theme::Auto => {}
    });
    all
}

fn layouts() -> Vec<Layout> {
    let all = vec![Layout::LineByLine, Layout::SideBySide];
    all.iter().for_each(|l| match l {
        Layout::LineByLine | Layout::SideBySide => {}
    });
    all
}

fn apis() -> Vec<SchemaApi> {
    let all = vec![
        SchemaApi::Plain,
        SchemaApi::Openai,
        SchemaApi::OpenaiResponses,
        SchemaApi::Anthropic,
        SchemaApi::Gemini,
    ];
    all.iter().for_each(|a| match a {
        SchemaApi::Plain
        | SchemaApi::Openai
        | SchemaApi::OpenaiResponses
        | SchemaApi::Anthropic
        | SchemaApi::Gemini => {}
    });
    all
}

#[test]
fn every_option_name_list_is_its_enum() {
    names_are_the_variants(&Mode::NAMES, &modes());
    names_are_the_variants(&Matching::NAMES, &matchings());
    names_are_the_variants(&TrailingNewline::NAMES, &trailing_newlines());
    names_are_the_variants(&Theme::NAMES, &themes());
    names_are_the_variants(&Layout::NAMES, &layouts());
    names_are_the_variants(&SchemaApi::NAMES, &apis());
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
