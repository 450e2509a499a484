//! Command-line interface: argument definitions and one module per subcommand. Exit codes are
//! decided here, in one place: 0 nothing to report, 1 differences or conflicts, 2 trouble.

use clap::{Parser, Subcommand};

mod apply;
mod client_side;
mod completions;
mod conflicts;
mod deferred;
mod diff;
mod exit;
mod ignore;
pub mod inputs;
mod man;
mod managers;
mod migrate_csa;
mod pipeline;
mod prune;
mod refused;
mod replay;
mod report;
mod strip_managed;
mod update;
mod version;

/// What a subcommand found, as an exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Nothing to report.
    Clean,
    /// Differences, conflicts or mismatches were found.
    Found,
}

/// Bad input or another failure: exit code 2.
pub const EXIT_TROUBLE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "kssa",
    version = version::SHORT,
    about = "Kubernetes Server-Side Apply, offline",
    propagate_version = true
)]
pub struct Cli {
    /// When to colour output: `auto` colours a terminal unless NO_COLOR is set.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: inputs::ColorChoice,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply manifests to live-object snapshots and print the results with managedFields.
    Apply(apply::Args),
    /// Show what applying manifests would change, as a diff per object.
    Diff(diff::Args),
    /// Explain the conflicts an apply would hit and how to resolve them.
    Conflicts(conflicts::Args),
    /// Show who owns what in live objects.
    Managers(managers::Args),
    /// Remove managedFields (and optionally server-set fields) from objects.
    StripManaged(strip_managed::Args),
    /// Migrate client-side-apply ownership to server-side apply, as kubectl does.
    MigrateCsa(migrate_csa::Args),
    /// Record a non-apply write (PUT or PATCH) by a field manager.
    Update(update::Args),
    /// Run scenario files of applies and updates, checking expectations.
    Replay(replay::Args),
    /// Print a shell completion script.
    Completions(completions::Args),
    /// Print the man page (roff).
    Man(man::Args),
    /// Print kssa's version and the Kubernetes versions it embeds.
    Version(version::Args),
}

/// Runs the command line; answers the exit status.
pub fn main() -> u8 {
    let cli = Cli::parse();
    let color = inputs::use_color(cli.color);
    let outcome = match cli.command {
        Command::Apply(args) => apply::run(args),
        Command::Diff(args) => diff::run(args, color),
        Command::Conflicts(args) => conflicts::run(args, color),
        Command::Managers(args) => managers::run(args),
        Command::StripManaged(args) => strip_managed::run(args),
        Command::MigrateCsa(args) => migrate_csa::run(args),
        Command::Update(args) => update::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
        Command::Version(args) => version::run(args),
    };
    match outcome {
        Ok(Status::Clean) => 0,
        Ok(Status::Found) => 1,
        Err(e) => {
            eprintln!("error: {e:#}");
            EXIT_TROUBLE
        }
    }
}
