//! The defaulting vectors (testdata/conformance/defaults) through the real binary: `kssa apply
//! -f <input> -o json` creates the object, and the result without managedFields must be the
//! vector's `defaulted` object. Known differences: testdata/conformance/defaults/KNOWN_DIFFERENCES.md.

use super::support::Scratch;
use assert_cmd::Command;
use kssa::value::{from_json_str, to_json_string, Value};
use std::path::Path;

const REFUSED: &str = "deployment-null-and-unknown-fields";
/// Defaulting keeps `stringData`; storing converts it to `data` (see KNOWN_DIFFERENCES.md).
const STRING_DATA_FOLDED: &str = "secret-no-type";

fn apply(input: &Path, extra: &[&str]) -> std::process::Output {
    // The defaulting vectors were produced by Kubernetes 1.36.
    Command::cargo_bin("kssa")
        .unwrap()
        .env("KSSA_KUBE_VERSION", "1.36")
        .args(["apply", "-f"])
        .arg(input)
        .args(["-o", "json", "--now", "2024-01-01T00:00:00Z"])
        .args(extra)
        .output()
        .unwrap()
}

fn without_server_only(mut got: Value, input: &Value) -> Value {
    if let Some(Value::Map(meta)) = got.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.shift_remove("managedFields");
        if input.get_path(&["metadata", "namespace"]).is_none() {
            meta.shift_remove("namespace");
        }
    }
    got
}

#[test]
fn defaulting_vectors_through_apply() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/defaults");
    let dir = Scratch::new("defaults");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut passed, mut failures) = (0, Vec::new());
    for file in &files {
        let vector = from_json_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        let input = vector.get("input").unwrap();
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, to_json_string(input)).unwrap();
        let out = apply(&path, &[]);
        if name == REFUSED {
            let stderr = String::from_utf8_lossy(&out.stderr);
            // The server's field manager refuses the object (exit 1), it is not unreadable.
            assert_eq!(out.status.code(), Some(1), "{name}");
            // One line of JSON: the position is the unknown key's column on line 1.
            let at = to_json_string(input).find("\"unknownField\"").unwrap() + 1;
            assert!(
                stderr.contains(&format!(
                    ".json:1:{at}: document 1: Error from server: failed to create typed patch object"
                )) && stderr.contains(".spec.unknownField: field not declared in schema"),
                "{name}: {stderr}"
            );
            continue;
        }
        let stdout = String::from_utf8(out.stdout).unwrap();
        let got = match from_json_str(&stdout) {
            Ok(v) => without_server_only(v, input),
            Err(e) => {
                failures.push(format!(
                    "{name}: {e}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
                continue;
            }
        };
        let mut want = vector.get_path(&["expect", "defaulted"]).unwrap().clone();
        if name == STRING_DATA_FOLDED {
            kssa::kube::storage::fold_secret_string_data(&mut want);
        }
        // Storing types a StatefulSet's claim templates and, through the internal type, aliases
        // `serviceAccount` to `serviceAccountName` (see KNOWN_DIFFERENCES.md).
        kssa::kube::storage::type_claim_templates(&mut want);
        kssa::kube::pod_prepare::convert_pod_fields(&mut want);
        // What the strategies' PrepareForCreate adds is not defaulting's (a Namespace's
        // `kubernetes` finalizer, a DaemonSet's template generation, a Pod's status).
        let version = kssa::kube::KubeVersion::new(36).unwrap();
        kssa::kube::strategy_prepare::prepare(&mut want, None, version, "");
        if want.get("kind").and_then(Value::as_str) == Some("Pod") {
            kssa::kube::pod_status::created(&mut want, input, version, "2024-01-01T00:00:00Z");
        }
        if got == want {
            passed += 1;
        } else {
            failures.push(format!(
                "{name}\n got {}\nwant {}",
                to_json_string(&got),
                to_json_string(&want)
            ));
        }
    }
    println!(
        "defaults through apply: {passed} passed, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed, files.len() - 1);
}

#[test]
fn no_defaults_shows_the_raw_merge() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/conformance/defaults/deployment-resources-canonical.json");
    let vector = from_json_str(&std::fs::read_to_string(&root).unwrap()).unwrap();
    let dir = Scratch::new("nodefaults");
    let path = dir.join("in.json");
    let input = vector.get("input").unwrap();
    std::fs::write(&path, to_json_string(input)).unwrap();
    let out = apply(&path, &["--no-defaults"]);
    assert!(out.status.success());
    let got = from_json_str(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(&without_server_only(got, input), input);
}
