//! The parts of a CRD schema's structural check about value validations (`anyOf`, `allOf`,
//! `oneOf`, `not`) and about whether the schema converts to a structural one at all, as
//! k8s.io/apiextensions-apiserver pkg/apiserver/schema checks them: `validateValueValidation`,
//! `validateNestedValueValidation` (validation.go), `validateStructuralCompleteness`
//! (complete.go) and `NewStructural` (convert.go).

use super::super::FieldError;
use super::fields::text;
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;

/// The error `NewStructural` (convert.go) returns for `s`, in its traversal order (unsupported
/// keywords, the value validations, the extensions, items, properties, additionalProperties);
/// none when the schema converts. Properties are visited in sorted order (Go ranges over a map).
pub(super) fn convert_error(s: &Value) -> Option<&'static str> {
    let map = s.as_map()?;
    let non_empty = |key: &str| match map.get(key) {
        None | Some(Value::Null) => false,
        Some(Value::String(t)) => !t.is_empty(),
        Some(Value::Map(m)) => !m.is_empty(),
        Some(Value::List(l)) => !l.is_empty(),
        Some(_) => true,
    };
    // validateUnsupportedFields.
    for (key, message) in [
        ("id", "OpenAPIV3Schema 'id' is not supported"),
        ("$schema", "OpenAPIV3Schema 'schema' is not supported"),
        ("$ref", "OpenAPIV3Schema '$ref' is not supported"),
        (
            "patternProperties",
            "OpenAPIV3Schema 'patternProperties' is not supported",
        ),
        (
            "dependencies",
            "OpenAPIV3Schema 'dependencies' is not supported",
        ),
    ] {
        if non_empty(key) {
            return Some(message);
        }
    }
    if map.get("additionalItems").is_some_and(|v| !v.is_null()) {
        return Some("OpenAPIV3Schema 'additionalItems' is not supported");
    }
    if non_empty("definitions") {
        return Some("OpenAPIV3Schema 'definitions' is not supported");
    }
    // newValueValidation: not, allOf, anyOf, oneOf.
    if let Some(e) = s.get("not").and_then(convert_error) {
        return Some(e);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(e) = list(s, key).iter().find_map(convert_error) {
            return Some(e);
        }
    }
    // newExtensions.
    if s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
        );
    }
    match s.get("items") {
        Some(Value::List(_)) => {
            return Some("OpenAPIV3Schema 'items' must be a schema, but is an array")
        }
        Some(items) => {
            if let Some(e) = convert_error(items) {
                return Some(e);
            }
        }
        None => {}
    }
    if let Some(e) = sorted_properties(s)
        .into_iter()
        .find_map(|(_, p)| convert_error(p))
    {
        return Some(e);
    }
    s.get("additionalProperties")
        .filter(|a| a.as_map().is_some())
        .and_then(convert_error)
}

fn list<'v>(s: &'v Value, key: &str) -> &'v [Value] {
    s.get(key)
        .and_then(Value::as_list)
        .map_or(&[], Vec::as_slice)
}

/// A schema's properties, sorted by name.
pub(super) fn sorted_properties(s: &Value) -> Vec<(&str, &Value)> {
    let mut props: Vec<(&str, &Value)> = s
        .get("properties")
        .and_then(Value::as_map)
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default();
    props.sort_by_key(|(k, _)| *k);
    props
}

/// Whether a keyword's value is Go's zero value for the internal type's field: `null`,
/// `false`, `""` (an empty list or map decodes as a non-nil, non-zero one).
fn zero(v: &Value) -> bool {
    matches!(v, Value::Null | Value::Bool(false)) || v.as_str() == Some("")
}

/// `{type: <kind>}` and nothing else, as `reflect.DeepEqual` with `intOrStringAnyOf` sees a
/// nested value validation.
fn only_type(s: &Value, kind: &str) -> bool {
    s.as_map().is_some_and(|m| {
        text(s, "type") == kind && m.iter().all(|(k, v)| k.as_str() == "type" || zero(v))
    })
}

/// `isIntOrStringAnyOfPattern` on a list of `anyOf` alternatives.
fn int_or_string_any_of(any_of: &[Value]) -> bool {
    any_of.len() == 2 && only_type(&any_of[0], "integer") && only_type(&any_of[1], "string")
}

