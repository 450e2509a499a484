//! The `kssa` command: parses arguments, runs one subcommand, maps the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // The whole command runs on one deep-stack thread, so input nested as deep as the reader
    // accepts cannot overflow the stack in the recursive walks.
    kssa::stack::with_deep_stack(cli::main)
}
