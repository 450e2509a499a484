//! Status writes of Pods (the kubelet's), as k8s.io/kubernetes pkg/apis/core/validation
//! `ValidatePodStatusUpdate` checks them for pkg/registry/core/pod/strategy.go
//! `podStatusStrategy`: the custom conditions' types qualified names (`validatePodConditions`),
//! a changed `nominatedNodeName` a node name and, from 1.35, not set on a bound pod; from 1.33
//! non-negative observed generations; from 1.32 an immutable `qosClass` (what the strategy
//! keeps from the stored status first: `crate::kube::pod_status_write`); containers that may not
//! restart kept terminated (`ValidateContainerStateTransition`,
//! `ValidateInitContainerStateTransition`), `podIPs` and `hostIPs` addresses, one per family
//! (`validatePodIPs`, `validateHostIPs`). The order was cross-checked against a port of the
//! 1.35 function.

use super::super::{formats, BadValue, FieldError, Write};
use super::affinity::label_name;
use super::fields::{items, present, spec, text};
use super::ip_strict;
use super::netaddr::{parse_ip, Ip};
use super::status::{int, invalid_int, status};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// The `observedGeneration` checks (PodObservedGenerationTracking's fields, 1.33).
const OBSERVED_GENERATION: VersionRange = VersionRange::since(33);
/// `qosClass` as an immutable status field (before, 1.30–1.31 compared the QoS class on spec
/// updates: [`super::pod_update`]).
const QOS_CLASS_IMMUTABLE: VersionRange = VersionRange::since(32);
/// ClearingNominatedNodeNameAfterBinding, beta and on by default from 1.35.
const NOMINATED_NODE_CLEARED_AFTER_BINDING: VersionRange = VersionRange::since(35);
const NON_NEGATIVE: &str = "must be a non-negative integer";

/// `ValidatePodStatusUpdate` after the metadata.
pub fn pod(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    static NULL: Value = Value::Null;
    let old = w.live.unwrap_or(&NULL);
    let (new_s, old_s) = (status(object), status(old));
    let version = w.version();
    conditions(new_s, version, errors);
    let nominated = text(new_s, "nominatedNodeName");
    let old_spec = spec(old);
    if nominated != text(old_s, "nominatedNodeName") && !nominated.is_empty() {
        for msg in formats::dns1123_subdomain(nominated) {
            errors.push(FieldError::invalid(
                "status.nominatedNodeName",
                FieldError::string_value(nominated),
                msg,
            ));
        }
        if NOMINATED_NODE_CLEARED_AFTER_BINDING.contains(version)
            && !text(old_spec, "nodeName").is_empty()
        {
            errors.push(FieldError::forbidden(
                "status.nominatedNodeName",
                "may not be set on pods that are already bound to a node",
            ));
        }
    }
    if OBSERVED_GENERATION.contains(version) {
        let generation = int(new_s, "observedGeneration");
        if generation < 0 {
            errors.push(invalid_int("observedGeneration", generation, NON_NEGATIVE));
        }
    }
    if QOS_CLASS_IMMUTABLE.contains(version) {
        let class = text(new_s, "qosClass");
        if class != text(old_s, "qosClass") {
            errors.push(FieldError::invalid(
                "status.qosClass",
                FieldError::string_value(class),
                "field is immutable",
            ));
        }
    }
    let policy = text(old_spec, "restartPolicy");
    for (list, containers) in [
        ("containerStatuses", "containers"),
        ("initContainerStatuses", "initContainers"),
    ] {
        state_transitions(new_s, old_s, old_spec, policy, (list, containers), errors);
    }
    // `ValidateEphemeralContainerStateTransition` (until 1.33 the common rule with policy
    // `Never`): an ephemeral container never restarts.
    let ephemeral = ("ephemeralContainerStatuses", "ephemeralContainers");
    state_transitions(new_s, old_s, old_spec, "Never", ephemeral, errors);
    claim_statuses(new_s, spec(object), version, errors);
    addresses(new_s, old_s, "podIPs", "PodIP", version, errors);
    if let Some(first) = items(new_s.get("hostIPs")).first() {
        let ip = text(first, "ip");
        if text(new_s, "hostIP") != ip {
            errors.push(FieldError::invalid(
                "status.hostIPs[0].ip",
                FieldError::string_value(ip),
                "must be equal to `hostIP`",
            ));
        }
        addresses(new_s, old_s, "hostIPs", "HostIP", version, errors);
    }
}

