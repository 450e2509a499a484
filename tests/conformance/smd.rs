//! Engine vectors (testdata/conformance/smd-suite and smd-real): structured-merge-diff's own
//! merge test suite and real-object benchmarks, replayed step by step through the updater.
//! Every step's result (error, conflicts, object, managers) is checked.

use crate::support::{
    conflicts_of, known_differences, managed_matches, report, strict_eq, vector_files,
};
use kssa::fieldpath::{from_fields_v1, ManagedFields, Set};
use kssa::merge::{ApplyOutcome, ConversionError, Converter, UpdateError, Updater};
use kssa::schema::{parse_smd_schema, Schema, TypeRef, UNTYPED_DEDUCED};
use kssa::typed::Typed;
use kssa::value::{from_json_str, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The multi-version converters of the reference's test suite.
enum TestConverter {
    /// One type name for every version, or the type named like the version.
    Identity { type_name: Option<String> },
    /// Keys ending in the version are renamed to end in the target version.
    Renaming,
    /// A single-letter key is repeated N times in version vN.
    Repeating { type_name: String },
    /// v2's `required_field_bar` is v1's `field_foo_rely_on_bar`.
    ReliantFields,
}

impl Converter for TestConverter {
    fn type_ref(&self, version: &str) -> Result<TypeRef, ConversionError> {
        let name = match self {
            TestConverter::Identity { type_name: Some(t) }
            | TestConverter::Repeating { type_name: t } => t.as_str(),
            _ => version,
        };
        Ok(TypeRef::named(name))
    }

    fn convert(&self, value: &Value, from: &str, to: &str) -> Result<Value, ConversionError> {
        match self {
            TestConverter::Identity { .. } => Ok(value.clone()),
            TestConverter::Renaming => {
                Ok(rename_keys(value, &|k: &str| match k.strip_suffix(from) {
                    Some(stem) => format!("{stem}{to}"),
                    None => k.to_string(),
                }))
            }
            TestConverter::Repeating { .. } => {
                let n = |v: &str| v.trim_start_matches('v').parse::<usize>().unwrap_or(1);
                let (nf, nt) = (n(from), n(to));
                Ok(rename_keys(value, &|k: &str| {
                    let first = k.chars().next();
                    match first {
                        Some(c) if k.chars().count() == nf && k.chars().all(|x| x == c) => {
                            c.to_string().repeat(nt)
                        }
                        _ => k.to_string(),
                    }
                }))
            }
            TestConverter::ReliantFields => {
                let (old, new) = match (from, to) {
                    ("v1", "v2") => ("field_foo_rely_on_bar", "required_field_bar"),
                    ("v2", "v1") => ("required_field_bar", "field_foo_rely_on_bar"),
                    _ => return Ok(value.clone()),
                };
                let Some(m) = value.as_map() else {
                    return Ok(value.clone());
                };
                if to == "v1" && !m.contains_key(old) {
                    return Err(ConversionError::Failed(format!(
                        "missing required field {old}"
                    )));
                }
                Ok(Value::Map(
                    m.iter()
                        .map(|(k, v)| {
                            (
                                if k == old { new.to_string() } else { k.clone() },
                                v.clone(),
                            )
                        })
                        .collect(),
                ))
            }
        }
    }
}

/// Renames map keys the way the reference's converters do: through YAML with sorted keys, so
/// when two keys collide the one sorting last wins.
fn rename_keys(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Map(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::default();
            for k in keys {
                out.insert(f(k), rename_keys(&m[k], f));
            }
            Value::Map(out)
        }
        Value::List(l) => Value::List(l.iter().map(|v| rename_keys(v, f)).collect()),
        other => other.clone(),
    }
}

struct State {
    schema: Schema,
    deduced: bool,
    converter: TestConverter,
    ignored: BTreeMap<String, Set>,
    return_input_on_noop: bool,
    live: Option<(Value, String)>,
    managers: ManagedFields,
}

/// What one step produced.
struct StepResult {
    error: Option<String>,
    conflicts: Option<Vec<(String, String)>>,
}

