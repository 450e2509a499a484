//! What a CustomResourceDefinition version serves besides its schema: the `scale`
//! subresource's paths and the printer columns (k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go `ValidateCustomResourceDefinitionSubresources`,
//! `ValidateCustomResourceColumnDefinition`); [`super::crd_definition`] decides where they are
//! reported.

use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `printerColumnDatatypes`, sorted.
const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_TYPE_LIST: &[&str] = &["boolean", "date", "integer", "number", "string"];
/// `customResourceColumnDefinitionFormats`, sorted.
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";
const COLUMN_FORMAT_LIST: &[&str] = &[
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];

/// `ValidateCustomResourceDefinitionSubresources`: the scale subresource's paths.
pub(super) fn subresources(sub: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let Some(scale) = present(sub, "scale") else {
        return;
    };
    for (key, prefix, under) in [
        (
            "specReplicasPath",
            ".spec.",
            "should be a json path under .spec",
        ),
        (
            "statusReplicasPath",
            ".status.",
            "should be a json path under .status",
        ),
    ] {
        let path = text(scale, key);
        let field = format!("{at}.scale.{key}");
        if path.is_empty() {
            errors.push(FieldError::required(field, ""));
        } else if !simple_json_path(path, &field, errors) && !path.starts_with(prefix) {
            errors.push(FieldError::invalid(
                field,
                FieldError::string_value(path),
                under,
            ));
        }
    }
    let selector = text(scale, "labelSelectorPath");
    if !selector.is_empty() {
        let field = format!("{at}.scale.labelSelectorPath");
        if !simple_json_path(selector, &field, errors)
            && !selector.starts_with(".spec.")
            && !selector.starts_with(".status.")
        {
            // A *string, which ErrorBody dereferences in every version.
            let value = BadValue::Value(Value::String(selector.to_string()));
            errors.push(FieldError::invalid(
                field,
                value,
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// `validateSimpleJSONPath`: whether it reported an error.
fn simple_json_path(path: &str, at: &str, errors: &mut Vec<FieldError>) -> bool {
    if !path.starts_with('.') {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(path),
            "must be a simple json path starting with .",
        ));
        return true;
    }
    false
}

/// `ValidateCustomResourceColumnDefinition` for each column of `v` at `at[i]`.
pub(super) fn columns(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    for (i, col) in items(v.get("additionalPrinterColumns")).iter().enumerate() {
        let at = indexed(at, i);
        if text(col, "name").is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        }
        let kind = text(col, "type");
        let must = format!("must be one of {COLUMN_TYPES}");
        if kind.is_empty() {
            errors.push(FieldError::required(join(&at, ".type"), must));
        } else if !COLUMN_TYPE_LIST.contains(&kind) {
            errors.push(FieldError::invalid(
                join(&at, ".type"),
                FieldError::string_value(kind),
                must,
            ));
        }
        let format = text(col, "format");
        if !format.is_empty() && !COLUMN_FORMAT_LIST.contains(&format) {
            errors.push(FieldError::invalid(
                join(&at, ".format"),
                FieldError::string_value(format),
                format!("must be one of {COLUMN_FORMATS}"),
            ));
        }
        let path = text(col, "jsonPath");
        let path_at = join(&at, ".JSONPath");
        if path.is_empty() {
            errors.push(FieldError::required(path_at, ""));
        } else {
            simple_json_path(path, &path_at, errors);
        }
    }
}
