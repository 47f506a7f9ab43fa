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

/// The field names serde reads for the struct `T` (recorded from the
/// `deserialize_struct` call its derive makes).
fn fields_of<T: DeserializeOwned>() -> Vec<&'static str> {
    use serde::de::{self, Visitor};
    #[derive(Debug)]
    struct Recorded(Vec<&'static str>);
    impl std::fmt::Display for Recorded {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{:?}", self.0)
        }
    }
    impl std::error::Error for Recorded {}
    impl de::Error for Recorded {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Recorded(Vec::new())
        }
    }
    struct Recorder;
    impl<'de> de::Deserializer<'de> for Recorder {
        type Error = Recorded;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Recorded> {
            Err(Recorded(Vec::new()))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Recorded> {
            Err(Recorded(fields.to_vec()))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    match T::deserialize(Recorder) {
        Err(Recorded(fields)) => fields,
        Ok(_) => unreachable!("the recorder never gives a value"),
    }
}

/// A value of what a schema entry says the option takes.
fn sample(takes: &str, names: &serde_json::Value) -> serde_json::Value {
    match takes {
        "boolean" => json!(true),
        "string" => json!("src"),
        "integer" | "count" => json!(3),
        "string[]" => json!([]),
        "folder[]" => json!(["src"]),
        _ => match takes.strip_prefix("enum:") {
            Some(list) => names[list][1].clone(),
            None => panic!("no sample for {takes}"),
        },
    }
}

/// The options JavaScript checks for an applying function are the fields of
/// the Rust options type the binding reads it into: a name JavaScript
/// accepts that the core ignored would make a misspelt `dryRun` write.
fn schema_is_the_options_type<T: DeserializeOwned>(
    function: &str,
    binding_only: &[&str],
    core_only: &[&str],
) {
    let names: serde_json::Value =
        serde_json::from_str(&editblocks_wasm::results::option_names_json()).expect("JSON");
    let schemas: serde_json::Value =
        serde_json::from_str(&editblocks_wasm::results::option_schemas_json()).expect("JSON");
    let schema = schemas[function].as_object().expect(function);
    let mut checked: Vec<&str> = schema
        .keys()
        .map(String::as_str)
        .filter(|k| !binding_only.contains(k))
        .collect();
    let mut fields: Vec<&str> = fields_of::<T>()
        .into_iter()
        .filter(|f| !core_only.contains(f))
        .collect();
    checked.sort_unstable();
    fields.sort_unstable();
    assert_eq!(checked, fields, "{function}");
    for (name, takes) in schema {
        if binding_only.contains(&name.as_str()) {
            continue;
        }
        let value = sample(takes.as_str().expect("a type"), &names);
        let read: Result<T, _> = serde_json::from_value(json!({ name.as_str(): value.clone() }));
        assert!(
            read.is_ok(),
            "{function}: {name} = {value} is not read as {takes}"
        );
    }
}

#[test]
fn each_applying_function_checks_the_fields_of_its_options_type() {
    use editblocks::engine::ApplyOptions;
    use editblocks::hashline::HashlineOptions;
    use editblocks::tools::ToolOptions;
    schema_is_the_options_type::<ApplyOptions>("applyEdits", &[], &[]);
    // The session becomes the tool options' history and listings.
    schema_is_the_options_type::<ToolOptions>(
        "applyToolCalls",
        &["session"],
        &["history", "listings"],
    );
    schema_is_the_options_type::<HashlineOptions>("applyHashlineEdit", &[], &[]);
}
