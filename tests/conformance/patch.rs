//! Patch vectors (testdata/conformance/patch).
