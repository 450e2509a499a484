//! Object metadata, as apimachinery's `ValidateObjectMetaAccessor` (create) and
//! `ValidateObjectMetaAccessorUpdate` (update) check it: the name in its kind's format,
//! generateName, the namespace, labels, annotations and their total size, owner references
//! ([`super::owner_refs`]), finalizers ([`super::finalizers`]) and the update's immutable fields.

use super::super::formats;
use super::super::{FieldError, Write};
use super::{finalizers, meta_update, owner_refs};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// Which format a kind's object names must have (the `nameFn` its strategy passes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRule {
    /// `NameIsDNSSubdomain`: most kinds, and every custom resource.
    Subdomain,
    /// `NameIsDNSLabel`: Namespace, StatefulSet.
    Label,
    /// `NameIsDNS1035Label`.
    Dns1035Label,
    /// `ValidateServiceCreate`'s: `NameIsDNS1035Label`, or `NameIsDNSLabel` once
    /// RelaxedServiceNameValidation is on ([`SERVICE_NAME_RULES`]).
    ServiceName,
    /// `path.ValidatePathSegmentName`: RBAC roles and bindings.
    PathSegment,
    /// `ValidateIPAddressName`: an IP address in canonical form (networking IPAddress).
    IpAddress,
    /// `ValidateClusterTrustBundleName`: `<signer name with ':' for '/'>:` then a DNS
    /// subdomain, or without a signer name a DNS subdomain without `:`
    /// ([`super::cluster_trust_bundle::name_messages`], which needs the object's signer).
    TrustBundle,
    /// `validate.LongName` through `ValidateObjectMetaWithOpts` (ReplicationController and
    /// DeviceClass from 1.35, [`LONG_NAME_RULES`]): a DNS subdomain whose length is counted in
    /// bytes, `generateName` not checked.
    LongName,
    /// A kind that moved to [`NameRule::LongName`] in 1.35 ([`LONG_NAME_RULES`]).
    LongNameFrom35,
    /// `ValidateAPIService`'s name function: a path segment that is `spec.version + "." +
    /// spec.group` ([`super::api_service::name_messages`], which needs the object's spec),
    /// for `generateName` too, whole.
    ApiService,
}

/// Name rules of the built-in kinds that are not DNS subdomains (pkg/apis/*/validation:
/// `ValidateNamespaceName`, `ValidateServiceName`, `ValidateStatefulSetName`, the RBAC
/// `ValidateRBACName`, the generic store's for core/v1 Events). Every other built-in kind and every custom resource uses
/// [`NameRule::Subdomain`].
pub const NAME_RULES: &[(&str, &str, NameRule)] = &[
    ("", "Namespace", NameRule::Label),
    ("", "Service", NameRule::ServiceName),
    // core/v1 Events: no name rule of their own, the generic store's path segment
    // (`rest.BeforeCreate`); `events.k8s.io` ones are DNS subdomains (`ValidateEventCreate`).
    ("", "Event", NameRule::PathSegment),
    // `ValidatePodDisruptionBudget` has no metadata rule: the generic store's path segment.
    ("policy", "PodDisruptionBudget", NameRule::PathSegment),
    // `ValidateCertificateRequestName` accepts anything: the generic store's path segment.
    (
        "certificates.k8s.io",
        "CertificateSigningRequest",
        NameRule::PathSegment,
    ),
    ("apps", "StatefulSet", NameRule::Label),
    ("rbac.authorization.k8s.io", "Role", NameRule::PathSegment),
    (
        "rbac.authorization.k8s.io",
        "ClusterRole",
        NameRule::PathSegment,
    ),
    (
        "rbac.authorization.k8s.io",
        "RoleBinding",
        NameRule::PathSegment,
    ),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        NameRule::PathSegment,
    ),
    ("networking.k8s.io", "IPAddress", NameRule::IpAddress),
    (
        "certificates.k8s.io",
        "ClusterTrustBundle",
        NameRule::TrustBundle,
    ),
    ("", "ReplicationController", NameRule::LongNameFrom35),
    ("resource.k8s.io", "DeviceClass", NameRule::LongNameFrom35),
    // kube-aggregator `ValidateAPIService`: a path segment, then `version.group`.
    ("apiregistration.k8s.io", "APIService", NameRule::ApiService),
];

