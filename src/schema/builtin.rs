//! The built-in types of every embedded Kubernetes version: the newest as a full topology file
//! (see [`super::topology`]), each older one as its differences from the next newer one. A
//! version is indexed by line on first use and parsed one type closure at a time, so a run that
//! touches one kind parses only the types that kind reaches.

use super::topology::{parse_kind, parse_type};
use super::*;
use crate::kube::KubeVersion;
use crate::lines::SortedLines;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// The committed output of `kssa-schemagen`: the newest version in full…
pub const TOPOLOGY: &str = include_str!("k8s-1.37.topology");
/// …and each older version as `V 1.NN` sections of differences, newest first.
pub const TOPOLOGY_DELTAS: &str = include_str!("k8s-older.topology-delta");

/// The built-in kinds and types of one version, indexed; type closures are parsed on demand and
/// cached.
#[derive(Debug)]
pub struct BuiltinSchemas {
    kinds: KindLines,
    types: TypeLines,
    cache: Mutex<HashMap<String, Arc<Schema>>>,
}

/// The embedded built-in schemas of the newest version, indexed on first call.
pub fn builtin() -> &'static BuiltinSchemas {
    builtin_for(KubeVersion::NEWEST)
}

/// The embedded built-in schemas of one version, indexed on first call.
pub fn builtin_for(version: KubeVersion) -> &'static BuiltinSchemas {
    static BUILTIN: [OnceLock<BuiltinSchemas>; KubeVersion::COUNT] =
        [const { OnceLock::new() }; KubeVersion::COUNT];
    BUILTIN[version.index()].get_or_init(|| {
        BuiltinSchemas::index_version(TOPOLOGY_DELTAS, version)
            .expect("the embedded topology is valid (checked by tests)")
    })
}

/// The lines of the `V 1.NN` sections of a delta text that lead from the newest version down to
/// `version` (sections run newest first), without section headers and comments.
pub(crate) fn version_delta_lines(
    deltas: &'static str,
    version: KubeVersion,
) -> impl Iterator<Item = &'static str> {
    let minor = |s: &str| s.strip_prefix("1.").and_then(|m| m.parse::<u8>().ok());
    let mut section: Option<u8> = None;
    deltas
        .lines()
        .map_while(move |line| {
            if let Some(v) = line.strip_prefix("V ") {
                section = minor(v);
                // Past the target's section: the rest leads to older versions.
                return section
                    .is_some_and(|m| m >= version.minor())
                    .then_some(None);
            }
            let content = !line.is_empty() && !line.starts_with('#');
            Some((content && section.is_some()).then_some(line))
        })
        .flatten()
}

