//! `kssa managers`.

use super::Status;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Status> {
    anyhow::bail!("kssa managers is not available yet")
}
