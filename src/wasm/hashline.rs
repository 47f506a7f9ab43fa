//! Binding for the hashline module.
