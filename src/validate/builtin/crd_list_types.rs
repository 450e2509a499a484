//! The `x-kubernetes-list-type`, `x-kubernetes-list-map-keys` and `x-kubernetes-map-type`
//! rules of a CRD schema node, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go checks them in
//! `ValidateCustomResourceDefinitionOpenAPISchema` and `validateMapListKeysMapSet`.

use super::super::{BadValue, FieldError};
use super::fields::text;
use crate::validate::field::{join, keyed};
use crate::validate::goprint::go_quote;
use crate::value::Value;

/// Which of the rules an update still applies: upstream does not tighten them for a stored
/// CRD that already breaks them (`requireAtomicSetType`, `requireMapListKeysMapSetValidation`).
#[derive(Clone, Copy)]
pub(super) struct ListRules {
    pub atomic_sets: bool,
    pub map_keys_required: bool,
}

fn string_list(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_list)
        .map(|l| l.iter().map(|x| x.as_str().unwrap_or("")).collect())
        .unwrap_or_default()
}

/// A `*string` extension as the bad value prints it (`ErrorBody` dereferences pointers; a nil
/// one prints as `"null"` before 1.34, `null` since).
fn pointer_value(v: Option<&Value>) -> BadValue {
    match v.and_then(Value::as_str) {
        Some(s) => FieldError::string_value(s),
        None => BadValue::Value(Value::Null),
    }
}

/// The list-map keys as the bad value prints them (`[]string`).
fn keys_value(keys: &[&str]) -> BadValue {
    let quoted: Vec<String> = keys.iter().map(|k| go_quote(k)).collect();
    BadValue::GoValue {
        value: Value::List(keys.iter().map(|k| Value::from(*k)).collect()),
        go_syntax: format!("[]string{{{}}}", quoted.join(", ")),
    }
}

/// The list and map type rules of the node `s` at `at`, in upstream's order.
pub(super) fn check(s: &Value, at: &str, rules: ListRules, errors: &mut Vec<FieldError>) {
    let kind = text(s, "type");
    let type_at = join(at, ".type");
    let map_type = s.get("x-kubernetes-map-type").filter(|v| !v.is_null());
    let list_type = s.get("x-kubernetes-list-type").filter(|v| !v.is_null());
    let must_be = |expected: &str, detail: &str, errors: &mut Vec<FieldError>| {
        if kind != expected {
            errors.push(if kind.is_empty() {
                FieldError::required(type_at.as_str(), detail)
            } else {
                FieldError::invalid(type_at.as_str(), FieldError::string_value(kind), detail)
            });
        }
    };
    if let Some(mt) = map_type {
        must_be(
            "object",
            "must be object if x-kubernetes-map-type is specified",
            errors,
        );
        let mt = mt.as_str().unwrap_or("");
        if mt != "atomic" && mt != "granular" {
            errors.push(FieldError::not_supported(
                join(at, ".x-kubernetes-map-type"),
                FieldError::string_value(mt),
                &["atomic", "granular"],
            ));
        }
    }
    let lt = list_type.map(|v| v.as_str().unwrap_or(""));
    let items = s.get("items").filter(|i| i.as_map().is_some());
    if lt.is_some() && kind != "array" {
        must_be(
            "array",
            "must be array if x-kubernetes-list-type is specified",
            errors,
        );
    } else if rules.atomic_sets && lt == Some("set") {
        if let Some(is) = items {
            set_items(is, at, errors);
        }
    }
    if let Some(lt) = lt.filter(|t| !["atomic", "set", "map"].contains(t)) {
        errors.push(FieldError::not_supported(
            join(at, ".x-kubernetes-list-type"),
            FieldError::string_value(lt),
            &["atomic", "set", "map"],
        ));
    }
    let keys = string_list(s.get("x-kubernetes-list-map-keys"));
    let list_type_at = join(at, ".x-kubernetes-list-type");
    let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
    match lt {
        _ if keys.is_empty() => {}
        None => errors.push(FieldError::required(list_type_at.as_str(), detail)),
        Some("map") => {}
        Some(other) => errors.push(FieldError::invalid(
            list_type_at.as_str(),
            FieldError::string_value(other),
            detail,
        )),
    }
    if lt == Some("map") {
        map_list(s, items, &keys, at, errors);
    }
    if rules.map_keys_required {
        map_keys_required(items, lt, &keys, at, errors);
    }
}

/// The items of a set must be atomic: scalars, atomic lists, atomic maps.
fn set_items(is: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
    let item_list_type = is.get("x-kubernetes-list-type").filter(|v| !v.is_null());
    let atomic_map = is.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
    let field = match text(is, "type") {
        "array" if item_list_type.is_some_and(|t| t.as_str() != Some("atomic")) => {
            ".items.x-kubernetes-list-type"
        }
        "object" if !atomic_map => ".items.x-kubernetes-map-type",
        _ => return,
    };
    // Upstream quotes the items' list type for both, not their map type.
    errors.push(FieldError::invalid(
        join(at, field),
        pointer_value(item_list_type),
        detail,
    ));
}

