//! PodDisruptionBudgets, as k8s.io/kubernetes pkg/apis/policy/validation checks them
//! (`ValidatePodDisruptionBudget`, `ValidatePodDisruptionBudgetSpec`), with the int-or-percent
//! rules of pkg/apis/apps/validation (`ValidatePositiveIntOrPercent`,
//! `IsNotMoreThan100Percent`).

use super::super::goprint::{go_quote, label_selector_json};
use super::super::{BadValue, FieldError, Write};
use super::fields::present;
use super::selector;
use crate::value::{Map, Value};

const EVICTION_POLICIES: &[&str] = &["AlwaysAllow", "IfHealthyBudget"];
/// apimachinery `IsValidPercent`'s message (`RegexError` with two examples).
pub(super) const PERCENT_MSG: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// `[0-9]+%`.
fn is_percent(s: &str) -> bool {
    s.strip_suffix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// An `intstr.IntOrString` as the server quotes it: `%#v` of the struct before 1.34 (its
/// `String` has a pointer receiver), its JSON since.
pub fn quoted_int_or_string(v: &Value) -> BadValue {
    let go_syntax = match v {
        Value::Int(n) => format!("intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}"),
        other => format!(
            "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
            go_quote(other.as_str().unwrap_or(""))
        ),
    };
    BadValue::GoValue {
        value: v.clone(),
        go_syntax,
    }
}

/// `ValidatePositiveIntOrPercent` then `IsNotMoreThan100Percent` of the value at `path`.
pub fn int_or_percent(v: &Value, path: &str, errors: &mut Vec<FieldError>) {
    match v {
        Value::Int(n) if *n < 0 => errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(*n)),
            "must be greater than or equal to 0",
        )),
        Value::String(s) if !is_percent(s) => {
            errors.push(FieldError::invalid(
                path,
                quoted_int_or_string(v),
                PERCENT_MSG,
            ));
        }
        Value::String(s) => {
            let value: u64 = s[..s.len() - 1].parse().unwrap_or(0);
            if value > 100 {
                errors.push(FieldError::invalid(
                    path,
                    quoted_int_or_string(v),
                    "must not be greater than 100%",
                ));
            }
        }
        _ => {}
    }
}

/// `ValidatePodDisruptionBudgetSpec`.
pub fn pod_disruption_budget(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    // `ValidatePodDisruptionBudget` checks the spec only; the metadata is the generic store's
    // (`rest.BeforeCreate`: path-segment names, run only once the spec passes; on update
    // `validateCommonFields` first). `errors` holds the metadata errors so far.
    let metadata = std::mem::take(errors);
    spec_rules(w, object, errors);
    if w.live.is_some() || errors.is_empty() {
        let spec_errors = std::mem::replace(errors, metadata);
        errors.extend(spec_errors);
    }
}

fn spec_rules(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let spec = object.get("spec").unwrap_or(&empty);
    let min = present(spec, "minAvailable");
    let max = present(spec, "maxUnavailable");
    if min.is_some() && max.is_some() {
        errors.push(FieldError::invalid(
            "spec",
            quoted_spec(spec),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    if let Some(v) = min {
        int_or_percent(v, "spec.minAvailable", errors);
    }
    if let Some(v) = max {
        int_or_percent(v, "spec.maxUnavailable", errors);
    }
    if let Some(sel) = present(spec, "selector") {
        // The update keeps invalid label values the stored selector already had
        // (`hasInvalidLabelValueInLabelSelector`).
        let stored_invalid = w
            .live
            .and_then(|old| old.get_path(&["spec", "selector"]))
            .is_some_and(|old| selector::is_invalid(old, w.version()));
        let values = selector::Values::allowing_invalid_if(stored_invalid);
        selector::validate_with(sel, "spec.selector", values, w.version(), errors);
    }
    if let Some(policy) = present(spec, "unhealthyPodEvictionPolicy") {
        let policy = policy.as_str().unwrap_or("");
        if !EVICTION_POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                "spec.unhealthyPodEvictionPolicy",
                FieldError::string_value(policy),
                EVICTION_POLICIES,
            ));
        }
    }
}

/// The internal `policy.PodDisruptionBudgetSpec`: JSON under the Go field names since 1.34;
/// before, `%#v` prints its pointer fields as addresses, which kssa cannot know (`0x…`).
fn quoted_spec(spec: &Value) -> BadValue {
    let mut value = Map::default();
    let mut go = Vec::new();
    let fields = [
        ("MinAvailable", "minAvailable", "*intstr.IntOrString"),
        ("Selector", "selector", "*v1.LabelSelector"),
        ("MaxUnavailable", "maxUnavailable", "*intstr.IntOrString"),
        (
            "UnhealthyPodEvictionPolicy",
            "unhealthyPodEvictionPolicy",
            "*policy.UnhealthyPodEvictionPolicyType",
        ),
    ];
    for (go_name, key, go_type) in fields {
        let v = match present(spec, key) {
            Some(s) if key == "selector" => label_selector_json(s),
            Some(v) => v.clone(),
            None => Value::Null,
        };
        let address = if v.is_null() { "nil" } else { "0x…" };
        go.push(format!("{go_name}:({go_type})({address})"));
        value.insert(go_name.into(), v);
    }
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax: format!("policy.PodDisruptionBudgetSpec{{{}}}", go.join(", ")),
    }
}
