//! What the API server stores that depends on its Kubernetes version, as a table of rules with
//! the versions each applies to: defaults behind feature gates that are on by default from some
//! release, and changes of the typed encoding. The version-independent defaulters are
//! [`super::rules`]; this table runs after them.

use super::quantity::Quantity;
use crate::kube::{KubeVersion, VersionRange};
use crate::schema::openapi::OBJECT_META;
use crate::schema::{Schema, TypeRef};
use crate::value::{Map, Value};

/// One version-dependent step.
pub(super) struct VersionedRule {
    /// What changes, and why (the upstream change).
    pub what: &'static str,
    /// The OpenAPI definitions of the objects it applies to (empty: every built-in kind).
    pub definitions: &'static [&'static str],
    pub versions: VersionRange,
    pub apply: Apply,
}

/// How a rule changes the stored object.
#[derive(Clone, Copy)]
pub(super) enum Apply {
    /// A defaulter over the object's top-level map.
    Default(fn(&mut Map)),
    /// A change of the typed encoding, over the object and its schema.
    Encode(fn(&Schema, &TypeRef, &mut Value)),
}

/// Every version-dependent rule. Checked against the Kubernetes sources of each release
/// (docs/defaults.md lists the gates and defaulters looked at that do not differ in 1.30–1.37).
pub(super) const RULES: &[VersionedRule] = &[
    VersionedRule {
        what: "pod-level requests default from the containers' requests, else from pod-level \
               limits (pkg/apis/core/v1/defaults.go SetDefaults_Pod, defaultPodRequests; gate \
               PodLevelResources: alpha 1.32, beta and on by default from 1.34)",
        definitions: &["io.k8s.api.core.v1.Pod"],
        versions: VersionRange::since(34),
        apply: Apply::Default(pod_level_requests),
    },
    VersionedRule {
        what: "an object's zero metav1.Time creationTimestamp is encoded as null in every \
               embedded ObjectMeta (pod templates…) until apimachinery marked it omitzero \
               (kubernetes#130989, released in 1.34)",
        definitions: &[],
        versions: VersionRange::until(33),
        apply: Apply::Encode(null_creation_timestamps),
    },
];

/// The rules for one definition at one version.
fn rules_for(
    definition: &str,
    version: KubeVersion,
) -> impl Iterator<Item = &'static VersionedRule> + '_ {
    RULES.iter().filter(move |r| {
        r.versions.contains(version)
            && (r.definitions.is_empty() || r.definitions.contains(&definition))
    })
}

/// Applies the version's defaulters to a defaulted object of `definition`.
pub(super) fn default(definition: &str, object: &mut Value, version: KubeVersion) {
    for rule in rules_for(definition, version) {
        if let (Apply::Default(f), Some(map)) = (rule.apply, object.as_map_mut()) {
            f(map);
        }
    }
}

/// Applies the version's encoding changes to a round-tripped object.
pub(super) fn encode(
    definition: &str,
    schema: &Schema,
    root: &TypeRef,
    object: &mut Value,
    version: KubeVersion,
) {
    for rule in rules_for(definition, version) {
        if let Apply::Encode(f) = rule.apply {
            f(schema, root, object);
        }
    }
}

/// Resources a pod may request at pod level (component-helpers `IsSupportedPodLevelResource`).
const POD_LEVEL_RESOURCES: &[&str] = &["cpu", "memory"];

/// `defaultPodRequests`: only when pod-level limits are given, each supported resource without
/// a pod-level request gets the containers' aggregated request, else the pod-level limit.
fn pod_level_requests(pod: &mut Map) {
    let Some(spec) = pod.get("spec").and_then(Value::as_map) else {
        return;
    };
    let Some(resources) = spec.get("resources").and_then(Value::as_map) else {
        return;
    };
    let Some(limits) = resources.get("limits").and_then(Value::as_map) else {
        return;
    };
    if limits.is_empty() {
        return;
    }
    let aggregated = aggregate_container_requests(spec);
    let mut requests = resources
        .get("requests")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    for name in POD_LEVEL_RESOURCES {
        if requests.contains_key(name) {
            continue;
        }
        let value = match aggregated.iter().find(|(n, _)| n == name) {
            Some((_, q)) => q.canonical().map(Value::String),
            None => limits.get(name).cloned(),
        };
        if let Some(value) = value {
            requests.insert((*name).to_string(), value);
        }
    }
    if requests.is_empty() {
        return;
    }
    if let Some(Value::Map(resources)) = pod
        .get_mut("spec")
        .and_then(Value::as_map_mut)
        .and_then(|s| s.get_mut("resources"))
    {
        resources.insert("requests".into(), Value::Map(requests));
    }
}

