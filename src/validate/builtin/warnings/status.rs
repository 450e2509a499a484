//! The warnings of the status strategies (`WarningsOnUpdate` of `podStatusStrategy`,
//! `serviceStatusStrategy` and `ingressStatusStrategy` in k8s.io/kubernetes pkg/registry):
//! from 1.33, `GetWarningsForIP` of a Pod's `podIPs` and `hostIPs` and of the load-balancer
//! ingress IPs of Services and Ingresses. Before 1.33 these strategies return none.

use super::super::super::Write;
use super::super::fields::{items, text};
use super::ip;
use crate::value::Value;

fn status(object: &Value) -> &Value {
    object.get("status").unwrap_or(&Value::Null)
}

/// Pod status: each `podIPs[i].ip`, then each `hostIPs[i].ip`.
pub fn pod(w: &Write, object: &Value, out: &mut Vec<String>) {
    for key in ["podIPs", "hostIPs"] {
        for (i, entry) in items(status(object).get(key)).iter().enumerate() {
            let at = format!("status.{key}[{i}].ip");
            ip::ip(&at, text(entry, "ip"), w.version(), out);
        }
    }
}

/// Service and Ingress status: each set `loadBalancer.ingress[i].ip`, reported at the entry.
pub fn load_balancer(w: &Write, object: &Value, out: &mut Vec<String>) {
    let ingress = status(object)
        .get("loadBalancer")
        .and_then(|lb| lb.get("ingress"));
    for (i, entry) in items(ingress).iter().enumerate() {
        let address = text(entry, "ip");
        if !address.is_empty() {
            let at = format!("status.loadBalancer.ingress[{i}]");
            ip::ip(&at, address, w.version(), out);
        }
    }
}
