//! The string `format`s a custom resource's schema can ask for and that apiextensions keeps
//! (`pkg/apiserver/validation/formats.go`, `supportedVersionedFormats`), checked as kube-openapi's
//! `strfmt` registry checks them. Formats kssa does not check (email, uri, isbn, creditcard, ssn,
//! hexcolor, rgbcolor, bsonobjectid, duration, k8s-short-name, k8s-long-name, password) pass.

use regex::Regex;
use std::net::IpAddr;
use std::sync::OnceLock;

/// Whether `s` fails `format` on a node of type `type_name` (formats on other types than string
/// are dropped by apiextensions, as are unknown ones).
pub fn is_invalid(format: &str, type_name: Option<&str>, s: &str) -> bool {
    if !matches!(type_name, None | Some("string")) {
        return false;
    }
    // go-openapi normalizes format names by dropping dashes (date-time = datetime).
    match format.replace('-', "").as_str() {
        "uuid" => !matches(&UUID, s),
        "uuid3" => !matches(&UUID3, s),
        "uuid4" => !matches(&UUID4, s),
        "uuid5" => !matches(&UUID5, s),
        "date" => !is_date(s),
        "datetime" => !is_date_time(s),
        "byte" => !is_base64(s),
        "ipv4" => !(s.parse::<IpAddr>().is_ok() && s.contains('.')),
        "ipv6" => !(s.parse::<IpAddr>().is_ok() && s.contains(':')),
        "cidr" => !is_cidr(s),
        "mac" => !matches(&MAC, s),
        "hostname" => s.len() > 255 || !matches(&HOSTNAME, s),
        _ => false,
    }
}

struct Pattern {
    source: &'static str,
    compiled: OnceLock<Regex>,
}

impl Pattern {
    const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }
}

fn matches(p: &Pattern, s: &str) -> bool {
    p.compiled
        .get_or_init(|| Regex::new(p.source).expect("format patterns compile"))
        .is_match(s)
}

// The expressions of go-openapi strfmt (default.go).
static UUID: Pattern =
    Pattern::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
static UUID3: Pattern =
    Pattern::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
static UUID4: Pattern =
    Pattern::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
static UUID5: Pattern =
    Pattern::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
static HOSTNAME: Pattern = Pattern::new(
    r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
);
/// net.ParseMAC: 6, 8 or 20 octets separated by `:` or `-`, or dotted groups of four digits.
static MAC: Pattern = Pattern::new(
    r"(?i)^(([0-9a-f]{2}[:-]){5}|([0-9a-f]{2}[:-]){7}|([0-9a-f]{2}[:-]){19})[0-9a-f]{2}$|^(?i)(([0-9a-f]{4}\.){2}|([0-9a-f]{4}\.){3}|([0-9a-f]{4}\.){9})[0-9a-f]{4}$",
);
static DATE_TIME: Pattern = Pattern::new(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$",
);

/// RFC 3339 full-date, with the day checked against the month.
fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() != 3 || parts[0].len() != 4 || parts[1].len() != 2 || parts[2].len() != 2 {
        return false;
    }
    let num = |p: &str| {
        p.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    match (num(parts[0]), num(parts[1]), num(parts[2])) {
        (Some(y), Some(m), Some(d)) => valid_day(y, m, d),
        _ => false,
    }
}

fn valid_day(year: u32, month: u32, day: u32) -> bool {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt `ParseDateTime`: RFC 3339 date-times, with or without fraction and zone.
fn is_date_time(s: &str) -> bool {
    let Some(caps) = DATE_TIME
        .compiled
        .get_or_init(|| Regex::new(DATE_TIME.source).expect("format patterns compile"))
        .captures(s)
    else {
        return false;
    };
    let n = |i: usize| caps[i].parse::<u32>().unwrap_or(u32::MAX);
    valid_day(n(1), n(2), n(3)) && n(4) < 24 && n(5) < 60 && n(6) < 61
}

/// Go's `base64.StdEncoding.DecodeString` (newlines ignored).
fn is_base64(s: &str) -> bool {
    let data: Vec<u8> = s.bytes().filter(|b| *b != b'\n' && *b != b'\r').collect();
    if !data.len().is_multiple_of(4) {
        return false;
    }
    let padding = data.iter().rev().take_while(|b| **b == b'=').count();
    padding <= 2
        && data[..data.len() - padding]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

/// Go's `net.ParseCIDR`.
fn is_cidr(s: &str) -> bool {
    let Some((ip, prefix)) = s.split_once('/') else {
        return false;
    };
    let Ok(ip) = ip.parse::<IpAddr>() else {
        return false;
    };
    let max = if ip.is_ipv4() { 32 } else { 128 };
    !prefix.is_empty()
        && prefix.len() <= 3
        && prefix.bytes().all(|b| b.is_ascii_digit())
        && prefix.parse::<u32>().is_ok_and(|p| p <= max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_formats() {
        let ok = |f: &str, s: &str| !is_invalid(f, Some("string"), s);
        assert!(ok("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(!ok("uuid", "nope"));
        assert!(ok("date", "2024-02-29") && !ok("date", "2023-02-29"));
        assert!(
            ok("date-time", "2024-01-02T03:04:05Z")
                && ok("date-time", "2024-01-02T03:04:05.5+01:00")
        );
        assert!(!ok("date-time", "yesterday"));
        assert!(ok("byte", "aGVsbG8=") && !ok("byte", "hello!"));
        assert!(ok("ipv4", "10.0.0.1") && !ok("ipv4", "::1") && ok("ipv6", "::1"));
        assert!(ok("cidr", "10.0.0.0/8") && !ok("cidr", "10.0.0.0/33"));
        assert!(ok("mac", "01:23:45:67:89:ab") && !ok("mac", "01:23"));
        assert!(ok("hostname", "example.com") && !ok("hostname", "-bad-.com"));
        // Unchecked formats and formats on other types pass.
        assert!(ok("email", "x") && !is_invalid("uuid", Some("integer"), "x"));
    }
}
