//! Label selectors as validation sees them: apimachinery's `ValidateLabelSelector`, the
//! selector a `metav1.LabelSelector` converts to (`LabelSelectorAsSelector`) and whether it
//! matches a set of labels, and the semantic equality immutability checks use.

use super::super::field::typed_value;
use super::super::goprint::{label_selector_json, GoType};
use super::super::{formats, BadValue, FieldError};
use super::fields::text;
use super::meta;
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::{Map, Value};

/// `ValidateLabelSelector` (strict: label values in expressions are checked).
pub fn validate(selector: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    validate_with(selector, path, Values::Checked, version, errors);
}

/// Whether `ValidateLabelSelector` checks the label values of expressions
/// (`LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector`, which an update sets when
/// the stored selector already broke a rule). Keys, operators and `matchLabels` are checked
/// either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    Checked,
    InvalidAllowed,
}

impl Values {
    /// `InvalidAllowed` when `stored_invalid`, the ratcheting rule every caller applies.
    pub fn allowing_invalid_if(stored_invalid: bool) -> Values {
        if stored_invalid {
            Values::InvalidAllowed
        } else {
            Values::Checked
        }
    }
}

/// The rule a DaemonSet or Job update applies to its selector's expression values
/// (`metav1validation.LabelSelectorHasInvalidLabelValue` of the stored selector, in the
/// strategies' `ValidateUpdate`): a stored value that is no label value lifts the check.
pub fn values_after(stored: Option<&Value>, version: KubeVersion) -> Values {
    let invalid_value = stored
        .and_then(|s| s.get("matchExpressions"))
        .and_then(Value::as_list)
        .is_some_and(|exprs| {
            exprs.iter().any(|e| {
                e.get("values").and_then(Value::as_list).is_some_and(|vs| {
                    vs.iter().any(|v| {
                        !super::super::formats::label_value(v.as_str().unwrap_or(""), version)
                            .is_empty()
                    })
                })
            })
        });
    Values::allowing_invalid_if(invalid_value)
}

/// Whether the strict `ValidateLabelSelector` refuses `selector` (the stored one, when an
/// update decides whether to allow invalid label values).
pub fn is_invalid(selector: &Value, version: KubeVersion) -> bool {
    let mut errors = Vec::new();
    validate(selector, "", version, &mut errors);
    !errors.is_empty()
}

/// `ValidateLabelSelector` with the label values of expressions checked or not.
pub fn validate_with(
    selector: &Value,
    path: &str,
    values_rule: Values,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    meta::labels(
        selector.get("matchLabels"),
        &join(path, ".matchLabels"),
        version,
        errors,
    );
    let Some(Value::List(exprs)) = selector.get("matchExpressions") else {
        return;
    };
    for (i, expr) in exprs.iter().enumerate() {
        let at = format!("{path}.matchExpressions[{i}]");
        let values = expr.get("values").and_then(Value::as_list);
        let has_values = values.is_some_and(|v| !v.is_empty());
        match text(expr, "operator") {
            "In" | "NotIn" if !has_values => errors.push(FieldError::required(
                join(&at, ".values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if has_values => errors.push(FieldError::forbidden(
                join(&at, ".values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errors.push(FieldError::invalid(
                join(&at, ".operator"),
                FieldError::string_value(other),
                "not a valid selector operator",
            )),
        }
        let key = text(expr, "key");
        for msg in super::super::formats::label_key(key, version) {
            errors.push(FieldError::invalid(
                join(&at, ".key"),
                FieldError::string_value(key),
                msg,
            ));
        }
        if values_rule == Values::InvalidAllowed {
            continue;
        }
        for (j, v) in values.into_iter().flatten().enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in super::super::formats::label_value(v, version) {
                errors.push(FieldError::invalid(
                    format!("{at}.values[{j}]"),
                    FieldError::string_value(v),
                    msg,
                ));
            }
        }
    }
}

/// Whether `labels.NewRequirement` accepts the key and values (apimachinery
/// pkg/labels/selector.go `validateLabelKey`, `validateLabelValue`): an invalid one makes
/// `LabelSelectorAsSelector` fail. Validity does not depend on the release, only wording does.
fn valid_requirement(key: &str, values: &[&str]) -> bool {
    let any = KubeVersion::new(37).expect("an embedded version");
    formats::label_key(key, any).is_empty()
        && values
            .iter()
            .all(|v| formats::label_value(v, any).is_empty())
}

/// What `LabelSelectorAsSelector` makes of a selector.
pub enum Selector<'v> {
    /// `nil`: selects nothing (`labels.Nothing()`), which is not empty.
    Nothing,
    /// No requirement: selects everything (`labels.Everything()`), empty.
    Everything,
    /// The requirements; `None` when the selector does not convert (an unknown operator).
    Requirements(Option<Vec<Requirement<'v>>>),
}

pub struct Requirement<'v> {
    key: &'v str,
    operator: &'v str,
    values: Vec<&'v str>,
}

