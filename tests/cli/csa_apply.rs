//! Client-side apply vectors (testdata/conformance/csa-apply, plus the directories in
//! KSSA_EXTRA_VECTORS) run through the real binary: `kssa apply --client-side -o json
//! --no-defaults --now …`. A vector passes when kssa reports the same patch type, the same
//! patch (as JSON and byte for byte), the same warnings, and stores the same object with the
//! same managedFields and annotation, or fails with kubectl's exact error text.

use assert_cmd::Command;
use kssa::value::{from_json_str, to_json_string, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

fn vector_dirs() -> Vec<PathBuf> {
    let mut dirs =
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/csa-apply")];
    if let Ok(extra) = std::env::var("KSSA_EXTRA_VECTORS") {
        dirs.extend(std::env::split_paths(&extra).filter(|p| p.is_dir()));
    }
    dirs
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The CRD file describing each custom kind (`group/Kind`), from testdata/crds.
fn crd_files() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/crds");
    let mut out = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(v) = kssa::yaml::parse_document(&text) else {
            continue;
        };
        let group = v.get_path(&["spec", "group"]).and_then(Value::as_str);
        let kind = v
            .get_path(&["spec", "names", "kind"])
            .and_then(Value::as_str);
        if let (Some(g), Some(k)) = (group, kind) {
            out.push((format!("{g}/{k}"), path));
        }
    }
    out
}

/// Numbers by value, maps in any order, lists in order.
fn same(a: &Value, b: &Value) -> bool {
    a == b
}

fn known_differences(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("KNOWN_DIFFERENCES.md")).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

fn check(vector: &Value, scratch: &Path, crds: &[(String, PathBuf)]) -> Result<(), String> {
    let expect = vector.get("expect").ok_or("no expect")?;
    let manifest = vector.get("manifest").ok_or("no manifest")?;
    let name = vector
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("vector");
    let manifest_file = scratch.join(format!("{name}-manifest.json"));
    std::fs::write(&manifest_file, to_json_string(manifest)).unwrap();
    let mut args = vec![
        "apply".to_string(),
        "--client-side".into(),
        "-f".into(),
        manifest_file.display().to_string(),
        "-o".into(),
        "json".into(),
        "--now".into(),
        vector
            .get("now")
            .and_then(Value::as_str)
            .unwrap_or("2024-05-01T10:00:00Z")
            .into(),
    ];
    let options = vector.get("options");
    if options
        .and_then(|o| o.get("defaulting"))
        .and_then(Value::as_bool)
        == Some(false)
    {
        args.push("--no-defaults".into());
    }
    if options
        .and_then(|o| o.get("overwrite"))
        .and_then(Value::as_bool)
        == Some(false)
    {
        args.push("--overwrite=false".into());
    }
    if let Some(live) = vector.get("live").filter(|l| !l.is_null()) {
        let live_file = scratch.join(format!("{name}-live.json"));
        std::fs::write(&live_file, to_json_string(live)).unwrap();
        args.push("--live".into());
        args.push(live_file.display().to_string());
    }
    let api_version = manifest
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let kind = manifest.get("kind").and_then(Value::as_str).unwrap_or("");
    if let Some((_, crd)) = crds.iter().find(|(k, _)| *k == format!("{group}/{kind}")) {
        args.push("--schema".into());
        args.push(crd.display().to_string());
    }
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = from_json_str(&stdout).map_err(|_| {
        format!(
            "exit {:?}; stdout {stdout}; stderr {stderr}",
            out.status.code()
        )
    })?;
    let item = report
        .get("items")
        .and_then(Value::as_list)
        .and_then(|l| l.first())
        .ok_or_else(|| format!("no report item; stderr {stderr}"))?;
    let field = |k: &str| item.get(k).cloned().unwrap_or(Value::Null);
    let want = |k: &str| expect.get(k).cloned().unwrap_or(Value::Null);
    let mut problems = Vec::new();
    if field("patchType") != want("patchType") {
        problems.push(format!(
            "patchType {} want {}",
            field("patchType"),
            want("patchType")
        ));
    }
    let want_warnings = expect
        .get("warnings")
        .cloned()
        .unwrap_or(Value::List(Vec::new().into()));
    if field("warnings") != want_warnings {
        problems.push(format!(
            "warnings {} want {want_warnings}",
            field("warnings")
        ));
    }
    let want_code = if expect.get("error").is_some() { 1 } else { 0 };
    if out.status.code() != Some(want_code) {
        problems.push(format!(
            "exit {:?} want {want_code}; stderr {stderr}",
            out.status.code()
        ));
    }
    if let Some(error) = expect.get("error") {
        if field("error") != *error {
            problems.push(format!(
                "error\n got {}\nwant {}",
                field("error").as_str().unwrap_or("-"),
                error.as_str().unwrap_or("-")
            ));
        }
    } else {
        if !same(&field("patch"), &want("patch")) {
            problems.push(format!(
                "patch\n got {}\nwant {}",
                field("patch"),
                want("patch")
            ));
        }
        if field("patchText") != want("patchText") {
            problems.push(format!(
                "patchText\n got {}\nwant {}",
                field("patchText"),
                want("patchText")
            ));
        }
        if !same(&field("object"), &want("object")) {
            problems.push(format!(
                "object\n got {}\nwant {}",
                to_json_string(&field("object").with_sorted_keys()),
                to_json_string(&want("object").with_sorted_keys())
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn csa_apply_vectors_through_the_cli() {
    let crds = crd_files();
    let scratch = std::env::temp_dir().join(format!("kssa-csa-apply-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut unexpected = Vec::new();
    for dir in vector_dirs() {
        let known = known_differences(&dir);
        let files = json_files(&dir);
        let next = Mutex::new(0usize);
        let results = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(file) = files.get(i) else { break };
                    let vector = from_json_str(&std::fs::read_to_string(file).unwrap()).unwrap();
                    let name = vector
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_string();
                    let verdict = check(&vector, &scratch, &crds);
                    results.lock().unwrap().push((name, verdict));
                });
            }
        });
        let mut results = results.into_inner().unwrap();
        results.sort_by(|a, b| a.0.cmp(&b.0));
        let failed = results.iter().filter(|(_, r)| r.is_err()).count();
        println!(
            "csa-apply: {} passed, {failed} failed ({})",
            results.len() - failed,
            dir.display()
        );
        for (name, verdict) in results {
            if let Err(why) = verdict {
                if !known.contains(&name) {
                    unexpected.push(format!("{name}: {why}"));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        unexpected.is_empty(),
        "{} failing:\n{}",
        unexpected.len(),
        unexpected.join("\n\n")
    );
}
