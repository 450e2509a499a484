//! apimachinery's strict IP and CIDR formats (pkg/util/validation/ip.go `IsValidIP`,
//! `IsValidCIDR`, v0.33–v0.37): what the lenient parsers accept, without leading zeros or
//! IPv4-mapped IPv6 addresses, and written in Go's canonical form (`net.IP.String`).

use super::netaddr::{parse_cidr, parse_ip, Ip};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::goprint::go_quote;
use std::net::{Ipv4Addr, Ipv6Addr};

pub const INVALID_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
pub const INVALID_CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// The messages of `IsValidIP` for `value`, in its order.
pub fn ip_messages(value: &str) -> Vec<String> {
    let Some(ip) = parse_ip(value) else {
        return vec![INVALID_IP.into()];
    };
    if let Some(problem) = strict_ip_problem(value, &ip) {
        return vec![problem.into()];
    }
    let canonical = go_ip_string(&ip);
    if canonical != value {
        return vec![format!(
            "must be in canonical form ({})",
            go_quote(&canonical)
        )];
    }
    Vec::new()
}

/// What the strict parse (`parseIP` with `strictValidation`) refuses in an address the
/// lenient parser read as `ip`. `netip.ParseAddr` fails only on the leading zeros the lenient
/// parser allows; a failed parse yields the zero address, which is not IPv4-mapped.
fn strict_ip_problem(value: &str, ip: &Ip) -> Option<&'static str> {
    if has_leading_zero_octet(value) {
        Some("must not have leading 0s")
    } else if is_4in6(ip) {
        Some("must not be an IPv4-mapped IPv6 address")
    } else {
        None
    }
}

/// What the strict parse (`parseCIDR` with `strictValidation`) refuses in a CIDR value the
/// lenient parser accepts: `netip.ParsePrefix`, then the address checks in its order.
fn strict_cidr_problem(value: &str) -> Option<&'static str> {
    let cidr = parse_cidr(value)?;
    let (addr, len) = value.split_once('/').unwrap_or((value, ""));
    if has_leading_zero_octet(addr) || (len.len() > 1 && len.starts_with('0')) {
        Some("must not have leading 0s in IP or prefix length")
    } else if parse_ip(addr).is_some_and(|ip| is_4in6(&ip)) {
        Some("must not have an IPv4-mapped IPv6 address")
    } else if parse_ip(addr).is_some_and(|ip| ip != cidr.network) {
        Some("must not have bits set beyond the prefix length")
    } else {
        None
    }
}

/// StrictIPCIDRValidation: alpha and off in 1.33–1.35, beta and on by default from 1.36
/// (pkg/features/kube_features.go). When on, the fields validated before strict parsing
/// existed (`IsValidIPForLegacyField`, `IsValidCIDRForLegacyField` in
/// pkg/apis/core/validation) refuse what the strict parse refuses.
const STRICT_LEGACY_FIELDS: VersionRange = VersionRange::since(36);
/// Those two functions (1.33–) accept any value the stored object already holds
/// (`validOldIPs`, `validOldCIDRs`), even one the lenient parse refuses; before 1.33 the
/// fields were checked with `IsValidIP` / `IsValidCIDR` alone.
const STORED_VALUES_KEPT: VersionRange = VersionRange::since(33);

/// The message `IsValidIPForLegacyField` gives for `value`, if any: the lenient parse's, then
/// the strict parse's from 1.36; `stored` lists the update's `validOldIPs`.
pub fn legacy_ip(value: &str, version: KubeVersion, stored: &[&str]) -> Option<&'static str> {
    if STORED_VALUES_KEPT.contains(version) && stored.contains(&value) {
        return None;
    }
    let Some(ip) = parse_ip(value) else {
        return Some(INVALID_IP);
    };
    STRICT_LEGACY_FIELDS
        .contains(version)
        .then(|| strict_ip_problem(value, &ip))
        .flatten()
}

/// [`legacy_ip`] for CIDR values (`IsValidCIDRForLegacyField`, `validOldCIDRs`).
pub fn legacy_cidr(value: &str, version: KubeVersion, stored: &[&str]) -> Option<&'static str> {
    if STORED_VALUES_KEPT.contains(version) && stored.contains(&value) {
        return None;
    }
    if parse_cidr(value).is_none() {
        return Some(INVALID_CIDR);
    }
    STRICT_LEGACY_FIELDS
        .contains(version)
        .then(|| strict_cidr_problem(value))
        .flatten()
}

/// The messages of `IsValidCIDR` for `value`, in its order.
pub fn cidr_messages(value: &str) -> Vec<String> {
    let Some(cidr) = parse_cidr(value) else {
        return vec![INVALID_CIDR.into()];
    };
    if let Some(problem) = strict_cidr_problem(value) {
        return vec![problem.into()];
    }
    let canonical = format!("{}/{}", go_ip_string(&cidr.network), cidr.prefix);
    if canonical != value {
        return vec![format!(
            "must be in canonical form ({})",
            go_quote(&canonical)
        )];
    }
    Vec::new()
}

