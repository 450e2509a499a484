//! The OpenAPI rules of a CRD schema, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go checks every node in
//! `ValidateCustomResourceDefinitionOpenAPISchema` and `specStandardValidatorV3.validate`:
//! unsupported keywords, types, `uniqueItems`, `additionalProperties` with `properties`,
//! defaults where they are forbidden, the list and map types (`crd_list_types`) and the static
//! checks of `x-kubernetes-validations` (their CEL compilation is `crd_cel`'s).

use super::super::{BadValue, FieldError};
use super::crd_field_path;
use super::crd_list_types::{self, ListRules};
use super::crd_value_validation::sorted_properties;
use super::fields::text;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;

/// `openapiV3Types`, sorted as `sets.String.List()` sorts them.
const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];
/// `supportedValidationReason`, sorted.
const REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];
/// The fields of a resource's root whose schemas apply to type and object metadata.
const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

/// Whether the details of `x-kubernetes-validations` entries repeat the field's name
/// (`message must be non-empty if specified`): until apiextensions v0.33; v0.34 dropped it.
const RULE_DETAIL_NAMED: &[(VersionRange, bool)] = &[
    (VersionRange::until(33), true),
    (VersionRange::since(34), false),
];

/// What an update still checks (`validationOptions`): upstream does not tighten a rule a
/// stored CRD already breaks.
#[derive(Clone, Copy)]
pub(super) struct Options {
    /// `requireValidPropertyType`.
    pub valid_types: bool,
    pub lists: ListRules,
}

/// The walker's state below a node (`specStandardValidatorV3`).
#[derive(Clone, Default)]
struct Context {
    /// Why defaults are forbidden here (`disallowDefaultsReason`), when they are.
    no_defaults: Option<String>,
    /// Inside the schema of a resource's `metadata`, `kind` or `apiVersion`.
    inside_meta: bool,
}

/// `ValidateCustomResourceDefinitionOpenAPISchema` of the root schema at `at`
/// (`….openAPIV3Schema`). Properties are visited in sorted order (Go ranges over a map).
pub(super) fn check(
    root: &Value,
    at: &str,
    opts: Options,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let walker = Walker {
        opts,
        named: RULE_DETAIL_NAMED
            .iter()
            .find(|(r, _)| r.contains(version))
            .is_some_and(|(_, named)| *named),
    };
    walker.node(root, at, &Context::default(), true, errors);
}

struct Walker {
    opts: Options,
    named: bool,
}

fn list<'v>(s: &'v Value, key: &str) -> &'v [Value] {
    s.get(key)
        .and_then(Value::as_list)
        .map_or(&[], Vec::as_slice)
}

fn set(s: &Value, key: &str) -> bool {
    s.get(key).is_some_and(|v| !v.is_null())
}

fn non_empty(s: &Value, key: &str) -> bool {
    match s.get(key) {
        Some(Value::Map(m)) => !m.is_empty(),
        Some(Value::List(l)) => !l.is_empty(),
        Some(Value::String(t)) => !t.is_empty(),
        _ => false,
    }
}

fn sorted_map(s: &Value, key: &str) -> Vec<(String, Value)> {
    let mut entries: Vec<(String, Value)> = s
        .get(key)
        .and_then(Value::as_map)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries
}

