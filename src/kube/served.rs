//! Which API versions of each built-in resource a Kubernetes API server serves by default, as
//! data: one row per group, version and kind with the releases that introduced and removed it.
//! Alpha versions are never on by default; beta versions introduced after 1.24 are off by
//! default (KEP-3136), earlier betas were on until their removal.

use super::object::GroupVersionKind;

/// A Kubernetes 1.x release, by its minor number (`Minor(36)` is 1.36).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Minor(pub u16);

/// The release the reference vectors were produced by.
pub const DEFAULT_RELEASE: Minor = Minor(36);

impl Minor {
    /// The release of an embedded Kubernetes version.
    pub fn of(version: super::KubeVersion) -> Minor {
        Minor(u16::from(version.minor()))
    }
}

/// Whether objects of a resource live in a namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Namespaced,
    Cluster,
}

/// How a version is enabled on a server started with default flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enablement {
    /// Served by default (GA versions, and betas introduced up to 1.24).
    Default,
    /// Only with `--runtime-config` (alphas, and betas introduced after 1.24).
    OptIn,
}

/// One version of one built-in resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServedVersion {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub scope: Scope,
    /// The first release serving it.
    pub introduced: Minor,
    /// The first release no longer serving it.
    pub removed: Option<Minor>,
    pub enablement: Enablement,
}