/// Whether the CIDR's address is IPv4 (as `netutils.IPFamilyOfCIDRString` sees it: mapped
/// addresses count as IPv4); `None` when it does not parse.
pub fn cidr_is_v4(value: &str) -> Option<bool> {
    parse_cidr(value).map(|c| c.network.v4 || is_4in6(&c.network))
}

/// An IPv4 part (of an address or an IPv6 address's IPv4 tail) written with a leading zero.
pub fn has_leading_zero_octet(value: &str) -> bool {
    let tail = value.rsplit(':').next().unwrap_or(value);
    tail.contains('.')
        && tail
            .split('.')
            .any(|part| part.len() > 1 && part.starts_with('0'))
}

/// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) written as IPv6.
pub fn is_4in6(ip: &Ip) -> bool {
    !ip.v4 && ip.bytes[..10].iter().all(|b| *b == 0) && ip.bytes[10..12] == [0xff, 0xff]
}

/// `net.IP.String`: dotted IPv4 for IPv4 and IPv4-mapped addresses, RFC 5952 otherwise (the
/// longest run of two or more zero groups compressed, lower-case hex), as Rust prints them.
pub fn go_ip_string(ip: &Ip) -> String {
    if ip.v4 || is_4in6(ip) {
        let b = &ip.bytes[12..];
        return Ipv4Addr::new(b[0], b[1], b[2], b[3]).to_string();
    }
    Ipv6Addr::from(ip.bytes).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_must_be_canonical() {
        assert!(ip_messages("10.0.0.1").is_empty());
        assert!(ip_messages("2001:db8::1").is_empty());
        assert_eq!(ip_messages("10.0.0.01"), ["must not have leading 0s"]);
        assert_eq!(
            ip_messages("::ffff:10.0.0.1"),
            ["must not be an IPv4-mapped IPv6 address"]
        );
        assert_eq!(
            ip_messages("2001:DB8:0:0:0:0:0:1"),
            ["must be in canonical form (\"2001:db8::1\")"]
        );
        assert_eq!(
            ip_messages("2001:db8:0:1:0:0:0:1"),
            ["must be in canonical form (\"2001:db8:0:1::1\")"]
        );
        assert_eq!(ip_messages("10.0.0"), [INVALID_IP]);
    }

    #[test]
    fn cidrs_must_be_canonical() {
        assert!(cidr_messages("10.96.0.0/12").is_empty());
        assert!(cidr_messages("fd00:10:96::/112").is_empty());
        assert_eq!(cidr_messages("10.96.0.0"), [INVALID_CIDR]);
        assert_eq!(
            cidr_messages("10.96.0.1/12"),
            ["must not have bits set beyond the prefix length"]
        );
        assert_eq!(
            cidr_messages("10.096.0.0/12"),
            ["must not have leading 0s in IP or prefix length"]
        );
        assert_eq!(
            cidr_messages("10.96.0.0/012"),
            ["must not have leading 0s in IP or prefix length"]
        );
        assert_eq!(
            cidr_messages("FD00:10:96::/112"),
            ["must be in canonical form (\"fd00:10:96::/112\")"]
        );
        assert_eq!(cidr_is_v4("10.0.0.0/8"), Some(true));
        assert_eq!(cidr_is_v4("fd00::/8"), Some(false));
    }

    #[test]
    fn legacy_fields_are_strict_from_1_36_and_keep_stored_values_from_1_33() {
        let v = |minor| KubeVersion::new(minor).unwrap();
        assert_eq!(legacy_cidr("10.0.0.1/24", v(35), &[]), None);
        assert_eq!(
            legacy_cidr("10.0.0.1/24", v(36), &[]),
            Some("must not have bits set beyond the prefix length")
        );
        assert_eq!(legacy_cidr("10.0.0.1/24", v(36), &["10.0.0.1/24"]), None);
        assert_eq!(legacy_cidr("10.0.0.0/24", v(37), &[]), None);
        assert_eq!(legacy_cidr("x", v(32), &["x"]), Some(INVALID_CIDR));
        assert_eq!(legacy_cidr("x", v(33), &["x"]), None);
        assert_eq!(legacy_ip("010.0.0.1", v(35), &[]), None);
        assert_eq!(
            legacy_ip("010.0.0.1", v(36), &[]),
            Some("must not have leading 0s")
        );
        assert_eq!(
            legacy_ip("::ffff:10.0.0.1", v(36), &[]),
            Some("must not be an IPv4-mapped IPv6 address")
        );
        // Non-canonical forms stay valid in legacy fields.
        assert_eq!(legacy_ip("2001:DB8::1", v(37), &[]), None);
        assert_eq!(legacy_ip("10.0.0.300", v(30), &[]), Some(INVALID_IP));
    }
}
