//! The JavaScript binding of editblocks: every encoding that crosses the
//! boundary, the snapshot host's buffers and the allocator. The core crate
//! never sees a `JsValue`.
//!
//! * [`records`] and [`results`]: the numeric encodings of parser events
//!   and apply results that `js/` reads (plain Rust, tested natively).
//! * `wasm` (compiled for `wasm32` only): the `#[wasm_bindgen]` exports,
//!   one file per feature.

pub mod records;
pub mod results;

#[cfg(target_arch = "wasm32")]
mod wasm;
