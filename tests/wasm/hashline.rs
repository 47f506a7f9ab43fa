//! Binding tests for the hashline feature.
