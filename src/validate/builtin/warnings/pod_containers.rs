//! The warnings of a pod spec's containers (k8s.io/kubernetes pkg/api/pod/warnings.go
//! `warningsForPodSpecAndMeta`, the `VisitContainersWithPath` parts: annotations naming a
//! container, byte quantities, hidden environment variables, ports), and the AppArmor
//! annotation warning the Pod strategy adds while preparing a create
//! (pkg/registry/core/pod/strategy.go `applyAppArmorVersionSkew`).

use super::super::super::goprint::go_quote;
use super::super::fields::{items, present, text};
use super::claims::fractional_bytes;
use super::pod::{Template, BYTE_RESOURCES};
use crate::kube::{apparmor, KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed, PathText};
use crate::value::Value;

/// Container ports sharing a name (1.33–).
const DUPLICATE_PORT_NAMES: VersionRange = VersionRange::since(33);
/// From 1.34 a template's AppArmor annotation is not reported when it says what the pod-level
/// profile says; before, any pod-level profile silenced it.
const APPARMOR_COMPARED_WITH_POD_PROFILE: VersionRange = VersionRange::since(34);
const SECCOMP_CONTAINER_ANNOTATION: &str = "container.seccomp.security.alpha.kubernetes.io/";
const APPARMOR_DEPRECATED: &str =
    r#"deprecated since v1.30; use the "appArmorProfile" field instead"#;

/// The containers as `pods.VisitContainersWithPath` visits them: init containers, containers,
/// ephemeral containers, with their paths.
pub(super) fn containers<'v>(t: &Template<'v>) -> Vec<(PathText, &'v Value)> {
    let mut all = Vec::new();
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        let at = t.path(&format!("spec.{list}"));
        for (i, c) in items(t.spec.get(list)).iter().enumerate() {
            all.push((indexed(&at, i), c));
        }
    }
    all
}

pub(super) fn container(
    t: &Template,
    at: &str,
    c: &Value,
    version: KubeVersion,
    out: &mut Vec<String>,
) {
    let name = text(c, "name");
    let seccomp = c.get_path(&["securityContext", "seccompProfile"]);
    let seccomp_key = format!("{SECCOMP_CONTAINER_ANNOTATION}{name}");
    if seccomp.is_none_or(Value::is_null) && t.annotation(&seccomp_key).is_some() {
        out.push(format!(
            r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            keyed(&t.path("metadata.annotations"), &seccomp_key)
        ));
    }
    if t.is_template() {
        template_apparmor(t, c, version, out);
    }
    let resources = c.get("resources").unwrap_or(&Value::Null);
    // Memory in limits then requests, then ephemeral storage in both, as upstream orders them.
    for name in BYTE_RESOURCES {
        for list in ["limits", "requests"] {
            let list_at = join(at, &format!(".resources.{list}"));
            fractional_bytes(resources.get(list), &[name], &list_at, out);
        }
    }
    hidden_env(c, at, out);
}

/// A template's container AppArmor annotation without the field (the Pod strategy reports
/// Pods' while preparing them, [`pod_apparmor_skew`]).
fn template_apparmor(t: &Template, c: &Value, version: KubeVersion, out: &mut Vec<String>) {
    let key = format!("{}{}", apparmor::ANNOTATION_PREFIX, text(c, "name"));
    let Some(annotation) = t.annotation(&key) else {
        return;
    };
    let container_profile = c
        .get_path(&["securityContext", "appArmorProfile"])
        .filter(|p| !p.is_null());
    let pod_profile = t
        .spec
        .get_path(&["securityContext", "appArmorProfile"])
        .filter(|p| !p.is_null());
    let warn = if APPARMOR_COMPARED_WITH_POD_PROFILE.contains(version) {
        container_profile.is_none()
            && pod_profile.is_none_or(|p| {
                let from_annotation =
                    apparmor::profile_for_annotation(annotation.as_str().unwrap_or(""));
                !from_annotation.is_some_and(|a| apparmor::same_profile(p, &a))
            })
    } else {
        container_profile.is_none() && pod_profile.is_none()
    };
    if warn {
        out.push(format!(
            "{}: {APPARMOR_DEPRECATED}",
            keyed(&t.path("metadata.annotations"), &key)
        ));
    }
}

