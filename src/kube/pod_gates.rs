//! The pod spec fields a feature gate that is off by default keeps out of the stored object:
//! k8s.io/kubernetes pkg/api/pod/util.go `dropDisabledFields`, which every strategy with a pod
//! spec calls from `PrepareForCreate`/`PrepareForUpdate` (`DropDisabledPodFields`,
//! `DropDisabledTemplateFields`). A field is dropped while its gate is off unless the stored
//! spec already uses it (the gate's `…InUse` function), and the write is then accepted without
//! it. The table is in the upstream order of 1.36; the gates' defaults per release were read in
//! pkg/features `kube_features.go` (and `versioned_kube_features.go`) of 1.30–1.36. Gates on by
//! default in every supported release (sidecar containers, the sleep action, topology spread's
//! node inclusion policies and `matchLabelKeys`, AppArmor) drop nothing and are left out.

use super::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

/// The container lists `VisitContainers` walks (`AllContainers`).
const CONTAINER_LISTS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];

/// One gated field (its gate named above it in the table): where the gate is off by default, and how upstream tells that a stored
/// spec uses it and drops it from a new one.
struct GatedField {
    /// The releases whose default leaves the gate off. For 1.37, whose source could not be
    /// read, a gate is taken as off where it was alpha in 1.36.
    off: VersionRange,
    in_use: fn(&Value) -> bool,
    drop: fn(&mut Map),
    /// Whether `drop` finds nothing to change in a spec `in_use` finds unused: such a spec is
    /// then left untouched (not copied, its maps being shared with the write's inputs).
    only_drops_used: bool,
}