/// `x-kubernetes-list-type: map`: keys, an object items schema, scalar key properties.
fn map_list(
    s: &Value,
    items: Option<&Value>,
    keys: &[&str],
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    let keys_at = join(at, ".x-kubernetes-list-map-keys");
    if keys.is_empty() {
        errors.push(FieldError::required(
            keys_at.as_str(),
            "must not be empty if x-kubernetes-list-type is map",
        ));
    }
    if s.get("items").is_none_or(Value::is_null) {
        errors.push(FieldError::required(
            join(at, ".items"),
            "must have a schema if x-kubernetes-list-type is map",
        ));
    }
    // A list of item schemas is refused with the internal type printed: not reproduced.
    let Some(is) = items else { return };
    let item_type = text(is, "type");
    if item_type != "object" {
        errors.push(FieldError::invalid(
            join(at, ".items.type"),
            FieldError::string_value(item_type),
            "must be object if parent array's x-kubernetes-list-type is map",
        ));
        return;
    }
    let props = is.get("properties").and_then(Value::as_map);
    let mut seen: Vec<&str> = Vec::new();
    for k in keys {
        match props.and_then(|p| p.get(k)) {
            Some(p) => {
                if matches!(text(p, "type"), "array" | "object") {
                    // Upstream quotes the items' type ("object"), not the key property's.
                    errors.push(FieldError::invalid(
                        join(&keyed(&join(at, ".items.properties"), k), ".type"),
                        FieldError::string_value(item_type),
                        "must be a scalar type if parent array's x-kubernetes-list-type is map",
                    ));
                }
            }
            None => errors.push(FieldError::invalid(
                keys_at.as_str(),
                keys_value(keys),
                "entries must all be names of item properties",
            )),
        }
        if seen.contains(k) {
            errors.push(FieldError::invalid(
                keys_at.as_str(),
                keys_value(keys),
                "must not contain duplicate entries",
            ));
        }
        seen.push(k);
    }
}

/// `validateMapListKeysMapSet`: set and map items not nullable, map keys required or
/// defaulted and not nullable.
fn map_keys_required(
    items: Option<&Value>,
    lt: Option<&str>,
    keys: &[&str],
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    let (Some(is), Some(lt)) = (items, lt) else {
        return;
    };
    if lt != "set" && lt != "map" {
        return;
    }
    if is.get("nullable").and_then(Value::as_bool) == Some(true) {
        errors.push(FieldError::forbidden(
            join(at, ".items.nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt != "map" {
        return;
    }
    let required = string_list(is.get("required"));
    let props = is.get("properties").and_then(Value::as_map);
    for k in keys {
        let Some(p) = props.and_then(|m| m.get(k)) else {
            continue;
        };
        let prop_at = keyed(&join(at, ".items.properties"), k);
        if !required.contains(k) && p.get("default").is_none_or(Value::is_null) {
            errors.push(FieldError::required(
                join(&prop_at, ".default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.get("nullable").and_then(Value::as_bool) == Some(true) {
            errors.push(FieldError::forbidden(
                join(&prop_at, ".nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}

/// Whether a stored schema node already breaks the set-items rule (`hasNonAtomicSetType`).
pub(super) fn non_atomic_set(s: &Value) -> bool {
    let mut errors = Vec::new();
    if text(s, "x-kubernetes-list-type") == "set" {
        if let Some(is) = s.get("items").filter(|i| i.as_map().is_some()) {
            set_items(is, "", &mut errors);
        }
    }
    !errors.is_empty()
}

/// Whether a stored schema node already breaks `validateMapListKeysMapSet`.
pub(super) fn invalid_map_keys(s: &Value) -> bool {
    let mut errors = Vec::new();
    let items = s.get("items").filter(|i| i.as_map().is_some());
    let lt = s.get("x-kubernetes-list-type").and_then(Value::as_str);
    let keys = string_list(s.get("x-kubernetes-list-map-keys"));
    map_keys_required(items, lt, &keys, "", &mut errors);
    !errors.is_empty()
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;
    use crate::kube::KubeVersion;

    const ALL: ListRules = ListRules {
        atomic_sets: true,
        map_keys_required: true,
    };

    fn messages(s: &str, minor: u8) -> Vec<String> {
        let v = KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", ALL, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn map_lists_need_keys_that_are_scalar_required_properties() {
        assert_eq!(
            messages(
                r#"{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","port","x"],
                    "items":{"type":"object","required":["name"],"properties":{"name":{"type":"object"},"port":{"type":"integer"}}}}"#,
                37
            ),
            [
                "s.items.properties[name].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map",
                "s.x-kubernetes-list-map-keys: Invalid value: [\"name\",\"port\",\"x\"]: entries must all be names of item properties",
                "s.items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ]
        );
        assert_eq!(
            messages(
                r#"{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","a"],
                    "items":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}}"#,
                30
            ),
            ["s.x-kubernetes-list-map-keys: Invalid value: []string{\"a\", \"a\"}: must not contain duplicate entries"]
        );
    }

    #[test]
    fn list_and_map_types_need_the_right_type_and_values() {
        assert_eq!(
            messages(
                r#"{"type":"object","x-kubernetes-list-type":"sets","x-kubernetes-map-type":"granula"}"#,
                37
            ),
            [
                "s.x-kubernetes-map-type: Unsupported value: \"granula\": supported values: \"atomic\", \"granular\"",
                "s.type: Invalid value: \"object\": must be array if x-kubernetes-list-type is specified",
                "s.x-kubernetes-list-type: Unsupported value: \"sets\": supported values: \"atomic\", \"set\", \"map\"",
            ]
        );
        assert_eq!(
            messages(r#"{"type":"array","items":{"type":"string"},"x-kubernetes-list-map-keys":["a"]}"#, 37),
            ["s.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty"]
        );
    }

    #[test]
    fn set_items_must_be_atomic() {
        let granular =
            r#"{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}}"#;
        assert_eq!(
            messages(granular, 37),
            ["s.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"]
        );
        assert_eq!(
            messages(granular, 33),
            ["s.items.x-kubernetes-map-type: Invalid value: \"null\": must be atomic as item of a list with x-kubernetes-list-type=set"]
        );
        assert!(non_atomic_set(&json(granular)));
        let nullable = r#"{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","nullable":true}}"#;
        assert_eq!(
            messages(nullable, 37),
            ["s.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set"]
        );
        assert!(invalid_map_keys(&json(nullable)));
    }
}
