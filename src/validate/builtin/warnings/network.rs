//! The warnings of the Service, Endpoints, Ingress and NetworkPolicy strategies.

use super::super::fields::{items, present, spec, text};
use super::ip;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::validate::Write;
use crate::value::Value;

/// `GetWarningsForService` warns of settings headless services ignore from 1.34.
const HEADLESS_IGNORED: VersionRange = VersionRange::since(34);
/// `spec.trafficDistribution: PreferClose` is deprecated for `PreferSameZone` from 1.35.
const PREFER_CLOSE_DEPRECATED: VersionRange = VersionRange::since(35);
/// `spec.externalIPs` itself is deprecated from 1.36.
const EXTERNAL_IPS_DEPRECATED: VersionRange = VersionRange::since(36);
/// From 1.33 the Service's IP helpers are apimachinery's (see [`ip`]).
const APIMACHINERY_IP_WARNINGS: VersionRange = VersionRange::since(33);

fn annotation<'v>(object: &'v Value, key: &str) -> Option<&'v Value> {
    object.get_path(&["metadata", "annotations", key])
}

/// The address warnings of the release: apimachinery's from 1.33, the Service's own before.
fn service_ip(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    if APIMACHINERY_IP_WARNINGS.contains(version) {
        ip::ip(at, value, version, out);
    } else {
        ip::service_ip(at, value, version, out);
    }
}

fn service_cidr(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    if APIMACHINERY_IP_WARNINGS.contains(version) {
        ip::cidr(at, value, version, out);
    } else {
        ip::service_cidr(at, value, version, out);
    }
}

