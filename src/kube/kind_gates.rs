//! The fields of kinds other than Pods that a registry strategy keeps out of the stored object
//! while their feature gate is off by default (the strategies' `PrepareForCreate` /
//! `PrepareForUpdate` and their `dropDisabled…` helpers in k8s.io/kubernetes pkg/registry, and
//! the CustomResourceDefinition strategy in apiextensions-apiserver). A field is dropped unless
//! the stored object already uses it, and the write is then accepted without it. The gates'
//! defaults per release were read in pkg/features (and the apiserver's and apiextensions'
//! gates as pkg/features overrides them) of 1.30–1.36; for 1.37, whose source could not be
//! read, a gate that was alpha or off in 1.36 is taken as still off. Pod specs have their own
//! table ([`super::pod_gates`]).

use super::{KubeVersion, VersionRange};
use crate::value::Value;

/// When a stored object keeps the field.
#[derive(Clone, Copy, PartialEq)]
enum Kept {
    /// When the stored object uses any of the `in_use` paths.
    WhenStoredUses,
    /// Always on update: the drop is a create's only (the field is immutable).
    OnUpdate,
    /// Never: the drop has no in-use check.
    Never,
}

/// One gated drop. Paths are dotted, `[]` after a name walks the items of that list, `*` the
/// values of a map; they start at `root`.
struct GatedFields {
    api_version: &'static str,
    kind: &'static str,
    /// Where the paths start: `""` for the object, `"spec"` for a template's object.
    root: &'static str,
    /// The subresource whose strategy drops the fields: `""` for the object itself.
    subresource: &'static str,
    /// The releases whose default leaves the gate off.
    off: VersionRange,
    drop: &'static [&'static str],
    in_use: &'static [&'static str],
    kept: Kept,
}

const fn gated(
    api_version: &'static str,
    kind: &'static str,
    off: VersionRange,
    drop: &'static [&'static str],
) -> GatedFields {
    GatedFields {
        api_version,
        kind,
        root: "",
        subresource: "",
        off,
        drop,
        in_use: drop,
        kept: Kept::WhenStoredUses,
    }
}

/// The same drop in a ResourceClaimTemplate, whose `spec.spec` is a claim's `spec`
/// (pkg/api/resourceclaimspec serves both).
const fn in_claim_template(claim: GatedFields) -> GatedFields {
    GatedFields {
        kind: "ResourceClaimTemplate",
        root: "spec",
        ..claim
    }
}

const CLAIM_CAPACITY: &[&str] = &[
    "spec.devices.requests[].exactly.capacity",
    "spec.devices.requests[].firstAvailable[].capacity",
];
const CLAIM_CAPACITY_IN_USE: &[&str] = &[
    "spec.devices.constraints[].distinctAttribute",
    "spec.devices.requests[].exactly.capacity",
    "spec.devices.requests[].firstAvailable[].capacity",
];
const CLAIM_CAPACITY_DROPPED: GatedFields = GatedFields {
    in_use: CLAIM_CAPACITY_IN_USE,
    ..gated(
        "resource.k8s.io/v1",
        "ResourceClaim",
        VersionRange::between(34, 35),
        CLAIM_CAPACITY,
    )
};
const CLAIM_DISTINCT_ATTRIBUTE_DROPPED: GatedFields = GatedFields {
    in_use: CLAIM_CAPACITY_IN_USE,
    ..gated(
        "resource.k8s.io/v1",
        "ResourceClaim",
        VersionRange::between(35, 35),
        &["spec.devices.constraints[].distinctAttribute"],
    )
};
const CLAIM_TOLERATIONS_DROPPED: GatedFields = gated(
    "resource.k8s.io/v1",
    "ResourceClaim",
    VersionRange::between(35, 35),
    &[
        "spec.devices.requests[].exactly.tolerations",
        "spec.devices.requests[].firstAvailable[].tolerations",
    ],
);
const SLICE_PARTITIONS: &[&str] = &[
    "spec.sharedCounters",
    "spec.perDeviceNodeSelection",
    "spec.devices[].consumesCounters",
    "spec.devices[].nodeName",
    "spec.devices[].nodeSelector",
    "spec.devices[].allNodes",
];

