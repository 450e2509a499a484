//! HorizontalPodAutoscalers, as k8s.io/kubernetes pkg/apis/autoscaling/validation checks them
//! (`ValidateHorizontalPodAutoscaler`, `ValidateHorizontalPodAutoscalerUpdate`,
//! `validateHorizontalPodAutoscalerSpec`, `ValidateCrossVersionObjectReference`,
//! `validateBehavior`, `validateScalingRules`, `validateScalingPolicy`): replica bounds, the
//! scale target, and the scaling behaviour.

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::{spec, text};
use crate::validate::field::join;
use crate::value::Value;

/// `MaxPeriodSeconds`.
const MAX_PERIOD_SECONDS: i64 = 1800;
/// `MaxStabilizationWindowSeconds`.
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;
const SELECT_POLICIES: &[&str] = &["Disabled", "Max", "Min"];
const POLICY_TYPES: &[&str] = &["Percent", "Pods"];

fn int(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

fn invalid_int(errors: &mut Vec<FieldError>, path: &str, n: i64, detail: impl Into<String>) {
    errors.push(FieldError::invalid(
        path,
        BadValue::Value(Value::Int(n)),
        detail,
    ));
}

/// `validateHorizontalPodAutoscalerSpec`. `minReplicas` may be 0 only when the stored object
/// already has 0 (the `HPAScaleToZero` gate is off by default in every supported release).
pub fn horizontal_pod_autoscaler(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let old_zero = w.live.and_then(|old| int(self::spec(old), "minReplicas")) == Some(0);
    let lower = if old_zero { 0 } else { 1 };
    let min = int(spec, "minReplicas");
    if let Some(n) = min.filter(|n| *n < lower) {
        invalid_int(
            errors,
            "spec.minReplicas",
            n,
            format!("must be greater than or equal to {lower}"),
        );
    }
    let max = int(spec, "maxReplicas").unwrap_or(0);
    if max < 1 {
        invalid_int(errors, "spec.maxReplicas", max, "must be greater than 0");
    }
    if min.is_some_and(|m| max < m) {
        invalid_int(
            errors,
            "spec.maxReplicas",
            max,
            "must be greater than or equal to `minReplicas`",
        );
    }
    let empty = Value::Null;
    cross_version_reference(
        spec.get("scaleTargetRef").unwrap_or(&empty),
        "spec.scaleTargetRef",
        errors,
    );
    super::hpa_metrics::metrics(object, spec, w.version(), errors);
    if let Some(behavior) = spec.get("behavior").filter(|b| !b.is_null()) {
        for direction in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(direction).filter(|r| !r.is_null()) {
                scaling_rules(rules, &format!("spec.behavior.{direction}"), errors);
            }
        }
    }
}

/// `ValidateCrossVersionObjectReference`: kind and name required, path segments.
pub(super) fn cross_version_reference(r: &Value, path: &str, errors: &mut Vec<FieldError>) {
    for key in ["kind", "name"] {
        let v = text(r, key);
        if v.is_empty() {
            errors.push(FieldError::required(format!("{path}.{key}"), ""));
        }
        for msg in formats::path_segment_name(v) {
            errors.push(FieldError::invalid(
                format!("{path}.{key}"),
                FieldError::string_value(v),
                msg,
            ));
        }
    }
}

/// `validateScalingRules`: the stabilization window's range, the select policy, and at least
/// one valid policy.
fn scaling_rules(rules: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(window) = int(rules, "stabilizationWindowSeconds") {
        let at = join(path, ".stabilizationWindowSeconds");
        if window < 0 {
            invalid_int(errors, &at, window, "must be greater than or equal to zero");
        }
        if window > MAX_STABILIZATION_WINDOW_SECONDS {
            invalid_int(
                errors,
                &at,
                window,
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            );
        }
    }
    if let Some(select) = rules.get("selectPolicy").and_then(Value::as_str) {
        if !SELECT_POLICIES.contains(&select) {
            errors.push(FieldError::not_supported(
                join(path, ".selectPolicy"),
                FieldError::string_value(select),
                SELECT_POLICIES,
            ));
        }
    }
    let policies = rules
        .get("policies")
        .and_then(Value::as_list)
        .map_or(&[][..], Vec::as_slice);
    if policies.is_empty() {
        errors.push(FieldError::required(
            join(path, ".policies"),
            "must specify at least one Policy",
        ));
    }
    for (i, p) in policies.iter().enumerate() {
        let at = format!("{path}.policies[{i}]");
        let kind = text(p, "type");
        if !POLICY_TYPES.contains(&kind) {
            errors.push(FieldError::not_supported(
                join(&at, ".type"),
                FieldError::string_value(kind),
                POLICY_TYPES,
            ));
        }
        let value = int(p, "value").unwrap_or(0);
        if value <= 0 {
            invalid_int(
                errors,
                &join(&at, ".value"),
                value,
                "must be greater than zero",
            );
        }
        let period = int(p, "periodSeconds").unwrap_or(0);
        if period <= 0 {
            invalid_int(
                errors,
                &join(&at, ".periodSeconds"),
                period,
                "must be greater than zero",
            );
        }
        if period > MAX_PERIOD_SECONDS {
            invalid_int(
                errors,
                &join(&at, ".periodSeconds"),
                period,
                format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
            );
        }
    }
}
