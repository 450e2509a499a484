//! A Service write as the registry prepares it for validation, and the rules of
//! `ValidateServiceUpdate` that compare it with the stored Service.
//!
//! Before validation the service registry (pkg/registry/core/service/storage `storage.go`
//! `beginCreate`/`beginUpdate`) fills in what the client left out (`patchAllocatedValues`),
//! syncs `clusterIP` and `clusterIPs` (`normalizeClusterIPs`) and lets the allocator settle the
//! IP family fields (`alloc.go` `initIPFamilyFields`); the strategy then wipes the fields a
//! type change made pointless (pkg/registry/core/service `strategy.go`
//! `dropTypeDependentFields`). The rules afterwards are pkg/apis/core/validation's
//! `validateUpgradeDowngradeClusterIPs`, `validateUpgradeDowngradeIPFamilies`,
//! `validateLoadBalancerClassField` and `validateServiceExternalTrafficFieldsUpdate`.

use super::super::{BadValue, FieldError};
use super::fields::{items, present, set, text};
use super::service_ip::family_of;
use super::service_lb;
use crate::kube::KubeVersion;
use crate::value::Value;

fn strings(spec: &Value, key: &str) -> Vec<String> {
    items(spec.get(key))
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect()
}

fn string_list(list: &[String]) -> Value {
    Value::List(list.iter().map(|s| Value::from(s.as_str())).collect())
}

fn needs_cluster_ip(spec: &Value) -> bool {
    text(spec, "type") != "ExternalName"
}

fn needs_node_port(spec: &Value) -> bool {
    matches!(text(spec, "type"), "NodePort" | "LoadBalancer")
}

/// `needsHCNodePort` / `apiservice.NeedsHealthCheck`.
fn needs_health_check(spec: &Value) -> bool {
    text(spec, "type") == "LoadBalancer" && text(spec, "externalTrafficPolicy") == "Local"
}

/// `apiservice.ExternallyAccessible`.
fn externally_accessible(spec: &Value) -> bool {
    let kind = text(spec, "type");
    matches!(kind, "LoadBalancer" | "NodePort")
        || (kind == "ClusterIP" && !items(spec.get("externalIPs")).is_empty())
}

fn node_port(p: &Value) -> i64 {
    p.get("nodePort").and_then(Value::as_i64).unwrap_or(0)
}

