//! The dynamic resource allocation rules (resource.k8s.io): which errors, in which order,
//! with which wording.

use super::tests::refusal_causes;

const CLAIM: &str = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
  "metadata":{"name":"gpu","namespace":"default"},
  "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
    "selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}]}}],
    "constraints":[{"requests":["gpu"],"matchAttribute":"gpu.example.com/model"}],
    "config":[{"requests":["gpu"],"opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}]}}}"#;

const SLICE: &str = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",
  "metadata":{"name":"cat-slice"},
  "spec":{"driver":"resource-driver.example.com",
    "pool":{"generation":1,"name":"black-cat-pool","resourceSliceCount":1},"allNodes":true,
    "devices":[{"name":"large-black-cat","attributes":{"color":{"string":"black"},
      "driverVersion":{"version":"1.2.3-rc.1+build.5"}},"capacity":{"memory":{"value":"1Gi"}}}]}}"#;

#[test]
fn valid_objects_pass() {
    assert!(refusal_causes(CLAIM, None, 34).is_empty());
    assert!(refusal_causes(CLAIM, None, 37).is_empty());
    assert!(refusal_causes(SLICE, None, 34).is_empty());
    assert!(refusal_causes(SLICE, None, 37).is_empty());
    let first = CLAIM.replace(
        r#""exactly":{"deviceClassName":"gpu.example.com","#,
        r#""firstAvailable":[{"name":"big","deviceClassName":"gpu.example.com"},{"name":"small","deviceClassName":"gpu.example.com","#,
    ).replace(r#"}}]}}],"#, r#"}}]}]}],"#).replace(r#""requests":["gpu"],"opaque""#, r#""requests":["gpu/small"],"opaque""#);
    assert_eq!(refusal_causes(&first, None, 37), Vec::<String>::new());
}

#[test]
fn requests_need_one_kind_a_class_and_a_positive_count() {
    let bad = CLAIM
        .replace(r#""deviceClassName":"gpu.example.com","#, r#""count":-1,"#)
        .replace(r#""requests":[{"name":"gpu","#, r#""requests":[{"name":"Gpu","firstAvailable":[{"name":"a","deviceClassName":"c"}],"exactly":{}},{"name":"gpu","#);
    assert_eq!(
        refusal_causes(&bad, None, 37),
        [
            "spec.devices.requests[0].name: Invalid value: \"Gpu\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "spec.devices.requests[0]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
            "spec.devices.requests[1].exactly.deviceClassName: Required value",
            "spec.devices.requests[1].exactly.count: Invalid value: -1: must be greater than zero",
        ]
    );
    let mode = CLAIM.replace(r#""selectors""#, r#""allocationMode":"Some","selectors""#);
    assert_eq!(
        refusal_causes(&mode, None, 34),
        ["spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\""]
    );
}

#[test]
fn constraints_are_worded_per_release() {
    let bad = CLAIM.replace(r#","matchAttribute":"gpu.example.com/model""#, "");
    assert_eq!(
        refusal_causes(&bad, None, 35),
        ["spec.devices.constraints[0].matchAttribute: Required value"]
    );
    assert_eq!(
        refusal_causes(&bad, None, 36),
        ["spec.devices.constraints[0]: Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set"]
    );
    let unqualified = CLAIM.replace("gpu.example.com/model", "model");
    assert_eq!(
        refusal_causes(&unqualified, None, 37),
        ["spec.devices.constraints[0].matchAttribute: Invalid value: \"model\": a fully qualified name must be a domain and a name separated by a slash"]
    );
}

#[test]
fn config_refers_to_requests_and_holds_an_object() {
    let bad = CLAIM
        .replace(
            r#""requests":["gpu"],"opaque""#,
            r#""requests":["gpu/a/b","tpu"],"opaque""#,
        )
        .replace(r#""parameters":{"a":1}"#, r#""parameters":[1]"#);
    assert_eq!(
        refusal_causes(&bad, None, 37),
        [
            "spec.devices.config[0].requests[0]: Invalid value: \"gpu/a/b\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
            "spec.devices.config[0].requests[1]: Invalid value: \"tpu\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
            "spec.devices.config[0].opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object",
        ]
    );
}

#[test]
fn device_classes_check_selectors_and_config() {
    let class = r#"{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},
      "spec":{"selectors":[{}],"config":[{"opaque":{"driver":"","parameters":{}}}],"extendedResourceName":"cpu"}}"#;
    let causes = refusal_causes(class, None, 36);
    assert_eq!(causes[0], "spec.selectors[0].cel: Required value");
    assert_eq!(causes[1], "spec.config[0].opaque.driver: Required value");
    assert_eq!(
        causes.last().unwrap(),
        "spec.extendedResourceName: Invalid value: \"cpu\": must be a valid extended resource name"
    );
    // The extended resource name is dropped while DRAExtendedResource is off.
    assert!(!refusal_causes(class, None, 35)
        .iter()
        .any(|c| c.contains("extendedResourceName")));
}

#[test]
fn slices_check_pool_node_selection_and_devices() {
    let bad = SLICE
        .replace(r#""resourceSliceCount":1"#, r#""resourceSliceCount":0"#)
        .replace(r#""allNodes":true"#, r#""allNodes":false"#)
        .replace(r#""name":"large-black-cat","#, r#""name":"cat","#)
        .replace(r#"}]}}"#, r#"},{"name":"cat"}]}}"#);
    assert_eq!(
        refusal_causes(&bad, None, 37),
        [
            "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
            "spec.allNodes: Invalid value: false: must be either unset or set to true",
            "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
            "spec.devices[1]: Duplicate value: \"cat\"",
        ]
    );
}

#[test]
fn attribute_names_are_reported_where_the_release_reports_them() {
    let bad = SLICE.replace(r#""color""#, r#""dra.example.com/col-or""#);
    let msg = "Invalid value: \"col-or\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
    assert_eq!(
        refusal_causes(&bad, None, 35),
        [format!(
            "spec.devices[0].attributes[dra.example.com/col-or]: {msg}"
        )]
    );
    assert_eq!(
        refusal_causes(&bad, None, 36),
        [format!("spec.devices[0].attributes: {msg}")]
    );
}

#[test]
fn slice_identity_is_immutable() {
    let moved = SLICE.replace(r#""allNodes":true"#, r#""nodeName":"worker-1""#);
    assert_eq!(
        refusal_causes(&moved, Some(SLICE), 37),
        ["spec.nodeName: Invalid value: \"worker-1\": field is immutable"]
    );
}

#[test]
fn template_metadata_and_spec_are_checked() {
    let template = r#"{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
      "metadata":{"name":"gpu","namespace":"default"},
      "spec":{"metadata":{"name":"x"},"spec":{"devices":{"requests":[{"name":"gpu"}]}}}}"#;
    assert_eq!(
        refusal_causes(template, None, 34),
        [
            "spec.metadata.name: Forbidden: cannot be set",
            "spec.spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required",
        ]
    );
}
