//! What the Service registry does to a write besides allocating: the gated fields its strategy
//! drops (k8s.io/kubernetes pkg/registry/core/service/strategy.go `dropServiceDisabledFields`),
//! what `beginCreate`/`beginUpdate` fill in before the allocator runs
//! (pkg/registry/core/service/storage/storage.go `patchAllocatedValues`, `normalizeClusterIPs`,
//! alloc.go `initIPFamilyFields`' single-stack trim), and the fields a change of type makes
//! pointless, which `PrepareForUpdate` wipes (strategy.go `dropTypeDependentFields`, unchanged
//! 1.30–1.36). What the allocator picks (cluster IPs, node ports, a second family) depends on
//! the cluster and is not predicted.

use super::{KubeVersion, VersionRange};
use crate::value::access::{items, present, set, text};
use crate::value::{Map, Value};

/// ServiceTrafficDistribution was alpha and off in 1.30: the strategy drops a new
/// `trafficDistribution` unless the stored Service has one.
const TRAFFIC_DISTRIBUTION_DROPPED: VersionRange = VersionRange::until(30);

fn is_service(object: &Value) -> bool {
    text(object, "apiVersion") == "v1" && text(object, "kind") == "Service"
}

/// `dropServiceDisabledFields`, on create and update; `old` is the stored Service on update.
pub fn drop_disabled_fields(object: &mut Value, old: Option<&Value>, version: KubeVersion) {
    if !is_service(object) || !TRAFFIC_DISTRIBUTION_DROPPED.contains(version) {
        return;
    }
    let in_use = old
        .and_then(|o| o.get_path(&["spec", "trafficDistribution"]))
        .is_some_and(|v| !v.is_null());
    if in_use {
        return;
    }
    if let Some(Value::Map(spec)) = object.as_map_mut().and_then(|m| m.get_mut("spec")) {
        spec.shift_remove("trafficDistribution");
    }
}

/// The stored Service an update leaves, as far as it does not depend on the allocator: the
/// allocated values the write left out kept ([`prepare_spec`]), the fields its new type does not
/// use wiped ([`drop_type_dependent`]), and the load balancer status cleared once the Service is
/// no load balancer (`dropTypeDependentFields`' last step). Other objects are left alone.
pub fn settle_update(object: &mut Value, old: &Value) {
    if !is_service(object) {
        return;
    }
    let Some(Value::Map(old_spec)) = old.get("spec") else {
        return;
    };
    let old_spec = Value::Map(old_spec.clone());
    let Some(m) = object.as_map_mut() else { return };
    let mut spec = prepare_spec(m.get("spec").unwrap_or(&Value::Null), Some(&old_spec));
    drop_type_dependent(&mut spec, &old_spec);
    let load_balancer = text(&spec, "type") == "LoadBalancer";
    m.insert("spec".into(), spec);
    if !load_balancer {
        if let Some(status) = m.get_mut("status").filter(|s| s.as_map().is_some()) {
            set(status, "loadBalancer", Some(Value::Map(Map::default())));
        }
    }
}

pub(crate) fn strings(spec: &Value, key: &str) -> Vec<String> {
    items(spec.get(key))
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect()
}

pub(crate) fn string_list(list: &[String]) -> Value {
    Value::List(list.iter().map(|s| Value::from(s.as_str())).collect())
}

pub(crate) fn needs_cluster_ip(spec: &Value) -> bool {
    text(spec, "type") != "ExternalName"
}

pub(crate) fn needs_node_port(spec: &Value) -> bool {
    matches!(text(spec, "type"), "NodePort" | "LoadBalancer")
}

/// `needsHCNodePort` / `apiservice.NeedsHealthCheck`.
pub(crate) fn needs_health_check(spec: &Value) -> bool {
    text(spec, "type") == "LoadBalancer" && text(spec, "externalTrafficPolicy") == "Local"
}

/// `apiservice.ExternallyAccessible`.
pub(crate) fn externally_accessible(spec: &Value) -> bool {
    let kind = text(spec, "type");
    matches!(kind, "LoadBalancer" | "NodePort")
        || (kind == "ClusterIP" && !items(spec.get("externalIPs")).is_empty())
}

pub(crate) fn node_port(p: &Value) -> i64 {
    p.get("nodePort").and_then(Value::as_i64).unwrap_or(0)
}

