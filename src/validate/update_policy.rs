//! Which resources refuse an update (PUT) without a resourceVersion: their registry strategy's
//! `AllowUnconditionalUpdate` is false, and the generic store then answers `metadata.
//! resourceVersion: Invalid value: 0: must be specified for an update` (k8s.io/apiserver
//! registry/generic/registry/store.go `Update`) instead of overwriting the stored object.
//!
//! Read in each resource's `strategy.go` under kubernetes `pkg/registry` (status strategies
//! embed the main one), kube-aggregator `pkg/registry/apiservice/strategy.go` and
//! apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go` and
//! `customresource/strategy.go` (custom resources: never). Every other built-in resource
//! allows it.

use crate::kube::{KubeVersion, VersionRange};

/// One resource whose strategy refuses unconditional updates, in the releases of `versions`,
/// for requests at `api_version` (`None`: every API version of the resource).
struct Conditional {
    group: &'static str,
    plural: &'static str,
    versions: VersionRange,
    api_version: Option<&'static str>,
}

const fn always(group: &'static str, plural: &'static str) -> Conditional {
    Conditional {
        group,
        plural,
        versions: VersionRange::ALWAYS,
        api_version: None,
    }
}

const CONDITIONAL_ONLY: &[Conditional] = &[
    always(
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
    ),
    always(
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
    ),
    always(
        "admissionregistration.k8s.io",
        "validatingadmissionpolicies",
    ),
    always(
        "admissionregistration.k8s.io",
        "validatingadmissionpolicybindings",
    ),
    always("admissionregistration.k8s.io", "mutatingadmissionpolicies"),
    always(
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicybindings",
    ),
    always("apiextensions.k8s.io", "customresourcedefinitions"),
    always("apiregistration.k8s.io", "apiservices"),
    always("internal.apiserver.k8s.io", "storageversions"),
    always("certificates.k8s.io", "clustertrustbundles"),
    always("certificates.k8s.io", "podcertificaterequests"),
    always("coordination.k8s.io", "leases"),
    always("coordination.k8s.io", "leasecandidates"),
    always("node.k8s.io", "runtimeclasses"),
    always("policy", "poddisruptionbudgets"),
    always("storage.k8s.io", "csidrivers"),
    always("storage.k8s.io", "csinodes"),
    always("storage.k8s.io", "csistoragecapacities"),
    always("storage.k8s.io", "volumeattachments"),
    always("storagemigration.k8s.io", "storageversionmigrations"),
    always("resource.k8s.io", "resourcepoolstatusrequests"),
    // 1.37 made DeviceTaintRule conditional-only for resource.k8s.io/v1 requests; the beta and
    // alpha versions keep the old behaviour (the strategy reads the request's API version).
    Conditional {
        group: "resource.k8s.io",
        plural: "devicetaintrules",
        versions: VersionRange::since(37),
        api_version: Some("v1"),
    },
];

/// Whether a PUT of `group`/`plural` at `api_version` may leave out the resourceVersion in
/// `version`; custom resources never may.
pub fn allows_unconditional_update(
    group: &str,
    plural: &str,
    api_version: &str,
    custom: bool,
    version: KubeVersion,
) -> bool {
    !custom
        && !CONDITIONAL_ONLY.iter().any(|c| {
            c.group == group
                && c.plural == plural
                && c.versions.contains(version)
                && c.api_version.is_none_or(|v| v == api_version)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The policy of `group`/`plural` at `api_version`, built-in, in Kubernetes 1.`minor`.
    fn allows(group: &str, plural: &str, api_version: &str, minor: u8) -> bool {
        let version = KubeVersion::new(minor).expect("an embedded version");
        allows_unconditional_update(group, plural, api_version, false, version)
    }

    #[test]
    fn workloads_allow_it_leases_and_crds_do_not() {
        assert!(allows("apps", "deployments", "v1", 36));
        assert!(allows("", "configmaps", "v1", 36));
        assert!(!allows("coordination.k8s.io", "leases", "v1", 30));
        assert!(!allows(
            "apiextensions.k8s.io",
            "customresourcedefinitions",
            "v1",
            33
        ));
    }

    #[test]
    fn custom_resources_never_do() {
        assert!(!allows_unconditional_update(
            "example.com",
            "widgets",
            "v1",
            true,
            KubeVersion::NEWEST
        ));
    }

    #[test]
    fn device_taint_rules_changed_in_1_37_for_v1_only() {
        let rule = |api: &str, minor: u8| allows("resource.k8s.io", "devicetaintrules", api, minor);
        assert!(rule("v1", 36));
        assert!(!rule("v1", 37));
        assert!(rule("v1beta2", 37));
    }
}
