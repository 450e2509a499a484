//! The `default`s of a CRD schema, as k8s.io/apiextensions-apiserver
//! pkg/apiserver/schema/defaulting/validation.go checks them (`ValidateDefaults`): each default
//! must survive pruning (`must not have unknown fields`, `pruning/algorithm.go` `Prune`) and be
//! valid against the schema of its node (kube-openapi's messages, then the node's CEL rules;
//! see [`crate::validate::crd::validate_default`]). Defaults inside type and object metadata
//! (checked upstream as the metadata they would produce) are not validated here.

use super::super::{BadValue, FieldError};
use super::crd_value_validation::sorted_properties;
use crate::kube::KubeVersion;
use crate::validate::crd::validate_default;
use crate::validate::field::{join, keyed};
use crate::value::{Map, Value};

const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

/// The non-null `default` of a node.
fn default_of(s: &Value) -> Option<&Value> {
    s.get("default").filter(|d| !d.is_null())
}

/// `ValidateDefaults` of the root schema at `at` (`….openAPIV3Schema`), which upstream treats
/// as an embedded resource. `pruned`: whether unpruned defaults are refused
/// (`requirePrunedDefaults`). Properties are visited in sorted order.
pub(super) fn check(
    root: &Value,
    at: &str,
    pruned: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    walk(root, at, true, false, pruned, version, errors);
}

#[allow(clippy::too_many_arguments)]
fn walk(
    s: &Value,
    at: &str,
    resource_root: bool,
    inside_meta: bool,
    pruned: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if s.as_map().is_none() {
        return;
    }
    let embedded = resource_root || flag(s, "x-kubernetes-embedded-resource");
    let inside_meta = inside_meta && !embedded;
    if let (Some(default), false) = (default_of(s), inside_meta) {
        let default_at = join(at, ".default");
        if pruned && prune(default, Some(s), embedded) != *default {
            errors.push(FieldError::invalid(
                default_at.as_str(),
                // `s.Default.Object`, an `interface{}`: `json.Marshal` sorts map keys.
                BadValue::Value(default.with_sorted_keys()),
                "must not have unknown fields",
            ));
        }
        for mut e in validate_default(s, default, version) {
            e.field = if e.field == "<nil>" {
                default_at.to_string()
            } else {
                format!("{default_at}.{}", e.field)
            };
            errors.push(e);
        }
    }
    // additionalProperties are not followed: defaults are forbidden there.
    if let Some(items) = s.get("items") {
        walk(
            items,
            &join(at, ".items"),
            false,
            inside_meta,
            pruned,
            version,
            errors,
        );
    }
    for (k, p) in sorted_properties(s) {
        let meta = inside_meta || (embedded && META_FIELDS.contains(&k));
        let path = keyed(&join(at, ".properties"), k);
        walk(p, &path, false, meta, pruned, version, errors);
    }
}

/// What pruning keeps of `x` under the schema `s` (`pruning.Prune`): fields the schema does
/// not specify are dropped, except under `x-kubernetes-preserve-unknown-fields` and, for an
/// embedded resource, `apiVersion`, `kind` and `metadata`.
fn prune(x: &Value, s: Option<&Value>, embedded: bool) -> Value {
    if s.is_some_and(|s| flag(s, "x-kubernetes-preserve-unknown-fields")) {
        return keep_unknown(x, s, embedded);
    }
    match x {
        Value::Map(m) => {
            let Some(s) = s else {
                return Value::Map(Map::default());
            };
            let mut out = Map::default();
            for (k, v) in m {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    out.insert(k.clone(), v.clone());
                } else if let Some(child) = child_schema(s, k) {
                    out.insert(k.clone(), prune(v, child, child_embedded(child)));
                }
            }
            Value::Map(out)
        }
        Value::List(items) => {
            let item = s.and_then(|s| s.get("items")).filter(|i| !i.is_null());
            Value::List(
                items
                    .iter()
                    .map(|v| prune(v, item, item.is_some_and(|i| child_embedded(Some(i)))))
                    .collect(),
            )
        }
        _ => x.clone(),
    }
}

