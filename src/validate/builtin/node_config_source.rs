//! A Node's deprecated `spec.configSource`, as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go checks it on update (`validateNodeConfigSourceSpec`,
//! `validateConfigMapNodeConfigSourceSpec`, `validateConfigMapNodeConfigSource`,
//! `validateNodeConfigStatus`; 1.30–1.36). The strategy drops the fields unless the stored
//! node has them, so they are checked only then.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{present, spec, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// Until 1.33 each `Required` error names its field (`namespace must be set`, `uid must be set
/// in status`); from 1.34 the detail is empty.
const REQUIRED_DETAIL_NAMED: VersionRange = VersionRange::until(33);

/// A string format check: its messages, none when well-formed.
type Format = fn(&str) -> Vec<String>;

/// `validateNodeConfigSourceSpec` of `spec.configSource` when both the stored and the new node
/// have one, then `validateNodeConfigStatus` of the validated status's `config` (the strategy
/// drops both unless the stored node has them).
pub fn check(
    object: &Value,
    old: &Value,
    status: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if present(spec(old), "configSource").is_some() {
        if let Some(source) = present(spec(object), "configSource") {
            reference(source, "spec.configSource", false, version, errors);
        }
    }
    let Some(config) = status.and_then(|s| present(s, "config")) else {
        return;
    };
    for key in ["assigned", "active", "lastKnownGood"] {
        if let Some(source) = present(config, key) {
            let at = format!("status.config.{key}");
            reference(source, &at, true, version, errors);
        }
    }
}

/// A `NodeConfigSource` at `at`: its `configMap` reference (in a spec `uid` and
/// `resourceVersion` forbidden, in a status required; then `namespace`, `name`,
/// `kubeletConfigKey` required and well-formed), or, without one, `Invalid value:
/// {"ConfigMap":null}: exactly one reference subfield must be non-nil` (the internal struct:
/// JSON from 1.34, `%#v` before).
fn reference(
    source: &Value,
    at: &str,
    in_status: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(config_map) = present(source, "configMap") else {
        // The internal `*core.NodeConfigSource`, dereferenced by `ErrorBody`.
        let mut json = crate::value::Map::default();
        json.insert("ConfigMap".into(), Value::Null);
        errors.push(FieldError::invalid(
            at,
            BadValue::GoValue {
                value: Value::Map(json),
                go_syntax: "core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}"
                    .into(),
            },
            "exactly one reference subfield must be non-nil",
        ));
        return;
    };
    let at = join(at, ".configMap");
    let required = |field: &str, suffix: &str| {
        let detail = if REQUIRED_DETAIL_NAMED.contains(version) {
            format!("{field} must be set{suffix}")
        } else {
            String::new()
        };
        FieldError::required(join(&at, &format!(".{field}")), detail)
    };
    for field in ["uid", "resourceVersion"] {
        let set = !text(config_map, field).is_empty();
        if in_status && !set {
            errors.push(required(field, " in status"));
        } else if !in_status && set {
            errors.push(FieldError::forbidden(
                join(&at, &format!(".{field}")),
                format!("{field} must not be set in spec"),
            ));
        }
    }
    let fields: [(&str, Format); 3] = [
        ("namespace", formats::dns1123_label),
        ("name", formats::dns1123_subdomain),
        ("kubeletConfigKey", formats::config_map_key),
    ];
    for (field, format) in fields {
        let value = text(config_map, field);
        if value.is_empty() {
            errors.push(required(field, ""));
            continue;
        }
        for msg in format(value) {
            errors.push(FieldError::invalid(
                join(&at, &format!(".{field}")),
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
                "spec.configSource.configMap.kubeletConfigKey: Required value",
            ]
        );
        assert_eq!(
            refusal_causes(&bad, Some(OLD), 33).last().unwrap(),
            "spec.configSource.configMap.kubeletConfigKey: Required value: kubeletConfigKey must be set"
        );
        // Not on create (dropped), nor when the stored node has none.
        assert!(refusal_causes(&bad, None, 37).is_empty());
        let plain = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}"#;
        assert!(refusal_causes(&bad, Some(plain), 37).is_empty());
    }

    #[test]
    fn a_source_needs_its_config_map() {
        let empty = OLD.replace(
            r#"{"configMap":{"namespace":"kube-system","name":"node-config",
        "kubeletConfigKey":"kubelet"}}"#,
            "{}",
        );
        assert_eq!(
            refusal_causes(&empty, Some(OLD), 36),
            ["spec.configSource: Invalid value: {\"ConfigMap\":null}: exactly one reference subfield must be non-nil"]
        );
        assert_eq!(
            refusal_causes(&empty, Some(OLD), 33),
            ["spec.configSource: Invalid value: core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}: exactly one reference subfield must be non-nil"]
        );
    }

    #[test]
    fn a_status_config_reference_needs_its_uid_and_version() {
        let config = r#""config":{"active":{"configMap":{"namespace":"kube-system",
            "name":"node-config","kubeletConfigKey":"kubelet","uid":"u1","resourceVersion":"4"}}}"#;
        let stored = [&OLD[..OLD.len() - 1], r#","status":{"#, config, "}}"].concat();
        let bad = stored.replace(r#""uid":"u1","resourceVersion":"4""#, "");
        let bad = bad.replace(
            r#""kubeletConfigKey":"kubelet","#,
            r#""kubeletConfigKey":"kubelet""#,
        );
        use super::super::status_tests::status_write;
        assert_eq!(status_write(36, &stored, &stored), None);
        assert_eq!(
            status_write(36, &stored, &bad).unwrap(),
            "The Node \"n1\" is invalid: \n\
             * status.config.active.configMap.uid: Required value\n\
             * status.config.active.configMap.resourceVersion: Required value"
        );
        assert!(status_write(33, &stored, &bad)
            .unwrap()
            .contains("uid: Required value: uid must be set in status"));
    }
}
