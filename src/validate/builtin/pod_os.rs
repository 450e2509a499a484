//! The pod spec's operating-system and user-namespace rules, as k8s.io/kubernetes
//! pkg/apis/core/validation checks them: Windows HostProcess consistency, `hostUsers: false`
//! with host namespaces, `spec.os` with the fields a Linux or Windows pod may not set, and
//! the pod's `seLinuxChangePolicy`.

use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `validOS`, sorted as `sets.List` sorts it.
const OS_NAMES: &[&str] = &["linux", "windows"];

/// The detail of `validateHostUsers`' refusals: the Go field until 1.33, the JSON one after.
const HOST_USERS_FALSE: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(33),
        "when `pod.Spec.HostUsers` is false",
    ),
    (VersionRange::since(34), "when `hostUsers` is false"),
];
/// `volumeDevices` are refused with `hostUsers: false` from 1.34
/// (`AllowUserNamespacesWithVolumeDevices`, true only when the stored spec has both).
const HOST_USERS_VOLUME_DEVICES: VersionRange = VersionRange::since(34);
/// From 1.35 a stored spec with `hostNetwork` and `hostUsers: false` keeps `hostNetwork`
/// allowed (pkg/api/pod util.go `useAllowUserNamespacesHostNetworkSupport`; the gate itself is
/// alpha and off).
const HOST_NETWORK_KEPT: VersionRange = VersionRange::since(35);
/// The detail of `validateWindows`' refusals.
const NOT_FOR_WINDOWS: &str = "cannot be set for a windows pod";
/// The detail of `validateLinux`' refusals.
const NOT_FOR_LINUX: &str = "windows options cannot be set for a linux pod";

/// `seLinuxChangePolicy` values that pass, per version (pkg/api/pod util.go
/// `dropSELinuxChangePolicy`, `useOnlyRecursiveSELinuxChangePolicy`; validation.go
/// `validateSELinuxChangePolicy`): only `Recursive` while SELinuxMount is off by default
/// (until 1.36; in 1.32, where SELinuxChangePolicy is alpha, only a stored field survives the
/// strategy, and a stored one allows both); both once SELinuxMount is GA (1.37).
const SELINUX_CHANGE_POLICIES: &[(VersionRange, &[&str])] = &[
    (VersionRange::until(36), &["Recursive"]),
    (VersionRange::since(37), ALL_SELINUX_CHANGE_POLICIES),
];
/// `validSELinuxChangePolicies`, sorted.
const ALL_SELINUX_CHANGE_POLICIES: &[&str] = &["MountOption", "Recursive"];

/// The containers of the pod spec at `path` in the order `VisitContainersWithPath` visits
/// them (pkg/api/pod): init containers, containers, ephemeral containers.
fn containers<'v>(spec: &'v Value, path: &str) -> Vec<(String, &'v Value)> {
    ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|key| {
            let at = [path, ".", key].concat();
            items(spec.get(key))
                .iter()
                .enumerate()
                .map(move |(i, c)| (indexed(&at, i).into(), c))
        })
        .collect()
}

/// A boolean of the spec (`hostNetwork`, …) that is `true`.
fn flag(spec: &Value, key: &str) -> bool {
    spec.get(key).and_then(Value::as_bool) == Some(true)
}

/// `windowsOptions.hostProcess` of a security context holder (a pod spec or a container).
fn host_process_of(holder: &Value) -> Option<bool> {
    holder
        .get_path(&["securityContext", "windowsOptions", "hostProcess"])
        .and_then(Value::as_bool)
}

