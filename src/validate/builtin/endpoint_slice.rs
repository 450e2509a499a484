//! EndpointSlices (discovery.k8s.io/v1), as k8s.io/kubernetes
//! pkg/apis/discovery/validation/validation.go checks them (`ValidateEndpointSlice`,
//! `ValidateEndpointSliceUpdate`): the address type, each endpoint's addresses for that type,
//! node name, hostname and zone hints, the ports.

use super::super::{FieldError, Write};
use super::endpoints::{app_protocol, dns_label, endpoint_ip, node_name, valid_ip, PORT_PROTOCOLS};
use super::fields::{items, present, text};
use super::netaddr::parse_ip;
use super::service_ip::is_v4;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `supportedAddressTypes` as `sets.String.List` prints it (sorted).
const ADDRESS_TYPES: &[&str] = &["FQDN", "IPv4", "IPv6"];
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const MAX_ENDPOINTS: usize = 1000;
const MAX_ZONE_HINTS: usize = 8;
/// `maxNodeHints` (the API reference: "May contain a maximum of 8 entries").
const MAX_NODE_HINTS: usize = 8;
/// Releases that keep `hints.forNodes` and count it: PreferSameTrafficDistribution is alpha in
/// 1.33 (off, the field dropped) and on by default from 1.34.
const NODE_HINTS: VersionRange = VersionRange::since(34);
/// 1.33 drops `forNodes` (gate off) unless the stored slice has some (`dropDisabledFieldsOnUpdate`).
const NODE_HINTS_KEPT_IF_STORED: VersionRange = VersionRange {
    since: Some(33),
    until: Some(33),
};
/// `ValidateEndpointSlice` from 1.33 (kubernetes ba189de7): ports, then the endpoints, whose
/// errors an update that keeps them unchanged does not get.
const ENDPOINTS_LAST: VersionRange = VersionRange::since(33);

/// Whether any endpoint of a slice has node hints.
fn has_node_hints(slice: &Value) -> bool {
    items(slice.get("endpoints")).iter().any(|e| {
        e.get_path(&["hints", "forNodes"])
            .is_some_and(|n| !n.is_null())
    })
}

/// How an IPv4 or IPv6 address is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressRule {
    /// Until 1.32: apimachinery's `IsValidIPv4Address` / `IsValidIPv6Address` (`must be a valid
    /// IPv4 address`), then `ValidateEndpointIP` whatever the first said, so an unparsable
    /// address is reported twice.
    FamilyThenSpecial,
    /// From 1.33 (kubernetes ba189de7, "Slightly improve EndpointSlice address validation"): a
    /// valid IP first and nothing else when it is not; then the family (`must be an IPv4
    /// address`, reported at the `addresses` list, not the item) and the special ranges.
    IpThenFamily,
}

const ADDRESS_RULES: &[(VersionRange, AddressRule)] = &[
    (VersionRange::until(32), AddressRule::FamilyThenSpecial),
    (VersionRange::since(33), AddressRule::IpThenFamily),
];

fn address_rule(version: KubeVersion) -> AddressRule {
    version.pick(ADDRESS_RULES)
}

/// `ValidateEndpointSliceCreate` / `ValidateEndpointSliceUpdate` after the metadata.
pub fn endpoint_slice(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let address_type = text(object, "addressType");
    if address_type.is_empty() {
        errors.push(FieldError::required("addressType", ""));
    } else if !ADDRESS_TYPES.contains(&address_type) {
        errors.push(FieldError::not_supported(
            "addressType",
            FieldError::string_value(address_type),
            ADDRESS_TYPES,
        ));
    }
    let version = w.version();
    let node_hints = NODE_HINTS.contains(version)
        || (NODE_HINTS_KEPT_IF_STORED.contains(version) && w.live.is_some_and(has_node_hints));
    let mut endpoint_errors = Vec::new();
    endpoints(
        object,
        address_type,
        version,
        node_hints,
        &mut endpoint_errors,
    );
    // From 1.33 the endpoints come last, and an update that leaves them as they were stored
    // is not held to rules older releases did not have (`Semantic.DeepEqual` of the lists).
    if ENDPOINTS_LAST.contains(version) {
        ports(object, version, errors);
        let unchanged = w.live.is_some_and(|old| {
            let list = |v: &Value| items(v.get("endpoints")).to_vec();
            list(old) == list(object)
        });
        if !unchanged {
            errors.append(&mut endpoint_errors);
        }
    } else {
        errors.append(&mut endpoint_errors);
        ports(object, version, errors);
    }
    if let Some(old) = w.live {
        // `ValidateImmutableField`.
        if text(old, "addressType") != address_type {
            errors.push(FieldError::invalid(
                "addressType",
                FieldError::string_value(address_type),
                "field is immutable",
            ));
        }
    }
}

