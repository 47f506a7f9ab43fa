//! Binding for the tools module.
