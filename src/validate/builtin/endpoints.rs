//! Endpoints (core/v1), as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidateEndpoints`, `validateEndpointSubsets`, `validateEndpointAddress`,
//! `validateEndpointPort`), and the endpoint IP rule EndpointSlices share with them.

use super::super::{formats, BadValue, FieldError, Write};
use super::fields::{items, present, text};
use super::ip_strict;
use super::netaddr::parse_ip;
use super::service_ip::special;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `supportedPortProtocols` as `sets.List` prints it (sorted).
pub(super) const PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

/// `ValidateEndpointIP` (`ValidateNonSpecialIP` in some releases; same messages): an address
/// that does not parse, then the unspecified, loopback, link-local and link-local multicast
/// ranges, each refused in turn.
pub(super) fn endpoint_ip(ip: &str, path: &str, errors: &mut Vec<FieldError>) {
    let invalid = |detail: String| FieldError::invalid(path, FieldError::string_value(ip), detail);
    let Some(parsed) = parse_ip(ip) else {
        errors.push(invalid("must be a valid IP address".into()));
        return;
    };
    for detail in special(&parsed) {
        errors.push(invalid(detail.replace("{ip}", ip)));
    }
}

/// `validation.IsValidIP` before 1.33, `IsValidIPForLegacyField` since (the strict parse
/// from 1.36; `stored` the update's `validOldIPs`): one message at most.
pub(super) fn valid_ip(
    ip: &str,
    path: &str,
    version: KubeVersion,
    stored: &[&str],
    errors: &mut Vec<FieldError>,
) -> bool {
    let Some(message) = ip_strict::legacy_ip(ip, version, stored) else {
        return true;
    };
    errors.push(FieldError::invalid(
        path,
        FieldError::string_value(ip),
        message,
    ));
    false
}

/// `ValidateDNS1123Label` of `value` at `path`.
pub(super) fn dns_label(value: &str, path: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_label(value) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `ValidateNodeName(name, false)`: a DNS subdomain.
pub(super) fn node_name(value: &str, path: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_subdomain(value) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `ValidateQualifiedName` of an `appProtocol`.
pub(super) fn app_protocol(
    port: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(Value::String(proto)) = present(port, "appProtocol") else {
        return;
    };
    for msg in formats::label_key(proto, version) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(proto),
            msg,
        ));
    }
}

/// `ValidateEndpointsCreate` / `ValidateEndpointsUpdate` after the metadata: every subset.
/// (`ValidateEndpointsSpecificAnnotations` checks nothing.)
pub fn endpoints(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let mut subset_errors = Vec::new();
    subsets(w, object, &mut subset_errors);
    // From 1.33 an update that leaves the subsets as stored gets none of their errors
    // (`ValidateEndpoints`: `Semantic.DeepEqual` of the old and new subsets).
    let unchanged = SUBSETS_RATCHET.contains(w.version())
        && w.live.is_some_and(|old| {
            items(old.get("subsets")).to_vec() == items(object.get("subsets")).to_vec()
        });
    if !unchanged {
        errors.append(&mut subset_errors);
    }
}

/// `ValidateEndpoints`' ratchet of stored subsets (kubernetes ba189de7, 1.33).
const SUBSETS_RATCHET: VersionRange = VersionRange::since(33);

/// `validateEndpointSubsets`.
fn subsets(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    for (i, subset) in items(object.get("subsets")).iter().enumerate() {
        let at = indexed("subsets", i);
        let addresses = items(subset.get("addresses"));
        let not_ready = items(subset.get("notReadyAddresses"));
        if addresses.is_empty() && not_ready.is_empty() {
            errors.push(FieldError::required(
                &at,
                "must specify `addresses` or `notReadyAddresses`",
            ));
        }
        for (key, list) in [("addresses", addresses), ("notReadyAddresses", not_ready)] {
            let list_at = join(&at, &format!(".{key}"));
            for (j, address) in list.iter().enumerate() {
                endpoint_address(address, &indexed(&list_at, j), w.version(), errors);
            }
        }
        let ports = items(subset.get("ports"));
        for (j, port) in ports.iter().enumerate() {
            endpoint_port(
                port,
                ports.len() > 1,
                &indexed(&join(&at, ".ports"), j),
                w.version(),
                errors,
            );
        }
    }
}

