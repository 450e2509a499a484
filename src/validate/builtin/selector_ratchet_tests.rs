//! Label selectors that keep invalid label values on update when the stored object's selector
//! already broke a rule (`AllowInvalidLabelValueInSelector`): NetworkPolicy
//! (`ValidationOptionsForNetworking`), webhook configurations (`validationOptions`),
//! PersistentVolumeClaim (`ValidationOptionsForPersistentVolumeClaim`).

use super::tests::{refusal_causes, refusal_over_stored};

/// A selector whose only expression has the value `value`.
fn selector(value: &str) -> String {
    format!(r#"{{"matchExpressions":[{{"key":"app","operator":"In","values":["{value}"]}}]}}"#)
}

fn network_policy(pod_value: &str, peer_value: &str) -> String {
    format!(
        r#"{{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy",
        "metadata":{{"name":"web","namespace":"default","resourceVersion":"1"}},
        "spec":{{"podSelector":{},"ingress":[{{"from":[{{"namespaceSelector":{}}}]}}]}}}}"#,
        selector(pod_value),
        selector(peer_value)
    )
}

#[test]
fn a_network_policy_keeps_invalid_values_its_stored_pod_selector_had() {
    let bad = network_policy("a b", "c d");
    assert_eq!(refusal_causes(&bad, None, 37).len(), 2);
    assert_eq!(
        refusal_causes(&bad, Some(&network_policy("ok", "ok")), 37).len(),
        2
    );
    // Every selector of the policy is relaxed, peers too.
    assert!(refusal_causes(&bad, Some(&network_policy("x y", "ok")), 37).is_empty());
    // A stored peer selector alone relaxes nothing.
    assert_eq!(
        refusal_causes(&bad, Some(&network_policy("ok", "x y")), 37).len(),
        2
    );
}

fn webhook(value: &str) -> String {
    format!(
        r#"{{"apiVersion":"admissionregistration.k8s.io/v1",
        "kind":"ValidatingWebhookConfiguration","metadata":{{"name":"hooks","resourceVersion":"1"}},
        "webhooks":[{{"name":"a.example.com","admissionReviewVersions":["v1"],"sideEffects":"None",
          "clientConfig":{{"url":"https://example.com/a"}},"objectSelector":{}}}]}}"#,
        selector(value)
    )
}

#[test]
fn a_webhook_configuration_keeps_invalid_values_its_stored_selectors_had() {
    let expected = "webhooks[0].objectSelector.matchExpressions[0].values[0]: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert_eq!(refusal_causes(&webhook("a b"), None, 30), [expected]);
    assert_eq!(
        refusal_causes(&webhook("a b"), Some(&webhook("ok")), 30),
        [expected]
    );
    assert!(refusal_causes(&webhook("a b"), Some(&webhook("c d")), 30).is_empty());
}

fn claim(selector: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"PersistentVolumeClaim",
        "metadata":{{"name":"data","namespace":"default"}},
        "spec":{{"accessModes":["ReadWriteOnce"],"resources":{{"requests":{{"storage":"1Gi"}}}},
          "selector":{selector}}}}}"#
    )
}

#[test]
fn a_claim_keeps_only_the_invalid_values_of_its_stored_selector() {
    let stored = claim(
        r#"{"matchLabels":{"a b":"x"},"matchExpressions":[{"key":"app","operator":"In","values":["c d"]}]}"#,
    );
    // The selector is checked, label values aside: the invalid key is still refused.
    assert_eq!(
        refusal_over_stored(&stored, Some(&stored), 37).as_deref(),
        Some("The PersistentVolumeClaim \"data\" is invalid: spec.selector.matchLabels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
    );
    assert_eq!(refusal_causes(&stored, None, 37).len(), 2);
}
