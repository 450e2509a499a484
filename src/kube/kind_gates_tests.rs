use super::*;
use crate::value::{from_json_str, to_json_string};

fn dropped(object: &str, old: Option<&str>, minor: u8) -> String {
    let mut object = from_json_str(object).unwrap();
    let old = old.map(|o| from_json_str(o).unwrap());
    drop_disabled(
        &mut object,
        old.as_ref(),
        KubeVersion::new(minor).unwrap(),
        "",
    );
    to_json_string(&object)
}

fn same(object: &str) -> String {
    to_json_string(&from_json_str(object).unwrap())
}

#[test]
fn a_stateful_set_loses_max_unavailable_unless_stored() {
    let sts = r#"{"apiVersion":"apps/v1","kind":"StatefulSet","spec":{"updateStrategy":{
        "type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":2}}}}"#;
    let want = r#"{"apiVersion":"apps/v1","kind":"StatefulSet","spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}}}}"#;
    for minor in [30, 36, 37] {
        assert_eq!(dropped(sts, None, minor), want);
    }
    assert_eq!(dropped(sts, Some(sts), 36), same(sts));
    // Another API version of the kind is not this entry's.
    let beta = sts.replace("apps/v1", "apps/v1beta2");
    assert_eq!(dropped(&beta, None, 36), same(&beta));
}

#[test]
fn a_jobs_managed_by_is_dropped_on_create_only() {
    let job = r#"{"apiVersion":"batch/v1","kind":"Job","spec":{"managedBy":"kueue.x-k8s.io/multikueue"}}"#;
    assert!(!dropped(job, None, 31).contains("managedBy"));
    assert!(dropped(job, Some(r#"{"spec":{}}"#), 31).contains("managedBy"));
    assert!(dropped(job, None, 32).contains("managedBy"));
}

#[test]
fn lease_fields_are_kept_each_on_its_own() {
    let lease = r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","spec":{"strategy":"OldestEmulationVersion","preferredHolder":"a"}}"#;
    let stored = r#"{"spec":{"strategy":"OldestEmulationVersion"}}"#;
    assert_eq!(
        dropped(lease, Some(stored), 33),
        r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","spec":{"strategy":"OldestEmulationVersion"}}"#
    );
    assert_eq!(dropped(lease, None, 30), same(lease));
}

#[test]
fn nested_lists_and_maps_are_walked() {
    let slice = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"devices":[
        {"name":"a","attributes":{"x":{"ints":[1]},"y":{"string":"s"}},"capacity":{"mem":{"value":"1Gi","requestPolicy":{"default":"1Gi"}}}},
        {"name":"b","allowMultipleAllocations":true}]}}"#;
    let got = dropped(slice, None, 35);
    assert!(
        !got.contains("requestPolicy") && !got.contains("allowMultipleAllocations"),
        "{got}"
    );
    assert!(got.contains(r#""ints":[1]"#), "{got}");
    let got = dropped(slice, None, 36);
    assert!(
        got.contains(r#""x":{}"#) && got.contains("requestPolicy"),
        "{got}"
    );
    // One stored use keeps every field of the entry.
    let stored = r#"{"spec":{"devices":[{"name":"b","allowMultipleAllocations":false}]}}"#;
    assert!(dropped(slice, Some(stored), 35).contains("requestPolicy"));
}

#[test]
fn the_1_34_claim_keeps_distinct_attribute() {
    let claim = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","spec":{"devices":{
        "requests":[{"name":"r","exactly":{"deviceClassName":"c","capacity":{"requests":{"mem":"1Gi"}}}}],
        "constraints":[{"requests":["r"],"distinctAttribute":"a"}]}}}"#;
    let got = dropped(claim, None, 34);
    assert!(
        !got.contains("capacity") && got.contains("distinctAttribute"),
        "{got}"
    );
    let got = dropped(claim, None, 35);
    assert!(
        !got.contains("capacity") && !got.contains("distinctAttribute"),
        "{got}"
    );
    assert_eq!(dropped(claim, None, 36), same(claim));
}

#[test]
fn node_runtime_handlers_go_even_when_stored_in_1_30() {
    let node =
        r#"{"apiVersion":"v1","kind":"Node","status":{"runtimeHandlers":[{"name":"runc"}]}}"#;
    assert_eq!(
        dropped(node, Some(node), 30),
        r#"{"apiVersion":"v1","kind":"Node","status":{}}"#
    );
    assert_eq!(dropped(node, None, 31), same(node));
}

#[test]
fn status_strategies_drop_their_own_fields() {
    let status = |subresource: &str, minor: u8| {
        let deployment = r#"{"apiVersion":"apps/v1","kind":"Deployment","status":{"replicas":1,"terminatingReplicas":1}}"#;
        let mut object = from_json_str(deployment).unwrap();
        let old = from_json_str("{}").unwrap();
        drop_disabled(
            &mut object,
            Some(&old),
            KubeVersion::new(minor).unwrap(),
            subresource,
        );
        to_json_string(object.get("status").unwrap())
    };
    assert_eq!(status("status", 34), r#"{"replicas":1}"#);
    assert_eq!(
        status("status", 35),
        r#"{"replicas":1,"terminatingReplicas":1}"#
    );
    // The object's own strategy resets the status instead.
    assert_eq!(status("", 34), r#"{"replicas":1,"terminatingReplicas":1}"#);
}

#[test]
fn a_claim_templates_claim_spec_loses_what_a_claim_would() {
    let template = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","spec":{"spec":{"devices":{
        "requests":[{"name":"r","exactly":{"deviceClassName":"c","tolerations":[{"key":"k","operator":"Exists"}]}}],
        "constraints":[{"requests":["r"],"distinctAttribute":"a"}]}}}}"#;
    let got = dropped(template, None, 35);
    assert!(
        !got.contains("tolerations") && !got.contains("distinctAttribute"),
        "{got}"
    );
    let stored = r#"{"spec":{"spec":{"devices":{"constraints":[{"distinctAttribute":"a"}]}}}}"#;
    assert!(dropped(template, Some(stored), 35).contains("distinctAttribute"));
    assert_eq!(dropped(template, None, 36), same(template));
}
