//! Binding tests for the engine feature.
