//! PriorityLevelConfigurations, as k8s.io/kubernetes pkg/apis/flowcontrol/validation checks them
//! (`ValidatePriorityLevelConfiguration` with the request's group version, run on create and
//! update by pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go, which from 1.30
//! allows a zero `nominalConcurrencyShares`): the v1beta3 round-trip annotation, the type and
//! its `exempt`/`limited` member, shares and percentages, the limit response and queuing.
//! `status` is cleared on create and kept on update, so it is not checked.

use super::super::{BadValue, FieldError, Write};
use super::fields::{present, spec, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// `flowcontrolv1beta3.PriorityLevelPreserveZeroConcurrencySharesKey`: dropped when a v1beta3
/// object is converted, forbidden when it arrives through v1.
const PRESERVE_ZERO_KEY: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";
/// `supportedPriorityLevelEnablement`, sorted.
const TYPES: &[&str] = &["Exempt", "Limited"];
/// `supportedLimitResponseType`, sorted.
const RESPONSE_TYPES: &[&str] = &["Queue", "Reject"];
/// `priorityLevelConfigurationQueuingMaxQueues` (10^7).
const MAX_QUEUES: i64 = 10_000_000;
/// `shufflesharding.MaxHashBits`.
const MAX_HASH_BITS: i64 = 60;
/// The v1 defaults (`SetDefaults_LimitedPriorityLevelConfiguration`,
/// `SetDefaults_QueuingConfiguration`): shares, hand size, queues, queue length.
const DEFAULT_SHARES: i64 = 30;
const DEFAULT_HAND_SIZE: i64 = 8;
const DEFAULT_QUEUES: i64 = 64;
const DEFAULT_QUEUE_LENGTH: i64 = 50;

/// An integer field, `default` when absent, `null` or 0 where the defaulter replaces a zero.
fn number(v: &Value, key: &str, default: i64, zero_is_unset: bool) -> i64 {
    match present(v, key).and_then(Value::as_i64) {
        None => default,
        Some(0) if zero_is_unset => default,
        Some(n) => n,
    }
}

fn int(n: i64) -> BadValue {
    BadValue::Value(Value::Int(n))
}

/// `ValidatePriorityLevelConfiguration` for create and update.
pub fn priority_level_configuration(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let through_v1beta3 = w.kind.gvk.version == "v1beta3";
    let has_key = object
        .get_path(&["metadata", "annotations"])
        .and_then(|a| a.get(PRESERVE_ZERO_KEY))
        .is_some();
    if has_key && !through_v1beta3 {
        errors.push(FieldError::forbidden(
            "metadata.annotations",
            format!("annotation '{PRESERVE_ZERO_KEY}' is forbidden"),
        ));
    }
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let spec = spec(object);
    let kind = text(spec, "type");
    if (name == "exempt") != (kind == "Exempt") {
        errors.push(FieldError::invalid(
            "spec.type",
            FieldError::string_value(kind),
            w.version().pick(EXEMPT_TYPE_WORDING),
        ));
    }
    match kind {
        "Exempt" => {
            if present(spec, "limited").is_some() {
                errors.push(FieldError::forbidden(
                    "spec.limited",
                    "must be nil if the type is not Limited",
                ));
            }
            if let Some(exempt) = present(spec, "exempt") {
                shares_and_lending(exempt, "spec.exempt", 0, false, w.version(), errors);
            }
        }
        "Limited" => {
            if present(spec, "exempt").is_some() {
                errors.push(FieldError::forbidden(
                    "spec.exempt",
                    "must be nil if the type is Limited",
                ));
            }
            match present(spec, "limited") {
                None => errors.push(FieldError::required(
                    "spec.limited",
                    "must not be empty when type is Limited",
                )),
                Some(limited) => self::limited(limited, through_v1beta3, w.version(), errors),
            }
        }
        "" if EMPTY_TYPE_REQUIRED.contains(w.version()) => {
            errors.push(FieldError::required("spec.type", ""))
        }
        _ => errors.push(FieldError::not_supported(
            "spec.type",
            FieldError::string_value(kind),
            TYPES,
        )),
    }
    super::flowcontrol_mandatory::priority_level(name, spec, errors);
}

/// 1.34 dropped the field name from the front of the exempt-type message.
const EXEMPT_TYPE_WORDING: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(33),
        "type must be 'Exempt' if and only if name is 'exempt'",
    ),
    (
        VersionRange::since(34),
        "must be 'Exempt' if and only if `name` is 'exempt'",
    ),
];
/// 1.36 reports an empty `spec.type` and `limitResponse.type` as `Required value` (before, the
/// unsupported empty value).
const EMPTY_TYPE_REQUIRED: VersionRange = VersionRange::since(36);