impl<'v> Selector<'v> {
    pub fn of(selector: Option<&'v Value>) -> Selector<'v> {
        let Some(selector) = selector.filter(|s| !s.is_null()) else {
            return Selector::Nothing;
        };
        let mut reqs = Vec::new();
        if let Some(Value::Map(labels)) = selector.get("matchLabels") {
            for (k, v) in labels {
                if !valid_requirement(k, &[v.as_str().unwrap_or("")]) {
                    return Selector::Requirements(None);
                }
                reqs.push(Requirement {
                    key: k,
                    operator: "In",
                    values: vec![v.as_str().unwrap_or("")],
                });
            }
        }
        if let Some(Value::List(exprs)) = selector.get("matchExpressions") {
            for e in exprs {
                let operator = text(e, "operator");
                let values: Vec<&str> = e
                    .get("values")
                    .and_then(Value::as_list)
                    .into_iter()
                    .flatten()
                    .map(|v| v.as_str().unwrap_or(""))
                    .collect();
                let convertible = match operator {
                    "In" | "NotIn" => !values.is_empty(),
                    "Exists" | "DoesNotExist" => values.is_empty(),
                    _ => false,
                };
                if !convertible || !valid_requirement(text(e, "key"), &values) {
                    return Selector::Requirements(None);
                }
                reqs.push(Requirement {
                    key: text(e, "key"),
                    operator,
                    values,
                });
            }
        }
        if reqs.is_empty() {
            Selector::Everything
        } else {
            Selector::Requirements(Some(reqs))
        }
    }

    /// The selector converted (`LabelSelectorAsSelector` returned no error).
    pub fn converts(&self) -> bool {
        !matches!(self, Selector::Requirements(None))
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    pub fn matches(&self, labels: Option<&Value>) -> bool {
        let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
        match self {
            Selector::Nothing | Selector::Requirements(None) => false,
            Selector::Everything => true,
            Selector::Requirements(Some(reqs)) => reqs.iter().all(|r| match r.operator {
                "In" => get(r.key).is_some_and(|v| r.values.contains(&v)),
                "NotIn" => get(r.key).is_none_or(|v| !r.values.contains(&v)),
                "Exists" => get(r.key).is_some(),
                _ => get(r.key).is_none(),
            }),
        }
    }
}

/// `apiequality.Semantic.DeepEqual` of two values: a missing field, `null`, an empty list and
/// an empty map are all the zero value.
pub fn semantic_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    fn zero(v: Option<&Value>) -> bool {
        match v {
            None | Some(Value::Null) => true,
            Some(Value::List(l)) => l.is_empty(),
            Some(Value::Map(m)) => m.is_empty(),
            _ => false,
        }
    }
    match (a, b) {
        (Some(Value::Map(x)), Some(Value::Map(y))) => {
            let keys = x.keys().chain(y.keys());
            keys.into_iter()
                .all(|k| semantic_eq(x.get(k.as_str()), y.get(k.as_str())))
        }
        (Some(Value::List(x)), Some(Value::List(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(Some(p), Some(q)))
        }
        _ if zero(a) && zero(b) => true,
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// A label selector as the server quotes it (`*metav1.LabelSelector`, dereferenced).
pub fn quoted(selector: Option<&Value>) -> BadValue {
    match selector {
        None | Some(Value::Null) => BadValue::Value(Value::Null),
        Some(s) => typed_value(label_selector_json(s), &GoType::LabelSelector),
    }
}

/// A label map as the server quotes it (`map[string]string`, keys sorted).
pub fn quoted_labels(labels: Option<&Value>) -> BadValue {
    let value = match labels {
        Some(Value::Map(m)) => Value::Map(m.clone()).with_sorted_keys(),
        _ => Value::Map(Map::default()),
    };
    match labels {
        Some(Value::Map(_)) => typed_value(value, &GoType::StringMap),
        // A nil map: Go prints `map[string]string(nil)`, JSON `null`.
        _ => BadValue::GoValue {
            value: Value::Null,
            go_syntax: "map[string]string(nil)".into(),
        },
    }
}
