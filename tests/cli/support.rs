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

/// A directory under the system's temp dir for one test's files, removed when dropped (also
/// when the test fails), so that test runs leave nothing behind.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("kssa-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
