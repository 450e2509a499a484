//! Warnings for IP addresses and CIDR values in non-standard forms: apimachinery's
//! `GetWarningsForIP` and `GetWarningsForCIDR` (pkg/util/validation/ip.go, added in 1.33 with
//! every call site at once), and the Service's own helpers they replaced
//! (`getWarningsForIP`, `getWarningsForCIDR` of pkg/api/service/warnings.go, 1.30–1.32), which
//! print the errors of Go's `net/netip` parsers.

use super::super::ip_strict::{go_ip_string, has_leading_zero_octet, is_4in6};
use super::super::netaddr::{parse_cidr, parse_ip, Ip};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::goprint::go_quote;
use std::net::Ipv6Addr;

/// The releases with apimachinery's `GetWarningsForIP` / `GetWarningsForCIDR` (and their call
/// sites in the Service, Endpoints, EndpointSlice, Node, NetworkPolicy, Ingress and Pod
/// strategies).
const APIMACHINERY_WARNINGS: VersionRange = VersionRange::since(33);

/// Until 1.35 the non-standard forms "will be considered invalid in a future Kubernetes
/// release"; from 1.36 (StrictIPCIDRValidation on) they are invalid in strictly validated
/// fields, and the text says so.
const NOT_YET_INVALID: VersionRange = VersionRange::until(35);

/// The Go toolchains of 1.30 and 1.31 (go1.22) nest the error of an IPv6 address's IPv4 tail
/// (`parseIPv6` wrapping `parseIPv4`'s error, `at` the tail); later ones report it directly.
const NESTED_TAIL_ERROR: VersionRange = VersionRange::until(31);

/// `GetWarningsForIP`: a value the lenient parser reads, but with leading zeros or as an
/// IPv4-mapped IPv6 address (its preferred form suggested), or IPv6 not in RFC 5952 form.
/// Nothing before 1.33, or for a value that is no IP address (upstream only logs it).
pub fn ip(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    if !APIMACHINERY_WARNINGS.contains(version) {
        return;
    }
    let Some(addr) = parse_ip(value) else {
        return;
    };
    // `netip.ParseAddr` refuses only the leading zeros the lenient parser allows.
    if has_leading_zero_octet(value) || is_4in6(&addr) {
        out.push(format!(
            "{at}: non-standard IP address {} {}: use {}",
            go_quote(value),
            invalid_wording(version),
            go_quote(&go_ip_string(&addr))
        ));
    } else if !addr.v4 {
        let canonical = go_ip_string(&addr);
        if canonical != value {
            out.push(format!(
                "{at}: IPv6 address {} should be in RFC 5952 canonical format ({})",
                go_quote(value),
                go_quote(&canonical)
            ));
        }
    }
}

/// `GetWarningsForCIDR`: bits set past the prefix length (ambiguous between the subnet and
/// the single address), then leading zeros or an IPv4-mapped address, and only when neither
/// applies IPv6 not in RFC 5952 form. Nothing before 1.33 or for a value that does not parse.
pub fn cidr(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    if !APIMACHINERY_WARNINGS.contains(version) {
        return;
    }
    let Some(net) = parse_cidr(value) else {
        return;
    };
    let (addr_text, bits_text) = value.split_once('/').unwrap_or((value, ""));
    let Some(addr) = parse_ip(addr_text) else {
        return;
    };
    let before = out.len();
    if addr != net.network {
        let family_bits = if addr.v4 { 32 } else { 128 };
        out.push(format!(
            "{at}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            go_quote(value),
            go_quote(&go_ipnet_string(&net.network, net.prefix)),
            go_quote(&format!("{}/{family_bits}", go_ip_string(&addr)))
        ));
    }
    // `netip.ParsePrefix` refuses leading zeros in the address or the prefix length.
    let prefix_leading_zero = bits_text.len() > 1 && bits_text.starts_with('0');
    if has_leading_zero_octet(addr_text) || prefix_leading_zero || is_4in6(&addr) {
        out.push(format!(
            "{at}: non-standard CIDR value {} {}: use {}",
            go_quote(value),
            invalid_wording(version),
            go_quote(&go_ipnet_string(&net.network, net.prefix))
        ));
    }
    if out.len() == before && !addr.v4 {
        let canonical = format!("{}/{}", go_ip_string(&addr), net.prefix);
        if canonical != value {
            out.push(format!(
                "{at}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
                go_quote(value),
                go_quote(&canonical)
            ));
        }
    }
}

fn invalid_wording(version: KubeVersion) -> &'static str {
    if NOT_YET_INVALID.contains(version) {
        "will be considered invalid in a future Kubernetes release"
    } else {
        "is invalid"
    }
}

