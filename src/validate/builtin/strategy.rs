//! The update strategies of Deployments, DaemonSets and StatefulSets and the StatefulSet fields
//! around them (claim retention policy, ordinals), as k8s.io/kubernetes
//! pkg/apis/apps/validation/validation.go checks them after defaulting.

use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::fields::{present, text};
use super::policy::{quoted_int_or_string, PERCENT_MSG};
use super::workloads::non_negative;
use crate::validate::field::join;
use crate::value::{Map, Value};

/// `MaxUnavailableStatefulSet` is off by default in every release of the latest patches (alpha
/// from 1.24, beta and off from 1.35: kubernetes#137904 in 1.36.0 and #137926 in 1.35.4 turned
/// the 1.35.0 default off; pkg/features/kube_features.go of 1.35.6 and 1.36.3). While it is off,
/// the StatefulSet strategy drops `maxUnavailable` before validation
/// (`dropStatefulSetDisabledFields`) unless the stored object already uses it.
const MAX_UNAVAILABLE_STATEFULSET_ON: bool = false;

/// `ValidatePositiveIntOrPercent`: an integer ≥ 0 or a `[0-9]+%` string.
fn positive_int_or_percent(v: &Value, path: &str, errors: &mut Vec<FieldError>) {
    match v {
        Value::String(s) if !is_percent(s) => {
            errors.push(FieldError::invalid(
                path,
                quoted_int_or_string(v),
                PERCENT_MSG,
            ));
        }
        Value::Int(n) if *n < 0 => errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(*n)),
            "must be greater than or equal to 0",
        )),
        _ => {}
    }
}

/// `IsNotMoreThan100Percent`: a valid percentage above 100.
fn not_more_than_100_percent(v: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(p) = percent(v) {
        if p > 100 {
            errors.push(FieldError::invalid(
                path,
                quoted_int_or_string(v),
                "must not be greater than 100%",
            ));
        }
    }
}

fn is_percent(s: &str) -> bool {
    s.strip_suffix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `getPercentValue`: the number of a valid percentage.
fn percent(v: &Value) -> Option<i64> {
    let s = v.as_str().filter(|s| is_percent(s))?;
    // Go's Atoi fails (0) past int64; such a percentage is over 100 all the same.
    Some(s[..s.len() - 1].parse().unwrap_or(i64::MAX))
}

/// `getIntOrPercentValue`: the percentage, else `IntValue()` (a string goes through Atoi, 0 when
/// it is not a number).
fn int_or_percent_value(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Int(n)) => *n,
        Some(s @ Value::String(text)) => percent(s).unwrap_or_else(|| text.parse().unwrap_or(0)),
        _ => 0,
    }
}

/// An `intstr.IntOrString` field of an internal struct, as its JSON: absent is the zero value
/// (`0`) when the field is not a pointer, `null` when it is.
fn int_or_string_json(v: Option<&Value>, pointer: bool) -> Value {
    match v {
        Some(v) if !v.is_null() => v.clone(),
        _ if pointer => Value::Null,
        _ => Value::Int(0),
    }
}

/// A strategy struct the server quotes whole (`%#v` before 1.34, JSON of the untagged internal
/// struct since): `Type`, then `RollingUpdate` (a pointer: its address is unknowable, `0x…`).
fn quoted_strategy(
    go_type: &str,
    rolling_type: &str,
    kind: &str,
    rolling: Option<Value>,
) -> BadValue {
    let mut value = Map::default();
    value.insert("Type".into(), Value::from(kind));
    let address = if rolling.is_some() { "0x…" } else { "nil" };
    value.insert("RollingUpdate".into(), rolling.unwrap_or(Value::Null));
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax: format!(
            "{go_type}{{Type:{}, RollingUpdate:(*{rolling_type})({address})}}",
            go_quote(kind)
        ),
    }
}

/// The internal `RollingUpdateDeployment` / `RollingUpdateDaemonSet` as JSON.
fn rolling_json(rolling: &Value) -> Value {
    let mut m = Map::default();
    for (go, key) in [
        ("MaxUnavailable", "maxUnavailable"),
        ("MaxSurge", "maxSurge"),
    ] {
        m.insert(go.into(), int_or_string_json(present(rolling, key), false));
    }
    Value::Map(m)
}

