//! Binding tests for the render feature.
