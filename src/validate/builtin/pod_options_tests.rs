//! Ratcheting of pod specs: an invalid value the stored spec already had passes on update, the
//! same value is refused on create and when the stored spec was valid.

use super::super::pod;
use super::super::tests::json;
use crate::kube::KubeVersion;

/// A valid pod spec with `extra` (a JSON object's members, or empty) merged in.
fn spec(extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(
        r#"{{"containers":[{{"name":"c","image":"nginx","terminationMessagePolicy":"File",
        "imagePullPolicy":"Always"}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"{sep}{extra}}}"#
    )
}

/// The messages for the spec with `extra`, written over a stored spec with `stored` (`None`:
/// a create).
fn messages(extra: &str, stored: Option<&str>, minor: u8) -> Vec<String> {
    let v = KubeVersion::new(minor).unwrap();
    let stored = stored.map(|s| json(&spec(s)));
    let mut errors = Vec::new();
    pod::spec(
        &json(&spec(extra)),
        stored.as_ref(),
        None,
        "spec",
        v,
        &mut errors,
    );
    errors.iter().map(|e| e.message(v)).collect()
}

/// Refused on create and over a valid stored spec, allowed over `stored_invalid`.
#[track_caller]
fn ratchets(extra: &str, stored_invalid: &str, minor: u8, expected: &str) {
    assert_eq!(messages(extra, None, minor), [expected]);
    assert_eq!(messages(extra, Some(""), minor), [expected]);
    assert_eq!(messages(extra, Some(stored_invalid), minor), [""; 0]);
}

const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

fn anti_affinity(value: &str) -> String {
    format!(
        r#""affinity":{{"podAntiAffinity":{{"requiredDuringSchedulingIgnoredDuringExecution":[{{
        "topologyKey":"zone","labelSelector":{{"matchExpressions":[{{"key":"app",
        "operator":"In","values":["{value}"]}}]}}}}]}}}}"#
    )
}

#[test]
fn affinity_selector_values_the_stored_pod_had() {
    let path = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]";
    ratchets(
        &anti_affinity("a b"),
        &anti_affinity("c d"),
        37,
        &format!("{path}: Invalid value: \"a b\": {LABEL_VALUE_MSG}"),
    );
}

#[test]
fn only_values_are_allowed_not_keys() {
    let bad_key = r#""affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{
        "topologyKey":"zone","labelSelector":{"matchExpressions":[{"key":"a b",
        "operator":"In","values":["x"]}]}}]}}"#;
    assert_eq!(
        messages(bad_key, Some(&anti_affinity("c d")), 37).len(),
        1,
        "a key is checked whatever the stored pod had"
    );
}

fn node_affinity(value: &str) -> String {
    format!(
        r#""affinity":{{"nodeAffinity":{{"requiredDuringSchedulingIgnoredDuringExecution":{{
        "nodeSelectorTerms":[{{"matchExpressions":[{{"key":"zone","operator":"In",
        "values":["{value}"]}}]}}]}}}}}}"#
    )
}

#[test]
fn required_node_affinity_values_the_stored_pod_had() {
    let path = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]";
    ratchets(
        &node_affinity("a b"),
        &node_affinity("c d"),
        33,
        &format!("{path}: Invalid value: \"a b\": {LABEL_VALUE_MSG}"),
    );
}

fn spread(value: &str) -> String {
    format!(
        r#""topologySpreadConstraints":[{{"maxSkew":1,"topologyKey":"zone",
        "whenUnsatisfiable":"DoNotSchedule","labelSelector":{{"matchExpressions":[
        {{"key":"app","operator":"In","values":["{value}"]}}]}}}}]"#
    )
}

#[test]
fn spread_selector_values_the_stored_pod_had() {
    let path = "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values[0]";
    ratchets(
        &spread("a b"),
        &spread("c d"),
        30,
        &format!("{path}: Invalid value: \"a b\": {LABEL_VALUE_MSG}"),
    );
}

