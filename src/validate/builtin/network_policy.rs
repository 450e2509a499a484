//! NetworkPolicies, as k8s.io/kubernetes pkg/apis/networking/validation checks them
//! (`ValidateNetworkPolicySpec`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`,
//! `ValidateIPBlock`, `ValidateNetworkPolicyUpdate`): the pod selector, each rule's ports and
//! peers, and the policy types.

use super::super::field::typed_value;
use super::super::formats;
use super::super::goprint::GoType;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec};
use super::selector;
use super::{ip_strict, netaddr};
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;

/// `ValidateNetworkPolicyPort`'s protocols, in its order.
const PROTOCOLS: &[&str] = &["TCP", "UDP", "SCTP"];
const POLICY_TYPES: &[&str] = &["Ingress", "Egress"];

/// Every CIDR of the stored object's ipBlocks: an update may keep them even if invalid.
fn existing_cidrs(old: &Value) -> Vec<&str> {
    let spec = spec(old);
    let mut out = Vec::new();
    for (direction, peers) in [("ingress", "from"), ("egress", "to")] {
        for rule in items(spec.get(direction)) {
            for peer in items(rule.get(peers)) {
                if let Some(block) = present(peer, "ipBlock") {
                    out.push(block.get("cidr").and_then(Value::as_str).unwrap_or(""));
                    out.extend(items(block.get("except")).iter().filter_map(Value::as_str));
                }
            }
        }
    }
    out
}

/// `NetworkPolicyValidationOptions`: what an update may keep of the stored policy.
struct Options<'a> {
    /// `AllowCIDRsEvenIfInvalid` (`ValidateNetworkPolicyUpdate`).
    cidrs: Vec<&'a str>,
    /// `AllowInvalidLabelValueInSelector` for every selector of the policy
    /// (`ValidationOptionsForNetworking`: the stored `podSelector` already broke a rule).
    selector_values: selector::Values,
}