/// A Service's name rule per release: RelaxedServiceNameValidation (KEP-5311; alpha 1.34, beta
/// and on by default from 1.36, pkg/features/kube_features.go) lets a name be any DNS label
/// (`1web`).
const SERVICE_NAME_RULES: &[(VersionRange, NameRule)] = &[
    (VersionRange::until(35), NameRule::Dns1035Label),
    (VersionRange::since(36), NameRule::Label),
];

/// ReplicationController and DeviceClass names (pkg/apis/core/validation
/// `ValidateReplicationController`, pkg/apis/resource/validation `ValidateDeviceClass`).
const LONG_NAME_RULES: &[(VersionRange, NameRule)] = &[
    (VersionRange::until(34), NameRule::Subdomain),
    (VersionRange::since(35), NameRule::LongName),
];

/// Total size of all annotation keys and values (`TotalAnnotationSizeLimitB`, 256 KiB).
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 << 10;

impl NameRule {
    pub fn of(group: &str, kind: &str, version: KubeVersion) -> NameRule {
        let rule = NAME_RULES
            .iter()
            .find(|(g, k, _)| *g == group && *k == kind)
            .map_or(NameRule::Subdomain, |(_, _, r)| *r);
        match rule {
            NameRule::ServiceName => version.pick(SERVICE_NAME_RULES),
            NameRule::LongNameFrom35 => version.pick(LONG_NAME_RULES),
            rule => rule,
        }
    }

    /// The messages for `name`; `prefix` for a generateName, whose trailing dash is allowed.
    pub fn messages(self, name: &str, prefix: bool) -> Vec<String> {
        match self {
            NameRule::IpAddress => return super::service_cidr::ip_address_name(name),
            NameRule::TrustBundle => {
                return super::cluster_trust_bundle::name_messages("", name, prefix)
            }
            NameRule::ApiService => return formats::path_segment_name(name),
            _ => {}
        }
        if self == NameRule::PathSegment {
            return if prefix {
                formats::path_segment_name(name)
                    .into_iter()
                    .filter(|m| m.starts_with("may not contain"))
                    .collect()
            } else {
                formats::path_segment_name(name)
            };
        }
        let masked;
        let name = if prefix && name.len() > 1 && name.ends_with('-') {
            // maskTrailingDash: the generated suffix follows the dash.
            masked = format!("{}a", &name[..name.len() - 2]);
            masked.as_str()
        } else {
            name
        };
        match self {
            NameRule::Subdomain => formats::dns1123_subdomain(name),
            NameRule::LongName | NameRule::LongNameFrom35 => formats::long_name(name),
            NameRule::Label => formats::dns1123_label(name),
            // `of` resolves a Service's rule per release; unresolved, the strict one.
            NameRule::Dns1035Label | NameRule::ServiceName => formats::dns1035_label(name),
            NameRule::PathSegment
            | NameRule::IpAddress
            | NameRule::TrustBundle
            | NameRule::ApiService => {
                unreachable!("handled above")
            }
        }
    }
}

fn text<'v>(meta: &'v Value, key: &str) -> &'v str {
    meta.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The metadata rules, create or update, in the server's order.
