//! Engine benchmark: the Create / Apply / ApplyTwice / Update operations of the reference's
//! real-object cases (Pod, Node, Endpoints, a Prometheus CRD, an APIResourceImport), replayed
//! through the updater exactly as `tests/conformance/smd.rs` does; then the managedFields layer
//! (`managed::write`, no defaulting) over the kube-prometheus manifests in testdata/bench: create,
//! no-op re-apply, changing apply, update and conflict, each over all objects. Prints the median
//! time per operation; `cargo bench` runs it (no external harness, so it builds fast), an
//! argument filters by name. Uses only APIs older revisions have too, so
//! scripts/bench-engine.sh can build this file against a baseline revision.

use kssa::fieldpath::ManagedFields;
use kssa::merge::{ApplyOutcome, SingleVersion, Updater};
use kssa::schema::{parse_smd_schema, Schema};
use kssa::value::{from_json_str, Value};
use std::path::Path;
use std::time::{Duration, Instant};

struct Case {
    name: String,
    schema: Schema,
    type_name: String,
    steps: Vec<(String, String, String, Value)>,
}

fn load(dir: &Path, filter: &str) -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut schemas = std::collections::HashMap::new();
    let mut cases = Vec::new();
    for f in files.iter().filter(|p| {
        p.extension().is_some_and(|e| e == "json") && p.to_string_lossy().contains(filter)
    }) {
        let v = from_json_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let schema_file = v
            .get("schemaFile")
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        let schema_text = schemas
            .entry(schema_file.clone())
            .or_insert_with(|| std::fs::read_to_string(dir.join(&schema_file)).unwrap())
            .clone();
        let steps = v
            .get("steps")
            .and_then(Value::as_list)
            .unwrap()
            .iter()
            .map(|s| {
                let text = |k| {
                    s.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                (
                    text("op"),
                    text("apiVersion"),
                    text("manager"),
                    s.get("object").cloned().unwrap_or_default(),
                )
            })
            .collect();
        cases.push(Case {
            name: f.file_stem().unwrap().to_string_lossy().to_string(),
            schema: parse_smd_schema(&schema_text).unwrap(),
            type_name: v
                .get("typeName")
                .and_then(Value::as_str)
                .unwrap()
                .to_string(),
            steps,
        });
    }
    cases
}

fn run(case: &Case, converter: &SingleVersion) {
    let updater = Updater::new(&case.schema, converter);
    let mut live = Value::Null;
    let mut managers = ManagedFields::new();
    for (op, version, manager, object) in &case.steps {
        if op.starts_with("apply") {
            match updater
                .apply(&live, object, version, &managers, manager, false)
                .unwrap()
            {
                ApplyOutcome::Changed {
                    object,
                    managers: m,
                } => {
                    live = object;
                    managers = m;
                }
                ApplyOutcome::Unchanged { managers: m } => managers = m,
            }
        } else {
            let updated = updater
                .update(&live, object, version, &managers, manager)
                .unwrap();
            managers = updated.managers;
            live = updated.object.into_owned();
        }
    }
    std::hint::black_box((live, managers));
}

