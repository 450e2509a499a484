//! Built-in validation, as the registry strategies' `Validate` and `ValidateUpdate` run it
//! (k8s.io/kubernetes pkg/apis/*/validation, apimachinery pkg/api/validation): object metadata
//! for every kind, then the rules of the built-in kind, in the server's order.
//!
//! Kinds are dispatched by group and kind in [`KIND_RULES`]; which name format each kind's
//! objects must have is [`meta::NAME_RULES`]. docs/validation.md lists what is checked.

mod admission;
mod admission_cel;
mod admission_policy;
mod admission_policy_binding;
mod affinity;
mod api_service;
mod autoscaling;
mod batch;
mod certificates;
mod claim_template;
mod cluster_trust_bundle;
mod conditions;
mod controller_revision;
mod core;
mod crd_ca_bundle;
mod crd_cel;
mod crd_columns;
mod crd_conversion;
mod crd_defaults;
mod crd_definition;
mod crd_field_path;
mod crd_list_types;
mod crd_names;
mod crd_openapi;
mod crd_pattern;
mod crd_root;
mod crd_schema;
mod crd_selectable;
mod crd_update;
mod crd_value_validation;
mod crd_versions;
mod cron;
mod cronjob;
mod device_taint_rule;
mod dns;
mod dra;
mod dra_cel;
mod dra_claim;
mod dra_slice;
mod endpoint_slice;
mod endpoints;
mod env;
mod event;
mod failure_policy;
mod fields;
pub(crate) mod finalizers;
mod flow_schema;
mod flowcontrol_mandatory;
mod host_ports;
mod hpa_metrics;
mod hugepages;
mod image_volume;
mod ip_strict;
mod job_indexes;
mod job_selector;
mod job_template_update;
mod lease;
mod legacy_volumes;
mod limit_range;
mod match_resources;
pub(crate) mod meta;
pub(crate) mod meta_update;
mod mounts;
mod mutating_admission_policy;
mod namespace;
mod netaddr;
mod network_policy;
mod networking;
mod node;
mod node_config_source;
mod owner_refs;
mod pod;
mod pod_annotations;
mod pod_ephemeral;
mod pod_misc;
mod pod_options;
mod pod_os;
mod pod_resources;
mod pod_template;
mod pod_update;
mod policy;
mod priority_class;
mod priority_level;
mod probe;
mod projected;
mod pv;
mod pv_source;
mod pv_update;
mod pvc;
mod pvc_spec;
mod rbac;
mod replication_controller;
mod resource_claims;
mod resource_quota;
mod resources;
mod restart_rules;
mod runtime_class;
pub(crate) mod scale;
mod scheduling;
mod security_context;
mod selector;
mod service;
mod service_cidr;
mod service_ip;
mod service_lb;
mod service_update;
mod stateful_set;
pub(crate) mod status;
mod status_admission;
mod status_apps;
mod status_batch;
mod status_core;
mod status_pod;
mod storage;
mod storage_attachment;
mod storage_capacity;
mod storage_migration;
mod strategy;
mod success_policy;
mod sysctl;
mod toleration;
mod topology_spread;
mod trust_bundle;
mod tz;
mod volume_source;
pub(crate) mod warnings;
mod webhook_client;
mod windows_options;
mod workloads;
mod x509;

use super::{FieldError, Write};
use crate::value::Value;

/// The rules of one built-in kind: `(w, object, errors)`.
type KindCheck = fn(&Write, &Value, &mut Vec<FieldError>);

