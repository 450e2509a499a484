//! Service rules beyond ports and cluster IPs, as k8s.io/kubernetes pkg/apis/core/validation
//! `ValidateService` checks them (type-specific fields, session affinity, node ports, duplicate
//! ports, load-balancer-only fields, traffic policies), and the node port range the service
//! registry's allocator enforces before validation (pkg/registry/core/service/storage
//! `alloc.go`, portallocator `ErrNotInRange`).

use super::super::{BadValue, FieldError};
use super::fields::{present, text};
use super::{meta, service_lb};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// kube-apiserver's default `--service-node-port-range`.
const NODE_PORT_RANGE: (i64, i64) = (30000, 32767);
/// `core.MaxClientIPServiceAffinitySeconds`.
const MAX_AFFINITY_SECONDS: i64 = 86400;
const SESSION_AFFINITIES: &[&str] = &["ClientIP", "None"];
const TRAFFIC_POLICIES: &[&str] = &["Cluster", "Local"];

fn ports(spec: &Value) -> &[Value] {
    spec.get("ports")
        .and_then(Value::as_list)
        .map_or(&[], Vec::as_slice)
}

fn node_port(p: &Value) -> i64 {
    p.get("nodePort").and_then(Value::as_i64).unwrap_or(0)
}

/// The allocator's refusal of a requested node port outside the default range, which the
/// registry returns alone, before any validation (`BeginCreate` / `BeginUpdate`). Node ports
/// the old Service already held are not allocated again.
pub fn node_port_out_of_range(spec: &Value, old: Option<&Value>) -> Option<FieldError> {
    if !matches!(text(spec, "type"), "NodePort" | "LoadBalancer") {
        return None;
    }
    let held: Vec<i64> = old
        .map(ports)
        .unwrap_or(&[])
        .iter()
        .map(node_port)
        .collect();
    let (lo, hi) = NODE_PORT_RANGE;
    ports(spec).iter().enumerate().find_map(|(i, p)| {
        let n = node_port(p);
        (n != 0 && !held.contains(&n) && !(lo..=hi).contains(&n)).then(|| {
            FieldError::invalid(
                format!("spec.ports[{i}].nodePort"),
                BadValue::Value(Value::Int(n)),
                format!(
                    "provided port is not in the valid range. The range of valid ports is {lo}-{hi}"
                ),
            )
        })
    })
}

fn primary_cluster_ip(spec: &Value) -> Option<&str> {
    spec.get("clusterIPs")
        .and_then(Value::as_list)
        .and_then(|l| l.first())
        .and_then(Value::as_str)
        .or_else(|| spec.get("clusterIP").and_then(Value::as_str))
        .filter(|ip| !ip.is_empty())
}

/// `ports.KubeletPort`, which a LoadBalancer Service may not expose until 1.32 (the rule was
/// removed in 1.33).
const KUBELET_PORT: i64 = 10250;
const KUBELET_PORT_REFUSED: VersionRange = VersionRange::until(32);

/// `ValidateService`'s switch on the type, before the ports.
pub fn by_type(spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let kind = text(spec, "type");
    if kind == "LoadBalancer" && KUBELET_PORT_REFUSED.contains(version) {
        for (i, p) in ports(spec).iter().enumerate() {
            if p.get("port").and_then(Value::as_i64) == Some(KUBELET_PORT) {
                errors.push(FieldError::invalid(
                    format!("spec.ports[{i}]"),
                    BadValue::Value(Value::Int(KUBELET_PORT)),
                    format!(
                        "may not expose port {KUBELET_PORT} externally since it is used by kubelet"
                    ),
                ));
            }
        }
    }
    match kind {
        "LoadBalancer" | "NodePort" if primary_cluster_ip(spec) == Some("None") => {
            errors.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                FieldError::string_value("None"),
                format!("may not be set to 'None' for {kind} services"),
            ));
        }
        "ExternalName" => {
            if primary_cluster_ip(spec).is_some() {
                errors.push(FieldError::forbidden(
                    "spec.clusterIPs",
                    "may not be set for ExternalName services",
                ));
            }
            if spec
                .get("ipFamilies")
                .and_then(Value::as_list)
                .is_some_and(|l| !l.is_empty())
            {
                errors.push(FieldError::forbidden(
                    "spec.ipFamilies",
                    "may not be set for ExternalName services",
                ));
            }
            if present(spec, "ipFamilyPolicy").is_some() {
                errors.push(FieldError::forbidden(
                    "spec.ipFamilyPolicy",
                    "may not be set for ExternalName services",
                ));
            }
            let name = text(spec, "externalName");
            let cname = name.strip_suffix('.').unwrap_or(name);
            if cname.is_empty() {
                errors.push(FieldError::required("spec.externalName", ""));
            } else {
                for msg in super::super::formats::dns1123_subdomain(cname) {
                    errors.push(FieldError::invalid(
                        "spec.externalName",
                        FieldError::string_value(cname),
                        msg,
                    ));
                }
            }
        }
        _ => {}
    }
}

