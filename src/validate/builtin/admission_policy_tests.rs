//! The ValidatingAdmissionPolicy rules of `admission_policy.rs` and `match_resources.rs`, on
//! whole objects.

use super::super::tests::refusal;

/// kubernetes/website content/en/examples/validatingadmissionpolicy/policy-with-param.yaml.
const POLICY: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1",
  "kind":"ValidatingAdmissionPolicy","metadata":{"name":"replicalimit-policy.example.com"},
  "spec":{"failurePolicy":"Fail",
    "paramKind":{"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit"},
    "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
      "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
    "validations":[{"expression":"object.spec.replicas <= params.maxReplicas","reason":"Invalid"}]}}"#;

const INVALID: &str =
    "The ValidatingAdmissionPolicy \"replicalimit-policy.example.com\" is invalid: ";

#[test]
fn the_documented_policy_passes() {
    assert_eq!(refusal(POLICY, None, 37), None);
    assert_eq!(refusal(POLICY, None, 30), None);
}

#[test]
fn failure_policy_param_kind_and_constraints() {
    let bad = POLICY
        .replace(r#""Fail""#, r#""Retry""#)
        .replace("rules.example.com/v1", "rules.example.com/V1")
        .replace(r#""ReplicaLimit""#, r#""Replica.Limit""#)
        .replace(
            r#""resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
      "operations":["CREATE","UPDATE"],"resources":["deployments"]}]"#,
            r#""matchPolicy":"Fuzzy","excludeResourceRules":[{"resourceNames":["a/b","a/b"],
      "apiGroups":[""],"apiVersions":["v1"],"operations":["PATCH"],"resources":["pods"]}]"#,
        );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        format!(
            "{INVALID}\n\
             * spec.failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"\n\
             * spec.paramKind.apiVersion: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n\
             * spec.paramKind.kind: Invalid value: \"Replica.Limit\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n\
             * spec.matchConstraints.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\"\n\
             * spec.matchConstraints.excludeResourceRules[0].resourceNames[0]: Invalid value: \"a/b\": may not contain '/'\n\
             * spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Invalid value: \"a/b\": may not contain '/'\n\
             * spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Duplicate value: \"a/b\"\n\
             * spec.matchConstraints.excludeResourceRules[0].operations[0]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"\n\
             * spec.matchConstraints.resourceRules: Required value"
        )
    );
    let bad = POLICY
        .replace("rules.example.com/v1", "a/b/c")
        .replace(r#""ReplicaLimit""#, r#""""#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        format!(
            "{INVALID}\n\
             * spec.paramKind.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c\n\
             * spec.paramKind.kind: Required value"
        )
    );
    let no_version = POLICY.replace("rules.example.com/v1", "rules.example.com/");
    assert_eq!(
        refusal(&no_version, None, 37).unwrap(),
        format!("{INVALID}spec.paramKind.apiVersion: Invalid value: \"rules.example.com/\": version must be specified")
    );
}

#[test]
fn validations_variables_and_annotations() {
    let nothing = POLICY.replace(
        r#""validations":[{"expression":"object.spec.replicas <= params.maxReplicas","reason":"Invalid"}]"#,
        r#""validations":[]"#,
    );
    assert_eq!(
        refusal(&nothing, None, 37).unwrap(),
        format!(
            "{INVALID}\n\
             * spec.validations: Required value: validations or auditAnnotations must contain at least one item\n\
             * spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"
        )
    );
    let bad = POLICY.replace(
        r#""validations":[{"expression":"object.spec.replicas <= params.maxReplicas","reason":"Invalid"}]"#,
        r#""variables":[{"name":"in","expression":"1"},{"name":" ","expression":" "}],
          "validations":[{"expression":" ","reason":"Teapot","message":"too\nmany","messageExpression":" "},
            {"expression":"true","message":"  "}],
          "auditAnnotations":[{"key":"a b","valueExpression":""},{"key":"a b","valueExpression":"'x'"}]"#,
    );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        format!(
            "{INVALID}\n\
             * spec.variables[0].name: Invalid value: \"in\": must be a valid CEL identifier\n\
             * spec.variables[1].name: Required value: name is not specified\n\
             * spec.variables[1].expression: Required value: expression is not specified\n\
             * spec.validations[0].expression: Required value: expression is not specified\n\
             * spec.validations[0].messageExpression: Invalid value: \" \": must be non-empty if specified\n\
             * spec.validations[0].message: Invalid value: \"too\\nmany\": must not contain line breaks\n\
             * spec.validations[0].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"\n\
             * spec.validations[1].message: Invalid value: \"  \": must be non-empty if specified\n\
             * spec.auditAnnotations[0].key: Invalid value: \"replicalimit-policy.example.com/a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n\
             * spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified\n\
             * spec.auditAnnotations[1].key: Invalid value: \"replicalimit-policy.example.com/a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n\
             * spec.auditAnnotations[1].key: Duplicate value: \"a b\""
        )
    );
}

#[test]
fn too_many_audit_annotations_are_quoted_per_version() {
    let list: Vec<String> = (0..21)
        .map(|i| format!(r#"{{"key":"k{i}","valueExpression":"'v'"}}"#))
        .collect();
    let bad = POLICY.replace(
        r#""validations":"#,
        &format!(r#""auditAnnotations":[{}],"validations":"#, list.join(",")),
    );
    let new = refusal(&bad, None, 34).unwrap();
    assert!(new.starts_with(&format!(
        "{INVALID}spec.auditAnnotations: Invalid value: [{{\"Key\":\"k0\",\"ValueExpression\":\"'v'\"}},"
    )));
    assert!(new.ends_with("]: must not have more than 20 auditAnnotations"));
    let old = refusal(&bad, None, 33).unwrap();
    assert!(old.contains(
        "Invalid value: []admissionregistration.AuditAnnotation{admissionregistration.AuditAnnotation{Key:\"k0\", ValueExpression:\"'v'\"}, "
    ));
}

#[test]
fn match_conditions_unchanged_on_update_are_not_checked_again() {
    let bad = POLICY.replace(
        r#""validations":"#,
        r#""matchConditions":[{"name":"","expression":"true"}],"validations":"#,
    );
    let expected = format!("{INVALID}spec.matchConditions[0].name: Required value");
    assert_eq!(refusal(&bad, None, 37).unwrap(), expected);
    assert_eq!(refusal(&bad, Some(&bad), 37), None);
    assert_eq!(refusal(&bad, Some(POLICY), 37).unwrap(), expected);
}
