//! HorizontalPodAutoscalers, as k8s.io/kubernetes pkg/apis/autoscaling/validation checks them
//! (`ValidateHorizontalPodAutoscaler`, `ValidateHorizontalPodAutoscalerUpdate`,
//! `validateHorizontalPodAutoscalerSpec`, `ValidateCrossVersionObjectReference`,
//! `validateBehavior`, `validateScalingRules`, `validateScalingPolicy`): replica bounds, the
//! scale target, and the scaling behaviour.

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::resources::Amount;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// `ValidateAPIVersion` of the references' `apiVersion` exists from 1.34.
const API_VERSION_CHECKED: VersionRange = VersionRange::since(34);
/// 1.36 words `maxReplicas` as declarative validation does (`Required value: must be set and
/// greater than 0` for 0, `must be greater than or equal to 1` below).
const MAX_REPLICAS_REWORDED: VersionRange = VersionRange::since(36);
/// HPAConfigurableTolerance: alpha and off in 1.33–1.34 (the strategy drops a new `tolerance`
/// unless the stored autoscaler has one), beta and on from 1.35.
const TOLERANCE_ON: VersionRange = VersionRange::since(35);

/// How `ValidateAPIVersion` treats a reference (`CrossVersionObjectReferenceValidationOptions`):
/// `None` when it is not checked (before 1.34, or `AllowInvalidAPIVersion`).
#[derive(Clone, Copy)]
pub(super) struct ApiVersionRule {
    pub allow_empty_group: bool,
}

/// `ValidateAPIVersion`'s error for `api_version` (`schema.ParseGroupVersion`, then the group).
fn api_version_error(api_version: &str, rule: ApiVersionRule) -> Option<String> {
    if api_version.is_empty() || api_version == "/" {
        return (!rule.allow_empty_group).then(|| "apiVersion must specify API group".into());
    }
    match api_version.matches('/').count() {
        0 if !rule.allow_empty_group => Some("apiVersion must specify API group".into()),
        0 => None,
        1 if api_version.starts_with('/') && !rule.allow_empty_group => {
            Some("apiVersion must specify API group".into())
        }
        1 => None,
        _ => Some(format!("unexpected GroupVersion string: {api_version}")),
    }
}

/// The rule for the object metrics' `describedObject` (empty groups allowed), lifted when a
/// stored object metric already fails it.
pub(super) fn described_object_rule(
    old_spec: Option<&Value>,
    version: KubeVersion,
) -> Option<ApiVersionRule> {
    let rule = ApiVersionRule {
        allow_empty_group: true,
    };
    let stored_invalid = old_spec.is_some_and(|spec| {
        items(spec.get("metrics")).iter().any(|m| {
            text(m, "type") == "Object"
                && present(m, "object").is_some_and(|o| {
                    let api = o
                        .get_path(&["describedObject", "apiVersion"])
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    api_version_error(api, rule).is_some()
                })
        })
    });
    (API_VERSION_CHECKED.contains(version) && !stored_invalid).then_some(rule)
}

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
    if MAX_REPLICAS_REWORDED.contains(w.version()) {
        if max == 0 {
            errors.push(FieldError::required(
                "spec.maxReplicas",
                "must be set and greater than 0",
            ));
        } else if max < 0 {
            invalid_int(
                errors,
                "spec.maxReplicas",
                max,
                "must be greater than or equal to 1",
            );
        }
    } else if max < 1 {
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
    let target = spec.get("scaleTargetRef").unwrap_or(&empty);
    let old_spec = w.live.map(self::spec);
    // `validationOptionsForHorizontalPodAutoscaler`: an update that keeps the target's
    // apiVersion and kind is not checked; a ReplicationController may name the core group.
    let unchanged = old_spec.is_some_and(|old| {
        let old_target = old.get("scaleTargetRef").unwrap_or(&empty);
        text(old_target, "apiVersion") == text(target, "apiVersion")
            && text(old_target, "kind") == text(target, "kind")
    });
    let target_rule =
        (API_VERSION_CHECKED.contains(w.version()) && !unchanged).then_some(ApiVersionRule {
            allow_empty_group: text(target, "kind") == "ReplicationController",
        });
    cross_version_reference(target, "spec.scaleTargetRef", target_rule, errors);
    let described = described_object_rule(old_spec, w.version());
    super::hpa_metrics::metrics(object, spec, described, w.version(), errors);
    let tolerance = TOLERANCE_ON.contains(w.version()) || old_spec.is_some_and(uses_tolerance);
    if let Some(behavior) = spec.get("behavior").filter(|b| !b.is_null()) {
        for direction in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(direction).filter(|r| !r.is_null()) {
                let path = format!("spec.behavior.{direction}");
                scaling_rules(rules, &path, errors);
                if tolerance {
                    let at = join(&path, ".tolerance");
                    Amount::non_negative(rules.get("tolerance"), &at, errors);
                }
            }
        }
    }
}

