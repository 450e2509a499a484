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
    rules(
        names,
        "spec.names",
        plural,
        &singular,
        kind,
        &list_kind,
        errors,
    );
}

/// `ValidateCustomResourceDefinitionStatus`: the names rules on `status.acceptedNames`, as
/// stored (no defaults). Reached on updates (the strategy keeps the stored status) and on
/// writes through the `status` subresource (`ValidateUpdateCustomResourceDefinitionStatus`).
pub(super) fn accepted_names(object: &Value, errors: &mut Vec<FieldError>) {
    let Some(names) = object.get_path(&["status", "acceptedNames"]) else {
        return;
    };
    let t = |key: &str| text(names, key);
    let (plural, singular, kind, list_kind) =
        (t("plural"), t("singular"), t("kind"), t("listKind"));
    rules(
        names,
        "status.acceptedNames",
        plural,
        singular,
        kind,
        list_kind,
        errors,
    );
}

/// `ValidateCustomResourceDefinitionNames` at `at`, with the (defaulted) names given.
fn rules(
    names: &Value,
    at: &str,
    plural: &str,
    singular: &str,
    kind: &str,
    list_kind: &str,
    errors: &mut Vec<FieldError>,
) {
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
    label(&join(at, ".plural"), plural, false, errors);
    label(&join(at, ".singular"), singular, false, errors);
    label(&join(at, ".kind"), kind, true, errors);
    label(&join(at, ".listKind"), list_kind, true, errors);
    for (i, short) in items(names.get("shortNames")).iter().enumerate() {
        let short = short.as_str().unwrap_or("");
        let msgs = formats::dns1035_label(short);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                indexed(&join(at, ".shortNames"), i),
                FieldError::string_value(short),
                msgs.join(","),
            ));
        }
    }
    if !kind.is_empty() && kind == list_kind {
        errors.push(FieldError::invalid(
            join(at, ".listKind"),
            FieldError::string_value(list_kind),
            "kind and listKind may not be the same",
        ));
    }
    for (i, category) in items(names.get("categories")).iter().enumerate() {
        let category = category.as_str().unwrap_or("");
        let msgs = formats::dns1035_label(category);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                indexed(&join(at, ".categories"), i),
                FieldError::string_value(category),
                msgs.join(","),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
      "metadata":{"name":"widgets.example.com"},
      "spec":{"group":"example.com","scope":"Namespaced",
        "names":{"plural":"widgets","kind":"Widget"},
        "versions":[{"name":"v1","served":true,"storage":true,
          "schema":{"openAPIV3Schema":{"type":"object"}}}]}"#;

    #[test]
    fn stored_accepted_names_are_validated_on_update() {
        let create = format!(
            "{CRD},\"status\":{{\"acceptedNames\":{{\"kind\":\"W\",\"listKind\":\"W\"}}}}}}"
        );
        // On create the strategy clears the status.
        assert_eq!(refusal_causes(&create, None, 37), Vec::<String>::new());
        let live = format!(
            "{CRD},\"status\":{{\"storedVersions\":[\"v1\"],\"acceptedNames\":{{\"plural\":\"Widgets\",\"kind\":\"Widget\",\"listKind\":\"Widget\",\"shortNames\":[\"w_\"]}}}}}}"
        );
        assert_eq!(
            refusal_causes(&format!("{CRD}}}"), Some(&live), 37),
            [
                "status.acceptedNames.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                "status.acceptedNames.shortNames[0]: Invalid value: \"w_\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                "status.acceptedNames.listKind: Invalid value: \"Widget\": kind and listKind may not be the same",
            ]
        );
    }
}