impl BuiltinSchemas {
    /// Indexes the embedded topology text (`TOPOLOGY`, whose type lines build.rs located):
    /// records each kind line, to be parsed on first use. A malformed line before the type
    /// lines is an error.
    pub fn index() -> Result<BuiltinSchemas, SchemaError> {
        let types = TypeLines {
            sorted: SortedLines::new(TOPOLOGY, &crate::lines::TOPOLOGY_TYPE_LINES),
            changed: FxHashMap::default(),
        };
        // The kind lines come before the type lines, which are not read until asked for.
        let mut kinds = Vec::new();
        for line in crate::lines::split_lines(types.sorted.head()) {
            // The embedded files have no `\r`; `lines` would strip one.
            if line.starts_with("K ") {
                kinds.push(KindLine::new(line)?);
            } else if !line.is_empty() && !line.starts_with('#') {
                return Err(SchemaError::Invalid(format!("bad topology line: {line}")));
            }
        }
        Ok(BuiltinSchemas {
            kinds: KindLines::new(kinds),
            types,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Indexes the newest topology, then applies the delta sections down to `version`.
    pub fn index_version(
        deltas: &'static str,
        version: KubeVersion,
    ) -> Result<BuiltinSchemas, SchemaError> {
        let mut b = BuiltinSchemas::index()?;
        if version == KubeVersion::NEWEST {
            return Ok(b);
        }
        let mut kinds: FxHashMap<Gvk, KindLine> =
            b.kinds.lines.drain(..).map(|k| (k.gvk, k)).collect();
        for line in version_delta_lines(deltas, version) {
            if line.starts_with("T ") {
                b.types.changed.insert(name_of(line), Some(line));
            } else if let Some(name) = line.strip_prefix("-T ") {
                b.types.changed.insert(name, None);
            } else if line.starts_with("K ") {
                let k = KindLine::new(line)?;
                kinds.insert(k.gvk, k);
            } else if let Some(gvk) = line.strip_prefix("-K ") {
                let gvk = gvk_words(&mut crate::lines::split_spaces(gvk))
                    .ok_or_else(|| SchemaError::Invalid(format!("bad delta line: {line}")))?;
                kinds.remove(&gvk);
            } else {
                return Err(SchemaError::Invalid(format!("bad delta line: {line}")));
            }
        }
        b.kinds = KindLines::new(kinds.into_values().collect());
        Ok(b)
    }

    /// Every kind, sorted by group, version and kind.
    pub fn kinds(&self) -> impl Iterator<Item = &KindInfo> + '_ {
        (0..self.kinds.lines.len()).map(|i| self.kinds.info(i))
    }

    pub fn kind(&self, group: &str, version: &str, kind: &str) -> Option<&KindInfo> {
        self.kinds
            .lines
            .binary_search_by(|k| k.gvk.cmp(&(group, version, kind)))
            .ok()
            .map(|i| self.kinds.info(i))
    }

    /// Whether any kind belongs to `group` (`""` for the core group).
    pub fn has_group(&self, group: &str) -> bool {
        self.kinds.lines.iter().any(|k| k.gvk.0 == group)
    }

    /// The versions of a kind, in the order of [`Self::kinds`].
    pub fn versions(&self, group: &str, kind: &str) -> Vec<&KindInfo> {
        let lines = self.kinds.lines.iter().enumerate();
        lines
            .filter(|(_, k)| k.gvk.0 == group && k.gvk.2 == kind)
            .map(|(i, _)| self.kinds.info(i))
            .collect()
    }

    pub fn has_type(&self, type_name: &str) -> bool {
        self.types.get(type_name).is_some()
    }

    /// The type names, unordered.
    pub fn type_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.types.names()
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
        let mut types = self.closure(type_names)?;
        // The untyped helpers are added before indexing, so the schema is indexed once.
        for extra in untyped_types() {
            if !types.iter().any(|t| t.name == extra.name) {
                types.push(extra);
            }
        }
        let schema = Arc::new(Schema::new(types));
        let mut cached = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        Ok(cached.entry(key).or_insert(schema).clone())
    }

    /// The definitions of the given types and of every type they reach, roots first.
    pub fn closure(&self, roots: &[&str]) -> Result<Vec<TypeDef>, SchemaError> {
        let mut seen: FxHashSet<&str> = roots.iter().copied().collect();
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
                    let key = self
                        .types
                        .get(name)
                        .map(name_of)
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
        let line = self
            .types
            .get(name)
            .ok_or_else(|| SchemaError::UnknownType(name.to_string()))?;
        parse_type(line)
    }
}

/// Group (empty for the core group), version and kind.
type Gvk = (&'static str, &'static str, &'static str);

/// A `K` line and the kind it names. Only the kinds a run looks up are parsed: parsing all
/// of them (and their strings) was the largest part of indexing at every start.
#[derive(Debug)]
struct KindLine {
    gvk: Gvk,
    line: &'static str,
}

impl KindLine {
    fn new(line: &'static str) -> Result<KindLine, SchemaError> {
        let mut words = crate::lines::split_spaces(line);
        words.next();
        let gvk = gvk_words(&mut words)
            .ok_or_else(|| SchemaError::Invalid(format!("bad kind line: {line}")))?;
        Ok(KindLine { gvk, line })
    }
}

/// The next three words as group, version and kind (`-` is the core group).
fn gvk_words(words: &mut crate::lines::Words<'static>) -> Option<Gvk> {
    let group = words.next()?;
    let group = if group == "-" { "" } else { group };
    Some((group, words.next()?, words.next()?))
}

/// The kind lines, sorted by group, version and kind, each parsed on first use.
#[derive(Debug, Default)]
struct KindLines {
    lines: Vec<KindLine>,
    /// Boxed, so the table holds a word per kind until a kind is parsed.
    parsed: Vec<OnceLock<Box<KindInfo>>>,
}

impl KindLines {
    fn new(mut lines: Vec<KindLine>) -> KindLines {
        lines.sort_unstable_by(|a, b| a.gvk.cmp(&b.gvk));
        let parsed = lines.iter().map(|_| OnceLock::new()).collect();
        KindLines { lines, parsed }
    }

    fn info(&self, i: usize) -> &KindInfo {
        self.parsed[i].get_or_init(|| {
            Box::new(
                parse_kind(self.lines[i].line)
                    .expect("the embedded kind lines are valid (checked by tests)"),
            )
        })
    }
}

/// Type name → its `T` line. The topology generator writes the newest version's lines sorted
/// by name, so they are found by binary search instead of hashed at every start; an older
/// version's delta lies on top.
#[derive(Debug)]
struct TypeLines {
    /// The newest version's lines, in name order.
    sorted: SortedLines,
    /// Types the delta replaces or adds (`Some`) or removes (`None`).
    changed: FxHashMap<&'static str, Option<&'static str>>,
}

impl TypeLines {
    fn get(&self, name: &str) -> Option<&'static str> {
        match self.changed.get(name) {
            Some(changed) => *changed,
            None => self.sorted.find(name).map(|i| self.sorted.line(i)),
        }
    }

    fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        let kept = self.sorted.names();
        let kept = kept.filter(|n| !self.changed.contains_key(n));
        let changed = self.changed.iter().filter(|(_, l)| l.is_some());
        kept.chain(changed.map(|(n, _)| *n))
    }
}

