//! PriorityClasses, as k8s.io/kubernetes pkg/apis/scheduling/validation checks them
//! (`ValidatePriorityClass`, `ValidatePriorityClassUpdate`), with the system classes of
//! pkg/apis/scheduling (`IsKnownSystemPriorityClass`) and core validation's
//! `ValidatePreemptionPolicy`. The admission plugin's single-default rule needs the cluster's
//! other classes and is not checked.

use super::super::{FieldError, Write};
use super::fields::present;
use super::scheduling;
use crate::value::Value;

/// `scheduling.SystemPriorityClassPrefix`.
const SYSTEM_PREFIX: &str = "system-";
/// `scheduling.HighestUserDefinablePriority`.
const HIGHEST_USER_PRIORITY: i64 = 1_000_000_000;
/// `scheduling.SystemCriticalPriority`.
const SYSTEM_CRITICAL: i64 = 2 * HIGHEST_USER_PRIORITY;
/// The built-in system classes (`systemPriorityClasses`): name and value; neither is a
/// global default.
const SYSTEM_CLASSES: &[(&str, i64)] = &[
    ("system-node-critical", SYSTEM_CRITICAL + 1000),
    ("system-cluster-critical", SYSTEM_CRITICAL),
];
/// `SetDefaults_PriorityClass`.
const DEFAULT_PREEMPTION: &str = "PreemptLowerPriority";

/// `IsKnownSystemPriorityClass`: why a `system-` class is not one of the built-in ones.
fn unknown_system_class(name: &str, value: i64, global_default: bool) -> Option<String> {
    let Some((_, expected)) = SYSTEM_CLASSES.iter().find(|(n, _)| *n == name) else {
        return Some(format!("{name} is not a known system priority class"));
    };
    if *expected != value {
        return Some(format!("value of {name} PriorityClass must be {expected}"));
    }
    if global_default {
        return Some(format!(
            "globalDefault of {name} PriorityClass must be false"
        ));
    }
    None
}

/// The preemption policy after defaulting.
fn preemption_policy(object: &Value) -> &str {
    match present(object, "preemptionPolicy") {
        Some(p) => p.as_str().unwrap_or(""),
        None => DEFAULT_PREEMPTION,
    }
}

/// `ValidatePriorityClass`, then on update `ValidatePriorityClassUpdate` (value and preemption
/// policy fixed).
pub fn priority_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let value = object.get("value").and_then(Value::as_i64).unwrap_or(0);
    let policy = preemption_policy(object);
    // The strategy's `ValidateUpdate` runs `ValidatePriorityClassUpdate` alone: the metadata
    // update, then `value` and `preemptionPolicy` may not change; the create rules (reserved
    // names, the user maximum, the policy's values) are not run again.
    if let Some(old) = w.live {
        if value != old.get("value").and_then(Value::as_i64).unwrap_or(0) {
            errors.push(FieldError::forbidden(
                "value",
                "may not be changed in an update.",
            ));
        }
        if policy != preemption_policy(old) {
            errors.push(FieldError::invalid(
                "preemptionPolicy",
                FieldError::string_value(policy),
                "field is immutable",
            ));
        }
        return;
    }
    if name.starts_with(SYSTEM_PREFIX) {
        let global_default = object
            .get("globalDefault")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(why) = unknown_system_class(name, value, global_default) {
            errors.push(FieldError::forbidden(
                "metadata.name",
                format!("priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: {why}"),
            ));
        }
    } else if value > HIGHEST_USER_PRIORITY {
        errors.push(FieldError::forbidden(
            "value",
            format!("maximum allowed value of a user defined priority is {HIGHEST_USER_PRIORITY}"),
        ));
    }
    scheduling::preemption_policy(policy, "preemptionPolicy", errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const CLASS: &str = r#"{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass",
      "metadata":{"name":"high"},"value":1000,"globalDefault":false}"#;

    #[test]
    fn valid_classes_pass() {
        assert_eq!(refusal(CLASS, None, 37), None);
        let system = r#"{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass",
          "metadata":{"name":"system-node-critical"},"value":2000001000}"#;
        assert_eq!(refusal(system, None, 37), None);
    }

    #[test]
    fn system_names_and_values_are_reserved() {
        let system = CLASS.replace(r#""high""#, r#""system-high""#);
        assert_eq!(
            refusal(&system, None, 37).unwrap(),
            "The PriorityClass \"system-high\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-high is not a known system priority class"
        );
        let critical = CLASS
            .replace(r#""high""#, r#""system-cluster-critical""#)
            .replace("false", "true");
        assert_eq!(
            refusal(&critical, None, 37).unwrap(),
            "The PriorityClass \"system-cluster-critical\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"
        );
        let big = CLASS.replace("1000", "1000000001");
        assert_eq!(
            refusal(&big, None, 37).unwrap(),
            "The PriorityClass \"high\" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
        );
    }

    #[test]
    fn preemption_policy_and_updates() {
        let never = CLASS.replace(
            r#""globalDefault""#,
            r#""preemptionPolicy":"Never","globalDefault""#,
        );
        assert_eq!(refusal(&never, None, 37), None);
        let bad = CLASS.replace(
            r#""globalDefault""#,
            r#""preemptionPolicy":"Always","globalDefault""#,
        );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The PriorityClass \"high\" is invalid: preemptionPolicy: Unsupported value: \"Always\": supported values: \"PreemptLowerPriority\", \"Never\""
        );
        let changed = never.replace("1000", "2000");
        assert_eq!(
            refusal(&changed, Some(CLASS), 37).unwrap(),
            "The PriorityClass \"high\" is invalid: \n\
             * value: Forbidden: may not be changed in an update.\n\
             * preemptionPolicy: Invalid value: \"Never\": field is immutable"
        );
        let described = CLASS.replace(
            r#""globalDefault":false"#,
            r#""globalDefault":true,"description":"x""#,
        );
        assert_eq!(refusal(&described, Some(CLASS), 37), None);
    }
}