/// `validateWindowsHostProcessPod` of the pod spec at `path`: a container's `hostProcess`
/// agrees with the pod's, and a pod with HostProcess containers has only such containers and
/// the host network. Privileged pods are taken as allowed (`--allow-privileged=true`).
pub fn host_process(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let pod = host_process_of(spec);
    let mut count = 0;
    let mut host_processes = 0;
    for (at, c) in containers(spec, path) {
        count += 1;
        let own = host_process_of(c);
        if let (Some(pod), Some(own)) = (pod, own) {
            if pod != own {
                errors.push(FieldError::invalid(
                    join(&at, ".securityContext.windowsOptions.hostProcess"),
                    BadValue::Value(Value::Bool(own)),
                    format!(
                        "pod hostProcess value must be identical if both are specified, was {pod}"
                    ),
                ));
            }
        }
        if own.or(pod) == Some(true) {
            host_processes += 1;
        }
    }
    if host_processes == 0 {
        return;
    }
    if host_processes != count {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(""),
            "If pod contains any hostProcess containers then all containers must be HostProcess containers",
        ));
    }
    if !flag(spec, "hostNetwork") {
        errors.push(FieldError::invalid(
            join(path, ".hostNetwork"),
            BadValue::Value(Value::Bool(false)),
            "hostNetwork must be true if pod contains any hostProcess containers",
        ));
    }
}

/// `validateHostUsers` of the pod spec at `path`: a pod in its own user namespace shares no
/// other namespace with the host. The server names the PID and IPC fields in Go's spelling
/// (`spec.HostPID`). The UserNamespacesHostNetworkSupport gate that lifts the network rule
/// is alpha (off) from 1.35.
pub fn host_users(
    spec: &Value,
    old: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let no_host_users = |s: &Value| s.get("hostUsers").and_then(Value::as_bool) == Some(false);
    if !no_host_users(spec) {
        return;
    }
    let detail = version.pick(HOST_USERS_FALSE);
    let stored_no_host_users = old.filter(|o| no_host_users(o));
    let host_network_kept = HOST_NETWORK_KEPT.contains(version)
        && stored_no_host_users.is_some_and(|o| flag(o, "hostNetwork"));
    for (key, field) in [
        ("hostNetwork", ".hostNetwork"),
        ("hostPID", ".HostPID"),
        ("hostIPC", ".HostIPC"),
    ] {
        if flag(spec, key) && !(key == "hostNetwork" && host_network_kept) {
            errors.push(FieldError::forbidden(join(path, field), detail));
        }
    }
    let has_devices = |s: &Value| {
        containers(s, "")
            .iter()
            .any(|(_, c)| !items(c.get("volumeDevices")).is_empty())
    };
    if HOST_USERS_VOLUME_DEVICES.contains(version) && !stored_no_host_users.is_some_and(has_devices)
    {
        for (at, c) in containers(spec, path) {
            if !items(c.get("volumeDevices")).is_empty() {
                errors.push(FieldError::forbidden(join(&at, ".volumeDevices"), detail));
            }
        }
    }
}

/// The `seLinuxChangePolicy` rule of `validatePodSpecSecurityContext` (its last) for the pod
/// spec at `path`; `old` is the stored object's pod spec, whose having any policy allows every
/// valid one.
pub fn selinux_change_policy(
    spec: &Value,
    old: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(policy) = spec
        .get("securityContext")
        .and_then(|sc| present(sc, "seLinuxChangePolicy"))
    else {
        return;
    };
    let mut supported = version.pick(SELINUX_CHANGE_POLICIES);
    let in_use = old
        .and_then(|o| o.get("securityContext"))
        .and_then(|sc| present(sc, "seLinuxChangePolicy"))
        .is_some();
    if in_use {
        supported = ALL_SELINUX_CHANGE_POLICIES;
    }
    let policy = policy.as_str().unwrap_or("");
    if !supported.contains(&policy) {
        errors.push(FieldError::not_supported(
            join(path, ".securityContext.seLinuxChangePolicy"),
            FieldError::string_value(policy),
            supported,
        ));
    }
}

/// `validateOS` of the pod spec at `path`, then, when the name is valid, `validateLinux` or
/// `validateWindows` (the last rules of `ValidatePodSpec`).
pub fn os(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let Some(os) = present(spec, "os") else {
        return;
    };
    let name = text(os, "name");
    let at = join(path, ".os");
    if name.is_empty() {
        errors.push(FieldError::required(join(&at, ".name"), "cannot be empty"));
    } else if !OS_NAMES.contains(&name) {
        errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(name),
            OS_NAMES,
        ));
    } else if name == "linux" {
        linux(spec, path, errors);
    } else {
        windows(spec, path, errors);
    }
}

