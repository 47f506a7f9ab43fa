//! The crate's integration tests, one binary: each module is one area
//! (fixtures, property tests, attacks), the `*_support` modules are what
//! they share. `cargo test --test all <module>` runs one area.

mod apply_support;
mod fixture_support;
/// The binding's record of parser events, tested here against the core.
use editblocks_wasm::records as parser_records;
mod parser_support;
mod prop_support;

mod boundary_depth;
mod defaults;
mod diff;
mod engine_fixtures;
mod engine_props;
mod file_change_render;
mod hashline;
mod hashline_fixtures;
mod hashline_props;
mod host_changed;
mod host_escape;
mod line_endings_props;
mod line_model_props;
mod locate_props;
mod long_lines;
mod option_names;
mod parser_corpus;
mod parser_fixtures;
mod parser_forgotten_end;
mod parser_keep;
mod parser_line_ends;
mod parser_marker_props;
mod parser_props;
mod patch_allow_folders;
mod patch_fixtures;
mod patch_old_path;
mod patch_props;
mod paths;
mod preview;
mod preview_patch;
mod preview_tools;
mod reindent_props;
mod render;
mod render_invisible;
mod summary_limits;
mod tools;
mod tools_fixtures;
