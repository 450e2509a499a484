//! Pod templates and pod specs, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidatePodTemplateSpec`, `ValidatePodSpec`, `validateContainers`,
//! `validateInitContainers`, `validateContainerCommon`, `validateContainerPorts`,
//! `ValidateVolumes`): the rules users hit most, in the server's order.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{items, text};
use super::mounts::{self, Volumes};
use super::pod_options::PodOptions;
use super::resources::Context;
use super::{
    affinity, dns, env, host_ports, meta, pod_annotations, pod_misc, pod_os, pod_resources, probe,
    resource_claims, resources, restart_rules, scheduling, security_context, toleration,
    topology_spread, volume_source,
};
use crate::kube::KubeVersion;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// Container port protocols (`supportedPortProtocols`, sorted as `sets.List` sorts them).
pub const PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const PULL_POLICIES: &[&str] = &["Always", "IfNotPresent", "Never"];
const TERMINATION_MESSAGE_POLICIES: &[&str] = &["File", "FallbackToLogsOnError"];
const RESTART_POLICIES: &[&str] = &["Always", "OnFailure", "Never"];
const DNS_POLICIES: &[&str] = &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];

/// `ValidatePodTemplateSpec` at `path` (e.g. `spec.template`): the template's labels and
/// annotations, then its pod spec. `old` is the stored object's template (on update).
pub fn template(
    template: &Value,
    old: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let empty = Value::Null;
    let meta_value = template.get("metadata").unwrap_or(&empty);
    meta::labels(
        meta_value.get("labels"),
        &join(path, ".labels"),
        version,
        errors,
    );
    meta::annotations(
        meta_value.get("annotations"),
        &join(path, ".annotations"),
        version,
        errors,
    );
    let pod_spec = template.get("spec").unwrap_or(&empty);
    let stored_annotations = old.and_then(|t| t.get_path(&["metadata", "annotations"]));
    pod_annotations::check(
        meta_value.get("annotations"),
        pod_spec,
        &join(path, ".annotations"),
        pod_annotations::stored_invalid_cost(stored_annotations),
        errors,
    );
    spec(
        pod_spec,
        old.and_then(|t| t.get("spec")),
        None,
        &join(path, ".spec"),
        version,
        errors,
    );
    if !items(pod_spec.get("ephemeralContainers")).is_empty() {
        errors.push(FieldError::forbidden(
            join(path, ".spec.ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
}

/// The stored object's value at the dotted field `path` (`spec.jobTemplate.spec.template`),
/// when the write is an update.
pub fn stored<'v>(live: Option<&'v Value>, path: &str) -> Option<&'v Value> {
    live?.get_path(&path.split('.').collect::<Vec<_>>())
}

/// `ValidatePodSpec` at `path`; `old` is the stored object's pod spec (on update), which decides
/// what may stay invalid ([`PodOptions`]). `pod_name` is the Pod's name, `None` for a template
/// (whose validation has no pod metadata).
pub fn spec(
    spec: &Value,
    old: Option<&Value>,
    pod_name: Option<&str>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let opts = PodOptions::of(spec, old, version);
    let volumes = volumes(
        items(spec.get("volumes")),
        &join(path, ".volumes"),
        pod_name,
        &opts,
        version,
        errors,
    );
    let pod_claims = resource_claims::pod_claims(spec, path, version, errors);
    let context = Context {
        pod_claims: pod_claims.as_ref(),
        indivisible_hugepages: opts.indivisible_hugepages,
    };
    let scope = PodScope {
        spec,
        volumes: &volumes,
        context,
        opts: &opts,
    };
    let containers = items(spec.get("containers"));
    let containers_path = join(path, ".containers");
    if containers.is_empty() {
        errors.push(FieldError::required(&containers_path, ""));
    }
    let mut names = HashSet::new();
    for (i, c) in containers.iter().enumerate() {
        let at = indexed(&containers_path, i);
        container_common(c, &scope, &at, version, errors);
        security_context::container(c, spec, &at, version, errors);
        let name = text(c, "name");
        if !names.insert(name) {
            errors.push(FieldError::duplicate(
                join(&at, ".name"),
                FieldError::string_value(name),
            ));
        }
        probe::container(c, &at, spec, opts.zero_sleep, version, errors);
        pod_misc::container_restart_policy(c, &at, version, errors);
        restart_rules::check(c, &at, version, errors);
    }
    host_ports::conflicts(containers, &containers_path, errors);
    // Init containers' names must be unique among regular and init containers.
    for (i, c) in items(spec.get("initContainers")).iter().enumerate() {
        let at = format!("{path}.initContainers[{i}]");
        container_common(c, &scope, &at, version, errors);
        security_context::container(c, spec, &at, version, errors);
        let sidecar = probe::init_container(c, &at, version, errors);
        restart_rules::check_init(c, &at, version, errors);
        let name = text(c, "name");
        if names.contains(name) {
            errors.push(FieldError::duplicate(
                join(&at, ".name"),
                FieldError::string_value(name),
            ));
        } else if !name.is_empty() {
            names.insert(name);
        }
        host_ports::init_container(c, &join(path, ".initContainers"), errors);
        let zero_sleep = opts.zero_sleep;
        probe::init_container_handlers(c, &at, sidecar, spec, zero_sleep, version, errors);
        let existing = opts.init_restart_container;
        pod_misc::init_resize_policy(c, &at, sidecar, existing, version, errors);
    }
    super::pod_ephemeral::check(&scope, path, version, errors);
    pod_resources::check(spec, path, context, version, errors);
    host_network_ports(spec, path, errors);
    enumerated(spec, "restartPolicy", path, RESTART_POLICIES, errors);
    enumerated(spec, "dnsPolicy", path, DNS_POLICIES, errors);
    meta::labels(
        spec.get("nodeSelector"),
        &join(path, ".nodeSelector"),
        version,
        errors,
    );
    security_context::pod(spec, path, opts.host_namespace_sysctls, version, errors);
    pod_os::selinux_change_policy(spec, old, path, version, errors);
    affinity::affinity(spec, path, &opts, version, errors);
    dns::config(spec, path, opts.dns_search, version, errors);
    scheduling::gates(spec, path, version, errors);
    topology_spread::constraints(spec, path, &opts, version, errors);
    pod_os::host_process(spec, path, errors);
    pod_os::host_users(spec, old, path, version, errors);
    let account = text(spec, "serviceAccountName");
    if !account.is_empty() {
        for msg in formats::dns1123_subdomain(account) {
            errors.push(FieldError::invalid(
                join(path, ".serviceAccountName"),
                FieldError::string_value(account),
                msg,
            ));
        }
    }
    scheduling::node_name(spec, path, errors);
    if let Some(n) = spec.get("activeDeadlineSeconds").and_then(Value::as_i64) {
        if !(1..=i64::from(i32::MAX)).contains(&n) {
            errors.push(FieldError::invalid(
                join(path, ".activeDeadlineSeconds"),
                BadValue::Value(Value::Int(n)),
                formats::inclusive_range(1, i64::from(i32::MAX)),
            ));
        }
    }
    dns::host_names(spec, path, errors);
    toleration::tolerations(
        items(spec.get("tolerations")),
        &join(path, ".tolerations"),
        version,
        errors,
    );
    dns::host_aliases(spec, path, version, errors);
    scheduling::classes(spec, path, errors);
    pod_os::os(spec, path, errors);
    env::file_key_ref_volumes(spec, path, errors);
}

/// `validatePodHostNetworkDeps` for templates: with `hostNetwork`, a host port other than 0
/// must equal the container port.
fn host_network_ports(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if spec.get("hostNetwork").and_then(Value::as_bool) != Some(true) {
        return;
    }
    for (i, c) in items(spec.get("containers")).iter().enumerate() {
        for (j, p) in items(c.get("ports")).iter().enumerate() {
            let host = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            let container = p.get("containerPort").and_then(Value::as_i64).unwrap_or(0);
            if host != 0 && host != container {
                errors.push(FieldError::invalid(
                    format!("{path}.containers[{i}].ports[{j}].hostPort"),
                    BadValue::Value(Value::Int(host)),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
}

/// A required enum field: `Required value` when empty, `Unsupported value` when unknown.
fn enumerated(
    object: &Value,
    key: &str,
    path: &str,
    supported: &[&str],
    errors: &mut Vec<FieldError>,
) {
    required_enum(
        text(object, key),
        &[path, ".", key].concat(),
        supported,
        errors,
    );
}

/// A required enum value at `path`: `Required value` when empty, `Unsupported value` when
/// unknown.
pub(super) fn required_enum(
    value: &str,
    path: &str,
    supported: &[&str],
    errors: &mut Vec<FieldError>,
) {
    required_enum_of(value, path, supported, FieldError::string_value, errors);
}

/// [`required_enum`] for a value of a Go type printed its own way (`bad_value`).
pub(super) fn required_enum_of(
    value: &str,
    path: &str,
    supported: &[&str],
    bad_value: fn(&str) -> BadValue,
    errors: &mut Vec<FieldError>,
) {
    if value.is_empty() {
        errors.push(FieldError::required(path, ""));
    } else if !supported.contains(&value) {
        errors.push(FieldError::not_supported(path, bad_value(value), supported));
    }
}

/// `ValidateVolumes`: each volume's source ([`volume_source::check`]), then its name (required,
/// a DNS label, unique), then, on a Pod, that no claim volume names a claim one of its ephemeral
/// volumes creates. Returns the volumes without errors by name, as the mounts see them.
fn volumes<'v>(
    volumes: &'v [Value],
    path: &str,
    pod_name: Option<&str>,
    opts: &PodOptions,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) -> Volumes<'v> {
    let created_claims: HashSet<String> = match pod_name.filter(|n| !n.is_empty()) {
        Some(pod) => volumes
            .iter()
            .filter(|v| v.get("ephemeral").is_some_and(|e| !e.is_null()))
            .map(|v| volume_source::ephemeral_claim(pod, text(v, "name")))
            .collect(),
        None => HashSet::new(),
    };
    let mut valid = Volumes::new();
    let mut names = HashSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let at = indexed(path, i);
        let name_at = join(&at, ".name");
        let name = text(v, "name");
        let before = errors.len();
        volume_source::check(v, &at, opts.non_local_token_path, pod_name, version, errors);
        if name.is_empty() {
            errors.push(FieldError::required(&name_at, ""));
        } else {
            for msg in formats::dns1123_label(name) {
                errors.push(FieldError::invalid(
                    &name_at,
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
        if names.contains(name) {
            errors.push(FieldError::duplicate(
                &name_at,
                FieldError::string_value(name),
            ));
        }
        if errors.len() == before {
            names.insert(name);
            valid.insert(name, v);
        }
        let claim = v
            .get("persistentVolumeClaim")
            .filter(|c| !c.is_null())
            .map(|c| text(c, "claimName"));
        if let Some(claim) = claim.filter(|c| created_claims.contains(*c)) {
            errors.push(FieldError::invalid(
                join(&at, ".persistentVolumeClaim.claimName"),
                FieldError::string_value(claim),
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    valid
}

/// What every container of one pod spec is checked against.
pub(super) struct PodScope<'a> {
    pub(super) spec: &'a Value,
    volumes: &'a Volumes<'a>,
    context: Context<'a>,
    opts: &'a PodOptions,
}

/// `validateContainerCommon`: name, image, termination message policy, ports, volume mounts,
/// pull policy, resources, resize policy (of a container of the pod `pod.spec`).
pub(super) fn container_common(
    c: &Value,
    pod: &PodScope,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let name = text(c, "name");
    if name.is_empty() {
        errors.push(FieldError::required(join(path, ".name"), ""));
    } else {
        for msg in formats::dns1123_label(name) {
            errors.push(FieldError::invalid(
                join(path, ".name"),
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    if text(c, "image").is_empty() {
        errors.push(FieldError::required(join(path, ".image"), ""));
    }
    enumerated(
        c,
        "terminationMessagePolicy",
        path,
        TERMINATION_MESSAGE_POLICIES,
        errors,
    );
    ports(items(c.get("ports")), &join(path, ".ports"), errors);
    env::container(c, path, pod.opts.env, version, errors);
    mounts::check(c, path, pod.volumes, errors);
    enumerated(c, "imagePullPolicy", path, PULL_POLICIES, errors);
    resources::container(c, path, pod.context, version, errors);
    pod_misc::resize_policy(c, pod.spec, path, version, errors);
}

/// `validateContainerPorts`.
fn ports(ports: &[Value], path: &str, errors: &mut Vec<FieldError>) {
    let mut names = HashSet::new();
    for (i, p) in ports.iter().enumerate() {
        let at = indexed(path, i);
        let name = text(p, "name");
        if !name.is_empty() {
            let msgs = formats::port_name(name);
            if !msgs.is_empty() {
                for msg in msgs {
                    errors.push(FieldError::invalid(
                        join(&at, ".name"),
                        FieldError::string_value(name),
                        msg,
                    ));
                }
            } else if !names.insert(name) {
                errors.push(FieldError::duplicate(
                    join(&at, ".name"),
                    FieldError::string_value(name),
                ));
            }
        }
        // Numbers that are not integers are the decoder's to refuse (`super::super::decode`).
        match p.get("containerPort") {
            None | Some(Value::Null) | Some(Value::Int(0)) => {
                errors.push(FieldError::required(join(&at, ".containerPort"), ""));
            }
            Some(Value::Int(n)) => port_number(*n, &join(&at, ".containerPort"), errors),
            Some(_) => {}
        }
        if let Some(Value::Int(n)) = p.get("hostPort") {
            if *n != 0 {
                port_number(*n, &join(&at, ".hostPort"), errors);
            }
        }
        protocol(p, &at, errors);
    }
}

/// A port number in 1–65535.
pub fn port_number(port: i64, path: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::port_number(port) {
        errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(port)),
            msg,
        ));
    }
}

/// A port's protocol: required, one of [`PORT_PROTOCOLS`].
pub fn protocol(port: &Value, path: &str, errors: &mut Vec<FieldError>) {
    enumerated(port, "protocol", path, PORT_PROTOCOLS, errors);
}
