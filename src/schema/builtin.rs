//! The Kubernetes 1.36 built-in types, embedded as a topology file (see [`super::topology`])
//! that is indexed by line on first use and parsed one type closure at a time, so a run that
//! touches one kind parses only the types that kind reaches.

use super::openapi::{convert_definitions, document_definitions, document_kinds, ConvertOptions};
use super::topology::{self, parse_kind, parse_type, write_kind, write_type};
use super::*;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// The committed output of `kssa-schemagen`.
pub const TOPOLOGY: &str = include_str!("k8s-1.36.topology");

/// The built-in kinds and types, indexed; type closures are parsed on demand and cached.
#[derive(Debug)]
pub struct BuiltinSchemas {
    text: &'static str,
    kinds: Vec<KindInfo>,
    types: HashMap<&'static str, Range<usize>>,
    cache: Mutex<HashMap<String, Arc<Schema>>>,
}

/// The embedded built-in schemas, indexed on first call.
pub fn builtin() -> &'static BuiltinSchemas {
    static BUILTIN: OnceLock<BuiltinSchemas> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        BuiltinSchemas::index(TOPOLOGY).expect("the embedded topology is valid (checked by tests)")
    })
}

impl BuiltinSchemas {
    /// Indexes a topology text: parses the kind lines and records where each type line is.
    pub fn index(text: &'static str) -> Result<BuiltinSchemas, SchemaError> {
        let mut kinds = Vec::new();
        let mut types = HashMap::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let end = start + line.len();
            let line = line.trim_end_matches('\n');
            if let Some(rest) = line.strip_prefix("T ") {
                let name = rest.split(' ').next().unwrap_or_default();
                types.insert(name, start..start + line.len());
            } else if line.starts_with("K ") {
                kinds.push(parse_kind(line)?);
            } else if !line.is_empty() && !line.starts_with('#') {
                return Err(SchemaError::Invalid(format!("bad topology line: {line}")));
            }
            start = end;
        }
        Ok(BuiltinSchemas {
            text,
            kinds,
            types,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Every kind, sorted by group, version and kind.
    pub fn kinds(&self) -> &[KindInfo] {
        &self.kinds
    }

    pub fn kind(&self, group: &str, version: &str, kind: &str) -> Option<&KindInfo> {
        self.kinds
            .iter()
            .find(|k| k.group == group && k.version == version && k.kind == kind)
    }

    /// The versions of a kind, in the order of [`Self::kinds`].
    pub fn versions(&self, group: &str, kind: &str) -> Vec<&KindInfo> {
        self.kinds
            .iter()
            .filter(|k| k.group == group && k.kind == kind)
            .collect()
    }

    pub fn has_type(&self, type_name: &str) -> bool {
        self.types.contains_key(type_name)
    }

    /// The type names, unordered.
    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.types.keys().copied()
    }

    /// The schema of a type: the type, every type it reaches, and the untyped helpers. Cached.
    pub fn schema_for(&self, type_name: &str) -> Result<Arc<Schema>, SchemaError> {
        self.schema_for_types(&[type_name])
    }

    /// One schema holding several types and everything they reach (the versions of one
    /// resource, for conversion between them). Cached by the list of names.
    pub fn schema_for_types(&self, type_names: &[&str]) -> Result<Arc<Schema>, SchemaError> {
        let key = type_names.join(",");
        let cache = |c: &Mutex<HashMap<String, Arc<Schema>>>| {
            c.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .get(&key)
                .cloned()
        };
        if let Some(schema) = cache(&self.cache) {
            return Ok(schema);
        }
        let types = self.closure(type_names)?;
        let schema = Arc::new(Schema::new(types).with_types_added(untyped_types()));
        let mut cached = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        Ok(cached.entry(key).or_insert(schema).clone())
    }

    /// The definitions of the given types and of every type they reach, roots first.
    pub fn closure(&self, roots: &[&str]) -> Result<Vec<TypeDef>, SchemaError> {
        let mut seen: HashSet<&str> = roots.iter().copied().collect();
        let mut queue: Vec<&str> = roots.to_vec();
        let mut defs = Vec::new();
        let mut i = 0;
        while i < queue.len() {
            let def = self.parse(queue[i])?;
            i += 1;
            let mut refs = Vec::new();
            named_refs(&def.atom, &mut refs);
            for name in refs {
                if name != UNTYPED_ATOMIC && name != UNTYPED_DEDUCED && !seen.contains(name) {
                    let (key, _) = self
                        .types
                        .get_key_value(name)
                        .ok_or_else(|| SchemaError::UnknownType(name.to_string()))?;
                    seen.insert(key);
                    queue.push(key);
                }
            }
            defs.push(def);
        }
        Ok(defs)
    }

    /// Every type, parsed (what the lazy loading avoids); for tools and measurements.
    pub fn full_schema(&self) -> Result<Schema, SchemaError> {
        let mut names: Vec<&str> = self.type_names().collect();
        names.sort_unstable();
        let types = names
            .into_iter()
            .map(|n| self.parse(n))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Schema::new(types).with_types_added(untyped_types()))
    }

