//! Binding tests for the parser feature.