fn health_check_node_port(spec: &Value) -> i64 {
    spec.get("healthCheckNodePort")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

fn policy(spec: &Value) -> &str {
    text(spec, "ipFamilyPolicy")
}

/// The spec the allocator sees: `patchAllocatedValues` (update), `normalizeClusterIPs`, and,
/// for a write to `SingleStack` that keeps the stored addresses, the secondary IP and family
/// dropped (`initIPFamilyFields`' update-only preparation).
pub fn prepare(spec: &Value, old: Option<&Value>) -> Value {
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

/// What `initIPFamilyFields` leaves in the IP family fields of a valid update on a dual-stack
/// cluster whose default family is IPv4: the stored policy when none is given, families
/// inferred from the cluster IPs, a second family for a dual-stack policy. A PreferDualStack
/// Service whose addresses stay as stored is left alone.
pub fn allocate_families(new: &mut Value, old: &Value) {
    if !needs_cluster_ip(new) {
        return;
    }
    let matching_prefer_dual_stack = present(new, "ipFamilyPolicy").is_some()
        && text(new, "type") == text(old, "type")
        && policy(new) == "PreferDualStack"
        && matches!(policy(old), "PreferDualStack" | "")
        && strings(new, "clusterIPs") == strings(old, "clusterIPs")
        && strings(new, "ipFamilies") == strings(old, "ipFamilies");
    if matching_prefer_dual_stack {
        return;
    }
    if present(new, "ipFamilyPolicy").is_none() {
        let policy = match present(old, "ipFamilyPolicy") {
            Some(p) => p.clone(),
            None if text(new, "clusterIP") == "None" && !has_selector(new) => {
                Value::from("RequireDualStack")
            }
            None => Value::from("SingleStack"),
        };
        set(new, "ipFamilyPolicy", Some(policy));
    }
    let mut families = strings(new, "ipFamilies");
    for (i, ip) in strings(new, "clusterIPs").iter().enumerate() {
        if ip == "None" {
            break;
        }
        if i >= families.len() {
            families.push(family_of(ip).to_string());
        }
    }
    if families.is_empty() {
        families.push("IPv4".into());
    }
    if policy(new) != "SingleStack" && families.len() == 1 {
        let other = if families[0] == "IPv4" {
            "IPv6"
        } else {
            "IPv4"
        };
        families.push(other.into());
    }
    set(new, "ipFamilies", Some(string_list(&families)));
}

fn has_selector(spec: &Value) -> bool {
    present(spec, "selector")
        .and_then(Value::as_map)
        .is_some_and(|m| !m.is_empty())
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

/// `ValidateServiceUpdate`'s comparisons, in its order, before `ValidateService`.
pub fn check(new: &Value, old: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    upgrade_downgrade_cluster_ips(new, old, errors);
    upgrade_downgrade_ip_families(new, old, errors);
    service_lb::load_balancer_class(new, Some(old), version, errors);
    if needs_health_check(old)
        && needs_health_check(new)
        && health_check_node_port(new) != health_check_node_port(old)
    {
        errors.push(FieldError::forbidden(
            "spec.healthCheckNodePort",
            "field is immutable",
        ));
    }
}

/// `ValidateService`'s first rule after the metadata: the topology mode annotation agrees with
/// the deprecated topology-aware-hints one when both are given.
pub fn topology_annotations(annotations: Option<&Value>, errors: &mut Vec<FieldError>) {
    const MODE: &str = "service.kubernetes.io/topology-mode";
    const HINTS: &str = "service.kubernetes.io/topology-aware-hints";
    let get = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_str);
    if let (Some(mode), Some(hints)) = (get(MODE), get(HINTS)) {
        if mode != hints {
            errors.push(FieldError::invalid(
                format!("metadata.annotations[{MODE}]"),
                FieldError::string_value(mode),
                format!("must match annotations[{HINTS}] when both are specified"),
            ));
        }
    }
}

/// `isHeadlessService`: `clusterIPs` is exactly `["None"]`.
fn is_headless(spec: &Value) -> bool {
    strings(spec, "clusterIPs") == ["None"]
}

/// A `[]string` (`[]string(nil)` when empty) or `[]core.IPFamily` bad value.
fn quoted_list(list: &[String], go_type: &str) -> BadValue {
    if list.is_empty() {
        return BadValue::GoValue {
            value: Value::Null,
            go_syntax: format!("[]{go_type}(nil)"),
        };
    }
    let quoted: Vec<String> = list
        .iter()
        .map(|s| super::super::goprint::go_quote(s))
        .collect();
    BadValue::GoValue {
        value: string_list(list),
        go_syntax: format!("[]{go_type}{{{}}}", quoted.join(", ")),
    }
}

/// The policy pointer, dereferenced.
fn quoted_policy(spec: &Value) -> BadValue {
    BadValue::Value(
        present(spec, "ipFamilyPolicy")
            .cloned()
            .unwrap_or(Value::Null),
    )
}

const UNCHANGEABLE: &str = "may not change once set";

/// `validateUpgradeDowngradeClusterIPs`.
fn upgrade_downgrade_cluster_ips(new: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    if !needs_cluster_ip(new) || !needs_cluster_ip(old) || (is_headless(new) && is_headless(old)) {
        return;
    }
    let (n, o) = (strings(new, "clusterIPs"), strings(old, "clusterIPs"));
    let quoted = || quoted_list(&n, "string");
    let primary_changed = !o.is_empty() && !n.is_empty() && n[0] != o[0];
    if n.len() == o.len() {
        for (i, (was, now)) in o.iter().zip(&n).enumerate() {
            if was != now {
                errors.push(FieldError::invalid(
                    format!("spec.clusterIPs[{i}]"),
                    quoted(),
                    UNCHANGEABLE,
                ));
            }
        }
    } else if o.len() > n.len() {
        if n.is_empty() {
            errors.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                quoted(),
                "primary clusterIP can not be unset",
            ));
        }
        if primary_changed {
            errors.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                quoted(),
                UNCHANGEABLE,
            ));
        }
        if n.len() == 1 && policy(new) != "SingleStack" {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                quoted_policy(new),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if primary_changed {
        errors.push(FieldError::invalid(
            "spec.clusterIPs[0]",
            quoted(),
            UNCHANGEABLE,
        ));
    }
}

/// `validateUpgradeDowngradeIPFamilies`. Where the families shrink or grow the server quotes
/// the cluster IPs, not the families.
fn upgrade_downgrade_ip_families(new: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    if !needs_cluster_ip(new) || !needs_cluster_ip(old) || is_headless(new) || is_headless(old) {
        return;
    }
    let (n, o) = (strings(new, "ipFamilies"), strings(old, "ipFamilies"));
    let at = "spec.ipFamilies[0]";
    let ips = || quoted_list(&strings(new, "clusterIPs"), "string");
    let primary_changed = !n.is_empty() && !o.is_empty() && n[0] != o[0];
    if n.len() == o.len() {
        for (was, now) in o.iter().zip(&n) {
            if was != now {
                errors.push(FieldError::invalid(
                    at,
                    quoted_list(&n, "core.IPFamily"),
                    UNCHANGEABLE,
                ));
            }
        }
    } else if o.len() > n.len() {
        if strings(new, "clusterIPs").is_empty() {
            errors.push(FieldError::invalid(
                at,
                quoted_list(&n, "core.IPFamily"),
                "primary ipFamily can not be unset",
            ));
        }
        if primary_changed {
            errors.push(FieldError::invalid(at, ips(), UNCHANGEABLE));
        }
        if n.len() == 1 && policy(new) != "SingleStack" {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                quoted_policy(new),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if primary_changed {
        errors.push(FieldError::invalid(at, ips(), UNCHANGEABLE));
    }
}

#[cfg(test)]
#[path = "service_update_tests.rs"]
mod tests;
