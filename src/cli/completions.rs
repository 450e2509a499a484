//! `kssa completions SHELL`: a completion script generated from the clap definitions.

use super::Status;
use clap::CommandFactory;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The script for `shell`, as committed under `completions/`.
pub fn script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut super::Cli::command(), "kssa", &mut out);
    out
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    use std::io::Write;
    std::io::stdout().write_all(&script(args.shell))?;
    Ok(Status::Clean)
}
