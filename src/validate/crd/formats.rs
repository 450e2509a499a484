//! The string `format`s a custom resource's schema can ask for and that apiextensions keeps
//! (`pkg/apiserver/validation/formats.go`, `supportedVersionedFormats`), checked as kube-openapi's
//! `strfmt` registry checks them (`strfmt/default.go`, `duration.go`, `bson.go`, and the
//! govalidator functions kube-openapi keeps in `pkg/internal/third_party/govalidator`, the Go
//! standard library parsers for uri and email in `go_net.rs`). `password` accepts anything.

use super::go_net;
use crate::kube::{KubeVersion, VersionRange};
use regex::Regex;
use std::net::IpAddr;
use std::sync::OnceLock;

/// Formats apiextensions keeps only from some release on (normalized names). `formats.go`
/// `supportedVersionedFormats` lists `k8s-short-name` and `k8s-long-name` as introduced at
/// 1.34, and the validator keeps the formats of the server's compatibility version
/// (`StripUnsupportedFormatsPostProcessorForVersion` with the CEL environment's
/// `DefaultCompatibilityVersion`), which is one minor release below the server's own: a 1.34
/// server still ignores them, a 1.35 server checks them.
const VERSIONED_FORMATS: &[(&str, VersionRange)] = &[
    ("k8sshortname", VersionRange::since(35)),
    ("k8slongname", VersionRange::since(35)),
];

