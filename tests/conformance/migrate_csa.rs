//! Migration vectors (testdata/conformance/migrate-csa): client-go `csaupgrade` runs on live
//! objects. A vector passes when kssa leaves the same `metadata.managedFields` (entries compared
//! as JSON values, in order), produces the same JSON patch (or none), finds the same owners of
//! the last-applied annotation, and fails where the reference fails with the same message
//! prefix (the rest of a parse error is the Go JSON parser's own text).

use crate::support::{known_differences, report, vector_files};
use kssa::csa::{last_applied_owners, upgrade, Migration};
use kssa::value::{from_json_str, Value};
use std::path::Path;

const ERROR_PREFIX: &str = "failed to convert fields to set: ";

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn run(vector: &Value) -> Result<(), String> {
    let input = vector.get("input").ok_or("no input")?;
    let expect = vector.get("expect").ok_or("no expect")?;
    let object = input.get("object").ok_or("no object")?;
    let text = |k: &str| {
        input
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let migration = Migration::new(
        strings(input.get("csaManagers")),
        text("ssaManager"),
        text("subresource"),
    );

    let owners = last_applied_owners(object);
    let want_owners = strings(expect.get("lastAppliedOwners"));
    if owners != want_owners {
        return Err(format!(
            "lastAppliedOwners {owners:?}, want {want_owners:?}"
        ));
    }
    match (upgrade(object, &migration), expect.get("error")) {
        (Ok(up), None) => {
            let got = up.managed_fields.clone().map_or(Value::Null, Value::from);
            let want = expect.get("managedFields").cloned().unwrap_or(Value::Null);
            if got != want {
                return Err(format!("managedFields\n got {got}\nwant {want}"));
            }
            let patch = up.patch(object).unwrap_or(Value::Null);
            let want_patch = expect.get("patch").cloned().unwrap_or(Value::Null);
            if patch != want_patch {
                return Err(format!("patch\n got {patch}\nwant {want_patch}"));
            }
            Ok(())
        }
        (Err(e), Some(want)) => {
            let want = want.as_str().unwrap_or("");
            let got = e.to_string();
            if want.starts_with(ERROR_PREFIX) && got.starts_with(ERROR_PREFIX) {
                Ok(())
            } else {
                Err(format!("error {got:?}, want {want:?}"))
            }
        }
        (Ok(_), Some(want)) => Err(format!("succeeded, want error {want}")),
        (Err(e), None) => Err(format!("failed: {e}")),
    }
}

#[test]
fn migrate_csa_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/migrate-csa");
    let known = known_differences(&dir.join("KNOWN_DIFFERENCES.md"));
    let files = vector_files(&dir);
    assert!(files.len() >= 194, "vectors missing from {}", dir.display());
    let (mut passed, mut failed) = (0, 0);
    let mut unexpected = Vec::new();
    for file in &files {
        let vector = from_json_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        match run(&vector) {
            Ok(()) => passed += 1,
            Err(why) => {
                failed += 1;
                if !known.contains(&name) {
                    unexpected.push(format!("{name}: {why}"));
                }
            }
        }
    }
    report(&dir, passed, failed);
    assert!(
        unexpected.is_empty(),
        "{} failing:\n{}",
        unexpected.len(),
        unexpected.join("\n\n")
    );
}
