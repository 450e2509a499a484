//! Fields a write may not change through the endpoint it uses (the registry strategies'
//! `GetResetFields`). Nobody owns them, and the stored value is kept.
//!
//! The built-in kinds of Kubernetes 1.36 whose strategies were read are listed in [`TABLE`];
//! every API version a kind serves resets the same paths. Other kinds (custom resources
//! included, per apiextensions-apiserver `pkg/registry/customresource/{strategy,
//! status_strategy}.go`) reset `status` through the main resource when a status subresource
//! is served, and `spec` through `status`; a custom resource's status write also keeps the
//! rest of the stored object, without its fields going unowned ([`Kept`]).

use crate::fieldpath::{Path, PathElement, Set};
use crate::kube::{ResolvedKind, VersionRange};
use crate::value::{Map, Value};

/// One strategy's reset fields: API group ("" for core), kind, subresource ("" for the main
/// resource) and the field paths (each a list of field names).
struct Entry {
    group: &'static str,
    kind: &'static str,
    subresource: &'static str,
    paths: &'static [&'static [&'static str]],
}

const fn entry(
    group: &'static str,
    kind: &'static str,
    subresource: &'static str,
    paths: &'static [&'static [&'static str]],
) -> Entry {
    Entry {
        group,
        kind,
        subresource,
        paths,
    }
}

const STATUS: &[&[&str]] = &[&["status"]];
const SPEC: &[&[&str]] = &[&["spec"]];

/// Strategies whose `GetResetFields` was read in kubernetes `pkg/registry/**/strategy.go`
/// (DaemonSet's status strategy is inferred from its `PrepareForUpdate`, which keeps `spec`).
const TABLE: &[Entry] = &[
    // core/pod/strategy.go
    entry("", "Pod", "", STATUS),
    entry(
        "",
        "Pod",
        "status",
        &[
            &["spec"],
            &["metadata", "deletionTimestamp"],
            &["metadata", "ownerReferences"],
        ],
    ),
    // core/service/strategy.go
    entry("", "Service", "", STATUS),
    entry("", "Service", "status", SPEC),
    // core/namespace/strategy.go
    entry("", "Namespace", "", STATUS),
    entry("", "Namespace", "status", SPEC),
    // core/node/strategy.go
    entry("", "Node", "", STATUS),
    entry("", "Node", "status", SPEC),
    // core/persistentvolume/strategy.go
    entry("", "PersistentVolume", "", STATUS),
    entry("", "PersistentVolume", "status", SPEC),
    // core/persistentvolumeclaim/strategy.go
    entry("", "PersistentVolumeClaim", "", STATUS),
    entry("", "PersistentVolumeClaim", "status", SPEC),
    // core/replicationcontroller/strategy.go
    entry("", "ReplicationController", "status", SPEC),
    // core/resourcequota/strategy.go
    entry("", "ResourceQuota", "status", SPEC),
    // apps/deployment/strategy.go
    entry("apps", "Deployment", "", STATUS),
    entry(
        "apps",
        "Deployment",
        "status",
        &[&["spec"], &["metadata", "labels"]],
    ),
    // apps/replicaset/strategy.go
    entry("apps", "ReplicaSet", "status", SPEC),
    // apps/statefulset/strategy.go
    entry("apps", "StatefulSet", "status", SPEC),
    // apps/daemonset/strategy.go (inferred)
    entry("apps", "DaemonSet", "status", SPEC),
    // batch/job/strategy.go
    entry("batch", "Job", "", STATUS),
    entry("batch", "Job", "status", SPEC),
    // batch/cronjob/strategy.go
    entry("batch", "CronJob", "status", SPEC),
    // autoscaling/horizontalpodautoscaler/strategy.go
    entry("autoscaling", "HorizontalPodAutoscaler", "", STATUS),
    entry("autoscaling", "HorizontalPodAutoscaler", "status", SPEC),
    // networking/ingress/strategy.go
    entry("networking.k8s.io", "Ingress", "", STATUS),
    entry("networking.k8s.io", "Ingress", "status", SPEC),
    // policy/poddisruptionbudget/strategy.go
    entry("policy", "PodDisruptionBudget", "", STATUS),
    // certificates/certificates/strategy.go: `spec` is immutable, `status` is written through
    // the status and approval subresources, each of which keeps the other's part.
    entry(
        "certificates.k8s.io",
        "CertificateSigningRequest",
        "",
        &[&["spec"], &["status"]],
    ),
    entry(
        "certificates.k8s.io",
        "CertificateSigningRequest",
        "status",
        &[&["spec"], &["status", "conditions"]],
    ),
    entry(
        "certificates.k8s.io",
        "CertificateSigningRequest",
        "approval",
        &[&["spec"], &["status", "certificate"]],
    ),
];

/// Strategies whose `GetResetFields` key a group version no request carries ("networking/v1"
/// for networking.k8s.io/v1), in the releases listed: the field manager then ignores nothing,
/// so the fields are owned by whoever writes them, and only what the strategy's
/// `PrepareForUpdate` copies back is kept. ServiceCIDR until 1.35
/// (pkg/registry/networking/servicecidr/strategy.go; 1.36 fixed the keys and, with
/// ServiceCIDRStatusFieldWiping on, resets `status` through the main resource): its main
/// resource writes the status as sent, its status writes keep the stored spec.
const UNMATCHED_RESET_KEYS: &[(&str, &str, VersionRange)] =
    &[("networking.k8s.io", "ServiceCIDR", VersionRange::until(35))];

/// Whether the reset fields of `kind` go owned (see [`UNMATCHED_RESET_KEYS`]).
pub fn reset_fields_owned(kind: &ResolvedKind) -> bool {
    let gvk = &kind.gvk;
    UNMATCHED_RESET_KEYS.iter().any(|(group, k, releases)| {
        *group == gvk.group && *k == gvk.kind && releases.contains(kind.kube_version)
    })
}

/// The fields reset for writes of `kind` through `subresource` ("" for the main resource).
pub fn reset_fields(kind: &ResolvedKind, subresource: &str) -> Set {
    let gvk = &kind.gvk;
    if let Some(e) = TABLE
        .iter()
        .find(|e| e.group == gvk.group && e.kind == gvk.kind && e.subresource == subresource)
    {
        return Set::from_paths(e.paths.iter().map(|p| Path::fields(p)));
    }
    match subresource {
        "" if reset_fields_owned(kind) => Set::new(),
        "" if kind.has_status_subresource() => Set::from_paths([Path::fields(&["status"])]),
        "status" => Set::from_paths([Path::fields(&["spec"])]),
        _ => Set::new(),
    }
}

/// The part of `reset` a create of `kind` clears: only `status` (the strategies'
/// `PrepareForCreate`); other reset fields (a CSR's `spec`) are set at creation and only go
/// unowned. A Node keeps even its status (pkg/registry/core/node/strategy.go: "Nodes allow
/// *all* fields, including status, to be set on create").
pub fn cleared_on_create(kind: &ResolvedKind, reset: &Set) -> Set {
    if kind.gvk.group.is_empty() && kind.gvk.kind == "Node" {
        return Set::new();
    }
    reset.filter(&|p: &Path| p.elements().first().and_then(PathElement::as_field) == Some("status"))
}

/// What a write keeps of the stored object (the strategies' `PrepareForUpdate`): the stored
/// value of each reset field and, for a custom resource written through its `status`
/// subresource, everything but `status` (apiextensions-apiserver
/// `pkg/registry/customresource/status_strategy.go` `statusStrategy.PrepareForUpdate` copies
/// the stored object over the new one and puts back only `status` and the managed fields; its
/// `GetResetFields` names only `spec`, so ownership still follows [`reset_fields`]).
#[derive(Debug, Clone, Default)]
pub struct Kept {
    fields: Set,
    all_but_status: bool,
}

impl Kept {
    /// For a write of `kind` through `subresource` whose reset fields put back are `fields`
    /// (on a create, only what [`cleared_on_create`] leaves).
    pub fn new(kind: &ResolvedKind, subresource: &str, fields: Set, creating: bool) -> Kept {
        let custom_status = subresource == "status"
            && kind.has_status_subresource()
            && !TABLE.iter().any(|e| {
                e.group == kind.gvk.group && e.kind == kind.gvk.kind && e.subresource == "status"
            });
        Kept {
            fields,
            all_but_status: custom_status && !creating,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && !self.all_but_status
    }

    /// Puts what is kept back into `object` from the stored `live` object.
    pub fn put_back(&self, object: &mut Value, live: &Value) {
        if self.all_but_status {
            let status = object.as_map_mut().and_then(|m| m.shift_remove("status"));
            let managed = object
                .as_map_mut()
                .and_then(|m| m.get_mut("metadata"))
                .and_then(Value::as_map_mut)
                .and_then(|m| m.shift_remove("managedFields"));
            let mut kept = live.clone();
            if let Some(m) = kept.as_map_mut() {
                m.shift_remove("status");
                if let Some(status) = status {
                    m.insert("status".into(), status);
                }
                if let Some(meta) = m.get_mut("metadata").and_then(Value::as_map_mut) {
                    meta.shift_remove("managedFields");
                    if let Some(managed) = managed {
                        meta.insert("managedFields".into(), managed);
                    }
                }
            }
            *object = kept;
        } else {
            restore(object, live, &self.fields);
        }
    }
}

/// Puts back the stored value (or absence) of every field path in `reset` into `object`,
/// creating the parent maps a stored value needs.
pub fn restore(object: &mut Value, live: &Value, reset: &Set) {
    for path in reset.paths() {
        let names: Option<Vec<&str>> = path.elements().iter().map(PathElement::as_field).collect();
        let Some(names) = names else { continue };
        let Some((last, parents)) = names.split_last() else {
            continue;
        };
        let stored = live.get_path(&names).cloned();
        let mut target = Some(&mut *object);
        for p in parents {
            target = target.and_then(Value::as_map_mut).and_then(|m| {
                if stored.is_some() {
                    let child = m
                        .entry(p.to_string())
                        .or_insert_with(|| Value::Map(Map::default()));
                    if child.as_map_mut().is_none() {
                        *child = Value::Map(Map::default());
                    }
                    Some(child)
                } else {
                    m.get_mut(p)
                }
            });
        }
        let Some(map) = target.and_then(Value::as_map_mut) else {
            continue;
        };
        match stored {
            Some(v) => {
                map.insert(last.to_string(), v);
            }
            None => {
                map.shift_remove(*last);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    fn paths(kind: &ResolvedKind, subresource: &str) -> Vec<Path> {
        reset_fields(kind, subresource).sorted_paths()
    }

    fn fields(list: &[&[&str]]) -> Vec<Path> {
        let mut v: Vec<Path> = list.iter().map(|p| Path::fields(p)).collect();
        v.sort();
        v
    }

    /// Values read from kubernetes `pkg/registry/apps/deployment/strategy.go` and
    /// `pkg/registry/apps/replicaset/strategy.go`.
    #[test]
    fn deployment_and_replicaset_status_endpoints() {
        let reg = SchemaRegistry::new();
        let d = reg.resolve("apps/v1", "Deployment").unwrap();
        assert_eq!(paths(&d, ""), fields(&[&["status"]]));
        assert_eq!(
            paths(&d, "status"),
            fields(&[&["spec"], &["metadata", "labels"]])
        );
        let rs = reg.resolve("apps/v1", "ReplicaSet").unwrap();
        assert_eq!(paths(&rs, "status"), fields(&[&["spec"]]));
    }

    /// `pkg/registry/core/pod/strategy.go`: the status endpoint also keeps the deletion
    /// timestamp and owner references.
    #[test]
    fn pod_status_endpoint() {
        let pod = SchemaRegistry::new().resolve("v1", "Pod").unwrap();
        assert_eq!(paths(&pod, ""), fields(&[&["status"]]));
        assert_eq!(
            paths(&pod, "status"),
            fields(&[
                &["spec"],
                &["metadata", "deletionTimestamp"],
                &["metadata", "ownerReferences"],
            ])
        );
    }

    /// `pkg/registry/certificates/certificates/strategy.go`.
    #[test]
    fn certificate_signing_request_endpoints() {
        let csr = SchemaRegistry::new()
            .resolve("certificates.k8s.io/v1", "CertificateSigningRequest")
            .unwrap();
        assert_eq!(paths(&csr, ""), fields(&[&["spec"], &["status"]]));
        assert_eq!(
            paths(&csr, "status"),
            fields(&[&["spec"], &["status", "conditions"]])
        );
        assert_eq!(
            paths(&csr, "approval"),
            fields(&[&["spec"], &["status", "certificate"]])
        );
        // A create sets the spec; only the status is cleared.
        assert_eq!(
            cleared_on_create(&csr, &reset_fields(&csr, "")).sorted_paths(),
            fields(&[&["status"]])
        );
        let node = SchemaRegistry::new().resolve("v1", "Node").unwrap();
        assert!(cleared_on_create(&node, &reset_fields(&node, "")).is_empty());
    }

    #[test]
    fn service_cidr_reset_fields_match_only_from_1_36() {
        let at = |minor: u8| {
            let version = crate::kube::KubeVersion::new(minor).unwrap();
            SchemaRegistry::for_version(version)
                .resolve("networking.k8s.io/v1", "ServiceCIDR")
                .unwrap()
        };
        assert!(reset_fields(&at(35), "").is_empty());
        assert!(reset_fields_owned(&at(35)));
        assert_eq!(paths(&at(36), ""), fields(&[&["status"]]));
        assert!(!reset_fields_owned(&at(36)));
    }

    /// `pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go` and
    /// `pkg/registry/networking/ingress/strategy.go`: every served version alike.
    #[test]
    fn per_version_kinds() {
        let reg = SchemaRegistry::new();
        for v in ["autoscaling/v1", "autoscaling/v2"] {
            let hpa = reg.resolve(v, "HorizontalPodAutoscaler").unwrap();
            assert_eq!(paths(&hpa, ""), fields(&[&["status"]]));
            assert_eq!(paths(&hpa, "status"), fields(&[&["spec"]]));
        }
        let ing = reg.resolve("networking.k8s.io/v1", "Ingress").unwrap();
        assert_eq!(paths(&ing, "status"), fields(&[&["spec"]]));
    }

    /// apiextensions-apiserver `pkg/registry/customresource/status_strategy.go`: only `spec`.
    #[test]
    fn custom_resources_fall_back() {
        let mut reg = SchemaRegistry::new();
        let crd = from_json_str(
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":"widgets.example.com"},
            "spec":{"group":"example.com","scope":"Namespaced",
            "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
            "versions":[{"name":"v1","served":true,"storage":true,
            "subresources":{"status":{}},
            "schema":{"openAPIV3Schema":{"type":"object","properties":{
            "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
            "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}"#,
        )
        .unwrap();
        reg.add_document(&crd).unwrap();
        let w = reg.resolve("example.com/v1", "Widget").unwrap();
        assert_eq!(paths(&w, ""), fields(&[&["status"]]));
        assert_eq!(paths(&w, "status"), fields(&[&["spec"]]));
    }

    #[test]
    fn restore_nested_paths() {
        let reset = Set::from_paths([
            Path::fields(&["spec"]),
            Path::fields(&["status", "conditions"]),
            Path::fields(&["metadata", "labels"]),
        ]);
        let live = from_json_str(
            r#"{"metadata":{"labels":{"a":"1"}},"spec":{"x":1},
            "status":{"conditions":[{"type":"Approved"}],"certificate":"old"}}"#,
        )
        .unwrap();
        let mut new = from_json_str(
            r#"{"metadata":{"name":"n"},"spec":{"x":2},"status":{"certificate":"new"}}"#,
        )
        .unwrap();
        restore(&mut new, &live, &reset);
        assert_eq!(
            new,
            from_json_str(
                r#"{"metadata":{"name":"n","labels":{"a":"1"}},"spec":{"x":1},
                "status":{"certificate":"new","conditions":[{"type":"Approved"}]}}"#
            )
            .unwrap()
        );
        // A stored absence removes the field; missing parents stay missing.
        let live = from_json_str(r#"{"spec":{"x":1}}"#).unwrap();
        let mut new = from_json_str(r#"{"spec":{"x":1},"metadata":{"labels":{"b":"2"}}}"#).unwrap();
        restore(&mut new, &live, &reset);
        assert_eq!(
            new,
            from_json_str(r#"{"spec":{"x":1},"metadata":{}}"#).unwrap()
        );
    }

    #[test]
    fn main_resource_keeps_stored_status() {
        let kind = SchemaRegistry::new()
            .resolve("apps/v1", "Deployment")
            .unwrap();
        let reset = reset_fields(&kind, "");
        assert_eq!(reset, Set::from_paths([Path::fields(&["status"])]));
        let live = from_json_str(r#"{"spec":{"replicas":1},"status":{"replicas":1}}"#).unwrap();
        let mut new = from_json_str(r#"{"spec":{"replicas":2},"status":{"replicas":5}}"#).unwrap();
        restore(&mut new, &live, &reset);
        assert_eq!(
            new,
            from_json_str(r#"{"spec":{"replicas":2},"status":{"replicas":1}}"#).unwrap()
        );
        let cm = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
        assert!(reset_fields(&cm, "").is_empty());
    }
}
