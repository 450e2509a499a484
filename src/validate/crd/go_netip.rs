//! Go's `net/netip.ParseAddr` with its error texts (netip.go `ParseAddr`, `parseIPv4Fields`,
//! `parseIPv6`, `parseAddrError.Error`), as Go 1.24–1.26 word them. `net/url` appends this
//! error to `invalid host: ` when a bracketed URL host is no IP address, which reaches
//! webhook URL refusals and the CEL `url()` function. Go 1.22 differs (it wrapped the error of
//! an embedded IPv4 part in a second `ParseAddr(…)` and had no four-digit group check), but its
//! `net/url` never called this parser, so no message of a Kubernetes release shows that wording.

use crate::validate::goprint::go_quote;

/// What kind of address Go read: the URL parser refuses an IPv4 address in brackets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    V4,
    V6,
}

/// `parseAddrError`: the input, Go's reason and, for some reasons, the rest of the input where
/// parsing stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddrError {
    input: String,
    reason: &'static str,
    at: Option<String>,
}

impl std::fmt::Display for AddrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParseAddr({}): {}", go_quote(&self.input), self.reason)?;
        match &self.at {
            Some(at) if !at.is_empty() => write!(f, " (at {})", go_quote(at)),
            _ => Ok(()),
        }
    }
}

/// `netip.ParseAddr`: the first `.`, `:` or `%` decides how the string is read.
pub fn parse_addr(s: &str) -> Result<Family, AddrError> {
    let fail = |reason| Err(error(s, reason, None));
    match s.bytes().find(|b| matches!(b, b'.' | b':' | b'%')) {
        Some(b'.') => ipv4_fields(s, s).map(|_| Family::V4),
        Some(b':') => parse_ipv6(s).map(|_| Family::V6),
        Some(_) => fail("missing IPv6 address"),
        None => fail("unable to parse IP"),
    }
}

fn error(input: &str, reason: &'static str, at: Option<&str>) -> AddrError {
    AddrError {
        input: input.to_owned(),
        reason,
        at: at.map(str::to_owned),
    }
}

/// `parseIPv4Fields` over `part`, the tail of `input` that holds the dotted quad.
fn ipv4_fields(input: &str, part: &str) -> Result<(), AddrError> {
    let bytes = part.as_bytes();
    let (mut value, mut dots, mut digits) = (0u32, 0, 0);
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && value == 0 {
                    return Err(error(input, "IPv4 field has octet with leading zero", None));
                }
                value = value * 10 + u32::from(c - b'0');
                digits += 1;
                if value > 255 {
                    return Err(error(input, "IPv4 field has value >255", None));
                }
            }
            b'.' => {
                if i == 0 || i == bytes.len() - 1 || bytes[i - 1] == b'.' {
                    let reason = "IPv4 field must have at least one digit";
                    return Err(error(input, reason, Some(&part[i..])));
                }
                if dots == 3 {
                    return Err(error(input, "IPv4 address too long", None));
                }
                dots += 1;
                value = 0;
                digits = 0;
            }
            _ => {
                return Err(error(input, "unexpected character", Some(&part[i..])));
            }
        }
    }
    if dots < 3 {
        return Err(error(input, "IPv4 address too short", None));
    }
    Ok(())
}

/// `parseIPv6`: colon-separated hex groups, one optional `::`, an optional embedded IPv4 in the
/// last 32 bits and an optional non-empty `%zone`.
fn parse_ipv6(input: &str) -> Result<(), AddrError> {
    let (mut s, zone) = match input.split_once('%') {
        Some((_, "")) => return Err(error(input, "zone must be a non-empty string", None)),
        Some((address, zone)) => (address, Some(zone)),
        None => (input, None),
    };
    let fail = |reason, at: &str| Err(error(input, reason, Some(at)));
    let mut ellipsis = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Ok(());
        }
    }
    let mut filled = 0;
    while filled < 16 {
        let mut digits = 0;
        let mut acc = 0u32;
        for c in s.bytes() {
            let Some(d) = (c as char).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if digits > 3 {
                return fail("each group must have 4 or less digits", s);
            }
            if acc > u32::from(u16::MAX) {
                return fail("IPv6 field has value >=2^16", s);
            }
            digits += 1;
        }
        if digits == 0 {
            return fail("each colon-separated field must have at least one digit", s);
        }
        if s.as_bytes().get(digits) == Some(&b'.') {
            if ellipsis.is_none() && filled != 12 {
                let reason = "embedded IPv4 address must replace the final 2 fields of the address";
                return fail(reason, s);
            }
            if filled + 4 > 16 {
                let reason =
                    "too many hex fields to fit an embedded IPv4 at the end of the address";
                return fail(reason, s);
            }
            let end = input.len() - zone.map_or(0, |z| z.len() + 1);
            ipv4_fields(input, &input[end - s.len()..end])?;
            s = "";
            filled += 4;
            break;
        }
        filled += 2;
        s = &s[digits..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return fail("unexpected character, want colon", s);
        }
        if s.len() == 1 {
            return fail("colon must be followed by more characters", s);
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return fail("multiple :: in address", s);
            }
            ellipsis = Some(filled);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return fail("trailing garbage after address", s);
    }
    match (filled < 16, ellipsis.is_some()) {
        (true, false) => Err(error(input, "address string too short", None)),
        (false, true) => Err(error(
            input,
            "the :: must expand to at least one field of zeros",
            None,
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected texts printed by Go 1.26's `netip.ParseAddr` (1.24 and 1.25 print the same).
    #[test]
    fn errors_are_go_s() {
        let cases = [
            ("zz", r#"ParseAddr("zz"): unable to parse IP"#),
            ("%eth0", r#"ParseAddr("%eth0"): missing IPv6 address"#),
            (
                "fe80::1%",
                r#"ParseAddr("fe80::1%"): zone must be a non-empty string"#,
            ),
            ("1.2.3", r#"ParseAddr("1.2.3"): IPv4 address too short"#),
            (
                "1.2.3.4.5",
                r#"ParseAddr("1.2.3.4.5"): IPv4 address too long"#,
            ),
            (
                "01.2.3.4",
                r#"ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero"#,
            ),
            (
                "1.2.3.256",
                r#"ParseAddr("1.2.3.256"): IPv4 field has value >255"#,
            ),
            (
                "1..2.3",
                r#"ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")"#,
            ),
            (
                "12345::1",
                r#"ParseAddr("12345::1"): each group must have 4 or less digits (at "12345::1")"#,
            ),
            (
                "1:2:3:4:5:6:7",
                r#"ParseAddr("1:2:3:4:5:6:7"): address string too short"#,
            ),
            (
                "1:2:3:4:5:6:7:8::",
                r#"ParseAddr("1:2:3:4:5:6:7:8::"): the :: must expand to at least one field of zeros"#,
            ),
            ("::1.2.3", r#"ParseAddr("::1.2.3"): IPv4 address too short"#),
            (
                "1::2::3",
                r#"ParseAddr("1::2::3"): multiple :: in address (at ":3")"#,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_addr(input).unwrap_err().to_string(), want, "{input}");
        }
    }

    #[test]
    fn addresses_go_accepts() {
        assert_eq!(parse_addr("1.2.3.4"), Ok(Family::V4));
        for ok in [
            "::",
            "::1",
            "fe80::1%en0",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
        ] {
            assert_eq!(parse_addr(ok), Ok(Family::V6), "{ok}");
        }
    }
}
