use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn shell_suggestions_cross_the_boundary() {
    // Exercised through the crate API compiled for wasm32.
    let found = editblocks::detect_shell_suggestions("`git mv a.rs b.rs`");
    assert_eq!(found, ["git mv a.rs b.rs"]);
}