impl ServedVersion {
    /// Whether a server of `release` started with default flags serves this version.
    pub fn served_by_default(&self, release: Minor) -> bool {
        self.enablement == Enablement::Default
            && self.introduced <= release
            && self.removed.is_none_or(|r| release < r)
    }

    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

use Enablement::{Default as On, OptIn as Off};
use Scope::{Cluster as C, Namespaced as N};

const fn row(
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    scope: Scope,
    introduced: u16,
    removed: Option<u16>,
    enablement: Enablement,
) -> ServedVersion {
    ServedVersion {
        group,
        version,
        kind,
        scope,
        introduced: Minor(introduced),
        removed: match removed {
            Some(r) => Some(Minor(r)),
            None => None,
        },
        enablement,
    }
}

/// Sources: each group's `install`/`register.go` and the deprecation guide
/// (kubernetes.io/docs/reference/using-api/deprecation-guide), the storage providers of
/// `pkg/registry/*/rest/storage_*.go` for which versions are enabled by default
/// (`DefaultAPIResourceConfigSource` in `pkg/controlplane/apiserver/options`), and the 1.36
/// OpenAPI document for what 1.36 publishes.
#[rustfmt::skip]
pub const SERVED: &[ServedVersion] = &[
    // core
    row("", "v1", "Binding", N, 0, None, On),
    row("", "v1", "ComponentStatus", C, 0, None, On),
    row("", "v1", "ConfigMap", N, 2, None, On),
    row("", "v1", "Endpoints", N, 0, None, On),
    row("", "v1", "Event", N, 0, None, On),
    row("", "v1", "LimitRange", N, 0, None, On),
    row("", "v1", "Namespace", C, 0, None, On),
    row("", "v1", "Node", C, 0, None, On),
    row("", "v1", "PersistentVolume", C, 0, None, On),
    row("", "v1", "PersistentVolumeClaim", N, 0, None, On),
    row("", "v1", "Pod", N, 0, None, On),
    row("", "v1", "PodTemplate", N, 0, None, On),
    row("", "v1", "ReplicationController", N, 0, None, On),
    row("", "v1", "ResourceQuota", N, 0, None, On),
    row("", "v1", "Secret", N, 0, None, On),
    row("", "v1", "Service", N, 0, None, On),
    row("", "v1", "ServiceAccount", N, 0, None, On),
    // admissionregistration.k8s.io
    row("admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration", C, 16, None, On),
    row("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration", C, 16, None, On),
    row("admissionregistration.k8s.io", "v1beta1", "MutatingWebhookConfiguration", C, 9, Some(22), On),
    row("admissionregistration.k8s.io", "v1beta1", "ValidatingWebhookConfiguration", C, 9, Some(22), On),
    row("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy", C, 30, None, On),
    row("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding", C, 30, None, On),
    row("admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicy", C, 28, Some(36), Off),
    row("admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicyBinding", C, 28, Some(36), Off),
    row("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicy", C, 26, Some(32), Off),
    row("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicyBinding", C, 26, Some(32), Off),
    row("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy", C, 36, None, On),
    row("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding", C, 36, None, On),
    row("admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicy", C, 34, None, Off),
    row("admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicyBinding", C, 34, None, Off),
    row("admissionregistration.k8s.io", "v1alpha1", "MutatingAdmissionPolicy", C, 32, None, Off),
    row("admissionregistration.k8s.io", "v1alpha1", "MutatingAdmissionPolicyBinding", C, 32, None, Off),
    // apiextensions.k8s.io, apiregistration.k8s.io
    row("apiextensions.k8s.io", "v1", "CustomResourceDefinition", C, 16, None, On),
    row("apiextensions.k8s.io", "v1beta1", "CustomResourceDefinition", C, 7, Some(22), On),
    row("apiregistration.k8s.io", "v1", "APIService", C, 10, None, On),
    row("apiregistration.k8s.io", "v1beta1", "APIService", C, 7, Some(22), On),
    // apps (and the workload kinds extensions/v1beta1 served until 1.16)
    row("apps", "v1", "ControllerRevision", N, 9, None, On),
    row("apps", "v1", "DaemonSet", N, 9, None, On),
    row("apps", "v1", "Deployment", N, 9, None, On),
    row("apps", "v1", "ReplicaSet", N, 9, None, On),
    row("apps", "v1", "StatefulSet", N, 9, None, On),
    row("apps", "v1beta1", "ControllerRevision", N, 7, Some(16), On),
    row("apps", "v1beta1", "Deployment", N, 6, Some(16), On),
    row("apps", "v1beta1", "StatefulSet", N, 5, Some(16), On),
    row("apps", "v1beta2", "ControllerRevision", N, 8, Some(16), On),
    row("apps", "v1beta2", "DaemonSet", N, 8, Some(16), On),
    row("apps", "v1beta2", "Deployment", N, 8, Some(16), On),
    row("apps", "v1beta2", "ReplicaSet", N, 8, Some(16), On),
    row("apps", "v1beta2", "StatefulSet", N, 8, Some(16), On),
    row("extensions", "v1beta1", "DaemonSet", N, 2, Some(16), On),
    row("extensions", "v1beta1", "Deployment", N, 2, Some(16), On),
    row("extensions", "v1beta1", "ReplicaSet", N, 2, Some(16), On),
    row("extensions", "v1beta1", "NetworkPolicy", N, 3, Some(16), On),
    row("extensions", "v1beta1", "PodSecurityPolicy", C, 3, Some(16), On),
    row("extensions", "v1beta1", "Ingress", N, 1, Some(22), On),
    // authentication.k8s.io, authorization.k8s.io (create-only reviews)
    row("authentication.k8s.io", "v1", "TokenReview", C, 6, None, On),
    row("authentication.k8s.io", "v1", "SelfSubjectReview", C, 28, None, On),
    row("authorization.k8s.io", "v1", "LocalSubjectAccessReview", N, 6, None, On),
    row("authorization.k8s.io", "v1", "SelfSubjectAccessReview", C, 6, None, On),
    row("authorization.k8s.io", "v1", "SelfSubjectRulesReview", C, 8, None, On),
    row("authorization.k8s.io", "v1", "SubjectAccessReview", C, 6, None, On),
    // autoscaling
    row("autoscaling", "v1", "HorizontalPodAutoscaler", N, 2, None, On),
    row("autoscaling", "v2", "HorizontalPodAutoscaler", N, 23, None, On),
    row("autoscaling", "v2beta1", "HorizontalPodAutoscaler", N, 8, Some(25), On),
    row("autoscaling", "v2beta2", "HorizontalPodAutoscaler", N, 12, Some(26), On),
    // batch
    row("batch", "v1", "Job", N, 2, None, On),
    row("batch", "v1", "CronJob", N, 21, None, On),
    row("batch", "v1beta1", "CronJob", N, 8, Some(25), On),
    // certificates.k8s.io
    row("certificates.k8s.io", "v1", "CertificateSigningRequest", C, 19, None, On),
    row("certificates.k8s.io", "v1beta1", "CertificateSigningRequest", C, 4, Some(22), On),
    row("certificates.k8s.io", "v1alpha1", "ClusterTrustBundle", C, 27, Some(37), Off),
    row("certificates.k8s.io", "v1beta1", "ClusterTrustBundle", C, 33, None, Off),
    row("certificates.k8s.io", "v1alpha1", "PodCertificateRequest", N, 34, Some(35), Off),
    row("certificates.k8s.io", "v1beta1", "PodCertificateRequest", N, 35, None, Off),
    // coordination.k8s.io
    row("coordination.k8s.io", "v1", "Lease", N, 14, None, On),
    row("coordination.k8s.io", "v1beta1", "Lease", N, 12, Some(22), On),
    row("coordination.k8s.io", "v1alpha2", "LeaseCandidate", N, 32, None, Off),
    row("coordination.k8s.io", "v1beta1", "LeaseCandidate", N, 33, None, Off),
    // discovery.k8s.io
    row("discovery.k8s.io", "v1", "EndpointSlice", N, 21, None, On),
    row("discovery.k8s.io", "v1beta1", "EndpointSlice", N, 17, Some(25), On),
    // events.k8s.io (the same stored resource as core/v1 Event, see [`SAME_RESOURCE`])
    row("events.k8s.io", "v1", "Event", N, 19, None, On),
    row("events.k8s.io", "v1beta1", "Event", N, 8, Some(25), On),
    // flowcontrol.apiserver.k8s.io (v1beta3 replaced an enabled beta, so it was enabled too)
    row("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", C, 29, None, On),
    row("flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration", C, 29, None, On),
    row("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema", C, 26, Some(32), On),
    row("flowcontrol.apiserver.k8s.io", "v1beta3", "PriorityLevelConfiguration", C, 26, Some(32), On),
    row("flowcontrol.apiserver.k8s.io", "v1beta2", "FlowSchema", C, 23, Some(29), On),
    row("flowcontrol.apiserver.k8s.io", "v1beta2", "PriorityLevelConfiguration", C, 23, Some(29), On),
    row("flowcontrol.apiserver.k8s.io", "v1beta1", "FlowSchema", C, 20, Some(26), On),
    row("flowcontrol.apiserver.k8s.io", "v1beta1", "PriorityLevelConfiguration", C, 20, Some(26), On),
    row("internal.apiserver.k8s.io", "v1alpha1", "StorageVersion", C, 20, None, Off),
    // networking.k8s.io
    row("networking.k8s.io", "v1", "NetworkPolicy", N, 7, None, On),
    row("networking.k8s.io", "v1", "Ingress", N, 19, None, On),
    row("networking.k8s.io", "v1", "IngressClass", C, 19, None, On),
    row("networking.k8s.io", "v1", "IPAddress", C, 33, None, On),
    row("networking.k8s.io", "v1", "ServiceCIDR", C, 33, None, On),
    row("networking.k8s.io", "v1beta1", "Ingress", N, 14, Some(22), On),
    row("networking.k8s.io", "v1beta1", "IngressClass", C, 18, Some(22), On),
    row("networking.k8s.io", "v1beta1", "IPAddress", C, 31, Some(37), Off),
    row("networking.k8s.io", "v1beta1", "ServiceCIDR", C, 31, Some(37), Off),
    // node.k8s.io
    row("node.k8s.io", "v1", "RuntimeClass", C, 20, None, On),
    row("node.k8s.io", "v1beta1", "RuntimeClass", C, 14, Some(25), On),
    // policy
    row("policy", "v1", "PodDisruptionBudget", N, 21, None, On),
    row("policy", "v1beta1", "PodDisruptionBudget", N, 5, Some(25), On),
    row("policy", "v1beta1", "PodSecurityPolicy", C, 10, Some(25), On),
    // rbac.authorization.k8s.io
    row("rbac.authorization.k8s.io", "v1", "ClusterRole", C, 8, None, On),
    row("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", C, 8, None, On),
    row("rbac.authorization.k8s.io", "v1", "Role", N, 8, None, On),
    row("rbac.authorization.k8s.io", "v1", "RoleBinding", N, 8, None, On),
    row("rbac.authorization.k8s.io", "v1beta1", "ClusterRole", C, 6, Some(22), On),
    row("rbac.authorization.k8s.io", "v1beta1", "ClusterRoleBinding", C, 6, Some(22), On),
    row("rbac.authorization.k8s.io", "v1beta1", "Role", N, 6, Some(22), On),
    row("rbac.authorization.k8s.io", "v1beta1", "RoleBinding", N, 6, Some(22), On),
    // resource.k8s.io (dynamic resource allocation)
    row("resource.k8s.io", "v1", "DeviceClass", C, 34, None, On),
    row("resource.k8s.io", "v1", "ResourceClaim", N, 34, None, On),
    row("resource.k8s.io", "v1", "ResourceClaimTemplate", N, 34, None, On),
    row("resource.k8s.io", "v1", "ResourceSlice", C, 34, None, On),
    row("resource.k8s.io", "v1beta1", "DeviceClass", C, 32, None, Off),
    row("resource.k8s.io", "v1beta1", "ResourceClaim", N, 32, None, Off),
    row("resource.k8s.io", "v1beta1", "ResourceClaimTemplate", N, 32, None, Off),
    row("resource.k8s.io", "v1beta1", "ResourceSlice", C, 32, None, Off),
    row("resource.k8s.io", "v1beta2", "DeviceClass", C, 33, None, Off),
    row("resource.k8s.io", "v1beta2", "ResourceClaim", N, 33, None, Off),
    row("resource.k8s.io", "v1beta2", "ResourceClaimTemplate", N, 33, None, Off),
    row("resource.k8s.io", "v1beta2", "ResourceSlice", C, 33, None, Off),
    row("resource.k8s.io", "v1beta2", "DeviceTaintRule", C, 36, None, Off),
    row("resource.k8s.io", "v1alpha3", "DeviceTaintRule", C, 33, None, Off),
    row("resource.k8s.io", "v1alpha3", "ResourcePoolStatusRequest", C, 36, None, Off),
    // scheduling.k8s.io
    row("scheduling.k8s.io", "v1", "PriorityClass", C, 14, None, On),
    row("scheduling.k8s.io", "v1beta1", "PriorityClass", C, 11, Some(22), On),
    row("scheduling.k8s.io", "v1alpha2", "PodGroup", N, 36, Some(37), Off),
    row("scheduling.k8s.io", "v1alpha2", "Workload", N, 36, Some(37), Off),
    // storage.k8s.io
    row("storage.k8s.io", "v1", "StorageClass", C, 6, None, On),
    row("storage.k8s.io", "v1", "VolumeAttachment", C, 13, None, On),
    row("storage.k8s.io", "v1", "CSINode", C, 17, None, On),
    row("storage.k8s.io", "v1", "CSIDriver", C, 18, None, On),
    row("storage.k8s.io", "v1", "CSIStorageCapacity", N, 24, None, On),
    row("storage.k8s.io", "v1", "VolumeAttributesClass", C, 34, None, On),
    row("storage.k8s.io", "v1beta1", "StorageClass", C, 6, Some(22), On),
    row("storage.k8s.io", "v1beta1", "VolumeAttachment", C, 10, Some(22), On),
    row("storage.k8s.io", "v1beta1", "CSINode", C, 14, Some(22), On),
    row("storage.k8s.io", "v1beta1", "CSIDriver", C, 14, Some(22), On),
    row("storage.k8s.io", "v1beta1", "CSIStorageCapacity", N, 21, Some(27), On),
    row("storage.k8s.io", "v1beta1", "VolumeAttributesClass", C, 31, Some(37), Off),
    row("storagemigration.k8s.io", "v1beta1", "StorageVersionMigration", C, 35, None, Off),
    // Versions the embedded 1.30–1.37 definitions publish outside 1.36: introduced and removed
    // as those releases publish them (30: 1.30 or earlier); alpha and post-1.24 beta are off.
    row("authentication.k8s.io", "v1alpha1", "SelfSubjectReview", C, 26, Some(32), Off),
    row("authentication.k8s.io", "v1beta1", "SelfSubjectReview", C, 27, Some(33), Off),
    row("certificates.k8s.io", "v1", "ClusterTrustBundle", C, 37, None, On),
    row("certificates.k8s.io", "v1", "PodCertificateRequest", N, 37, None, On),
    row("coordination.k8s.io", "v1alpha1", "LeaseCandidate", N, 31, Some(32), Off),
    row("lifecycle.k8s.io", "v1alpha1", "Eviction", N, 37, None, Off),
    row("lifecycle.k8s.io", "v1alpha1", "EvictionRequest", N, 37, None, Off),
    row("networking.k8s.io", "v1alpha1", "IPAddress", C, 27, Some(31), Off),
    row("networking.k8s.io", "v1alpha1", "ServiceCIDR", C, 27, Some(31), Off),
    row("resource.k8s.io", "v1", "DeviceTaintRule", C, 37, None, On),
    row("resource.k8s.io", "v1alpha2", "PodSchedulingContext", N, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceClaim", N, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceClaimParameters", N, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceClaimTemplate", N, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceClass", C, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceClassParameters", N, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha2", "ResourceSlice", C, 30, Some(31), Off),
    row("resource.k8s.io", "v1alpha3", "DeviceClass", C, 31, Some(34), Off),
    row("resource.k8s.io", "v1alpha3", "PodSchedulingContext", N, 31, Some(32), Off),
    row("resource.k8s.io", "v1alpha3", "ResourceClaim", N, 31, Some(34), Off),
    row("resource.k8s.io", "v1alpha3", "ResourceClaimTemplate", N, 31, Some(34), Off),
    row("resource.k8s.io", "v1alpha3", "ResourceSlice", C, 31, Some(34), Off),
    row("scheduling.k8s.io", "v1alpha1", "Workload", N, 35, Some(36), Off),
    row("scheduling.k8s.io", "v1alpha3", "CompositePodGroup", N, 37, None, Off),
    row("scheduling.k8s.io", "v1alpha3", "PodGroup", N, 37, None, Off),
    row("scheduling.k8s.io", "v1alpha3", "Workload", N, 37, None, Off),
    row("scheduling.k8s.io", "v1beta1", "PodGroup", N, 37, None, Off),
    row("scheduling.k8s.io", "v1beta1", "Workload", N, 37, None, Off),
    row("storage.k8s.io", "v1alpha1", "VolumeAttributesClass", C, 29, Some(35), Off),
    row("storagemigration.k8s.io", "v1", "StorageVersionMigration", C, 37, None, On),
    row("storagemigration.k8s.io", "v1alpha1", "StorageVersionMigration", C, 30, Some(35), Off),
];

/// A (group, kind) pair.
type GroupKind = (&'static str, &'static str);

/// Pairs of (group, kind) that are one stored resource served under two groups: every version
/// of one is a version of the other (`events.k8s.io` registers `core.Event` as its internal
/// type, pkg/apis/events/register.go).
pub const SAME_RESOURCE: &[(GroupKind, GroupKind)] = &[(("", "Event"), ("events.k8s.io", "Event"))];

/// Whether `(group, kind)` and `(other_group, other_kind)` name one stored resource.
pub fn same_resource(a: (&str, &str), b: (&str, &str)) -> bool {
    a == b
        || SAME_RESOURCE
            .iter()
            .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
}

/// The (group, kind) a resource is stored under: the first of its [`SAME_RESOURCE`] pair, so
/// an `events.k8s.io` Event names the same object as a core Event.
pub fn stored_group_kind<'a>(group: &'a str, kind: &'a str) -> (&'a str, &'a str) {
    SAME_RESOURCE
        .iter()
        .find(|(_, other)| *other == (group, kind))
        .map_or((group, kind), |(first, _)| *first)
}