/// A `T` line's type name: its second word.
fn name_of(line: &'static str) -> &'static str {
    crate::lines::second_word(line)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// `/work/shared` or `../shared` beside the checkout, when present.
    fn shared_dir() -> Option<PathBuf> {
        let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
        [beside, PathBuf::from("/work/shared")]
            .into_iter()
            .find(|d| {
                d.join("schemas/kubernetes-1.36-openapi-v2.json").is_file()
                    && d.join("schemas/versions").is_dir()
            })
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
    fn committed_topologies_are_fresh() {
        let Some(shared) = shared_dir() else {
            eprintln!("skipped: neither ../shared nor /work/shared has the schemas");
            return;
        };
        let generated = super::super::generate::generate_from_dir(&shared.join("schemas")).unwrap();
        let committed = super::super::generate::committed();
        let stale = "is stale: run `cargo run --release --features schemagen --bin kssa-schemagen`";
        assert!(
            generated.topology == committed.topology,
            "k8s-1.37.topology {stale}"
        );
        assert!(
            generated.topology_deltas == committed.topology_deltas,
            "k8s-older.topology-delta {stale}"
        );
    }

    #[test]
    fn type_lines_are_sorted_by_name_for_binary_search() {
        let b = builtin();
        let lines: Vec<&str> = b.types.sorted.iter().collect();
        let type_lines = TOPOLOGY.lines().filter(|l| l.starts_with("T "));
        assert_eq!(lines, type_lines.collect::<Vec<_>>());
        assert!(lines.len() > 500);
        assert!(lines.windows(2).all(|w| name_of(w[0]) < name_of(w[1])));
        let sorted = b.types.sorted;
        assert!(sorted.names().eq(sorted.iter().map(name_of)));
        assert!(b.has_type("io.k8s.api.apps.v1.DeploymentSpec"));
        assert!(!b.has_type("io.k8s.api.apps.v1.Nope"));
        let old = builtin_for(KubeVersion::OLDEST);
        assert_eq!(old.type_names().count(), {
            let mut names: Vec<&str> = old.type_names().collect();
            names.sort_unstable();
            names.dedup();
            names.len()
        });
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
    fn every_type_of_every_version_parses() {
        for version in KubeVersion::all() {
            let b = builtin_for(version);
            let schema = b.full_schema().unwrap();
            assert!(schema.types().len() > 600, "{version}");
            // Every named reference resolves, and every kind's type exists.
            for t in schema.types() {
                let mut refs = Vec::new();
                named_refs(&t.atom, &mut refs);
                for r in refs {
                    assert!(
                        schema.find(r).is_some(),
                        "{version}: {} refers to missing {r}",
                        t.name
                    );
                }
            }
            for k in b.kinds() {
                assert!(
                    b.has_type(&k.type_name),
                    "{version}: {} has no type",
                    k.kind
                );
            }
        }
    }

    #[test]
    fn versions_differ_where_kubernetes_changed() {
        let v = |minor| builtin_for(KubeVersion::new(minor).unwrap());
        // flowcontrol.apiserver.k8s.io/v1beta3 was removed in 1.32.
        assert!(v(31)
            .kind("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
            .is_some());
        assert!(v(32)
            .kind("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
            .is_none());
        // certificates.k8s.io/v1 ClusterTrustBundle is new in 1.37.
        assert!(v(36)
            .kind("certificates.k8s.io", "v1", "ClusterTrustBundle")
            .is_none());
        let ctb = v(37)
            .kind("certificates.k8s.io", "v1", "ClusterTrustBundle")
            .unwrap();
        assert!(!ctb.namespaced);
        // Lifecycle.stopSignal is new in 1.33.
        let lifecycle = |minor| {
            let schema = v(minor).schema_for("io.k8s.api.core.v1.Lifecycle").unwrap();
            let map = schema.type_def(schema.find("io.k8s.api.core.v1.Lifecycle").unwrap());
            map.atom
                .map
                .as_deref()
                .unwrap()
                .field("stopSignal")
                .is_some()
        };
        assert!(!lifecycle(32) && lifecycle(33));
        // Kinds only older versions have keep their scope (a table for those 1.36 lacks).
        let class = v(30)
            .kind("resource.k8s.io", "v1alpha2", "ResourceClass")
            .unwrap();
        assert_eq!(class.plural.as_deref(), Some("resourceclasses"));
        assert!(!class.namespaced);
        // Delta sections apply newest first: 1.30 sees every older change.
        assert!(version_delta_lines(TOPOLOGY_DELTAS, KubeVersion::NEWEST)
            .next()
            .is_none());
        assert!(
            version_delta_lines(TOPOLOGY_DELTAS, KubeVersion::OLDEST).count()
                > version_delta_lines(TOPOLOGY_DELTAS, KubeVersion::new(36).unwrap()).count()
        );
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
            BuiltinSchemas::index().unwrap();
        });
        // Each run indexes afresh, so the closure is parsed cold; the index cost is subtracted.
        let pod = time(&|| {
            let b = BuiltinSchemas::index().unwrap();
            b.schema_for("io.k8s.api.core.v1.Pod").unwrap();
        })
        .saturating_sub(index);
        let all = time(&|| {
            BuiltinSchemas::index().unwrap().full_schema().unwrap();
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
