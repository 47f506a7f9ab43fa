//! Binding for the engine module.