/// The row for one group, version and kind, served or not.
pub fn row_of(gvk: &GroupVersionKind) -> Option<&'static ServedVersion> {
    SERVED
        .iter()
        .find(|r| r.group == gvk.group && r.version == gvk.version && r.kind == gvk.kind)
}

/// Whether the group belongs to Kubernetes itself (so unknown kinds in it are errors).
pub fn is_builtin_group(group: &str) -> bool {
    SERVED.iter().any(|r| r.group == group)
}

/// Every version of the resource `gvk` names that `release` serves by default, in table order.
pub fn served_versions(gvk: &GroupVersionKind, release: Minor) -> Vec<&'static ServedVersion> {
    // The resource's (group, kind) pairs, found once rather than per row of the table.
    let own = (gvk.group.as_str(), gvk.kind.as_str());
    let mut same = vec![own];
    same.extend(SAME_RESOURCE.iter().filter_map(|&(x, y)| {
        if x == own {
            Some(y)
        } else if y == own {
            Some(x)
        } else {
            None
        }
    }));
    let by_resource = rows_by_resource();
    let mut rows: Vec<usize> = same
        .iter()
        .filter_map(|gk| by_resource.get(gk))
        .flatten()
        .copied()
        .collect();
    if same.len() > 1 {
        rows.sort_unstable();
    }
    rows.into_iter()
        .map(|i| &SERVED[i])
        .filter(|r| r.served_by_default(release))
        .collect()
}