const GATED: &[GatedFields] = &[
    // MaxUnavailableStatefulSet (statefulset/strategy.go `dropStatefulSetDisabledFields`):
    // alpha until 1.34, beta and still off in 1.35–1.36.
    gated(
        "apps/v1",
        "StatefulSet",
        VersionRange::ALWAYS,
        &["spec.updateStrategy.rollingUpdate.maxUnavailable"],
    ),
    // JobManagedBy (job/strategy.go `PrepareForCreate`): on from 1.32; the field is immutable.
    GatedFields {
        kept: Kept::OnUpdate,
        ..gated(
            "batch/v1",
            "Job",
            VersionRange::until(31),
            &["spec.managedBy"],
        )
    },
    // JobSuccessPolicy: on from 1.31.
    gated(
        "batch/v1",
        "Job",
        VersionRange::until(30),
        &["spec.successPolicy"],
    ),
    // CoordinatedLeaderElection (lease/strategy.go), each field kept on its own.
    gated(
        "coordination.k8s.io/v1",
        "Lease",
        VersionRange::since(31),
        &["spec.strategy"],
    ),
    gated(
        "coordination.k8s.io/v1",
        "Lease",
        VersionRange::since(31),
        &["spec.preferredHolder"],
    ),
    // PreferSameTrafficDistribution (endpointslice/strategy.go `dropDisabledFieldsOnCreate`/
    // `…OnUpdate`): alpha in 1.33.
    gated(
        "discovery.k8s.io/v1",
        "EndpointSlice",
        VersionRange::between(33, 33),
        &["endpoints[].hints.forNodes"],
    ),
    // HPAConfigurableTolerance (horizontalpodautoscaler/strategy.go `dropDisabledFields`).
    gated(
        "autoscaling/v2",
        "HorizontalPodAutoscaler",
        VersionRange::between(33, 34),
        &[
            "spec.behavior.scaleUp.tolerance",
            "spec.behavior.scaleDown.tolerance",
        ],
    ),
    // MutableCSINodeAllocatableCount, VolumeLimitScaling (csidriver/strategy.go).
    gated(
        "storage.k8s.io/v1",
        "CSIDriver",
        VersionRange::between(33, 34),
        &["spec.nodeAllocatableUpdatePeriodSeconds"],
    ),
    gated(
        "storage.k8s.io/v1",
        "CSIDriver",
        VersionRange::since(36),
        &["spec.preventPodSchedulingIfMissing"],
    ),
    // CustomResourceFieldSelectors (apiextensions customresourcedefinition/strategy.go
    // `dropSelectableFields`): beta and on from 1.31.
    gated(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        VersionRange::until(30),
        &["spec.versions[].selectableFields"],
    ),
    // Node (node/strategy.go `dropDisabledFields`, not gated): dynamic kubelet configuration
    // is gone, a create drops `spec.configSource` and `status.config`, an update keeps a
    // stored source (the status is the stored one anyway).
    gated("v1", "Node", VersionRange::ALWAYS, &["spec.configSource"]),
    GatedFields {
        kept: Kept::OnUpdate,
        ..gated("v1", "Node", VersionRange::ALWAYS, &["status.config"])
    },
    // Node (node/strategy.go `dropDisabledFields`): 1.30 wipes `runtimeHandlers` without
    // looking at the stored Node (RecursiveReadOnlyMounts off); SupplementalGroupsPolicy,
    // NodeDeclaredFeatures.
    GatedFields {
        kept: Kept::Never,
        ..gated(
            "v1",
            "Node",
            VersionRange::until(30),
            &["status.runtimeHandlers"],
        )
    },
    gated(
        "v1",
        "Node",
        VersionRange::between(31, 32),
        &["status.features"],
    ),
    gated(
        "v1",
        "Node",
        VersionRange::between(35, 35),
        &["status.declaredFeatures"],
    ),
    // DRAExtendedResource (deviceclass/strategy.go).
    gated(
        "resource.k8s.io/v1",
        "DeviceClass",
        VersionRange::between(34, 35),
        &["spec.extendedResourceName"],
    ),
    // DRAConsumableCapacity (resourceclaim and resourceclaimtemplate strategy.go in 1.34,
    // pkg/api/resourceclaimspec from 1.35): 1.34 meant to drop `distinctAttribute` too but
    // cleared a copy of each constraint, which 1.35 fixed.
    CLAIM_CAPACITY_DROPPED,
    CLAIM_DISTINCT_ATTRIBUTE_DROPPED,
    in_claim_template(CLAIM_CAPACITY_DROPPED),
    in_claim_template(CLAIM_DISTINCT_ATTRIBUTE_DROPPED),
    // DRADeviceTaints: a claim's tolerations (resourceclaimspec, from 1.35), a slice's taints.
    CLAIM_TOLERATIONS_DROPPED,
    in_claim_template(CLAIM_TOLERATIONS_DROPPED),
    // resourceslice/strategy.go `dropDisabled…Fields`.
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::between(34, 35),
        &["spec.devices[].taints"],
    ),
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::between(34, 35),
        SLICE_PARTITIONS,
    ),
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::between(34, 35),
        &[
            "spec.devices[].bindingConditions",
            "spec.devices[].bindingFailureConditions",
            "spec.devices[].bindsToNode",
        ],
    ),
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::between(34, 35),
        &[
            "spec.devices[].allowMultipleAllocations",
            "spec.devices[].capacity.*.requestPolicy",
        ],
    ),
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::since(36),
        &["spec.devices[].nodeAllocatableResourceMappings"],
    ),
    gated(
        "resource.k8s.io/v1",
        "ResourceSlice",
        VersionRange::since(36),
        &[
            "spec.devices[].attributes.*.bools",
            "spec.devices[].attributes.*.ints",
            "spec.devices[].attributes.*.strings",
            "spec.devices[].attributes.*.versions",
        ],
    ),
    // Status writes (the status strategy's `PrepareForUpdate`).
    // DeploymentReplicaSetTerminatingReplicas (deployment and replicaset
    // strategy.go `dropDisabledStatusFields`).
    GatedFields {
        subresource: "status",
        ..gated(
            "apps/v1",
            "Deployment",
            VersionRange::between(33, 34),
            &["status.terminatingReplicas"],
        )
    },
    GatedFields {
        subresource: "status",
        ..gated(
            "apps/v1",
            "ReplicaSet",
            VersionRange::between(33, 34),
            &["status.terminatingReplicas"],
        )
    },
    // VolumeAttributesClass, RecoverVolumeExpansionFailure (pkg/api/persistentvolumeclaim
    // util.go `DropDisabledFieldsFromStatus`), each field kept on its own.
    GatedFields {
        subresource: "status",
        ..gated(
            "v1",
            "PersistentVolumeClaim",
            VersionRange::until(33),
            &["status.currentVolumeAttributesClassName"],
        )
    },
    GatedFields {
        subresource: "status",
        ..gated(
            "v1",
            "PersistentVolumeClaim",
            VersionRange::until(33),
            &["status.modifyVolumeStatus"],
        )
    },
    GatedFields {
        subresource: "status",
        ..gated(
            "v1",
            "PersistentVolumeClaim",
            VersionRange::until(31),
            &["status.allocatedResources"],
        )
    },
    GatedFields {
        subresource: "status",
        ..gated(
            "v1",
            "PersistentVolumeClaim",
            VersionRange::until(31),
            &["status.allocatedResourceStatuses"],
        )
    },
    // MutableCSINodeAllocatableCount (volumeattachment/strategy.go
    // `volumeAttachmentStatusStrategy.PrepareForUpdate`).
    GatedFields {
        subresource: "status",
        ..gated(
            "storage.k8s.io/v1",
            "VolumeAttachment",
            VersionRange::between(33, 34),
            &[
                "status.attachError.errorCode",
                "status.detachError.errorCode",
            ],
        )
    },
];