/// `net.IPNet.String` of a parsed network: an IPv4-mapped network prints as IPv4, its prefix
/// length counted in the last 32 bits of the mask (`networkNumberAndMask`).
fn go_ipnet_string(network: &Ip, prefix: u8) -> String {
    let bits = if is_4in6(network) {
        prefix.saturating_sub(96)
    } else {
        prefix
    };
    format!("{}/{bits}", go_ip_string(network))
}

/// The Service's `getWarningsForIP` (1.30–1.32): the `netip.ParseAddr` error of a value with
/// leading zeros, or IPv6 (IPv4-mapped included) not in netip's canonical form.
pub fn service_ip(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    let Some(addr) = parse_ip(value) else {
        return;
    };
    if has_leading_zero_octet(value) {
        out.push(format!(
            "{at}: IP address was accepted, but will be invalid in a future Kubernetes release: {}",
            parse_addr_error(value, version)
        ));
    } else if !addr.v4 {
        let canonical = netip_string(&addr);
        if canonical != value {
            out.push(format!(
                "{at}: IPv6 address {} is not in RFC 5952 canonical format ({}), which may cause controller apply-loops",
                go_quote(value),
                go_quote(&canonical)
            ));
        }
    }
}

/// The Service's `getWarningsForCIDR` (1.30–1.32): the `netip.ParsePrefix` error (leading
/// zeros in the address or the prefix length), or IPv6 not in netip's canonical form (the
/// address printed as written, bits past the prefix kept).
pub fn service_cidr(at: &str, value: &str, version: KubeVersion, out: &mut Vec<String>) {
    let Some(net) = parse_cidr(value) else {
        return;
    };
    let (addr_text, bits_text) = value.split_once('/').unwrap_or((value, ""));
    let Some(addr) = parse_ip(addr_text) else {
        return;
    };
    let error = if has_leading_zero_octet(addr_text) {
        Some(parse_addr_error(addr_text, version))
    } else if bits_text.len() > 1 && bits_text.starts_with('0') {
        Some(format!("bad bits after slash: {}", go_quote(bits_text)))
    } else {
        None
    };
    if let Some(error) = error {
        out.push(format!(
            "{at}: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix({}): {error}",
            go_quote(value)
        ));
    } else if !addr.v4 {
        let canonical = format!("{}/{}", netip_string(&addr), net.prefix);
        if canonical != value {
            out.push(format!(
                "{at}: IPv6 prefix {} is not in RFC 5952 canonical format ({}), which may cause controller apply-loops",
                go_quote(value),
                go_quote(&canonical)
            ));
        }
    }
}

/// `netip.Addr.String` of an IPv6 address: IPv4-mapped ones keep their dotted tail.
fn netip_string(addr: &Ip) -> String {
    if is_4in6(addr) {
        format!("::ffff:{}", go_ip_string(addr))
    } else {
        Ipv6Addr::from(addr.bytes).to_string()
    }
}

