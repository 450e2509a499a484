//! Helpers shared by the conformance modules.

use kssa::fieldpath::{from_fields_v1, ManagedFields};
use kssa::value::{Map, Value};
use std::path::{Path, PathBuf};

/// The `*.json` vector files of a directory, sorted.
pub fn vector_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Vector names listed as known differences: lines of the form "- `name`: reason".
pub fn known_differences(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// Prints the per-directory closing line.
pub fn report(dir: &Path, passed: usize, failed: usize) {
    println!("{}: {passed} passed, {failed} failed", dir.display());
}

/// Equality that also tells ints from floats, as the vectors do.
pub fn strict_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| strict_eq(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| strict_eq(v, w)))
        }
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        _ => a == b,
    }
}

/// Compares the updater's managers with a vector's `managed` map (manager → apiVersion,
/// applied, fieldsV1).
pub fn managed_matches(actual: &ManagedFields, expected: &Value) -> Result<(), String> {
    let empty = Map::default();
    let expected = expected.as_map().unwrap_or(&empty);
    let mut problems = Vec::new();
    for (manager, want) in expected {
        let Some(got) = actual.get(manager) else {
            problems.push(format!("manager {manager} missing"));
            continue;
        };
        let want_set = from_fields_v1(want.get("fieldsV1").unwrap_or(&Value::Null))
            .map_err(|e| e.to_string())?;
        if got.set != want_set {
            problems.push(format!(
                "manager {manager}: fields\n  got  {:?}\n  want {:?}",
                got.set
                    .sorted_paths()
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>(),
                want_set
                    .sorted_paths()
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
            ));
        }
        if Some(got.api_version.as_str()) != want.get("apiVersion").and_then(Value::as_str) {
            problems.push(format!("manager {manager}: apiVersion {}", got.api_version));
        }
        if Some(got.applied) != want.get("applied").and_then(Value::as_bool) {
            problems.push(format!("manager {manager}: applied {}", got.applied));
        }
    }
    for manager in actual.keys() {
        if !expected.contains_key(manager) {
            problems.push(format!("unexpected manager {manager}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// A vector's expected conflicts as sorted (manager, path) pairs.
pub fn conflicts_of(v: &Value) -> Option<Vec<(String, String)>> {
    let list = v.as_list()?;
    let mut out: Vec<(String, String)> = list
        .iter()
        .map(|c| {
            let s = |k| {
                c.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            (s("manager"), s("path"))
        })
        .collect();
    out.sort();
    Some(out)
}

/// The directories named in `KSSA_EXTRA_VECTORS` (`:`-separated) whose first vector `belongs`
/// to the calling suite, so one variable can name directories of several suites.
pub fn extra_dirs(belongs: fn(&Value) -> bool) -> Vec<PathBuf> {
    let Ok(extra) = std::env::var("KSSA_EXTRA_VECTORS") else {
        return Vec::new();
    };
    extra
        .split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .filter(|dir| {
            vector_files(dir).first().is_some_and(|f| {
                std::fs::read_to_string(f)
                    .ok()
                    .and_then(|t| kssa::value::from_json_str(&t).ok())
                    .is_some_and(|v| belongs(&v))
            })
        })
        .collect()
}