/// `validatePodConditions`: from 1.33 a non-negative `observedGeneration`; the type of a
/// condition the system does not define a qualified name (at the Go field name `Type`).
fn conditions(new_s: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    const SYSTEM: [&str; 3] = ["PodScheduled", "Ready", "Initialized"];
    for (i, condition) in items(new_s.get("conditions")).iter().enumerate() {
        let generation = int(condition, "observedGeneration");
        if OBSERVED_GENERATION.contains(version) && generation < 0 {
            errors.push(FieldError::invalid(
                format!("status.conditions[{i}].observedGeneration"),
                BadValue::Value(Value::Int(generation)),
                NON_NEGATIVE,
            ));
        }
        let kind = text(condition, "type");
        if !SYSTEM.contains(&kind) {
            label_name(
                kind,
                &format!("status.conditions[{i}].Type"),
                version,
                errors,
            );
        }
    }
}

/// A container the stored status shows terminated may not be reported as not terminated
/// again unless it may restart: the pod's `restartPolicy` is `Always`, or `OnFailure` after a
/// failure, or (init containers) it is a sidecar. Containers with their own restart policy
/// (ContainerRestartRules) are left alone. Reported at the stored status's index.
fn state_transitions(
    new_s: &Value,
    old_s: &Value,
    old_spec: &Value,
    policy: &str,
    (list, containers): (&str, &str),
    errors: &mut Vec<FieldError>,
) {
    if policy == "Always" {
        return;
    }
    let own_policy = |name: &str| {
        items(old_spec.get(containers))
            .iter()
            .find(|c| text(c, "name") == name)
            .and_then(|c| present(c, "restartPolicy"))
            .is_some()
    };
    let new_statuses = items(new_s.get(list));
    for (i, old_status) in items(old_s.get(list)).iter().enumerate() {
        let Some(terminated) = old_status
            .get("state")
            .and_then(|s| present(s, "terminated"))
        else {
            continue;
        };
        let exit_code = terminated
            .get("exitCode")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let name = text(old_status, "name");
        if (exit_code != 0 && policy == "OnFailure") || own_policy(name) {
            continue;
        }
        for new_status in new_statuses.iter().filter(|s| text(s, "name") == name) {
            let still = new_status
                .get("state")
                .and_then(|s| present(s, "terminated"))
                .is_some();
            if !still {
                errors.push(FieldError::forbidden(
                    format!("status.{list}[{i}].state"),
                    "may not be transitioned to non-terminated state",
                ));
            }
        }
    }
}

/// `validatePodResourceClaimStatuses`: each status names an entry of `spec.resourceClaims`,
/// once, and its `resourceClaimName` is a DNS subdomain (reported at `name` until 1.35).
fn claim_statuses(new_s: &Value, spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let claims = items(spec.get("resourceClaims"));
    let mut seen = std::collections::HashSet::new();
    for (i, status) in items(new_s.get("resourceClaimStatuses")).iter().enumerate() {
        let at = format!("status.resourceClaimStatuses[{i}]");
        let name = text(status, "name");
        if !claims.iter().any(|c| text(c, "name") == name) {
            errors.push(FieldError::invalid(
                format!("{at}.name"),
                FieldError::string_value(name),
                "must match the name of an entry in `spec.resourceClaims`",
            ));
        }
        if !seen.insert(name) {
            errors.push(FieldError::duplicate(
                format!("{at}.name"),
                FieldError::string_value(name),
            ));
        }
        let Some(claim) = status.get("resourceClaimName").and_then(Value::as_str) else {
            continue;
        };
        let key = version.pick(CLAIM_NAME_REPORTED_AT);
        for msg in formats::dns1123_subdomain(claim) {
            errors.push(FieldError::invalid(
                format!("{at}.{key}"),
                FieldError::string_value(claim),
                msg,
            ));
        }
    }
}

/// Where a bad `resourceClaimName` is reported: at `name` until 1.35.
const CLAIM_NAME_REPORTED_AT: &[(VersionRange, &str)] = &[
    (VersionRange::until(35), "name"),
    (VersionRange::since(36), "resourceClaimName"),
];