/// `validateEndpointAddress`: the IP (parsed, then not special: an unparsable IP is reported
/// twice, as upstream does), hostname, node name.
fn endpoint_address(address: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let ip = text(address, "ip");
    let ip_at = join(at, ".ip");
    valid_ip(ip, &ip_at, version, &[], errors);
    let hostname = text(address, "hostname");
    if !hostname.is_empty() {
        dns_label(hostname, &join(at, ".hostname"), errors);
    }
    if let Some(Value::String(node)) = present(address, "nodeName") {
        node_name(node, &join(at, ".nodeName"), errors);
    }
    endpoint_ip(ip, &ip_at, errors);
}

/// `validateEndpointPort`: names required when there are several ports, DNS labels; the port
/// number; the protocol; `appProtocol`.
fn endpoint_port(
    port: &Value,
    require_name: bool,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let name = text(port, "name");
    if require_name && name.is_empty() {
        errors.push(FieldError::required(join(at, ".name"), ""));
    } else if !name.is_empty() {
        dns_label(name, &join(at, ".name"), errors);
    }
    let number = match port.get("port") {
        Some(Value::Int(n)) => *n,
        None | Some(Value::Null) => 0,
        // Not an integer: the decoder's to refuse.
        Some(_) => 1,
    };
    for msg in formats::port_number(number) {
        errors.push(FieldError::invalid(
            join(at, ".port"),
            BadValue::Value(Value::Int(number)),
            msg,
        ));
    }
    let protocol = text(port, "protocol");
    if protocol.is_empty() {
        errors.push(FieldError::required(join(at, ".protocol"), ""));
    } else if !PORT_PROTOCOLS.contains(&protocol) {
        errors.push(FieldError::not_supported(
            join(at, ".protocol"),
            FieldError::string_value(protocol),
            PORT_PROTOCOLS,
        ));
    }
    app_protocol(port, &join(at, ".appProtocol"), version, errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const ENDPOINTS: &str = r#"{"apiVersion":"v1","kind":"Endpoints",
      "metadata":{"name":"solrcloud","namespace":"default"},
      "subsets":[{"addresses":[{"ip":"172.20.10.97","nodeName":"n-1"}],
        "ports":[{"name":"solr-http","port":8080,"protocol":"TCP"},{"name":"solr-node","port":8983,"protocol":"UDP"}]}]}"#;

    #[test]
    fn valid_endpoints_pass() {
        assert_eq!(refusal(ENDPOINTS, None, 37), None);
        assert_eq!(refusal(ENDPOINTS, None, 30), None);
    }

    #[test]
    fn addresses_must_be_ordinary_ips() {
        let bad = ENDPOINTS.replace("172.20.10.97", "127.0.0.1");
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The Endpoints \"solrcloud\" is invalid: subsets[0].addresses[0].ip: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"
        );
        let garbage = ENDPOINTS.replace("172.20.10.97", "172.20.10");
        assert_eq!(
            refusal(&garbage, None, 37).unwrap(),
            "The Endpoints \"solrcloud\" is invalid: \n* subsets[0].addresses[0].ip: Invalid value: \"172.20.10\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n* subsets[0].addresses[0].ip: Invalid value: \"172.20.10\": must be a valid IP address"
        );
    }

    #[test]
    fn subsets_need_addresses_and_named_ports() {
        let bad = ENDPOINTS
            .replace(
                r#""addresses":[{"ip":"172.20.10.97","nodeName":"n-1"}],"#,
                "",
            )
            .replace(r#""name":"solr-http","port":8080"#, r#""port":0"#)
            .replace(r#""protocol":"UDP""#, r#""protocol":"HTTP""#);
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The Endpoints \"solrcloud\" is invalid: \n* subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`\n* subsets[0].ports[0].name: Required value\n* subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive\n* subsets[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
        );
    }

    #[test]
    fn node_names_and_hostnames_are_dns_names() {
        let bad = ENDPOINTS.replace(
            r#""nodeName":"n-1""#,
            r#""nodeName":"N_1","hostname":"a.b""#,
        );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The Endpoints \"solrcloud\" is invalid: \n* subsets[0].addresses[0].hostname: Invalid value: \"a.b\": must not contain dots\n* subsets[0].addresses[0].nodeName: Invalid value: \"N_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
    }
}
