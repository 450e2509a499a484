//! `--exit-code` / `--no-exit-code` on `diff` and `conflicts`: by default differences exit 1, as
//! `kubectl diff` and `git diff --exit-code` do; `--no-exit-code` makes them exit 0 for jobs that
//! only want the report. Trouble (bad input, a failed write) still exits 2.

use super::Status;

#[derive(Debug, Clone, clap::Args)]
pub struct ExitArgs {
    /// Exit 1 when anything would change or conflict (the default, as `kubectl diff`).
    #[arg(long, overrides_with = "no_exit_code")]
    pub exit_code: bool,
    /// Exit 0 even when something would change or conflict; errors still exit 2.
    #[arg(long, overrides_with = "exit_code")]
    pub no_exit_code: bool,
}

impl ExitArgs {
    /// The status for a run that found differences (`found`) or not.
    pub fn status(&self, found: bool) -> Status {
        if found && !self.no_exit_code {
            Status::Found
        } else {
            Status::Clean
        }
    }
}