const GATED_FIELDS: &[GatedField] = &[
    // UserNamespacesSupport
    GatedField {
        off: VersionRange::until(32),
        in_use: |s| is_set(s.get("hostUsers")),
        drop: |s| remove(s, "hostUsers"),
        only_drops_used: true,
    },
    // SupplementalGroupsPolicy
    GatedField {
        off: VersionRange::between(31, 32),
        in_use: |s| is_set(security_context(s).get("supplementalGroupsPolicy")),
        drop: |s| remove_in_security_context(s, "supplementalGroupsPolicy"),
        only_drops_used: true,
    },
    // PodLevelResources
    GatedField {
        off: VersionRange::between(32, 33),
        in_use: pod_level_resources_in_use,
        drop: |s| remove(s, "resources"),
        only_drops_used: false,
    },
    // ProcMountType
    GatedField {
        off: VersionRange::until(32),
        in_use: proc_mount_in_use,
        drop: default_proc_mounts,
        only_drops_used: true,
    },
    // MatchLabelKeysInPodAffinity
    GatedField {
        off: VersionRange::until(30),
        in_use: |s| !pod_affinity_terms(s).all(no_label_keys),
        drop: drop_affinity_label_keys,
        only_drops_used: true,
    },
    // DynamicResourceAllocation
    GatedField {
        off: VersionRange::until(33),
        in_use: |s| !list(s.get("resourceClaims")).is_empty(),
        drop: drop_resource_claims,
        only_drops_used: false,
    },
    // ClusterTrustBundleProjection
    GatedField {
        off: VersionRange::until(36),
        in_use: |s| projection_in_use(s, "clusterTrustBundle"),
        drop: |s| drop_projection(s, "clusterTrustBundle"),
        only_drops_used: true,
    },
    // PodCertificateRequest
    GatedField {
        off: VersionRange::since(34),
        in_use: |s| projection_in_use(s, "podCertificate"),
        drop: |s| drop_projection(s, "podCertificate"),
        only_drops_used: true,
    },
    // GenericWorkload
    GatedField {
        off: VersionRange::between(35, 35),
        in_use: |s| is_set(s.get("workloadRef")),
        drop: |s| remove(s, "workloadRef"),
        only_drops_used: true,
    },
    // GenericWorkload
    GatedField {
        off: VersionRange::since(36),
        in_use: |s| is_set(s.get("schedulingGroup")),
        drop: |s| remove(s, "schedulingGroup"),
        only_drops_used: true,
    },
    // InPlacePodVerticalScaling
    GatedField {
        off: VersionRange::until(32),
        // Until 1.32 only the regular containers count.
        in_use: |s| containers(s, &["containers"]).any(|c| !list(c.get("resizePolicy")).is_empty()),
        drop: |s| for_each_container(s, |c| remove(c, "resizePolicy")),
        only_drops_used: false,
    },
    // ContainerRestartRules
    GatedField {
        off: VersionRange::between(34, 34),
        in_use: container_restart_rules_in_use,
        drop: drop_container_restart_rules,
        only_drops_used: false,
    },
    // RecursiveReadOnlyMounts
    GatedField {
        off: VersionRange::until(30),
        in_use: |s| mounts(s).any(|m| is_set(m.get("recursiveReadOnly"))),
        drop: |s| {
            for_each_container(s, |c| {
                for m in list_mut(c, "volumeMounts").filter_map(Value::as_map_mut) {
                    m.shift_remove("recursiveReadOnly");
                }
            })
        },
        only_drops_used: true,
    },
    // HostnameOverride
    GatedField {
        off: VersionRange::between(34, 34),
        in_use: |s| is_set(s.get("hostnameOverride")),
        drop: |s| remove(s, "hostnameOverride"),
        only_drops_used: true,
    },
    // EnvFiles
    GatedField {
        off: VersionRange::between(34, 34),
        in_use: has_file_key_ref,
        drop: |s| {
            for_each_container(s, |c| {
                for var in list_mut(c, "env").filter_map(Value::as_map_mut) {
                    if let Some(Value::Map(from)) = var.get_mut("valueFrom") {
                        from.shift_remove("fileKeyRef");
                    }
                }
            })
        },
        only_drops_used: true,
    },
    // ImageVolume
    GatedField {
        off: VersionRange::between(31, 34),
        in_use: |s| list(s.get("volumes")).iter().any(is_image_volume),
        drop: drop_image_volumes,
        only_drops_used: true,
    },
    // SELinuxChangePolicy
    GatedField {
        off: VersionRange::between(32, 32),
        in_use: |s| is_set(security_context(s).get("seLinuxChangePolicy")),
        drop: |s| remove_in_security_context(s, "seLinuxChangePolicy"),
        only_drops_used: true,
    },
    // ContainerStopSignals
    GatedField {
        off: VersionRange::since(33),
        in_use: |s| {
            containers(s, &CONTAINER_LISTS).any(|c| {
                c.get("lifecycle")
                    .is_some_and(|l| is_set(l.get("stopSignal")))
            })
        },
        drop: drop_stop_signals,
        only_drops_used: true,
    },
];

/// Drops from the pod spec `spec` the fields whose gate is off by default in `version` and
/// that the stored spec `old` (on update) does not use.
pub fn drop_disabled(spec: &mut Value, old: Option<&Value>, version: KubeVersion) {
    for field in GATED_FIELDS {
        if !field.off.contains(version) || old.is_some_and(field.in_use) {
            continue;
        }
        if field.only_drops_used && !(field.in_use)(spec) {
            continue;
        }
        if let Some(map) = spec.as_map_mut() {
            (field.drop)(map);
        }
    }
}

/// Set: present and not `null` (Go's non-nil pointer).
fn is_set(v: Option<&Value>) -> bool {
    v.is_some_and(|v| !v.is_null())
}

fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_list).map_or(&[], Vec::as_slice)
}

fn list_mut<'a>(map: &'a mut Map, key: &str) -> impl Iterator<Item = &'a mut Value> {
    match map.get_mut(key) {
        Some(Value::List(items)) => Some(items.iter_mut()),
        _ => None,
    }
    .into_iter()
    .flatten()
}

fn remove(map: &mut Map, key: &str) {
    map.shift_remove(key);
}

fn security_context(spec: &Value) -> &Value {
    static NULL: Value = Value::Null;
    spec.get("securityContext").unwrap_or(&NULL)
}

fn remove_in_security_context(spec: &mut Map, key: &str) {
    if let Some(Value::Map(sc)) = spec.get_mut("securityContext") {
        sc.shift_remove(key);
    }
}

