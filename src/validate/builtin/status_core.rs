//! Status writes of core and other built-in kinds whose status strategies check the status
//! itself: Service (`ValidateServiceStatusUpdate`, `ValidateLoadBalancerStatus`), Ingress
//! (pkg/apis/networking/validation `ValidateIngressStatusUpdate`), Namespace
//! (`ValidateNamespaceStatusUpdate`), all in k8s.io/kubernetes pkg/apis/core/validation;
//! PersistentVolumeClaim (`ValidatePersistentVolumeClaimStatusUpdate`: the capacity),
//! HorizontalPodAutoscaler (pkg/apis/autoscaling/validation
//! `ValidateHorizontalPodAutoscalerStatusUpdate`) and PodDisruptionBudget (pkg/apis/policy/validation
//! `ValidatePodDisruptionBudgetStatusAndConditions`).

use super::super::{formats, FieldError, Write};
use super::affinity::label_name;
use super::endpoints::valid_ip;
use super::fields::{items, present, quantity_text, spec, text};
use super::netaddr::parse_ip;
use super::resources::is_native;
use super::status::{non_negative, status};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// `supportedLoadBalancerIPMode` as `sets.List` prints it.
const IP_MODES: &[&str] = &["Proxy", "VIP"];

/// `ValidateServiceStatusUpdate`: the load balancer's ingress points. Only a `LoadBalancer`
/// Service may have any (AllowServiceLBStatusOnNonLB is off); each `ip` an IP address, with an
/// `ipMode` only when it has an `ip`, and `hostname` a DNS subdomain that is not an IP. (The
/// `ipMode` the server requires with an `ip` is defaulted to `VIP` before validation.)
pub fn service(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let at = "status.loadBalancer.ingress";
    let ingress = items(
        status(object)
            .get("loadBalancer")
            .and_then(|l| l.get("ingress")),
    );
    if ingress.is_empty() {
        return;
    }
    if text(spec(object), "type") != "LoadBalancer" {
        errors.push(FieldError::forbidden(
            at,
            "may only be used when `spec.type` is 'LoadBalancer'",
        ));
        return;
    }
    load_balancer_points(w, ingress, at, true, errors);
}

/// `ValidateIngressStatusUpdate` (pkg/apis/networking/validation
/// `ValidateIngressLoadBalancerStatus`): the ingress points' `ip` and `hostname` as a
/// Service's (an Ingress point has no `ipMode`).
pub fn ingress(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let at = "status.loadBalancer.ingress";
    let ingress = items(
        status(object)
            .get("loadBalancer")
            .and_then(|l| l.get("ingress")),
    );
    load_balancer_points(w, ingress, at, false, errors);
}

/// The load balancer's ingress points at `at`: `ip` an IP address, `ipMode` (Services) only
/// with an `ip` and `Proxy` or `VIP`, `hostname` a DNS subdomain that is not an IP. The stored
/// object's ingress IPs are accepted as they are (`existingIngressIPs`).
fn load_balancer_points(
    w: &Write,
    ingress: &[Value],
    at: &str,
    ip_mode: bool,
    errors: &mut Vec<FieldError>,
) {
    let stored_points = w.live.map_or(&[][..], |old| {
        items(old.get_path(&["status", "loadBalancer", "ingress"]))
    });
    let stored: Vec<&str> = stored_points
        .iter()
        .map(|p| text(p, "ip"))
        .filter(|ip| !ip.is_empty())
        .collect();
    for (i, point) in ingress.iter().enumerate() {
        let path = format!("{at}[{i}]");
        let ip = text(point, "ip");
        if !ip.is_empty() {
            valid_ip(ip, &format!("{path}.ip"), w.version(), &stored, errors);
        }
        if let Some(mode) = present(point, "ipMode").filter(|_| ip_mode) {
            let mode_path = format!("{path}.ipMode");
            let mode = mode.as_str().unwrap_or("");
            if ip.is_empty() {
                errors.push(FieldError::forbidden(
                    mode_path,
                    "may not be specified when `ip` is not set",
                ));
            } else if !IP_MODES.contains(&mode) {
                errors.push(FieldError::not_supported(
                    mode_path,
                    FieldError::string_value(mode),
                    IP_MODES,
                ));
            }
        }
        let hostname = text(point, "hostname");
        if !hostname.is_empty() {
            let hostname_path = format!("{path}.hostname");
            for msg in formats::dns1123_subdomain(hostname) {
                errors.push(FieldError::invalid(
                    &hostname_path,
                    FieldError::string_value(hostname),
                    msg,
                ));
            }
            if parse_ip(hostname).is_some() {
                errors.push(FieldError::invalid(
                    &hostname_path,
                    FieldError::string_value(hostname),
                    "must be a DNS name, not an IP address",
                ));
            }
        }
    }
}

