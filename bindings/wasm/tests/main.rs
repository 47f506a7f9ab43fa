//! Binding tests, run under wasm-bindgen-test in Node:
//! `cargo test --target wasm32-unknown-unknown --test wasm` (see scripts/test.sh).
//! One module per feature.
#![cfg(target_arch = "wasm32")]

mod common;
mod engine;
mod hashline;
mod parser;
mod render;
mod tools;
