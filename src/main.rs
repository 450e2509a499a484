//! The `kssa` command: parses arguments, runs one subcommand, maps the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
