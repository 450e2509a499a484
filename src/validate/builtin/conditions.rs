//! `metav1.Condition` lists in a status, as k8s.io/apimachinery pkg/apis/meta/v1/validation
//! `ValidateConditions` / `ValidateCondition` check them (PodDisruptionBudget status writes,
//! `ValidatePodDisruptionBudgetStatusUpdate`): each `type` once and a qualified name, `status`
//! one of `True`/`False`/`Unknown`, a non-negative `observedGeneration`, a set
//! `lastTransitionTime`, a `reason` in the condition-reason format of at most 1024 bytes, and a
//! `message` of at most 32768 bytes.

use super::super::{formats, BadValue, FieldError};
use super::affinity::label_name;
use super::fields::{items, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;
use std::collections::HashSet;

const MAX_REASON_BYTES: usize = 1024;
const MAX_MESSAGE_BYTES: usize = 32 * 1024;

/// `ValidateCondition`'s `Required` errors carried the detail `must be set` until apimachinery
/// v0.34, which dropped it.
const REQUIRED_DETAIL: &[(VersionRange, &str)] = &[
    (VersionRange::until(33), "must be set"),
    (VersionRange::since(34), ""),
];

/// `ValidateConditions` of the list at `path` (absent: no error).
pub fn check(list: Option<&Value>, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    for (i, condition) in items(list).iter().enumerate() {
        let at = format!("{path}[{i}]");
        let kind = text(condition, "type");
        if !seen.insert(kind) {
            errors.push(FieldError::duplicate(
                format!("{at}.type"),
                FieldError::string_value(kind),
            ));
        }
        one(condition, &at, version, errors);
    }
}

/// `ValidateCondition`.
fn one(condition: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let required = version.pick(REQUIRED_DETAIL);
    label_name(
        text(condition, "type"),
        &format!("{at}.type"),
        version,
        errors,
    );
    let status = text(condition, "status");
    if !matches!(status, "True" | "False" | "Unknown") {
        errors.push(FieldError::not_supported(
            format!("{at}.status"),
            FieldError::string_value(status),
            &["False", "True", "Unknown"],
        ));
    }
    let generation = condition
        .get("observedGeneration")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if generation < 0 {
        errors.push(FieldError::invalid(
            format!("{at}.observedGeneration"),
            BadValue::Value(Value::Int(generation)),
            "must be greater than or equal to zero",
        ));
    }
    if is_zero_time(condition.get("lastTransitionTime")) {
        errors.push(FieldError::required(
            format!("{at}.lastTransitionTime"),
            required,
        ));
    }
    let reason = text(condition, "reason");
    if reason.is_empty() {
        errors.push(FieldError::required(format!("{at}.reason"), required));
    } else {
        for msg in formats::condition_reason(reason) {
            errors.push(FieldError::invalid(
                format!("{at}.reason"),
                FieldError::string_value(reason),
                msg,
            ));
        }
        if reason.len() > MAX_REASON_BYTES {
            errors.push(FieldError::too_long(
                format!("{at}.reason"),
                MAX_REASON_BYTES,
                version,
            ));
        }
    }
    if text(condition, "message").len() > MAX_MESSAGE_BYTES {
        errors.push(FieldError::too_long(
            format!("{at}.message"),
            MAX_MESSAGE_BYTES,
            version,
        ));
    }
}

/// `metav1.Time.IsZero`: absent, `null`, or Go's zero instant (which `metav1.Time` marshals as
/// `null` but decodes from its RFC 3339 text).
fn is_zero_time(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s == "0001-01-01T00:00:00Z",
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const PDB: &str = r#"{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
      "metadata":{"name":"web","namespace":"default","resourceVersion":"7"},
      "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}},
      "status":{"currentHealthy":1,"desiredHealthy":1,"disruptionsAllowed":0,"expectedPods":1}}"#;

    fn with_conditions(conditions: &str) -> String {
        PDB.replace(
            r#""expectedPods":1}"#,
            &format!(r#""expectedPods":1,"conditions":[{conditions}]}}"#),
        )
    }

    #[test]
    fn a_well_formed_condition_passes() {
        let good = with_conditions(
            r#"{"type":"DisruptionAllowed","status":"False","reason":"InsufficientPods",
               "message":"","lastTransitionTime":"2026-01-01T00:00:00Z","observedGeneration":1}"#,
        );
        assert_eq!(status_write(36, PDB, &good), None);
    }

    #[test]
    fn every_rule_in_upstream_order() {
        let bad = with_conditions(
            r#"{"type":"bad type","status":"Maybe","reason":"1st","observedGeneration":-1},
               {"type":"bad type","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}"#,
        );
        let qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let reason = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
        let expected = |required: &str| {
            format!(
                "The PodDisruptionBudget \"web\" is invalid: \n\
                 * status.conditions[0].type: Invalid value: \"bad type\": {qualified}\n\
                 * status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"\n\
                 * status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero\n\
                 * status.conditions[0].lastTransitionTime: Required value{required}\n\
                 * status.conditions[0].reason: Invalid value: \"1st\": {reason}\n\
                 * status.conditions[1].type: Duplicate value: \"bad type\"\n\
                 * status.conditions[1].type: Invalid value: \"bad type\": {qualified}\n\
                 * status.conditions[1].reason: Required value{required}"
            )
        };
        assert_eq!(status_write(36, PDB, &bad).unwrap(), expected(""));
        assert_eq!(
            status_write(33, PDB, &bad).unwrap(),
            expected(": must be set")
        );
    }

    #[test]
    fn reason_and_message_lengths() {
        let long = with_conditions(&format!(
            r#"{{"type":"Ready","status":"True","reason":"{}","message":"{}",
                "lastTransitionTime":"2026-01-01T00:00:00Z"}}"#,
            "R".repeat(1025),
            "m".repeat(32 * 1024 + 1)
        ));
        assert_eq!(
            status_write(36, PDB, &long).unwrap(),
            "The PodDisruptionBudget \"web\" is invalid: \n\
             * status.conditions[0].reason: Too long: may not be more than 1024 bytes\n\
             * status.conditions[0].message: Too long: may not be more than 32768 bytes"
        );
    }
}
