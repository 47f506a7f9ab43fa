//! Binding for the parser module.
