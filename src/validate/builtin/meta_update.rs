//! The metadata rules of an update: the immutable fields of `ValidateObjectMetaAccessorUpdate`
//! (k8s.io/apimachinery pkg/api/validation/objectmeta.go) that an update can still change once
//! k8s.io/apiserver's `rest.BeforeUpdate` has restored what it restores from the stored object,
//! and the `generateName` an update is checked for.

use super::super::field::{BadValue, FieldError};
use super::super::formats;
use super::super::Write;
use super::meta::NameRule;
use crate::kube::VersionRange;
use crate::value::Value;

/// `ValidateObjectMetaAccessorUpdate`'s immutable fields the registry does not restore
/// (rest.BeforeUpdate restores a missing uid, the creation timestamp, a set deletion timestamp
/// and a removed grace period from the stored object first): a uid naming another object (an
/// apply or patch; a PUT's uid is refused earlier, as a storage precondition, [`crate::validate::precondition::check`]), a
/// deletion timestamp on an object not being deleted, and a changed or added
/// `deletionGracePeriodSeconds`. Empty on create.
pub fn immutable_metadata(w: &Write, object: &Value) -> Vec<FieldError> {
    let Some(live) = w.live else {
        return Vec::new();
    };
    let field = |v: &'_ Value, key: &str| -> Option<Value> {
        v.get_path(&["metadata", key])
            .filter(|x| !x.is_null() && x.as_str() != Some(""))
            .cloned()
    };
    let mut errors = Vec::new();
    if let (Some(old), Some(Value::String(new))) = (field(live, "uid"), field(object, "uid")) {
        if old.as_str() != Some(new.as_str()) {
            errors.push(FieldError::invalid(
                "metadata.uid",
                FieldError::string_value(&new),
                "field is immutable",
            ));
        }
    }
    if let (None, Some(new)) = (
        field(live, "deletionTimestamp"),
        field(object, "deletionTimestamp"),
    ) {
        errors.push(FieldError::invalid(
            "metadata.deletionTimestamp",
            time_value(&new),
            "field is immutable",
        ));
    }
    let grace = |v: &Value| field(v, "deletionGracePeriodSeconds");
    if let Some(new) = grace(object) {
        if grace(live).as_ref() != Some(&new) {
            errors.push(FieldError::invalid(
                "metadata.deletionGracePeriodSeconds",
                BadValue::Value(new),
                "field is immutable",
            ));
        }
    }
    errors
}

/// A `*metav1.Time` as `ErrorBody` prints it: its JSON (RFC 3339 in UTC, whole seconds) from
/// 1.34, `time.Time.String()` before (the server's local zone, UTC in its images).
pub(super) fn time_value(v: &Value) -> BadValue {
    let text = v.as_str().unwrap_or("");
    match chrono::DateTime::parse_from_rfc3339(text) {
        Ok(t) => {
            let utc = t.with_timezone(&chrono::Utc);
            let nanos = utc.timestamp_subsec_nanos();
            let fraction = if nanos == 0 {
                String::new()
            } else {
                format!(".{nanos:09}").trim_end_matches('0').to_string()
            };
            BadValue::GoValue {
                value: Value::from(utc.format("%Y-%m-%dT%H:%M:%SZ").to_string()),
                go_syntax: format!("{}{fraction} +0000 UTC", utc.format("%Y-%m-%d %H:%M:%S")),
            }
        }
        Err(_) => FieldError::string_value(text),
    }
}
/// The built-in kinds whose `Validate…Update` runs the create-time `ValidateObjectMeta` again,
/// so that an update's `generateName` and name get the kind's name rule: found by running the
/// registry code of 1.30–1.36 with an invalid `generateName` on update, and for the kinds it
/// could not run read in their `Validate…Update` (the admission policies and bindings,
/// ControllerRevision, CSINode; ResourceClaim and DeviceClass from 1.35). ClusterTrustBundle,
/// whose rule needs the signer, is left out (see docs/validation.md).
const UPDATE_CHECKS_GENERATE_NAME: &[(&str, &str, VersionRange)] = &[
    ("", "ConfigMap", VersionRange::ALWAYS),
    ("", "Endpoints", VersionRange::ALWAYS),
    ("", "LimitRange", VersionRange::ALWAYS),
    ("", "Namespace", VersionRange::ALWAYS),
    ("", "PersistentVolume", VersionRange::ALWAYS),
    ("", "PersistentVolumeClaim", VersionRange::ALWAYS),
    ("", "Pod", VersionRange::ALWAYS),
    ("", "ReplicationController", VersionRange::until(34)),
    ("", "Secret", VersionRange::ALWAYS),
    ("", "Service", VersionRange::until(33)),
    ("", "ServiceAccount", VersionRange::ALWAYS),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        VersionRange::ALWAYS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        VersionRange::ALWAYS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        VersionRange::ALWAYS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        VersionRange::ALWAYS,
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicy",
        VersionRange::ALWAYS,
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
        VersionRange::ALWAYS,
    ),
    ("apps", "ControllerRevision", VersionRange::ALWAYS),
    ("apps", "DaemonSet", VersionRange::until(33)),
    ("batch", "Job", VersionRange::ALWAYS),
    ("discovery.k8s.io", "EndpointSlice", VersionRange::ALWAYS),
    (
        "flowcontrol.apiserver.k8s.io",
        "FlowSchema",
        VersionRange::ALWAYS,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        VersionRange::ALWAYS,
    ),
    ("networking.k8s.io", "Ingress", VersionRange::ALWAYS),
    ("networking.k8s.io", "IngressClass", VersionRange::ALWAYS),
    (
        "networking.k8s.io",
        "NetworkPolicy",
        VersionRange::until(35),
    ),
    ("node.k8s.io", "RuntimeClass", VersionRange::ALWAYS),
    ("resource.k8s.io", "DeviceClass", VersionRange::since(35)),
    ("resource.k8s.io", "ResourceClaim", VersionRange::since(35)),
    ("storage.k8s.io", "CSINode", VersionRange::ALWAYS),
    ("storage.k8s.io", "CSIStorageCapacity", VersionRange::ALWAYS),
    ("storage.k8s.io", "StorageClass", VersionRange::ALWAYS),
    ("storage.k8s.io", "VolumeAttachment", VersionRange::ALWAYS),
    (
        "storage.k8s.io",
        "VolumeAttributesClass",
        VersionRange::ALWAYS,
    ),
];

