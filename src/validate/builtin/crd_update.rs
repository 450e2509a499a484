//! What a CustomResourceDefinition update may change (`validateCustomResourceDefinitionSpecUpdate`)
//! and the stored versions its strategy prepares (`ValidateCustomResourceDefinitionStoredVersions`),
//! k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go.

use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, text};
use crate::validate::field::indexed;
use crate::value::Value;

/// `validateCustomResourceDefinitionSpecUpdate`: scope and kind fixed once the stored object
/// is Established, group and plural always.
pub(super) fn spec_update(
    spec: &Value,
    old_spec: &Value,
    old: &Value,
    errors: &mut Vec<FieldError>,
) {
    let established = items(old.get_path(&["status", "conditions"]))
        .iter()
        .any(|c| text(c, "type") == "Established" && text(c, "status") == "True");
    let names = |s: &Value, key: &str| -> String {
        text(s.get("names").unwrap_or(&Value::Null), key).to_string()
    };
    let mut immutable = |at: &str, new: String, old: String| {
        if new != old {
            errors.push(FieldError::invalid(
                at,
                FieldError::string_value(&new),
                "field is immutable",
            ));
        }
    };
    if established {
        immutable(
            "spec.scope",
            text(spec, "scope").into(),
            text(old_spec, "scope").into(),
        );
        immutable(
            "spec.names.kind",
            names(spec, "kind"),
            names(old_spec, "kind"),
        );
    }
    immutable(
        "spec.group",
        text(spec, "group").into(),
        text(old_spec, "group").into(),
    );
    immutable(
        "spec.names.plural",
        names(spec, "plural"),
        names(old_spec, "plural"),
    );
}

/// `ValidateCustomResourceDefinitionStoredVersions` on the status the strategy prepares: on
/// create the first storage version; on update the stored object's list plus the new storage
/// version.
pub(super) fn stored_versions(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    let versions = items(spec.get("versions"));
    let mut stored: Vec<String> = w.live.map_or_else(Vec::new, |old| {
        items(old.get_path(&["status", "storedVersions"]))
            .iter()
            .map(|v| v.as_str().unwrap_or("").to_string())
            .collect()
    });
    if let Some(v) = versions
        .iter()
        .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
    {
        let name = text(v, "name").to_string();
        if !stored.contains(&name) {
            stored.push(name);
        }
    }
    let value = || {
        let quoted: Vec<String> = stored.iter().map(|s| go_quote(s)).collect();
        BadValue::GoValue {
            value: if stored.is_empty() {
                Value::Null
            } else {
                Value::List(stored.iter().map(|s| Value::String(s.clone())).collect())
            },
            go_syntax: if stored.is_empty() {
                "[]string(nil)".to_string()
            } else {
                format!("[]string{{{}}}", quoted.join(", "))
            },
        }
    };
    let at = "status.storedVersions";
    if stored.is_empty() {
        errors.push(FieldError::invalid(
            at,
            value(),
            "must have at least one stored version",
        ));
        return;
    }
    let mut remaining: Vec<(usize, &String)> = stored.iter().enumerate().collect();
    for v in versions {
        let name = text(v, "name");
        let found = remaining.iter().position(|(_, s)| s.as_str() == name);
        if v.get("storage").and_then(Value::as_bool) == Some(true) && found.is_none() {
            errors.push(FieldError::invalid(
                at,
                value(),
                format!("must have the storage version {name}"),
            ));
        }
        if let Some(p) = found {
            remaining.remove(p);
        }
    }
    // Upstream ranges over a map; kssa reports in the list's order.
    for (i, v) in remaining {
        errors.push(FieldError::invalid(
            indexed(at, i),
            FieldError::string_value(v),
            format!("missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"),
        ));
    }
}