/// Drops from `object` the fields its kind's strategy for `subresource` (`""` for the object
/// itself) drops in `version`; `old` is the stored object on update.
pub fn drop_disabled(
    object: &mut Value,
    old: Option<&Value>,
    version: KubeVersion,
    subresource: &str,
) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    let applicable: Vec<&GatedFields> = GATED
        .iter()
        .filter(|g| {
            g.api_version == text("apiVersion")
                && g.kind == text("kind")
                && g.subresource == subresource
                && g.off.contains(version)
        })
        .collect();
    for gated in applicable {
        let kept = match (gated.kept, old) {
            (Kept::Never, _) | (_, None) => false,
            (Kept::OnUpdate, Some(_)) => true,
            (Kept::WhenStoredUses, Some(old)) => gated
                .in_use
                .iter()
                .any(|p| any_at(old, &gated.path(p), is_set)),
        };
        if !kept {
            // Only a path that is there is walked mutably: the object's maps are shared with
            // the write's inputs, and a mutable walk copies them.
            for path in gated.drop {
                let path = gated.path(path);
                if exists(object, &path) {
                    remove(object, &path);
                }
            }
        }
    }
}

impl GatedFields {
    /// The segments of `path`, from the object's top.
    fn path(&self, path: &'static str) -> Vec<Segment<'static>> {
        let mut out = if self.root.is_empty() {
            Vec::new()
        } else {
            segments(self.root)
        };
        out.extend(segments(path));
        out
    }
}

enum Segment<'a> {
    Key(&'a str),
    Items,
    Values,
}

fn segments(path: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        match part {
            "*" => out.push(Segment::Values),
            _ => match part.strip_suffix("[]") {
                Some(key) => out.extend([Segment::Key(key), Segment::Items]),
                None => out.push(Segment::Key(part)),
            },
        }
    }
    out
}