/// Whether a stored spec sets a scaling rule's `tolerance` (which keeps the field while the
/// gate is off).
fn uses_tolerance(spec: &Value) -> bool {
    ["scaleUp", "scaleDown"].iter().any(|d| {
        spec.get_path(&["behavior", d, "tolerance"])
            .is_some_and(|t| !t.is_null())
    })
}

/// `ValidateCrossVersionObjectReference`: kind and name required, path segments, then the
/// `apiVersion` under `rule`.
pub(super) fn cross_version_reference(
    r: &Value,
    path: &str,
    rule: Option<ApiVersionRule>,
    errors: &mut Vec<FieldError>,
) {
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
    let api_version = text(r, "apiVersion");
    if let Some(message) = rule.and_then(|rule| api_version_error(api_version, rule)) {
        errors.push(FieldError::invalid(
            format!("{path}.apiVersion"),
            FieldError::string_value(api_version),
            message,
        ));
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

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_over_stored};
    use super::*;

    const HPA: &str = r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
      "metadata":{"name":"web","namespace":"default"},
      "spec":{"minReplicas":1,"maxReplicas":MAX,
        "scaleTargetRef":{"apiVersion":"TARGET","kind":"Deployment","name":"web"},
        "behavior":{"scaleUp":{"tolerance":"TOLERANCE","policies":[{"type":"Pods","value":1,"periodSeconds":60}]}}}}"#;

    fn hpa(max: i64, target: &str, tolerance: &str) -> String {
        HPA.replace("MAX", &max.to_string())
            .replace("TARGET", target)
            .replace("TOLERANCE", tolerance)
    }

    fn cause(object: &str, live: Option<&str>, minor: u8) -> Option<String> {
        refusal_over_stored(object, live, minor)
            .map(|m| m.split_once("is invalid: ").unwrap().1.to_string())
    }

    #[test]
    fn the_scale_target_names_a_group_from_1_34() {
        let bad = hpa(3, "v1", "0");
        assert_eq!(cause(&bad, None, 33), None);
        assert_eq!(
            cause(&bad, None, 34).as_deref(),
            Some("spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must specify API group")
        );
        // An update that keeps the stored target is not checked.
        assert_eq!(cause(&bad, Some(&bad), 36), None);
        let rc = bad.replace("\"Deployment\"", "\"ReplicationController\"");
        assert_eq!(cause(&rc, None, 36), None);
        assert_eq!(
            api_version_error(
                "a/b/c",
                ApiVersionRule {
                    allow_empty_group: true
                }
            )
            .as_deref(),
            Some("unexpected GroupVersion string: a/b/c")
        );
    }

    #[test]
    fn max_replicas_is_reworded_in_1_36() {
        let zero = hpa(0, "apps/v1", "0");
        let first = |minor| {
            refusal(&zero, None, minor)
                .unwrap()
                .lines()
                .nth(1)
                .unwrap()
                .to_string()
        };
        assert_eq!(
            first(35),
            "* spec.maxReplicas: Invalid value: 0: must be greater than 0"
        );
        assert_eq!(
            first(36),
            "* spec.maxReplicas: Required value: must be set and greater than 0"
        );
        assert!(refusal(&hpa(-2, "apps/v1", "0"), None, 36)
            .unwrap()
            .contains("spec.maxReplicas: Invalid value: -2: must be greater than or equal to 1"));
    }

    #[test]
    fn a_negative_tolerance_is_refused_once_the_gate_is_on() {
        let bad = hpa(3, "apps/v1", "-1");
        assert_eq!(cause(&bad, None, 34), None);
        assert_eq!(
            cause(&bad, None, 35).as_deref(),
            Some("spec.behavior.scaleUp.tolerance: Invalid value: \"-1\": must be greater than or equal to 0")
        );
        // Stored with a tolerance, the gate-off release keeps and checks it.
        let stored = hpa(3, "apps/v1", "1");
        assert!(cause(&bad, Some(&stored), 34).is_some());
    }
}
