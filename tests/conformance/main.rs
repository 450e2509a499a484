//! The conformance vectors under `testdata/`, run by one data-driven test binary.

mod patch;
mod smd;
mod support;
mod yaml;