/// `validateEndpoints`: at most 1000 (then nothing else), each with 1–100 addresses valid for
/// the slice's address type (an unknown type's are not checked), node name, hostname, hints.
fn endpoints(
    object: &Value,
    address_type: &str,
    version: KubeVersion,
    node_hints: bool,
    errors: &mut Vec<FieldError>,
) {
    let list = items(object.get("endpoints"));
    if list.len() > MAX_ENDPOINTS {
        errors.push(FieldError::too_many(
            "endpoints",
            list.len(),
            MAX_ENDPOINTS,
            version,
        ));
        return;
    }
    for (i, endpoint) in list.iter().enumerate() {
        let at = indexed("endpoints", i);
        let addresses_at = join(&at, ".addresses");
        let addresses = items(endpoint.get("addresses"));
        if addresses.is_empty() {
            errors.push(FieldError::required(
                &addresses_at,
                "must contain at least 1 address",
            ));
        } else if addresses.len() > MAX_ADDRESSES {
            errors.push(FieldError::too_many(
                &addresses_at,
                addresses.len(),
                MAX_ADDRESSES,
                version,
            ));
        }
        for (j, address) in addresses.iter().enumerate() {
            let address = address.as_str().unwrap_or("");
            let item_at = indexed(&addresses_at, j);
            match address_type {
                "IPv4" | "IPv6" => ip_address(
                    address,
                    address_type,
                    &addresses_at,
                    &item_at,
                    version,
                    errors,
                ),
                "FQDN" => fqdn(address, &item_at, errors),
                _ => {}
            }
        }
        if let Some(Value::String(node)) = present(endpoint, "nodeName") {
            node_name(node, &join(&at, ".nodeName"), errors);
        }
        if let Some(Value::String(hostname)) = present(endpoint, "hostname") {
            dns_label(hostname, &join(&at, ".hostname"), errors);
        }
        if let Some(hints) = present(endpoint, "hints") {
            endpoint_hints(hints, &join(&at, ".hints"), version, node_hints, errors);
        }
    }
}

/// An address of an `IPv4` or `IPv6` slice, per [`AddressRule`].
fn ip_address(
    address: &str,
    family: &str,
    list_at: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    // netutils `IsIPv4String` / `IsIPv6String`: an IPv4-mapped IPv6 address counts as IPv4.
    let wanted = |ip: &str| parse_ip(ip).is_some_and(|p| is_v4(&p) == (family == "IPv4"));
    match address_rule(version) {
        AddressRule::FamilyThenSpecial => {
            if !wanted(address) {
                errors.push(FieldError::invalid(
                    at,
                    FieldError::string_value(address),
                    format!("must be a valid {family} address"),
                ));
            }
            endpoint_ip(address, at, errors);
        }
        AddressRule::IpThenFamily => {
            if !valid_ip(address, at, version, &[], errors) {
                return;
            }
            if !wanted(address) {
                errors.push(FieldError::invalid(
                    list_at,
                    FieldError::string_value(address),
                    format!("must be an {family} address"),
                ));
            }
            endpoint_ip(address, at, errors);
        }
    }
}

/// apimachinery `IsFullyQualifiedDomainName`: required; without a trailing dot a DNS subdomain
/// (its messages joined by a comma, quoting the name without the dot); at least two labels;
/// the first label that is no DNS label (quoting that label).
fn fqdn(address: &str, at: &str, errors: &mut Vec<FieldError>) {
    if address.is_empty() {
        errors.push(FieldError::required(at, ""));
        return;
    }
    let name = address.strip_suffix('.').unwrap_or(address);
    let msgs = super::super::formats::dns1123_subdomain(name);
    if !msgs.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            msgs.join(","),
        ));
        return;
    }
    if name.split('.').count() < 2 {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            "should be a domain with at least two segments separated by dots",
        ));
        return;
    }
    for label in name.split('.') {
        let msgs = super::super::formats::dns1123_label(label);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                at,
                FieldError::string_value(label),
                msgs.join(","),
            ));
            return;
        }
    }
}

