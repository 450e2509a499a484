//! Pod sysctls, as k8s.io/kubernetes pkg/apis/core/validation `validateSysctls` and
//! `ValidateHostSysctl` check them, with the namespace lookup of k8s.io/component-helpers
//! node/util/sysctl (`GetNamespace`, `NormalizeName`).

use super::super::FieldError;
use super::fields::text;
use crate::value::Value;
use std::collections::HashSet;

/// `SysctlMaxLength` and the regular expression `validateSysctls` quotes.
const SYSCTL_MAX_LENGTH: usize = 253;
const SYSCTL_REGEX: &str =
    "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";

/// `validateSysctls`: names required, in sysctl format, unique; namespaced sysctls not with
/// the host's network or IPC namespace (`ValidateHostSysctl`: the caller passes `false` for
/// both flags where the stored pod already broke that rule).
pub fn sysctls(
    list: &[Value],
    path: &str,
    host_network: bool,
    host_ipc: bool,
    errors: &mut Vec<FieldError>,
) {
    let mut names = HashSet::new();
    for (i, s) in list.iter().enumerate() {
        let at = format!("{path}[{i}].name");
        let name = text(s, "name");
        if name.is_empty() {
            errors.push(FieldError::required(&at, ""));
        } else if !is_sysctl_name(name) {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(name),
                format!("must have at most {SYSCTL_MAX_LENGTH} characters and match regex {SYSCTL_REGEX}"),
            ));
        } else if names.contains(name) {
            errors.push(FieldError::duplicate(&at, FieldError::string_value(name)));
        }
        let host = match sysctl_namespace(name) {
            SysctlNamespace::Net if host_network => Some("hostNetwork"),
            SysctlNamespace::Ipc if host_ipc => Some("hostIPC"),
            _ => None,
        };
        if let Some(host) = host {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(name),
                format!("may not be specified when '{host}' is true"),
            ));
        }
        names.insert(name);
    }
}

/// `IsValidSysctlName`: dot- or slash-separated segments `[a-z0-9]([-_a-z0-9]*[a-z0-9])?`.
fn is_sysctl_name(name: &str) -> bool {
    let segment = |s: &str| {
        let b = s.as_bytes();
        let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty()
            && alnum(b[0])
            && alnum(b[b.len() - 1])
            && b.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
    };
    name.len() <= SYSCTL_MAX_LENGTH && name.split(['.', '/']).all(segment)
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum SysctlNamespace {
    Net,
    Ipc,
    Unknown,
}

/// k8s.io/component-helpers node/util/sysctl `GetNamespace`: the name normalized to dots
/// (`NormalizeName`), cut at a `*`, then looked up by name or prefix.
pub(super) fn sysctl_namespace(name: &str) -> SysctlNamespace {
    let slashed = name
        .find(['.', '/'])
        .is_some_and(|i| name.as_bytes()[i] == b'/');
    let normalized: String = if slashed {
        name.chars()
            .map(|c| match c {
                '.' => '/',
                '/' => '.',
                c => c,
            })
            .collect()
    } else {
        name.to_string()
    };
    let key = normalized.split('*').next().unwrap_or("");
    const IPC_NAMES: &[&str] = &[
        "kernel.sem",
        "kernel.shmall",
        "kernel.shmmax",
        "kernel.shmmni",
        "kernel.shm_rmid_forced",
        "kernel.shm",
        "kernel.msgmax",
        "kernel.msgmnb",
        "kernel.msgmni",
        "kernel.msg",
    ];
    if IPC_NAMES.contains(&key) || key.starts_with("fs.mqueue.") {
        SysctlNamespace::Ipc
    } else if key.starts_with("net.") {
        SysctlNamespace::Net
    } else {
        SysctlNamespace::Unknown
    }
}
