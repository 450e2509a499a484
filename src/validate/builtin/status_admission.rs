//! Status writes of ValidatingAdmissionPolicies, as k8s.io/kubernetes
//! pkg/apis/admissionregistration/validation `ValidateValidatingAdmissionPolicyStatusUpdate`
//! checks them (the same in 1.30–1.36): each `typeChecking.expressionWarnings` entry needs its
//! `warning` and a `fieldRef` (`validateFieldRef`, blank after trimming), then the conditions
//! as every `metav1.Condition` list ([`super::conditions`]). Whether a `fieldRef` parses as a
//! kubectl JSONPath (`invalid JSONPath: …`) is not checked.

use super::super::{FieldError, Write};
use super::fields::{items, text};
use super::status::status;
use crate::value::Value;

/// `validateValidatingAdmissionPolicyStatus`.
pub fn validating_admission_policy(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    let warnings = s
        .get("typeChecking")
        .and_then(|t| t.get("expressionWarnings"));
    for (i, warning) in items(warnings).iter().enumerate() {
        let at = format!("status.typeChecking.expressionWarnings[{i}]");
        if text(warning, "warning").is_empty() {
            errors.push(FieldError::required(format!("{at}.warning"), ""));
        }
        if text(warning, "fieldRef").trim().is_empty() {
            errors.push(FieldError::required(format!("{at}.fieldRef"), ""));
        }
    }
    super::conditions::check(
        s.get("conditions"),
        "status.conditions",
        w.version(),
        errors,
    );
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const POLICY: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1",
      "kind":"ValidatingAdmissionPolicy","metadata":{"name":"replicas","resourceVersion":"7"},
      "spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":["apps"],
        "apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
        "validations":[{"expression":"object.spec.replicas <= 5"}]},
      "status":{"observedGeneration":1}}"#;

    #[test]
    fn expression_warnings_and_conditions() {
        let good = POLICY.replace(
            r#""observedGeneration":1"#,
            r#""observedGeneration":1,"typeChecking":{"expressionWarnings":[
               {"fieldRef":"spec.validations[0].expression","warning":"no such key"}]},
               "conditions":[{"type":"Ready","status":"True","reason":"TypeChecked",
               "lastTransitionTime":"2026-11-01T10:00:00Z","message":""}]"#,
        );
        assert_eq!(status_write(36, POLICY, &good), None);
        let bad = POLICY.replace(
            r#""observedGeneration":1"#,
            r#""observedGeneration":1,"typeChecking":{"expressionWarnings":[{"fieldRef":"  "}]},
               "conditions":[{"type":"Ready","status":"True","reason":"TypeChecked"}]"#,
        );
        assert_eq!(
            status_write(36, POLICY, &bad).unwrap(),
            "The ValidatingAdmissionPolicy \"replicas\" is invalid: \n\
             * status.typeChecking.expressionWarnings[0].warning: Required value\n\
             * status.typeChecking.expressionWarnings[0].fieldRef: Required value\n\
             * status.conditions[0].lastTransitionTime: Required value"
        );
    }
}