/// `validateLinux`: no Windows options on the pod or any container.
fn linux(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let mut holders = vec![(path.to_string(), spec)];
    holders.extend(containers(spec, path));
    for (at, holder) in holders {
        let sc = holder.get("securityContext");
        if sc.and_then(|sc| present(sc, "windowsOptions")).is_some() {
            errors.push(FieldError::forbidden(
                join(&at, ".securityContext.windowsOptions"),
                NOT_FOR_LINUX,
            ));
        }
    }
}

/// Where a field `validateWindows` refuses lives in the v1 pod spec.
#[derive(Clone, Copy)]
enum Place {
    /// In the pod's `securityContext`, set (not null).
    SecurityContext,
    /// In the pod's `securityContext`, a non-empty list.
    SecurityContextList,
    /// On the pod spec itself, set (the internal security context's pointers).
    Spec,
    /// On the pod spec itself, `true` (the internal security context's booleans).
    SpecTrue,
}

/// The pod-level fields `validateWindows` refuses, in its order (a field whose feature gate is
/// off is dropped before, [`crate::kube::pod_gates`]).
const WINDOWS_POD_FIELDS: &[(&str, Place)] = &[
    ("appArmorProfile", Place::SecurityContext),
    ("seLinuxOptions", Place::SecurityContext),
    ("hostUsers", Place::Spec),
    ("hostPID", Place::SpecTrue),
    ("hostIPC", Place::SpecTrue),
    ("seccompProfile", Place::SecurityContext),
    ("fsGroup", Place::SecurityContext),
    ("fsGroupChangePolicy", Place::SecurityContext),
    ("sysctls", Place::SecurityContextList),
    ("shareProcessNamespace", Place::Spec),
    ("runAsUser", Place::SecurityContext),
    ("runAsGroup", Place::SecurityContext),
    ("supplementalGroups", Place::SecurityContext),
    ("supplementalGroupsPolicy", Place::SecurityContext),
    ("seLinuxChangePolicy", Place::SecurityContext),
];

/// The container security context fields `validateWindows` refuses, in its order.
const WINDOWS_CONTAINER_FIELDS: &[&str] = &[
    "appArmorProfile",
    "seLinuxOptions",
    "seccompProfile",
    "capabilities",
    "readOnlyRootFilesystem",
    "privileged",
    "allowPrivilegeEscalation",
    "procMount",
    "runAsUser",
    "runAsGroup",
];

/// `validateWindows`: the Linux-only fields of the pod, then of each container's security
/// context.
fn windows(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    static NULL: Value = Value::Null;
    let sc = spec.get("securityContext").unwrap_or(&NULL);
    for (key, place) in WINDOWS_POD_FIELDS {
        let (set, field) = match place {
            Place::SecurityContext => (present(sc, key).is_some(), "securityContext."),
            Place::SecurityContextList => (!items(sc.get(key)).is_empty(), "securityContext."),
            Place::Spec => (present(spec, key).is_some(), ""),
            Place::SpecTrue => (flag(spec, key), ""),
        };
        if set {
            errors.push(FieldError::forbidden(
                [path, ".", field, key].concat(),
                NOT_FOR_WINDOWS,
            ));
        }
    }
    for (at, c) in containers(spec, path) {
        let Some(sc) = present(c, "securityContext") else {
            continue;
        };
        for key in WINDOWS_CONTAINER_FIELDS {
            if present(sc, key).is_some() {
                errors.push(FieldError::forbidden(
                    [&at, ".securityContext.", key].concat(),
                    NOT_FOR_WINDOWS,
                ));
            }
        }
    }
}

#[cfg(test)]
#[path = "pod_os_tests.rs"]
mod tests;