/// `ValidateNamespaceStatusUpdate`: the phase follows the deletion timestamp (reported at
/// `status.Phase`, as upstream spells the path).
pub fn namespace(_w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let phase = text(status(object), "phase");
    let deleting = object
        .get("metadata")
        .and_then(|m| present(m, "deletionTimestamp"))
        .is_some();
    let (want, detail) = if deleting {
        (
            "Terminating",
            "may only be 'Terminating' if `deletionTimestamp` is not empty",
        )
    } else {
        (
            "Active",
            "may only be 'Active' if `deletionTimestamp` is empty",
        )
    };
    if phase != want {
        errors.push(FieldError::invalid(
            "status.Phase",
            FieldError::string_value(phase),
            detail,
        ));
    }
}

/// `ValidatePersistentVolumeClaimStatusUpdate`: `status.capacity` with no quantity below zero
/// (`validateBasicResource`, quoting `Quantity.Value()`), then, from 1.32 (RecoverVolumeExpansionFailure
/// on), `allocatedResourceStatuses` and `allocatedResources`: keys qualified names, native ones
/// only `storage`, statuses from the resize set, quantities not below zero. Per resource name in
/// sorted order (the server ranges over a map).
pub fn persistent_volume_claim(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    for (name, q) in sorted_entries(s.get("capacity")) {
        basic_resource(q, &format!("status.capacity[{name}]"), errors);
    }
    if !RECOVER_FROM_EXPANSION_FAILURE.contains(w.version()) {
        return;
    }
    let version = w.version();
    const STATUSES_AT: &str = "status.allocatedResourceStatuses";
    for (name, resize) in sorted_entries(s.get("allocatedResourceStatuses")) {
        claim_resource_key(name, STATUSES_AT, version, errors);
        if !resize
            .as_str()
            .is_some_and(|r| RESIZE_STATUSES.contains(&r))
        {
            // Upstream quotes the key, not the status.
            errors.push(FieldError::not_supported(
                STATUSES_AT,
                FieldError::stringer_value(name),
                &RESIZE_STATUSES,
            ));
        }
    }
    const ALLOCATED_AT: &str = "status.allocatedResources";
    for (name, q) in sorted_entries(s.get("allocatedResources")) {
        let before = errors.len();
        claim_resource_key(name, ALLOCATED_AT, version, errors);
        if errors.len() == before {
            basic_resource(q, &format!("{ALLOCATED_AT}[{name}]"), errors);
        }
    }
}

/// RecoverVolumeExpansionFailure, beta and on by default from 1.32.
const RECOVER_FROM_EXPANSION_FAILURE: VersionRange = VersionRange::since(32);

/// `resizeStatusSet` of 1.32–1.36, sorted as `sets.List` sorts it.
const RESIZE_STATUSES: [&str; 5] = [
    "ControllerResizeInProgress",
    "ControllerResizeInfeasible",
    "NodeResizeInProgress",
    "NodeResizeInfeasible",
    "NodeResizePending",
];