impl<'a> Options<'a> {
    fn of(old: Option<&'a Value>, version: KubeVersion) -> Options<'a> {
        let stored_invalid = old
            .and_then(|o| spec(o).get("podSelector"))
            .is_some_and(|s| selector::is_invalid(s, version));
        Options {
            cidrs: old.map(existing_cidrs).unwrap_or_default(),
            selector_values: selector::Values::allowing_invalid_if(stored_invalid),
        }
    }
}

/// `ValidateNetworkPolicySpec` (and `ValidateNetworkPolicyUpdate`, which only adds the CIDR
/// allowance), with the options of `ValidationOptionsForNetworking`.
pub fn network_policy(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let opts = Options::of(w.live, version);
    let spec = spec(object);
    let empty = Value::Null;
    selector::validate_with(
        spec.get("podSelector").unwrap_or(&empty),
        "spec.podSelector",
        opts.selector_values,
        version,
        errors,
    );
    for (direction, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in items(spec.get(direction)).iter().enumerate() {
            let at = format!("spec.{direction}[{i}]");
            for (j, port) in items(rule.get("ports")).iter().enumerate() {
                self::port(port, &format!("{at}.ports[{j}]"), errors);
            }
            for (j, p) in items(rule.get(peers)).iter().enumerate() {
                peer(p, &format!("{at}.{peers}[{j}]"), &opts, version, errors);
            }
        }
    }
    let types = items(spec.get("policyTypes"));
    if types.len() > POLICY_TYPES.len() {
        errors.push(FieldError::invalid(
            "spec.policyTypes",
            policy_types(types),
            "may not specify more than two policyTypes",
        ));
        return;
    }
    for (i, t) in types.iter().enumerate() {
        let t = t.as_str().unwrap_or("");
        if !POLICY_TYPES.contains(&t) {
            errors.push(FieldError::not_supported(
                format!("spec.policyTypes[{i}]"),
                FieldError::string_value(t),
                POLICY_TYPES,
            ));
        }
    }
}

/// `[]networking.PolicyType` as the server quotes it.
fn policy_types(types: &[Value]) -> BadValue {
    let value = Value::List(types.iter().cloned().collect());
    let BadValue::GoValue { value, go_syntax } = typed_value(value, &GoType::StringList) else {
        unreachable!("typed_value gives a GoValue")
    };
    BadValue::GoValue {
        value,
        go_syntax: go_syntax.replacen("[]string", "[]networking.PolicyType", 1),
    }
}

/// `ValidateNetworkPolicyPort`.
fn port(port: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(protocol) = present(port, "protocol").and_then(Value::as_str) {
        if !PROTOCOLS.contains(&protocol) {
            errors.push(FieldError::not_supported(
                join(at, ".protocol"),
                FieldError::string_value(protocol),
                PROTOCOLS,
            ));
        }
    }
    let end = present(port, "endPort").and_then(Value::as_i64);
    let end_err = |errors: &mut Vec<FieldError>, n: i64, msg: String| {
        errors.push(FieldError::invalid(
            join(at, ".endPort"),
            BadValue::Value(Value::Int(n)),
            msg,
        ));
    };
    match present(port, "port") {
        Some(Value::Int(n)) => {
            for msg in formats::port_number(*n) {
                errors.push(FieldError::invalid(
                    join(at, ".port"),
                    BadValue::Value(Value::Int(*n)),
                    msg,
                ));
            }
            if let Some(e) = end {
                if e < *n {
                    // Upstream quotes the port, not the end port.
                    end_err(errors, *n, "must be greater than or equal to `port`".into());
                }
                for msg in formats::port_number(e) {
                    end_err(errors, e, msg);
                }
            }
        }
        Some(Value::String(name)) => {
            if let Some(e) = end {
                end_err(
                    errors,
                    e,
                    "may not be specified when `port` is non-numeric".into(),
                );
            }
            for msg in formats::port_name(name) {
                errors.push(FieldError::invalid(
                    join(at, ".port"),
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
        _ => {
            if let Some(e) = end {
                end_err(
                    errors,
                    e,
                    "may not be specified when `port` is not specified".into(),
                );
            }
        }
    }
}

/// `ValidateNetworkPolicyPeer`: at least one of the selectors and the ipBlock, and an ipBlock
/// alone.
fn peer(
    peer: &Value,
    at: &str,
    opts: &Options,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let mut count = 0;
    for key in ["podSelector", "namespaceSelector"] {
        if let Some(sel) = present(peer, key) {
            count += 1;
            let at = format!("{at}.{key}");
            selector::validate_with(sel, &at, opts.selector_values, version, errors);
        }
    }
    let block = present(peer, "ipBlock");
    if let Some(block) = block {
        count += 1;
        ip_block(block, &join(at, ".ipBlock"), &opts.cidrs, version, errors);
    }
    if count == 0 {
        errors.push(FieldError::required(at, "must specify a peer"));
    } else if count > 1 && block.is_some() {
        errors.push(FieldError::forbidden(
            at,
            "may not specify both ipBlock and another peer",
        ));
    }
}

/// `IsValidCIDR` until 1.32, `IsValidCIDRForLegacyField` since (CIDRs of the stored object
/// pass; the strict parse from 1.36); the lenient parse either way for what follows.
fn cidr(
    value: &str,
    path: &str,
    allowed: &[&str],
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) -> Option<netaddr::Cidr> {
    if let Some(message) = ip_strict::legacy_cidr(value, version, allowed) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            message,
        ));
    }
    netaddr::parse_cidr(value)
}

/// `ValidateIPBlock`: a CIDR, and exceptions strictly inside it.
fn ip_block(
    block: &Value,
    at: &str,
    allowed: &[&str],
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let value = block.get("cidr").and_then(Value::as_str).unwrap_or("");
    if value.is_empty() {
        errors.push(FieldError::required(join(at, ".cidr"), ""));
        return;
    }
    let Some(net) = cidr(value, &join(at, ".cidr"), allowed, version, errors) else {
        return;
    };
    for (i, except) in items(block.get("except")).iter().enumerate() {
        let except = except.as_str().unwrap_or("");
        let path = format!("{at}.except[{i}]");
        let Some(sub) = cidr(except, &path, allowed, version, errors) else {
            continue;
        };
        if !net.contains(&sub.network)
            || net.prefix >= sub.prefix
            || net.network.v4 != sub.network.v4
        {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(except),
                "must be a strict subset of `cidr`",
            ));
        }
    }
}
