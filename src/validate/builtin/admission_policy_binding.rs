//! ValidatingAdmissionPolicyBinding, as k8s.io/kubernetes
//! pkg/apis/admissionregistration/validation checks it on create and update alike
//! (`validateValidatingAdmissionPolicyBindingSpec`, `validateParamRef`,
//! `validateValidationActions`, `validateMatchResources`).

use super::super::formats;
use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::match_resources::match_resources;
use super::selector;
use crate::kube::VersionRange;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `validValidationActions`, sorted.
const VALIDATION_ACTIONS: &[&str] = &["Audit", "Deny", "Warn"];
/// The parameter-not-found actions, in upstream's (unsorted) order.
const NOT_FOUND_ACTIONS: &[&str] = &["Deny", "Allow"];
/// Both fields of a `paramRef` that names its parameters both ways.
const EXCLUSIVE: &str = "name and selector are mutually exclusive";
const DENY_AND_WARN: &str = "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)";

/// Where the server reports errors of `spec.matchResources`: 1.30 and 1.31 spell the path
/// `matchResouces`; 1.32 spells it right (`validateValidatingAdmissionPolicyBindingSpec`, read
/// in the 1.31 and 1.32 sources).
const MATCH_RESOURCES_PATH: &[(VersionRange, &str)] = &[
    (VersionRange::until(31), "spec.matchResouces"),
    (VersionRange::since(32), "spec.matchResources"),
];

/// `ValidateValidatingAdmissionPolicyBinding` / `…Update` (the metadata is checked apart).
pub fn validating_admission_policy_binding(
    w: &Write,
    object: &Value,
    errors: &mut Vec<FieldError>,
) {
    let spec = spec(object);
    policy_name(spec, errors);
    if let Some(param_ref) = present(spec, "paramRef") {
        self::param_ref(w, param_ref, "spec.paramRef", errors);
    }
    if let Some(mr) = present(spec, "matchResources") {
        let at = w.version().pick(MATCH_RESOURCES_PATH);
        match_resources(w, mr, at, errors);
    }
    validation_actions(items(spec.get("validationActions")), errors);
}

/// `spec.policyName`: required, a DNS subdomain.
pub(super) fn policy_name(spec: &Value, errors: &mut Vec<FieldError>) {
    let policy = text(spec, "policyName");
    if policy.is_empty() {
        errors.push(FieldError::required("spec.policyName", ""));
    } else {
        for msg in formats::dns1123_subdomain(policy) {
            errors.push(FieldError::invalid(
                "spec.policyName",
                FieldError::string_value(policy),
                msg,
            ));
        }
    }
}

/// `validateParamRef`: a name or a selector, not both; `parameterNotFoundAction` required.
pub(super) fn param_ref(w: &Write, pr: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let name = text(pr, "name");
    let selector = present(pr, "selector");
    if !name.is_empty() {
        for msg in formats::path_segment_name(name) {
            errors.push(FieldError::invalid(
                join(at, ".name"),
                FieldError::string_value(name),
                msg,
            ));
        }
        if selector.is_some() {
            errors.push(FieldError::forbidden(join(at, ".name"), EXCLUSIVE));
        }
    }
    if let Some(sel) = selector {
        selector::validate(sel, &join(at, ".selector"), w.version(), errors);
        if !name.is_empty() {
            errors.push(FieldError::forbidden(join(at, ".selector"), EXCLUSIVE));
        }
    }
    if name.is_empty() && selector.is_none() {
        errors.push(FieldError::required(
            at,
            "one of name or selector must be specified",
        ));
    }
    // v1 has no default for it (v1alpha1 defaulted `Deny`).
    let action = text(pr, "parameterNotFoundAction");
    if action.is_empty() {
        errors.push(FieldError::required(
            join(at, ".parameterNotFoundAction"),
            "",
        ));
    } else if !NOT_FOUND_ACTIONS.contains(&action) {
        errors.push(FieldError::not_supported(
            join(at, ".parameterNotFoundAction"),
            FieldError::string_value(action),
            NOT_FOUND_ACTIONS,
        ));
    }
}

