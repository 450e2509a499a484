//! The root of a CRD schema when the status subresource is enabled: k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go `validateCustomResourceDefinitionValidation`
//! (its `statusSubresourceEnabled` branch, `allowedFieldsAtRootSchema`) walks the internal
//! `JSONSchemaProps` fields in declaration order and stops at the first one set that is not
//! allowed (or a `type` other than `object`). The bad value of that error is the whole internal
//! schema, printed here as Go's `%#v` (pointers as `0x…`) before 1.34 and as JSON since.

use super::super::goprint::{go_quote, go_value};
use super::super::{BadValue, FieldError};
use crate::validate::field::join;
use crate::value::Value;

/// How a field of the internal `JSONSchemaProps` is typed, for its zero value and printing.
#[derive(Clone, Copy)]
enum Kind {
    /// `string` (and `JSONSchemaURL`).
    Str,
    Bool,
    /// A pointer to a scalar (`*string`, `*float64`, `*int64`, `*bool`) or to `JSON`.
    Ptr(&'static str),
    /// `[]JSON`.
    Jsons,
    Strings,
    /// `[]JSONSchemaProps`.
    Schemas,
    /// `*JSONSchemaProps`.
    Schema,
    /// `map[string]JSONSchemaProps` (the Go type name given).
    SchemaMap(&'static str),
    /// `*JSONSchemaPropsOrArray`.
    OrArray,
    /// `*JSONSchemaPropsOrBool`.
    OrBool,
    /// `JSONSchemaDependencies`.
    Dependencies,
    /// `*ExternalDocumentation`.
    Docs,
    /// `ValidationRules`.
    Rules,
}

/// The internal `JSONSchemaProps` fields in declaration order: Go name, v1 JSON key, type.
const FIELDS: &[(&str, &str, Kind)] = &[
    ("ID", "id", Kind::Str),
    ("Schema", "$schema", Kind::Str),
    ("Ref", "$ref", Kind::Ptr("*string")),
    ("Description", "description", Kind::Str),
    ("Type", "type", Kind::Str),
    ("Nullable", "nullable", Kind::Bool),
    ("Format", "format", Kind::Str),
    ("Title", "title", Kind::Str),
    ("Default", "default", Kind::Ptr("*apiextensions.JSON")),
    ("Maximum", "maximum", Kind::Ptr("*float64")),
    ("ExclusiveMaximum", "exclusiveMaximum", Kind::Bool),
    ("Minimum", "minimum", Kind::Ptr("*float64")),
    ("ExclusiveMinimum", "exclusiveMinimum", Kind::Bool),
    ("MaxLength", "maxLength", Kind::Ptr("*int64")),
    ("MinLength", "minLength", Kind::Ptr("*int64")),
    ("Pattern", "pattern", Kind::Str),
    ("MaxItems", "maxItems", Kind::Ptr("*int64")),
    ("MinItems", "minItems", Kind::Ptr("*int64")),
    ("UniqueItems", "uniqueItems", Kind::Bool),
    ("MultipleOf", "multipleOf", Kind::Ptr("*float64")),
    ("Enum", "enum", Kind::Jsons),
    ("MaxProperties", "maxProperties", Kind::Ptr("*int64")),
    ("MinProperties", "minProperties", Kind::Ptr("*int64")),
    ("Required", "required", Kind::Strings),
    ("Items", "items", Kind::OrArray),
    ("AllOf", "allOf", Kind::Schemas),
    ("OneOf", "oneOf", Kind::Schemas),
    ("AnyOf", "anyOf", Kind::Schemas),
    ("Not", "not", Kind::Schema),
    (
        "Properties",
        "properties",
        Kind::SchemaMap("map[string]apiextensions.JSONSchemaProps"),
    ),
    ("AdditionalProperties", "additionalProperties", Kind::OrBool),
    (
        "PatternProperties",
        "patternProperties",
        Kind::SchemaMap("map[string]apiextensions.JSONSchemaProps"),
    ),
    ("Dependencies", "dependencies", Kind::Dependencies),
    ("AdditionalItems", "additionalItems", Kind::OrBool),
    (
        "Definitions",
        "definitions",
        Kind::SchemaMap("apiextensions.JSONSchemaDefinitions"),
    ),
    ("ExternalDocs", "externalDocs", Kind::Docs),
    ("Example", "example", Kind::Ptr("*apiextensions.JSON")),
    (
        "XPreserveUnknownFields",
        "x-kubernetes-preserve-unknown-fields",
        Kind::Ptr("*bool"),
    ),
    (
        "XEmbeddedResource",
        "x-kubernetes-embedded-resource",
        Kind::Bool,
    ),
    ("XIntOrString", "x-kubernetes-int-or-string", Kind::Bool),
    ("XListMapKeys", "x-kubernetes-list-map-keys", Kind::Strings),
    ("XListType", "x-kubernetes-list-type", Kind::Ptr("*string")),
    ("XMapType", "x-kubernetes-map-type", Kind::Ptr("*string")),
    ("XValidations", "x-kubernetes-validations", Kind::Rules),
];

/// `allowedFieldsAtRootSchema`, as the detail prints it (`%v` of a `[]string`).
const ALLOWED: &[&str] = &[
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// The field's value unless it is Go's zero value (`""`, `false`, a nil pointer, slice or map;
/// an empty list or map decodes non-nil).
fn set<'v>(s: &'v Value, key: &str, kind: Kind) -> Option<&'v Value> {
    let v = s.get(key).filter(|v| !v.is_null())?;
    match kind {
        Kind::Str => v.as_str().filter(|t| !t.is_empty()).map(|_| v),
        Kind::Bool => (v.as_bool() == Some(true)).then_some(v),
        _ => Some(v),
    }
}

/// The restriction on the root `root` of the schema at `at` (`….schema`, `spec.validation`).
pub(super) fn check(root: &Value, at: &str, errors: &mut Vec<FieldError>) {
    for &(name, key, kind) in FIELDS {
        let Some(value) = set(root, key, kind) else {
            continue;
        };
        if name == "Type" {
            let ty = value.as_str().unwrap_or("");
            if ty == "object" {
                continue;
            }
            errors.push(FieldError::invalid(
                join(at, ".openAPIV3Schema.type"),
                FieldError::string_value(ty),
                r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
            ));
            return;
        }
        if !ALLOWED.contains(&name) {
            errors.push(FieldError::invalid(
                join(at, ".openAPIV3Schema"),
                BadValue::GoValue {
                    value: props_json(root),
                    go_syntax: props_go(root),
                },
                format!(
                    "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                    ALLOWED.join(" ")
                ),
            ));
            return;
        }
    }
}

fn sorted_entries(v: &Value) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = v.as_map().map(|m| m.iter().collect()).unwrap_or_default();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

fn list(v: &Value) -> &[Value] {
    v.as_list().map_or(&[][..], |l| l.as_slice())
}

fn map_of(pairs: Vec<(&str, Value)>) -> Value {
    Value::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The internal schema as `json.Marshal` writes it (no tags: Go field names, declaration order).
fn props_json(s: &Value) -> Value {
    let fields = FIELDS
        .iter()
        .map(|&(name, key, kind)| {
            let v = s.get(key).filter(|v| !v.is_null());
            let json = match (kind, v) {
                (Kind::Str, v) => Value::String(v.and_then(Value::as_str).unwrap_or("").into()),
                (Kind::Bool, v) => Value::Bool(v.and_then(Value::as_bool) == Some(true)),
                (_, None) => Value::Null,
                (Kind::Ptr(_) | Kind::Jsons | Kind::Strings, Some(v)) => v.clone(),
                (Kind::Schemas, Some(v)) => Value::List(list(v).iter().map(props_json).collect()),
                (Kind::Schema, Some(v)) => props_json(v),
                (Kind::SchemaMap(_), Some(v)) => Value::Map(
                    sorted_entries(v)
                        .into_iter()
                        .map(|(k, p)| (k.clone(), props_json(p)))
                        .collect(),
                ),
                (Kind::OrArray, Some(v)) => match v {
                    Value::List(l) => map_of(vec![
                        ("Schema", Value::Null),
                        (
                            "JSONSchemas",
                            Value::List(l.iter().map(props_json).collect()),
                        ),
                    ]),
                    _ => map_of(vec![
                        ("Schema", props_json(v)),
                        ("JSONSchemas", Value::Null),
                    ]),
                },
                (Kind::OrBool, Some(v)) => match v {
                    Value::Bool(b) => {
                        map_of(vec![("Allows", Value::Bool(*b)), ("Schema", Value::Null)])
                    }
                    _ => map_of(vec![
                        ("Allows", Value::Bool(true)),
                        ("Schema", props_json(v)),
                    ]),
                },
                (Kind::Dependencies, Some(v)) => Value::Map(
                    sorted_entries(v)
                        .into_iter()
                        .map(|(k, d)| {
                            let entry = match d {
                                Value::List(_) => {
                                    map_of(vec![("Schema", Value::Null), ("Property", d.clone())])
                                }
                                _ => map_of(vec![
                                    ("Schema", props_json(d)),
                                    ("Property", Value::Null),
                                ]),
                            };
                            (k.clone(), entry)
                        })
                        .collect(),
                ),
                (Kind::Docs, Some(v)) => map_of(vec![
                    ("Description", Value::String(text(v, "description").into())),
                    ("URL", Value::String(text(v, "url").into())),
                ]),
                (Kind::Rules, Some(v)) => Value::List(
                    list(v)
                        .iter()
                        .map(|r| {
                            let opt = |k: &str| {
                                r.get(k)
                                    .filter(|x| !x.is_null())
                                    .cloned()
                                    .unwrap_or(Value::Null)
                            };
                            map_of(vec![
                                ("Rule", Value::String(text(r, "rule").into())),
                                ("Message", Value::String(text(r, "message").into())),
                                (
                                    "MessageExpression",
                                    Value::String(text(r, "messageExpression").into()),
                                ),
                                ("Reason", opt("reason")),
                                ("FieldPath", Value::String(text(r, "fieldPath").into())),
                                ("OptionalOldSelf", opt("optionalOldSelf")),
                            ])
                        })
                        .collect(),
                ),
            };
            (name.to_string(), json)
        })
        .collect();
    Value::Map(fields)
}

fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn pointer(ty: &str, set: bool) -> String {
    format!("({ty})({})", if set { "0x…" } else { "nil" })
}

/// The internal schema as `%#v` prints it; pointers print as addresses (`0x…` here).
fn props_go(s: &Value) -> String {
    let parts: Vec<String> = FIELDS
        .iter()
        .map(|&(name, key, kind)| {
            let v = s.get(key).filter(|v| !v.is_null());
            let go = match kind {
                Kind::Str => go_quote(v.and_then(Value::as_str).unwrap_or("")),
                Kind::Bool => (v.and_then(Value::as_bool) == Some(true)).to_string(),
                Kind::Ptr(ty) => pointer(ty, v.is_some()),
                Kind::Schema => pointer("*apiextensions.JSONSchemaProps", v.is_some()),
                Kind::OrArray => pointer("*apiextensions.JSONSchemaPropsOrArray", v.is_some()),
                Kind::OrBool => pointer("*apiextensions.JSONSchemaPropsOrBool", v.is_some()),
                Kind::Docs => pointer("*apiextensions.ExternalDocumentation", v.is_some()),
                Kind::Jsons => slice("[]apiextensions.JSON", v, go_value),
                Kind::Strings => slice("[]string", v, |e| go_quote(e.as_str().unwrap_or(""))),
                Kind::Schemas => slice("[]apiextensions.JSONSchemaProps", v, props_go),
                Kind::Rules => slice("apiextensions.ValidationRules", v, rule_go),
                Kind::SchemaMap(ty) => go_map(ty, v, props_go),
                Kind::Dependencies => go_map("apiextensions.JSONSchemaDependencies", v, |d| {
                    format!(
                        "apiextensions.JSONSchemaPropsOrStringArray{{Schema:{}, Property:{}}}",
                        pointer("*apiextensions.JSONSchemaProps", d.as_list().is_none()),
                        match d {
                            Value::List(_) =>
                                slice("[]string", Some(d), |e| go_quote(e.as_str().unwrap_or(""))),
                            _ => "[]string(nil)".to_string(),
                        }
                    )
                }),
            };
            format!("{name}:{go}")
        })
        .collect();
    format!("apiextensions.JSONSchemaProps{{{}}}", parts.join(", "))
}

fn slice(ty: &str, v: Option<&Value>, each: impl Fn(&Value) -> String) -> String {
    match v {
        None => format!("{ty}(nil)"),
        Some(v) => {
            let parts: Vec<String> = list(v).iter().map(each).collect();
            format!("{ty}{{{}}}", parts.join(", "))
        }
    }
}

fn go_map(ty: &str, v: Option<&Value>, each: impl Fn(&Value) -> String) -> String {
    match v {
        None => format!("{ty}(nil)"),
        Some(v) => {
            let parts: Vec<String> = sorted_entries(v)
                .into_iter()
                .map(|(k, e)| format!("{}:{}", go_quote(k), each(e)))
                .collect();
            format!("{ty}{{{}}}", parts.join(", "))
        }
    }
}

fn rule_go(r: &Value) -> String {
    let has = |k: &str| r.get(k).is_some_and(|x| !x.is_null());
    format!(
        "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{}, FieldPath:{}, OptionalOldSelf:{}}}",
        go_quote(text(r, "rule")),
        go_quote(text(r, "message")),
        go_quote(text(r, "messageExpression")),
        pointer("*apiextensions.FieldValueErrorReason", has("reason")),
        go_quote(text(r, "fieldPath")),
        pointer("*bool", has("optionalOldSelf")),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    /// A one-version CRD with the root schema `root` (JSON) and a status subresource.
    fn crd(root: &str) -> String {
        format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
              "metadata":{{"name":"widgets.example.com"}},
              "spec":{{"group":"example.com","scope":"Namespaced",
                "names":{{"plural":"widgets","kind":"Widget"}},
                "versions":[{{"name":"v1","served":true,"storage":true,"subresources":{{"status":{{}}}},
                  "schema":{{"openAPIV3Schema":{root}}}}}]}}}}"#
        )
    }

