//! `kssa man`: the man page, generated from the clap definitions (roff on stdout).

use super::Status;
use clap::CommandFactory;

#[derive(Debug, clap::Args)]
pub struct Args {}

/// The roff text of `kssa.1`, as committed under `man/`.
pub fn page() -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(super::Cli::command()).render(&mut out)?;
    Ok(out)
}

pub fn run(_args: Args) -> anyhow::Result<Status> {
    use std::io::Write;
    std::io::stdout().write_all(&page()?)?;
    Ok(Status::Clean)
}
