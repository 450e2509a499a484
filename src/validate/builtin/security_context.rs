//! Security contexts of pods and containers, as k8s.io/kubernetes pkg/apis/core/validation
//! checks them (`validatePodSpecSecurityContext`, `ValidateSecurityContext`): user and group
//! IDs, sysctls, seccomp and AppArmor profiles, proc mounts, privilege escalation.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use super::volume_source::local_descending;
use super::{sysctl, windows_options};
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::{Map, Value};

/// `validFSGroupChangePolicies`, sorted as `sets.List` sorts them.
const FS_GROUP_CHANGE_POLICIES: &[&str] = &["Always", "OnRootMismatch"];
/// `validSupplementalGroupsPolicies`, sorted.
const SUPPLEMENTAL_GROUPS_POLICIES: &[&str] = &["Merge", "Strict"];
/// `validateSeccompProfileType`'s list.
const SECCOMP_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
/// `ValidateAppArmorProfileField`'s list.
const APPARMOR_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
/// `ValidateProcMountType`'s list.
const PROC_MOUNT_TYPES: &[&str] = &["Default", "Unmasked"];

/// `AppArmorProfile.localhostProfile`'s limit (`PATH_MAX - 1`).
const MAX_LOCALHOST_PROFILE_LENGTH: usize = 4095;

/// `validatePodSpecSecurityContext` for the pod spec at `path`. The internal pod security
/// context always exists (conversion moves `hostPID`, `hostNetwork`, `hostIPC` and
/// `shareProcessNamespace` into it), so the host-namespace rules apply without one.
/// `host_namespace_sysctls` is `AllowNamespacedSysctlsForHostNetAndHostIPC`.
pub fn pod(
    spec: &Value,
    path: &str,
    host_namespace_sysctls: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    static NULL: Value = Value::Null;
    let sc = present(spec, "securityContext").unwrap_or(&NULL);
    let at = join(path, ".securityContext");
    id(sc, "fsGroup", &at, errors);
    id(sc, "runAsUser", &at, errors);
    id(sc, "runAsGroup", &at, errors);
    for (g, gid) in items(sc.get("supplementalGroups")).iter().enumerate() {
        if let Some(n) = gid.as_i64() {
            id_range(n, &format!("{at}.supplementalGroups[{g}]"), errors);
        }
    }
    let flag = |key: &str| spec.get(key).and_then(Value::as_bool) == Some(true);
    if flag("shareProcessNamespace") && flag("hostPID") {
        errors.push(FieldError::invalid(
            join(&at, ".shareProcessNamespace"),
            BadValue::Value(Value::Bool(true)),
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    // With the allowance `ValidateHostSysctl` is not run at all.
    let checked = |key| !host_namespace_sysctls && flag(key);
    sysctl::sysctls(
        items(sc.get("sysctls")),
        &join(&at, ".sysctls"),
        checked("hostNetwork"),
        checked("hostIPC"),
        errors,
    );
    if let Some(policy) = present(sc, "fsGroupChangePolicy") {
        let policy = policy.as_str().unwrap_or("");
        if !FS_GROUP_CHANGE_POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                join(&at, ".fsGroupChangePolicy"),
                FieldError::string_value(policy),
                FS_GROUP_CHANGE_POLICIES,
            ));
        }
    }
    seccomp(present(sc, "seccompProfile"), &at, errors);
    windows_options::check(present(sc, "windowsOptions"), &at, errors);
    app_armor(present(sc, "appArmorProfile"), &at, version, errors);
    {
        if let Some(policy) = present(sc, "supplementalGroupsPolicy") {
            let policy = policy.as_str().unwrap_or("");
            if !SUPPLEMENTAL_GROUPS_POLICIES.contains(&policy) {
                errors.push(FieldError::not_supported(
                    join(&at, ".supplementalGroupsPolicy"),
                    FieldError::string_value(policy),
                    SUPPLEMENTAL_GROUPS_POLICIES,
                ));
            }
        }
    }
}

