//! Binding tests for the engine feature: the core compiled for wasm32, and
//! its types crossing the boundary the way `src/wasm/engine.rs` converts them.

use editblocks::apply_edits;
use editblocks::engine::{validate_edit, ApplyOptions, Matching, Mode};
use editblocks::MemoryHost;
use editblocks::{EditBlock, Format, Status};
use js_sys::{Object, Reflect};
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn block(path: &str, anchor: &str, old: &str, new: &str) -> EditBlock {
    EditBlock {
        anchor: anchor.into(),
        ..EditBlock::new(Format::EditRepl, path, old, new)
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn options_come_from_a_camel_case_js_object() {
    let js = Object::new();
    Reflect::set(&js, &"dryRun".into(), &JsValue::TRUE).unwrap();
    Reflect::set(&js, &"mode".into(), &"atomic".into()).unwrap();
    Reflect::set(&js, &"matching".into(), &"tolerant".into()).unwrap();
    let opts: ApplyOptions = serde_wasm_bindgen::from_value(js.into()).unwrap();
    assert!(opts.dry_run && opts.stage);
    assert_eq!(
        (opts.mode, opts.matching),
        (Mode::Atomic, Matching::Tolerant)
    );

    let bad = Object::new();
    Reflect::set(&bad, &"mode".into(), &"atomik".into()).unwrap();
    let err = serde_wasm_bindgen::from_value::<ApplyOptions>(bad.into())
        .unwrap_err()
        .to_string();
    assert!(err.contains("atomik"), "{err}");
}

#[wasm_bindgen_test]
fn results_cross_as_plain_camel_case_objects() {
    let mut host = MemoryHost::with_files([
        ("a.py", "x = 1\ny = 2\nx = 1\n"),
        ("b.py", "def f():\n\tpass\n"),
    ]);
    let blocks = [
        block("a.py", "", "x = 1", "x = 3"),
        block("b.py", "def f():", "    pass", "    return 1"),
        block("../up", "", "", "x"),
    ];
    let result = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    let js = result
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    let results = get(&js, "results");
    let first = Reflect::get_u32(&results, 0).unwrap();
    assert_eq!(get(&first, "status").as_string().unwrap(), "failed");
    assert_eq!(get(&first, "errorKind").as_string().unwrap(), "ambiguous");
    assert_eq!(get(&first, "estimatedLine").as_f64(), Some(1.0));
    let second = Reflect::get_u32(&results, 1).unwrap();
    let nearest = get(&get(&second, "diagnostics"), "nearest");
    let similarity = get(&Reflect::get_u32(&nearest, 0).unwrap(), "similarity")
        .as_f64()
        .unwrap();
    assert_eq!(
        similarity,
        (similarity * 100.0).round() / 100.0,
        "similarity crosses as a short decimal"
    );
    let third = Reflect::get_u32(&results, 2).unwrap();
    assert_eq!(get(&third, "errorKind").as_string().unwrap(), "path-escape");
    assert!(get(&js, "retryPrompt")
        .as_string()
        .unwrap()
        .contains("a.py (2 matches)"));
    assert!(get(&first, "matchedBy").is_undefined());
    assert!(host.reads.iter().all(|p| p != "../up" && p != "up"));
}

#[wasm_bindgen_test]
fn a_large_file_does_not_panic_or_hang() {
    let content: String = (0..5000).map(|i| format!("line {i}\n")).collect();
    let v = validate_edit(
        &block("big.txt", "line 4998", "line 4999", "end"),
        &content,
        &ApplyOptions::default(),
    );
    assert!(v.ok);
    let v = validate_edit(
        &block("big.txt", "línea ✓", "", "x"),
        &content,
        &ApplyOptions::default(),
    );
    assert!(!v.ok);
    let mut host = MemoryHost::with_files([("big.txt", content.as_str())]);
    let r = apply_edits(
        &[block("big.txt", "line 4998", "line 4999", "end")],
        &mut host,
        &ApplyOptions::default(),
    );
    assert_eq!(r.results[0].status, Status::Applied);
    assert!(host.text("big.txt").unwrap().ends_with("line 4998\nend\n"));
}