impl State {
    fn updater(&self) -> Updater<'_> {
        let mut u = Updater::new(&self.schema, &self.converter);
        u.ignored = self.ignored.clone();
        u.return_input_on_noop = self.return_input_on_noop;
        u.deduced = self.deduced;
        u
    }

    fn live_at(&self, version: &str) -> Result<Value, String> {
        match &self.live {
            None => Ok(Value::Null),
            Some((v, at)) if at == version => Ok(v.clone()),
            Some((v, at)) => self
                .converter
                .convert(v, at, version)
                .map_err(|e| e.to_string()),
        }
    }

    fn parse(
        &self,
        object: &Value,
        version: &str,
        allow_duplicates: bool,
    ) -> Result<Value, String> {
        let tr = self
            .converter
            .type_ref(version)
            .map_err(|e| e.to_string())?;
        Typed::new(&self.schema, &tr)
            .validate(object, allow_duplicates)
            .map_err(|e| e.to_string())?;
        Ok(object.clone())
    }

    fn apply(
        &mut self,
        object: &Value,
        version: &str,
        manager: &str,
        force: bool,
    ) -> Result<(), UpdateError> {
        let config = self.parse(object, version, false).map_err(fail)?;
        let live = self.live_at(version).map_err(fail)?;
        let outcome =
            self.updater()
                .apply(&live, &config, version, &self.managers, manager, force)?;
        match outcome {
            ApplyOutcome::Changed { object, managers } => {
                self.live = Some((object, version.to_string()));
                self.managers = managers;
            }
            ApplyOutcome::Unchanged { managers } => {
                self.live = Some((live, version.to_string()));
                self.managers = managers;
            }
        }
        Ok(())
    }

    fn update(&mut self, object: &Value, version: &str, manager: &str) -> Result<(), UpdateError> {
        let new = self.parse(object, version, true).map_err(fail)?;
        let live = self.live_at(version).map_err(fail)?;
        self.managers = self
            .updater()
            .update(&live, &new, version, &self.managers, manager)?
            .managers;
        self.live = Some((new, version.to_string()));
        Ok(())
    }

    fn extract_apply(
        &mut self,
        object: &Value,
        version: &str,
        manager: &str,
    ) -> Result<(), UpdateError> {
        let config = self.parse(object, version, false).map_err(fail)?;
        let live = self.live_at(version).map_err(fail)?;
        let owned = match self.managers.get(manager) {
            None => Set::new(),
            Some(vs) if vs.api_version != version => {
                return Err(fail(format!(
                    "manager {manager} owns fields at version {}",
                    vs.api_version
                )))
            }
            Some(vs) => vs.set.clone(),
        };
        let tr = self
            .converter
            .type_ref(version)
            .map_err(|e| fail(e.to_string()))?;
        let typed = Typed::new(&self.schema, &tr);
        let extracted = typed.extract_items(&live, &owned.leaves());
        let full = typed
            .merge(&extracted, &config)
            .map_err(|e| fail(e.to_string()))?;
        self.apply(&full, version, manager, true)
    }
}

fn fail(message: impl Into<String>) -> UpdateError {
    UpdateError::Failed {
        context: "step failed",
        message: message.into(),
    }
}

fn error_text(e: &UpdateError) -> String {
    match e {
        UpdateError::Failed {
            context: "step failed",
            message,
        } => message.clone(),
        other => other.to_string(),
    }
}

fn load_schema(vector: &Value, dir: &Path, text: Option<&Value>) -> Result<Schema, String> {
    if let Some(Value::String(s)) = text {
        return parse_smd_schema(s).map_err(|e| e.to_string());
    }
    if let Some(Value::String(file)) = vector.get("schemaFile") {
        let text = std::fs::read_to_string(dir.join(file)).map_err(|e| e.to_string())?;
        return parse_smd_schema(&text).map_err(|e| e.to_string());
    }
    Ok(Schema::new(Vec::new()))
}

