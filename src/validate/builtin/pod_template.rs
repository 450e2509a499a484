//! PodTemplates, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidatePodTemplate`, `ValidatePodTemplateUpdate`, both `ValidatePodTemplateSpec` at
//! `template` on the pod template kssa checks for workloads): no rule on `restartPolicy` or
//! `activeDeadlineSeconds`, which only the workload kinds add.

use super::super::{FieldError, Write};
use super::pod;
use crate::value::Value;

/// `ValidatePodTemplate` / `ValidatePodTemplateUpdate` (the same template rules).
pub fn pod_template(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let template = object.get("template").unwrap_or(&empty);
    let old = pod::stored(w.live, "template");
    pod::template(template, old, "template", w.version(), errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const TEMPLATE: &str = r#"{"apiVersion":"v1","kind":"PodTemplate",
      "metadata":{"name":"web","namespace":"default"},
      "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"restartPolicy":"Never","activeDeadlineSeconds":30,
          "containers":[{"name":"web","image":"nginx:1.27"}]}}}"#;

    #[test]
    fn a_template_with_any_restart_policy_passes() {
        assert!(refusal_causes(TEMPLATE, None, 37).is_empty());
        assert!(refusal_causes(TEMPLATE, Some(TEMPLATE), 37).is_empty());
    }

    #[test]
    fn the_template_is_checked_at_template() {
        let bad = TEMPLATE
            .replace(r#""app":"web""#, r#""app":"web app""#)
            .replace(r#""name":"web","image""#, r#""name":"Web","image""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "template.labels: Invalid value: \"web app\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            ]
        );
    }
}