impl Walker {
    fn node(&self, s: &Value, at: &str, cx: &Context, root: bool, errors: &mut Vec<FieldError>) {
        if s.as_map().is_none() {
            return;
        }
        self.standard(s, at, cx, errors);
        if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            errors.push(FieldError::forbidden(
                join(at, ".uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }
        let props = sorted_properties(s);
        if let Some(additional) = s.get("additionalProperties").filter(|a| !a.is_null()) {
            let schema = additional.as_map().is_some();
            if !props.is_empty() && (schema || additional.as_bool() == Some(false)) {
                errors.push(FieldError::forbidden(
                    join(at, ".additionalProperties"),
                    "additionalProperties and properties are mutual exclusive",
                ));
            }
            let mut sub = cx.clone();
            if cx.inside_meta {
                sub.no_defaults =
                    Some("inside additionalProperties applying to object metadata".into());
            }
            if schema {
                self.node(
                    additional,
                    &join(at, ".additionalProperties"),
                    &sub,
                    false,
                    errors,
                );
            }
        }
        let embedded = s
            .get("x-kubernetes-embedded-resource")
            .and_then(Value::as_bool)
            == Some(true);
        for (k, p) in &props {
            let mut sub = cx.clone();
            if (root || embedded) && META_FIELDS.contains(k) {
                sub.inside_meta = true;
                if root {
                    sub.no_defaults = Some(format!("in top-level {k}"));
                }
            }
            self.node(p, &keyed(&join(at, ".properties"), k), &sub, false, errors);
        }
        if let Some(not) = s.get("not") {
            self.node(not, &join(at, ".not"), cx, false, errors);
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            for (i, n) in list(s, key).iter().enumerate() {
                let path = indexed(&join(at, &format!(".{key}")), i);
                self.node(n, &path, cx, false, errors);
            }
        }
        for (k, d) in sorted_map(s, "definitions") {
            self.node(&d, &keyed(&join(at, ".definitions"), &k), cx, false, errors);
        }
        match s.get("items") {
            Some(Value::List(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.node(item, &indexed(&join(at, ".items"), i), cx, false, errors);
                }
            }
            Some(items) => self.node(items, &join(at, ".items"), cx, false, errors),
            None => {}
        }
        for (k, d) in sorted_map(s, "dependencies") {
            // A list of property names is no schema.
            self.node(
                &d,
                &keyed(&join(at, ".dependencies"), &k),
                cx,
                false,
                errors,
            );
        }
        if s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
            errors.push(FieldError::invalid(
                join(at, ".x-kubernetes-preserve-unknown-fields"),
                BadValue::Value(Value::Bool(false)),
                "must be true or undefined",
            ));
        }
        crd_list_types::check(s, at, self.opts.lists, errors);
        self.rules(s, at, errors);
    }

    /// `specStandardValidatorV3.validate`: keywords a CRD schema may not use.
    fn standard(&self, s: &Value, at: &str, cx: &Context, errors: &mut Vec<FieldError>) {
        let kind = text(s, "type");
        if self.opts.valid_types && !kind.is_empty() && !TYPES.contains(&kind) {
            errors.push(FieldError::not_supported(
                join(at, ".type"),
                FieldError::string_value(kind),
                TYPES,
            ));
        }
        if let (true, Some(reason)) = (set(s, "default"), &cx.no_defaults) {
            errors.push(FieldError::forbidden(
                join(at, ".default"),
                format!("must not be set {reason}"),
            ));
        }
        let mut forbid = |key: &str, detail: &str| {
            errors.push(FieldError::forbidden(join(at, &format!(".{key}")), detail));
        };
        if non_empty(s, "id") {
            forbid("id", "id is not supported");
        }
        if set(s, "additionalItems") {
            forbid("additionalItems", "additionalItems is not supported");
        }
        if non_empty(s, "patternProperties") {
            forbid("patternProperties", "patternProperties is not supported");
        }
        if non_empty(s, "definitions") {
            forbid("definitions", "definitions is not supported");
        }
        if set(s, "dependencies") {
            forbid("dependencies", "dependencies is not supported");
        }
        if set(s, "$ref") {
            forbid("$ref", "$ref is not supported");
        }
        if kind == "null" {
            forbid(
                "type",
                "type cannot be set to null, use nullable as an alternative",
            );
        }
        if non_empty(s, "items") && s.get("items").and_then(Value::as_list).is_some() {
            forbid("items", "items must be a schema object and not an array");
        }
        if cx.inside_meta
            && s.get("x-kubernetes-embedded-resource")
                .and_then(Value::as_bool)
                == Some(true)
        {
            forbid(
                "x-kubernetes-embedded-resource",
                "must not be used inside of resource meta",
            );
        }
    }

    /// The static checks of `x-kubernetes-validations` entries, with whether a `fieldPath`
    /// names a field of the node (`crd_field_path`); the CEL compilation is `crd_cel`'s.
    fn rules(&self, s: &Value, at: &str, errors: &mut Vec<FieldError>) {
        let detail = |field: &str, rest: &str| {
            if self.named {
                format!("{field} {rest}")
            } else {
                rest.to_string()
            }
        };
        let newlines = |t: &str| t.contains(['\n', '\r']);
        for (i, rule) in list(s, "x-kubernetes-validations").iter().enumerate() {
            let rule_at = indexed(&join(at, ".x-kubernetes-validations"), i);
            let field = |name: &str| join(&rule_at, &format!(".{name}"));
            let expression = text(rule, "rule").trim();
            let message = text(rule, "message");
            let trimmed_message = message.trim();
            if expression.is_empty() {
                errors.push(FieldError::required(field("rule"), "rule is not specified"));
            } else if !message.is_empty() && trimmed_message.is_empty() {
                errors.push(FieldError::invalid(
                    field("message"),
                    FieldError::string_value(message),
                    detail("message", "must be non-empty if specified"),
                ));
            } else if newlines(trimmed_message) {
                errors.push(FieldError::invalid(
                    field("message"),
                    FieldError::string_value(message),
                    detail("message", "must not contain line breaks"),
                ));
            } else if newlines(expression) && trimmed_message.is_empty() {
                errors.push(FieldError::required(
                    field("message"),
                    "message must be specified if rule contains line breaks",
                ));
            }
            let message_expression = text(rule, "messageExpression");
            if !message_expression.is_empty() && message_expression.trim().is_empty() {
                errors.push(FieldError::required(
                    field("messageExpression"),
                    "messageExpression must be non-empty if specified",
                ));
            }
            if let Some(reason) = rule.get("reason").and_then(Value::as_str) {
                if !REASONS.contains(&reason) {
                    errors.push(FieldError::not_supported(
                        field("reason"),
                        FieldError::string_value(reason),
                        REASONS,
                    ));
                }
            }
            let field_path = text(rule, "fieldPath");
            if !field_path.is_empty() && field_path.trim().is_empty() {
                errors.push(FieldError::invalid(
                    field("fieldPath"),
                    FieldError::string_value(field_path),
                    detail("fieldPath", "must be non-empty if specified"),
                ));
            }
            if newlines(field_path) {
                errors.push(FieldError::invalid(
                    field("fieldPath"),
                    FieldError::string_value(field_path),
                    detail("fieldPath", "must not contain line breaks"),
                ));
            }
            if !field_path.is_empty() && !crd_field_path::valid(s, field_path) {
                errors.push(FieldError::invalid(
                    field("fieldPath"),
                    FieldError::string_value(field_path),
                    detail("fieldPath", "must be a valid path"),
                ));
            }
        }
    }
}

/// Whether the rules of any version's schema refuse `crd` for its list or map extensions.
pub(super) fn refuses_extensions(crd: &Value) -> bool {
    let opts = Options {
        valid_types: true,
        lists: ListRules {
            atomic_sets: true,
            map_keys_required: true,
        },
    };
    let versions = crd.get_path(&["spec", "versions"]).and_then(Value::as_list);
    versions.into_iter().flatten().any(|v| {
        v.get_path(&["schema", "openAPIV3Schema"])
            .is_some_and(|root| {
                let mut errors = Vec::new();
                let walker = Walker { opts, named: false };
                walker.node(root, "", &Context::default(), true, &mut errors);
                errors.iter().any(|e| e.field.contains("x-kubernetes-"))
            })
    })
}

/// Whether any node of a stored schema has a type outside OpenAPI v3's (`SchemaHasInvalidTypes`).
pub(super) fn invalid_type(s: &Value) -> bool {
    let kind = text(s, "type");
    !kind.is_empty() && !TYPES.contains(&kind)
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;

    const ALL: Options = Options {
        valid_types: true,
        lists: ListRules {
            atomic_sets: true,
            map_keys_required: true,
        },
    };

    fn messages(s: &str, minor: u8) -> Vec<String> {
        let v = KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", ALL, v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn unsupported_keywords_and_types() {
        assert_eq!(
            messages(
                r#"{"type":"object","properties":{"a":{"type":"strin","uniqueItems":true},"b":{"type":"null","$ref":"x"}}}"#,
                37
            ),
            [
                "s.properties[a].type: Unsupported value: \"strin\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
                "s.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
                "s.properties[b].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
                "s.properties[b].$ref: Forbidden: $ref is not supported",
                "s.properties[b].type: Forbidden: type cannot be set to null, use nullable as an alternative",
            ]
        );
    }

    #[test]
    fn additional_properties_exclude_properties() {
        assert_eq!(
            messages(
                r#"{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":false},
                    "c":{"type":"object","additionalProperties":false}}}"#,
                37
            ),
            ["s.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"]
        );
    }

    #[test]
    fn defaults_are_forbidden_in_resource_metadata() {
        assert_eq!(
            messages(
                r#"{"type":"object","properties":{"metadata":{"type":"object","default":{}},
                    "spec":{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
                      "properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object",
                        "additionalProperties":{"type":"string","default":"x"}}}}}}}}}}"#,
                37
            ),
            [
                "s.properties[metadata].default: Forbidden: must not be set in top-level metadata",
                "s.properties[spec].properties[t].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata",
            ]
        );
    }

    #[test]
    fn rule_details_name_the_field_until_1_33() {
        let s = r#"{"type":"object","x-kubernetes-validations":[{"rule":"self.a\n== 1"},{"rule":"true","message":" ","reason":"Bad"}]}"#;
        assert_eq!(
            messages(s, 33),
            [
                "s.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks",
                "s.x-kubernetes-validations[1].message: Invalid value: \" \": message must be non-empty if specified",
                "s.x-kubernetes-validations[1].reason: Unsupported value: \"Bad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\"",
            ]
        );
        assert_eq!(
            messages(s, 34)[1],
            "s.x-kubernetes-validations[1].message: Invalid value: \" \": must be non-empty if specified"
        );
    }
}
