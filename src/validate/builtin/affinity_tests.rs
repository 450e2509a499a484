//! The affinity rules on small pod specs: node selector terms, weights, pod affinity terms
//! and their label keys.

use super::super::pod_options::PodOptions;
use super::super::tests::messages_of;

fn messages(affinity: &str, minor: u8) -> Vec<String> {
    let spec = format!(r#"{{"affinity":{affinity}}}"#);
    messages_of(&spec, minor, |spec, v, errors| {
        super::affinity(spec, "spec", &PodOptions::of(spec, None, v), v, errors)
    })
}

#[test]
fn node_affinity_needs_terms_and_valid_expressions() {
    assert_eq!(
        messages(
            r#"{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}"#,
            37
        ),
        ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"]
    );
    let terms = r#"{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchExpressions":[{"key":"zone","operator":"Gt","values":["1","2"]},
                             {"key":"arch","operator":"Is","values":["-amd64"]}],
         "matchFields":[{"key":"metadata.uid","operator":"In","values":["a"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":0,"preference":{}}]}}"#;
    let got = messages(terms, 37);
    let t = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
    assert_eq!(got[0], format!("{t}.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"));
    assert_eq!(got[1], format!("{t}.matchExpressions[1].operator: Invalid value: \"Is\": not a valid selector operator"));
    assert!(got[2].starts_with(&format!(
        "{t}.matchExpressions[1].values[0]: Invalid value: \"-amd64\": a valid label must be"
    )));
    assert_eq!(got[3], format!("{t}.matchFields[0].key: Invalid value: \"metadata.uid\": not a valid field selector key"));
    assert_eq!(got[4], "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100");
    assert_eq!(got.len(), 5);
    // Label values in required terms are checked from 1.33.
    assert_eq!(messages(terms, 32).len(), 4);
}

#[test]
fn pod_affinity_terms() {
    let a = r#"{"podAntiAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":""}],
        "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":101,"podAffinityTerm":{
           "labelSelector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"app","operator":"Exists"}]},
           "matchLabelKeys":["app"],"mismatchLabelKeys":["app"],"namespaces":["Prod"],
           "topologyKey":"kubernetes.io/hostname"}}]}}"#;
    let got = messages(a, 37);
    let r = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
    let p = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
    assert_eq!(
        got[0],
        format!("{r}.topologyKey: Required value: can not be empty")
    );
    assert!(got[1].starts_with(&format!(
        "{r}.topologyKey: Invalid value: \"\": name part must be non-empty"
    )));
    assert_eq!(
        got[3],
        format!("{p}.weight: Invalid value: 101: must be in the range 1-100")
    );
    assert!(got[4].starts_with(&format!(
        "{p}.podAffinityTerm.namespace: Invalid value: \"Prod\": a lowercase RFC 1123 label"
    )));
    assert_eq!(got[5], format!("{p}.podAffinityTerm[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"));
    assert_eq!(got[6], format!("{p}.podAffinityTerm.matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and mismatchLabelKeys"));
    assert_eq!(got.len(), 7);
    // Before 1.31 the strategy drops new keys (crate::kube::pod_gates); stored ones are checked.
    assert_eq!(messages(a, 30).len(), 7);
}
