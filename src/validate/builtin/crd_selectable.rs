//! A CustomResourceDefinition's `selectableFields`, per version or hoisted to
//! `spec.selectableFields` by the v1 conversion, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go checks them (`validateCustomResourceDefinitionVersion`
//! and `validateCustomResourceDefinitionSpec` call `ValidateCustomResourceSelectableFields`).

use super::super::{FieldError, Write};
use super::crd_definition::field_value;
use super::crd_field_path;
use super::crd_value_validation::convert_error;
use super::fields::{items, text};
use crate::kube::VersionRange;
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `MaxSelectableFields`.
const MAX: usize = 8;

/// The feature gate CustomResourceFieldSelectors: alpha (off) in 1.30, on from 1.31; while
/// off, the strategy's `dropDisabledFields` drops the fields unless the stored object has some.
const GATE: VersionRange = VersionRange::since(31);

/// The detail when a version's selectable fields have no schema of their own, then the one of
/// hoisted selectable fields without a hoisted schema: v0.34 dropped the `selectableFields `
/// prefix and quoted the path.
const NO_SCHEMA: &[(VersionRange, &str, &str)] = &[
    (
        VersionRange::until(33),
        "selectableFields may only be set when version.schema.openAPIV3Schema is not included",
        "selectableFields may only be set when validations.schema is included",
    ),
    (
        VersionRange::since(34),
        "may only be set when `version.schema.openAPIV3Schema` is not included",
        "may only be set when validations.schema is included",
    ),
];

/// Whether the fields are validated at all: with the gate on, or when the stored object has
/// selectable fields (`specHasSelectableFields`).
pub(super) fn enabled(w: &Write) -> bool {
    GATE.contains(w.version())
        || w.live.is_some_and(|old| {
            items(super::fields::spec(old).get("versions"))
                .iter()
                .any(|v| field_value(v, "selectableFields").is_some())
        })
}

/// Whether a stored object's selectable fields (as the conversion leaves them at `version`,
/// `None` for the hoisted ones) were over the limit and are unchanged
/// (`findTooManySelectableFieldsAllowed`).
fn too_many_allowed(w: &Write, fields: &[Value], version: Option<&str>) -> bool {
    let Some(old) = w.live else {
        return false;
    };
    let versions = items(super::fields::spec(old).get("versions"));
    let hoisted = super::crd_definition::Hoisted::of(versions).selectable;
    let old_fields = match version {
        None if hoisted => versions
            .first()
            .and_then(|v| field_value(v, "selectableFields")),
        None => None,
        Some(_) if hoisted => None,
        Some(name) => versions
            .iter()
            .find(|v| text(v, "name") == name)
            .and_then(|v| field_value(v, "selectableFields")),
    };
    let old_fields = items(old_fields);
    old_fields.len() > MAX && old_fields == fields
}

