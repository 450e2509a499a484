//! The structural-schema invariants of a CRD's `openAPIV3Schema`, as
//! k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation.go checks them
//! (`ValidateStructural`, `validateStructuralInvariants`, `validateExtensions`,
//! `validateStructuralMetadataInvariants`), which `validateCustomResourceDefinitionValidation`
//! runs first. Only the invariants of the structure itself are checked; value validations
//! (`anyOf`, `allOf`, …: `validateValueValidation`, `validateStructuralCompleteness`), defaults
//! and the OpenAPI rules of `ValidateCustomResourceDefinitionOpenAPISchema` are not.

use super::super::{BadValue, FieldError, Write};
use super::fields::{present, text};
use crate::validate::field::{join, keyed};
use crate::value::Value;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// The invariants of `root` at `at` (`….openAPIV3Schema`), sorted by message as upstream
/// sorts them. Nothing is reported for a schema `NewStructural` would not convert (`$ref`,
/// a list of `items`), whose errors come from elsewhere.
pub fn check(w: &Write, root: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if !convertible(root) {
        return;
    }
    let mut found = Vec::new();
    invariants(root, Level::Root, at, &mut found);
    let version = w.version();
    found.sort_by_cached_key(|e| e.message(version));
    errors.extend(found);
}

fn convertible(s: &Value) -> bool {
    let Some(map) = s.as_map() else {
        return true;
    };
    if map.contains_key("$ref") || matches!(s.get("items"), Some(Value::List(_))) {
        return false;
    }
    map.iter().all(|(_, v)| match v {
        Value::Map(_) => convertible(v),
        Value::List(l) => l.iter().all(convertible),
        _ => true,
    })
}

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

fn properties(s: &Value) -> Vec<(&str, &Value)> {
    s.get("properties")
        .and_then(Value::as_map)
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

fn bool_value(b: bool) -> BadValue {
    BadValue::Value(Value::Bool(b))
}

/// `validateStructuralInvariants` of one node and its children.
fn invariants(s: &Value, lvl: Level, at: &str, errors: &mut Vec<FieldError>) {
    // A null schema decodes as the empty one.
    if !s.is_null() && s.as_map().is_none() {
        return;
    }
    let kind = text(s, "type");
    let items = present(s, "items");
    if kind == "array" && items.is_none() {
        errors.push(FieldError::required(
            join(at, ".items"),
            "must be specified",
        ));
    }
    if let Some(items) = items {
        invariants(items, Level::Item, &join(at, ".items"), errors);
    }
    let props = properties(s);
    for (k, v) in &props {
        invariants(v, Level::Field, &keyed(&join(at, ".properties"), k), errors);
    }
    let additional = present(s, "additionalProperties").filter(|a| !matches!(a, Value::Bool(_)));
    let additional_set = present(s, "additionalProperties")
        .is_some_and(|a| a.as_bool() != Some(false))
        || additional.is_some();
    if additional_set && lvl == Level::Root {
        errors.push(FieldError::forbidden(
            join(at, ".additionalProperties"),
            "must not be used at the root",
        ));
    }
    if let Some(a) = additional {
        invariants(a, Level::Field, &join(at, ".additionalProperties"), errors);
    }
    let int_or_string = flag(s, "x-kubernetes-int-or-string");
    let preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(s, "x-kubernetes-embedded-resource");
    if int_or_string && preserve {
        errors.push(FieldError::invalid(
            join(at, ".x-kubernetes-preserve-unknown-fields"),
            bool_value(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if int_or_string && embedded {
        errors.push(FieldError::invalid(
            join(at, ".x-kubernetes-embedded-resource"),
            bool_value(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    let type_at = join(at, ".type");
    if embedded && kind != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        if kind.is_empty() {
            errors.push(FieldError::required(type_at.as_str(), detail));
        } else {
            errors.push(FieldError::invalid(
                type_at.as_str(),
                FieldError::string_value(kind),
                detail,
            ));
        }
    } else if kind.is_empty() && !int_or_string && !preserve {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errors.push(FieldError::required(type_at.as_str(), detail));
    }
    if embedded && additional_set {
        errors.push(FieldError::forbidden(
            join(at, ".additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !kind.is_empty() && kind != "object" {
        errors.push(FieldError::invalid(
            type_at.as_str(),
            FieldError::string_value(kind),
            "must be object at the root",
        ));
    }
    let check_metadata = lvl == Level::Root || embedded;
    let props_at = join(at, ".properties");
    for key in ["kind", "apiVersion"] {
        if let Some((_, p)) = props.iter().find(|(k, _)| *k == key) {
            let t = text(p, "type");
            if check_metadata && t != "string" {
                errors.push(FieldError::invalid(
                    join(&keyed(&props_at, key), ".type"),
                    FieldError::string_value(t),
                    "must be string",
                ));
            }
        }
    }
    if let Some((_, meta)) = props.iter().find(|(k, _)| *k == "metadata") {
        metadata(
            meta,
            check_metadata,
            lvl,
            &keyed(&props_at, "metadata"),
            errors,
        );
    }
    if embedded && !preserve && props.is_empty() {
        errors.push(FieldError::required(
            join(at, ".properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// Whether a schema keyword's value is Go's zero value (absent from the structural schema).
fn zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        _ => false,
    }
}

/// `validateStructuralMetadataInvariants`: an object, and at the root nothing but `type`, a
/// `default` and properties `name`/`generateName`.
fn metadata(s: &Value, check: bool, lvl: Level, at: &str, errors: &mut Vec<FieldError>) {
    let kind = text(s, "type");
    if check && kind != "object" {
        errors.push(FieldError::invalid(
            join(at, ".type"),
            FieldError::string_value(kind),
            "must be object",
        ));
    }
    if lvl != Level::Root {
        return;
    }
    let Some(map) = s.as_map() else {
        return;
    };
    let names_only = |p: &Value| {
        p.as_map().is_none_or(|m| {
            m.iter()
                .all(|(k, _)| k.as_str() == "name" || k.as_str() == "generateName")
        })
    };
    let other = map.iter().any(|(k, v)| match k.as_str() {
        "type" | "default" => false,
        "properties" => !names_only(v),
        _ => !zero(v),
    });
    if other {
        errors.push(FieldError::forbidden(
            at,
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ));
    }
}
