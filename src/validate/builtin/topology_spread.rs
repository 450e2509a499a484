//! Pod topology spread constraints, as k8s.io/kubernetes pkg/apis/core/validation
//! `validateTopologySpreadConstraints` checks them: skew, topology key, the unsatisfiable
//! action, repeated pairs, `minDomains`, node inclusion policies, label keys, the selector.

use super::super::{BadValue, FieldError};
use super::affinity::{label_keys_rules, label_name};
use super::fields::{items, present, text};
use super::pod_options::PodOptions;
use super::selector;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `supportedScheduleActions`, sorted.
const ACTIONS: &[&str] = &["DoNotSchedule", "ScheduleAnyway"];
/// `supportedPodTopologySpreadNodePolicies`, sorted.
const NODE_POLICIES: &[&str] = &["Honor", "Ignore"];

/// Before MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on by default from 1.34), a
/// `matchLabelKeys` key may not appear in the selector at all
/// (`ValidateMatchLabelKeysInTopologySpread`, the "legacy" rules). From 1.34 the server merges
/// the keys into a Pod's selector (`kube::pod_label_keys`) and checks them as an affinity
/// term's (`ValidateMatchLabelKeysAndMismatchLabelKeys`), unless the stored pod breaks those
/// rules: then the legacy ones (`validateTopologySpreadConstraints`' switch).
const LEGACY_MATCH_LABEL_KEYS: VersionRange = VersionRange::until(33);

/// `validateTopologySpreadConstraints` of the pod spec at `path`, with what `opts` allows.
pub fn constraints(
    spec: &Value,
    path: &str,
    opts: &PodOptions,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let list = items(spec.get("topologySpreadConstraints"));
    for (i, c) in list.iter().enumerate() {
        let at = format!("{path}.topologySpreadConstraints[{i}]");
        let max_skew = c.get("maxSkew").and_then(Value::as_i64).unwrap_or(0);
        if max_skew <= 0 {
            errors.push(FieldError::invalid(
                join(&at, ".maxSkew"),
                BadValue::Value(Value::Int(max_skew)),
                "must be greater than zero",
            ));
        }
        let key = text(c, "topologyKey");
        if key.is_empty() {
            errors.push(FieldError::required(
                join(&at, ".topologyKey"),
                "can not be empty",
            ));
        }
        let action = text(c, "whenUnsatisfiable");
        if !ACTIONS.contains(&action) {
            errors.push(FieldError::not_supported(
                join(&at, ".whenUnsatisfiable"),
                FieldError::string_value(action),
                ACTIONS,
            ));
        }
        // `ValidateSpreadConstraintNotRepeat`: against the constraints after this one.
        let repeated = list[i + 1..]
            .iter()
            .any(|o| text(o, "topologyKey") == key && text(o, "whenUnsatisfiable") == action);
        if repeated {
            errors.push(FieldError::duplicate(
                format!("{at}.{{topologyKey, whenUnsatisfiable}}"),
                FieldError::string_value(&format!("{{{key}, {action}}}")),
            ));
        }
        if let Some(min) = present(c, "minDomains") {
            let min = min.as_i64().unwrap_or(0);
            let field = join(&at, ".minDomains");
            if min <= 0 {
                errors.push(FieldError::invalid(
                    &field,
                    BadValue::Value(Value::Int(min)),
                    "must be greater than zero",
                ));
            }
            if action != "DoNotSchedule" {
                errors.push(FieldError::invalid(
                    &field,
                    BadValue::Value(Value::Int(min)),
                    format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                    ),
                ));
            }
        }
        for policy in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(p) = present(c, policy) {
                let p = p.as_str().unwrap_or("");
                if !NODE_POLICIES.contains(&p) {
                    errors.push(FieldError::not_supported(
                        format!("{at}.{policy}"),
                        FieldError::string_value(p),
                        NODE_POLICIES,
                    ));
                }
            }
        }
        if LEGACY_MATCH_LABEL_KEYS.contains(version) || opts.old_violates_match_label_keys {
            legacy_match_label_keys(c, &join(&at, ".matchLabelKeys"), version, errors);
        } else {
            merged_match_label_keys(c, &at, version, errors);
        }
        if let Some(s) = present(c, "labelSelector") {
            let at = join(&at, ".labelSelector");
            selector::validate_with(s, &at, opts.spread_selector_values, version, errors);
        }
    }
}

