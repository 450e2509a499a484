//! EndpointSlice rules on small slices: which errors, in which order, per version.

use super::super::tests::refusal;

const SLICE: &str = r#"{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice",
  "metadata":{"name":"fred","namespace":"blee"},
  "addressType":"IPv4",
  "endpoints":[{"addresses":["172.20.0.2"],"conditions":{"ready":true},"nodeName":"n-1",
    "hints":{"forZones":[{"name":"zone-a"}]}}],
  "ports":[{"name":"peer-service","port":4244,"protocol":"TCP"}]}"#;

const PREFIX: &str = "The EndpointSlice \"fred\" is invalid: ";

#[track_caller]
fn refused(object: &str, minor: u8) -> String {
    let msg = refusal(object, None, minor).expect("refused");
    msg.strip_prefix(PREFIX).unwrap().to_string()
}

#[test]
fn a_valid_slice_passes() {
    for minor in [30, 33, 37] {
        assert_eq!(refusal(SLICE, None, minor), None);
    }
    let fqdn = SLICE
        .replace(r#""IPv4""#, r#""FQDN""#)
        .replace("172.20.0.2", "example.com.");
    assert_eq!(refusal(&fqdn, None, 37), None);
    let v6 = SLICE
        .replace(r#""IPv4""#, r#""IPv6""#)
        .replace("172.20.0.2", "2001:db8::1");
    assert_eq!(refusal(&v6, None, 37), None);
}

#[test]
fn the_address_type_is_required_and_known() {
    let bad = SLICE.replace(r#""addressType":"IPv4","#, r#""addressType":"IP","#);
    assert_eq!(
        refused(&bad, 37),
        "addressType: Unsupported value: \"IP\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""
    );
}

#[test]
fn address_checks_changed_in_1_33() {
    let v6_in_v4 = SLICE.replace("172.20.0.2", "2001:db8::1");
    assert_eq!(
        refused(&v6_in_v4, 32),
        "endpoints[0].addresses[0]: Invalid value: \"2001:db8::1\": must be a valid IPv4 address"
    );
    assert_eq!(
        refused(&v6_in_v4, 33),
        "endpoints[0].addresses: Invalid value: \"2001:db8::1\": must be an IPv4 address"
    );
    let garbage = SLICE.replace("172.20.0.2", "172.20.0");
    assert_eq!(
        refused(&garbage, 32),
        "\n* endpoints[0].addresses[0]: Invalid value: \"172.20.0\": must be a valid IPv4 address\n* endpoints[0].addresses[0]: Invalid value: \"172.20.0\": must be a valid IP address"
    );
    assert_eq!(
        refused(&garbage, 37),
        "endpoints[0].addresses[0]: Invalid value: \"172.20.0\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
    );
    let loopback = SLICE.replace("172.20.0.2", "127.0.0.1");
    for minor in [30, 37] {
        assert_eq!(
            refused(&loopback, minor),
            "endpoints[0].addresses[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"
        );
    }
}

#[test]
fn fqdn_addresses_are_domains() {
    let fqdn = SLICE.replace(r#""IPv4""#, r#""FQDN""#);
    assert_eq!(
        refused(&fqdn.replace("172.20.0.2", "localhost"), 37),
        "endpoints[0].addresses[0]: Invalid value: \"localhost\": should be a domain with at least two segments separated by dots"
    );
    assert!(refused(&fqdn.replace("172.20.0.2", "Foo.example.com"), 37).starts_with(
        "endpoints[0].addresses[0]: Invalid value: \"Foo.example.com\": a lowercase RFC 1123 subdomain"
    ));
}

#[test]
fn endpoints_need_addresses_and_dns_names() {
    let bad = SLICE
        .replace(r#""addresses":["172.20.0.2"]"#, r#""addresses":[]"#)
        .replace(
            r#""nodeName":"n-1""#,
            r#""nodeName":"n-1","hostname":"Pod-1""#,
        );
    assert_eq!(
        refused(&bad, 37),
        "\n* endpoints[0].addresses: Required value: must contain at least 1 address\n* endpoints[0].hostname: Invalid value: \"Pod-1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    );
}

#[test]
fn zone_hints_are_unique_label_values() {
    let bad = SLICE.replace(
        r#"[{"name":"zone-a"}]"#,
        r#"[{"name":"zone-a"},{"name":"zone-a"},{"name":"us west"}]"#,
    );
    assert_eq!(
        refused(&bad, 37),
        "\n* endpoints[0].hints.forZones[1].name: Duplicate value: \"zone-a\"\n* endpoints[0].hints.forZones[2].name: Invalid value: \"us west\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
    );
    let zones: Vec<String> = (0..9).map(|i| format!(r#"{{"name":"z{i}"}}"#)).collect();
    let many = SLICE.replace(r#"[{"name":"zone-a"}]"#, &format!("[{}]", zones.join(",")));
    assert_eq!(
        refused(&many, 33),
        "endpoints[0].hints.forZones: Too many: 9: must have at most 8 items"
    );
}

#[test]
fn ports_have_unique_names_and_known_protocols() {
    let bad = SLICE.replace(
        r#"[{"name":"peer-service","port":4244,"protocol":"TCP"}]"#,
        r#"[{"name":"http","port":80,"protocol":"TCP"},{"name":"http","port":81,"protocol":"HTTP","appProtocol":"-x"}]"#,
    );
    assert_eq!(
        refused(&bad, 34),
        "\n* ports[1].name: Duplicate value: \"http\"\n* ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"\n* ports[1].appProtocol: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    );
}

#[test]
fn the_address_type_is_immutable() {
    let v6 = SLICE
        .replace(r#""IPv4""#, r#""IPv6""#)
        .replace("172.20.0.2", "2001:db8::1");
    assert_eq!(
        refusal(&v6, Some(SLICE), 36).unwrap(),
        "The EndpointSlice \"fred\" is invalid: addressType: Invalid value: \"IPv6\": field is immutable"
    );
    assert_eq!(refusal(SLICE, Some(SLICE), 37), None);
}

#[test]
fn at_most_8_node_hints_from_1_34() {
    let nodes: Vec<String> = (0..9).map(|i| format!(r#"{{"name":"n{i}"}}"#)).collect();
    let many = SLICE.replace(
        r#"[{"name":"zone-a"}]"#,
        &format!(r#"[{{"name":"zone-a"}}],"forNodes":[{}]"#, nodes.join(",")),
    );
    assert_eq!(
        refused(&many, 34),
        "endpoints[0].hints.forNodes: Too many: 9: must have at most 8 items"
    );
    // Alpha (off) in 1.33: not counted.
    assert!(refusal(&many, None, 33).is_none());
    let eight = SLICE.replace(
        r#"[{"name":"zone-a"}]"#,
        &format!(
            r#"[{{"name":"zone-a"}}],"forNodes":[{}]"#,
            nodes[..8].join(",")
        ),
    );
    assert!(refusal(&eight, None, 37).is_none());
}

#[test]
fn node_hint_names_are_unique_node_names() {
    let hints = SLICE.replace(
        r#"[{"name":"zone-a"}]"#,
        r#"[{"name":"zone-a"}],"forNodes":[{"name":"n-1"},{"name":"N_1"},{"name":"n-1"}]"#,
    );
    assert_eq!(
        refused(&hints, 37),
        "\n* endpoints[0].hints.forNodes[1].name: Invalid value: \"N_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n* endpoints[0].hints.forNodes[2].name: Duplicate value: \"n-1\""
    );
    // 1.33 drops node hints (gate off) unless the stored slice has some.
    assert!(refusal(&hints, None, 33).is_none());
    let stored = SLICE.replace(
        r#"[{"name":"zone-a"}]"#,
        r#"[{"name":"zone-a"}],"forNodes":[{"name":"n-1"}]"#,
    );
    let msg = refusal(&hints, Some(&stored), 33).expect("refused");
    assert!(msg.contains("forNodes[2].name: Duplicate value"), "{msg}");
}

#[test]
fn from_1_33_ports_come_first_and_stored_endpoints_are_not_rechecked() {
    let bad = SLICE
        .replace("\"n-1\"", "\"N_1\"")
        .replace(r#""protocol":"TCP""#, r#""protocol":"TCPP""#);
    let order = |minor| {
        let msg = refused(&bad, minor);
        msg.find("ports[0].protocol").unwrap() < msg.find("endpoints[0].nodeName").unwrap()
    };
    assert!(!order(32));
    assert!(order(33));
    let bad_node = SLICE.replace("\"n-1\"", "\"N_1\"");
    let relabelled = bad_node.replace(
        r#""namespace":"blee""#,
        r#""namespace":"blee","labels":{"a":"b"}"#,
    );
    assert!(refusal(&relabelled, Some(&bad_node), 33).is_none());
    assert!(refusal(&relabelled, Some(&bad_node), 32).is_some());
}

/// 1.37 enforces the beta declarative `immutable` rule: it replaces the handwritten error and
/// quotes no value.
#[test]
fn the_1_37_declarative_immutability_quotes_no_value() {
    let v6 = SLICE
        .replace(r#""IPv4""#, r#""IPv6""#)
        .replace("172.20.0.2", "2001:db8::1");
    assert_eq!(
        refusal(&v6, Some(SLICE), 37).unwrap(),
        "The EndpointSlice \"fred\" is invalid: addressType: Invalid value: null: field is immutable"
    );
}