/// pkg/api/service/warnings.go `GetWarningsForService` (create and update of the main
/// resource; the status strategy's load-balancer IP warnings are for status writes).
pub fn service(w: &Write, object: &Value, out: &mut Vec<String>) {
    let version = w.version();
    let spec = spec(object);
    if annotation(object, "service.kubernetes.io/topology-aware-hints").is_some() {
        out.push("annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead".into());
    }
    let cluster_ip = text(spec, "clusterIP");
    // `helper.IsServiceIPSet`.
    if !cluster_ip.is_empty() && cluster_ip != "None" {
        for (i, value) in items(spec.get("clusterIPs")).iter().enumerate() {
            let at = indexed("spec.clusterIPs", i);
            service_ip(&at, value.as_str().unwrap_or(""), version, out);
        }
    }
    // The type and session affinity as defaulted (`ClusterIP`, `None`).
    let kind = match text(spec, "type") {
        "" => "ClusterIP",
        t => t,
    };
    let headless = kind == "ClusterIP" && cluster_ip == "None";
    let external_ips = items(spec.get("externalIPs"));
    let lb_ip = text(spec, "loadBalancerIP");
    if headless && HEADLESS_IGNORED.contains(version) {
        if !lb_ip.is_empty() {
            out.push("spec.loadBalancerIP is ignored for headless services".into());
        }
        if !external_ips.is_empty() {
            out.push("spec.externalIPs is ignored for headless services".into());
        }
        if !matches!(text(spec, "sessionAffinity"), "" | "None") {
            out.push("spec.SessionAffinity is ignored for headless services".into());
        }
    }
    for (i, value) in external_ips.iter().enumerate() {
        let at = indexed("spec.externalIPs", i);
        service_ip(&at, value.as_str().unwrap_or(""), version, out);
    }
    if !external_ips.is_empty()
        && !headless
        && kind != "ExternalName"
        && EXTERNAL_IPS_DEPRECATED.contains(version)
    {
        out.push(
            "spec.externalIPs is deprecated and may no longer be implemented in some clusters"
                .into(),
        );
    }
    if !lb_ip.is_empty() {
        service_ip("spec.loadBalancerIP", lb_ip, version, out);
    }
    for (i, value) in items(spec.get("loadBalancerSourceRanges"))
        .iter()
        .enumerate()
    {
        let at = indexed("spec.loadBalancerSourceRanges", i);
        service_cidr(&at, value.as_str().unwrap_or(""), version, out);
    }
    if kind == "ExternalName" && !external_ips.is_empty() {
        out.push(r#"spec.externalIPs is ignored when spec.type is "ExternalName""#.into());
    }
    if kind != "ExternalName" && !text(spec, "externalName").is_empty() {
        out.push(r#"spec.externalName is ignored when spec.type is not "ExternalName""#.into());
    }
    if PREFER_CLOSE_DEPRECATED.contains(version)
        && text(spec, "trafficDistribution") == "PreferClose"
    {
        out.push(
            r#"spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone""#.into(),
        );
    }
}

/// pkg/registry/core/endpoint/strategy.go `endpointsWarnings` (1.33–): the addresses'
/// IPs, unless the Endpoints controller wrote the object (its `managed-by` label).
pub fn endpoints(w: &Write, object: &Value, out: &mut Vec<String>) {
    let managed_by = object.get_path(&["metadata", "labels", "endpoints.kubernetes.io/managed-by"]);
    if managed_by.and_then(Value::as_str) == Some("endpoint-controller") {
        return;
    }
    for (i, subset) in items(object.get("subsets")).iter().enumerate() {
        let subset_at = indexed("subsets", i);
        for list in ["addresses", "notReadyAddresses"] {
            let list_at = join(&subset_at, &format!(".{list}"));
            for (j, address) in items(subset.get(list)).iter().enumerate() {
                let at = join(&indexed(&list_at, j), ".ip");
                ip::ip(&at, text(address, "ip"), w.version(), out);
            }
        }
    }
}

/// pkg/registry/networking/ingress/strategy.go `WarningsOnCreate`: the deprecated class
/// annotation without `spec.ingressClassName` (updates do not warn; the load-balancer IP
/// warnings are the status strategy's).
pub fn ingress(w: &Write, object: &Value, out: &mut Vec<String>) {
    if w.live.is_some() {
        return;
    }
    if annotation(object, "kubernetes.io/ingress.class").is_some()
        && present(spec(object), "ingressClassName").is_none()
    {
        out.push(
            r#"annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead"#
                .into(),
        );
    }
}

/// pkg/registry/networking/networkpolicy/strategy.go `networkPolicyWarnings` (1.33–): the
/// CIDRs of the ingress rules' `from` and the egress rules' `to` ipBlocks.
pub fn network_policy(w: &Write, object: &Value, out: &mut Vec<String>) {
    let spec = spec(object);
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in items(spec.get(rules)).iter().enumerate() {
            let peers_at = join(&indexed(&format!("spec.{rules}"), i), &format!(".{peers}"));
            for (j, peer) in items(rule.get(peers)).iter().enumerate() {
                let Some(block) = present(peer, "ipBlock") else {
                    continue;
                };
                let at = join(&indexed(&peers_at, j), ".ipBlock");
                ip::cidr(&join(&at, ".cidr"), text(block, "cidr"), w.version(), out);
                let except_at = join(&at, ".except");
                for (k, except) in items(block.get("except")).iter().enumerate() {
                    let value = except.as_str().unwrap_or("");
                    ip::cidr(&indexed(&except_at, k), value, w.version(), out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::warnings;

    fn service(spec: &str) -> String {
        format!(
            r#"{{"apiVersion":"v1","kind":"Service","metadata":{{"name":"s","namespace":"default"}},"spec":{spec}}}"#
        )
    }

    // As the 1.30 … 1.36 references print them.
    #[test]
    fn service_addresses_per_release() {
        let lb = service(
            r#"{"ports":[{"port":80}],"type":"LoadBalancer","externalIPs":["1.2.3.4","2001:DB8::1"],
                "loadBalancerSourceRanges":["2001:DB8::/64"],"loadBalancerIP":"2001:db8:0:0::1"}"#,
        );
        assert_eq!(
            warnings(&lb, None, 32),
            [
                r#"Warning: spec.externalIPs[1]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops"#,
                r#"Warning: spec.loadBalancerIP: IPv6 address "2001:db8:0:0::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops"#,
                r#"Warning: spec.loadBalancerSourceRanges[0]: IPv6 prefix "2001:DB8::/64" is not in RFC 5952 canonical format ("2001:db8::/64"), which may cause controller apply-loops"#,
            ]
        );
        assert_eq!(
            warnings(&lb, None, 36),
            [
                r#"Warning: spec.externalIPs[1]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")"#,
                "Warning: spec.externalIPs is deprecated and may no longer be implemented in some clusters",
                r#"Warning: spec.loadBalancerIP: IPv6 address "2001:db8:0:0::1" should be in RFC 5952 canonical format ("2001:db8::1")"#,
                r#"Warning: spec.loadBalancerSourceRanges[0]: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")"#,
            ]
        );
        let cluster_ip = service(
            r#"{"ports":[{"port":80}],"clusterIP":"10.96.0.010","clusterIPs":["10.96.0.010"]}"#,
        );
        assert_eq!(
            warnings(&cluster_ip, None, 33),
            [
                r#"Warning: spec.clusterIPs[0]: non-standard IP address "10.96.0.010" will be considered invalid in a future Kubernetes release: use "10.96.0.10""#
            ]
        );
    }

    #[test]
    fn headless_external_name_and_deprecations() {
        let headless = service(
            r#"{"ports":[{"port":80}],"clusterIP":"None","clusterIPs":["None"],"externalIPs":["1.2.3.4"],
                "loadBalancerIP":"1.2.3.4","sessionAffinity":"ClientIP"}"#,
        );
        assert!(warnings(&headless, None, 33).is_empty());
        assert_eq!(
            warnings(&headless, None, 36),
            [
                "Warning: spec.loadBalancerIP is ignored for headless services",
                "Warning: spec.externalIPs is ignored for headless services",
                "Warning: spec.SessionAffinity is ignored for headless services",
            ]
        );
        let ignored = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"default",
            "annotations":{"service.kubernetes.io/topology-aware-hints":"auto"}},
            "spec":{"ports":[{"port":80}],"externalName":"a.example.com","trafficDistribution":"PreferClose"}}"#;
        let expected = [
            "Warning: annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead",
            r#"Warning: spec.externalName is ignored when spec.type is not "ExternalName""#,
            r#"Warning: spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone""#,
        ];
        assert_eq!(warnings(ignored, None, 34), expected[..2]);
        assert_eq!(warnings(ignored, None, 35), expected);
        let external = service(
            r#"{"type":"ExternalName","externalName":"a.example.com","externalIPs":["1.2.3.4"]}"#,
        );
        assert_eq!(
            warnings(&external, None, 36),
            [r#"Warning: spec.externalIPs is ignored when spec.type is "ExternalName""#]
        );
    }

    #[test]
    fn endpoints_unless_the_controller_wrote_them() {
        let endpoints = |labels: &str| {
            format!(
                r#"{{"apiVersion":"v1","kind":"Endpoints","metadata":{{"name":"e","namespace":"default","labels":{labels}}},
                "subsets":[{{"addresses":[{{"ip":"10.0.0.1"}},{{"ip":"2001:DB8::1"}}],"notReadyAddresses":[{{"ip":"010.0.0.2"}}]}}]}}"#
            )
        };
        assert!(warnings(&endpoints("{}"), None, 32).is_empty());
        assert_eq!(
            warnings(&endpoints("{}"), None, 33),
            [
                r#"Warning: subsets[0].addresses[1].ip: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")"#,
                r#"Warning: subsets[0].notReadyAddresses[0].ip: non-standard IP address "010.0.0.2" will be considered invalid in a future Kubernetes release: use "10.0.0.2""#,
            ]
        );
        let managed = endpoints(r#"{"endpoints.kubernetes.io/managed-by":"endpoint-controller"}"#);
        assert!(warnings(&managed, None, 35).is_empty());
    }

    #[test]
    fn ingress_class_annotation_on_create() {
        let ingress = |class: &str| {
            format!(
                r#"{{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{{"name":"i","namespace":"default",
                "annotations":{{"kubernetes.io/ingress.class":"nginx"}}}},
                "spec":{{{class}"defaultBackend":{{"service":{{"name":"x","port":{{"number":80}}}}}}}}}}"#
            )
        };
        let plain = ingress("");
        assert_eq!(
            warnings(&plain, None, 30),
            [
                r#"Warning: annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead"#
            ]
        );
        assert!(warnings(&plain, Some(&plain), 36).is_empty());
        assert!(warnings(&ingress(r#""ingressClassName":"nginx","#), None, 36).is_empty());
    }

    #[test]
    fn network_policy_blocks() {
        let policy = r#"{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n","namespace":"default"},
            "spec":{"podSelector":{},"ingress":[{"from":[{"podSelector":{}},{"ipBlock":{"cidr":"10.0.0.1/8","except":["10.1.0.0/16","10.2.0.1/16"]}}]}],
            "egress":[{"to":[{"ipBlock":{"cidr":"2001:DB8::/32"}}]}]}}"#;
        assert!(warnings(policy, None, 32).is_empty());
        assert_eq!(
            warnings(policy, None, 33),
            [
                r#"Warning: spec.ingress[0].from[1].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)"#,
                r#"Warning: spec.ingress[0].from[1].ipBlock.except[1]: CIDR value "10.2.0.1/16" is ambiguous in this context (should be "10.2.0.0/16" or "10.2.0.1/32"?)"#,
                r#"Warning: spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value "2001:DB8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")"#,
            ]
        );
    }
}
