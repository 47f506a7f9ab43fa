//! Binding for the render module.
