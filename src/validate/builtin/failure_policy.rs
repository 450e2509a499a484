//! A Job's `spec.podFailurePolicy`, as k8s.io/kubernetes pkg/apis/batch/validation checks it
//! (`validatePodFailurePolicy`, `validatePodFailurePolicyRule`,
//! `validatePodFailurePolicyRuleOnExitCodes`, `validatePodFailurePolicyRuleOnPodConditions`).

use super::super::{BadValue, FieldError, Write};
use super::batch::{int_value, set, text};
use crate::validate::field::{indexed, join};
use crate::value::Value;

const MAX_FAILURE_RULES: usize = 20;
const MAX_EXIT_CODES: usize = 255;
const MAX_CONDITION_PATTERNS: usize = 20;
/// The sets' sorted lists (`sets.List`).
const ACTIONS: &[&str] = &["Count", "FailIndex", "FailJob", "Ignore"];
const OPERATORS: &[&str] = &["In", "NotIn"];
const CONDITION_STATUSES: &[&str] = &["False", "True", "Unknown"];

/// `%q` of a list of strings, as `fmt` prints `[]string`: `["a" "b"]`.
fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| crate::validate::goprint::go_quote(s))
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// `validatePodFailurePolicy` and its rules.
pub(super) fn pod_failure_policy(
    w: &Write,
    spec: &Value,
    policy: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let rules = policy.get("rules").and_then(Value::as_list);
    let rules = rules.map(|r| r.as_slice()).unwrap_or(&[]);
    if rules.len() > MAX_FAILURE_RULES {
        errors.push(FieldError::too_many(
            join(path, ".rules"),
            rules.len(),
            MAX_FAILURE_RULES,
            w.version(),
        ));
    }
    let mut containers = Vec::new();
    for list in ["containers", "initContainers"] {
        if let Some(items) = spec
            .get_path(&["template", "spec", list])
            .and_then(Value::as_list)
        {
            containers.extend(items.iter().filter_map(|c| text(c, "name")));
        }
    }
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = format!("{path}.rules[{i}]");
        let action_path = join(&rule_path, ".action");
        match text(rule, "action").unwrap_or("") {
            "" => errors.push(FieldError::required(
                action_path,
                format!("valid values: {}", quoted_list(ACTIONS)),
            )),
            "FailIndex" if !set(spec, "backoffLimitPerIndex") => errors.push(FieldError::invalid(
                action_path,
                FieldError::string_value("FailIndex"),
                "requires the backoffLimitPerIndex to be set",
            )),
            a if !ACTIONS.contains(&a) => errors.push(FieldError::not_supported(
                action_path,
                FieldError::string_value(a),
                ACTIONS,
            )),
            _ => {}
        }
        let exit_codes = rule.get("onExitCodes").filter(|v| !v.is_null());
        let conditions = rule.get("onPodConditions").and_then(Value::as_list);
        let conditions = conditions.map(|c| c.as_slice()).unwrap_or(&[]);
        if let Some(codes) = exit_codes {
            on_exit_codes(
                w,
                codes,
                &containers,
                &join(&rule_path, ".onExitCodes"),
                errors,
            );
        }
        if !conditions.is_empty() {
            on_pod_conditions(conditions, w, &join(&rule_path, ".onPodConditions"), errors);
        }
        let detail = match (exit_codes.is_some(), conditions.is_empty()) {
            (true, false) => "specifying both OnExitCodes and OnPodConditions is not supported",
            (false, true) => "specifying one of OnExitCodes and OnPodConditions is required",
            _ => continue,
        };
        errors.push(FieldError::invalid(rule_path, BadValue::Omitted, detail));
    }
}

/// The exit codes as the server quotes `[]int32`.
fn exit_code_list(values: Option<&Value>) -> BadValue {
    match values {
        Some(Value::List(items)) => {
            let ints: Vec<String> = items
                .iter()
                .map(|v| v.as_i64().unwrap_or(0).to_string())
                .collect();
            BadValue::GoValue {
                value: Value::List(items.clone()),
                go_syntax: format!("[]int32{{{}}}", ints.join(", ")),
            }
        }
        _ => BadValue::GoValue {
            value: Value::Null,
            go_syntax: "[]int32(nil)".into(),
        },
    }
}

/// `validatePodFailurePolicyRuleOnExitCodes`.
fn on_exit_codes(
    w: &Write,
    codes: &Value,
    containers: &[&str],
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let operator = text(codes, "operator").unwrap_or("");
    let operator_path = join(path, ".operator");
    if operator.is_empty() {
        errors.push(FieldError::required(
            operator_path,
            format!("valid values: {}", quoted_list(OPERATORS)),
        ));
    } else if !OPERATORS.contains(&operator) {
        errors.push(FieldError::not_supported(
            operator_path,
            FieldError::string_value(operator),
            OPERATORS,
        ));
    }
    if let Some(name) = text(codes, "containerName") {
        if !containers.contains(&name) {
            errors.push(FieldError::invalid(
                join(path, ".containerName"),
                FieldError::string_value(name),
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let values_path = join(path, ".values");
    let raw = codes.get("values").filter(|v| !v.is_null());
    let values: Vec<i64> = raw
        .and_then(Value::as_list)
        .map(|l| l.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    if values.is_empty() {
        errors.push(FieldError::invalid(
            &values_path,
            exit_code_list(raw),
            "at least one value is required",
        ));
    } else if values.len() > MAX_EXIT_CODES {
        errors.push(FieldError::too_many(
            &values_path,
            values.len(),
            MAX_EXIT_CODES,
            w.version(),
        ));
    }
    let mut seen = Vec::new();
    for (j, &v) in values.iter().enumerate() {
        let value_path = indexed(&values_path, j);
        if operator == "In" && v == 0 {
            errors.push(FieldError::invalid(
                &value_path,
                int_value(0),
                "must not be 0 for the In operator",
            ));
        }
        if seen.contains(&v) {
            errors.push(FieldError::duplicate(value_path, int_value(v)));
        } else {
            seen.push(v);
        }
    }
    if values.windows(2).any(|p| p[0] > p[1]) {
        errors.push(FieldError::invalid(
            values_path,
            exit_code_list(raw),
            "must be ordered",
        ));
    }
}

/// `validatePodFailurePolicyRuleOnPodConditions`: each pattern's type a qualified name, then
/// its status.
fn on_pod_conditions(patterns: &[Value], w: &Write, path: &str, errors: &mut Vec<FieldError>) {
    if patterns.len() > MAX_CONDITION_PATTERNS {
        errors.push(FieldError::too_many(
            path,
            patterns.len(),
            MAX_CONDITION_PATTERNS,
            w.version(),
        ));
    }
    for (j, pattern) in patterns.iter().enumerate() {
        let condition = text(pattern, "type").unwrap_or("");
        for msg in crate::validate::formats::label_key(condition, w.version()) {
            errors.push(FieldError::invalid(
                format!("{path}[{j}].type"),
                FieldError::string_value(condition),
                msg,
            ));
        }
        let status_path = format!("{path}[{j}].status");
        match text(pattern, "status").unwrap_or("") {
            "" => errors.push(FieldError::required(
                status_path,
                format!("valid values: {}", quoted_list(CONDITION_STATUSES)),
            )),
            s if !CONDITION_STATUSES.contains(&s) => errors.push(FieldError::not_supported(
                status_path,
                FieldError::string_value(s),
                CONDITION_STATUSES,
            )),
            _ => {}
        }
    }
}