/// Runs one vector; `Err` says what differs.
pub fn run_vector(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let vector = from_json_str(&text).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let deduced = vector
        .get("deduced")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let schema = if deduced {
        Schema::deduced()
    } else {
        load_schema(&vector, dir, vector.get("schema"))?
    };
    let from_version = vector
        .get("typeNameFromVersion")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let type_name = if deduced {
        Some(UNTYPED_DEDUCED.to_string())
    } else if from_version {
        None
    } else {
        vector
            .get("typeName")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let converter = match vector
        .get("converter")
        .and_then(Value::as_str)
        .unwrap_or("identity")
    {
        "identity" => TestConverter::Identity { type_name },
        "renaming" => TestConverter::Renaming,
        "repeating" => TestConverter::Repeating {
            type_name: type_name.unwrap_or_default(),
        },
        "reliantFields" => TestConverter::ReliantFields,
        other => return Err(format!("unknown converter {other}")),
    };
    let mut ignored = BTreeMap::new();
    for (key, field) in [("ignoredFields", None), ("ignoreFilter", Some("exclude"))] {
        if let Some(Value::Map(per_version)) = vector.get(key) {
            for (version, v) in per_version {
                let fields = match field {
                    Some(f) => v.get(f).unwrap_or(&Value::Null),
                    None => v,
                };
                ignored.insert(
                    version.clone(),
                    from_fields_v1(fields).map_err(|e| e.to_string())?,
                );
            }
        }
    }
    let mut state = State {
        schema,
        deduced,
        converter,
        ignored,
        return_input_on_noop: vector
            .get("returnInputOnNoop")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        live: None,
        managers: ManagedFields::new(),
    };
    let steps = vector
        .get("steps")
        .and_then(Value::as_list)
        .cloned()
        .unwrap_or_default();
    for (i, step) in steps.iter().enumerate() {
        let op = step.get("op").and_then(Value::as_str).unwrap_or_default();
        let version = step
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("v1")
            .to_string();
        let manager = step
            .get("manager")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let object = step.get("object").cloned().unwrap_or(Value::Null);
        let outcome = match op {
            "apply" | "applyObject" => state.apply(&object, &version, &manager, false),
            "forceApply" => state.apply(&object, &version, &manager, true),
            "update" | "updateObject" => state.update(&object, &version, &manager),
            "extractApply" => state.extract_apply(&object, &version, &manager),
            "changeParser" => {
                state.schema = load_schema(&vector, dir, step.get("schema"))?;
                if let Some(t) = step.get("typeName").and_then(Value::as_str) {
                    if let TestConverter::Identity { type_name } = &mut state.converter {
                        *type_name = Some(t.to_string());
                    }
                }
                Ok(())
            }
            other => return Err(format!("step {i}: unknown op {other}")),
        };
        let got = match &outcome {
            Ok(()) => StepResult {
                error: None,
                conflicts: None,
            },
            Err(UpdateError::Conflicts(c)) => StepResult {
                error: Some(c.to_string()),
                conflicts: Some({
                    let mut v: Vec<(String, String)> =
                        c.0.iter()
                            .map(|c| (c.manager.clone(), c.path.to_string()))
                            .collect();
                    v.sort();
                    v
                }),
            },
            Err(e) => StepResult {
                error: Some(error_text(e)),
                conflicts: None,
            },
        };
        let Some(result) = step.get("result") else {
            continue;
        };
        let want_error = result
            .get("error")
            .and_then(Value::as_str)
            .map(str::to_string);
        if got.error != want_error {
            return Err(format!(
                "step {i} ({op}): error\n  got  {:?}\n  want {:?}",
                got.error, want_error
            ));
        }
        let want_conflicts = result.get("conflicts").and_then(conflicts_of);
        if got.conflicts.is_some() && got.conflicts != want_conflicts {
            return Err(format!(
                "step {i} ({op}): conflicts\n  got  {:?}\n  want {:?}",
                got.conflicts, want_conflicts
            ));
        }
        let live = state
            .live
            .as_ref()
            .map(|(v, _)| v.clone())
            .unwrap_or(Value::Null);
        let want_object = result.get("object").cloned().unwrap_or(Value::Null);
        if !strict_eq(&live, &want_object) {
            return Err(format!(
                "step {i} ({op}): object\n  got  {live}\n  want {want_object}"
            ));
        }
        managed_matches(
            &state.managers,
            result.get("managed").unwrap_or(&Value::Null),
        )
        .map_err(|e| format!("step {i} ({op}): managed fields\n{e}"))?;
    }
    Ok(())
}

fn run_dir(dir: &Path, known: &[String]) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    let only = std::env::var("KSSA_VECTOR_FILTER").unwrap_or_default();
    for file in vector_files(dir) {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        if !name.contains(&only) {
            continue;
        }
        match run_vector(&file) {
            Ok(()) => passed += 1,
            Err(e) if known.contains(&name) => eprintln!(
                "known difference {name}: {}",
                e.lines().next().unwrap_or("")
            ),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    (passed, failures)
}

#[test]
fn smd_vectors() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance");
    let known = known_differences(&root.join("KNOWN_DIFFERENCES.md"));
    let mut dirs = vec![root.join("smd-suite"), root.join("smd-real")];
    if let Ok(extra) = std::env::var("KSSA_EXTRA_VECTORS") {
        dirs.extend(
            extra
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
        );
    }
    let mut all_failures = Vec::new();
    for dir in dirs {
        let (passed, failures) = run_dir(&dir, &known);
        report(&dir, passed, failures.len());
        all_failures.extend(failures);
    }
    assert!(
        all_failures.is_empty(),
        "{} vectors failed:\n{}",
        all_failures.len(),
        all_failures.join("\n\n")
    );
}
