//! The security context rules on small pod specs: which errors, in which order, with which
//! wording and quoted values per version.

use super::*;
use crate::validate::builtin::sysctl::{sysctl_namespace, SysctlNamespace};
use crate::value::from_json_str;

fn pod_messages(spec: &str, minor: u8) -> Vec<String> {
    let spec = from_json_str(spec).unwrap();
    let v = KubeVersion::new(minor).unwrap();
    let mut errors = Vec::new();
    pod(&spec, "spec", false, v, &mut errors);
    errors.iter().map(|e| e.message(v)).collect()
}

fn container_messages(sc: &str, minor: u8) -> Vec<String> {
    let c = from_json_str(&format!(r#"{{"name":"app","securityContext":{sc}}}"#)).unwrap();
    let v = KubeVersion::new(minor).unwrap();
    let mut errors = Vec::new();
    container(&c, &Value::Null, "spec.containers[0]", v, &mut errors);
    errors.iter().map(|e| e.message(v)).collect()
}

#[test]
fn ids_are_in_the_int32_range() {
    assert_eq!(
        pod_messages(
            r#"{"securityContext":{"runAsUser":-1,"fsGroup":2147483648,"supplementalGroups":[1,-5]}}"#,
            37
        ),
        [
            "spec.securityContext.fsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.supplementalGroups[1]: Invalid value: -5: must be between 0 and 2147483647, inclusive",
        ]
    );
}

#[test]
fn host_pid_and_sysctls() {
    assert_eq!(
        pod_messages(
            r#"{"shareProcessNamespace":true,"hostPID":true,"hostNetwork":true,
                "securityContext":{"sysctls":[{"name":"net.core.somaxconn","value":"1"},
                  {"name":"kernel.shm_rmid_forced","value":"1"},{"name":"Bad.Name"},
                  {"name":"kernel.shm_rmid_forced"},{"value":"1"}]}}"#,
            37
        ),
        [
            "spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
            "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
            "spec.securityContext.sysctls[2].name: Invalid value: \"Bad.Name\": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
            "spec.securityContext.sysctls[3].name: Duplicate value: \"kernel.shm_rmid_forced\"",
            "spec.securityContext.sysctls[4].name: Required value",
        ]
    );
    assert_eq!(
        sysctl_namespace("net/ipv4/conf/eth0.100/rp_filter"),
        SysctlNamespace::Net
    );
    assert_eq!(sysctl_namespace("fs.mqueue.msg_max"), SysctlNamespace::Ipc);
    assert_eq!(sysctl_namespace("kernel.msg*"), SysctlNamespace::Ipc);
    assert_eq!(
        sysctl_namespace("vm.max_map_count"),
        SysctlNamespace::Unknown
    );
}

#[test]
fn profiles_and_policies() {
    assert_eq!(
        pod_messages(
            r#"{"securityContext":{"fsGroupChangePolicy":"Sometimes",
                "seccompProfile":{"type":"Localhost"},
                "appArmorProfile":{"type":"RuntimeDefault","localhostProfile":"x"},
                "supplementalGroupsPolicy":"Loose"}}"#,
            33
        ),
        [
            "spec.securityContext.fsGroupChangePolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnRootMismatch\"",
            "spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
            "spec.securityContext.appArmorProfile.localhostProfile: Invalid value: \"x\": can only be set when AppArmor type is Localhost",
            "spec.securityContext.supplementalGroupsPolicy: Unsupported value: \"Loose\": supported values: \"Merge\", \"Strict\"",
        ]
    );
    // Before 1.33 the strategy drops the field unless the stored spec uses it
    // (crate::kube::pod_gates); one that reaches validation is checked.
    assert_eq!(
        pod_messages(
            r#"{"securityContext":{"supplementalGroupsPolicy":"Loose"}}"#,
            32
        )
        .len(),
        1
    );
}

#[test]
fn seccomp_localhost_profile_only_for_localhost() {
    let sc = r#"{"seccompProfile":{"type":"RuntimeDefault","localhostProfile":"p.json"}}"#;
    assert_eq!(
        container_messages(sc, 37),
        ["spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: {\"Type\":\"RuntimeDefault\",\"LocalhostProfile\":\"p.json\"}: can only be set when seccomp type is Localhost"]
    );
    assert!(container_messages(sc, 33)[0]
        .contains("core.SeccompProfile{Type:\"RuntimeDefault\", LocalhostProfile:(*string)(0x…)}"));
    assert_eq!(
        container_messages(r#"{"seccompProfile":{"type":"Localhost","localhostProfile":"/abs/../p"}}"#, 37),
        [
            "spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: \"/abs/../p\": must be a relative path",
            "spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: \"/abs/../p\": must not contain '..'",
        ]
    );
}

#[test]
fn privileged_without_escalation_quotes_the_context() {
    let sc = r#"{"privileged":true,"allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}"#;
    let got = container_messages(sc, 37);
    assert_eq!(
        got[0],
        "spec.containers[0].securityContext: Invalid value: {\"Capabilities\":{\"Add\":[\"CAP_SYS_ADMIN\"],\"Drop\":null},\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true"
    );
    assert!(got[1].ends_with(
        ": cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"
    ));
    assert!(container_messages(sc, 33)[0].starts_with(
        "spec.containers[0].securityContext: Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(0x…), Privileged:(*bool)(0x…), SELinuxOptions:(*core.SELinuxOptions)(nil),"
    ));
}

#[test]
fn proc_mount_values_and_host_users() {
    let sc = r#"{"procMount":"Unmasked","runAsUser":-2}"#;
    assert_eq!(
        container_messages(sc, 33),
        [
            "spec.containers[0].securityContext.runAsUser: Invalid value: -2: must be between 0 and 2147483647, inclusive",
            "spec.containers[0].securityContext.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`",
        ]
    );
    // Before 1.33 the strategy makes a new proc mount `Default` (crate::kube::pod_gates); a
    // stored one reaches validation.
    assert_eq!(container_messages(sc, 32).len(), 2);
    assert_eq!(
        container_messages(r#"{"procMount":"Masked"}"#, 37),
        ["spec.containers[0].securityContext.procMount: Unsupported value: \"Masked\": supported values: \"Default\", \"Unmasked\""]
    );
}
