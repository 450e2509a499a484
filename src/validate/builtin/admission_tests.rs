//! The webhook configuration rules of `admission.rs` and `webhook_client.rs`, on whole objects.

use super::super::tests::refusal;

const VALIDATING: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1",
  "kind":"ValidatingWebhookConfiguration","metadata":{"name":"externalsecret-validate"},
  "webhooks":[{"name":"validate.externalsecret.external-secrets.io",
    "admissionReviewVersions":["v1","v1beta1"],"sideEffects":"None","timeoutSeconds":5,
    "clientConfig":{"service":{"name":"external-secrets-webhook","namespace":"external-secrets",
      "path":"/validate-external-secrets-io-v1beta1-externalsecret"}},
    "rules":[{"apiGroups":["external-secrets.io"],"apiVersions":["v1beta1"],
      "operations":["CREATE","UPDATE","DELETE"],"resources":["externalsecrets"],"scope":"Namespaced"}]}]}"#;

fn mutating() -> String {
    VALIDATING.replace(
        "ValidatingWebhookConfiguration",
        "MutatingWebhookConfiguration",
    )
}

#[test]
fn valid_configurations_pass() {
    assert_eq!(refusal(VALIDATING, None, 37), None);
    assert_eq!(refusal(&mutating(), None, 30), None);
}

#[test]
fn hook_fields() {
    let bad = VALIDATING
        .replace("validate.externalsecret.external-secrets.io", "validate")
        .replace(
            r#""sideEffects":"None","timeoutSeconds":5"#,
            r#""timeoutSeconds":60,"failurePolicy":"Retry","matchPolicy":"Fuzzy""#,
        )
        .replace(r#"["v1","v1beta1"]"#, r#"["v2","v2"]"#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The ValidatingWebhookConfiguration \"externalsecret-validate\" is invalid: \n\
         * webhooks[0].name: Invalid value: \"validate\": should be a domain with at least three segments separated by dots\n\
         * webhooks[0].failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"\n\
         * webhooks[0].matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\"\n\
         * webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n\
         * webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds\n\
         * webhooks[0].admissionReviewVersions[1]: Invalid value: \"v2\": duplicate version\n\
         * webhooks[0].admissionReviewVersions: Invalid value: [\"v2\",\"v2\"]: must include at least one of v1, v1beta1"
    );
}

#[test]
fn rules() {
    let bad = VALIDATING
        .replace(r#"["CREATE","UPDATE","DELETE"]"#, r#"["*","PATCH"]"#)
        .replace(r#"["external-secrets.io"]"#, "[]")
        .replace(r#"["externalsecrets"]"#, r#"["*","pods","*/*"]"#)
        .replace(r#""Namespaced""#, r#""Global""#);
    assert_eq!(
        refusal(&bad, None, 33).unwrap(),
        "The ValidatingWebhookConfiguration \"externalsecret-validate\" is invalid: \n\
         * webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{\"*\", \"PATCH\"}: if '*' is present, must not specify other operations\n\
         * webhooks[0].rules[0].operations[1]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"\n\
         * webhooks[0].rules[0].apiGroups: Required value\n\
         * webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\", \"*/*\"}: if '*/*' is present, must not specify other resources\n\
         * webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\", \"*/*\"}: if '*' is present, must not specify other resources without subresources\n\
         * webhooks[0].rules[0].scope: Unsupported value: \"Global\": supported values: \"*\", \"Cluster\", \"Namespaced\""
    );
}

#[test]
fn names_unique_and_update_relaxations() {
    let hook = r#"{"name":"a.example.com","admissionReviewVersions":["v1"],"sideEffects":"Some",
      "clientConfig":{"url":"https://hooks.example.com/a"}}"#;
    let two = format!(
        r#"{{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
          "metadata":{{"name":"hooks"}},"webhooks":[{hook},{hook}]}}"#
    );
    assert_eq!(
        refusal(&two, None, 37).unwrap(),
        "The MutatingWebhookConfiguration \"hooks\" is invalid: \n\
         * webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"\n\
         * webhooks[1].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"\n\
         * webhooks[1].name: Duplicate value: \"a.example.com\""
    );
    // The stored object already has both: an update may keep them.
    let relabeled = two.replace(
        r#""name":"hooks"}"#,
        r#""name":"hooks","labels":{"a":"b"}}"#,
    );
    assert_eq!(refusal(&relabeled, Some(&two), 37), None);
}

#[test]
fn match_conditions() {
    let bad = VALIDATING.replace(
        r#""timeoutSeconds":5"#,
        r#""timeoutSeconds":5,"matchConditions":[{"name":"a","expression":" "},{"name":"a","expression":"true"},{"name":"bad name","expression":"true"}]"#,
    );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The ValidatingWebhookConfiguration \"externalsecret-validate\" is invalid: \n\
         * webhooks[0].matchConditions[0].expression: Required value\n\
         * webhooks[0].matchConditions[1].name: Duplicate value: \"a\"\n\
         * webhooks[0].matchConditions[2].name: Invalid value: \"bad name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    );
    // Unchanged conditions are not checked again on update.
    let relabeled = bad.replace(
        r#""name":"externalsecret-validate"}"#,
        r#""name":"externalsecret-validate","labels":{"a":"b"}}"#,
    );
    assert_eq!(refusal(&relabeled, Some(&bad), 37), None);
}

#[test]
fn mutating_reinvocation_policy() {
    let bad = mutating().replace(r#""timeoutSeconds":5"#, r#""reinvocationPolicy":"Always""#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The MutatingWebhookConfiguration \"externalsecret-validate\" is invalid: webhooks[0].reinvocationPolicy: Unsupported value: \"Always\": supported values: \"IfNeeded\", \"Never\""
    );
}
