//! Binding tests for the tools feature.