fn sorted_entries(map: Option<&Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = match map {
        Some(Value::Map(m)) => m.iter().collect(),
        _ => Vec::new(),
    };
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// `validateBasicResource`: `Quantity.Value()` not below zero.
fn basic_resource(q: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let value = quantity_text(q).and_then(|t| super::pv::integer_value(&t));
    if let Some(v) = value.filter(|v| *v < 0) {
        errors.push(FieldError::invalid(
            path,
            crate::validate::BadValue::Value(Value::Int(v)),
            "must be a valid resource quantity",
        ));
    }
}

/// `validatePersistentVolumeClaimResourceKey`: a qualified name, and a native resource only
/// `storage`; reported at the map, quoting the key.
fn claim_resource_key(name: &str, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let before = errors.len();
    label_name(name, path, version, errors);
    if errors.len() == before && is_native(name) && name != "storage" {
        errors.push(FieldError::not_supported(
            path,
            FieldError::string_value(name),
            &["storage"],
        ));
    }
}

/// `ValidateHorizontalPodAutoscalerStatusUpdate`: non-negative replica counts.
pub fn horizontal_pod_autoscaler(_w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    non_negative(s, "currentReplicas", errors);
    non_negative(s, "desiredReplicas", errors);
}

/// `ValidatePodDisruptionBudgetStatusUpdate` for policy/v1: the conditions
/// ([`super::conditions`]), then non-negative counts.
pub fn pod_disruption_budget(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    super::conditions::check(
        s.get("conditions"),
        "status.conditions",
        w.version(),
        errors,
    );
    for key in [
        "disruptionsAllowed",
        "currentHealthy",
        "desiredHealthy",
        "expectedPods",
    ] {
        non_negative(s, key, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const SERVICE: &str = r#"{"apiVersion":"v1","kind":"Service",
      "metadata":{"name":"web","namespace":"default","resourceVersion":"7"},
      "spec":{"type":"LoadBalancer","clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],
        "selector":{"app":"web"},"ports":[{"port":80,"targetPort":8080,"protocol":"TCP","nodePort":30080}]},
      "status":{"loadBalancer":{}}}"#;

    fn with_ingress(ingress: &str) -> String {
        SERVICE.replace(
            r#""loadBalancer":{}"#,
            &format!(r#""loadBalancer":{{"ingress":[{ingress}]}}"#),
        )
    }

    #[test]
    fn load_balancer_ingress() {
        let good =
            with_ingress(r#"{"ip":"203.0.113.7","ipMode":"VIP"},{"hostname":"lb.example.com"}"#);
        assert_eq!(status_write(37, SERVICE, &good), None);
        let bad = with_ingress(
            r#"{"ip":"203.0.113.300","ipMode":"VIP"},{"hostname":"10.0.0.1","ipMode":"Proxy"}"#,
        );
        assert_eq!(
            status_write(37, SERVICE, &bad).unwrap(),
            "The Service \"web\" is invalid: \n\
             * status.loadBalancer.ingress[0].ip: Invalid value: \"203.0.113.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n\
             * status.loadBalancer.ingress[1].ipMode: Forbidden: may not be specified when `ip` is not set\n\
             * status.loadBalancer.ingress[1].hostname: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address"
        );
    }

    #[test]
    fn only_load_balancers_have_ingress() {
        let live = SERVICE
            .replace(r#""type":"LoadBalancer""#, r#""type":"ClusterIP""#)
            .replace(r#","nodePort":30080"#, "");
        let bad = live.replace(
            r#""loadBalancer":{}"#,
            r#""loadBalancer":{"ingress":[{"hostname":"lb.example.com"}]}"#,
        );
        assert_eq!(
            status_write(37, &live, &bad).unwrap(),
            "The Service \"web\" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"
        );
    }

    #[test]
    fn ingress_points() {
        let live = r#"{"apiVersion":"networking.k8s.io/v1","kind":"Ingress",
          "metadata":{"name":"web","namespace":"default","resourceVersion":"7"},
          "spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}},
          "status":{"loadBalancer":{}}}"#;
        let bad = live.replace(
            r#""loadBalancer":{}"#,
            r#""loadBalancer":{"ingress":[{"ip":"10.0.0.1"},{"hostname":"LB.example.com"}]}"#,
        );
        assert_eq!(
            status_write(37, live, &bad).unwrap(),
            "The Ingress \"web\" is invalid: status.loadBalancer.ingress[1].hostname: Invalid value: \"LB.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
    }

    #[test]
    fn namespace_phase() {
        let live = r#"{"apiVersion":"v1","kind":"Namespace",
          "metadata":{"name":"team","resourceVersion":"7"},"status":{"phase":"Active"}}"#;
        let bad = live.replace(r#""phase":"Active""#, r#""phase":"Terminating""#);
        assert_eq!(
            status_write(37, live, &bad).unwrap(),
            "The Namespace \"team\" is invalid: status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"
        );
    }

    #[test]
    fn autoscaler_counts() {
        let live = r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
          "metadata":{"name":"web","namespace":"default","resourceVersion":"7"},
          "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
            "minReplicas":1,"maxReplicas":5},
          "status":{"currentReplicas":2,"desiredReplicas":2}}"#;
        let bad = live.replace(r#""desiredReplicas":2"#, r#""desiredReplicas":-1"#);
        assert_eq!(
            status_write(37, live, &bad).unwrap(),
            "The HorizontalPodAutoscaler \"web\" is invalid: status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0"
        );
    }
}

#[cfg(test)]
mod pvc_tests {
    use super::super::status_tests::status_write;

    const CLAIM: &str = r#"{"apiVersion":"v1","kind":"PersistentVolumeClaim",
      "metadata":{"name":"data","namespace":"default","resourceVersion":"7"},
      "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}},
        "volumeName":"pv-1"},
      "status":{"phase":"Bound","accessModes":["ReadWriteOnce"],"capacity":{"storage":"2Gi"}}}"#;

    #[test]
    fn claim_capacity_is_not_negative() {
        let live = CLAIM;
        assert_eq!(status_write(37, live, live), None);
        let bad = live.replace(
            r#""capacity":{"storage":"2Gi"}"#,
            r#""capacity":{"storage":"-1Ki"}"#,
        );
        assert_eq!(
            status_write(37, live, &bad).unwrap(),
            "The PersistentVolumeClaim \"data\" is invalid: status.capacity[storage]: Invalid value: -1024: must be a valid resource quantity"
        );
    }

    #[test]
    fn claim_allocated_resources_from_1_32() {
        let live = &CLAIM.replace(
            r#""requests":{"storage":"2Gi"}"#,
            r#""requests":{"storage":"4Gi"}"#,
        );
        let good = live.replace(
            r#""capacity":{"storage":"2Gi"}"#,
            r#""capacity":{"storage":"2Gi"},"allocatedResources":{"storage":"4Gi"},
               "allocatedResourceStatuses":{"storage":"NodeResizePending"}"#,
        );
        assert_eq!(status_write(36, live, &good), None);
        let bad = live.replace(
            r#""capacity":{"storage":"2Gi"}"#,
            r#""capacity":{"storage":"2Gi"},
               "allocatedResources":{"storage":"-4Gi","cpu":"1","example.com/bad key":"1"},
               "allocatedResourceStatuses":{"storage":"Resizing"}"#,
        );
        let qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let supported = "supported values: \"ControllerResizeInProgress\", \"ControllerResizeInfeasible\", \"NodeResizeInProgress\", \"NodeResizeInfeasible\", \"NodeResizePending\"";
        assert_eq!(
            status_write(36, live, &bad).unwrap(),
            format!(
                "The PersistentVolumeClaim \"data\" is invalid: \n\
                 * status.allocatedResourceStatuses: Unsupported value: \"storage\": {supported}\n\
                 * status.allocatedResources: Unsupported value: \"cpu\": supported values: \"storage\"\n\
                 * status.allocatedResources: Invalid value: \"example.com/bad key\": {qualified}\n\
                 * status.allocatedResources[storage]: Invalid value: -4294967296: must be a valid resource quantity"
            )
        );
        assert!(status_write(33, live, &bad)
            .unwrap()
            .contains("status.allocatedResourceStatuses: Unsupported value: storage: supported"));
        assert_eq!(status_write(31, live, &bad), None);
    }
}
