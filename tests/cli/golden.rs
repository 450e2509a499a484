//! Golden tests: each directory under `testdata/cases/` (and `testdata/bad/`, which must exit 2)
//! holds inputs, a `cmd` file with the arguments (whitespace-separated), and the expected
//! `stdout`, `stderr` and `code`. `KSSA_BLESS=1` rewrites the expectations.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn cases(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("cmd").is_file())
        .collect();
    out.sort();
    out
}

/// Runs one case; returns a description of the mismatch, if any.
#[track_caller]
fn run_case(case: &Path) -> Option<String> {
    let cmd = std::fs::read_to_string(case.join("cmd")).unwrap();
    let stdin = std::fs::read(case.join("stdin")).unwrap_or_default();
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .current_dir(case)
        .args(cmd.split_whitespace())
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("KSSA_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        .write_stdin(stdin)
        .output()
        .unwrap();
    let got = [
        ("stdout", String::from_utf8_lossy(&out.stdout).into_owned()),
        ("stderr", String::from_utf8_lossy(&out.stderr).into_owned()),
        ("code", format!("{}\n", out.status.code().unwrap_or(-1))),
    ];
    if std::env::var_os("KSSA_BLESS").is_some() {
        for (name, text) in &got {
            std::fs::write(case.join(name), text).unwrap();
        }
        return None;
    }
    let mut problems = String::new();
    for (name, text) in &got {
        let want = std::fs::read_to_string(case.join(name)).unwrap_or_default();
        if &want != text {
            problems.push_str(&format!("--- {name}: expected\n{want}--- got\n{text}"));
        }
    }
    (!problems.is_empty()).then(|| format!("{}:\n{problems}", case.display()))
}

#[track_caller]
fn run_all(dir: &str, min: usize) -> Vec<PathBuf> {
    let all = cases(dir);
    assert!(all.len() >= min, "{dir}: only {} cases", all.len());
    let failures: Vec<String> = all.iter().filter_map(|c| run_case(c)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    all
}

#[test]
fn golden_cases() {
    run_all("testdata/cases", 1);
}

#[test]
fn bad_inputs_exit_2_with_a_message_and_no_panic() {
    for case in run_all("testdata/bad", 30) {
        let code = std::fs::read_to_string(case.join("code")).unwrap();
        let stderr = std::fs::read_to_string(case.join("stderr")).unwrap();
        assert_eq!(code.trim(), "2", "{}", case.display());
        assert!(
            stderr.starts_with("error: "),
            "{}: {stderr}",
            case.display()
        );
        assert!(!stderr.contains("panicked"), "{}: {stderr}", case.display());
    }
}