/// `ValidateDeploymentStrategy` and `ValidateRollingUpdateDeployment` at `spec.strategy`.
pub fn deployment(spec: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let strategy = present(spec, "strategy").unwrap_or(&empty);
    let rolling = present(strategy, "rollingUpdate");
    match text(strategy, "type") {
        "Recreate" => {
            if rolling.is_some() {
                errors.push(FieldError::forbidden(
                    "spec.strategy.rollingUpdate",
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match rolling {
            None => errors.push(FieldError::required(
                "spec.strategy.rollingUpdate",
                "this should be defaulted and never be nil",
            )),
            Some(r) => {
                let path = "spec.strategy.rollingUpdate";
                let (mu, ms) = (present(r, "maxUnavailable"), present(r, "maxSurge"));
                let mu_path = join(path, ".maxUnavailable");
                if let Some(v) = mu {
                    positive_int_or_percent(v, &mu_path, errors);
                }
                if let Some(v) = ms {
                    positive_int_or_percent(v, &join(path, ".maxSurge"), errors);
                }
                if int_or_percent_value(mu) == 0 && int_or_percent_value(ms) == 0 {
                    errors.push(FieldError::invalid(
                        &mu_path,
                        quoted_int_or_string(&int_or_string_json(mu, false)),
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
                if let Some(v) = mu {
                    not_more_than_100_percent(v, &mu_path, errors);
                }
            }
        },
        other => errors.push(FieldError::not_supported(
            "spec.strategy",
            quoted_strategy(
                "apps.DeploymentStrategy",
                "apps.RollingUpdateDeployment",
                other,
                rolling.map(rolling_json),
            ),
            &["Recreate", "RollingUpdate"],
        )),
    }
}

/// `ValidateRollback` of the deprecated `spec.rollbackTo` (extensions/v1beta1 and apps/v1beta1
/// only); the server names the path `spec.rollback.version`.
pub fn rollback(spec: &Value, errors: &mut Vec<FieldError>) {
    if let Some(r) = present(spec, "rollbackTo") {
        non_negative(r.get("revision"), "spec.rollback.version", errors);
    }
}

/// `ValidateDaemonSetUpdateStrategy` and `ValidateRollingUpdateDaemonSet` at
/// `spec.updateStrategy`.
pub fn daemon_set(spec: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let strategy = present(spec, "updateStrategy").unwrap_or(&empty);
    let rolling = present(strategy, "rollingUpdate");
    let path = "spec.updateStrategy";
    match text(strategy, "type") {
        "OnDelete" => {}
        "RollingUpdate" => {
            let Some(r) = rolling else {
                errors.push(FieldError::required(join(path, ".rollingUpdate"), ""));
                return;
            };
            let (mu, ms) = (present(r, "maxUnavailable"), present(r, "maxSurge"));
            let mu_path = join(path, ".rollingUpdate.maxUnavailable");
            let ms_path = join(path, ".rollingUpdate.maxSurge");
            for (v, p) in [(mu, &mu_path), (ms, &ms_path)] {
                if let Some(v) = v {
                    positive_int_or_percent(v, p, errors);
                }
            }
            for (v, p) in [(mu, &mu_path), (ms, &ms_path)] {
                if let Some(v) = v {
                    not_more_than_100_percent(v, p, errors);
                }
            }
            let has_unavailable = int_or_percent_value(mu) != 0;
            let has_surge = int_or_percent_value(ms) != 0;
            if has_unavailable && has_surge {
                errors.push(FieldError::invalid(
                    &ms_path,
                    quoted_int_or_string(&int_or_string_json(ms, false)),
                    "may not be set when maxUnavailable is non-zero",
                ));
            } else if !has_unavailable && !has_surge {
                errors.push(FieldError::required(
                    &mu_path,
                    "cannot be 0 when maxSurge is 0",
                ));
            }
        }
        other => errors.push(FieldError::not_supported(
            path,
            quoted_strategy(
                "apps.DaemonSetUpdateStrategy",
                "apps.RollingUpdateDaemonSet",
                other,
                rolling.map(rolling_json),
            ),
            &["RollingUpdate", "OnDelete"],
        )),
    }
}

/// The StatefulSet's `maxUnavailable` as validation sees it: dropped while the feature gate is
/// off, unless the stored object uses it (`maxUnavailableInUse`).
fn stateful_max_unavailable<'v>(w: &Write, rolling: &'v Value) -> Option<&'v Value> {
    let in_use = w
        .live
        .and_then(|old| {
            old.get_path(&["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"])
        })
        .is_some_and(|v| !v.is_null());
    present(rolling, "maxUnavailable").filter(|_| MAX_UNAVAILABLE_STATEFULSET_ON || in_use)
}

/// The internal `RollingUpdateStatefulSetStrategy` as JSON (`Partition` an int32,
/// `MaxUnavailable` a pointer), with the Go syntax releases before 1.34 print.
fn quoted_stateful_rolling(partition: i64, max_unavailable: Option<&Value>) -> BadValue {
    let mut m = Map::default();
    m.insert("Partition".into(), Value::Int(partition));
    m.insert(
        "MaxUnavailable".into(),
        int_or_string_json(max_unavailable, true),
    );
    let address = if max_unavailable.is_some() {
        "0x…"
    } else {
        "nil"
    };
    BadValue::GoValue {
        value: Value::Map(m),
        go_syntax: format!(
            "apps.RollingUpdateStatefulSetStrategy{{Partition:{partition}, MaxUnavailable:(*intstr.IntOrString)({address})}}"
        ),
    }
}

/// `ValidateStatefulSetSpec`'s update strategy (with `validateRollingUpdateStatefulSet`), then
/// `ValidatePersistentVolumeClaimRetentionPolicy`.
pub fn stateful_set(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let strategy = present(spec, "updateStrategy").unwrap_or(&empty);
    let rolling = present(strategy, "rollingUpdate");
    let path = "spec.updateStrategy";
    let partition = |r: &Value| r.get("partition").and_then(Value::as_i64).unwrap_or(0);
    match text(strategy, "type") {
        "" => errors.push(FieldError::required(path, "")),
        "OnDelete" => {
            if let Some(r) = rolling {
                errors.push(FieldError::invalid(
                    join(path, ".rollingUpdate"),
                    quoted_stateful_rolling(partition(r), stateful_max_unavailable(w, r)),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(r) = rolling {
                non_negative(
                    r.get("partition"),
                    &join(path, ".rollingUpdate.partition"),
                    errors,
                );
                if let Some(mu) = stateful_max_unavailable(w, r) {
                    let mu_path = join(path, ".rollingUpdate.maxUnavailable");
                    positive_int_or_percent(mu, &mu_path, errors);
                    if int_or_percent_value(Some(mu)) == 0 {
                        errors.push(FieldError::invalid(
                            &mu_path,
                            quoted_int_or_string(mu),
                            "cannot be 0",
                        ));
                    }
                    not_more_than_100_percent(mu, &mu_path, errors);
                }
            }
        }
        other => {
            let quoted_rolling = rolling.map(|r| {
                let mut m = Map::default();
                m.insert("Partition".into(), Value::Int(partition(r)));
                m.insert(
                    "MaxUnavailable".into(),
                    int_or_string_json(stateful_max_unavailable(w, r), true),
                );
                Value::Map(m)
            });
            let value = quoted_strategy(
                "apps.StatefulSetUpdateStrategy",
                "apps.RollingUpdateStatefulSetStrategy",
                other,
                quoted_rolling,
            );
            errors.push(FieldError::invalid(
                path,
                value,
                "must be 'RollingUpdate' or 'OnDelete'",
            ));
        }
    }
    if let Some(policy) = present(spec, "persistentVolumeClaimRetentionPolicy") {
        for key in ["whenDeleted", "whenScaled"] {
            let value = text(policy, key);
            if !matches!(value, "Retain" | "Delete") {
                errors.push(FieldError::not_supported(
                    format!("spec.persistentVolumeClaimRetentionPolicy.{key}"),
                    FieldError::string_value(value),
                    &["Retain", "Delete"],
                ));
            }
        }
    }
}

/// `ValidateStatefulSetSpec`: `spec.ordinals.start` ≥ 0.
pub fn ordinals(spec: &Value, errors: &mut Vec<FieldError>) {
    if let Some(o) = present(spec, "ordinals") {
        let start = o.get("start").cloned().unwrap_or(Value::Int(0));
        non_negative(Some(&start), "spec.ordinals.start", errors);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","namespace":"default"},
      "spec":{"selector":{"matchLabels":{"app":"web"}},STRATEGY
        "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

    fn deployment(strategy: &str) -> String {
        DEPLOYMENT.replace("STRATEGY", &format!(r#""strategy":{strategy},"#))
    }

    #[test]
    fn recreate_forbids_a_rolling_update() {
        let d = deployment(r#"{"type":"Recreate","rollingUpdate":{"maxSurge":1}}"#);
        assert_eq!(
            refusal(&d, None, 37).unwrap(),
            "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
        );
        assert_eq!(
            refusal(&deployment(r#"{"type":"Recreate"}"#), None, 37),
            None
        );
    }

    #[test]
    fn deployment_strategy_type_is_an_enum_quoting_the_struct() {
        let d = deployment(r#"{"type":"BlueGreen"}"#);
        assert_eq!(
            refusal(&d, None, 37).unwrap(),
            "The Deployment \"web\" is invalid: spec.strategy: Unsupported value: {\"Type\":\"BlueGreen\",\"RollingUpdate\":null}: supported values: \"Recreate\", \"RollingUpdate\""
        );
        assert_eq!(
            refusal(&d, None, 33).unwrap(),
            "The Deployment \"web\" is invalid: spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:\"BlueGreen\", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: \"Recreate\", \"RollingUpdate\""
        );
    }

    #[test]
    fn deployment_rolling_update_numbers() {
        let both_zero = deployment(r#"{"rollingUpdate":{"maxUnavailable":0,"maxSurge":"0%"}}"#);
        assert_eq!(
            refusal(&both_zero, None, 37).unwrap(),
            "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"
        );
        let bad = deployment(r#"{"rollingUpdate":{"maxUnavailable":"150%","maxSurge":"x"}}"#);
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The Deployment \"web\" is invalid: \n* spec.strategy.rollingUpdate.maxSurge: Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')\n* spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%"
        );
        let negative = deployment(r#"{"rollingUpdate":{"maxUnavailable":-1}}"#);
        assert_eq!(
            refusal(&negative, None, 30).unwrap(),
            "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"
        );
        // Defaulted to 25% each.
        assert_eq!(refusal(&deployment("{}"), None, 37), None);
    }

    const DAEMONSET: &str = r#"{"apiVersion":"apps/v1","kind":"DaemonSet",
      "metadata":{"name":"agent","namespace":"default"},
      "spec":{"selector":{"matchLabels":{"app":"agent"}},"updateStrategy":STRATEGY,
        "template":{"metadata":{"labels":{"app":"agent"}},
          "spec":{"containers":[{"name":"agent","image":"agent:1"}]}}}}"#;

    #[test]
    fn daemonset_update_strategy() {
        let ds = |s: &str| DAEMONSET.replace("STRATEGY", s);
        assert_eq!(
            refusal(&ds(r#"{"type":"Always"}"#), None, 37).unwrap(),
            "The DaemonSet \"agent\" is invalid: spec.updateStrategy: Unsupported value: {\"Type\":\"Always\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\""
        );
        // maxUnavailable defaults to 1.
        assert_eq!(
            refusal(&ds(r#"{"rollingUpdate":{"maxSurge":1}}"#), None, 37).unwrap(),
            "The DaemonSet \"agent\" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"
        );
        assert_eq!(
            refusal(&ds(r#"{"rollingUpdate":{"maxUnavailable":0}}"#), None, 37).unwrap(),
            "The DaemonSet \"agent\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"
        );
        assert_eq!(
            refusal(
                &ds(r#"{"rollingUpdate":{"maxUnavailable":0,"maxSurge":"10%"}}"#),
                None,
                37
            ),
            None
        );
        assert_eq!(refusal(&ds(r#"{"type":"OnDelete"}"#), None, 37), None);
    }

    const STATEFULSET: &str = r#"{"apiVersion":"apps/v1","kind":"StatefulSet",
      "metadata":{"name":"db","namespace":"default"},
      "spec":{"selector":{"matchLabels":{"app":"db"}},"serviceName":"db",EXTRA
        "template":{"metadata":{"labels":{"app":"db"}},
          "spec":{"containers":[{"name":"db","image":"postgres:17"}]}}}}"#;

    fn sts(extra: &str) -> String {
        STATEFULSET.replace("EXTRA", extra)
    }

    #[test]
    fn statefulset_update_strategy() {
        assert_eq!(
            refusal(&sts(r#""updateStrategy":{"rollingUpdate":{"partition":-1}},"#), None, 37).unwrap(),
            "The StatefulSet \"db\" is invalid: spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"
        );
        let on_delete =
            sts(r#""updateStrategy":{"type":"OnDelete","rollingUpdate":{"partition":2}},"#);
        assert_eq!(
            refusal(&on_delete, None, 37).unwrap(),
            "The StatefulSet \"db\" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":2,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'"
        );
        assert_eq!(
            refusal(&on_delete, None, 33).unwrap(),
            "The StatefulSet \"db\" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"
        );
        assert_eq!(
            refusal(&sts(r#""updateStrategy":{"type":"Rolling"},"#), None, 37).unwrap(),
            "The StatefulSet \"db\" is invalid: spec.updateStrategy: Invalid value: {\"Type\":\"Rolling\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'"
        );
    }

    #[test]
    fn statefulset_max_unavailable_is_checked_only_when_stored() {
        let zero = sts(r#""updateStrategy":{"rollingUpdate":{"maxUnavailable":0}},"#);
        for minor in [34, 35, 36, 37] {
            assert_eq!(refusal(&zero, None, minor), None);
        }
        // The gate is off, but a stored `maxUnavailable` is kept and checked.
        let one = sts(r#""updateStrategy":{"rollingUpdate":{"maxUnavailable":1}},"#);
        let msg = refusal(&zero, Some(&one), 36).unwrap();
        assert!(
            msg.contains(
                "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"
            ),
            "{msg}"
        );
    }

    #[test]
    fn statefulset_retention_policy_and_ordinals() {
        let bad = sts(
            r#""persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Keep"},"ordinals":{"start":-2},"#,
        );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The StatefulSet \"db\" is invalid: \n* spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\"\n* spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0"
        );
        assert_eq!(refusal(&sts(""), None, 37), None);
    }
}
