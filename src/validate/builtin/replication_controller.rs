//! ReplicationControllers, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidateReplicationController`, `ValidateReplicationControllerSpec`,
//! `ValidatePodTemplateSpecForRC`): the selector is a plain label map, not a `LabelSelector`.

use super::super::{ErrorType, FieldError, Write};
use super::fields::{present, spec};
use super::pod;
use super::selector::quoted_labels;
use super::workloads::{
    active_deadline_forbidden, non_negative, template_restart_policy, SELECTOR_MISMATCH,
};
use crate::value::Value;

/// `ValidateReplicationController` / `ValidateReplicationControllerUpdate` (the strategy's
/// `ValidateUpdate`, pkg/registry/core/replicationcontroller/strategy.go, runs both, so the
/// server's causes list every spec error twice on update; kubectl prints each once, and so
/// does kssa), then the stored object's non-convertible fields.
pub fn replication_controller(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    non_negative(spec.get("minReadySeconds"), "spec.minReadySeconds", errors);
    let selector = selector_entries(spec);
    // `ValidateNonEmptySelector`: a map without entries selects nothing.
    if selector.is_empty() {
        errors.push(FieldError::required("spec.selector", ""));
    }
    non_negative(spec.get("replicas"), "spec.replicas", errors);
    template_for_rc(w, spec, &selector, errors);
    if let Some(old) = w.live {
        non_convertible_fields(object, old, errors);
    }
}

/// The strategy's `ValidateUpdate` after the spec checks: every annotation of the stored
/// controller named `non-convertible.kubernetes.io…/<field>` (`helper.NonConvertibleFields`;
/// a ReplicaSet conversion that could not be expressed left it) freezes that field: a
/// `selector` one refuses a changed selector, any other is `unknown non-convertible field`,
/// reported at the bare field name. Go ranges over the annotations; kssa takes them sorted.
fn non_convertible_fields(object: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let Some(Value::Map(annotations)) = old.get_path(&["metadata", "annotations"]) else {
        return;
    };
    let mut entries: Vec<_> = annotations.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    for (key, value) in entries {
        if !key.starts_with("non-convertible.kubernetes.io") {
            continue;
        }
        let parts: Vec<&str> = key.split('/').collect();
        let [_, field] = parts[..] else {
            continue;
        };
        if field.contains("selector") {
            let selector = |v: &Value| {
                let s = spec(v).get("selector").filter(|s| !s.is_null());
                s.and_then(Value::as_map).filter(|m| !m.is_empty()).cloned()
            };
            if selector(object) != selector(old) {
                errors.push(FieldError::invalid(
                    "spec.selector",
                    quoted_labels(spec(object).get("selector")),
                    "cannot update non-convertible selector",
                ));
            }
        } else {
            errors.push(FieldError::new(
                ErrorType::NotFound,
                field,
                FieldError::string_value(value.as_str().unwrap_or("")),
                "unknown non-convertible field",
            ));
        }
    }
}

