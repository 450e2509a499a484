//! Pod tolerations, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidateTolerations`, `validateTaintEffect`) and, on a Pod update, `validateOnlyAddedTolerations`.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::text;
use super::selector::semantic_eq;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::validate::goprint::go_quote;
use crate::value::Value;

/// `core.TaintEffect` values in the server's order.
pub(super) const EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];
const OPERATORS: &[&str] = &["Equal", "Exists"];
/// From 1.35 `Lt` and `Gt` have their own case: refused unless TaintTolerationComparisonOperators
/// (alpha, off by default) allows them, listing all four operators.
const COMPARISON_OPERATORS: VersionRange = VersionRange::since(35);
const OPERATORS_WITH_COMPARISONS: &[&str] = &["Equal", "Exists", "Lt", "Gt"];
/// Until 1.31 an `Exists` toleration with a value quotes the whole toleration; 1.32's
/// `ValidateTolerations` passes `toleration.Value`.
const EXISTS_QUOTES_TOLERATION: VersionRange = VersionRange::until(31);

/// `%#v` of the internal `core.Toleration`; a set `tolerationSeconds` prints as a pointer whose
/// address kssa cannot know.
fn toleration_struct(t: &Value) -> BadValue {
    let seconds = match t.get("tolerationSeconds") {
        Some(v) if !v.is_null() => "(*int64)(0xc000000000)",
        _ => "(*int64)(nil)",
    };
    let field = |k: &str| go_quote(text(t, k));
    BadValue::GoValue {
        value: t.clone(),
        go_syntax: format!(
            "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:{seconds}}}",
            field("key"),
            field("operator"),
            field("value"),
            field("effect")
        ),
    }
}

/// `ValidateTolerations` at `path` (`spec.tolerations`).
pub fn tolerations(list: &[Value], path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    for (i, t) in list.iter().enumerate() {
        let at = indexed(path, i);
        let (key, operator, value, effect) = (
            text(t, "key"),
            text(t, "operator"),
            text(t, "value"),
            text(t, "effect"),
        );
        if !key.is_empty() {
            // `ValidateLabelName`
            for msg in formats::label_key(key, version) {
                errors.push(FieldError::invalid(
                    join(&at, ".key"),
                    FieldError::string_value(key),
                    msg,
                ));
            }
        }
        if key.is_empty() && operator != "Exists" {
            errors.push(FieldError::invalid(
                join(&at, ".operator"),
                FieldError::string_value(operator),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.get("tolerationSeconds").is_some_and(|s| !s.is_null()) && effect != "NoExecute" {
            errors.push(FieldError::invalid(
                join(&at, ".effect"),
                FieldError::string_value(effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match operator {
            "Equal" | "" => {
                let msgs = formats::label_value(value, version);
                if !msgs.is_empty() {
                    errors.push(FieldError::invalid(
                        join(&at, ".operator"),
                        FieldError::string_value(value),
                        msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    let bad = if EXISTS_QUOTES_TOLERATION.contains(version) {
                        toleration_struct(t)
                    } else {
                        FieldError::string_value(value)
                    };
                    errors.push(FieldError::invalid(
                        join(&at, ".operator"),
                        bad,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => {
                let comparison =
                    matches!(other, "Lt" | "Gt") && COMPARISON_OPERATORS.contains(version);
                errors.push(FieldError::not_supported(
                    join(&at, ".operator"),
                    FieldError::string_value(other),
                    if comparison {
                        OPERATORS_WITH_COMPARISONS
                    } else {
                        OPERATORS
                    },
                ))
            }
        }
        if !effect.is_empty() && !EFFECTS.contains(&effect) {
            errors.push(FieldError::not_supported(
                join(&at, ".effect"),
                FieldError::string_value(effect),
                EFFECTS,
            ));
        }
    }
}

/// `validateOnlyAddedTolerations`: every old toleration is still there, up to its
/// `tolerationSeconds`; then the new list is validated again.
pub fn only_added(
    new: &[Value],
    old: &[Value],
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let without_seconds = |t: &Value| {
        let mut t = t.clone();
        if let Some(m) = t.as_map_mut() {
            m.shift_remove("tolerationSeconds");
        }
        t
    };
    for o in old {
        let o = without_seconds(o);
        if !new
            .iter()
            .any(|n| semantic_eq(Some(&o), Some(&without_seconds(n))))
        {
            errors.push(FieldError::forbidden(
                path,
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            return;
        }
    }
    tolerations(new, path, version, errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(list: &str) -> Vec<String> {
        messages_of(list, 37, |list, v, errors| {
            tolerations(list.as_list().unwrap(), "spec.tolerations", v, errors)
        })
    }

    #[test]
    fn exists_takes_no_value_and_seconds_need_no_execute() {
        assert_eq!(
            messages(r#"[{"key":"gpu","operator":"Exists","value":"true","effect":"NoSchedule","tolerationSeconds":60}]"#),
            [
                "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
                "spec.tolerations[0].operator: Invalid value: \"true\": value must be empty when `operator` is 'Exists'",
            ]
        );
        let old = messages_of(
            r#"[{"key":"gpu","operator":"Exists","value":"true","effect":"NoExecute"}]"#,
            31,
            |list, v, errors| tolerations(list.as_list().unwrap(), "spec.tolerations", v, errors),
        );
        assert_eq!(
            old,
            ["spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"gpu\", Operator:\"Exists\", Value:\"true\", Effect:\"NoExecute\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"]
        );
    }

    #[test]
    fn operators_and_effects_are_enums() {
        assert_eq!(
            messages(r#"[{"key":"a","operator":"In","effect":"NoRun"}]"#),
            [
                "spec.tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
                "spec.tolerations[0].effect: Unsupported value: \"NoRun\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
            ]
        );
        assert_eq!(
            messages(r#"[{"operator":"Equal","value":"x"}]"#),
            ["spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""]
        );
    }

    #[test]
    fn comparison_operators_are_listed_from_1_35() {
        let messages = |minor| {
            messages_of(
                r#"[{"key":"a","operator":"Gt","value":"1"}]"#,
                minor,
                |l, v, e| tolerations(l.as_list().unwrap(), "spec.tolerations", v, e),
            )
        };
        assert_eq!(
            messages(34),
            ["spec.tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\""]
        );
        assert_eq!(
            messages(35),
            ["spec.tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\", \"Lt\", \"Gt\""]
        );
    }
}