pub fn check(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let meta = object.get("metadata").unwrap_or(&empty);
    let version = w.version();
    if !w.is_update() {
        let gvk = &w.kind.gvk;
        let rule = NameRule::of(&gvk.group, &gvk.kind, version);
        let signer = object
            .get("spec")
            .and_then(|s| s.get("signerName"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let messages = |name: &str, prefix: bool| match rule {
            NameRule::TrustBundle => {
                super::cluster_trust_bundle::name_messages(signer, name, prefix)
            }
            NameRule::ApiService => super::api_service::name_messages(object, name),
            _ => rule.messages(name, prefix),
        };
        let generate_name = text(meta, "generateName");
        if !generate_name.is_empty() && rule != NameRule::LongName {
            for msg in messages(generate_name, true) {
                errors.push(FieldError::invalid(
                    "metadata.generateName",
                    FieldError::string_value(generate_name),
                    msg,
                ));
            }
        }
        let name = text(meta, "name");
        if name.is_empty() {
            errors.push(FieldError::required(
                "metadata.name",
                "name or generateName is required",
            ));
        } else {
            for msg in messages(name, false) {
                errors.push(FieldError::invalid(
                    "metadata.name",
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
        check_namespace(w, meta, errors);
    } else {
        meta_update::names(meta, errors);
    }
    labels(meta.get("labels"), "metadata.labels", version, errors);
    annotations(
        meta.get("annotations"),
        "metadata.annotations",
        version,
        errors,
    );
    owner_refs::check(
        meta.get("ownerReferences"),
        "metadata.ownerReferences",
        version,
        errors,
    );
    finalizers::check(
        meta.get("finalizers"),
        "metadata.finalizers",
        version,
        errors,
    );
    // `metadata.managedFields` (`ValidateManagedFields`) is not checked: an applied object
    // may carry none (the field manager's 400), and an update's are re-encoded by the field
    // manager before validation.
    if !updates_after_kind_rules(w) {
        update_checks(w, object, errors);
    }
    // The kind's own `ValidateObjectMeta`/`ValidateObjectMetaUpdate` through the core wrapper.
    let gvk = &w.kind.gvk;
    if w.kind.is_builtin() && finalizers::core_wrapper(&gvk.group, &gvk.kind) {
        finalizers::kube_names(meta.get("finalizers"), "metadata.finalizers", errors);
    }
}

/// `ValidateObjectMetaAccessorUpdate`, after the create checks in `validateCommonFields`: no
/// new finalizer while deleting, the immutable metadata. Nothing on a create.
pub(super) fn update_checks(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let Some(live) = w.live else { return };
    let empty = Value::Null;
    let meta = object.get("metadata").unwrap_or(&empty);
    finalizers::no_new_while_deleting(meta.get("finalizers"), live, "metadata.finalizers", errors);
    errors.extend(meta_update::immutable_metadata(w, object));
}

/// Kinds whose `Validate…Update` checks the object first and its metadata update after
/// (pkg/apis/rbac/validation `ValidateRoleUpdate` and the three others: `Validate<X>(new)`,
/// then `ValidateObjectMetaUpdate`, then a binding's `roleRef`); their rules call
/// [`update_checks`] at that point.
fn updates_after_kind_rules(w: &Write) -> bool {
    w.kind.is_builtin() && w.kind.gvk.group == "rbac.authorization.k8s.io"
}

/// The namespace of a namespaced object must be a DNS label; cluster-scoped objects have had
/// theirs cleared before validation (`BeforeCreate`).
fn check_namespace(w: &Write, meta: &Value, errors: &mut Vec<FieldError>) {
    let Some(info) = &w.kind.info else { return };
    if !info.namespaced {
        return;
    }
    let namespace = text(meta, "namespace");
    if namespace.is_empty() {
        errors.push(FieldError::required("metadata.namespace", ""));
        return;
    }
    for msg in formats::dns1123_label(namespace) {
        errors.push(FieldError::invalid(
            "metadata.namespace",
            FieldError::string_value(namespace),
            msg,
        ));
    }
}

/// Entries of a string map sorted by key: Go ranges over maps in random order, kssa in a
/// stable one.
fn sorted_entries(map: Option<&Value>) -> Vec<(&str, &str)> {
    let Some(Value::Map(m)) = map else {
        return Vec::new();
    };
    let mut entries: Vec<(&str, &str)> = m
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
        .collect();
    entries.sort();
    entries
}

/// `ValidateLabels`: every key a qualified name, every value a label value; errors at the map's
/// path, quoting the key or value.
pub fn labels(map: Option<&Value>, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    for (key, value) in sorted_entries(map) {
        for msg in formats::label_key(key, version) {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(key),
                msg,
            ));
        }
        for msg in formats::label_value(value, version) {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(value),
                msg,
            ));
        }
    }
}

/// `ValidateAnnotations`: keys are qualified names (checked lower-cased, quoted as written) and
/// keys and values together at most 256 KiB.
pub fn annotations(
    map: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let entries = sorted_entries(map);
    for (key, _) in &entries {
        for msg in formats::label_key(&key.to_lowercase(), version) {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(key),
                msg,
            ));
        }
    }
    let total: usize = entries.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errors.push(FieldError::too_long(
            path,
            TOTAL_ANNOTATION_SIZE_LIMIT,
            version,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const LIVE: &str = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default",
      "uid":"6f61","resourceVersion":"7","finalizers":["example.com/keep"]}}"#;

    #[test]
    fn update_checks_come_after_the_create_checks() {
        // validateCommonFields: ValidateObjectMetaAccessor (labels, owner references,
        // finalizers), then ValidateObjectMetaAccessorUpdate (uid), then the core wrapper.
        let object = LIVE
            .replace(r#""uid":"6f61""#, r#""uid":"0000","labels":{"a":"-x"}"#)
            .replace(r#""example.com/keep""#, r#""example.com/keep","keep""#);
        let causes = refusal_causes(&object, Some(LIVE), 37);
        assert_eq!(causes.len(), 3, "{causes:?}");
        assert!(causes[0].starts_with("metadata.labels: Invalid value: \"-x\""));
        assert_eq!(
            causes[1],
            "metadata.uid: Invalid value: \"0000\": field is immutable"
        );
        assert_eq!(
            causes[2],
            "metadata.finalizers[1]: Invalid value: \"keep\": name is neither a standard finalizer name nor is it fully qualified"
        );
    }

    #[test]
    fn a_restored_grace_period_is_not_a_change() {
        let live = LIVE.replace(
            r#""resourceVersion":"7""#,
            r#""resourceVersion":"7","deletionTimestamp":"2024-05-01T10:00:00Z","deletionGracePeriodSeconds":30"#,
        );
        // An update body without them: the registry restores both from the stored object.
        assert!(refusal_causes(LIVE, Some(&live), 37).is_empty());
        let changed = live.replace(
            r#""deletionGracePeriodSeconds":30"#,
            r#""deletionGracePeriodSeconds":0"#,
        );
        assert_eq!(
            refusal_causes(&changed, Some(&live), 33),
            ["metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable"]
        );
        assert_eq!(
            refusal_causes(&live, Some(LIVE), 33),
            [
                "metadata.deletionTimestamp: Invalid value: 2024-05-01 10:00:00 +0000 UTC: field is immutable",
                "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
            ]
        );
    }

    #[test]
    fn an_update_checks_generate_name_as_a_path_segment_and_per_kind() {
        let config_map = |generate_name: &str| {
            format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"c","namespace":"default","generateName":"{generate_name}"}},"data":{{"a":"b"}}}}"#
            )
        };
        let segment = [
            "metadata.generateName: Invalid value: \"bad/name%-\": may not contain '/'",
            "metadata.generateName: Invalid value: \"bad/name%-\": may not contain '%'",
        ];
        let causes = refusal_causes(&config_map("bad/name%-"), Some(&config_map("ok-")), 36);
        assert_eq!(causes[..2], segment);
        assert!(causes[2].starts_with(
            "metadata.generateName: Invalid value: \"bad/name%-\": a lowercase RFC 1123 subdomain"
        ));
        let daemon_set = |generate_name: &str| {
            format!(
                r#"{{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{{"name":"d","namespace":"default","generateName":"{generate_name}"}},
                  "spec":{{"selector":{{"matchLabels":{{"a":"b"}}}},"template":{{"metadata":{{"labels":{{"a":"b"}}}},"spec":{{"containers":[{{"name":"c","image":"x"}}]}}}}}}}}"#
            )
        };
        let (new, old) = (daemon_set("Bad_Name-"), daemon_set("ok-"));
        assert_eq!(refusal_causes(&new, Some(&old), 33).len(), 1);
        assert!(refusal_causes(&new, Some(&old), 34).is_empty());
        assert_eq!(
            refusal_causes(&daemon_set("bad/name%-"), Some(&old), 36),
            segment
        );
    }
}
