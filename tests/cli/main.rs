//! The CLI test binary: one module per area, compiled together to keep build time down.

mod defaults;
mod docker;
mod generated;
mod golden;
mod replay;
mod vectors;