#[test]
fn match_label_keys_the_stored_pod_broke_from_1_34() {
    // The stored pod breaks the merged-selector rules (keys without a selector): the new
    // spec's keys get the legacy rules, which refuse a key the selector's labels name.
    let stored = r#""topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
        "whenUnsatisfiable":"DoNotSchedule","matchLabelKeys":["pod-template-hash"]}]"#;
    let new = r#""topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
        "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}},
        "matchLabelKeys":["app"]}]"#;
    let legacy = "spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector";
    assert_eq!(messages(new, None, 34), [""; 0]);
    assert_eq!(messages(new, Some(stored), 34), [legacy]);
    assert_eq!(messages(new, None, 33), [legacy]);
    assert_eq!(
        messages(stored, Some(stored), 34),
        ["spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"]
    );
}

fn host_network_sysctl(name: &str) -> String {
    format!(
        r#""hostNetwork":true,"securityContext":{{"sysctls":[{{"name":"{name}","value":"1"}}]}}"#
    )
}

#[test]
fn host_namespace_sysctls_the_stored_pod_had() {
    ratchets(
        &host_network_sysctl("net.core.somaxconn"),
        &host_network_sysctl("net.ipv4.ip_forward"),
        37,
        "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
    );
}

fn pre_stop_sleep(seconds: i64) -> String {
    format!(
        r#""terminationGracePeriodSeconds":30,"initContainers":[{{"name":"s","image":"nginx",
        "terminationMessagePolicy":"File","imagePullPolicy":"Always","restartPolicy":"Always",
        "lifecycle":{{"preStop":{{"sleep":{{"seconds":{seconds}}}}}}}}}]"#
    )
}

#[test]
fn a_zero_sleep_the_stored_pod_had_in_1_32() {
    ratchets(
        &pre_stop_sleep(0),
        &pre_stop_sleep(0),
        32,
        "spec.initContainers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.",
    );
    assert_eq!(
        messages(&pre_stop_sleep(0), Some(&pre_stop_sleep(5)), 32).len(),
        1
    );
}

fn env_var(name: &str) -> String {
    format!(
        r#""containers":[{{"name":"c","image":"nginx","terminationMessagePolicy":"File",
        "imagePullPolicy":"Always","env":[{{"name":"{name}","value":"x"}}]}}]"#
    )
}

#[test]
fn relaxed_env_names_the_stored_pod_had_until_1_31() {
    let new = r#""containers":[{"name":"c","image":"nginx","terminationMessagePolicy":"File",
        "imagePullPolicy":"Always","env":[{"name":"1ST","value":"x"},{"name":"2ND","value":"y"}]}]"#;
    // The stored pod had `1ST`: the whole pod is checked with the relaxed rule.
    assert!(messages(new, Some(&env_var("1ST")), 31).is_empty());
    // A relaxed name the stored pod did not have.
    assert_eq!(
        messages(&env_var("2ND"), Some(&env_var("1ST")), 31).len(),
        1
    );
    assert_eq!(messages(&env_var("1ST"), None, 31).len(), 1);
}

fn search(domain: &str) -> String {
    format!(r#""dnsConfig":{{"searches":["{domain}"]}}"#)
}

#[test]
fn relaxed_search_domains_the_stored_pod_had_until_1_32() {
    assert_eq!(messages(&search("_x.example.com"), None, 32).len(), 1);
    assert!(messages(&search("_x.example.com"), Some(&search(".")), 32).is_empty());
    assert!(messages(&search("_x.example.com"), None, 33).is_empty());
}

fn token_path(path: &str) -> String {
    format!(
        r#""volumes":[{{"name":"t","projected":{{"sources":[{{"serviceAccountToken":
        {{"path":"{path}"}}}}]}}}}]"#
    )
}

#[test]
fn non_local_token_paths_the_stored_pod_had() {
    ratchets(
        &token_path("/token"),
        &token_path("../token"),
        37,
        "spec.volumes[0].projected.path: Invalid value: \"/token\": must be a relative path",
    );
}