/// `nominalConcurrencyShares` ≥ 0 and `lendablePercent` within 0–100 (`limited` checks its
/// limit response between the two).
fn shares_and_lending(
    v: &Value,
    at: &str,
    default_shares: i64,
    zero_is_unset: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let shares = number(v, "nominalConcurrencyShares", default_shares, zero_is_unset);
    if shares < 0 {
        errors.push(FieldError::invalid(
            format!("{at}.nominalConcurrencyShares"),
            int(shares),
            "must be a non-negative integer",
        ));
    }
    if at == "spec.limited" {
        let response = v.get("limitResponse").unwrap_or(&Value::Null);
        limit_response(response, version, errors);
    }
    let lendable = number(v, "lendablePercent", 0, false);
    if !(0..=100).contains(&lendable) {
        errors.push(FieldError::invalid(
            format!("{at}.lendablePercent"),
            int(lendable),
            "must be between 0 and 100, inclusive",
        ));
    }
}

/// `ValidateLimitedPriorityLevelConfiguration`. Through v1beta3 a zero share count is
/// defaulted unless the round-trip annotation keeps it; only a negative one is refused either way.
fn limited(
    limited: &Value,
    through_v1beta3: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    shares_and_lending(
        limited,
        "spec.limited",
        DEFAULT_SHARES,
        through_v1beta3,
        version,
        errors,
    );
    if let Some(b) = present(limited, "borrowingLimitPercent").and_then(Value::as_i64) {
        if b < 0 {
            errors.push(FieldError::invalid(
                "spec.limited.borrowingLimitPercent",
                int(b),
                "if specified, must be a non-negative integer",
            ));
        }
    }
}

/// `ValidateLimitResponse`: queuing only, and then required, for `Queue`.
fn limit_response(response: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    const AT: &str = "spec.limited.limitResponse";
    let queuing = present(response, "queuing");
    match text(response, "type") {
        "Reject" => {
            if queuing.is_some() {
                errors.push(FieldError::forbidden(
                    format!("{AT}.queuing"),
                    "must be nil if limited.limitResponse.type is not Limited",
                ));
            }
        }
        "Queue" => match queuing {
            None => errors.push(FieldError::required(
                format!("{AT}.queuing"),
                "must not be empty if limited.limitResponse.type is Limited",
            )),
            Some(q) => self::queuing(q, errors),
        },
        "" if EMPTY_TYPE_REQUIRED.contains(version) => {
            errors.push(FieldError::required(format!("{AT}.type"), ""))
        }
        other => errors.push(FieldError::not_supported(
            format!("{AT}.type"),
            FieldError::string_value(other),
            RESPONSE_TYPES,
        )),
    }
}

/// `ValidatePriorityLevelQueuingConfiguration`: positive numbers and shuffle-sharding's
/// entropy limit.
fn queuing(q: &Value, errors: &mut Vec<FieldError>) {
    const AT: &str = "spec.limited.limitResponse.queuing";
    let length = number(q, "queueLengthLimit", DEFAULT_QUEUE_LENGTH, true);
    if length <= 0 {
        errors.push(FieldError::invalid(
            format!("{AT}.queueLengthLimit"),
            int(length),
            "must be positive",
        ));
    }
    let queues = number(q, "queues", DEFAULT_QUEUES, true);
    if queues <= 0 {
        errors.push(FieldError::invalid(
            format!("{AT}.queues"),
            int(queues),
            "must be positive",
        ));
    } else if queues > MAX_QUEUES {
        errors.push(FieldError::invalid(
            format!("{AT}.queues"),
            int(queues),
            format!("must not be greater than {MAX_QUEUES}"),
        ));
    }
    let hand = number(q, "handSize", DEFAULT_HAND_SIZE, true);
    let at = format!("{AT}.handSize");
    if hand <= 0 {
        errors.push(FieldError::invalid(at, int(hand), "must be positive"));
    } else if hand > queues {
        errors.push(FieldError::invalid(
            at,
            int(hand),
            format!("should not be greater than queues ({queues})"),
        ));
    } else if entropy_bits(queues, hand) > MAX_HASH_BITS {
        errors.push(FieldError::invalid(
            at,
            int(hand),
            format!("required entropy bits of deckSize {queues} and handSize {hand} should not be greater than {MAX_HASH_BITS}"),
        ));
    }
}

