//! The pod spec's scheduling names, as k8s.io/kubernetes pkg/apis/core/validation
//! `ValidatePodSpec` checks them: readiness and scheduling gates (`validateReadinessGates`,
//! `validateSchedulingGates`), `nodeName`, `priorityClassName`, `runtimeClassName`
//! (`ValidateRuntimeClassName`) and `preemptionPolicy` (`ValidatePreemptionPolicy`).

use super::super::formats;
use super::super::FieldError;
use super::affinity::label_name;
use super::fields::{items, present, text};
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;
use std::collections::HashSet;

const PREEMPTION_POLICIES: &[&str] = &["PreemptLowerPriority", "Never"];

/// `validateReadinessGates` then `validateSchedulingGates` of the pod spec at `path`:
/// condition types and gate names are qualified names, gates unique.
pub fn gates(spec: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    for (i, gate) in items(spec.get("readinessGates")).iter().enumerate() {
        label_name(
            text(gate, "conditionType"),
            &format!("{path}.readinessGates[{i}].conditionType"),
            version,
            errors,
        );
    }
    let mut seen = HashSet::new();
    for (i, gate) in items(spec.get("schedulingGates")).iter().enumerate() {
        let at = format!("{path}.schedulingGates[{i}]");
        let name = text(gate, "name");
        label_name(name, &at, version, errors);
        if !seen.insert(name) {
            errors.push(FieldError::duplicate(at, FieldError::string_value(name)));
        }
    }
}

/// A DNS subdomain under `key` (`ValidateNodeName`, `ValidatePriorityClassName`, …).
fn subdomain(name: &str, path: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_subdomain(name) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(name),
            msg,
        ));
    }
}

/// `nodeName` of the pod spec at `path`: a DNS subdomain when set.
pub fn node_name(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let name = text(spec, "nodeName");
    if !name.is_empty() {
        subdomain(name, &join(path, ".nodeName"), errors);
    }
}

/// `priorityClassName` (a DNS subdomain when set), `runtimeClassName` (a DNS subdomain, even
/// empty, when present) and `preemptionPolicy` (an enum when present) of the pod spec at
/// `path`.
pub fn classes(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let priority = text(spec, "priorityClassName");
    if !priority.is_empty() {
        subdomain(priority, &join(path, ".priorityClassName"), errors);
    }
    if let Some(runtime) = present(spec, "runtimeClassName") {
        subdomain(
            runtime.as_str().unwrap_or(""),
            &join(path, ".runtimeClassName"),
            errors,
        );
    }
    if let Some(policy) = present(spec, "preemptionPolicy") {
        let at = join(path, ".preemptionPolicy");
        preemption_policy(policy.as_str().unwrap_or(""), &at, errors);
    }
}

/// `ValidatePreemptionPolicy`, for pod specs and PriorityClasses.
pub(super) fn preemption_policy(policy: &str, at: &str, errors: &mut Vec<FieldError>) {
    match policy {
        "" => errors.push(FieldError::required(at, "")),
        p if PREEMPTION_POLICIES.contains(&p) => {}
        p => errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(p),
            PREEMPTION_POLICIES,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn gates_and_classes() {
        let spec = from_json_str(
            r#"{"schedulingGates":[{"name":"example.com/wait"},{"name":"example.com/wait"}],
                "readinessGates":[{"conditionType":"bad key!"}],
                "runtimeClassName":"","preemptionPolicy":"Sometimes"}"#,
        )
        .unwrap();
        let v = KubeVersion::new(37).unwrap();
        let mut errors = Vec::new();
        gates(&spec, "spec", v, &mut errors);
        classes(&spec, "spec", &mut errors);
        let got: Vec<String> = errors.iter().map(|e| e.message(v)).collect();
        assert_eq!(got.len(), 4);
        assert!(got[0].starts_with(
            "spec.readinessGates[0].conditionType: Invalid value: \"bad key!\": name part must consist of"
        ));
        assert_eq!(
            got[1],
            "spec.schedulingGates[1]: Duplicate value: \"example.com/wait\""
        );
        assert!(got[2].starts_with(
            "spec.runtimeClassName: Invalid value: \"\": a lowercase RFC 1123 subdomain"
        ));
        assert_eq!(
            got[3],
            "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""
        );
    }
}
