//! A CRD version's `openAPIV3Schema`, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go checks it in
//! `validateCustomResourceDefinitionValidation`: `nullable` at the root, then, for a schema
//! that converts to a structural one, its invariants (pkg/apiserver/schema/validation.go
//! `ValidateStructural`: `validateStructuralInvariants`, `validateExtensions`,
//! `validateStructuralMetadataInvariants`, with the value validations and completeness of
//! `crd_value_validation` and the patterns of `crd_pattern`) or, when they hold, its defaults
//! (`crd_defaults`); then the OpenAPI rules of every node (`crd_openapi`), the compilation of
//! its CEL rules (`crd_cel`), and last the conversion error of a schema that does not convert.

use super::super::{BadValue, FieldError, Write};
use super::crd_cel;
use super::crd_defaults;
use super::crd_list_types::{self, ListRules};
use super::crd_openapi::{self, Options};
use super::crd_pattern;
use super::crd_root;
use super::crd_value_validation::{completeness, convert_error, value_validation};
use super::fields::{items, present, text};
use crate::validate::field::{join, keyed};
use crate::value::Value;

/// `validateCustomResourceDefinitionValidation` of the schema under `at` (`….schema` or
/// `spec.validation`); `status`: the status subresource is enabled for it.
pub fn check(w: &Write, root: &Value, at: &str, status: bool, errors: &mut Vec<FieldError>) {
    let mut found = Vec::new();
    if status {
        crd_root::check(root, at, &mut found);
    }
    if root.get("nullable").and_then(Value::as_bool) == Some(true) {
        found.push(FieldError::forbidden(
            join(at, ".openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let schema_at = join(at, ".openAPIV3Schema");
    let nullable_only = found.len();
    let opts = options(w);
    let unconvertible = convert_error(root);
    if unconvertible.is_none() {
        let structural = structural(w, root, &schema_at);
        if structural.is_empty() {
            crd_defaults::check(
                root,
                &schema_at,
                opts.pruned_defaults,
                w.version(),
                &mut found,
            );
        } else {
            found.extend(structural);
        }
    }
    // The rules are compiled only in a structural schema with valid defaults (upstream: a
    // `CELSchemaContext`), at nodes the OpenAPI rules find no error in.
    let compiled = unconvertible.is_none() && found.len() == nullable_only;
    let openapi_from = found.len();
    crd_openapi::check(root, &schema_at, opts.openapi, w.version(), &mut found);
    if compiled {
        let (schema_errors, mut cel_errors) = (found[openapi_from..].to_vec(), Vec::new());
        crd_cel::check(w, root, &schema_at, &schema_errors, &mut cel_errors);
        found.extend(cel_errors);
    }
    if let (true, Some(message)) = (found.is_empty(), unconvertible) {
        found.push(FieldError::invalid(
            schema_at.as_str(),
            FieldError::string_value(""),
            message,
        ));
    }
    errors.extend(found);
}

struct SchemaOptions {
    openapi: Options,
    pruned_defaults: bool,
}

/// The rules an update does not tighten for a stored CRD already breaking them
/// (`ValidateCustomResourceDefinitionUpdate`: `requireValidPropertyType`,
/// `requirePrunedDefaults`, `requireAtomicSetType`, `requireMapListKeysMapSetValidation`).
fn options(w: &Write) -> SchemaOptions {
    let old_schemas: Vec<&Value> = w.live.map_or_else(Vec::new, |old| {
        items(super::fields::spec(old).get("versions"))
            .iter()
            .filter_map(|v| v.get_path(&["schema", "openAPIV3Schema"]))
            .collect()
    });
    let any = |pred: &dyn Fn(&Value) -> bool| old_schemas.iter().any(|s| schema_has(s, pred));
    SchemaOptions {
        openapi: Options {
            valid_types: !any(&crd_openapi::invalid_type),
            lists: ListRules {
                atomic_sets: !any(&crd_list_types::non_atomic_set),
                map_keys_required: !any(&crd_list_types::invalid_map_keys),
            },
        },
        pruned_defaults: !old_schemas
            .iter()
            .any(|s| crd_defaults::has_unpruned_default(s)),
    }
}

/// `SchemaHas`: whether `pred` holds for a node of the schema (items, junctors, properties,
/// additionalProperties).
pub(super) fn schema_has(s: &Value, pred: &dyn Fn(&Value) -> bool) -> bool {
    if s.as_map().is_none() {
        return false;
    }
    if pred(s) {
        return true;
    }
    let children = |key: &str| -> Vec<&Value> {
        match s.get(key) {
            Some(Value::List(l)) => l.iter().collect(),
            Some(Value::Map(m))
                if key != "items" && key != "not" && key != "additionalProperties" =>
            {
                m.iter().map(|(_, v)| v).collect()
            }
            Some(v) => vec![v],
            None => Vec::new(),
        }
    };
    [
        "items",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "properties",
        "additionalProperties",
    ]
    .iter()
    .flat_map(|k| children(k))
    .any(|c| schema_has(c, pred))
}

/// `ValidateStructural` of a schema that converts: the invariants and the completeness of
/// the root's value validations, sorted by message as upstream sorts them.
fn structural(w: &Write, root: &Value, at: &str) -> Vec<FieldError> {
    let mut found = Vec::new();
    invariants(root, Level::Root, at, &mut found);
    completeness(root, at, &mut found);
    let version = w.version();
    crd_pattern::check(root, at, version, &mut found);
    found.sort_by_cached_key(|e| e.message(version));
    found
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
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
    // `additionalProperties: false` converts to a non-nil `StructuralOrBool` too.
    let additional_set = present(s, "additionalProperties").is_some();
    if additional_set && lvl == Level::Root {
        errors.push(FieldError::forbidden(
            join(at, ".additionalProperties"),
            "must not be used at the root",
        ));
    }
    if let Some(a) = additional {
        invariants(a, Level::Field, &join(at, ".additionalProperties"), errors);
    }
    value_validation(s, at, errors);
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
        "additionalProperties" => !v.is_null(),
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
