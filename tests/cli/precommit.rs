//! The shipped pre-commit hooks, run as pre-commit runs them: each hook's exact `entry` from
//! `.pre-commit-hooks.yaml`, split as a shell would, then the `args` of the repository's
//! `.pre-commit-config.yaml`, then every file of the repository tree in `testdata/precommit/`
//! that the hook's `files`/`exclude` patterns and the config's `exclude` select. Expected
//! output in `testdata/precommit/expected/` (`KSSA_BLESS=1` rewrites it).

use kssa::value::Value;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn read_yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    kssa::yaml::parse_document(&text).unwrap()
}

fn text<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// POSIX shell word splitting for the quoting the entries use ('…', "…", plain words).
fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '"'));
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Every file under `dir`, as paths relative to it with `/`, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// Runs one hook over the repository tree plus `extra` files; returns (stdout, stderr, code).
fn run_hook(id: &str, extra: &[&str]) -> (String, String, i32) {
    let hooks = read_yaml(&root().join(".pre-commit-hooks.yaml"));
    let hook = hooks
        .as_list()
        .unwrap()
        .iter()
        .find(|h| text(h, "id") == Some(id))
        .unwrap_or_else(|| panic!("no hook {id}"));
    let repo = root().join("testdata/precommit/repo");
    let config = read_yaml(&repo.join(".pre-commit-config.yaml"));
    let configured = config.get("repos").and_then(Value::as_list).unwrap()[0]
        .get("hooks")
        .and_then(Value::as_list)
        .unwrap()
        .iter()
        .find(|h| text(h, "id") == Some(id))
        .unwrap()
        .clone();
    let pattern = |v: &Value, key: &str| text(v, key).map(|p| Regex::new(p).unwrap());
    let files = pattern(hook, "files").unwrap();
    let excludes: Vec<Regex> = [pattern(hook, "exclude"), pattern(&configured, "exclude")]
        .into_iter()
        .flatten()
        .collect();
    let mut selected: Vec<String> = tree(&repo)
        .into_iter()
        .filter(|f| files.is_match(f) && !excludes.iter().any(|x| x.is_match(f)))
        .collect();
    selected.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<String> = configured
        .get("args")
        .and_then(Value::as_list)
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let mut words = shell_words(text(hook, "entry").unwrap());
    let program = words.remove(0);
    let kssa = assert_cmd::cargo::cargo_bin("kssa");
    let path = format!(
        "{}:{}",
        kssa.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(program)
        .args(words)
        .args(args)
        .args(&selected)
        .current_dir(&repo)
        .env("PATH", path)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .env_remove("KSSA_EXTERNAL_DIFF")
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn check(name: &str, got: (String, String, i32)) {
    let dir = root().join("testdata/precommit/expected");
    let parts = [
        ("stdout", got.0),
        ("stderr", got.1),
        ("code", format!("{}\n", got.2)),
    ];
    for (part, text) in parts {
        let file = dir.join(format!("{name}.{part}"));
        if std::env::var_os("KSSA_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        assert_eq!(want, text, "{name}.{part}");
    }
}

#[test]
fn hooks_skip_what_is_not_kubernetes_objects() {
    let diff = run_hook("kssa-diff", &[]);
    for skipped in [
        "chart/Chart.yaml: skipped: a Helm chart file",
        "chart/values.yaml: skipped: a Helm values file",
        "chart/values-prod.yaml: skipped: a Helm values file",
        "deploy/kustomization.yaml: skipped: a kustomization file",
        "config/settings.yaml:2:1: document 1: skipped: not a Kubernetes object",
        "config/settings.yaml:5:1: document 2: skipped: not a Kubernetes object",
    ] {
        assert!(diff.1.contains(skipped), "{skipped}:\n{}", diff.1);
    }
    assert!(diff.0.contains("+  LOG_LEVEL: debug"), "{}", diff.0);
    assert_eq!(diff.2, 0, "{}", diff.1);
    check("kssa-diff", diff);
    check("kssa-conflicts", run_hook("kssa-conflicts", &[]));
}

#[test]
fn hooks_still_refuse_half_objects() {
    let (_, stderr, code) = run_hook("kssa-conflicts", &["../half-object.yaml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr
            .contains("error: ../half-object.yaml:2:1: document 1: Object 'apiVersion' is missing"),
        "{stderr}"
    );
}

#[test]
fn entries_split_like_a_shell() {
    assert_eq!(
        shell_words("bash -c 'a b \"c\"' -- x"),
        ["bash", "-c", "a b \"c\"", "--", "x"]
    );
}
