//! A CustomResourceDefinition's `spec.names`, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go `ValidateCustomResourceDefinitionNames`
//! checks them; [`super::crd_definition`] runs it in the server's order.

use super::super::{formats, FieldError};
use super::fields::{items, text};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `ValidateCustomResourceDefinitionNames` after the required names (v1 defaults `singular`
/// and `listKind` from `kind`).
pub(super) fn names(names: &Value, errors: &mut Vec<FieldError>) {
    let plural = text(names, "plural");
    let kind = text(names, "kind");
    let singular = match text(names, "singular") {
        "" => kind.to_lowercase(),
        s => s.to_string(),
    };
    let list_kind = match text(names, "listKind") {
        "" if !kind.is_empty() => format!("{kind}List"),
        s => s.to_string(),
    };
    for (field, value) in [
        ("plural", plural),
        ("singular", singular.as_str()),
        ("kind", kind),
        ("listKind", list_kind.as_str()),
    ] {
        if value.is_empty() {
            errors.push(FieldError::required(join("spec.names.", field), ""));
        }
    }
    let label = |at: &str, value: &str, lowered: bool, errors: &mut Vec<FieldError>| {
        let msgs = formats::dns1035_label(&if lowered {
            value.to_lowercase()
        } else {
            value.to_string()
        });
        if value.is_empty() || msgs.is_empty() {
            return;
        }
        let prefix = if lowered {
            "may have mixed case, but should otherwise match: "
        } else {
            ""
        };
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            format!("{prefix}{}", msgs.join(",")),
        ));
    };
    label("spec.names.plural", plural, false, errors);
    label("spec.names.singular", &singular, false, errors);
    label("spec.names.kind", kind, true, errors);
    label("spec.names.listKind", &list_kind, true, errors);
    for (i, short) in items(names.get("shortNames")).iter().enumerate() {
        let short = short.as_str().unwrap_or("");
        let msgs = formats::dns1035_label(short);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                indexed("spec.names.shortNames", i),
                FieldError::string_value(short),
                msgs.join(","),
            ));
        }
    }
    if !kind.is_empty() && kind == list_kind {
        errors.push(FieldError::invalid(
            "spec.names.listKind",
            FieldError::string_value(&list_kind),
            "kind and listKind may not be the same",
        ));
    }
    for (i, category) in items(names.get("categories")).iter().enumerate() {
        let category = category.as_str().unwrap_or("");
        let msgs = formats::dns1035_label(category);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                indexed("spec.names.categories", i),
                FieldError::string_value(category),
                msgs.join(","),
            ));
        }
    }
}