/// `validateValueValidation` of the structural node `s` at `at`, with the two
/// int-or-string exceptions (`anyOf: [{type: integer}, {type: string}]`, directly or as the
/// first `allOf`).
pub(super) fn value_validation(s: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let skip_any_of = int_or_string_any_of(list(s, "anyOf"));
    let skip_first_all_of = list(s, "allOf")
        .first()
        .is_some_and(|first| int_or_string_any_of(list(first, "anyOf")));
    junctors(s, skip_any_of, skip_first_all_of, at, errors);
}

/// The junctors of one value validation: anyOf, allOf, oneOf, not.
fn junctors(
    v: &Value,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    if !skip_any_of {
        for (i, n) in list(v, "anyOf").iter().enumerate() {
            nested(n, false, &indexed(&join(at, ".anyOf"), i), errors);
        }
    }
    for (i, n) in list(v, "allOf").iter().enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        nested(n, skip, &indexed(&join(at, ".allOf"), i), errors);
    }
    for (i, n) in list(v, "oneOf").iter().enumerate() {
        nested(n, false, &indexed(&join(at, ".oneOf"), i), errors);
    }
    if let Some(not) = v.get("not").filter(|n| !n.is_null()) {
        nested(not, false, &join(at, ".not"), errors);
    }
}

