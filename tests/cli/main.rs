//! The CLI test binary: one module per area, compiled together to keep build time down.

mod csa_apply;
mod defaults;
mod docker;
mod generated;
mod golden;
mod kube_version;
mod large_manifests;
mod precommit;
mod real_snapshots;
mod replay;
mod reports;
mod robustness;
mod support;
mod vectors;