    #[test]
    fn allowed_fields_pass() {
        let ok = crd(
            r#"{"type":"object","description":"d","required":["spec"],"x-kubernetes-preserve-unknown-fields":true,
                "x-kubernetes-validations":[{"rule":"true"}],"nullable":false,
                "properties":{"spec":{"type":"object","nullable":true}}}"#,
        );
        assert_eq!(refusal_causes(&ok, None, 37), Vec::<String>::new());
        let no_status = crd(r#"{"type":"object","maxProperties":3}"#)
            .replace(r#""subresources":{"status":{}},"#, "");
        assert_eq!(refusal_causes(&no_status, None, 37), Vec::<String>::new());
    }

    #[test]
    fn first_field_not_allowed() {
        let bad = crd(
            r#"{"type":"object","maxProperties":3,"properties":{"spec":{"type":"object","enum":[{}]}}}"#,
        );
        let detail = "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled";
        let causes = refusal_causes(&bad, None, 37);
        assert_eq!(causes.len(), 1);
        assert!(causes[0].starts_with("spec.validation.openAPIV3Schema: Invalid value: {\"ID\":\"\",\"Schema\":\"\",\"Ref\":null,\"Description\":\"\",\"Type\":\"object\",\"Nullable\":false,"), "{}", causes[0]);
        assert!(causes[0].contains(",\"MaxProperties\":3,\"MinProperties\":null,\"Required\":null,\"Items\":null,\"AllOf\":null,"));
        assert!(causes[0].contains("\"Properties\":{\"spec\":{\"ID\":\"\","));
        assert!(causes[0].contains("\"Enum\":[{}],"));
        assert!(causes[0].ends_with(&format!("\"XValidations\":null}}: {detail}")));
        let old = refusal_causes(&bad, None, 33);
        assert!(old[0].starts_with("spec.validation.openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{ID:\"\", Schema:\"\", Ref:(*string)(nil), Description:\"\", Type:\"object\", Nullable:false, "), "{}", old[0]);
        assert!(old[0].contains(
            " MaxProperties:(*int64)(0x…), MinProperties:(*int64)(nil), Required:[]string(nil), "
        ));
        assert!(old[0].contains(" Properties:map[string]apiextensions.JSONSchemaProps{\"spec\":apiextensions.JSONSchemaProps{ID:\"\", "));
        assert!(old[0].ends_with(&format!(
            "XValidations:apiextensions.ValidationRules(nil)}}: {detail}"
        )));
    }

    #[test]
    fn type_must_be_object_and_stops_the_walk() {
        // `type` comes before `nullable` in the internal type: only the type is reported, then
        // the root nullable rule and the structural ones.
        let bad = crd(r#"{"type":"string","nullable":true}"#);
        let causes = refusal_causes(&bad, None, 37);
        assert_eq!(
            causes[..2],
            [
                "spec.validation.openAPIV3Schema.type: Invalid value: \"string\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                "spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root",
            ]
        );
        let ref_first = crd(r##"{"$ref":"#/x","type":"string"}"##);
        assert!(refusal_causes(&ref_first, None, 37)[0]
            .starts_with("spec.validation.openAPIV3Schema: Invalid value: {\"ID\":\"\",\"Schema\":\"\",\"Ref\":\"#/x\","));
    }
}
