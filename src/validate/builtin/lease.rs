//! Leases (coordination.k8s.io), as k8s.io/kubernetes pkg/apis/coordination/validation checks
//! them (`ValidateLease`, `ValidateLeaseUpdate`, `ValidateLeaseSpec`,
//! `ValidateCoordinatedLeaseStrategy`) after the strategy's preparation
//! (pkg/registry/coordination/lease/strategy.go): `strategy` and `preferredHolder` (1.31–)
//! are dropped while CoordinatedLeaderElection is off, which it is by default in every
//! release kssa knows (alpha 1.31, beta off by default from 1.33), unless the stored Lease
//! already has them.

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::{present, spec};
use crate::kube::KubeVersion;
use crate::value::Value;

/// `validLeaseStrategies`.
const STRATEGIES: &[&str] = &["OldestEmulationVersion"];

/// `ValidateLease` / `ValidateLeaseUpdate` (the same spec rules).
pub fn lease(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let old_spec = w.live.map(self::spec);
    if let Some(n) = present(spec, "leaseDurationSeconds").and_then(Value::as_i64) {
        if n <= 0 {
            errors.push(FieldError::invalid(
                "spec.leaseDurationSeconds",
                BadValue::Value(Value::Int(n)),
                "must be greater than 0",
            ));
        }
    }
    if let Some(n) = present(spec, "leaseTransitions").and_then(Value::as_i64) {
        if n < 0 {
            errors.push(FieldError::invalid(
                "spec.leaseTransitions",
                BadValue::Value(Value::Int(n)),
                "must be greater than or equal to 0",
            ));
        }
    }
    // Kept only when the stored Lease has the field (`PrepareForUpdate`).
    let kept = |key: &str| {
        old_spec
            .and_then(|o| present(o, key))
            .and(present(spec, key))
            .and_then(Value::as_str)
    };
    let strategy = kept("strategy");
    if let Some(strategy) = strategy {
        coordinated_strategy(strategy, w.version(), errors);
    }
    let preferred = kept("preferredHolder");
    if preferred.is_some_and(|p| !p.is_empty()) && strategy.is_none_or(str::is_empty) {
        errors.push(FieldError::forbidden(
            "spec.preferredHolder",
            "may only be specified if `strategy` is defined",
        ));
    }
}

/// `ValidateCoordinatedLeaseStrategy`, given `spec.strategy` as its path: its errors land at
/// `spec.strategy.strategy`.
fn coordinated_strategy(strategy: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    const AT: &str = "spec.strategy.strategy";
    if !strategy.contains('/') {
        if !STRATEGIES.contains(&strategy) {
            errors.push(FieldError::not_supported(
                AT,
                FieldError::string_value(strategy),
                STRATEGIES,
            ));
        }
        return;
    }
    // `IsQualifiedName`, worded per release.
    for msg in formats::label_key(strategy, version) {
        errors.push(FieldError::invalid(
            AT,
            FieldError::string_value(strategy),
            msg,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const LEASE: &str = r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease",
      "metadata":{"name":"example","namespace":"default"},
      "spec":{"holderIdentity":"12","leaseDurationSeconds":60,"leaseTransitions":123}}"#;

    #[test]
    fn a_valid_lease_passes() {
        assert!(refusal_causes(LEASE, None, 37).is_empty());
        assert!(refusal_causes(LEASE, Some(LEASE), 30).is_empty());
    }

    #[test]
    fn durations_are_positive_and_transitions_not_negative() {
        let bad = LEASE.replace(":60", ":0").replace(":123", ":-1");
        for minor in [30, 33, 37] {
            assert_eq!(
                refusal_causes(&bad, None, minor),
                [
                    "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
                    "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
                ]
            );
        }
    }

    #[test]
    fn strategy_fields_are_dropped_unless_stored() {
        let with = LEASE.replace(
            r#""holderIdentity":"12""#,
            r#""holderIdentity":"12","strategy":"Newest","preferredHolder":"b""#,
        );
        assert!(refusal_causes(&with, None, 37).is_empty());
        let stored = LEASE.replace(
            r#""holderIdentity":"12""#,
            r#""holderIdentity":"12","strategy":"OldestEmulationVersion","preferredHolder":"a""#,
        );
        assert!(refusal_causes(&stored, Some(&stored), 37).is_empty());
        assert_eq!(
            refusal_causes(&with, Some(&stored), 37),
            ["spec.strategy.strategy: Unsupported value: \"Newest\": supported values: \"OldestEmulationVersion\""]
        );
    }
}
