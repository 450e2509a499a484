//! Union normalization vectors (testdata/conformance/unions): structured-merge-diff v4.3.0's
//! `NormalizeUnions`, `NormalizeUnionsApply` and its updater with unions enabled.
//!
//! Error texts: kssa prefixes each problem with the struct's path and names the member where the
//! reference printed a pointer, so the comparison rebuilds the reference's form from the
//! structured error (problems only, joined as the reference joins them) and, for the pointer,
//! accepts a member name where the pattern wants a hex address.

use crate::support::{
    conflicts_of, known_differences, managed_matches, report, strict_eq, vector_files,
};
use kssa::fieldpath::ManagedFields;
use kssa::merge::{ApplyOutcome, SingleVersion, UpdateError, Updater};
use kssa::schema::{parse_smd_schema, Schema, TypeRef};
use kssa::typed::{Normalization, Typed, UnionErrors};
use kssa::value::{from_json_str, Value};
use std::path::{Path, PathBuf};

/// The reference's text for union errors: problems without paths.
fn reference_text(e: &UnionErrors) -> String {
    match e.0.as_slice() {
        [one] => one.problem.to_string(),
        many => {
            let mut s = "errors:".to_string();
            for e in many {
                s.push_str("\n  ");
                s.push_str(&e.problem.to_string());
            }
            s
        }
    }
}

fn error_text(e: &UpdateError) -> String {
    match e {
        UpdateError::Unions(u) => reference_text(u),
        UpdateError::Failed {
            context: "step failed",
            message,
        } => message.clone(),
        other => other.to_string(),
    }
}

/// Checks `got` against the expected error: by `errorPattern` when given, else exactly.
fn error_matches(got: Option<&str>, expected: &Value) -> Result<(), String> {
    let want = expected.get("error").and_then(Value::as_str);
    let pattern = expected.get("errorPattern").and_then(Value::as_str);
    let ok = match (got, want, pattern) {
        (Some(g), _, Some(p)) => {
            // The reference printed a pointer where the member's name was meant.
            let p = p.replace(r"\(0x[0-9a-f]+\)", r"\([A-Za-z][A-Za-z0-9]*\)");
            regex::Regex::new(&p)
                .map_err(|e| format!("bad errorPattern: {e}"))?
                .is_match(g)
        }
        (g, w, None) => g == w,
        (None, _, Some(_)) => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "error\n  got  {got:?}\n  want {want:?} (pattern {pattern:?})"
        ))
    }
}

/// The live object and managers of an updater sequence, as SMD's test fixture keeps them.
struct State<'a> {
    updater: Updater<'a>,
    tr: &'a TypeRef,
    live: Value,
    managers: ManagedFields,
}

impl State<'_> {
    fn step(&mut self, op: &str, object: &Value, manager: &str) -> Result<(), UpdateError> {
        let typed = Typed::new(self.updater.schema, self.tr);
        let invalid = |e: kssa::typed::ValidationErrors| UpdateError::Failed {
            context: "step failed",
            message: e.to_string(),
        };
        match op {
            "apply" | "forceApply" => {
                typed.validate(object, false).map_err(invalid)?;
                let force = op == "forceApply";
                let outcome =
                    self.updater
                        .apply(&self.live, object, "v1", &self.managers, manager, force)?;
                if let ApplyOutcome::Changed { object, .. } = &outcome {
                    self.live = object.clone();
                }
                self.managers = outcome.managers().clone();
            }
            "update" => {
                typed.validate(object, true).map_err(invalid)?;
                let updated =
                    self.updater
                        .update(&self.live, object, "v1", &self.managers, manager)?;
                self.live = updated.object.into_owned();
                self.managers = updated.managers;
            }
            other => panic!("unknown op {other}"),
        }
        Ok(())
    }
}