/// The selectable fields of version `v` (`version` its name) or, hoisted (`version` `None`),
/// of every version, with the schema the internal type holds next to them (`None`: no schema
/// there), reported under `at` (`spec.versions[i].selectableFields`, `spec.selectableFields`).
pub(super) fn check(
    w: &Write,
    fields: &[Value],
    schema: Option<&Value>,
    version: Option<&str>,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    if fields.is_empty() {
        return;
    }
    let Some(schema) = schema else {
        let (_, per_version, hoisted) = NO_SCHEMA
            .iter()
            .find(|(range, _, _)| range.contains(w.version()))
            .expect("the table covers every version");
        let detail = if version.is_some() {
            per_version
        } else {
            hoisted
        };
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(""),
            *detail,
        ));
        return;
    };
    // A schema that does not convert to a structural one: upstream reports the conversion
    // error and then walks a nil schema (a panic), so kssa leaves the fields alone.
    if schema.is_null() || convert_error(schema).is_some() {
        return;
    }
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let field_at = join(&indexed(at, i), ".jsonPath");
        let path = text(f, "jsonPath");
        if path.is_empty() {
            errors.push(FieldError::required(field_at, ""));
            continue;
        }
        let invalid = |detail: &str| {
            FieldError::invalid(field_at.as_str(), FieldError::string_value(path), detail)
        };
        let (found, walked, root) = match crd_field_path::selectable(schema, path) {
            Ok(found) => found,
            Err(Some(e)) => {
                errors.push(invalid(&format!("is an invalid path: {e}")));
                continue;
            }
            // Upstream dereferences a nil schema: no refusal kssa can print.
            Err(None) => continue,
        };
        if root == "metadata" {
            errors.push(invalid("must not point to fields in metadata"));
        }
        let scalar =
            found.is_some_and(|s| matches!(text(s, "type"), "string" | "boolean" | "integer"));
        if !scalar {
            errors.push(invalid("must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."));
        }
        if unique.contains(&walked) {
            errors.push(FieldError::duplicate(
                field_at.as_str(),
                FieldError::string_value(path),
            ));
        } else {
            unique.push(walked);
        }
    }
    if unique.len() > MAX && !too_many_allowed(w, fields, version) {
        errors.push(FieldError::too_many(at, unique.len(), MAX, w.version()));
    }
}