    fn parse(&self, name: &str) -> Result<TypeDef, SchemaError> {
        let range = self
            .types
            .get(name)
            .ok_or_else(|| SchemaError::UnknownType(name.to_string()))?;
        parse_type(&self.text[range.clone()])
    }
}

/// The type names an atom refers to, depth first (with repeats).
pub(super) fn named_refs<'a>(atom: &'a Atom, out: &mut Vec<&'a str>) {
    let visit = |r: &'a TypeRef, out: &mut Vec<&'a str>| match &r.named {
        Some(name) => out.push(name),
        None => named_refs(&r.inlined, out),
    };
    if let Some(l) = &atom.list {
        visit(&l.element_type, out);
    }
    if let Some(m) = &atom.map {
        for f in &m.fields {
            visit(&f.type_ref, out);
        }
        visit(&m.element_type, out);
    }
}

/// Builds the topology text from the Kubernetes OpenAPI v2 document and the list-key defaults
/// (definition name → field → default); what `kssa-schemagen` writes.
pub fn generate(openapi: &Value, key_defaults: &Value) -> Result<String, SchemaError> {
    let definitions = document_definitions(openapi)
        .ok_or_else(|| SchemaError::Invalid("no definitions in the OpenAPI document".into()))?;
    let mut types = convert_definitions(definitions, ConvertOptions::default())?;
    types.sort_by(|a, b| a.name.cmp(&b.name));
    apply_key_defaults(&mut types, key_defaults)?;

    let mut out = String::new();
    out.push_str(topology::HEADER);
    out.push('\n');
    out.push_str(
        "# Generated by kssa-schemagen from the Kubernetes OpenAPI v2 document and list-key defaults; do not edit.\n",
    );
    for kind in document_kinds(openapi) {
        write_kind(&mut out, &kind)?;
    }
    for t in &types {
        write_type(&mut out, t)?;
    }
    Ok(out)
}