fn run_updater(vector: &Value, schema: &Schema, tr: &TypeRef) -> Result<(), String> {
    let converter = SingleVersion(tr.clone());
    let mut updater = Updater::new(schema, &converter);
    updater.normalize_unions = vector
        .get("enableUnions")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut state = State {
        updater,
        tr,
        live: Value::Null,
        managers: ManagedFields::new(),
    };
    let steps = vector.get("steps").and_then(Value::as_list).unwrap();
    for (i, step) in steps.iter().enumerate() {
        let text = |k| step.get(k).and_then(Value::as_str).unwrap_or_default();
        let op = text("op");
        let object = step.get("object").cloned().unwrap_or(Value::Null);
        let outcome = state.step(op, &object, text("manager"));
        let result = step.get("result").unwrap_or(&Value::Null);
        let at = |e: String| format!("step {i} ({op}): {e}");
        let got_error = outcome.as_ref().err().map(error_text);
        error_matches(got_error.as_deref(), result).map_err(at)?;
        if let Err(UpdateError::Conflicts(c)) = &outcome {
            let mut got: Vec<(String, String)> =
                c.0.iter()
                    .map(|c| (c.manager.clone(), c.path.to_string()))
                    .collect();
            got.sort();
            let want = result.get("conflicts").and_then(conflicts_of);
            if Some(&got) != want.as_ref() {
                return Err(at(format!("conflicts\n  got  {got:?}\n  want {want:?}")));
            }
        }
        let want = result.get("object").unwrap_or(&Value::Null);
        if !strict_eq(&state.live, want) {
            return Err(at(format!("object\n  got  {}\n  want {want}", state.live)));
        }
        managed_matches(
            &state.managers,
            result.get("managed").unwrap_or(&Value::Null),
        )
        .map_err(|e| at(format!("managed fields\n{e}")))?;
    }
    Ok(())
}

fn run_normalize(vector: &Value, typed: Typed<'_>, mode: Normalization) -> Result<(), String> {
    let old = vector.get("old").cloned().unwrap_or(Value::Null);
    let new = vector.get("new").cloned().unwrap_or(Value::Null);
    let expect = vector.get("expect").unwrap_or(&Value::Null);
    let result = typed.normalize_unions(&old, &new, mode);
    let got_error = result.as_ref().err().map(reference_text);
    error_matches(got_error.as_deref(), expect)?;
    let got = result.unwrap_or(Value::Null);
    let want = expect.get("object").unwrap_or(&Value::Null);
    if !strict_eq(&got, want) {
        return Err(format!("object\n  got  {got}\n  want {want}"));
    }
    Ok(())
}

/// Runs one vector; `Err` says what differs.
fn run_vector(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let vector = from_json_str(&text).map_err(|e| e.to_string())?;
    let field = |k| vector.get(k).and_then(Value::as_str).unwrap_or_default();
    let schema = parse_smd_schema(field("schema")).map_err(|e| e.to_string())?;
    let tr = TypeRef::named(field("typeName"));
    let typed = Typed::new(&schema, &tr);
    match field("kind") {
        "normalize" => run_normalize(&vector, typed, Normalization::Update),
        "normalizeApply" => run_normalize(&vector, typed, Normalization::Apply),
        "updater" => run_updater(&vector, &schema, &tr),
        other => Err(format!("unknown kind {other}")),
    }
}

#[test]
fn union_vectors() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/unions");
    let known = known_differences(&dir.join("KNOWN_DIFFERENCES.md"));
    let only = std::env::var("KSSA_VECTOR_FILTER").unwrap_or_default();
    let mut passed = 0;
    let mut failures = Vec::new();
    for file in vector_files(&dir) {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        if !name.contains(&only) {
            continue;
        }
        match run_vector(&file) {
            Ok(()) => passed += 1,
            Err(e) if known.contains(&name) => eprintln!("known difference {name}: {e}"),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    report(&dir, passed, failures.len());
    assert!(
        failures.is_empty(),
        "{} vectors failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
