//! Defaulting vectors (testdata/conformance/defaults): the library's typed round trip and its
//! defaulting, checked separately against `expect.typedRoundTrip` and `expect.defaulted`.

use crate::support::{report, vector_files};
use kssa::defaults::{store, Stage};
use kssa::kube::{KubeVersion, SchemaRegistry};
use kssa::value::{from_json_str, to_json_string, Value};
use std::path::Path;

fn run(registry: &SchemaRegistry, vector: &Value) -> Result<(), String> {
    let input = vector.get("input").ok_or("no input")?;
    let text = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
    let kind = registry
        .resolve(text("apiVersion"), text("kind"))
        .map_err(|e| e.to_string())?;
    for (stage, key) in [
        (Stage::RoundTrip, "typedRoundTrip"),
        (Stage::Defaulted, "defaulted"),
    ] {
        let mut got = input.clone();
        store(&mut got, &kind, stage);
        let want = vector
            .get_path(&["expect", key])
            .ok_or(format!("no expect.{key}"))?;
        if &got != want {
            return Err(format!(
                "{key}\n got {}\nwant {}",
                to_json_string(&got),
                to_json_string(want)
            ));
        }
        // What the server stores is stable: storing it again changes nothing.
        let mut again = got.clone();
        store(&mut again, &kind, stage);
        if again != got {
            return Err(format!(
                "{key} is not a fixed point: {}",
                to_json_string(&again)
            ));
        }
    }
    Ok(())
}

/// Defaulting vectors whose rule changed in the newest embedded Kubernetes (1.37), with the
/// upstream change; docs/defaults.md lists them too. None so far.
const CHANGED_IN_NEWEST: &[&str] = &[];

#[test]
fn defaults_vectors() {
    // The vectors were produced by Kubernetes 1.36.
    run_all(KubeVersion::new(36).unwrap(), &[]);
}

#[test]
fn defaults_vectors_hold_in_the_newest_version_where_its_rules_did_not_change() {
    run_all(KubeVersion::NEWEST, CHANGED_IN_NEWEST);
}

fn run_all(version: KubeVersion, skipped: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/defaults");
    let registry = SchemaRegistry::for_version(version);
    let (mut passed, mut failures) = (0, Vec::new());
    for file in vector_files(&dir) {
        let vector = from_json_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        if skipped.contains(&name.as_str()) {
            continue;
        }
        match run(&registry, &vector) {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    if version == KubeVersion::new(36).unwrap() {
        report(&dir, passed, failures.len());
    } else {
        println!(
            "{} (Kubernetes {version}): {passed} passed, {} failed",
            dir.display(),
            failures.len()
        );
    }
    assert!(
        failures.is_empty(),
        "Kubernetes {version}:\n{}",
        failures.join("\n\n")
    );
}
