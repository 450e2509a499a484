//! Typed round-trip vectors (testdata/conformance/roundtrip): what the API server's JSON
//! serializer makes of a built-in object decoded into its k8s.io/api Go type and encoded again
//! (`kssa::defaults::round_trip`), compared as JSON values.

use crate::support::{extra_dirs, known_differences, report, strict_eq, vector_files};
use kssa::defaults::round_trip;
use kssa::kube::GroupVersionKind;
use kssa::value::{from_json_str, to_json_string, Value};
use std::path::{Path, PathBuf};

fn run(vector: &Value) -> Result<(), String> {
    let input = vector.get("input").ok_or("no input")?;
    let text = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
    let gvk = GroupVersionKind::new(text("apiVersion"), text("kind"));
    let want_gvk = vector.get("gvk").and_then(Value::as_str).unwrap_or("");
    if gvk.to_string() != want_gvk {
        return Err(format!("gvk {gvk}, vector says {want_gvk}"));
    }
    let want = vector
        .get_path(&["expect", "object"])
        .ok_or("no expect.object")?;
    let mut got = input.clone();
    round_trip(&mut got, &gvk);
    if !strict_eq(&got, want) {
        return Err(format!(
            "\n got {}\nwant {}",
            to_json_string(&got),
            to_json_string(want)
        ));
    }
    // Decoding what was encoded changes nothing.
    let mut again = got.clone();
    round_trip(&mut again, &gvk);
    if !strict_eq(&again, &got) {
        return Err(format!("not a fixed point: {}", to_json_string(&again)));
    }
    Ok(())
}

fn run_dir(dir: &Path, known: &[String]) -> (usize, Vec<String>) {
    let (mut passed, mut failures) = (0, Vec::new());
    for file in vector_files(dir) {
        let text = std::fs::read_to_string(&file).unwrap();
        let vector = from_json_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        match run(&vector) {
            Ok(()) => passed += 1,
            Err(e) if known.contains(&name) => {
                eprintln!(
                    "known difference {name}: {}",
                    e.lines().nth(1).unwrap_or("")
                )
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    (passed, failures)
}

/// Whether a directory holds round-trip vectors (`gvk`, `input`, `expect.object`).
fn is_round_trip_vector(v: &Value) -> bool {
    v.get("gvk").is_some()
        && v.get("input").is_some()
        && v.get_path(&["expect", "object"]).is_some()
}

#[test]
fn roundtrip_vectors() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/roundtrip");
    let known = known_differences(&root.join("KNOWN_DIFFERENCES.md"));
    let mut dirs = vec![root];
    dirs.extend(extra_dirs(is_round_trip_vector));
    let mut all = Vec::new();
    for dir in dirs {
        let (passed, failures) = run_dir(&dir, &known);
        report(&dir, passed, failures.len());
        all.extend(failures);
    }
    assert!(
        all.is_empty(),
        "{} vectors failed:\n{}",
        all.len(),
        all.join("\n\n")
    );
}
