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

#[test]
fn defaults_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/defaults");
    // The vectors were produced by Kubernetes 1.36.
    let registry = SchemaRegistry::for_version(KubeVersion::new(36).unwrap());
    let (mut passed, mut failures) = (0, Vec::new());
    for file in vector_files(&dir) {
        let vector = from_json_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        match run(&registry, &vector) {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    report(&dir, passed, failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