fn median(case: &Case, converter: &SingleVersion) -> Duration {
    let budget = Duration::from_millis(
        std::env::var("KSSA_BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
    );
    let start = Instant::now();
    let mut samples = Vec::new();
    if let Some(n) = std::env::var("KSSA_BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        for _ in 0..n {
            let t = Instant::now();
            run(case, converter);
            samples.push(t.elapsed());
        }
        samples.sort();
        return samples[samples.len() / 2];
    }
    while samples.len() < 10 || (start.elapsed() < budget && samples.len() < 100_000) {
        let t = Instant::now();
        run(case, converter);
        samples.push(t.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/smd-real");
    println!("{:<36} {:>12}", "case (all steps)", "median");
    for case in load(&dir, &filter).iter() {
        let converter = SingleVersion(case.schema.type_ref(&case.type_name).unwrap());
        let m = median(case, &converter);
        println!("{:<36} {:>9.1} µs", case.name, m.as_secs_f64() * 1e6);
    }
    layer::run(&filter);
}

/// The managedFields layer over real manifests, as the API server's field manager runs it.
mod layer {
    use kssa::kube::{ResolvedKind, SchemaRegistry};
    use kssa::managed::{write, Operation, WriteRequest};
    use kssa::value::{Map, Value};
    use std::path::Path;
    use std::time::{Duration, Instant};

    struct Object {
        kind: ResolvedKind,
        manifest: Value,
        /// The manifest with one more label: what a changing apply or an update sends.
        changed: Value,
        /// The manifest with every label value changed: another applier's conflicting config.
        conflicting: Value,
        /// The manifest created by `bench`.
        live: Value,
        /// `live` with the extra label, as an update body.
        updated: Value,
    }

    fn request(operation: Operation, manager: &str) -> WriteRequest<'_> {
        WriteRequest {
            operation,
            manager,
            force: false,
            subresource: "",
            now: "2024-01-01T00:00:00Z",
            reset_fields: true,
            normalize_unions: false,
            defaulting: false,
            validation: None,
            managed_fields: true,
            patch: None,
        }
    }

    fn labels(v: &mut Value) -> &mut Map {
        let meta = v.as_map_mut().unwrap().entry("metadata".to_string());
        let meta = meta.or_insert_with(|| Value::Map(Map::default()));
        let labels = meta.as_map_mut().unwrap().entry("labels".to_string());
        labels
            .or_insert_with(|| Value::Map(Map::default()))
            .as_map_mut()
            .unwrap()
    }

    fn objects() -> Vec<Object> {
        // KSSA_BENCH_MANIFESTS points at another folder (e.g. the full kube-prometheus bundle).
        let dir = std::env::var_os("KSSA_BENCH_MANIFESTS").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bench/kube-prometheus"),
            std::path::PathBuf::from,
        );
        let mut files: Vec<_> = walk(&dir);
        files.sort();
        let registry = SchemaRegistry::new();
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let mut out = Vec::new();
        for file in files {
            let bytes = std::fs::read(&file).unwrap();
            for doc in kssa::yaml::parse_stream(&bytes).unwrap() {
                let manifest = doc.value;
                let Ok(kind) =
                    registry.resolve(&text(&manifest, "apiVersion"), &text(&manifest, "kind"))
                else {
                    continue;
                };
                let Ok(created) =
                    write(None, &manifest, &kind, &request(Operation::Apply, "bench"))
                else {
                    continue;
                };
                let mut changed = manifest.clone();
                labels(&mut changed).insert("bench/changed".into(), "yes".into());
                let mut conflicting = manifest.clone();
                let l = labels(&mut conflicting);
                for v in l.values_mut() {
                    *v = "other".into();
                }
                l.insert("bench/other".into(), "yes".into());
                let mut updated = created.object.clone();
                labels(&mut updated).insert("bench/changed".into(), "yes".into());
                out.push(Object {
                    kind,
                    manifest,
                    changed,
                    conflicting,
                    live: created.object,
                    updated,
                });
            }
        }
        out
    }

    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "json") {
                out.push(path);
            }
        }
        out
    }

    fn median(mut op: impl FnMut()) -> Duration {
        let budget = Duration::from_millis(
            std::env::var("KSSA_BENCH_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(300),
        );
        let start = Instant::now();
        let mut samples = Vec::new();
        while samples.len() < 5 || (start.elapsed() < budget && samples.len() < 1000) {
            let t = Instant::now();
            op();
            samples.push(t.elapsed());
        }
        samples.sort();
        samples[samples.len() / 2]
    }

    pub fn run(filter: &str) {
        if !"layer/create layer/noop-reapply layer/changing-apply layer/update layer/conflict"
            .contains(filter)
            && !filter.starts_with("layer")
        {
            return;
        }
        let objects = objects();
        type LayerOp<'a> = (&'a str, &'a dyn Fn(&Object) -> bool);
        let ops: [LayerOp; 5] = [
            ("layer/create", &|o| {
                write(
                    None,
                    &o.manifest,
                    &o.kind,
                    &request(Operation::Apply, "bench"),
                )
                .is_ok()
            }),
            ("layer/noop-reapply", &|o| {
                write(
                    Some(&o.live),
                    &o.manifest,
                    &o.kind,
                    &request(Operation::Apply, "bench"),
                )
                .is_ok()
            }),
            ("layer/changing-apply", &|o| {
                write(
                    Some(&o.live),
                    &o.changed,
                    &o.kind,
                    &request(Operation::Apply, "bench"),
                )
                .is_ok()
            }),
            ("layer/update", &|o| {
                write(
                    Some(&o.live),
                    &o.updated,
                    &o.kind,
                    &request(Operation::Update, "editor"),
                )
                .is_ok()
            }),
            ("layer/conflict", &|o| {
                write(
                    Some(&o.live),
                    &o.conflicting,
                    &o.kind,
                    &request(Operation::Apply, "other"),
                )
                .is_err()
            }),
        ];
        for (name, op) in ops {
            if !name.contains(filter) {
                continue;
            }
            let hits = objects.iter().filter(|o| op(o)).count();
            let m = median(|| {
                for o in &objects {
                    std::hint::black_box(op(o));
                }
            });
            let label = format!("{name} ({} objects, {hits} as expected)", objects.len());
            println!("{label:<52} {:>9.1} µs", m.as_secs_f64() * 1e6);
        }
    }
}
