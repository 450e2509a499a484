//! The OS and user-namespace rules on small pod specs and whole objects: which errors, in
//! which order, in which versions.

use super::super::tests::{messages_of, refusal};
use super::*;

/// The errors of the pod `spec` (JSON) at `spec`, all four rule families in the server's order.
fn spec_messages(spec: &str, minor: u8) -> Vec<String> {
    messages_of(spec, minor, |spec, v, errors| {
        host_process(spec, "spec", errors);
        host_users(spec, None, "spec", v, errors);
        selinux_change_policy(spec, None, "spec", v, errors);
        os(spec, "spec", errors);
    })
}

const C: &str = r#""containers":[{"name":"app","image":"app"}]"#;

#[test]
fn host_users_false_shares_no_host_namespace() {
    let spec = r#"{"hostUsers":false,"hostNetwork":true,"hostPID":true,"hostIPC":true}"#;
    assert_eq!(
        spec_messages(spec, 33),
        [
            "spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
            "spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false",
            "spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false",
        ]
    );
    assert_eq!(
        spec_messages(spec, 37),
        [
            "spec.hostNetwork: Forbidden: when `hostUsers` is false",
            "spec.HostPID: Forbidden: when `hostUsers` is false",
            "spec.HostIPC: Forbidden: when `hostUsers` is false",
        ]
    );
    // While UserNamespacesSupport is off by default the strategy drops a new field
    // (crate::kube::pod_gates); a stored one reaches validation.
    assert_eq!(spec_messages(spec, 32).len(), 3);
    assert!(spec_messages(r#"{"hostUsers":true,"hostNetwork":true}"#, 37).is_empty());
    assert!(spec_messages(r#"{"hostUsers":false}"#, 37).is_empty());
}

/// `host_users` over a stored spec (an update).
fn update_messages(spec: &str, stored: &str, minor: u8) -> Vec<String> {
    let stored = crate::value::from_json_str(stored).unwrap();
    messages_of(spec, minor, |spec, v, errors| {
        host_users(spec, Some(&stored), "spec", v, errors)
    })
}

#[test]
fn host_users_false_refuses_volume_devices_from_1_34_unless_stored() {
    let spec = r#"{"hostUsers":false,"containers":[{"name":"a","volumeDevices":[{"name":"d","devicePath":"/dev/x"}]}],
        "initContainers":[{"name":"i","volumeDevices":[{"name":"d","devicePath":"/dev/y"}]}]}"#;
    assert_eq!(
        spec_messages(spec, 36),
        [
            "spec.initContainers[0].volumeDevices: Forbidden: when `hostUsers` is false",
            "spec.containers[0].volumeDevices: Forbidden: when `hostUsers` is false",
        ]
    );
    assert!(spec_messages(spec, 33).is_empty());
    assert!(update_messages(spec, spec, 36).is_empty());
}

#[test]
fn a_stored_host_network_user_namespace_pod_keeps_host_network_from_1_35() {
    let spec = r#"{"hostUsers":false,"hostNetwork":true}"#;
    assert_eq!(
        update_messages(spec, spec, 34),
        ["spec.hostNetwork: Forbidden: when `hostUsers` is false"]
    );
    assert!(update_messages(spec, spec, 35).is_empty());
    assert_eq!(
        update_messages(spec, r#"{"hostUsers":false}"#, 36),
        ["spec.hostNetwork: Forbidden: when `hostUsers` is false"]
    );
}

#[test]
fn os_name_is_required_and_known() {
    assert_eq!(
        spec_messages(r#"{"os":{}}"#, 37),
        ["spec.os.name: Required value: cannot be empty"]
    );
    assert_eq!(
        spec_messages(r#"{"os":{"name":"darwin"},"hostPID":true}"#, 30),
        ["spec.os: Unsupported value: \"darwin\": supported values: \"linux\", \"windows\""]
    );
    assert!(spec_messages(r#"{"os":null}"#, 37).is_empty());
}

#[test]
fn linux_pods_have_no_windows_options() {
    let spec = format!(
        r#"{{"os":{{"name":"linux"}},"securityContext":{{"windowsOptions":{{}}}},
        "initContainers":[{{"name":"i","securityContext":{{"windowsOptions":{{"runAsUserName":"u"}}}}}}],
        {C}}}"#
    );
    assert_eq!(
        spec_messages(&spec, 37),
        [
            "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
            "spec.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
        ]
    );
}

#[test]
fn windows_pods_set_no_linux_fields_in_the_servers_order() {
    let spec = r#"{"os":{"name":"windows"},"hostPID":true,"hostIPC":false,"hostUsers":true,
      "shareProcessNamespace":false,
      "securityContext":{"runAsUser":1,"seLinuxOptions":{"level":"s0"},"sysctls":[],
        "supplementalGroups":[1],"seLinuxChangePolicy":"Recursive"},
      "containers":[{"name":"app","securityContext":{"runAsGroup":1,"privileged":false,
        "capabilities":{"drop":["ALL"]},"windowsOptions":{"runAsUserName":"u"}}}]}"#;
    assert_eq!(
        spec_messages(spec, 37),
        [
            "spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod",
            "spec.hostUsers: Forbidden: cannot be set for a windows pod",
            "spec.hostPID: Forbidden: cannot be set for a windows pod",
            "spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.supplementalGroups: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.seLinuxChangePolicy: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod",
        ]
    );
    // Older releases drop new gated fields first (crate::kube::pod_gates); what reaches
    // validation is checked alike.
    assert_eq!(spec_messages(spec, 32).len(), 10);
}

#[test]
fn host_process_containers_agree_with_the_pod() {
    let spec = r#"{"securityContext":{"windowsOptions":{"hostProcess":true}},
      "initContainers":[{"name":"i","securityContext":{"windowsOptions":{"hostProcess":false}}}],
      "containers":[{"name":"app"}]}"#;
    assert_eq!(
        spec_messages(spec, 37),
        [
            "spec.initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
            "spec: Invalid value: \"\": If pod contains any hostProcess containers then all containers must be HostProcess containers",
            "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
        ]
    );
    let all = r#"{"hostNetwork":true,"securityContext":{"windowsOptions":{"hostProcess":true}},
      "containers":[{"name":"a"},{"name":"b","securityContext":{"windowsOptions":{"hostProcess":true}}}]}"#;
    assert!(spec_messages(all, 37).is_empty());
    let none = r#"{"containers":[{"name":"a","securityContext":{"windowsOptions":{"hostProcess":false}}}]}"#;
    assert!(spec_messages(none, 37).is_empty());
}

#[test]
fn selinux_change_policy_values_follow_the_selinux_mount_gate() {
    let spec = r#"{"securityContext":{"seLinuxChangePolicy":"MountOption"}}"#;
    let not_supported = |values: &str| {
        vec![format!(
            "spec.securityContext.seLinuxChangePolicy: Unsupported value: \"MountOption\": supported values: {values}"
        )]
    };
    // In 1.32 the strategy drops a new policy first (crate::kube::pod_gates).
    assert_eq!(spec_messages(spec, 32), not_supported("\"Recursive\""));
    assert_eq!(spec_messages(spec, 33), not_supported("\"Recursive\""));
    assert_eq!(spec_messages(spec, 36), not_supported("\"Recursive\""));
    assert!(spec_messages(spec, 37).is_empty());
    let bad = r#"{"securityContext":{"seLinuxChangePolicy":"Never"}}"#;
    assert_eq!(
        spec_messages(bad, 37),
        [
            "spec.securityContext.seLinuxChangePolicy: Unsupported value: \"Never\": supported values: \"MountOption\", \"Recursive\""
        ]
    );
    // A stored object with any policy keeps every valid one allowed.
    let old = json_value(r#"{"securityContext":{"seLinuxChangePolicy":"Recursive"}}"#);
    let with_old = messages_of(spec, 34, |spec, v, errors| {
        selinux_change_policy(spec, Some(&old), "spec", v, errors)
    });
    assert!(with_old.is_empty());
}

fn json_value(text: &str) -> Value {
    crate::value::from_json_str(text).unwrap()
}

const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"securityContext":{"seLinuxChangePolicy":"Recursive"},
        "containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

#[test]
fn rules_run_in_templates_and_updates_keep_a_stored_policy() {
    assert_eq!(refusal(DEPLOYMENT, None, 36), None);
    let mount = DEPLOYMENT.replace("\"Recursive\"", "\"MountOption\"");
    assert_eq!(
        refusal(&mount, None, 36).unwrap(),
        "The Deployment \"web\" is invalid: spec.template.spec.securityContext.seLinuxChangePolicy: Unsupported value: \"MountOption\": supported values: \"Recursive\""
    );
    assert_eq!(refusal(&mount, Some(DEPLOYMENT), 36), None);
    let windows = DEPLOYMENT.replace(
        r#""securityContext""#,
        r#""os":{"name":"windows"},"securityContext""#,
    );
    assert_eq!(
        refusal(&windows, None, 37).unwrap(),
        "The Deployment \"web\" is invalid: spec.template.spec.securityContext.seLinuxChangePolicy: Forbidden: cannot be set for a windows pod"
    );
}