/// An update's `generateName` and `name` as `rest.BeforeUpdate`'s `validateCommonFields`
/// checks every object's (`ValidateObjectMetaAccessor` with `path.ValidatePathSegmentName`: no
/// `/`, no `%`, a name not `.` or `..`). The kind's own name rule comes later
/// ([`kind_name_rule_on_update`]). The name cannot change; a stored one the rules refuse is
/// refused again.
pub(super) fn names(meta: &Value, errors: &mut Vec<FieldError>) {
    check_names(meta, errors, &|value, prefix| {
        let mut messages = formats::path_segment_name(value);
        if prefix {
            // `IsValidPathSegmentPrefix`: `.` and `..` are fine as the start of a name.
            messages.retain(|m| m.starts_with("may not contain"));
        }
        messages
    });
}

/// Kinds whose update validation runs `ValidateObjectMeta` after the kind's own update rules:
/// `ValidateServiceUpdate` (`ValidateObjectMetaUpdate`, the IP and traffic rules, then
/// `ValidateService`, until 1.33), `ValidateConfigMapUpdate` and `ValidateSecretUpdate` (the
/// `immutable` rules and a Secret's `type` first); their validation calls [`kind_name_rule`]
/// itself.
const KIND_RULE_AFTER_UPDATE_RULES: &[(&str, &str)] =
    &[("", "Service"), ("", "ConfigMap"), ("", "Secret")];

/// The kind's name rule on an update of the object or its scale (status writes run no
/// `ValidateObjectMeta`), where the kind's `Validate…Update` runs it: after the metadata
/// update's rules (`ValidateObjectMetaUpdate` comes first in every such function), as the
/// create validation it calls begins, before the kind's own rules; the kinds of
/// [`KIND_RULE_AFTER_UPDATE_RULES`] call [`kind_name_rule`] themselves.
pub(super) fn kind_name_rule_on_update(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let gvk = &w.kind.gvk;
    let deferred = KIND_RULE_AFTER_UPDATE_RULES
        .iter()
        .any(|(g, k)| *g == gvk.group && *k == gvk.kind);
    if w.live.is_some() && w.subresource != "status" && !deferred {
        let meta = object.get("metadata").unwrap_or(&Value::Null);
        kind_name_rule(w, meta, errors);
    }
}

/// The kind's name rule on update, where its update validation runs `ValidateObjectMeta`
/// ([`UPDATE_CHECKS_GENERATE_NAME`]).
pub(super) fn kind_name_rule(w: &Write, meta: &Value, errors: &mut Vec<FieldError>) {
    let gvk = &w.kind.gvk;
    let version = w.version();
    let kind_rule = w.kind.is_builtin()
        && UPDATE_CHECKS_GENERATE_NAME
            .iter()
            .any(|(g, k, v)| *g == gvk.group && *k == gvk.kind && v.contains(version));
    if kind_rule {
        let rule = NameRule::of(&gvk.group, &gvk.kind, version);
        // `ValidateObjectMetaWithOpts` with a long-name rule checks no `generateName`.
        check_names(meta, errors, &|value, prefix| {
            if prefix && rule == NameRule::LongName {
                return Vec::new();
            }
            rule.messages(value, prefix)
        });
    }
}

/// `messages` of the `generateName` (as a prefix) and the `name` of `meta`, as errors.
fn check_names(
    meta: &Value,
    errors: &mut Vec<FieldError>,
    messages: &dyn Fn(&str, bool) -> Vec<String>,
) {
    let text = |key: &str| meta.get(key).and_then(Value::as_str).unwrap_or("");
    for (field, value, prefix) in [
        ("metadata.generateName", text("generateName"), true),
        ("metadata.name", text("name"), false),
    ] {
        if value.is_empty() {
            continue;
        }
        for msg in messages(value, prefix) {
            errors.push(FieldError::invalid(
                field,
                FieldError::string_value(value),
                msg,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    #[test]
    fn a_config_map_lists_its_immutable_rules_before_the_name_rule() {
        let stored = r#"{"apiVersion":"v1","kind":"ConfigMap",
          "metadata":{"name":"settings","namespace":"default"},"immutable":true,"data":{"a":"1"}}"#;
        let updated = stored
            .replace(
                r#""name":"settings","#,
                r#""name":"settings","generateName":"Settings_","#,
            )
            .replace(r#""a":"1""#, r#""a":"2""#);
        let causes = refusal_causes(&updated, Some(stored), 36);
        let paths: Vec<&str> = causes
            .iter()
            .map(|c| c.split(':').next().unwrap())
            .collect();
        assert_eq!(paths, ["data", "metadata.generateName"]);
    }
}
