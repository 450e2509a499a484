//! Engine benchmark: the Create / Apply / ApplyTwice / Update operations of the reference's
//! real-object cases (Pod, Node, Endpoints, a Prometheus CRD, an APIResourceImport), replayed
//! through the updater exactly as `tests/conformance/smd.rs` does. Prints the median time per
//! operation; `cargo bench` runs it (no external harness, so it builds fast).

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
}