/// Set: not `null`, and not an empty list or map (Go's nil pointer, empty slice or map).
fn is_set(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::List(l) => !l.is_empty(),
        Value::Map(m) => !m.is_empty(),
        _ => true,
    }
}

/// Whether a value at the end of the path passes `leaf`.
fn any_at(v: &Value, segments: &[Segment], leaf: fn(&Value) -> bool) -> bool {
    let Some((first, rest)) = segments.split_first() else {
        return leaf(v);
    };
    match (first, v) {
        (Segment::Key(k), Value::Map(m)) => m.get(k).is_some_and(|c| any_at(c, rest, leaf)),
        (Segment::Items, Value::List(l)) => l.iter().any(|c| any_at(c, rest, leaf)),
        (Segment::Values, Value::Map(m)) => m.iter().any(|(_, c)| any_at(c, rest, leaf)),
        _ => false,
    }
}

/// Whether the field at the end of the path is there (`null` included).
fn exists(v: &Value, segments: &[Segment]) -> bool {
    any_at(v, segments, |_| true)
}

fn remove(v: &mut Value, segments: &[Segment]) {
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    match (first, v) {
        (Segment::Key(k), Value::Map(m)) if rest.is_empty() => {
            m.shift_remove(*k);
        }
        (Segment::Key(k), Value::Map(m)) => {
            if let Some(child) = m.get_mut(k) {
                remove(child, rest);
            }
        }
        (Segment::Items, Value::List(l)) => l.iter_mut().for_each(|c| remove(c, rest)),
        (Segment::Values, Value::Map(m)) => m.values_mut().for_each(|c| remove(c, rest)),
        _ => {}
    }
}

#[cfg(test)]
#[path = "kind_gates_tests.rs"]
mod tests;
