//! What several test modules run the binary with.

use assert_cmd::Command;
use std::path::Path;

/// Runs kssa in `dir` without colour and at a fixed time: its exit code, stdout and stderr.
pub fn kssa_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