/// component-helpers `AggregateContainerRequests` for a pod being created: regular containers
/// and sidecars (init containers with `restartPolicy: Always`) add up; each other init
/// container counts with the sidecars started before it; the larger of the two wins.
pub(crate) fn aggregate_container_requests(spec: &Map) -> Vec<(String, Quantity)> {
    let requests = |c: &Value| -> Vec<(String, Quantity)> {
        c.get("resources")
            .and_then(|r| r.get("requests"))
            .and_then(Value::as_map)
            .into_iter()
            .flatten()
            .filter_map(|(name, v)| {
                let text = match v {
                    Value::String(s) => s.clone(),
                    Value::Int(i) => i.to_string(),
                    _ => return None,
                };
                Some((name.clone(), Quantity::parse(&text)?))
            })
            .collect()
    };
    let containers = |key: &str| {
        spec.get(key)
            .and_then(Value::as_list)
            .cloned()
            .unwrap_or_default()
    };
    let mut total: Vec<(String, Quantity)> = Vec::new();
    for c in containers("containers") {
        add(&mut total, &requests(&c));
    }
    let mut sidecars: Vec<(String, Quantity)> = Vec::new();
    let mut init_max: Vec<(String, Quantity)> = Vec::new();
    for c in containers("initContainers") {
        let own = requests(&c);
        let counted = if c.get("restartPolicy").and_then(Value::as_str) == Some("Always") {
            add(&mut total, &own);
            add(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut with_sidecars = own;
            add(&mut with_sidecars, &sidecars);
            with_sidecars
        };
        max(&mut init_max, &counted);
    }
    max(&mut total, &init_max);
    total
}

/// `addResourceList`.
fn add(list: &mut Vec<(String, Quantity)>, more: &[(String, Quantity)]) {
    for (name, q) in more {
        match list.iter_mut().find(|(n, _)| n == name) {
            Some((_, have)) => {
                if let Some(sum) = have.add(q) {
                    *have = sum;
                }
            }
            None => list.push((name.clone(), *q)),
        }
    }
}

/// `maxResourceList`.
fn max(list: &mut Vec<(String, Quantity)>, other: &[(String, Quantity)]) {
    for (name, q) in other {
        match list.iter_mut().find(|(n, _)| n == name) {
            Some((_, have)) => {
                if q.compare(have) == Some(std::cmp::Ordering::Greater) {
                    *have = *q;
                }
            }
            None => list.push((name.clone(), *q)),
        }
    }
}

/// Every ObjectMeta below the root (the root's is the object's own, which the server always
/// sets) gets `creationTimestamp: null` when it has none.
fn null_creation_timestamps(schema: &Schema, root: &TypeRef, object: &mut Value) {
    walk(schema, root, object, true);
}

fn walk(schema: &Schema, tr: &TypeRef, v: &mut Value, root: bool) {
    if tr.named.as_deref() == Some(OBJECT_META) {
        if let Value::Map(meta) = v {
            crate::value::access::insert_in_order(
                meta,
                "creationTimestamp",
                Value::Null,
                crate::kube::object_meta_fields_after("creationTimestamp"),
            );
        }
        return;
    }
    let Some(resolved) = schema.resolve(tr) else {
        return;
    };
    match v {
        Value::Map(m) => {
            if let Some(mt) = resolved.map {
                for (key, child) in m.iter_mut() {
                    if !(root && key == "metadata") {
                        walk(schema, mt.type_of(key), child, false);
                    }
                }
            }
        }
        Value::List(items) => {
            if let Some(lt) = resolved.list {
                for item in items {
                    walk(schema, &lt.element_type, item, false);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    #[test]
    fn pod_level_requests_follow_containers_then_limits() {
        let mut pod = from_json_str(
            r#"{"spec":{"resources":{"limits":{"cpu":"2","memory":"1Gi"}},
                "initContainers":[{"name":"side","restartPolicy":"Always","resources":{"requests":{"cpu":"250m"}}},
                                  {"name":"init","resources":{"requests":{"cpu":"1500m"}}}],
                "containers":[{"name":"a","resources":{"requests":{"cpu":"500m"}}},
                              {"name":"b","resources":{"requests":{"cpu":"250m"}}}]}}"#,
        )
        .unwrap();
        let before = pod.clone();
        default("io.k8s.api.core.v1.Pod", &mut pod, v(33));
        assert_eq!(pod, before, "the gate is off before 1.34");
        default("io.k8s.api.core.v1.Pod", &mut pod, v(34));
        // cpu: max(500m + 250m + 250m, 1500m + 250m) = 1750m; memory: the pod-level limit.
        assert_eq!(
            pod.get_path(&["spec", "resources", "requests"]),
            Some(&from_json_str(r#"{"cpu":"1750m","memory":"1Gi"}"#).unwrap())
        );
    }

    #[test]
    fn templates_keep_a_null_creation_timestamp_before_1_34() {
        let kind = SchemaRegistry::for_version(v(33))
            .resolve("apps/v1", "Deployment")
            .unwrap();
        let mut d = from_json_str(
            r#"{"metadata":{"name":"web"},"spec":{"template":{"metadata":{"labels":{"a":"b"}}}}}"#,
        )
        .unwrap();
        encode(
            "io.k8s.api.apps.v1.Deployment",
            &kind.schema,
            &kind.type_ref,
            &mut d,
            v(33),
        );
        assert_eq!(
            d.get_path(&["spec", "template", "metadata", "creationTimestamp"]),
            Some(&Value::Null)
        );
        assert_eq!(d.get_path(&["metadata", "creationTimestamp"]), None);
        let mut newer = from_json_str(r#"{"spec":{"template":{"metadata":{}}}}"#).unwrap();
        encode(
            "io.k8s.api.apps.v1.Deployment",
            &kind.schema,
            &kind.type_ref,
            &mut newer,
            v(34),
        );
        assert_eq!(
            newer.get_path(&["spec", "template", "metadata", "creationTimestamp"]),
            None
        );
    }
}