/// The Pod strategy's AppArmor warnings on create (`applyAppArmorVersionSkew`, see
/// [`crate::kube::apparmor::sync`]), found on the object the client sent: by the time
/// validation runs the annotations it warns about have become fields.
pub fn pod_apparmor_skew(body: &Value, version: KubeVersion, out: &mut Vec<String>) {
    let mut pod = body.clone();
    for key in apparmor::sync(&mut pod, version) {
        out.push(format!(
            "metadata.annotations[{key}]: {APPARMOR_DEPRECATED}"
        ));
    }
}

/// A repeated environment variable that hides the previous one unless it refers to it.
fn hidden_env(c: &Value, at: &str, out: &mut Vec<String>) {
    let env = items(c.get("env"));
    if env.len() < 2 {
        return;
    }
    let env_at = join(at, ".env");
    let mut seen: Vec<&str> = Vec::new();
    for (i, item) in env.iter().enumerate() {
        let name = text(item, "name");
        if !seen.contains(&name) {
            seen.push(name);
            continue;
        }
        let reference = format!("$({name})");
        let value = text(item, "value");
        let hides = present(item, "valueFrom").is_some()
            || value == reference
            || !value.contains(&reference);
        if hides {
            out.push(format!(
                "{}: hides previous definition of {}, which may be dropped when using apply",
                indexed(&env_at, i),
                go_quote(name)
            ));
        }
    }
}

/// Container ports: a host IP without a host port, the same port and protocol defined twice
/// (across all containers, in visiting order), and from 1.33 a port name used twice.
pub(super) fn ports(t: &Template, version: KubeVersion, out: &mut Vec<String>) {
    struct Port<'v> {
        at: PathText,
        host_ip: &'v str,
        host_port: i64,
    }
    let mut by_key: Vec<(String, Vec<Port>)> = Vec::new();
    let all = containers(t);
    for (c_at, c) in &all {
        let ports_at = join(c_at, ".ports");
        for (i, port) in items(c.get("ports")).iter().enumerate() {
            let at = indexed(&ports_at, i);
            let host_ip = text(port, "hostIP");
            let host_port = port.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            let container_port = port
                .get("containerPort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            let protocol = text(port, "protocol");
            if !host_ip.is_empty() && host_port == 0 {
                out.push(format!(
                    "{at}: hostIP set without hostPort: {{Name:{} HostPort:{host_port} ContainerPort:{container_port} Protocol:{protocol} HostIP:{host_ip}}}",
                    text(port, "name")
                ));
            }
            let key = format!("{container_port}/{protocol}");
            let this = Port {
                at,
                host_ip,
                host_port,
            };
            match by_key.iter_mut().find(|(k, _)| *k == key) {
                Some((_, others)) => {
                    for other in others.iter() {
                        let relation =
                            if this.host_ip == other.host_ip && this.host_port == other.host_port {
                                "duplicate"
                            } else if this.host_port == 0 || other.host_port == 0 {
                                "overlapping"
                            } else if this.host_port == other.host_port
                                && (this.host_ip.is_empty() != other.host_ip.is_empty())
                            {
                                "dangerously ambiguous"
                            } else {
                                continue;
                            };
                        out.push(format!(
                            "{}: {relation} port definition with {}",
                            this.at, other.at
                        ));
                    }
                    others.push(this);
                }
                None => by_key.push((key, vec![this])),
            }
        }
    }
    if !DUPLICATE_PORT_NAMES.contains(version) {
        return;
    }
    let mut names: Vec<(&str, PathText)> = Vec::new();
    for (c_at, c) in &all {
        let ports_at = join(c_at, ".ports");
        for (i, port) in items(c.get("ports")).iter().enumerate() {
            let name = text(port, "name");
            if name.is_empty() {
                continue;
            }
            let at = indexed(&ports_at, i);
            match names.iter().find(|(n, _)| *n == name) {
                Some((_, other)) => out.push(format!(
                    "{at}: duplicate port name {} with {other}, services and probes that select ports by name will use {other}",
                    go_quote(name)
                )),
                None => names.push((name, at)),
            }
        }
    }
}