/// Whether `s` fails `format` on a node of type `type_name` at `version` (formats on other
/// types than string are dropped by apiextensions, as are unknown ones and ones the version does
/// not keep).
pub fn is_invalid(format: &str, type_name: Option<&str>, s: &str, version: KubeVersion) -> bool {
    if !matches!(type_name, None | Some("string")) {
        return false;
    }
    // go-openapi normalizes format names by dropping dashes (date-time = datetime).
    let normalized = format.replace('-', "");
    let kept = VERSIONED_FORMATS
        .iter()
        .find(|(name, _)| *name == normalized)
        .is_none_or(|(_, versions)| versions.contains(version));
    if !kept {
        return false;
    }
    match normalized.as_str() {
        "uri" => !go_net::is_request_uri(s),
        "email" => !go_net::is_mail_address(s),
        "k8sshortname" => !(s.len() <= 63 && matches(&SHORT_NAME, s)),
        "k8slongname" => !(s.len() <= 253 && matches(&LONG_NAME, s)),
        "uuid" => !matches(&UUID, s),
        "uuid3" => !matches(&UUID3, s),
        "uuid4" => !matches(&UUID4, s),
        "uuid5" => !matches(&UUID5, s),
        "date" => !is_date(s),
        "datetime" => !is_date_time(s),
        "byte" => !matches(&BASE64, s),
        "ipv4" => !(s.parse::<IpAddr>().is_ok() && s.contains('.')),
        "ipv6" => !(s.parse::<IpAddr>().is_ok() && s.contains(':')),
        "cidr" => !is_cidr(s),
        "mac" => !matches(&MAC, s),
        "hostname" => !is_hostname(s),
        "bsonobjectid" => !(s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit())),
        "isbn" => !(is_isbn10(s) || is_isbn13(s)),
        "isbn10" => !is_isbn10(s),
        "isbn13" => !is_isbn13(s),
        "creditcard" => !is_credit_card(s),
        "ssn" => !(s.len() == 11 && matches(&SSN, s)),
        "hexcolor" => !matches(&HEX_COLOR, s),
        "rgbcolor" => !matches(&RGB_COLOR, s),
        "duration" => !super::duration::is_duration(s),
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
// kube-openapi strfmt/kubernetes-extensions.go: DNS-1123 labels, without the per-label limit
// in a long name.
static SHORT_NAME: Pattern = Pattern::new(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
static LONG_NAME: Pattern =
    Pattern::new(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
static HOSTNAME: Pattern = Pattern::new(
    r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
);
/// net.ParseMAC: 6, 8 or 20 octets separated by `:` or `-`, or dotted groups of four digits.
static MAC: Pattern = Pattern::new(
    r"(?i)^(([0-9a-f]{2}[:-]){5}|([0-9a-f]{2}[:-]){7}|([0-9a-f]{2}[:-]){19})[0-9a-f]{2}$|^(?i)(([0-9a-f]{4}\.){2}|([0-9a-f]{4}\.){3}|([0-9a-f]{4}\.){9})[0-9a-f]{4}$",
);
// govalidator's expressions; Go's `\d` and `\s` are ASCII (`[0-9]`, `[\t\n\f\r ]`).
/// `IsBase64`, what `byte` is checked with: whole groups of four, so neither an empty string
/// nor a line break passes (Go's decoder would take both).
static BASE64: Pattern = Pattern::new(
    r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$",
);
static SSN: Pattern = Pattern::new(r"^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$");
static HEX_COLOR: Pattern = Pattern::new(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
static RGB_COLOR: Pattern = Pattern::new(
    r"^rgb\([\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*\)$",
);
static CREDIT_CARD: Pattern = Pattern::new(
    r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$",
);
static DATE_TIME: Pattern = Pattern::new(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$",
);

/// strfmt `IsHostname`: the expression, at most 255 bytes, labels of at most 63.
fn is_hostname(s: &str) -> bool {
    matches(&HOSTNAME, s) && s.len() <= 255 && s.split('.').all(|label| label.len() <= 63)
}

/// govalidator `IsISBN10`: spaces and dashes dropped, nine digits and a digit or `X`, the
/// weighted sum divisible by 11.
fn is_isbn10(s: &str) -> bool {
    let digits = isbn_digits(s);
    let d = digits.as_bytes();
    let well_formed = d.len() == 10
        && d[..9].iter().all(u8::is_ascii_digit)
        && (d[9].is_ascii_digit() || d[9] == b'X');
    if !well_formed {
        return false;
    }
    let head: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(d[i] - b'0'))
        .sum();
    let last = if d[9] == b'X' {
        10
    } else {
        u32::from(d[9] - b'0')
    };
    (head + 10 * last).is_multiple_of(11)
}

/// govalidator `IsISBN13`: spaces and dashes dropped, 13 digits, the EAN check digit.
fn is_isbn13(s: &str) -> bool {
    let digits = isbn_digits(s);
    let d = digits.as_bytes();
    if d.len() != 13 || !d.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(d[i] - b'0'))
        .sum();
    u32::from(d[12] - b'0') == (10 - sum % 10) % 10
}

fn isbn_digits(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ' | '-'))
        .collect()
}

/// govalidator `IsCreditCard`: every non-digit dropped, a known issuer's number, the Luhn sum.
fn is_credit_card(s: &str) -> bool {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if !matches(&CREDIT_CARD, &digits) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            match i % 2 {
                0 => d,
                _ if d * 2 >= 10 => d * 2 % 10 + 1,
                _ => d * 2,
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

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
        let ok = |f: &str, s: &str| !is_invalid(f, Some("string"), s, KubeVersion::NEWEST);
        assert!(ok("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(!ok("uuid", "nope"));
        assert!(ok("date", "2024-02-29") && !ok("date", "2023-02-29"));
        assert!(
            ok("date-time", "2024-01-02T03:04:05Z")
                && ok("date-time", "2024-01-02T03:04:05.5+01:00")
        );
        assert!(!ok("date-time", "yesterday"));
        assert!(ok("byte", "aGVsbG8=") && !ok("byte", "hello!"));
        assert!(!ok("byte", "") && !ok("byte", "aGVs\nbG8="));
        assert!(ok("ipv4", "10.0.0.1") && !ok("ipv4", "::1") && ok("ipv6", "::1"));
        assert!(ok("cidr", "10.0.0.0/8") && !ok("cidr", "10.0.0.0/33"));
        assert!(ok("mac", "01:23:45:67:89:ab") && !ok("mac", "01:23"));
        assert!(ok("hostname", "example.com") && !ok("hostname", "-bad-.com"));
        assert!(!ok("hostname", &"a".repeat(64)) && ok("hostname", &"a".repeat(63)));
        assert!(ok("bsonobjectid", "507f1f77bcf86cd799439011") && !ok("bsonobjectid", "507f"));
        assert!(ok("isbn10", "0-306-40615-2") && !ok("isbn10", "0-306-40615-3"));
        assert!(ok("isbn10", "080442957X") && ok("isbn", "978-0-306-40615-7"));
        assert!(ok("isbn13", "9780306406157") && !ok("isbn13", "9780306406158"));
        assert!(ok("creditcard", "4111 1111 1111 1111") && !ok("creditcard", "4111111111111112"));
        assert!(ok("ssn", "123-45-6789") && !ok("ssn", "123456789") && !ok("ssn", "123-45-678x"));
        assert!(ok("hexcolor", "#fff") && ok("hexcolor", "A0B1C2") && !ok("hexcolor", "#ffff"));
        assert!(ok("rgbcolor", "rgb(0, 128,255)") && !ok("rgbcolor", "rgb(256,0,0)"));
        assert!(ok("duration", "1h30m") && ok("duration", "3 weeks") && !ok("duration", "soon"));
        assert!(ok("uri", "https://example.com/x") && !ok("uri", "example.com"));
        assert!(ok("email", "Jane <jane@example.com>") && !ok("email", "jane"));
        assert!(ok("k8s-short-name", "web-1") && !ok("k8s-short-name", "Web"));
        assert!(!ok("k8s-short-name", &"a".repeat(64)) && !ok("k8s-short-name", "a.b"));
        assert!(
            ok("k8s-long-name", &format!("{}.b", "a".repeat(64))) && !ok("k8s-long-name", "a..b")
        );
        // Other types, and formats the version does not keep, pass.
        let newest = KubeVersion::NEWEST;
        assert!(ok("password", "") && !is_invalid("uuid", Some("integer"), "x", newest));
        let v = |minor| KubeVersion::new(minor).unwrap();
        assert!(!is_invalid("k8s-short-name", None, "Web", v(34)));
        assert!(is_invalid("k8s-short-name", None, "Web", v(35)));
    }
}