/// The bad value of a version's selectable fields in the internal type (`crd_versions`).
pub(super) fn internal_value(fields: &[Value]) -> (Value, String) {
    let json: Vec<Value> = fields
        .iter()
        .map(|f| {
            Value::Map(
                [(
                    "JSONPath".to_string(),
                    Value::String(text(f, "jsonPath").to_string()),
                )]
                .into_iter()
                .collect(),
            )
        })
        .collect();
    let go: Vec<String> = fields
        .iter()
        .map(|f| {
            format!(
                "apiextensions.SelectableField{{JSONPath:{}}}",
                super::super::goprint::go_quote(text(f, "jsonPath"))
            )
        })
        .collect();
    (
        Value::List(json.into_iter().collect()),
        format!("[]apiextensions.SelectableField{{{}}}", go.join(", ")),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    /// A one-version CRD with a status subresource and the selectable fields `fields` (JSON).
    fn crd(fields: &str) -> String {
        format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
              "metadata":{{"name":"widgets.example.com"}},
              "spec":{{"group":"example.com","scope":"Namespaced",
                "names":{{"plural":"widgets","kind":"Widget"}},
                "versions":[{{"name":"v1","served":true,"storage":true,"selectableFields":{fields},
                  "schema":{{"openAPIV3Schema":{{"type":"object","properties":{{
                    "metadata":{{"type":"object"}},
                    "spec":{{"type":"object","properties":{{
                      "color":{{"type":"string","enum":["red","blue"]}},
                      "size":{{"type":"integer"}},"on":{{"type":"boolean"}},"ratio":{{"type":"number"}},
                      "labels":{{"type":"object","additionalProperties":{{"type":"string"}}}},
                      "any":{{"type":"object","additionalProperties":true}}}}}}}}}}}}}}]}}}}"#
        )
    }

    #[test]
    fn scalar_fields_pass() {
        let ok = crd(
            r#"[{"jsonPath":".spec.color"},{"jsonPath":".spec.size"},{"jsonPath":".spec.on"},{"jsonPath":".spec.labels.team"}]"#,
        );
        assert_eq!(refusal(&ok, None, 37), None);
    }

    #[test]
    fn paths_types_and_duplicates() {
        let bad = crd(
            r#"[{"jsonPath":""},{"jsonPath":".spec.ratio"},{"jsonPath":".spec['size']"},
                {"jsonPath":".spec.nope"},{"jsonPath":".metadata"},{"jsonPath":".spec.any.x"},
                {"jsonPath":".spec.size"},{"jsonPath":".spec.size"}]"#,
        );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.selectableFields[0].jsonPath: Required value",
                "spec.selectableFields[1].jsonPath: Invalid value: \".spec.ratio\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
                "spec.selectableFields[2].jsonPath: Invalid value: \".spec['size']\": is an invalid path: array notation is not allowed",
                "spec.selectableFields[3].jsonPath: Invalid value: \".spec.nope\": is an invalid path: does not refer to a valid field",
                "spec.selectableFields[4].jsonPath: Invalid value: \".metadata\": must not point to fields in metadata",
                "spec.selectableFields[4].jsonPath: Invalid value: \".metadata\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
                "spec.selectableFields[5].jsonPath: Invalid value: \".spec.any.x\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
                "spec.selectableFields[7].jsonPath: Duplicate value: \".spec.size\"",
            ]
        );
        // 1.30: the feature gate is off and the strategy drops the fields.
        assert_eq!(refusal(&bad, None, 30), None);
    }

    #[test]
    fn at_most_eight_unless_stored_so() {
        let nine: Vec<String> = (0..9)
            .map(|i| format!(r#"{{"jsonPath":".spec.labels.k{i}"}}"#))
            .collect();
        let many = crd(&format!("[{}]", nine.join(",")));
        assert_eq!(
            refusal(&many, None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.com\" is invalid: spec.selectableFields: Too many: 9: must have at most 8 items"
        );
        assert_eq!(refusal(&many, Some(&many), 37), None);
    }

    /// A CRD with the versions `versions` (JSON).
    fn with_versions(versions: &str) -> String {
        format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
              "metadata":{{"name":"widgets.example.com"}},
              "spec":{{"group":"example.com","scope":"Namespaced",
                "names":{{"plural":"widgets","kind":"Widget"}},"versions":{versions}}}}}"#
        )
    }

    const SIZE: &str = r#"{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}"#;
    const ON: &str = r#"{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"on":{"type":"boolean"}}}}}}"#;

    #[test]
    fn per_version_fields_need_their_own_schema() {
        let two = |v2: &str, v1: &str, path: &str| {
            with_versions(&format!(
                r#"[{{"name":"v2","served":true,"storage":false,"schema":{v2}}},
                   {{"name":"v1","served":true,"storage":true,"schema":{v1},
                     "selectableFields":[{{"jsonPath":"{path}"}}]}}]"#
            ))
        };
        // Different schemas, fields only in v1: checked at the version, against its schema.
        assert_eq!(refusal(&two(ON, SIZE, ".spec.size"), None, 37), None);
        assert_eq!(
            refusal(&two(ON, SIZE, ".spec.on"), None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.com\" is invalid: spec.versions[1].selectableFields[0].jsonPath: Invalid value: \".spec.on\": is an invalid path: does not refer to a valid field"
        );
        // Identical schemas are hoisted to spec.validation: the version has none of its own.
        let same = two(SIZE, SIZE, ".spec.size");
        assert_eq!(
            refusal_causes(&same, None, 37),
            ["spec.versions[1].selectableFields: Invalid value: \"\": may only be set when `version.schema.openAPIV3Schema` is not included"]
        );
        assert_eq!(
            refusal_causes(&same, None, 33),
            ["spec.versions[1].selectableFields: Invalid value: \"\": selectableFields may only be set when version.schema.openAPIV3Schema is not included"]
        );
    }

    #[test]
    fn hoisted_fields_need_a_hoisted_schema() {
        let versions = format!(
            r#"[{{"name":"v2","served":true,"storage":false,"schema":{ON},
                 "selectableFields":[{{"jsonPath":".spec.size"}}]}},
               {{"name":"v1","served":true,"storage":true,"schema":{SIZE},
                 "selectableFields":[{{"jsonPath":".spec.size"}}]}}]"#
        );
        let crd = with_versions(&versions);
        assert_eq!(
            refusal_causes(&crd, None, 34),
            ["spec.selectableFields: Invalid value: \"\": may only be set when validations.schema is included"]
        );
        assert_eq!(
            refusal_causes(&crd, None, 31),
            ["spec.selectableFields: Invalid value: \"\": selectableFields may only be set when validations.schema is included"]
        );
    }
}
