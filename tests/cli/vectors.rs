//! Conformance vectors run through the real binary: `kssa migrate-csa` over the csaupgrade
//! vectors, and `kssa update --patch` over the patch vectors.

use assert_cmd::Command;
use kssa::value::{from_json_str, to_json_string, Value};
use std::path::{Path, PathBuf};

fn vectors(dir: &str) -> Vec<(PathBuf, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/conformance")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let v = from_json_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            (f, v)
        })
        .collect()
}

fn name(v: &Value) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string()
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kssa-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn strip_managed(mut v: Value) -> Value {
    if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.shift_remove("managedFields");
    }
    v
}

#[test]
fn migrate_csa_vectors_through_the_cli() {
    let dir = scratch("csa");
    let all = vectors("migrate-csa");
    assert!(all.len() >= 194);
    let mut failures = Vec::new();
    for (i, (_, v)) in all.iter().enumerate() {
        let input = v.get("input").unwrap();
        let expect = v.get("expect").unwrap();
        let file = dir.join(format!("{i}.json"));
        std::fs::write(&file, to_json_string(input.get("object").unwrap())).unwrap();
        let mut args = vec!["migrate-csa".to_string(), file.display().to_string()];
        let from: Vec<&str> = input
            .get("csaManagers")
            .and_then(Value::as_list)
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if from.is_empty() {
            args.push("--from=".into());
        }
        for f in from {
            args.push(format!("--from={f}"));
        }
        let s = |k: &str| {
            input
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        args.push(format!("--to={}", s("ssaManager")));
        args.push(format!("--subresource={}", s("subresource")));
        args.extend(["-o".into(), "json".into()]);
        // The vectors were produced by Kubernetes 1.36.
        let out = Command::cargo_bin("kssa")
            .unwrap()
            .env("KSSA_KUBE_VERSION", "1.36")
            .args(&args)
            .output()
            .unwrap();
        let code = out.status.code();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let verdict = match expect.get("error") {
            Some(_) if code == Some(2) && stderr.contains("failed to convert fields to set: ") => {
                Ok(())
            }
            Some(e) => Err(format!("want error {e}, got {code:?} {stderr}")),
            None => {
                let want_code = if expect.get("patch").is_some_and(|p| !p.is_null()) {
                    1
                } else {
                    0
                };
                match from_json_str(&stdout) {
                    Ok(obj) if code == Some(want_code) => {
                        let got = obj
                            .get_path(&["metadata", "managedFields"])
                            .cloned()
                            .unwrap_or(Value::Null);
                        let want = expect.get("managedFields").cloned().unwrap_or(Value::Null);
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!("got {got}\nwant {want}"))
                        }
                    }
                    _ => Err(format!("exit {code:?}, stdout {stdout}, stderr {stderr}")),
                }
            }
        };
        if let Err(why) = verdict {
            failures.push(format!("{}: {why}", name(v)));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Strategic merge patch vectors on kinds without an OpenAPI model (custom resources): a real
/// API server refuses them (415), so `kssa update` does too.
const REFUSED: &str = "not supported for";

/// Vectors whose CLI outcome differs from the patch library's by design, and why.
const BY_DESIGN: &[(&str, &str)] = &[
    (
        "smp-node-volumesInUse-replaced",
        "status through the main resource is reset, as the API server does",
    ),
    (
        "smp-pod-containerStatuses-replaced",
        "status through the main resource is reset, as the API server does",
    ),
    (
        "merge-into-null-value",
        "the original is not an object, so it is no live snapshot",
    ),
    (
        "merge-original-is-array",
        "the original is not an object, so it is no live snapshot",
    ),
    (
        "smp-cr-kind-override",
        "a custom resource (the vector borrows a built-in schema): refused, 415",
    ),
    (
        "smp-node-addresses-two-same-type",
        "status through the main resource is reset, as the API server does",
    ),
    (
        "smp-node-capacity-map",
        "status through the main resource is reset, as the API server does",
    ),
    (
        "smp-node-images-replaced",
        "status through the main resource is reset, as the API server does",
    ),
    (
        "smp-pod-status-conditions",
        "status through the main resource is reset, as the API server does",
    ),
];

#[test]
fn patch_vectors_through_kssa_update() {
    let dir = scratch("patch");
    let all = vectors("patch");
    assert!(all.len() >= 172);
    let (mut passed, mut refused, mut invalid) = (0, Vec::new(), Vec::new());
    let mut failures = Vec::new();
    for (i, (_, v)) in all.iter().enumerate() {
        let kind = v.get("type").and_then(Value::as_str).unwrap();
        let live = dir.join(format!("{i}-live.json"));
        let patch = dir.join(format!("{i}-patch.json"));
        let text = |k: &str, raw: &str| match v.get(raw).and_then(Value::as_str) {
            Some(t) => t.to_string(),
            None => to_json_string(v.get(k).unwrap_or(&Value::Null)),
        };
        std::fs::write(&live, text("original", "originalText")).unwrap();
        std::fs::write(&patch, text("patch", "patchText")).unwrap();
        let out = Command::cargo_bin("kssa")
            .unwrap()
            .env("KSSA_KUBE_VERSION", "1.36")
            .args(["update", "--no-defaults", "--live"])
            .arg(&live)
            .arg("--patch")
            .arg(&patch)
            .args([
                "--type",
                kind,
                "--field-manager",
                "test",
                "--now",
                "2024-01-01T00:00:00Z",
                "-o",
                "json",
            ])
            .output()
            .unwrap();
        let code = out.status.code();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let custom = kind == "strategic" && v.get("openapiModel").is_some_and(Value::is_null);
        let expect = v.get("expect").unwrap();
        let verdict = if BY_DESIGN.iter().any(|(n, _)| *n == name(v)) {
            Ok(())
        } else if custom {
            if code == Some(2) && stderr.contains(REFUSED) {
                refused.push(name(v));
                Ok(())
            } else {
                Err(format!(
                    "custom resource: want refusal, got {code:?} {stderr}"
                ))
            }
        } else if let Some(e) = expect.get("error").and_then(Value::as_str) {
            // The library check compares the exact text; here: refused, nothing written.
            if code == Some(2) && stdout.is_empty() {
                Ok(())
            } else {
                Err(format!("want error {e:?}, got {code:?} {stderr}"))
            }
        } else {
            let want = expect.get("result").cloned().unwrap();
            match from_json_str(&stdout) {
                _ if code == Some(2) && stderr.contains("failed to create typed") => {
                    invalid.push(name(v));
                    Ok(())
                }
                // A result the server's validation refuses (422, issue 14).
                _ if code == Some(1) && stdout.is_empty() && stderr.contains(" is invalid") => {
                    invalid.push(name(v));
                    Ok(())
                }
                Ok(got)
                    if code == Some(0)
                        && strip_managed(got.clone()) == strip_managed(want.clone()) =>
                {
                    Ok(())
                }
                _ => Err(format!(
                    "exit {code:?}\n got {stdout}\nwant {want}\n{stderr}"
                )),
            }
        };
        match verdict {
            Ok(()) => passed += 1,
            Err(why) => failures.push(format!("{}: {why}", name(v))),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "patch via kssa update: {passed} passed ({} refused as custom resources: {}; {} results refused by schema or object validation, as the API server refuses them: {})",
        refused.len(),
        refused.join(", "),
        invalid.len(),
        invalid.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