/// The selector's entries; values that are not strings count as empty (Go's zero value).
fn selector_entries(spec: &Value) -> Vec<(&str, &str)> {
    spec.get("selector")
        .and_then(Value::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default()
}

/// `ValidatePodTemplateSpecForRC`: the template is required; its labels must carry every
/// selector entry; then the pod template, `restartPolicy: Always`, no `activeDeadlineSeconds`.
fn template_for_rc(
    w: &Write,
    spec: &Value,
    selector: &[(&str, &str)],
    errors: &mut Vec<FieldError>,
) {
    let Some(template) = present(spec, "template") else {
        errors.push(FieldError::required("spec.template", ""));
        return;
    };
    let labels = template.get_path(&["metadata", "labels"]);
    let matches = selector.iter().all(|(k, v)| {
        labels
            .and_then(|l| l.get(k))
            .is_some_and(|l| l.as_str().unwrap_or("") == *v)
    });
    if !selector.is_empty() && !matches {
        errors.push(FieldError::invalid(
            "spec.template.metadata.labels",
            quoted_labels(labels),
            SELECTOR_MISMATCH,
        ));
    }
    pod::template(
        template,
        pod::stored(w.live, "spec.template"),
        "spec.template",
        w.version(),
        errors,
    );
    template_restart_policy(spec, &["Always"], errors);
    active_deadline_forbidden(spec, "ReplicationController", errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    /// The causes of the refusal of an RC with `spec`, worded for 1.`minor`.
    fn messages(spec: &str, minor: u8) -> Vec<String> {
        let object = format!(
            r#"{{"apiVersion":"v1","kind":"ReplicationController","metadata":{{"name":"nginx","namespace":"default"}},"spec":{spec}}}"#
        );
        refusal_causes(&object, None, minor)
    }

    const TEMPLATE: &str = r#"{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}"#;

    /// The strategy's non-convertible annotations of the stored controller.
    #[test]
    fn non_convertible_fields_of_the_stored_controller() {
        let rc = |annotations: &str, selector: &str| {
            format!(
                r#"{{"apiVersion":"v1","kind":"ReplicationController","metadata":{{"name":"nginx","namespace":"default","uid":"u","resourceVersion":"3","annotations":{{{annotations}}}}},"spec":{{"selector":{selector},"template":{TEMPLATE}}}}}"#
            )
        };
        let marked = r#""non-convertible.kubernetes.io/selector":"app in (nginx)""#;
        let live = rc(marked, r#"{"app":"nginx"}"#);
        let relabelled = TEMPLATE.replace(r#""app":"nginx""#, r#""app":"nginx","tier":"web""#);
        let widened = rc(marked, r#"{"app":"nginx","tier":"web"}"#).replace(TEMPLATE, &relabelled);
        assert_eq!(
            refusal_causes(&widened, Some(&live), 37),
            ["spec.selector: Invalid value: {\"app\":\"nginx\",\"tier\":\"web\"}: cannot update non-convertible selector"]
        );
        assert_eq!(
            refusal_causes(&widened, Some(&live), 33),
            ["spec.selector: Invalid value: map[string]string{\"app\":\"nginx\", \"tier\":\"web\"}: cannot update non-convertible selector"]
        );
        assert!(refusal_causes(&live, Some(&live), 37).is_empty());
        let other = rc(
            r#""non-convertible.kubernetes.io/minReadySeconds":"x""#,
            r#"{"app":"nginx"}"#,
        );
        assert_eq!(
            refusal_causes(&other, Some(&other), 37),
            ["minReadySeconds: Not found: \"x\": unknown non-convertible field"]
        );
    }

    #[test]
    fn a_valid_controller_passes_and_a_missing_selector_is_defaulted() {
        let spec =
            format!(r#"{{"replicas":3,"selector":{{"app":"nginx"}},"template":{TEMPLATE}}}"#);
        assert!(messages(&spec, 37).is_empty());
        assert!(messages(&format!(r#"{{"template":{TEMPLATE}}}"#), 30).is_empty());
    }

    #[test]
    fn the_selector_is_required_and_must_match_the_template() {
        let spec = format!(r#"{{"replicas":-1,"selector":{{"app":"web"}},"template":{TEMPLATE}}}"#);
        assert_eq!(
            messages(&spec, 37),
            [
                "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                "spec.template.metadata.labels: Invalid value: {\"app\":\"nginx\"}: `selector` does not match template `labels`",
            ]
        );
        assert_eq!(
            messages(&spec, 33)[1],
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"nginx\"}: `selector` does not match template `labels`"
        );
        assert_eq!(
            messages(r#"{"selector":{},"minReadySeconds":-5}"#, 37),
            [
                "spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0",
                "spec.selector: Required value",
                "spec.template: Required value",
            ]
        );
    }

    #[test]
    fn the_template_restarts_always_without_a_deadline() {
        let template = TEMPLATE.replace(
            r#""containers""#,
            r#""restartPolicy":"OnFailure","activeDeadlineSeconds":60,"containers""#,
        );
        let spec = format!(r#"{{"selector":{{"app":"nginx"}},"template":{template}}}"#);
        assert_eq!(
            messages(&spec, 37),
            [
                "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
                "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported",
            ]
        );
    }
}