/// After the ports: the selector's labels and session affinity.
pub fn selector_and_affinity(spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if let Some(selector) = present(spec, "selector") {
        meta::labels(Some(selector), "spec.selector", version, errors);
    }
    let affinity = text(spec, "sessionAffinity");
    if affinity.is_empty() {
        errors.push(FieldError::required("spec.sessionAffinity", ""));
    } else if !SESSION_AFFINITIES.contains(&affinity) {
        errors.push(FieldError::not_supported(
            "spec.sessionAffinity",
            FieldError::string_value(affinity),
            SESSION_AFFINITIES,
        ));
    }
    let config = present(spec, "sessionAffinityConfig");
    match affinity {
        "ClientIP" => client_ip_config(config, errors),
        "None" if config.is_some() => errors.push(FieldError::forbidden(
            "spec.sessionAffinityConfig",
            "must not be set when session affinity is None",
        )),
        _ => {}
    }
}

/// `validateClientIPAffinityConfig`.
fn client_ip_config(config: Option<&Value>, errors: &mut Vec<FieldError>) {
    const WHEN: &str = "when session affinity type is ClientIP";
    let path = "spec.sessionAffinityConfig";
    let Some(config) = config else {
        errors.push(FieldError::required(path, WHEN));
        return;
    };
    let Some(client_ip) = present(config, "clientIP") else {
        errors.push(FieldError::required(join(path, ".clientIP"), WHEN));
        return;
    };
    let at = join(path, ".clientIP.timeoutSeconds");
    match client_ip.get("timeoutSeconds").and_then(Value::as_i64) {
        None => errors.push(FieldError::required(at, WHEN)),
        Some(t) if t <= 0 || t > MAX_AFFINITY_SECONDS => errors.push(FieldError::invalid(
            at,
            BadValue::Value(Value::Int(t)),
            format!("must be greater than 0 and less than {MAX_AFFINITY_SECONDS}"),
        )),
        Some(_) => {}
    }
}