/// `validateHints`: at most 8 zones (then nothing else), names unique and label values; then,
/// where the field is kept (`node_hints`), at most 8 nodes (then nothing else), each name unique
/// and a node name (a DNS subdomain), as kubernetes#130844 (KEP-3015, PreferSameNode) adds it to
/// pkg/apis/discovery/validation/validation.go; the same in 1.33–1.37.
fn endpoint_hints(
    hints: &Value,
    at: &str,
    version: KubeVersion,
    node_hints: bool,
    errors: &mut Vec<FieldError>,
) {
    let zones_at = join(at, ".forZones");
    let zones = items(hints.get("forZones"));
    if zones.len() > MAX_ZONE_HINTS {
        errors.push(FieldError::too_many(
            &zones_at,
            zones.len(),
            MAX_ZONE_HINTS,
            version,
        ));
        return;
    }
    zone_names(zones, &zones_at, version, errors);
    if !node_hints {
        return;
    }
    let nodes_at = join(at, ".forNodes");
    let nodes = items(hints.get("forNodes"));
    if nodes.len() > MAX_NODE_HINTS {
        errors.push(FieldError::too_many(
            nodes_at,
            nodes.len(),
            MAX_NODE_HINTS,
            version,
        ));
        return;
    }
    let mut seen = HashSet::new();
    for (i, node) in nodes.iter().enumerate() {
        let name = text(node, "name");
        let name_at = join(&indexed(&nodes_at, i), ".name");
        if !seen.insert(name) {
            errors.push(FieldError::duplicate(
                &name_at,
                FieldError::string_value(name),
            ));
        }
        node_name(name, &name_at, errors);
    }
}

/// The zone hints' names: unique, label values.
fn zone_names(zones: &[Value], at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    for (i, zone) in zones.iter().enumerate() {
        let name = text(zone, "name");
        let name_at = join(&indexed(at, i), ".name");
        if !seen.insert(name) {
            errors.push(FieldError::duplicate(
                &name_at,
                FieldError::string_value(name),
            ));
        }
        for msg in super::super::formats::label_value(name, version) {
            errors.push(FieldError::invalid(
                &name_at,
                FieldError::string_value(name),
                msg,
            ));
        }
    }
}

/// `validatePorts`: at most 20000 (then nothing else); names DNS labels and unique (the
/// empty name too); `protocol` required and `SCTP`/`TCP`/`UDP`; `appProtocol` a qualified
/// name. The port number is not checked.
fn ports(object: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let list = items(object.get("ports"));
    if list.len() > MAX_PORTS {
        errors.push(FieldError::too_many(
            "ports",
            list.len(),
            MAX_PORTS,
            version,
        ));
        return;
    }
    let mut names = HashSet::new();
    for (i, port) in list.iter().enumerate() {
        let at = indexed("ports", i);
        let name = text(port, "name");
        if !name.is_empty() {
            dns_label(name, &join(&at, ".name"), errors);
        }
        if !names.insert(name) {
            errors.push(FieldError::duplicate(
                join(&at, ".name"),
                FieldError::string_value(name),
            ));
        }
        match present(port, "protocol") {
            None => errors.push(FieldError::required(join(&at, ".protocol"), "")),
            Some(p) => {
                let protocol = p.as_str().unwrap_or("");
                if !PORT_PROTOCOLS.contains(&protocol) {
                    errors.push(FieldError::not_supported(
                        join(&at, ".protocol"),
                        FieldError::string_value(protocol),
                        PORT_PROTOCOLS,
                    ));
                }
            }
        }
        app_protocol(port, &join(&at, ".appProtocol"), version, errors);
    }
}

#[cfg(test)]
#[path = "endpoint_slice_tests.rs"]
mod tests;