fn child_embedded(s: Option<&Value>) -> bool {
    s.is_some_and(|s| flag(s, "x-kubernetes-embedded-resource"))
}

/// The schema a map's entry is pruned with: `Some(property)`, `Some(additionalProperties)`
/// (`Some(None)` for a boolean one), or `None` when the entry is dropped.
fn child_schema<'v>(s: &'v Value, key: &str) -> Option<Option<&'v Value>> {
    if let Some(p) = s.get("properties").and_then(|p| p.get(key)) {
        return Some(Some(p));
    }
    let additional = s.get("additionalProperties").filter(|a| !a.is_null())?;
    Some(additional.as_map().map(|_| additional))
}

/// `skipPrune`: under `x-kubernetes-preserve-unknown-fields` unknown fields stay, known ones
/// are pruned by their schema.
fn keep_unknown(x: &Value, s: Option<&Value>, embedded: bool) -> Value {
    let Some(s) = s else {
        return x.clone();
    };
    match x {
        Value::Map(m) => {
            let mut out = Map::default();
            for (k, v) in m {
                let kept = if embedded && META_FIELDS.contains(&k.as_str()) {
                    v.clone()
                } else if let Some(child) = child_schema(s, k) {
                    prune(v, child, child_embedded(child))
                } else {
                    v.clone()
                };
                out.insert(k.clone(), kept);
            }
            Value::Map(out)
        }
        Value::List(items) => {
            let item = s.get("items").filter(|i| !i.is_null());
            Value::List(
                items
                    .iter()
                    .map(|v| keep_unknown(v, item, child_embedded(item)))
                    .collect(),
            )
        }
        _ => x.clone(),
    }
}

/// Whether any default of a stored schema would be pruned (`schemaHasUnprunedDefaults`,
/// approximated without the object metadata coercion).
pub(super) fn has_unpruned_default(root: &Value) -> bool {
    fn walk(s: &Value, embedded: bool) -> bool {
        if s.as_map().is_none() {
            return false;
        }
        let embedded = embedded || flag(s, "x-kubernetes-embedded-resource");
        if default_of(s).is_some_and(|d| prune(d, Some(s), embedded) != *d) {
            return true;
        }
        s.get("items").is_some_and(|i| walk(i, false))
            || sorted_properties(s).iter().any(|(_, p)| walk(p, false))
    }
    walk(root, true)
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;

    fn messages(s: &str, minor: u8) -> Vec<String> {
        let v = KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", true, v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn defaults_must_not_be_pruned() {
        let s = r#"{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}},
            "default":{"a":"x","b":1}},
            "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":{"b":1}}}}"#;
        assert_eq!(
            messages(s, 37),
            [
                r#"s.properties[spec].default: Invalid value: {"a":"x","b":1}: must not have unknown fields"#
            ]
        );
        assert_eq!(
            messages(s, 33),
            [
                r#"s.properties[spec].default: Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields"#
            ]
        );
    }

    #[test]
    fn defaults_must_be_valid() {
        let s = r#"{"type":"object","properties":{"spec":{"type":"object","properties":{
            "replicas":{"type":"integer","minimum":1,"default":0},
            "mode":{"type":"string","enum":["A","B"],"default":"C"},
            "ports":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer"}}},
              "default":[{"port":"80"}]}}}}}"#;
        assert_eq!(
            messages(s, 37),
            [
                "s.properties[spec].properties[mode].default: Unsupported value: \"C\": supported values: \"A\", \"B\"",
                "s.properties[spec].properties[ports].default.[0].port: Invalid value: \"string\": [0].port in body must be of type integer: \"string\"",
                "s.properties[spec].properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1",
            ]
        );
    }

    #[test]
    fn stored_unpruned_defaults_are_found() {
        assert!(has_unpruned_default(&json(
            r#"{"type":"object","properties":{"a":{"type":"object","default":{"x":1}}}}"#
        )));
        assert!(!has_unpruned_default(&json(
            r#"{"type":"object","properties":{"a":{"type":"object","additionalProperties":{"type":"integer"},"default":{"x":1}}}}"#
        )));
    }
}