/// `netip.ParseAddr`'s error for an address with a leading zero in an IPv4 octet (the only
/// form the lenient parser accepts and netip refuses).
fn parse_addr_error(value: &str, version: KubeVersion) -> String {
    const MSG: &str = "IPv4 field has octet with leading zero";
    match value.rfind(':') {
        Some(i) if NESTED_TAIL_ERROR.contains(version) => {
            let tail = go_quote(&value[i + 1..]);
            format!(
                "ParseAddr({}): ParseAddr({tail}): {MSG} (at {tail})",
                go_quote(value)
            )
        }
        _ => format!("ParseAddr({}): {MSG}", go_quote(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    fn ips(values: &[&str], minor: u8) -> Vec<String> {
        let mut out = Vec::new();
        for (i, value) in values.iter().enumerate() {
            ip(&format!("f[{i}]"), value, v(minor), &mut out);
        }
        out
    }

    fn cidrs(values: &[&str], minor: u8) -> Vec<String> {
        let mut out = Vec::new();
        for (i, value) in values.iter().enumerate() {
            cidr(&format!("f[{i}]"), value, v(minor), &mut out);
        }
        out
    }

    // As the 1.33 and 1.36 references print them for a Service's externalIPs and
    // loadBalancerSourceRanges.
    #[test]
    fn addresses_in_non_standard_forms() {
        let values = [
            "010.1.2.3",
            "::ffff:1.2.3.4",
            "2001:DB8::1",
            "::1.2.3.4",
            "::ffff:010.1.2.3",
            "1.2.3.4",
            "2001:db8::1",
            "x",
        ];
        assert!(ips(&values, 32).is_empty());
        assert_eq!(
            ips(&values, 33),
            [
                r#"f[0]: non-standard IP address "010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3""#,
                r#"f[1]: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4""#,
                r#"f[2]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")"#,
                r#"f[3]: IPv6 address "::1.2.3.4" should be in RFC 5952 canonical format ("::102:304")"#,
                r#"f[4]: non-standard IP address "::ffff:010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3""#,
            ]
        );
        assert_eq!(
            ips(&["010.1.2.3"], 36),
            [r#"f[0]: non-standard IP address "010.1.2.3" is invalid: use "10.1.2.3""#]
        );
    }

    #[test]
    fn cidrs_in_non_standard_forms() {
        let values = [
            "10.0.0.1/24",
            "010.0.0.0/8",
            "10.0.0.0/08",
            "2001:DB8::/64",
            "2001:db8::1/64",
            "::ffff:1.2.3.0/120",
            "::ffff:1.2.3.4/120",
            "::ffff:1.2.3.0/88",
            "::ffff:010.2.3.0/120",
            "10.0.0.0/8",
            "2001:db8::/64",
        ];
        assert!(cidrs(&values, 32).is_empty());
        assert_eq!(
            cidrs(&values, 33),
            [
                r#"f[0]: CIDR value "10.0.0.1/24" is ambiguous in this context (should be "10.0.0.0/24" or "10.0.0.1/32"?)"#,
                r#"f[1]: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8""#,
                r#"f[2]: non-standard CIDR value "10.0.0.0/08" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8""#,
                r#"f[3]: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")"#,
                r#"f[4]: CIDR value "2001:db8::1/64" is ambiguous in this context (should be "2001:db8::/64" or "2001:db8::1/128"?)"#,
                r#"f[5]: non-standard CIDR value "::ffff:1.2.3.0/120" will be considered invalid in a future Kubernetes release: use "1.2.3.0/24""#,
                r#"f[6]: CIDR value "::ffff:1.2.3.4/120" is ambiguous in this context (should be "1.2.3.0/24" or "1.2.3.4/128"?)"#,
                r#"f[6]: non-standard CIDR value "::ffff:1.2.3.4/120" will be considered invalid in a future Kubernetes release: use "1.2.3.0/24""#,
                r#"f[7]: CIDR value "::ffff:1.2.3.0/88" is ambiguous in this context (should be "::ff00:0:0/88" or "1.2.3.0/128"?)"#,
                r#"f[7]: non-standard CIDR value "::ffff:1.2.3.0/88" will be considered invalid in a future Kubernetes release: use "::ff00:0:0/88""#,
                r#"f[8]: non-standard CIDR value "::ffff:010.2.3.0/120" will be considered invalid in a future Kubernetes release: use "10.2.3.0/24""#,
            ]
        );
    }

    // As the 1.30 (go1.22) and 1.32 (go1.24) references print them.
    #[test]
    fn the_services_own_helpers_before_1_33() {
        let mut out = Vec::new();
        for (i, value) in ["010.1.2.3", "2001:DB8::1", "::1.2.3.4", "::ffff:010.1.2.3"]
            .iter()
            .enumerate()
        {
            service_ip(&format!("ip[{i}]"), value, v(30), &mut out);
        }
        service_ip("ip[4]", "::ffff:010.1.2.3", v(32), &mut out);
        service_ip("ip[5]", "::ffff:1.2.3.4", v(32), &mut out);
        for (i, value) in [
            "010.0.0.0/8",
            "10.0.0.0/08",
            "2001:DB8::/64",
            "10.0.0.1/24",
            "::ffff:1.2.3.0/120",
        ]
        .iter()
        .enumerate()
        {
            service_cidr(&format!("net[{i}]"), value, v(31), &mut out);
        }
        service_cidr("net[5]", "::ffff:010.2.3.0/120", v(30), &mut out);
        service_cidr("net[6]", "::ffff:010.2.3.0/120", v(32), &mut out);
        assert_eq!(
            out,
            [
                r#"ip[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("010.1.2.3"): IPv4 field has octet with leading zero"#,
                r#"ip[1]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops"#,
                r#"ip[2]: IPv6 address "::1.2.3.4" is not in RFC 5952 canonical format ("::102:304"), which may cause controller apply-loops"#,
                r#"ip[3]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("::ffff:010.1.2.3"): ParseAddr("010.1.2.3"): IPv4 field has octet with leading zero (at "010.1.2.3")"#,
                r#"ip[4]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("::ffff:010.1.2.3"): IPv4 field has octet with leading zero"#,
                r#"net[0]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero"#,
                r#"net[1]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#,
                r#"net[2]: IPv6 prefix "2001:DB8::/64" is not in RFC 5952 canonical format ("2001:db8::/64"), which may cause controller apply-loops"#,
                r#"net[5]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("::ffff:010.2.3.0/120"): ParseAddr("::ffff:010.2.3.0"): ParseAddr("010.2.3.0"): IPv4 field has octet with leading zero (at "010.2.3.0")"#,
                r#"net[6]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("::ffff:010.2.3.0/120"): ParseAddr("::ffff:010.2.3.0"): IPv4 field has octet with leading zero"#,
            ]
        );
    }
}