fn containers<'a>(spec: &'a Value, lists: &'a [&str]) -> impl Iterator<Item = &'a Value> {
    lists.iter().flat_map(|key| list(spec.get(key)))
}

fn for_each_container(spec: &mut Map, mut f: impl FnMut(&mut Map)) {
    for key in CONTAINER_LISTS {
        for c in list_mut(spec, key).filter_map(Value::as_map_mut) {
            f(c);
        }
    }
}

fn mounts(spec: &Value) -> impl Iterator<Item = &Value> {
    containers(spec, &CONTAINER_LISTS).flat_map(|c| list(c.get("volumeMounts")))
}

/// `podLevelResourcesInUse`: pod-level requests or limits.
fn pod_level_resources_in_use(spec: &Value) -> bool {
    let resources = spec.get("resources");
    ["requests", "limits"].iter().any(|k| {
        resources
            .and_then(|r| r.get(k))
            .and_then(Value::as_map)
            .is_some_and(|m| !m.is_empty())
    })
}

fn proc_mount(c: &Value) -> Option<&Value> {
    c.get("securityContext")
        .and_then(|sc| sc.get("procMount"))
        .filter(|p| !p.is_null())
}

/// `procMountInUse`: a container with a proc mount other than `Default`.
fn proc_mount_in_use(spec: &Value) -> bool {
    containers(spec, &CONTAINER_LISTS)
        .filter_map(proc_mount)
        .any(|p| p.as_str() != Some("Default"))
}

/// `dropDisabledProcMountField`: a given proc mount becomes `Default` (not nil, which would
/// differ from what 1.12 stored).
fn default_proc_mounts(spec: &mut Map) {
    for_each_container(spec, |c| {
        if let Some(Value::Map(sc)) = c.get_mut("securityContext") {
            if sc.get("procMount").is_some_and(|p| !p.is_null()) {
                sc.insert("procMount".into(), Value::from("Default"));
            }
        }
    });
}

const AFFINITIES: [&str; 2] = ["podAffinity", "podAntiAffinity"];

/// The pod (anti-)affinity terms, required and preferred.
fn pod_affinity_terms(spec: &Value) -> impl Iterator<Item = &Value> {
    let affinity = spec.get("affinity");
    AFFINITIES
        .iter()
        .filter_map(move |k| affinity.and_then(|a| a.get(k)))
        .flat_map(|a| {
            let required = list(a.get("requiredDuringSchedulingIgnoredDuringExecution")).iter();
            let preferred = list(a.get("preferredDuringSchedulingIgnoredDuringExecution"))
                .iter()
                .filter_map(|w| w.get("podAffinityTerm"));
            required.chain(preferred)
        })
}

fn no_label_keys(term: &Value) -> bool {
    ["matchLabelKeys", "mismatchLabelKeys"]
        .iter()
        .all(|k| list(term.get(k)).is_empty())
}

fn drop_affinity_label_keys(spec: &mut Map) {
    let Some(Value::Map(affinity)) = spec.get_mut("affinity") else {
        return;
    };
    let strip = |term: &mut Map| {
        term.shift_remove("matchLabelKeys");
        term.shift_remove("mismatchLabelKeys");
    };
    for key in AFFINITIES {
        let Some(Value::Map(a)) = affinity.get_mut(key) else {
            continue;
        };
        for term in list_mut(a, "requiredDuringSchedulingIgnoredDuringExecution")
            .filter_map(Value::as_map_mut)
        {
            strip(term);
        }
        for weighted in list_mut(a, "preferredDuringSchedulingIgnoredDuringExecution")
            .filter_map(Value::as_map_mut)
        {
            if let Some(Value::Map(term)) = weighted.get_mut("podAffinityTerm") {
                strip(term);
            }
        }
    }
}

/// `dropDisabledDynamicResourceAllocationFields`: the containers' claim requests and the pod's
/// claims.
fn drop_resource_claims(spec: &mut Map) {
    for_each_container(spec, |c| {
        if let Some(Value::Map(resources)) = c.get_mut("resources") {
            resources.shift_remove("claims");
        }
    });
    spec.shift_remove("resourceClaims");
}