pub(crate) fn health_check_node_port(spec: &Value) -> i64 {
    spec.get("healthCheckNodePort")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

pub(crate) fn policy(spec: &Value) -> &str {
    text(spec, "ipFamilyPolicy")
}

/// The spec the allocator sees: `patchAllocatedValues` (update), `normalizeClusterIPs`, and,
/// for a write to `SingleStack` that keeps the stored addresses, the secondary IP and family
/// dropped (`initIPFamilyFields`' update-only preparation).
pub fn prepare_spec(spec: &Value, old: Option<&Value>) -> Value {
    let mut new = spec.clone();
    let Some(old) = old else {
        // Create: the plural from the singular.
        let ip = text(&new, "clusterIP").to_string();
        if !ip.is_empty() && strings(&new, "clusterIPs").is_empty() {
            set(&mut new, "clusterIPs", Some(string_list(&[ip])));
        }
        return new;
    };
    patch_allocated_values(&mut new, old);
    normalize_cluster_ips(&mut new, old);
    let effective = match present(&new, "ipFamilyPolicy") {
        Some(p) => p.as_str().unwrap_or(""),
        None => policy(old),
    };
    if effective == "SingleStack" {
        for key in ["clusterIPs", "ipFamilies"] {
            let list = strings(&new, key);
            if list.len() > 1 && list == strings(old, key) {
                set(&mut new, key, Some(string_list(&list[..1])));
            }
        }
    }
    new
}

/// `patchAllocatedValues`: allocated values a client left out keep their stored values.
fn patch_allocated_values(new: &mut Value, old: &Value) {
    if needs_cluster_ip(old) && needs_cluster_ip(new) {
        if text(new, "clusterIP").is_empty() {
            set(new, "clusterIP", old.get("clusterIP").cloned());
        }
        if strings(new, "clusterIPs").is_empty() && !strings(old, "clusterIPs").is_empty() {
            set(new, "clusterIPs", old.get("clusterIPs").cloned());
        }
    }
    if needs_node_port(old) && needs_node_port(new) {
        let used = |s: &Value| -> Vec<i64> {
            items(s.get("ports"))
                .iter()
                .map(node_port)
                .filter(|n| *n != 0)
                .collect()
        };
        let new_used = used(new);
        let in_both: Vec<i64> = used(old)
            .into_iter()
            .filter(|n| new_used.contains(n))
            .collect();
        // Stored node ports by port name (the last of a name wins, as in a Go map).
        let mut by_name: Vec<(&str, i64)> = Vec::new();
        for p in items(old.get("ports")) {
            let name = text(p, "name");
            by_name.retain(|(n, _)| *n != name);
            by_name.push((name, node_port(p)));
        }
        if let Some(Value::List(ports)) = new.as_map_mut().and_then(|m| m.get_mut("ports")) {
            for p in ports.iter_mut() {
                if node_port(p) != 0 {
                    continue;
                }
                let stored = by_name
                    .iter()
                    .find(|(n, _)| *n == text(p, "name"))
                    .map_or(0, |(_, v)| *v);
                if stored != 0 && !in_both.contains(&stored) {
                    if let Some(m) = p.as_map_mut() {
                        m.insert("nodePort".into(), Value::Int(stored));
                    }
                }
            }
        }
    }
    if needs_health_check(old) && needs_health_check(new) && health_check_node_port(new) == 0 {
        set(
            new,
            "healthCheckNodePort",
            old.get("healthCheckNodePort").cloned(),
        );
    }
}

/// `normalizeClusterIPs` on update.
fn normalize_cluster_ips(new: &mut Value, old: &Value) {
    let (old_ip, new_ip) = (text(old, "clusterIP"), text(new, "clusterIP").to_string());
    let old_ips = strings(old, "clusterIPs");
    if !old_ips.is_empty() && strings(new, "clusterIPs").is_empty() && old_ip == new_ip {
        set(new, "clusterIPs", old.get("clusterIPs").cloned());
    }
    if old_ip != new_ip && old_ips == strings(new, "clusterIPs") {
        if !old_ip.is_empty() && new_ip.is_empty() {
            set(new, "clusterIPs", None);
        } else {
            set(new, "clusterIPs", Some(string_list(&[new_ip])));
        }
    }
}

/// `dropTypeDependentFields` (PrepareForUpdate): on a change of type, the fields the new type
/// does not use are wiped where the write left them as stored.
pub fn drop_type_dependent(new: &mut Value, old: &Value) {
    if needs_cluster_ip(old) && !needs_cluster_ip(new) {
        let same_ips = text(new, "clusterIP") == text(old, "clusterIP")
            && strings(new, "clusterIPs") == strings(old, "clusterIPs");
        if same_ips {
            set(new, "clusterIP", None);
            set(new, "clusterIPs", None);
        }
        if strings(new, "ipFamilies") == strings(old, "ipFamilies") {
            set(new, "ipFamilies", None);
        }
        if policy(new) == policy(old) {
            set(new, "ipFamilyPolicy", None);
        }
    }
    let stored_node_ports: Vec<i64> = items(old.get("ports")).iter().map(node_port).collect();
    let no_new_node_ports = items(new.get("ports"))
        .iter()
        .map(node_port)
        .all(|n| n == 0 || stored_node_ports.contains(&n));
    if needs_node_port(old) && !needs_node_port(new) && no_new_node_ports {
        if let Some(Value::List(ports)) = new.as_map_mut().and_then(|m| m.get_mut("ports")) {
            for p in ports.iter_mut().filter_map(Value::as_map_mut) {
                p.shift_remove("nodePort");
            }
        }
    }
    if needs_health_check(old)
        && !needs_health_check(new)
        && health_check_node_port(new) == health_check_node_port(old)
    {
        set(new, "healthCheckNodePort", None);
    }
    let was_load_balancer = text(old, "type") == "LoadBalancer";
    let is_load_balancer = text(new, "type") == "LoadBalancer";
    if was_load_balancer && !is_load_balancer {
        let (n, o) = (
            present(new, "allocateLoadBalancerNodePorts"),
            present(old, "allocateLoadBalancerNodePorts"),
        );
        if n.is_some() && n == o {
            set(new, "allocateLoadBalancerNodePorts", None);
        }
        if present(new, "loadBalancerClass") == present(old, "loadBalancerClass") {
            set(new, "loadBalancerClass", None);
        }
    }
    if externally_accessible(old)
        && !externally_accessible(new)
        && text(new, "externalTrafficPolicy") == text(old, "externalTrafficPolicy")
    {
        set(new, "externalTrafficPolicy", None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn service(spec: &str, status: &str) -> Value {
        from_json_str(&format!(
            r#"{{"apiVersion":"v1","kind":"Service","metadata":{{"name":"s"}},"spec":{spec},"status":{status}}}"#
        ))
        .unwrap()
    }

    fn settled(new: &str, old: &str, status: &str) -> String {
        let mut object = service(new, status);
        settle_update(&mut object, &service(old, status));
        to_json_string(object.get("spec").unwrap())
    }

    #[test]
    fn a_node_port_service_turned_cluster_ip_loses_its_node_ports_and_traffic_policy() {
        let old = r#"{"type":"NodePort","clusterIP":"10.0.0.1","externalTrafficPolicy":"Cluster",
          "ports":[{"port":80,"nodePort":30080}]}"#;
        let new = r#"{"type":"ClusterIP","clusterIP":"10.0.0.1","externalTrafficPolicy":"Cluster",
          "ports":[{"port":80,"nodePort":30080}]}"#;
        assert_eq!(
            settled(new, old, "{}"),
            r#"{"type":"ClusterIP","clusterIP":"10.0.0.1","ports":[{"port":80}]}"#
        );
        // A node port the write adds is the user's: nothing is wiped, validation refuses it.
        let added = r#"{"type":"ClusterIP","clusterIP":"10.0.0.1","externalTrafficPolicy":"Local",
          "ports":[{"port":80,"nodePort":30081}]}"#;
        assert!(settled(added, old, "{}").contains("30081"));
        assert!(settled(added, old, "{}").contains("Local"));
    }

    #[test]
    fn an_external_name_service_loses_the_cluster_ip_fields_it_kept_as_stored() {
        let old = r#"{"type":"ClusterIP","clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],
          "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"port":80}]}"#;
        let new = r#"{"type":"ExternalName","externalName":"a.example","clusterIP":"10.0.0.1",
          "clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
          "ports":[{"port":80}]}"#;
        assert_eq!(
            settled(new, old, "{}"),
            r#"{"type":"ExternalName","externalName":"a.example","ports":[{"port":80}]}"#
        );
    }

    #[test]
    fn a_load_balancer_status_is_cleared_once_the_service_is_no_load_balancer() {
        let ingress = r#"{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}"#;
        let old = r#"{"type":"LoadBalancer","ports":[{"port":80}]}"#;
        let mut object = service(r#"{"type":"ClusterIP","ports":[{"port":80}]}"#, ingress);
        settle_update(&mut object, &service(old, ingress));
        assert_eq!(
            to_json_string(object.get("status").unwrap()),
            r#"{"loadBalancer":{}}"#
        );
        let mut kept = service(old, ingress);
        settle_update(&mut kept, &service(old, ingress));
        assert!(to_json_string(kept.get("status").unwrap()).contains("1.2.3.4"));
    }

    #[test]
    fn a_secondary_address_is_released_with_a_single_stack_policy() {
        let old = r#"{"type":"ClusterIP","clusterIPs":["10.0.0.1","fd00::1"],"clusterIP":"10.0.0.1",
          "ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"PreferDualStack","ports":[{"port":80}]}"#;
        let new = old.replace("PreferDualStack", "SingleStack");
        let spec = settled(&new, old, "{}");
        assert!(spec.contains(r#""clusterIPs":["10.0.0.1"]"#), "{spec}");
        assert!(spec.contains(r#""ipFamilies":["IPv4"]"#), "{spec}");
    }
}
