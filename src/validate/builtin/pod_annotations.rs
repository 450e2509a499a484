//! The annotations only pods and pod templates give meaning to, as k8s.io/kubernetes
//! pkg/apis/core/validation `ValidatePodSpecificAnnotations` checks them (the same in 1.30–1.36):
//! the mirror-pod marker needs a node, `controller.kubernetes.io/pod-deletion-cost` is a 32-bit
//! integer, the deprecated seccomp annotations name a profile (`ValidateSeccompPodAnnotations`),
//! and the deprecated AppArmor annotations name an existing container and a profile
//! (`ValidateAppArmorPodAnnotations`). The tolerations annotation is not checked here.
//!
//! Go ranges over the annotation map for the per-container annotations; kssa visits the keys in
//! sorted order.

use super::super::FieldError;
use super::fields::{items, text};
use super::volume_source::local_descending;
use crate::validate::field::keyed;
use crate::value::Value;

const MIRROR_POD: &str = "kubernetes.io/config.mirror";
const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";
const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";
const APPARMOR_CONTAINER_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// `ValidatePodSpecificAnnotations` of the annotations at `path` (`metadata.annotations`, or a
/// template's `spec.template.annotations`) for the pod spec `spec`. `stored_invalid_cost` is
/// `AllowInvalidPodDeletionCost` (the stored object's cost already failed).
pub fn check(
    annotations: Option<&Value>,
    spec: &Value,
    path: &str,
    stored_invalid_cost: bool,
    errors: &mut Vec<FieldError>,
) {
    let Some(Value::Map(annotations)) = annotations else {
        return;
    };
    let value = |key: &str| annotations.get(key).map(|v| v.as_str().unwrap_or(""));
    if let Some(mirror) = value(MIRROR_POD) {
        if text(spec, "nodeName").is_empty() {
            errors.push(FieldError::invalid(
                keyed(path, MIRROR_POD),
                FieldError::string_value(mirror),
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if !stored_invalid_cost {
        if let Some(cost) = value(DELETION_COST).filter(|c| !is_deletion_cost(c)) {
            errors.push(FieldError::invalid(
                keyed(path, DELETION_COST),
                FieldError::string_value(cost),
                "must be a 32bit integer",
            ));
        }
    }
    let mut keys: Vec<&String> = annotations.keys().collect();
    keys.sort();
    // `ValidateSeccompPodAnnotations`: the pod's profile, then each container's (a `Child`
    // path, which joins the key with a dot).
    if let Some(profile) = value(SECCOMP_POD) {
        seccomp_profile(profile, &format!("{path}.{SECCOMP_POD}"), errors);
    }
    for key in keys
        .iter()
        .filter(|k| k.starts_with(SECCOMP_CONTAINER_PREFIX))
    {
        let profile = value(key).unwrap_or("");
        seccomp_profile(profile, &format!("{path}.{key}"), errors);
    }
    for key in keys
        .iter()
        .filter(|k| k.starts_with(APPARMOR_CONTAINER_PREFIX))
    {
        let container = &key[APPARMOR_CONTAINER_PREFIX.len()..];
        let at = keyed(path, key);
        if !has_container(spec, container) {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(container),
                "container not found",
            ));
        }
        let profile = value(key).unwrap_or("");
        let known = matches!(profile, "" | "runtime/default" | "unconfined");
        if !known && !profile.starts_with("localhost/") {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(profile),
                format!(
                    "invalid AppArmor profile name: {}",
                    crate::validate::goprint::go_quote(profile)
                ),
            ));
        }
    }
}

/// `AllowInvalidPodDeletionCost`: the stored object's annotations already hold a cost that
/// does not parse.
pub fn stored_invalid_cost(stored_annotations: Option<&Value>) -> bool {
    stored_annotations
        .and_then(|a| a.get(DELETION_COST))
        .is_some_and(|c| !is_deletion_cost(c.as_str().unwrap_or("")))
}

/// `GetDeletionCostFromPodAnnotations` without error: no sign but `-`, no leading zero, and
/// within int32.
fn is_deletion_cost(value: &str) -> bool {
    let first_ok = match value.as_bytes().first() {
        None => false,
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(b) => b.is_ascii_digit(),
    };
    first_ok && value.parse::<i32>().is_ok()
}

/// `ValidateSeccompProfile`.
fn seccomp_profile(profile: &str, at: &str, errors: &mut Vec<FieldError>) {
    if matches!(profile, "runtime/default" | "docker/default" | "unconfined") {
        return;
    }
    match profile.strip_prefix("localhost/") {
        Some(local) => local_descending(local, at, errors),
        None => errors.push(FieldError::invalid(
            at,
            FieldError::string_value(profile),
            "must be a valid seccomp profile",
        )),
    }
}

/// `podSpecHasContainer`: any regular, init or ephemeral container of that name.
fn has_container(spec: &Value, name: &str) -> bool {
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .any(|key| items(spec.get(key)).iter().any(|c| text(c, "name") == name))
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(annotations: &str, spec: &str) -> Vec<String> {
        let object = format!(r#"{{"annotations":{annotations},"spec":{spec}}}"#);
        messages_of(&object, 37, |o, _, errors| {
            check(
                o.get("annotations"),
                o.get("spec").unwrap(),
                "metadata.annotations",
                false,
                errors,
            )
        })
    }

    #[test]
    fn deletion_cost_is_an_int32() {
        let spec = r#"{"containers":[{"name":"web"}]}"#;
        for ok in ["0", "-5", "2147483647"] {
            let a = format!(r#"{{"{DELETION_COST}":"{ok}"}}"#);
            assert!(messages(&a, spec).is_empty(), "{ok}");
        }
        for bad in ["+1", "007", "2147483648", "x"] {
            let a = format!(r#"{{"{DELETION_COST}":"{bad}"}}"#);
            assert_eq!(
                messages(&a, spec),
                [format!("metadata.annotations[{DELETION_COST}]: Invalid value: \"{bad}\": must be a 32bit integer")]
            );
        }
    }

    #[test]
    fn app_armor_and_seccomp_annotations() {
        let spec = r#"{"containers":[{"name":"web"}]}"#;
        let a = format!(
            r#"{{"{APPARMOR_CONTAINER_PREFIX}api":"runtime/default","{APPARMOR_CONTAINER_PREFIX}web":"enforce","{SECCOMP_POD}":"default","{SECCOMP_CONTAINER_PREFIX}web":"localhost/../x"}}"#
        );
        assert_eq!(
            messages(&a, spec),
            [
                format!("metadata.annotations.{SECCOMP_POD}: Invalid value: \"default\": must be a valid seccomp profile"),
                format!("metadata.annotations.{SECCOMP_CONTAINER_PREFIX}web: Invalid value: \"../x\": must not contain '..'"),
                format!("metadata.annotations[{APPARMOR_CONTAINER_PREFIX}api]: Invalid value: \"api\": container not found"),
                format!("metadata.annotations[{APPARMOR_CONTAINER_PREFIX}web]: Invalid value: \"enforce\": invalid AppArmor profile name: \"enforce\""),
            ]
        );
    }
}