/// `shufflesharding.RequiredEntropyBits`: ⌈log2(deck) × hand⌉.
fn entropy_bits(deck: i64, hand: i64) -> i64 {
    ((deck as f64).log2() * hand as f64).ceil() as i64
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const LEVEL: &str = r#"{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration",
      "metadata":{"name":"workload-medium"},
      "spec":{"type":"Limited","limited":{"nominalConcurrencyShares":70,
        "limitResponse":{"type":"Queue","queuing":{"handSize":6,"queueLengthLimit":50,"queues":128}}}}}"#;

    #[test]
    fn a_valid_level_passes() {
        assert_eq!(refusal(LEVEL, None, 37), None);
        assert_eq!(refusal(LEVEL, Some(LEVEL), 30), None);
        let zero = LEVEL.replace(
            r#""nominalConcurrencyShares":70"#,
            r#""nominalConcurrencyShares":0"#,
        );
        assert_eq!(refusal(&zero, None, 30), None);
        let exempt = r#"{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration",
          "metadata":{"name":"exempt"},"spec":{"type":"Exempt","exempt":{"lendablePercent":10}}}"#;
        assert_eq!(refusal(exempt, None, 37), None);
    }

    #[test]
    fn shares_percentages_and_queuing() {
        let bad = LEVEL
            .replace(
                "70,",
                r#"-1,"lendablePercent":101,"borrowingLimitPercent":-5,"#,
            )
            .replace(r#""handSize":6"#, r#""handSize":200"#)
            .replace(r#""queueLengthLimit":50"#, r#""queueLengthLimit":-1"#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                "spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive",
                "spec.limited.limitResponse.queuing.handSize: Invalid value: 200: should not be greater than queues (128)",
                "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
                "spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer",
            ]
        );
        let entropy = LEVEL
            .replace(r#""handSize":6"#, r#""handSize":9"#)
            .replace("128", "1000");
        assert_eq!(
            refusal_causes(&entropy, None, 37),
            ["spec.limited.limitResponse.queuing.handSize: Invalid value: 9: required entropy bits of deckSize 1000 and handSize 9 should not be greater than 60"]
        );
        let many = LEVEL.replace("128", "10000001");
        assert_eq!(
            refusal_causes(&many, None, 37),
            [
                "spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000",
                "spec.limited.limitResponse.queuing.handSize: Invalid value: 6: required entropy bits of deckSize 10000001 and handSize 6 should not be greater than 60",
            ]
        );
    }

    #[test]
    fn type_and_members() {
        let reject = LEVEL.replace(r#""type":"Queue""#, r#""type":"Reject""#);
        assert_eq!(
            refusal_causes(&reject, None, 37),
            ["spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited"]
        );
        let exempt_named = LEVEL.replace("workload-medium", "exempt");
        // The name also makes it the mandatory `exempt` level, whose spec is fixed.
        assert_eq!(
            refusal_causes(&exempt_named, None, 37),
            [
                "spec.type: Invalid value: \"Limited\": must be 'Exempt' if and only if `name` is 'exempt'",
                "spec: Invalid value: {\"Type\":\"Limited\",\"Limited\":{\"NominalConcurrencyShares\":70,\"LimitResponse\":{\"Type\":\"Queue\",\"Queuing\":{\"Queues\":128,\"HandSize\":6,\"QueueLengthLimit\":50}},\"LendablePercent\":0,\"BorrowingLimitPercent\":null},\"Exempt\":null}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
            ]
        );
        let both = LEVEL.replace(
            r#""type":"Limited","#,
            r#""type":"Exempt","exempt":{"nominalConcurrencyShares":-2},"#,
        );
        assert_eq!(
            refusal_causes(&both, None, 37),
            [
                "spec.type: Invalid value: \"Exempt\": must be 'Exempt' if and only if `name` is 'exempt'",
                "spec.limited: Forbidden: must be nil if the type is not Limited",
                "spec.exempt.nominalConcurrencyShares: Invalid value: -2: must be a non-negative integer",
            ]
        );
        let unknown = LEVEL.replace(r#""type":"Limited""#, r#""type":"Queued""#);
        assert_eq!(
            refusal_causes(&unknown, None, 37),
            ["spec.type: Unsupported value: \"Queued\": supported values: \"Exempt\", \"Limited\""]
        );
    }

    #[test]
    fn the_round_trip_annotation_is_for_v1beta3_only() {
        let annotated = LEVEL.replace(
            r#""name":"workload-medium""#,
            r#""name":"workload-medium","annotations":{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares":"true"}"#,
        );
        assert_eq!(
            refusal_causes(&annotated, None, 37),
            ["metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden"]
        );
        let v1beta3 = annotated.replace("/v1\"", "/v1beta3\"");
        assert_eq!(refusal(&v1beta3, None, 31), None);
    }
}