/// `validateNestedValueValidation`: inside a junctor only value validations are allowed.
fn nested(v: &Value, skip_any_of: bool, at: &str, errors: &mut Vec<FieldError>) {
    if v.as_map().is_none() {
        return;
    }
    junctors(v, skip_any_of, false, at, errors);
    if let Some(items) = v.get("items").filter(|i| i.as_map().is_some()) {
        nested(items, false, &join(at, ".items"), errors);
    }
    let props = sorted_properties(v);
    for (k, p) in &props {
        nested(p, false, &keyed(&join(at, ".properties"), k), errors);
    }
    let set = |key: &str| v.get(key).is_some_and(|x| !zero(x));
    let mut forbid = |key: &str, detail: &str| {
        errors.push(FieldError::forbidden(join(at, &format!(".{key}")), detail));
    };
    if set("type") {
        forbid("type", "must be empty to be structural");
    }
    // additionalProperties: a schema or `true` (`false` converts to nothing here).
    if v.get("additionalProperties")
        .is_some_and(|a| a.as_map().is_some() || a.as_bool() == Some(true))
    {
        forbid("additionalProperties", "must be undefined to be structural");
    }
    if v.get("default").is_some_and(|d| !d.is_null()) {
        forbid("default", "must be undefined to be structural");
    }
    for (key, detail) in [
        ("title", "must be empty to be structural"),
        ("description", "must be empty to be structural"),
        ("nullable", "must be false to be structural"),
        (
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        ),
    ] {
        if set(key) {
            forbid(key, detail);
        }
    }
    if !list(v, "x-kubernetes-list-map-keys").is_empty() {
        forbid(
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        );
    }
    for key in ["x-kubernetes-list-type", "x-kubernetes-map-type"] {
        if v.get(key).is_some_and(|x| !x.is_null()) {
            forbid(key, "must be undefined to be structural");
        }
    }
    if !list(v, "x-kubernetes-validations").is_empty() {
        forbid("x-kubernetes-validations", "must be empty to be structural");
    }
    if props.iter().any(|(k, _)| *k == "metadata") {
        errors.push(FieldError::forbidden(
            keyed(&join(at, ".properties"), "metadata"),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateStructuralCompleteness`: every property or items a junctor of the root schema
/// speaks of must be specified outside value validations too (only the root's junctors are
/// followed, as upstream does).
pub(super) fn completeness(root: &Value, at: &str, errors: &mut Vec<FieldError>) {
    junctor_completeness(root, Some(root), at, at, errors);
}

fn junctor_completeness(
    v: &Value,
    s: Option<&Value>,
    s_at: &str,
    v_at: &str,
    errors: &mut Vec<FieldError>,
) {
    let Some(s) = s else {
        errors.push(missing(s_at, v_at));
        return;
    };
    if let Some(not) = v.get("not").filter(|n| !n.is_null()) {
        nested_completeness(not, s, s_at, &join(v_at, ".not"), errors);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, n) in list(v, key).iter().enumerate() {
            let path = indexed(&join(v_at, &format!(".{key}")), i);
            nested_completeness(n, s, s_at, &path, errors);
        }
    }
}

fn missing(s_at: &str, v_at: &str) -> FieldError {
    FieldError::required(s_at, format!("because it is defined in {v_at}"))
}

fn nested_completeness(v: &Value, s: &Value, s_at: &str, v_at: &str, errors: &mut Vec<FieldError>) {
    if v.as_map().is_none() {
        return;
    }
    junctor_completeness(v, Some(s), s_at, v_at, errors);
    if let Some(items) = v.get("items").filter(|i| i.as_map().is_some()) {
        let s_items = s.get("items").filter(|i| i.as_map().is_some());
        let (s_at, v_at) = (join(s_at, ".items"), join(v_at, ".items"));
        match s_items {
            Some(s_items) => nested_completeness(items, s_items, &s_at, &v_at, errors),
            None => errors.push(missing(&s_at, &v_at)),
        }
    }
    let s_props = s.get("properties").and_then(Value::as_map);
    for (k, p) in sorted_properties(v) {
        let s_path = keyed(&join(s_at, ".properties"), k);
        let v_path = keyed(&join(v_at, ".properties"), k);
        match s_props.and_then(|m| m.get(k)) {
            Some(sp) => nested_completeness(p, sp, &s_path, &v_path, errors),
            None => errors.push(missing(&s_path, &v_path)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;
    use crate::kube::KubeVersion;

    fn messages(errors: &[FieldError]) -> Vec<String> {
        let v = KubeVersion::new(37).unwrap();
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn int_or_string_alternatives_are_allowed() {
        let s = json(
            r#"{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}"#,
        );
        let mut errors = Vec::new();
        value_validation(&s, "s", &mut errors);
        assert!(errors.is_empty());
        let s = json(r#"{"anyOf":[{"type":"integer","description":"n"},{"type":"string"}]}"#);
        value_validation(&s, "s", &mut errors);
        assert_eq!(
            messages(&errors),
            [
                "s.anyOf[0].type: Forbidden: must be empty to be structural",
                "s.anyOf[0].description: Forbidden: must be empty to be structural",
                "s.anyOf[1].type: Forbidden: must be empty to be structural",
            ]
        );
    }

    #[test]
    fn nested_metadata_and_extensions_are_forbidden() {
        let s = json(
            r#"{"oneOf":[{"properties":{"metadata":{"required":["name"]}},"nullable":true,"x-kubernetes-list-type":"set"}]}"#,
        );
        let mut errors = Vec::new();
        value_validation(&s, "s", &mut errors);
        assert_eq!(
            messages(&errors),
            [
                "s.oneOf[0].nullable: Forbidden: must be false to be structural",
                "s.oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
                "s.oneOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
            ]
        );
    }

    #[test]
    fn junctor_properties_must_exist() {
        let s = json(
            r#"{"type":"object","properties":{"a":{"type":"string"}},
                "anyOf":[{"required":["a"]},{"properties":{"b":{"minLength":1},"a":{"items":{}}}}]}"#,
        );
        let mut errors = Vec::new();
        completeness(&s, "s", &mut errors);
        assert_eq!(
            messages(&errors),
            [
                "s.properties[a].items: Required value: because it is defined in s.anyOf[1].properties[a].items",
                "s.properties[b]: Required value: because it is defined in s.anyOf[1].properties[b]",
            ]
        );
    }

    #[test]
    fn unconvertible_schemas() {
        assert_eq!(convert_error(&json(r#"{"type":"object"}"#)), None);
        assert_eq!(
            convert_error(&json(
                r#"{"properties":{"a":{"$schema":"http://json-schema.org/draft-04/schema#"}}}"#
            )),
            Some("OpenAPIV3Schema 'schema' is not supported")
        );
        assert_eq!(
            convert_error(&json(r#"{"x-kubernetes-preserve-unknown-fields":false}"#)),
            Some(
                "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
            )
        );
    }
}
