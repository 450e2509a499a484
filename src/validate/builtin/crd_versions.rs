//! The internal `[]apiextensions.CustomResourceDefinitionVersion` as a bad value, for the
//! errors k8s.io/apiextensions-apiserver's `validateCustomResourceDefinitionSpec` reports at
//! `spec.versions` (unique names, one storage version): Go syntax (`%#v`, pointers as `0x…`)
//! before 1.34, JSON of the untagged structs since (field names as in Go).

use super::super::goprint::go_quote;
use super::super::BadValue;
use super::crd_definition::field_value;
use super::fields::{present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// From apimachinery v0.34 bad values print as JSON.
const JSON_VALUES: VersionRange = VersionRange::since(34);

/// Which per-version fields stayed in the versions (not hoisted to the top level).
pub(super) struct PerVersion {
    pub schema: bool,
    pub subresources: bool,
    pub columns: bool,
    pub selectable: bool,
}

fn b(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool) == Some(true)
}

fn s(x: &str) -> Value {
    Value::String(x.to_string())
}

fn entries(pairs: Vec<(&str, Value)>) -> Value {
    Value::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The bad value, or `None` when a version keeps its own schema and the value prints as JSON
/// (the internal JSONSchemaProps is not reproduced). `nil`: the CRD has no `versions`.
pub(super) fn versions_value(
    versions: &[Value],
    nil: bool,
    per: &PerVersion,
    version: KubeVersion,
) -> Option<BadValue> {
    // An absent list converts to a nil slice: JSON `null`, Go `…(nil)`.
    if nil {
        return Some(BadValue::GoValue {
            value: Value::Null,
            go_syntax: "[]apiextensions.CustomResourceDefinitionVersion(nil)".to_string(),
        });
    }
    let json = JSON_VALUES.contains(version);
    let mut values = Vec::new();
    let mut gos = Vec::new();
    for v in versions {
        let warning = present(v, "deprecationWarning");
        let schema = per.schema.then(|| field_value(v, "schema")).flatten();
        if json && schema.is_some() {
            return None;
        }
        let sub = per
            .subresources
            .then(|| field_value(v, "subresources"))
            .flatten();
        let cols = if per.columns {
            field_value(v, "additionalPrinterColumns")
        } else {
            None
        };
        let sub_json = sub.map_or(Value::Null, |sub| {
            let status = present(sub, "status").map_or(Value::Null, |_| entries(vec![]));
            let scale = present(sub, "scale").map_or(Value::Null, |sc| {
                entries(vec![
                    ("SpecReplicasPath", s(text(sc, "specReplicasPath"))),
                    ("StatusReplicasPath", s(text(sc, "statusReplicasPath"))),
                    (
                        "LabelSelectorPath",
                        present(sc, "labelSelectorPath").map_or(Value::Null, |p| p.clone()),
                    ),
                ])
            });
            entries(vec![("Status", status), ("Scale", scale)])
        });
        let col_list: Vec<&Value> = cols
            .and_then(Value::as_list)
            .map(|l| l.iter().collect())
            .unwrap_or_default();
        let cols_json = if cols.is_some() {
            Value::List(
                col_list
                    .iter()
                    .map(|c| {
                        entries(vec![
                            ("Name", s(text(c, "name"))),
                            ("Type", s(text(c, "type"))),
                            ("Format", s(text(c, "format"))),
                            ("Description", s(text(c, "description"))),
                            (
                                "Priority",
                                Value::Int(c.get("priority").and_then(Value::as_i64).unwrap_or(0)),
                            ),
                            ("JSONPath", s(text(c, "jsonPath"))),
                        ])
                    })
                    .collect(),
            )
        } else {
            Value::Null
        };
        let selectable = per
            .selectable
            .then(|| field_value(v, "selectableFields"))
            .flatten()
            .and_then(Value::as_list)
            .map(|l| super::crd_selectable::internal_value(l));
        let (selectable_json, selectable_go) = selectable.unwrap_or_else(|| {
            (
                Value::Null,
                "[]apiextensions.SelectableField(nil)".to_string(),
            )
        });
        values.push(entries(vec![
            ("Name", s(text(v, "name"))),
            ("Served", Value::Bool(b(v, "served"))),
            ("Storage", Value::Bool(b(v, "storage"))),
            ("Deprecated", Value::Bool(b(v, "deprecated"))),
            (
                "DeprecationWarning",
                warning.cloned().unwrap_or(Value::Null),
            ),
            ("Schema", Value::Null),
            ("Subresources", sub_json),
            ("AdditionalPrinterColumns", cols_json),
            ("SelectableFields", selectable_json),
        ]));
        let ptr = |set: bool, ty: &str| format!("({ty})({})", if set { "0x…" } else { "nil" });
        let cols_go = if cols.is_some() {
            let each: Vec<String> = col_list
                .iter()
                .map(|c| {
                    format!(
                        "apiextensions.CustomResourceColumnDefinition{{Name:{}, Type:{}, Format:{}, Description:{}, Priority:{}, JSONPath:{}}}",
                        go_quote(text(c, "name")),
                        go_quote(text(c, "type")),
                        go_quote(text(c, "format")),
                        go_quote(text(c, "description")),
                        c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                        go_quote(text(c, "jsonPath")),
                    )
                })
                .collect();
            format!(
                "[]apiextensions.CustomResourceColumnDefinition{{{}}}",
                each.join(", ")
            )
        } else {
            "[]apiextensions.CustomResourceColumnDefinition(nil)".to_string()
        };
        gos.push(format!(
            "apiextensions.CustomResourceDefinitionVersion{{Name:{}, Served:{}, Storage:{}, Deprecated:{}, DeprecationWarning:{}, Schema:{}, Subresources:{}, AdditionalPrinterColumns:{}, SelectableFields:{}}}",
            go_quote(text(v, "name")),
            b(v, "served"),
            b(v, "storage"),
            b(v, "deprecated"),
            ptr(warning.is_some(), "*string"),
            ptr(schema.is_some(), "*apiextensions.CustomResourceValidation"),
            ptr(sub.is_some(), "*apiextensions.CustomResourceSubresources"),
            cols_go,
            selectable_go,
        ));
    }
    Some(BadValue::GoValue {
        value: Value::List(values.into_iter().collect()),
        go_syntax: format!(
            "[]apiextensions.CustomResourceDefinitionVersion{{{}}}",
            gos.join(", ")
        ),
    })
}
