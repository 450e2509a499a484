//! Objects a custom resource embeds (`x-kubernetes-embedded-resource`), checked as apiextensions'
//! `pkg/apiserver/schema/objectmeta/validation.go` (`Validate`, `validateEmbeddedResource`)
//! checks them: `apiVersion` and `kind` present and well formed, `metadata` as object metadata
//! whose name is a path segment.

use super::schema::SchemaNode;
use crate::kube::KubeVersion;
use crate::validate::builtin::meta::{annotations, labels, NameRule};
use crate::validate::field::join;
use crate::validate::field::{BadValue, FieldError};
use crate::validate::formats;
use crate::value::Value;

/// The errors of every embedded resource in `object`.
pub fn validate_embedded(
    root: &SchemaNode,
    object: &Value,
    version: KubeVersion,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    // The resource root's own metadata is checked with the object's (builtin::meta).
    walk_children(root, object, None, version, &mut errors);
    errors
}

fn child(path: Option<&str>, name: &str) -> String {
    match path {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    }
}

fn walk(
    node: &SchemaNode,
    v: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if node.embedded_resource {
        if let Value::Map(_) = v {
            embedded_resource(v, path, version, errors);
        }
    }
    walk_children(node, v, Some(path), version, errors);
}

fn walk_children(
    node: &SchemaNode,
    v: &Value,
    path: Option<&str>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    match v {
        Value::Map(m) => {
            for (k, item) in m {
                if let Some(property) = node.properties.get(k) {
                    walk(property, item, &child(path, k), version, errors);
                } else if let Some(additional) = node.additional_properties.as_deref() {
                    let p = format!("{}[{k}]", path.unwrap_or(""));
                    walk(additional, item, &p, version, errors);
                }
            }
        }
        Value::List(items) => {
            if let Some(item_schema) = node.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{}[{i}]", path.unwrap_or(""));
                    walk(item_schema, item, &p, version, errors);
                }
            }
        }
        _ => {}
    }
}

fn embedded_resource(v: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let api_version_path = join(path, ".apiVersion");
    let kind_path = join(path, ".kind");
    if v.get("apiVersion").is_none() {
        errors.push(FieldError::required(api_version_path.as_str(), ""));
    }
    if v.get("kind").is_none() {
        errors.push(FieldError::required(kind_path.as_str(), ""));
    }
    let Some(m) = v.as_map() else { return };
    for (k, value) in m {
        match k.as_str() {
            "apiVersion" => match value.as_str() {
                None => errors.push(must_be_a_string(&api_version_path, value)),
                Some("") => errors.push(FieldError::invalid(
                    api_version_path.as_str(),
                    FieldError::string_value(""),
                    "must not be empty",
                )),
                // schema.ParseGroupVersion: at most one slash.
                Some(s) if s != "/" && s.matches('/').count() > 1 => {
                    errors.push(FieldError::invalid(
                        api_version_path.as_str(),
                        FieldError::string_value(s),
                        format!("unexpected GroupVersion string: {s}"),
                    ))
                }
                Some(_) => {}
            },
            "kind" => match value.as_str() {
                None => errors.push(must_be_a_string(&kind_path, value)),
                Some("") => errors.push(FieldError::invalid(
                    kind_path.as_str(),
                    FieldError::string_value(""),
                    "must not be empty",
                )),
                Some(kind) => {
                    let messages = formats::dns1035_label(&kind.to_lowercase());
                    if !messages.is_empty() {
                        errors.push(FieldError::invalid(
                            kind_path.as_str(),
                            FieldError::string_value(kind),
                            format!(
                                "may have mixed case, but should otherwise match: {}",
                                messages.join(",")
                            ),
                        ));
                    }
                }
            },
            "metadata" => metadata(value, &join(path, ".metadata"), version, errors),
            _ => {}
        }
    }
}

fn must_be_a_string(path: &str, value: &Value) -> FieldError {
    FieldError::invalid(path, BadValue::Value(value.clone()), "must be a string")
}

/// `ValidateObjectMeta` with path-segment names (an empty name counts as valid: the reference
/// fills in a placeholder), the namespace only when set.
fn metadata(meta: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let text = |k: &str| meta.get(k).and_then(Value::as_str).unwrap_or("");
    let generate_name = text("generateName");
    if !generate_name.is_empty() {
        for msg in NameRule::PathSegment.messages(generate_name, true) {
            errors.push(FieldError::invalid(
                join(path, ".generateName"),
                FieldError::string_value(generate_name),
                msg,
            ));
        }
    }
    let name = text("name");
    for msg in NameRule::PathSegment.messages(name, false) {
        if !name.is_empty() {
            errors.push(FieldError::invalid(
                join(path, ".name"),
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    let namespace = text("namespace");
    if !namespace.is_empty() {
        for msg in formats::dns1123_label(namespace) {
            errors.push(FieldError::invalid(
                join(path, ".namespace"),
                FieldError::string_value(namespace),
                msg,
            ));
        }
    }
    labels(meta.get("labels"), &join(path, ".labels"), version, errors);
    annotations(
        meta.get("annotations"),
        &join(path, ".annotations"),
        version,
        errors,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_resources_need_api_version_and_kind() {
        let s = SchemaNode::parse(
            &serde_yaml::from_str(
                "type: object
properties:
  spec:
    type: object
    properties:
      template:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
",
            )
            .unwrap(),
        );
        let obj: Value = serde_yaml::from_str(
            "spec: {template: {kind: 'Bad_Kind', metadata: {name: a/b, labels: {'-x': y}}}}",
        )
        .unwrap();
        let v = KubeVersion::NEWEST;
        let got: Vec<String> = validate_embedded(&s, &obj, v)
            .iter()
            .map(|e| e.message(v))
            .collect();
        assert_eq!(got[0], "spec.template.apiVersion: Required value");
        assert!(got[1].starts_with(
            "spec.template.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: "
        ), "{got:?}");
        assert_eq!(
            got[2],
            "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'"
        );
        assert!(
            got[3].starts_with("spec.template.metadata.labels: Invalid value: \"-x\""),
            "{got:?}"
        );
        assert_eq!(got.len(), 4);
    }
}
