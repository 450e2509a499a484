//! The committed completions and man page match what the clap definitions generate
//! (`KSSA_BLESS=1` regenerates them).

use assert_cmd::Command;
use std::path::Path;

#[track_caller]
fn check(args: &[&str], file: &str) {
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "kssa {args:?} failed");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    if std::env::var_os("KSSA_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &out.stdout).unwrap();
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == out.stdout,
        "{file} is stale: run `KSSA_BLESS=1 cargo test --test cli generated`"
    );
}

#[test]
fn completions_are_current() {
    for (shell, file) in [
        ("bash", "completions/kssa.bash"),
        ("zsh", "completions/_kssa"),
        ("fish", "completions/kssa.fish"),
        ("elvish", "completions/kssa.elv"),
        ("powershell", "completions/_kssa.ps1"),
    ] {
        check(&["completions", shell], file);
    }
}

#[test]
fn man_page_is_current() {
    check(&["man"], "man/kssa.1");
}
