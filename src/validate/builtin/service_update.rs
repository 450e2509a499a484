//! A Service write as the registry prepares it for validation, and the rules of
//! `ValidateServiceUpdate` that compare it with the stored Service.
//!
//! Before validation the service registry fills in what the client left out and the strategy
//! wipes the fields a type change made pointless ([`crate::kube::service_prepare`]); between the
//! two the allocator settles the IP family fields (`alloc.go` `initIPFamilyFields`,
//! [`allocate_families`]). The rules afterwards are pkg/apis/core/validation's
//! `validateUpgradeDowngradeClusterIPs`, `validateUpgradeDowngradeIPFamilies`,
//! `validateLoadBalancerClassField` and `validateServiceExternalTrafficFieldsUpdate`.

use super::super::{BadValue, FieldError};
use super::fields::{present, set, text};
use super::service_ip::family_of;
use super::service_lb;
use crate::kube::service_prepare::{
    health_check_node_port, needs_cluster_ip, needs_health_check, policy, string_list, strings,
};
use crate::kube::KubeVersion;
use crate::value::Value;

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