/// Per (group, kind): the kind's own rules, run after the object metadata's.
const KIND_RULES: &[(&str, &str, KindCheck)] = &[
    ("apps", "Deployment", workloads::deployment),
    ("apps", "ReplicaSet", workloads::replica_set),
    ("apps", "DaemonSet", workloads::daemon_set),
    ("apps", "StatefulSet", stateful_set::stateful_set),
    (
        "apps",
        "ControllerRevision",
        controller_revision::controller_revision,
    ),
    ("batch", "Job", batch::job),
    ("batch", "CronJob", cronjob::cron_job),
    ("", "Pod", core::pod),
    ("", "Service", core::service),
    ("", "ConfigMap", core::config_map),
    ("", "Secret", core::secret),
    ("", "PersistentVolumeClaim", pvc::persistent_volume_claim),
    ("", "PersistentVolume", pv::persistent_volume),
    (
        "",
        "ReplicationController",
        replication_controller::replication_controller,
    ),
    ("", "ResourceQuota", resource_quota::resource_quota),
    ("", "LimitRange", limit_range::limit_range),
    ("", "Namespace", namespace::namespace),
    ("", "PodTemplate", pod_template::pod_template),
    ("", "Node", node::node),
    ("", "Event", event::event),
    ("events.k8s.io", "Event", event::event),
    ("coordination.k8s.io", "Lease", lease::lease),
    ("node.k8s.io", "RuntimeClass", runtime_class::runtime_class),
    ("", "Endpoints", endpoints::endpoints),
    (
        "discovery.k8s.io",
        "EndpointSlice",
        endpoint_slice::endpoint_slice,
    ),
    ("rbac.authorization.k8s.io", "Role", rbac::role),
    (
        "rbac.authorization.k8s.io",
        "ClusterRole",
        rbac::cluster_role,
    ),
    (
        "rbac.authorization.k8s.io",
        "RoleBinding",
        rbac::role_binding,
    ),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        rbac::cluster_role_binding,
    ),
    ("networking.k8s.io", "Ingress", networking::ingress),
    (
        "networking.k8s.io",
        "IngressClass",
        networking::ingress_class,
    ),
    (
        "networking.k8s.io",
        "NetworkPolicy",
        network_policy::network_policy,
    ),
    ("networking.k8s.io", "IPAddress", service_cidr::ip_address),
    (
        "networking.k8s.io",
        "ServiceCIDR",
        service_cidr::service_cidr,
    ),
    (
        "policy",
        "PodDisruptionBudget",
        policy::pod_disruption_budget,
    ),
    (
        "autoscaling",
        "HorizontalPodAutoscaler",
        autoscaling::horizontal_pod_autoscaler,
    ),
    ("storage.k8s.io", "StorageClass", storage::storage_class),
    ("storage.k8s.io", "CSIDriver", storage::csi_driver),
    (
        "storage.k8s.io",
        "VolumeAttachment",
        storage_attachment::volume_attachment,
    ),
    ("storage.k8s.io", "CSINode", storage_attachment::csi_node),
    (
        "storage.k8s.io",
        "CSIStorageCapacity",
        storage_capacity::csi_storage_capacity,
    ),
    (
        "storage.k8s.io",
        "VolumeAttributesClass",
        storage_capacity::volume_attributes_class,
    ),
    (
        "scheduling.k8s.io",
        "PriorityClass",
        priority_class::priority_class,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        admission::validating,
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        admission::mutating,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        admission_policy::validating_admission_policy,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        admission_policy_binding::validating_admission_policy_binding,
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicy",
        mutating_admission_policy::mutating_admission_policy,
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
        mutating_admission_policy::mutating_admission_policy_binding,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "FlowSchema",
        flow_schema::flow_schema,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        priority_level::priority_level_configuration,
    ),
    (
        "certificates.k8s.io",
        "CertificateSigningRequest",
        certificates::certificate_signing_request,
    ),
    (
        "certificates.k8s.io",
        "ClusterTrustBundle",
        cluster_trust_bundle::cluster_trust_bundle,
    ),
    (
        "apiregistration.k8s.io",
        "APIService",
        api_service::api_service,
    ),
    (
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        crd_definition::custom_resource_definition,
    ),
    ("resource.k8s.io", "ResourceClaim", dra::resource_claim),
    (
        "resource.k8s.io",
        "ResourceClaimTemplate",
        dra::resource_claim_template,
    ),
    ("resource.k8s.io", "DeviceClass", dra::device_class),
    (
        "resource.k8s.io",
        "ResourceSlice",
        dra_slice::resource_slice,
    ),
    (
        "resource.k8s.io",
        "DeviceTaintRule",
        device_taint_rule::device_taint_rule,
    ),
    (
        "storagemigration.k8s.io",
        "StorageVersionMigration",
        storage_migration::storage_version_migration,
    ),
];

/// Every field error of `object` that built-in validation finds. Of the subresources, the
/// `scale` subresource of the built-in scalable kinds (whose store validates the object as its
/// kind, [`scale`]) and the `status` subresource of built-in kinds (the object metadata, then
/// the status strategy's rules, [`status`]) are checked; the others are not modelled.
pub fn check(w: &Write, object: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if !checks_metadata(w) {
        return errors;
    }
    meta::check(w, object, &mut errors);
    if status::is_builtin_status(w) {
        status::check(w, object, &mut errors);
        return errors;
    }
    let gvk = &w.kind.gvk;
    if w.kind.is_builtin() {
        meta_update::kind_name_rule_on_update(w, object, &mut errors);
        for (group, kind, rules) in KIND_RULES {
            if *group == gvk.group && *kind == gvk.kind {
                rules(w, object, &mut errors);
            }
        }
    }
    errors
}

/// Whether the API server certainly refuses the CustomResourceDefinition `crd` for what also
/// keeps it from loading as a schema for its custom resources: its list or map extensions (an
/// unknown `x-kubernetes-list-type` or `x-kubernetes-map-type`, a map list without keys, …),
/// or a missing `spec.group`, `spec.names.kind` or version name (`Required value`). Such a CRD
/// gets its 422 when it is written instead of being unreadable input.
pub fn crd_refused_unloadable(crd: &Value) -> bool {
    crd_openapi::refuses_extensions(crd) || crd_definition::lacks_identity(crd)
}

/// Whether [`check`] validates the write at all (and with it the object metadata, including
/// the update's immutable fields): not for kinds without a schema nor for subresources other
/// than the built-in `scale` and `status`.
pub fn checks_metadata(w: &Write) -> bool {
    let subresource_unmodelled =
        !w.subresource.is_empty() && !scale::is_builtin_scale(w) && !status::is_builtin_status(w);
    !(subresource_unmodelled || w.kind.deduced)
}

#[cfg(test)]
mod dra_tests;
#[cfg(test)]
mod more_tests;
#[cfg(test)]
mod selector_ratchet_tests;
#[cfg(test)]
mod status_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod volume_tests;