/// Go's `To4() != nil`: written as IPv4, or IPv4-mapped IPv6.
fn is_v4(ip: &Ip) -> bool {
    ip.v4
        || (ip.bytes[..10].iter().all(|b| *b == 0) && ip.bytes[10] == 0xff && ip.bytes[11] == 0xff)
}

/// `validatePodIPs` / `validateHostIPs`: each address valid (unless the stored status had it,
/// from 1.33), and more than one only as a dual-stack pair (quoting the internal list:
/// `[]core.PodIP{…}` before 1.34, JSON since).
fn addresses(
    new_s: &Value,
    old_s: &Value,
    key: &str,
    go_type: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let list = items(new_s.get(key));
    let old_ips: Vec<&str> = items(old_s.get(key))
        .iter()
        .map(|p| text(p, "ip"))
        .collect();
    let mut parsed: Vec<Option<Ip>> = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let ip = text(entry, "ip");
        let address = parse_ip(ip);
        if let Some(message) = ip_strict::legacy_ip(ip, version, &old_ips) {
            errors.push(FieldError::invalid(
                format!("status.{key}[{i}]"),
                FieldError::string_value(ip),
                message,
            ));
        }
        parsed.push(address);
    }
    if list.len() < 2 {
        return;
    }
    let v4 = parsed.iter().flatten().filter(|ip| is_v4(ip)).count();
    let v6 = parsed.iter().flatten().filter(|ip| !is_v4(ip)).count();
    let dual_stack = parsed.iter().all(Option::is_some) && v4 > 0 && v6 > 0;
    if dual_stack && list.len() == 2 {
        return;
    }
    let ips: Vec<&str> = list.iter().map(|p| text(p, "ip")).collect();
    let json = Value::List(
        ips.iter()
            .map(|ip| {
                let mut m = crate::value::Map::default();
                m.insert("ip".into(), Value::from(*ip));
                Value::Map(m)
            })
            .collect(),
    );
    let go = ips
        .iter()
        .map(|ip| {
            format!(
                "core.{go_type}{{IP:{}}}",
                crate::validate::goprint::go_quote(ip)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    errors.push(FieldError::invalid(
        format!("status.{key}"),
        BadValue::GoValue {
            value: json,
            go_syntax: format!("[]core.{go_type}{{{go}}}"),
        },
        "may specify no more than one IP for each IP family",
    ));
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const POD: &str = r#"{"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"batch-1","namespace":"default","resourceVersion":"7"},
      "spec":{"restartPolicy":"Never","nodeName":"node-1",
        "containers":[{"name":"main","image":"busybox:1.36"}]},
      "status":{"phase":"Succeeded","hostIP":"10.0.0.5","hostIPs":[{"ip":"10.0.0.5"}],
        "podIP":"10.244.1.7","podIPs":[{"ip":"10.244.1.7"}],
        "containerStatuses":[{"name":"main","image":"busybox:1.36","imageID":"","ready":false,
          "restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}"#;

    #[test]
    fn a_terminated_container_stays_terminated() {
        assert_eq!(status_write(37, POD, POD), None);
        let running = POD.replace(
            r#""state":{"terminated":{"exitCode":0,"reason":"Completed"}}"#,
            r#""state":{"running":{}}"#,
        );
        assert_eq!(
            status_write(37, POD, &running).unwrap(),
            "The Pod \"batch-1\" is invalid: status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"
        );
        let always = POD.replace(r#""restartPolicy":"Never""#, r#""restartPolicy":"Always""#);
        let running_always =
            running.replace(r#""restartPolicy":"Never""#, r#""restartPolicy":"Always""#);
        assert_eq!(status_write(37, &always, &running_always), None);
    }

    #[test]
    fn conditions_generations_and_the_qos_class() {
        let bad = POD.replace(
            r#""phase":"Succeeded","#,
            r#""phase":"Succeeded","qosClass":"Burstable","observedGeneration":-2,
              "nominatedNodeName":"node-2","conditions":[{"type":"Ready","status":"True"},
              {"type":"example.com/bad type","status":"True","observedGeneration":-1}],"#,
        );
        let qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(
            status_write(36, POD, &bad).unwrap(),
            format!(
                "The Pod \"batch-1\" is invalid: \n\
                 * status.conditions[1].observedGeneration: Invalid value: -1: must be a non-negative integer\n\
                 * status.conditions[1].Type: Invalid value: \"example.com/bad type\": {qualified}\n\
                 * status.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node\n\
                 * status.observedGeneration: Invalid value: -2: must be a non-negative integer\n\
                 * status.qosClass: Invalid value: \"Burstable\": field is immutable"
            )
        );
        assert_eq!(
            status_write(32, POD, &bad).unwrap(),
            format!(
                "The Pod \"batch-1\" is invalid: \n\
                 * status.conditions[1].Type: Invalid value: \"example.com/bad type\": {qualified}\n\
                 * status.qosClass: Invalid value: \"Burstable\": field is immutable"
            )
        );
        assert_eq!(
            status_write(31, POD, &bad).unwrap(),
            format!(
                "The Pod \"batch-1\" is invalid: status.conditions[1].Type: Invalid value: \"example.com/bad type\": {qualified}"
            )
        );
    }

    #[test]
    fn ephemeral_containers_and_claim_statuses() {
        let live = POD
            .replace(
                r#""containers":[{"name":"main","image":"busybox:1.36"}]"#,
                r#""containers":[{"name":"main","image":"busybox:1.36"}],
               "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"gpu"}]"#,
            )
            .replace(
                r#""phase":"Succeeded","#,
                r#""phase":"Succeeded","ephemeralContainerStatuses":[{"name":"debugger",
               "image":"busybox","imageID":"","ready":false,"restartCount":0,
               "state":{"terminated":{"exitCode":1}}}],"#,
            );
        let bad = live
            .replace(r#""state":{"terminated":{"exitCode":1}}"#, r#""state":{"running":{}}"#)
            .replace(
                r#""phase":"Succeeded","#,
                r#""phase":"Succeeded","resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"Batch-1-GPU"},
                   {"name":"gpu"},{"name":"fpga"}],"#,
            );
        let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let expected = |key: &str| {
            format!(
                "The Pod \"batch-1\" is invalid: \n\
                 * status.ephemeralContainerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state\n\
                 * status.resourceClaimStatuses[0].{key}: Invalid value: \"Batch-1-GPU\": {subdomain}\n\
                 * status.resourceClaimStatuses[1].name: Duplicate value: \"gpu\"\n\
                 * status.resourceClaimStatuses[2].name: Invalid value: \"fpga\": must match the name of an entry in `spec.resourceClaims`"
            )
        };
        assert_eq!(
            status_write(36, &live, &bad).unwrap(),
            expected("resourceClaimName")
        );
        assert_eq!(status_write(35, &live, &bad).unwrap(), expected("name"));
    }

    #[test]
    fn pod_ips_one_per_family() {
        let two = POD.replace(
            r#""podIPs":[{"ip":"10.244.1.7"}]"#,
            r#""podIPs":[{"ip":"10.244.1.7"},{"ip":"10.244.1.8"}]"#,
        );
        assert_eq!(
            status_write(37, POD, &two).unwrap(),
            "The Pod \"batch-1\" is invalid: status.podIPs: Invalid value: [{\"ip\":\"10.244.1.7\"},{\"ip\":\"10.244.1.8\"}]: may specify no more than one IP for each IP family"
        );
        assert_eq!(
            status_write(33, POD, &two).unwrap(),
            "The Pod \"batch-1\" is invalid: status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:\"10.244.1.7\"}, core.PodIP{IP:\"10.244.1.8\"}}: may specify no more than one IP for each IP family"
        );
        let dual = POD.replace(
            r#""podIPs":[{"ip":"10.244.1.7"}]"#,
            r#""podIPs":[{"ip":"10.244.1.7"},{"ip":"fd00::7"}]"#,
        );
        assert_eq!(status_write(37, POD, &dual), None);
    }

    #[test]
    fn host_ips_start_with_the_host_ip() {
        let bad = POD.replace(
            r#""hostIPs":[{"ip":"10.0.0.5"}]"#,
            r#""hostIPs":[{"ip":"10.0.0.6"}]"#,
        );
        assert_eq!(
            status_write(37, POD, &bad).unwrap(),
            "The Pod \"batch-1\" is invalid: status.hostIPs[0].ip: Invalid value: \"10.0.0.6\": must be equal to `hostIP`"
        );
    }
}