fn projection_sources(spec: &Value) -> impl Iterator<Item = &Value> {
    list(spec.get("volumes"))
        .iter()
        .filter_map(|v| v.get("projected"))
        .flat_map(|p| list(p.get("sources")))
}

fn projection_in_use(spec: &Value, source: &str) -> bool {
    projection_sources(spec).any(|s| is_set(s.get(source)))
}

/// The source goes; the projection keeps its (now empty) place in the list.
fn drop_projection(spec: &mut Map, source: &str) {
    for volume in list_mut(spec, "volumes").filter_map(Value::as_map_mut) {
        let Some(Value::Map(projected)) = volume.get_mut("projected") else {
            continue;
        };
        for s in list_mut(projected, "sources").filter_map(Value::as_map_mut) {
            s.shift_remove(source);
        }
    }
}

/// `containerRestartRulesInUse`: an init container restart policy other than `Always`, init
/// container rules, or a regular container's restart policy.
fn container_restart_rules_in_use(spec: &Value) -> bool {
    let init = list(spec.get("initContainers")).iter().any(|c| {
        c.get("restartPolicy")
            .is_some_and(|p| !p.is_null() && p.as_str() != Some("Always"))
            || !list(c.get("restartPolicyRules")).is_empty()
    });
    init || list(spec.get("containers"))
        .iter()
        .any(|c| is_set(c.get("restartPolicy")))
}

/// `dropContainerRestartRules`: init containers keep only an `Always` restart policy; other
/// containers lose theirs; no container keeps rules.
fn drop_container_restart_rules(spec: &mut Map) {
    for key in CONTAINER_LISTS {
        for c in list_mut(spec, key).filter_map(Value::as_map_mut) {
            let sidecar = c.get("restartPolicy").and_then(Value::as_str) == Some("Always");
            if key != "initContainers" || !sidecar {
                c.shift_remove("restartPolicy");
            }
            c.shift_remove("restartPolicyRules");
        }
    }
}

/// `podFileKeyRefInUse`: an env var of any container reads a file.
pub fn has_file_key_ref(spec: &Value) -> bool {
    containers(spec, &CONTAINER_LISTS)
        .flat_map(|c| list(c.get("env")))
        .any(|e| {
            e.get("valueFrom")
                .is_some_and(|f| is_set(f.get("fileKeyRef")))
        })
}

fn is_image_volume(v: &Value) -> bool {
    is_set(v.get("image"))
}

/// `dropImageVolumes`: the image volumes go, then the mounts naming them in every container.
fn drop_image_volumes(spec: &mut Map) {
    let names: Vec<String> = list(spec.get("volumes"))
        .iter()
        .filter(|v| is_image_volume(v))
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    if names.is_empty() {
        return;
    }
    if let Some(Value::List(volumes)) = spec.get_mut("volumes") {
        volumes.retain(|v| !is_image_volume(v));
    }
    for_each_container(spec, |c| {
        if let Some(Value::List(mounts)) = c.get_mut("volumeMounts") {
            mounts.retain(|m| {
                let name = m.get("name").and_then(Value::as_str).unwrap_or("");
                !names.iter().any(|n| n == name)
            });
        }
    });
}

/// `dropContainerStopSignals`: the signal goes, and the lifecycle with it once nothing else
/// is left in it.
fn drop_stop_signals(spec: &mut Map) {
    for_each_container(spec, |c| {
        let Some(Value::Map(lifecycle)) = c.get_mut("lifecycle") else {
            return;
        };
        if !is_set(lifecycle.get("stopSignal")) {
            return;
        }
        lifecycle.shift_remove("stopSignal");
        let empty = ["postStart", "preStop"]
            .iter()
            .all(|k| !is_set(lifecycle.get(k)));
        if empty {
            c.shift_remove("lifecycle");
        }
    });
}

#[cfg(test)]
#[path = "pod_gates_tests.rs"]
mod tests;
