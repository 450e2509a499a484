//! apimachinery's strict IP and CIDR formats (pkg/util/validation/ip.go `IsValidIP`,
//! `IsValidCIDR`, v0.33–v0.37): what the lenient parsers accept, without leading zeros or
//! IPv4-mapped IPv6 addresses, and written in Go's canonical form (`net.IP.String`).

use super::netaddr::{parse_cidr, parse_ip, Ip};
use crate::validate::goprint::go_quote;
use std::net::{Ipv4Addr, Ipv6Addr};

const INVALID_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const INVALID_CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// The messages of `IsValidIP` for `value`, in its order.
pub fn ip_messages(value: &str) -> Vec<String> {
    let Some(ip) = parse_ip(value) else {
        return vec![INVALID_IP.into()];
    };
    // `netip.ParseAddr` fails only on the leading zeros the lenient parser allows; a failed
    // parse yields the zero address, which is not IPv4-mapped.
    let mut errors = Vec::new();
    if has_leading_zero_octet(value) {
        errors.push("must not have leading 0s".into());
    } else if is_4in6(&ip) {
        errors.push("must not be an IPv4-mapped IPv6 address".into());
    }
    if !errors.is_empty() {
        return errors;
    }
    let canonical = go_ip_string(&ip);
    if canonical != value {
        errors.push(format!(
            "must be in canonical form ({})",
            go_quote(&canonical)
        ));
    }
    errors
}

/// The messages of `IsValidCIDR` for `value`, in its order.
pub fn cidr_messages(value: &str) -> Vec<String> {
    let Some(cidr) = parse_cidr(value) else {
        return vec![INVALID_CIDR.into()];
    };
    let (addr, len) = value.split_once('/').unwrap_or((value, ""));
    // `netip.ParsePrefix`, then the address checks in `parseCIDR`'s order.
    let error = if has_leading_zero_octet(addr) || (len.len() > 1 && len.starts_with('0')) {
        Some("must not have leading 0s in IP or prefix length")
    } else if parse_ip(addr).is_some_and(|ip| is_4in6(&ip)) {
        Some("must not have an IPv4-mapped IPv6 address")
    } else if parse_ip(addr).is_some_and(|ip| ip != cidr.network) {
        Some("must not have bits set beyond the prefix length")
    } else {
        None
    };
    if let Some(e) = error {
        return vec![e.into()];
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
fn has_leading_zero_octet(value: &str) -> bool {
    let tail = value.rsplit(':').next().unwrap_or(value);
    tail.contains('.')
        && tail
            .split('.')
            .any(|part| part.len() > 1 && part.starts_with('0'))
}

fn is_4in6(ip: &Ip) -> bool {
    !ip.v4 && ip.bytes[..10].iter().all(|b| *b == 0) && ip.bytes[10..12] == [0xff, 0xff]
}

/// `net.IP.String`: dotted IPv4 for IPv4 and IPv4-mapped addresses, RFC 5952 otherwise (the
/// longest run of two or more zero groups compressed, lower-case hex), as Rust prints them.
fn go_ip_string(ip: &Ip) -> String {
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
}
