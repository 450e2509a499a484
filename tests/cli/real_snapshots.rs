//! Real clusters' objects through the binary (testdata/real-snapshots): each live snapshot, made
//! into a manifest with `kssa strip-managed --server-fields`, is diffed against the snapshot
//! itself with its last-applied annotation removed. A server storing that object reports
//! nothing, so `kssa diff` must exit 0, unless the file is listed in KNOWN_DIFFERENCES.md.
//!
//! The annotation goes from the live side too: with it there, an apply as `kubectl` makes the
//! server rewrite it from the applied configuration (`lastAppliedUpdater`), a real change.

use assert_cmd::Command;
use kssa::value::Value;
use kssa::yaml::{parse_stream, to_yaml_string};
use std::path::{Path, PathBuf};

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn snapshots(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        })
        .collect();
    files.sort();
    files
}

fn drop_last_applied(v: &mut Value) {
    let Some(m) = v.as_map_mut() else { return };
    if let Some(Value::List(items)) = m.get_mut("items") {
        items.iter_mut().for_each(drop_last_applied);
    }
    if let Some(Value::Map(meta)) = m.get_mut("metadata") {
        if let Some(Value::Map(a)) = meta.get_mut("annotations") {
            a.shift_remove(LAST_APPLIED);
            if a.is_empty() {
                meta.shift_remove("annotations");
            }
        }
    }
}

/// The snapshot without its last-applied annotation, as a YAML stream.
fn live_without_annotation(file: &Path) -> String {
    let docs = parse_stream(&std::fs::read(file).unwrap()).unwrap();
    docs.into_iter()
        .map(|mut d| {
            drop_last_applied(&mut d.value);
            to_yaml_string(&d.value)
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

fn kssa(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("kssa")
        .unwrap()
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("KSSA_EXTERNAL_DIFF")
        .output()
        .unwrap()
}

/// Why a snapshot does not come back unchanged, or `None`.
fn check(file: &Path, scratch: &Path) -> Option<String> {
    let ext = file.extension().unwrap().to_string_lossy();
    let manifest = scratch.join(format!("manifest.{ext}"));
    let live = scratch.join("live.yaml");
    let strip = kssa(&[
        "strip-managed",
        "--server-fields",
        &file.display().to_string(),
    ]);
    if !strip.status.success() {
        return Some(format!(
            "strip-managed exit {:?}: {}",
            strip.status.code(),
            String::from_utf8_lossy(&strip.stderr)
        ));
    }
    std::fs::write(&manifest, &strip.stdout).unwrap();
    std::fs::write(&live, live_without_annotation(file)).unwrap();
    let (m, l) = (manifest.display().to_string(), live.display().to_string());
    let diff = kssa(&["diff", "--color", "never", "-f", &m, "--live", &l]);
    match diff.status.code() {
        Some(0) => None,
        code => Some(format!(
            "diff exit {code:?}\n{}{}",
            String::from_utf8_lossy(&diff.stdout),
            String::from_utf8_lossy(&diff.stderr)
        )),
    }
}

#[test]
fn real_snapshots_come_back_unchanged() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/real-snapshots");
    let listed = std::fs::read_to_string(dir.join("KNOWN_DIFFERENCES.md")).unwrap();
    let known = |name: &str| listed.contains(&format!("- `{name}`"));
    let scratch = std::env::temp_dir().join(format!("kssa-real-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let all = snapshots(&dir);
    assert!(all.len() >= 78, "only {} snapshots", all.len());
    let (mut passed, mut problems) = (0, Vec::new());
    for file in &all {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        match (check(file, &scratch), known(&name)) {
            (None, false) => passed += 1,
            (None, true) => problems.push(format!("{name}: passes; remove it from the list")),
            (Some(why), true) => eprintln!("known difference {name}: {}", first_line(&why)),
            (Some(why), false) => problems.push(format!("{name}: {why}")),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("real snapshots: {passed} of {} exit 0", all.len());
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| l.starts_with("error") || l.contains("conflict"))
        .unwrap_or_else(|| s.lines().next().unwrap_or(""))
}
