//! A Node's deprecated `spec.configSource`, as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go checks it on update (`validateNodeConfigSourceSpec`,
//! `validateConfigMapNodeConfigSourceSpec`, `validateConfigMapNodeConfigSource`; read in a copy
//! of about 1.27–1.28). The strategy drops the field unless the stored node has one, so it is
//! checked only then.

use super::super::formats;
use super::super::FieldError;
use super::fields::{present, spec, text};
use crate::validate::field::join;
use crate::value::Value;

const AT: &str = "spec.configSource";

/// A string format check: its messages, none when well-formed.
type Format = fn(&str) -> Vec<String>;

/// `validateNodeConfigSourceSpec` when both the stored and the new node have a
/// `configSource`: its `configMap` reference (`uid` and `resourceVersion` forbidden, then
/// `namespace`, `name`, `kubeletConfigKey` required and well-formed). A source without
/// `configMap` (`Invalid value: …: exactly one reference subfield must be non-nil`, quoting the
/// internal struct) is not reported.
pub fn check(object: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    if present(spec(old), "configSource").is_none() {
        return;
    }
    let Some(source) = present(spec(object), "configSource") else {
        return;
    };
    let Some(config_map) = present(source, "configMap") else {
        return;
    };
    let at = join(AT, ".configMap");
    if !text(config_map, "uid").is_empty() {
        errors.push(FieldError::forbidden(
            join(&at, ".uid"),
            "uid must not be set in spec",
        ));
    }
    if !text(config_map, "resourceVersion").is_empty() {
        errors.push(FieldError::forbidden(
            join(&at, ".resourceVersion"),
            "resourceVersion must not be set in spec",
        ));
    }
    // (field, the message when empty, the format check)
    let fields: [(&str, &str, Format); 3] = [
        ("namespace", "namespace must be set", formats::dns1123_label),
        ("name", "name must be set", formats::dns1123_subdomain),
        (
            "kubeletConfigKey",
            "kubeletConfigKey must be set",
            formats::config_map_key,
        ),
    ];
    for (field, missing, format) in fields {
        let value = text(config_map, field);
        let field_at = join(&at, &format!(".{field}"));
        if value.is_empty() {
            errors.push(FieldError::required(field_at, missing));
            continue;
        }
        for msg in format(value) {
            errors.push(FieldError::invalid(
                &field_at,
                FieldError::string_value(value),
                msg,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const OLD: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},
      "spec":{"configSource":{"configMap":{"namespace":"kube-system","name":"node-config",
        "kubeletConfigKey":"kubelet"}}}}"#;

    #[test]
    fn a_config_map_source_is_checked_on_update_when_stored() {
        assert!(refusal_causes(OLD, Some(OLD), 37).is_empty());
        let bad = OLD
            .replace(
                r#""namespace":"kube-system","#,
                r#""uid":"u1","namespace":"Kube_System","#,
            )
            .replace(
                r#""kubeletConfigKey":"kubelet""#,
                r#""kubeletConfigKey":"""#,
            );
        assert_eq!(
            refusal_causes(&bad, Some(OLD), 37),
            [
                "spec.configSource.configMap.uid: Forbidden: uid must not be set in spec",
                "spec.configSource.configMap.namespace: Invalid value: \"Kube_System\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.configSource.configMap.kubeletConfigKey: Required value: kubeletConfigKey must be set",
            ]
        );
        // Not on create (dropped), nor when the stored node has none.
        assert!(refusal_causes(&bad, None, 37).is_empty());
        let plain = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}"#;
        assert!(refusal_causes(&bad, Some(plain), 37).is_empty());
    }
}