/// After the type (`object` is the Service, `spec` its spec as the registry prepared it, `old`
/// the stored Service on update): node ports of ClusterIP services, duplicate node ports and ports,
/// load-balancer fields ([`service_lb`]), traffic policies and distribution.
pub fn after_type(
    object: &Value,
    spec: &Value,
    old: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let kind = text(spec, "type");
    let ports = ports(spec);
    if kind == "ClusterIP" {
        for (i, p) in ports.iter().enumerate() {
            if node_port(p) != 0 {
                errors.push(FieldError::forbidden(
                    format!("spec.ports[{i}].nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let key = (text(p, "protocol"), node_port(p));
        if key.1 == 0 {
            continue;
        }
        if node_ports.contains(&key) {
            errors.push(FieldError::duplicate(
                format!("spec.ports[{i}].nodePort"),
                BadValue::Value(Value::Int(key.1)),
            ));
        }
        node_ports.push(key);
    }
    let mut seen = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let key = (
            text(p, "protocol"),
            p.get("port").and_then(Value::as_i64).unwrap_or(0),
        );
        if seen.contains(&key) {
            errors.push(FieldError::duplicate(
                format!("spec.ports[{i}]"),
                service_port_key(key.0, key.1),
            ));
        }
        seen.push(key);
    }
    service_lb::source_ranges(object, spec, old, version, errors);
    if kind != "LoadBalancer" && present(spec, "allocateLoadBalancerNodePorts").is_some() {
        errors.push(FieldError::forbidden(
            "spec.allocateLoadBalancerNodePorts",
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    service_lb::load_balancer_class(spec, None, version, errors);
    traffic_policies(spec, errors);
    service_lb::traffic_distribution(spec, version, errors);
}

/// The `core.ServicePort{Protocol, Port}` key a duplicate port quotes: `%#v` before 1.34, its
/// JSON (internal type, Go field names) since.
fn service_port_key(protocol: &str, port: i64) -> BadValue {
    let quoted = super::super::goprint::go_quote(protocol);
    BadValue::GoValue {
        value: crate::value::from_json_str(&format!(
            r#"{{"Name":"","Protocol":{quoted},"AppProtocol":null,"Port":{port},"TargetPort":0,"NodePort":0}}"#
        ))
        .unwrap_or(Value::Null),
        go_syntax: format!(
            "core.ServicePort{{Name:\"\", Protocol:{quoted}, AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}"
        ),
    }
}

/// `validateServiceExternalTrafficPolicy` (the health check node port is allocated by the
/// registry, so only a forbidden one is reported) and
/// `validateServiceInternalTrafficFieldsValue`.
fn traffic_policies(spec: &Value, errors: &mut Vec<FieldError>) {
    let kind = text(spec, "type");
    let external_ips = spec
        .get("externalIPs")
        .and_then(Value::as_list)
        .is_some_and(|l| !l.is_empty());
    let accessible =
        matches!(kind, "LoadBalancer" | "NodePort") || (kind == "ClusterIP" && external_ips);
    let policy = text(spec, "externalTrafficPolicy");
    if !accessible {
        if !policy.is_empty() {
            errors.push(FieldError::invalid(
                "spec.externalTrafficPolicy",
                FieldError::string_value(policy),
                "may only be set for externally-accessible services",
            ));
        }
    } else if policy.is_empty() {
        errors.push(FieldError::required("spec.externalTrafficPolicy", ""));
    } else if !TRAFFIC_POLICIES.contains(&policy) {
        errors.push(FieldError::not_supported(
            "spec.externalTrafficPolicy",
            FieldError::string_value(policy),
            TRAFFIC_POLICIES,
        ));
    }
    let health = spec
        .get("healthCheckNodePort")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let needs_health_check = kind == "LoadBalancer" && policy == "Local";
    if !needs_health_check && health != 0 {
        errors.push(FieldError::invalid(
            "spec.healthCheckNodePort",
            BadValue::Value(Value::Int(health)),
            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ));
    }
    if let Some(internal) = spec.get("internalTrafficPolicy").and_then(Value::as_str) {
        if !TRAFFIC_POLICIES.contains(&internal) {
            errors.push(FieldError::not_supported(
                "spec.internalTrafficPolicy",
                FieldError::string_value(internal),
                TRAFFIC_POLICIES,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;
    use crate::value::from_json_str;

    fn messages(spec: &str, minor: u8) -> Vec<String> {
        messages_of(spec, minor, |spec, v, errors| {
            by_type(spec, v, errors);
            selector_and_affinity(spec, v, errors);
            after_type(spec, spec, None, v, errors);
        })
    }

    #[test]
    fn external_name_needs_a_name() {
        assert_eq!(
            messages(r#"{"type":"ExternalName","sessionAffinity":"None"}"#, 37),
            ["spec.externalName: Required value"]
        );
    }

    #[test]
    fn cluster_ip_services_take_no_node_port_and_no_external_policy() {
        assert_eq!(
            messages(
                r#"{"type":"ClusterIP","sessionAffinity":"None","externalTrafficPolicy":"Local","internalTrafficPolicy":"Cluster","ports":[{"port":80,"protocol":"TCP","nodePort":30080}]}"#,
                37
            ),
            [
                "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
                "spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set for externally-accessible services",
            ]
        );
    }

    #[test]
    fn duplicate_ports_quote_the_internal_key_per_version() {
        let spec = r#"{"type":"ClusterIP","sessionAffinity":"Sticky","ports":[{"port":80,"protocol":"TCP"},{"port":80,"protocol":"TCP"}]}"#;
        assert_eq!(
            messages(spec, 33),
            [
                "spec.sessionAffinity: Unsupported value: \"Sticky\": supported values: \"ClientIP\", \"None\"",
                "spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}",
            ]
        );
        assert_eq!(
            messages(spec, 34)[1],
            "spec.ports[1]: Duplicate value: {\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,\"Port\":80,\"TargetPort\":0,\"NodePort\":0}"
        );
    }

    #[test]
    fn node_ports_outside_the_default_range_are_refused_by_the_allocator() {
        let spec =
            from_json_str(r#"{"type":"NodePort","ports":[{"port":80,"nodePort":8080}]}"#).unwrap();
        assert_eq!(
            node_port_out_of_range(&spec, None).unwrap().message(KubeVersion::new(37).unwrap()),
            "spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767"
        );
        assert!(node_port_out_of_range(&spec, Some(&spec)).is_none());
    }
}