/// Whether the stored pod spec breaks the `matchLabelKeys` rules of 1.34 and later
/// (`hasInvalidTopologySpreadConstrainMatchLabelKeys`, `OldPodViolatesMatchLabelKeysValidation`:
/// the new spec's keys then get the legacy rules). Until 1.33 the legacy rules apply anyway.
pub fn violates_match_label_keys(spec: &Value, version: KubeVersion) -> bool {
    if LEGACY_MATCH_LABEL_KEYS.contains(version) {
        return false;
    }
    let mut errors = Vec::new();
    for c in items(spec.get("topologySpreadConstraints")) {
        merged_match_label_keys(c, "", version, &mut errors);
    }
    !errors.is_empty()
}

/// The rules of 1.34 and later for the constraint at `path`.
fn merged_match_label_keys(
    c: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let keys: Vec<&str> = items(c.get("matchLabelKeys"))
        .iter()
        .map(|k| k.as_str().unwrap_or(""))
        .collect();
    label_keys_rules(
        &keys,
        &[],
        present(c, "labelSelector"),
        path,
        version,
        errors,
    );
}

/// `ValidateMatchLabelKeysInTopologySpread` at `path` (`….matchLabelKeys`): label names, only
/// with a selector, none the selector uses.
fn legacy_match_label_keys(
    c: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let keys = items(c.get("matchLabelKeys"));
    if keys.is_empty() {
        return;
    }
    let mut used: HashSet<&str> = HashSet::new();
    match present(c, "labelSelector") {
        Some(s) => {
            if let Some(m) = s.get("matchLabels").and_then(Value::as_map) {
                used.extend(m.keys().map(String::as_str));
            }
            used.extend(
                items(s.get("matchExpressions"))
                    .iter()
                    .map(|e| text(e, "key")),
            );
        }
        None => errors.push(FieldError::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        )),
    }
    for (i, key) in keys.iter().enumerate() {
        let key = key.as_str().unwrap_or("");
        let at = indexed(path, i);
        label_name(key, &at, version, errors);
        if used.contains(key) {
            errors.push(FieldError::invalid(
                at,
                FieldError::string_value(key),
                "exists in both matchLabelKeys and labelSelector",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(spec: &str, minor: u8) -> Vec<String> {
        messages_of(spec, minor, |spec, v, errors| {
            constraints(spec, "spec", &PodOptions::of(spec, None, v), v, errors)
        })
    }

    #[test]
    fn skew_key_action_and_repeats() {
        let spec = r#"{"topologySpreadConstraints":[
            {"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},
            {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},
            {"maxSkew":1,"topologyKey":"","whenUnsatisfiable":"Never"}]}"#;
        assert_eq!(
            messages(spec, 37),
            [
                "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
                "spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\"",
                "spec.topologySpreadConstraints[2].topologyKey: Required value: can not be empty",
                "spec.topologySpreadConstraints[2].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
            ]
        );
    }

    #[test]
    fn min_domains_and_policies() {
        let spec = r#"{"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
            "whenUnsatisfiable":"ScheduleAnyway","minDomains":0,"nodeTaintsPolicy":"Always"}]}"#;
        assert_eq!(
            messages(spec, 37),
            [
                "spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero",
                "spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
                "spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: \"Always\": supported values: \"Honor\", \"Ignore\"",
            ]
        );
    }

    #[test]
    fn match_label_keys_in_the_selector_are_refused_until_1_33() {
        let spec = r#"{"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
            "whenUnsatisfiable":"DoNotSchedule","matchLabelKeys":["app"],
            "labelSelector":{"matchLabels":{"app":"web"}}}]}"#;
        assert_eq!(
            messages(spec, 33),
            ["spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"]
        );
        assert!(messages(spec, 34).is_empty());
        let no_selector = r#"{"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
            "whenUnsatisfiable":"DoNotSchedule","matchLabelKeys":["pod-template-hash"]}]}"#;
        assert_eq!(
            messages(no_selector, 37),
            ["spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"]
        );
    }
}
