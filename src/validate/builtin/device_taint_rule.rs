//! DeviceTaintRules (resource.k8s.io, served by default from 1.37 as v1), as
//! k8s.io/kubernetes pkg/apis/resource/validation checks them (`ValidateDeviceTaintRule`,
//! `ValidateDeviceTaintRuleUpdate`, `validateDeviceTaintRuleSpec`): the device selector's
//! names and the taint, whose effect is checked on create and when it changes.

use super::super::{FieldError, Write};
use super::fields::{present, spec, text};
use super::{affinity, dra_claim, dra_slice};
use crate::value::Value;

/// `ValidateDeviceTaintRule`, or on update `ValidateDeviceTaintRuleUpdate` (the same spec
/// rules given the stored spec).
pub fn device_taint_rule(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let spec = spec(object);
    // `validateDeviceTaintSelector`: each name checked when set.
    if let Some(selector) = present(spec, "deviceSelector") {
        if let Some(driver) = present(selector, "driver").and_then(Value::as_str) {
            dra_claim::driver_name(driver, "spec.deviceSelector.driver", version, errors);
        }
        if let Some(pool) = present(selector, "pool").and_then(Value::as_str) {
            dra_slice::pool_name(pool, "spec.deviceSelector.pool", version, errors);
        }
        if let Some(device) = present(selector, "device").and_then(Value::as_str) {
            dra_claim::dns_label(device, "spec.deviceSelector.device", errors);
        }
    }
    // `validateDeviceTaint`.
    static NULL: Value = Value::Null;
    let taint = present(spec, "taint").unwrap_or(&NULL);
    affinity::label_name(text(taint, "key"), "spec.taint.key", version, errors);
    let value = text(taint, "value");
    if !value.is_empty() {
        dra_claim::label_value(value, "spec.taint.value", version, errors);
    }
    let effect = text(taint, "effect");
    let old_effect = w
        .live
        .map(|old| text(present(self::spec(old), "taint").unwrap_or(&NULL), "effect"));
    if old_effect != Some(effect) {
        dra_claim::taint_effect(effect, "spec.taint.effect", true, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const RULE: &str = r#"{"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule",
      "metadata":{"name":"example"},
      "spec":{"deviceSelector":{"driver":"dra.example.com","pool":"node-1","device":"gpu-0"},
        "taint":{"key":"dra.example.com/unhealthy","value":"power","effect":"NoExecute"}}}"#;

    #[test]
    fn a_valid_rule_passes() {
        assert!(refusal_causes(RULE, None, 37).is_empty());
        assert!(refusal_causes(RULE, Some(RULE), 37).is_empty());
    }

    #[test]
    fn selector_names_and_the_taint() {
        let bad = RULE
            .replace(r#""device":"gpu-0""#, r#""device":"GPU_0""#)
            .replace(r#""effect":"NoExecute""#, r#""effect":"Evict""#)
            .replace(r#""key":"dra.example.com/unhealthy""#, r#""key":"""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.deviceSelector.device: Invalid value: \"GPU_0\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.taint.key: Invalid value: \"\": name part must be non-empty",
                "spec.taint.key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "spec.taint.effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"",
            ]
        );
    }

    #[test]
    fn an_unchanged_effect_is_not_checked_again() {
        let odd = RULE.replace(r#""effect":"NoExecute""#, r#""effect":"Evict""#);
        assert!(refusal_causes(&odd, Some(&odd), 37).is_empty());
        assert_eq!(
            refusal_causes(&odd, Some(RULE), 37),
            ["spec.taint.effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", \"NoSchedule\", \"None\""]
        );
    }
}
