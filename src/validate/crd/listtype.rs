//! Duplicates in `x-kubernetes-list-type: set` and `map` lists of a custom resource
//! (apiextensions `pkg/apiserver/schema/listtype/validation.go`, `ValidateListSetsAndMaps`).

use super::schema::SchemaNode;
use super::structural::pruned_null;
use crate::validate::field::{indexed, keyed};
use crate::validate::field::{BadValue, ErrorType, FieldError};
use crate::value::{Map, Value};

/// The duplicate set items and map-list keys anywhere in `object`.
pub fn validate_lists(root: &SchemaNode, object: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Value::Map(m) = object {
        walk_map(root, m, "", &mut errors);
    }
    errors
}

fn walk_map(node: &SchemaNode, m: &Map, path: &str, errors: &mut Vec<FieldError>) {
    // Additional properties first, then declared ones, as the reference visits them.
    if let Some(additional) = node.additional_properties.as_deref() {
        for (k, v) in m.iter().filter(|(k, _)| !node.properties.contains_key(*k)) {
            walk(additional, v, &keyed(path, k), errors);
        }
    }
    for (k, v) in m {
        if let Some(property) = node.properties.get(k) {
            if !pruned_null(node, k, v) {
                walk(property, v, &child(path, k), errors);
            }
        }
    }
}

fn child(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_string(),
        false => format!("{path}.{key}"),
    }
}

fn walk(node: &SchemaNode, v: &Value, path: &str, errors: &mut Vec<FieldError>) {
    match v {
        Value::Map(m) => walk_map(node, m, path, errors),
        Value::List(items) => {
            match node.list_type.as_deref() {
                Some("set") => {
                    for i in duplicate_indices(items) {
                        errors.push(duplicate(path, i, BadValue::Value(items[i].clone())));
                    }
                }
                Some("map") => map_list(node, items, path, errors),
                _ => {}
            }
            if let Some(item_schema) = node.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    walk(item_schema, item, &indexed(path, i), errors);
                }
            }
        }
        _ => {}
    }
}

fn duplicate(path: &str, index: usize, value: BadValue) -> FieldError {
    FieldError::new(ErrorType::Duplicate, indexed(path, index), value, "")
}

/// The index of the second occurrence of each value that occurs more than once.
fn duplicate_indices(items: &[Value]) -> Vec<usize> {
    let mut seen: Vec<(&Value, usize)> = Vec::new();
    let mut indices = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match seen.iter_mut().find(|(v, _)| same_item(v, item)) {
            Some((_, times)) => {
                *times += 1;
                if *times == 2 {
                    indices.push(i);
                }
            }
            None => seen.push((item, 1)),
        }
    }
    indices
}

/// Items compare as Go's map keys (scalars) or their JSON (compounds): `1` and `1.0` differ.
fn same_item(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        (Value::Map(_) | Value::List(_), _) => {
            crate::value::to_json_string(&a.with_sorted_keys())
                == crate::value::to_json_string(&b.with_sorted_keys())
        }
        _ => a == b,
    }
}

fn map_list(node: &SchemaNode, items: &[Value], path: &str, errors: &mut Vec<FieldError>) {
    if let Some(i) = items
        .iter()
        .position(|x| !x.is_null() && x.as_map().is_none())
    {
        errors.push(FieldError::new(
            ErrorType::Invalid,
            indexed(path, i),
            BadValue::Value(items[i].clone()),
            "must be an object for an array of list-type map",
        ));
        return;
    }
    if items.len() <= 1 {
        return;
    }
    // Each item's key: the key fields it has (a missing one is left out).
    let keys: Vec<Value> = items
        .iter()
        .map(|x| {
            let key: Map = node
                .list_map_keys
                .iter()
                .filter_map(|k| x.get(k).map(|v| (k.clone(), v.clone())))
                .collect();
            Value::Map(key)
        })
        .collect();
    for i in duplicate_indices(&keys) {
        errors.push(duplicate(path, i, BadValue::Value(keys[i].clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_map_duplicates() {
        let s = SchemaNode::parse(
            &serde_yaml::from_str(
                "type: object
properties:
  spec:
    type: object
    properties:
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
",
            )
            .unwrap(),
        );
        let obj: Value = serde_yaml::from_str(
            "spec: {tags: [a, b, a, a], ports: [{name: http, port: 80}, {name: http, port: 81}]}",
        )
        .unwrap();
        let errs = validate_lists(&s, &obj);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["spec.tags[2]", "spec.ports[1]"]);
        assert_eq!(errs[0].bad_value, BadValue::Value(Value::from("a")));
        let v33 = crate::kube::KubeVersion::new(33).unwrap();
        assert_eq!(
            errs[1].message(v33),
            r#"spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}"#
        );
    }
}