fn apply_key_defaults(types: &mut [TypeDef], key_defaults: &Value) -> Result<(), SchemaError> {
    let defaults = key_defaults
        .as_map()
        .ok_or_else(|| SchemaError::Invalid("list-key defaults must be a map".into()))?;
    for (type_name, fields) in defaults {
        let i = types
            .binary_search_by(|t| t.name.as_str().cmp(type_name))
            .map_err(|_| SchemaError::UnknownType(type_name.clone()))?;
        let Some(map) = types[i].atom.map.as_deref_mut() else {
            return Err(SchemaError::Invalid(format!("{type_name} is not a map")));
        };
        for (field, default) in fields.as_map().into_iter().flatten() {
            let f = map
                .fields
                .iter_mut()
                .find(|f| &f.name == field)
                .ok_or_else(|| SchemaError::Invalid(format!("{type_name} has no field {field}")))?;
            f.default = Some(default.clone());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// `/work/shared` or `../shared` beside the checkout, when present.
    fn shared_dir() -> Option<PathBuf> {
        let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
        [beside, PathBuf::from("/work/shared")]
            .into_iter()
            .find(|d| d.join("schemas/kubernetes-1.36-openapi-v2.json").is_file())
    }

    fn field<'a>(schema: &'a Schema, ty: &str, name: &str) -> &'a StructField {
        let id = schema.find(ty).unwrap();
        schema
            .type_def(id)
            .atom
            .map
            .as_deref()
            .unwrap()
            .field(name)
            .unwrap()
    }

    #[test]
    fn committed_topology_is_fresh() {
        let Some(shared) = shared_dir() else {
            eprintln!("skipped: neither ../shared nor /work/shared has the schemas");
            return;
        };
        let read = |name: &str| {
            let text = std::fs::read_to_string(shared.join("schemas").join(name)).unwrap();
            crate::value::from_json_str(&text).unwrap()
        };
        let generated = generate(
            &read("kubernetes-1.36-openapi-v2.json"),
            &read("kubernetes-1.36-list-key-defaults.json"),
        )
        .unwrap();
        assert!(
            generated == TOPOLOGY,
            "src/schema/k8s-1.36.topology is stale: run `cargo run --release --features schemagen --bin kssa-schemagen`"
        );
    }

    #[test]
    fn kinds_have_scope_and_status() {
        let b = builtin();
        let pod = b.kind("", "v1", "Pod").unwrap();
        assert_eq!(pod.type_name, "io.k8s.api.core.v1.Pod");
        assert_eq!(pod.plural.as_deref(), Some("pods"));
        assert!(pod.namespaced && pod.has_status_subresource);
        let ns = b.kind("", "v1", "Namespace").unwrap();
        assert!(!ns.namespaced && ns.has_status_subresource);
        let cm = b.kind("", "v1", "ConfigMap").unwrap();
        assert!(cm.namespaced && !cm.has_status_subresource);
        let crb = b
            .kind("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding")
            .unwrap();
        assert!(!crb.namespaced);
        let deploy = b.kind("apps", "v1", "Deployment").unwrap();
        assert!(deploy.namespaced && deploy.has_status_subresource);
        let versions: Vec<_> = b
            .versions("autoscaling", "HorizontalPodAutoscaler")
            .iter()
            .map(|k| k.version.as_str())
            .collect();
        assert_eq!(versions, ["v1", "v2"]);
    }

    #[test]
    fn pod_schema_is_its_closure() {
        let b = builtin();
        let pod = b.schema_for("io.k8s.api.core.v1.Pod").unwrap();
        assert!(Arc::ptr_eq(
            &pod,
            &b.schema_for("io.k8s.api.core.v1.Pod").unwrap()
        ));
        assert!(pod.find("io.k8s.api.core.v1.Container").is_some());
        assert!(pod.find("io.k8s.api.apps.v1.Deployment").is_none());
        assert!(pod.find(UNTYPED_DEDUCED).is_some());

        let port = field(&pod, "io.k8s.api.core.v1.ContainerPort", "protocol");
        assert_eq!(port.default, Some(Value::from("TCP")));
        let ports = field(&pod, "io.k8s.api.core.v1.Container", "ports");
        let list = pod.resolve(&ports.type_ref).unwrap().list.unwrap();
        assert_eq!(list.keys, ["containerPort", "protocol"]);
        assert_eq!(
            ports.patch,
            Some(PatchMeta {
                strategy: "merge".into(),
                merge_key: Some("containerPort".into())
            })
        );
        let profile = pod.find("io.k8s.api.core.v1.SeccompProfile").unwrap();
        let unions = &pod.type_def(profile).atom.map.as_ref().unwrap().unions;
        assert_eq!(unions[0].discriminator.as_deref(), Some("type"));
        assert_eq!(
            b.schema_for("no.such.Type").unwrap_err(),
            SchemaError::UnknownType("no.such.Type".into())
        );
    }

    #[test]
    fn every_type_parses() {
        let schema = builtin().full_schema().unwrap();
        assert!(schema.types().len() > 700);
        // Every named reference resolves.
        for t in schema.types() {
            let mut refs = Vec::new();
            named_refs(&t.atom, &mut refs);
            for r in refs {
                assert!(schema.find(r).is_some(), "{} refers to missing {r}", t.name);
            }
        }
    }

    /// Prints the cost of indexing and of loading the Pod closure vs. every type:
    /// `cargo test --release --lib load_costs -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn load_costs() {
        use std::time::{Duration, Instant};
        let time = |f: &dyn Fn()| {
            let runs = 20;
            let t = Instant::now();
            (0..runs).for_each(|_| f());
            t.elapsed() / runs
        };
        let index = time(&|| {
            BuiltinSchemas::index(TOPOLOGY).unwrap();
        });
        // Each run indexes afresh, so the closure is parsed cold; the index cost is subtracted.
        let pod = time(&|| {
            let b = BuiltinSchemas::index(TOPOLOGY).unwrap();
            b.schema_for("io.k8s.api.core.v1.Pod").unwrap();
        })
        .saturating_sub(index);
        let all = time(&|| {
            BuiltinSchemas::index(TOPOLOGY)
                .unwrap()
                .full_schema()
                .unwrap();
        })
        .saturating_sub(index);
        let b = builtin();
        let pod_types = b
            .schema_for("io.k8s.api.core.v1.Pod")
            .unwrap()
            .types()
            .len();
        let cached = time(&|| {
            b.schema_for("io.k8s.api.core.v1.Pod").unwrap();
        });
        let all_types = b.full_schema().unwrap().types().len();
        eprintln!(
            "index {index:?}; Pod closure ({pod_types} types) cold {pod:?}, cached {cached:?}; all {all_types} types {all:?}"
        );
        assert!(cached < Duration::from_millis(1));
    }

    /// Compares list and map relationships with the reference's conversion of an older
    /// Kubernetes (smd-real), printing differences: newer Kubernetes marks many structs and
    /// maps atomic and re-keys some lists. The lists of four core types must agree.
    #[test]
    fn agrees_with_reference_conversion() {
        let Some(shared) = shared_dir() else {
            eprintln!("skipped: no shared directory");
            return;
        };
        let path = shared.join("conformance/smd-real/schemas/d474626da7b4.yaml");
        let reference = parse_smd_schema(&std::fs::read_to_string(path).unwrap()).unwrap();
        let ours = builtin().full_schema().unwrap();
        let mut differences = Vec::new();
        for t in reference.types() {
            let (Some(theirs), Some(id)) = (t.atom.map.as_deref(), ours.find(&t.name)) else {
                continue;
            };
            let Some(mine) = ours.type_def(id).atom.map.as_deref() else {
                differences.push(format!("{}: not a map here", t.name));
                continue;
            };
            for f in &theirs.fields {
                let Some(my_field) = mine.field(&f.name) else {
                    continue;
                };
                let (a, b) = (
                    reference.resolve(&f.type_ref),
                    ours.resolve(&my_field.type_ref),
                );
                let (Some(a), Some(b)) = (a, b) else { continue };
                let list = |r: &Resolved| (r.list_relationship(), r.list.map(|l| l.keys.clone()));
                if list(&a) != list(&b) {
                    differences.push(format!(
                        "{}.{}: list: reference {:?}, ours {:?}",
                        t.name,
                        f.name,
                        list(&a),
                        list(&b)
                    ));
                }
                if a.map_relationship() != b.map_relationship() {
                    differences.push(format!(
                        "{}.{}: map: reference {:?}, ours {:?}",
                        t.name,
                        f.name,
                        a.map_relationship(),
                        b.map_relationship()
                    ));
                }
            }
        }
        for d in &differences {
            eprintln!("{d}");
        }
        for core in ["PodSpec", "Container", "ContainerPort", "NodeStatus"] {
            let prefix = format!("io.k8s.api.core.v1.{core}.");
            assert!(
                !differences
                    .iter()
                    .any(|d| d.starts_with(&prefix) && d.contains(": list: ")),
                "{core} differs from the reference"
            );
        }
    }
}
