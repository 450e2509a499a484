//! `kssa migrate-csa`.

use super::Status;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Status> {
    anyhow::bail!("kssa migrate-csa is not available yet")
}
