//! The conformance vectors under `testdata/`, run by one data-driven test binary.

mod defaults;
mod migrate_csa;
mod patch;
mod roundtrip;
mod smd;
mod support;
mod unions;
mod yaml;