/// The rows of [`SERVED`] per (group, kind), in table order: every object's pairing and
/// conversion looks its resource up, and scanning the table compared two strings per row.
fn rows_by_resource() -> &'static rustc_hash::FxHashMap<GroupKind, Vec<usize>> {
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<GroupKind, Vec<usize>>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = rustc_hash::FxHashMap::<GroupKind, Vec<usize>>::default();
        for (i, r) in SERVED.iter().enumerate() {
            index.entry((r.group, r.kind)).or_default().push(i);
        }
        index
    })
}

/// Why a built-in group, version and kind is not served: kubectl's RESTMapper error
/// (`meta.NoKindMatchError`, k8s.io/apimachinery/pkg/api/meta/errors.go).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no matches for kind {kind:?} in version {api_version:?}")]
pub struct NoKindMatch {
    pub kind: String,
    pub api_version: String,
}

/// An `apiVersion` with more than one `/`, which `schema.ParseGroupVersion` rejects; kubectl's
/// decoder then finds no kind and says `Object 'Kind' is missing`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unexpected GroupVersion string: {0} (kubectl: Object 'Kind' is missing)")]
pub struct BadGroupVersion(pub String);

/// Checks an `apiVersion` as k8s.io/apimachinery's `schema.ParseGroupVersion` does.
pub fn check_api_version(api_version: &str) -> Result<(), BadGroupVersion> {
    if api_version.matches('/').count() > 1 {
        return Err(BadGroupVersion(api_version.to_string()));
    }
    Ok(())
}

