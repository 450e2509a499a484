//! Custom resources written through the status subresource: only `status` is checked against
//! the schema, named relative to the status schema in kube-openapi's messages; the CEL rules
//! still see the whole object.

use super::{validate_custom_resource, validate_custom_resource_status, SchemaNode};
use crate::kube::KubeVersion;
use crate::value::{from_json_str, Value};

const SCHEMA: &str = r#"{"type":"object","properties":{
  "spec":{"type":"object","required":["size"],"properties":{"size":{"type":"integer","minimum":1}}},
  "status":{"type":"object","properties":{
    "replicas":{"type":"integer","minimum":0},
    "phase":{"type":"string","enum":["Pending","Ready"]}},
    "x-kubernetes-validations":[{"rule":"!has(self.phase) || self.phase != 'Ready' || self.replicas > 0","message":"a Ready widget has replicas"}]}}}"#;

fn messages(object: &str, old: &str) -> Vec<String> {
    let root = SchemaNode::parse(&from_json_str(SCHEMA).unwrap());
    let object: Value = from_json_str(object).unwrap();
    let old: Value = from_json_str(old).unwrap();
    let v = KubeVersion::NEWEST;
    validate_custom_resource_status(&root, &object, Some(&old), &[], v)
        .errors
        .iter()
        .map(|e| e.message(v))
        .collect()
}

const OLD: &str = r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
  "spec":{"size":0},"status":{"replicas":1,"phase":"Pending"}}"#;

#[test]
fn only_the_status_is_validated_against_the_schema() {
    // The stored spec breaks the schema (size below its minimum, here unchanged): a status
    // write does not validate it.
    assert!(messages(&OLD.replace(r#""replicas":1"#, r#""replicas":2"#), OLD).is_empty());
    assert_eq!(
        messages(&OLD.replace(r#""replicas":1"#, r#""replicas":-1"#), OLD),
        ["status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0"]
    );
    // The main resource names the field from the root.
    let root = SchemaNode::parse(&from_json_str(SCHEMA).unwrap());
    let object: Value = from_json_str(&OLD.replace(r#""replicas":1"#, r#""replicas":-1"#)).unwrap();
    let main: Vec<String> =
        validate_custom_resource(&root, &object, None, &[], KubeVersion::NEWEST)
            .errors
            .iter()
            .map(|e| e.message(KubeVersion::NEWEST))
            .collect();
    assert!(
        main.contains(
            &"status.replicas: Invalid value: -1: status.replicas in body should be greater than or equal to 0"
                .to_string()
        ),
        "{main:?}"
    );
}

#[test]
fn the_status_rules_run() {
    let ready = OLD.replace(
        r#""replicas":1,"phase":"Pending""#,
        r#""replicas":0,"phase":"Ready""#,
    );
    assert_eq!(
        messages(&ready, OLD),
        ["status: Invalid value: \"object\": a Ready widget has replicas"]
    );
}