/// `ValidateSecurityContext` of the container `c` at `path` in the pod spec `spec` (the last
/// rule of `validateContainerCommon`). Privileged containers are taken as allowed by the
/// cluster (`--allow-privileged=true`, as kubeadm and most distributions set it).
pub fn container(
    c: &Value,
    spec: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(sc) = present(c, "securityContext") else {
        return;
    };
    let at = join(path, ".securityContext");
    id(sc, "runAsUser", &at, errors);
    id(sc, "runAsGroup", &at, errors);
    {
        if let Some(mount) = present(sc, "procMount") {
            let mount = mount.as_str().unwrap_or("");
            let field = join(&at, ".procMount");
            if !PROC_MOUNT_TYPES.contains(&mount) {
                errors.push(FieldError::not_supported(
                    &field,
                    FieldError::string_value(mount),
                    PROC_MOUNT_TYPES,
                ));
            }
            let host_users = spec.get("hostUsers").and_then(Value::as_bool) != Some(false);
            if host_users && mount == "Unmasked" {
                errors.push(FieldError::invalid(
                    field,
                    FieldError::string_value(mount),
                    "`hostUsers` must be false to use `Unmasked`",
                ));
            }
        }
    }
    seccomp(present(sc, "seccompProfile"), &at, errors);
    if sc.get("allowPrivilegeEscalation").and_then(Value::as_bool) == Some(false) {
        if sc.get("privileged").and_then(Value::as_bool) == Some(true) {
            errors.push(FieldError::invalid(
                &at,
                quoted_security_context(sc),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let added = sc.get("capabilities").and_then(|c| c.get("add"));
        for cap in items(added) {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                errors.push(FieldError::invalid(
                    &at,
                    quoted_security_context(sc),
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    windows_options::check(present(sc, "windowsOptions"), &at, errors);
    app_armor(present(sc, "appArmorProfile"), &at, version, errors);
}

/// `IsValidUserID` / `IsValidGroupID` of the integer under `key`.
fn id(sc: &Value, key: &str, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(n) = sc.get(key).and_then(Value::as_i64) {
        id_range(n, &format!("{path}.{key}"), errors);
    }
}

fn id_range(n: i64, path: &str, errors: &mut Vec<FieldError>) {
    let max = i64::from(i32::MAX);
    if !(0..=max).contains(&n) {
        errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(n)),
            formats::inclusive_range(0, max),
        ));
    }
}

/// `validateSeccompProfileField` of the profile under `path` (a security context).
fn seccomp(profile: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
    let Some(p) = profile else {
        return;
    };
    let at = join(path, ".seccompProfile");
    let kind = text(p, "type");
    profile_type(kind, &at, "seccompProfile", SECCOMP_TYPES, errors);
    let local = present(p, "localhostProfile");
    let field = join(&at, ".localhostProfile");
    if kind == "Localhost" {
        match local {
            None => errors.push(FieldError::required(
                field,
                "must be set when seccomp type is Localhost",
            )),
            Some(l) => local_descending(l.as_str().unwrap_or(""), &field, errors),
        }
    } else if local.is_some() {
        errors.push(FieldError::invalid(
            field,
            quoted_profile("core.SeccompProfile", p),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

/// `ValidateAppArmorProfileField` of the profile under `path` (a security context).
fn app_armor(
    profile: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(p) = profile else {
        return;
    };
    let at = join(path, ".appArmorProfile");
    let field = join(&at, ".localhostProfile");
    let local = present(p, "localhostProfile");
    match text(p, "type") {
        "Localhost" => match local.map(|l| l.as_str().unwrap_or("")) {
            None => errors.push(FieldError::required(
                field,
                "must be set when AppArmor type is Localhost",
            )),
            Some(l) => {
                if l.trim() != l {
                    errors.push(FieldError::invalid(
                        &field,
                        FieldError::string_value(l),
                        "must not be padded with whitespace",
                    ));
                } else if l.is_empty() {
                    errors.push(FieldError::required(
                        &field,
                        "must be set when AppArmor type is Localhost",
                    ));
                }
                if l.len() > MAX_LOCALHOST_PROFILE_LENGTH {
                    errors.push(FieldError::too_long(
                        field,
                        MAX_LOCALHOST_PROFILE_LENGTH,
                        version,
                    ));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(l) = local {
                errors.push(FieldError::invalid(
                    field,
                    BadValue::Value(l.clone()),
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        other => profile_type(other, &at, "appArmorProfile", APPARMOR_TYPES, errors),
    }
}

/// A seccomp or AppArmor profile's `type` at `at`: required, and one of `supported`.
fn profile_type(
    kind: &str,
    at: &str,
    field: &str,
    supported: &[&str],
    errors: &mut Vec<FieldError>,
) {
    if kind.is_empty() {
        errors.push(FieldError::required(
            join(at, ".type"),
            ["type is required when ", field, " is set"].concat(),
        ));
    } else if !supported.contains(&kind) {
        errors.push(FieldError::not_supported(
            join(at, ".type"),
            FieldError::string_value(kind),
            supported,
        ));
    }
}

/// An internal `Type` + `*LocalhostProfile` struct (seccomp, AppArmor) as the server quotes it:
/// JSON under the Go field names since 1.34; before, `%#v` with the pointer as an address kssa
/// cannot know (`0x…`).
fn quoted_profile(go_type: &str, p: &Value) -> BadValue {
    let mut value = Map::default();
    value.insert("Type".into(), Value::from(text(p, "type")));
    let local = present(p, "localhostProfile").cloned();
    let address = if local.is_some() { "0x…" } else { "nil" };
    value.insert("LocalhostProfile".into(), local.unwrap_or(Value::Null));
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax: format!(
            "{go_type}{{Type:{}, LocalhostProfile:(*string)({address})}}",
            super::super::goprint::go_quote(text(p, "type"))
        ),
    }
}

/// The fields of the internal `core.SecurityContext` in declaration order: Go name, JSON key,
/// pointer type, and the Go names of a nested struct's fields.
/// A field of an internal struct: Go name, JSON key, Go pointer type, nested Go/JSON names.
type GoField = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const SECURITY_CONTEXT_FIELDS: &[GoField] = &[
    (
        "Capabilities",
        "capabilities",
        "*core.Capabilities",
        &[("Add", "add"), ("Drop", "drop")],
    ),
    ("Privileged", "privileged", "*bool", &[]),
    (
        "SELinuxOptions",
        "seLinuxOptions",
        "*core.SELinuxOptions",
        &[
            ("User", "user"),
            ("Role", "role"),
            ("Type", "type"),
            ("Level", "level"),
        ],
    ),
    (
        "WindowsOptions",
        "windowsOptions",
        "*core.WindowsSecurityContextOptions",
        &[
            ("GMSACredentialSpecName", "gmsaCredentialSpecName"),
            ("GMSACredentialSpec", "gmsaCredentialSpec"),
            ("RunAsUserName", "runAsUserName"),
            ("HostProcess", "hostProcess"),
        ],
    ),
    ("RunAsUser", "runAsUser", "*int64", &[]),
    ("RunAsGroup", "runAsGroup", "*int64", &[]),
    ("RunAsNonRoot", "runAsNonRoot", "*bool", &[]),
    (
        "ReadOnlyRootFilesystem",
        "readOnlyRootFilesystem",
        "*bool",
        &[],
    ),
    (
        "AllowPrivilegeEscalation",
        "allowPrivilegeEscalation",
        "*bool",
        &[],
    ),
    ("ProcMount", "procMount", "*core.ProcMountType", &[]),
    (
        "SeccompProfile",
        "seccompProfile",
        "*core.SeccompProfile",
        &[("Type", "type"), ("LocalhostProfile", "localhostProfile")],
    ),
    (
        "AppArmorProfile",
        "appArmorProfile",
        "*core.AppArmorProfile",
        &[("Type", "type"), ("LocalhostProfile", "localhostProfile")],
    ),
];

/// A container's security context as the server quotes it (`*core.SecurityContext`,
/// dereferenced): JSON of the untagged internal struct since 1.34, `%#v` before, whose
/// pointer fields print as addresses (`0x…`).
fn quoted_security_context(sc: &Value) -> BadValue {
    let mut value = Map::default();
    let mut go = Vec::new();
    for (go_name, key, go_type, nested) in SECURITY_CONTEXT_FIELDS {
        let v = match present(sc, key) {
            None => Value::Null,
            Some(inner) if nested.is_empty() => inner.clone(),
            Some(inner) => {
                let mut m = Map::default();
                for (n, k) in *nested {
                    let zero = if matches!(*k, "user" | "role" | "type" | "level") {
                        Value::from("")
                    } else {
                        Value::Null
                    };
                    m.insert((*n).into(), present(inner, k).cloned().unwrap_or(zero));
                }
                Value::Map(m)
            }
        };
        let address = if v.is_null() { "nil" } else { "0x…" };
        go.push(format!("{go_name}:({go_type})({address})"));
        value.insert((*go_name).into(), v);
    }
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax: format!("core.SecurityContext{{{}}}", go.join(", ")),
    }
}

#[cfg(test)]
#[path = "security_context_tests.rs"]
mod tests;