/// Checks that a server of `release` serves `gvk` by default; groups Kubernetes does not own
/// are not checked here (custom resources, aggregated APIs).
pub fn check_served(gvk: &GroupVersionKind, release: Minor) -> Result<(), NoKindMatch> {
    if !is_builtin_group(&gvk.group) {
        return Ok(());
    }
    match row_of(gvk) {
        Some(r) if r.served_by_default(release) => Ok(()),
        _ => Err(NoKindMatch {
            kind: gvk.kind.clone(),
            api_version: gvk.api_version(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gvk(api_version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind::new(api_version, kind)
    }

    #[test]
    fn hpa_is_served_at_v1_and_v2_in_1_36() {
        let versions: Vec<String> = served_versions(
            &gvk("autoscaling/v2", "HorizontalPodAutoscaler"),
            DEFAULT_RELEASE,
        )
        .iter()
        .map(|r| r.api_version())
        .collect();
        assert_eq!(versions, ["autoscaling/v1", "autoscaling/v2"]);
        let in_1_24: Vec<String> =
            served_versions(&gvk("autoscaling/v1", "HorizontalPodAutoscaler"), Minor(24))
                .iter()
                .map(|r| r.api_version())
                .collect();
        assert_eq!(
            in_1_24,
            [
                "autoscaling/v1",
                "autoscaling/v2",
                "autoscaling/v2beta1",
                "autoscaling/v2beta2"
            ]
        );
    }

    #[test]
    fn core_and_events_group_events_are_one_resource() {
        let versions: Vec<String> = served_versions(&gvk("v1", "Event"), DEFAULT_RELEASE)
            .iter()
            .map(|r| r.api_version())
            .collect();
        assert_eq!(versions, ["v1", "events.k8s.io/v1"]);
    }

    #[test]
    fn unknown_kinds_and_versions_of_builtin_groups_are_no_matches() {
        let err = check_served(&gvk("v1", "ConfigMapp"), DEFAULT_RELEASE).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"no matches for kind "ConfigMapp" in version "v1""#
        );
        let err = check_served(&gvk("apps/v1beta1", "Deployment"), DEFAULT_RELEASE).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"no matches for kind "Deployment" in version "apps/v1beta1""#
        );
        assert!(check_served(
            &gvk("resource.k8s.io/v1beta1", "ResourceClaim"),
            DEFAULT_RELEASE
        )
        .is_err());
        assert!(check_served(&gvk("apps/v1", "Deployment"), DEFAULT_RELEASE).is_ok());
        assert!(check_served(&gvk("example.com/v1", "Widget"), DEFAULT_RELEASE).is_ok());
    }

    /// For every embedded Kubernetes version, the rows of that release agree with its embedded
    /// schemas: each row it serves names a kind the release publishes, with the same scope; and
    /// every resource the release publishes has a row.
    #[test]
    fn the_table_agrees_with_every_embedded_release() {
        let mut problems = Vec::new();
        for version in crate::kube::KubeVersion::all() {
            let release = Minor::of(version);
            let b = crate::schema::builtin::builtin_for(version);
            for r in SERVED
                .iter()
                .filter(|r| r.introduced <= release && r.removed.is_none_or(|m| release < m))
            {
                match b.kind(r.group, r.version, r.kind) {
                    // The published definitions may leave out a version that is off by default
                    // (1.34 and 1.35 omit admissionregistration.k8s.io/v1beta1).
                    None if r.enablement == Enablement::OptIn => {}
                    None => problems.push(format!(
                        "{version}: {} {} not in the schemas",
                        r.api_version(),
                        r.kind
                    )),
                    Some(info) if info.namespaced != (r.scope == Scope::Namespaced) => {
                        problems.push(format!("{version}: {} {} scope", r.api_version(), r.kind))
                    }
                    Some(_) => {}
                }
            }
            for k in b.kinds().filter(|k| k.plural.is_some()) {
                let g = gvk(
                    &GroupVersionKind {
                        group: k.group.clone(),
                        version: k.version.clone(),
                        kind: String::new(),
                    }
                    .api_version(),
                    &k.kind,
                );
                let served_here = row_of(&g).is_some_and(|r| {
                    r.introduced <= release && r.removed.is_none_or(|m| release < m)
                });
                if !served_here {
                    problems.push(format!("{version}: no row serving {g}"));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