/// `validateValidationActions`: known, unique, not both `Deny` and `Warn`, at least one.
fn validation_actions(list: &[Value], errors: &mut Vec<FieldError>) {
    const AT: &str = "spec.validationActions";
    let actions: Vec<&str> = list.iter().map(|a| a.as_str().unwrap_or("")).collect();
    let mut seen = HashSet::new();
    for (i, action) in actions.iter().enumerate() {
        if !VALIDATION_ACTIONS.contains(action) {
            errors.push(FieldError::not_supported(
                indexed(AT, i),
                FieldError::string_value(action),
                VALIDATION_ACTIONS,
            ));
        }
        if !seen.insert(*action) {
            errors.push(FieldError::duplicate(
                indexed(AT, i),
                FieldError::string_value(action),
            ));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        let quoted: Vec<String> = actions.iter().map(|a| go_quote(a)).collect();
        errors.push(FieldError::invalid(
            AT,
            BadValue::GoValue {
                value: Value::List(actions.iter().map(|a| Value::from(*a)).collect()),
                go_syntax: format!(
                    "[]admissionregistration.ValidationAction{{{}}}",
                    quoted.join(", ")
                ),
            },
            DENY_AND_WARN,
        ));
    }
    if seen.is_empty() {
        errors.push(FieldError::required(
            AT,
            "at least one validation action is required",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    /// kubernetes/website content/en/examples/validatingadmissionpolicy/binding-with-param.yaml.
    const BINDING: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1",
      "kind":"ValidatingAdmissionPolicyBinding",
      "metadata":{"name":"replicalimit-binding-test.example.com"},
      "spec":{"policyName":"replicalimit-policy.example.com","validationActions":["Deny"],
        "paramRef":{"name":"replica-limit-test.example.com","namespace":"default",
          "parameterNotFoundAction":"Deny"},
        "matchResources":{"namespaceSelector":{"matchLabels":{"environment":"test"}}}}}"#;

    #[test]
    fn the_documented_binding_passes() {
        assert_eq!(refusal(BINDING, None, 37), None);
        assert_eq!(refusal(BINDING, None, 30), None);
    }

    #[test]
    fn validation_actions() {
        let bad = BINDING.replace(r#"["Deny"]"#, r#"["Deny","Warn","Deny","Block"]"#);
        let expected = |value: &str| {
            format!(
                "The ValidatingAdmissionPolicyBinding \"replicalimit-binding-test.example.com\" is invalid: \n\
                 * spec.validationActions[2]: Duplicate value: \"Deny\"\n\
                 * spec.validationActions[3]: Unsupported value: \"Block\": supported values: \"Audit\", \"Deny\", \"Warn\"\n\
                 * spec.validationActions: Invalid value: {value}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"
            )
        };
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            expected(r#"["Deny","Warn","Deny","Block"]"#)
        );
        assert_eq!(
            refusal(&bad, None, 33).unwrap(),
            expected(
                r#"[]admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Block"}"#
            )
        );
        let none = BINDING.replace(r#""validationActions":["Deny"],"#, "");
        assert_eq!(
            refusal(&none, None, 37).unwrap(),
            "The ValidatingAdmissionPolicyBinding \"replicalimit-binding-test.example.com\" is invalid: spec.validationActions: Required value: at least one validation action is required"
        );
    }

    #[test]
    fn policy_name_and_param_ref() {
        let bad = BINDING
            .replace(
                r#""policyName":"replicalimit-policy.example.com""#,
                r#""policyName":"Replica_Limit""#,
            )
            .replace(
                r#""namespace":"default","#,
                r#""selector":{"matchLabels":{"a":"-"}},"#,
            )
            .replace(r#""Deny"}"#, r#""Ignore"}"#);
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The ValidatingAdmissionPolicyBinding \"replicalimit-binding-test.example.com\" is invalid: \n\
             * spec.policyName: Invalid value: \"Replica_Limit\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n\
             * spec.paramRef.name: Forbidden: name and selector are mutually exclusive\n\
             * spec.paramRef.selector.matchLabels: Invalid value: \"-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n\
             * spec.paramRef.selector: Forbidden: name and selector are mutually exclusive\n\
             * spec.paramRef.parameterNotFoundAction: Unsupported value: \"Ignore\": supported values: \"Deny\", \"Allow\""
        );
        let bare = BINDING.replace(
            r#"{"name":"replica-limit-test.example.com","namespace":"default",
          "parameterNotFoundAction":"Deny"}"#,
            "{}",
        );
        assert_eq!(
            refusal(&bare, None, 37).unwrap(),
            "The ValidatingAdmissionPolicyBinding \"replicalimit-binding-test.example.com\" is invalid: \n\
             * spec.paramRef: Required value: one of name or selector must be specified\n\
             * spec.paramRef.parameterNotFoundAction: Required value"
        );
    }

    #[test]
    fn match_resources_path_per_version() {
        let bad = BINDING.replace(
            r#""namespaceSelector""#,
            r#""matchPolicy":"Loose","namespaceSelector""#,
        );
        assert!(refusal(&bad, None, 30)
            .unwrap()
            .contains("spec.matchResouces.matchPolicy: Unsupported value: \"Loose\""));
        assert!(refusal(&bad, None, 37)
            .unwrap()
            .contains("spec.matchResources.matchPolicy: Unsupported value: \"Loose\""));
    }
}
