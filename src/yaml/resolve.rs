//! YAML 1.1 scalar typing as go-yaml v2 does it (`resolve.go`): `yes`/`on` are bools, `0644`
//! is octal, `_` vanishes from numbers, and standard tags check types rather than convert.

use super::ErrorKind;

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// A typed scalar, before it becomes a JSON-like value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    /// Integers beyond int64 that still fit uint64 are kept exactly by go-yaml.
    Uint(u64),
    Float(f64),
    String(String),
    /// An untagged plain `<<`.
    Merge,
}

impl Scalar {
    fn short_tag(&self) -> &'static str {
        match self {
            Scalar::Null => "!!null",
            Scalar::Bool(_) => "!!bool",
            Scalar::Int(_) | Scalar::Uint(_) => "!!int",
            Scalar::Float(_) => "!!float",
            Scalar::String(_) => "!!str",
            Scalar::Merge => "!!merge",
        }
    }
}

/// Types a scalar from its text, whether it was plain, and its tag (already expanded by libyaml).
pub(crate) fn resolve(value: &str, plain: bool, tag: Option<&str>) -> Result<Scalar, ErrorKind> {
    let tag = tag.unwrap_or("");
    if tag.is_empty() && !plain {
        return Ok(Scalar::String(value.to_string()));
    }
    let short = tag.strip_prefix(TAG_PREFIX);
    match short {
        None if !tag.is_empty() => return Ok(Scalar::String(value.to_string())),
        Some("binary") => return decode_binary(value),
        Some("merge") if value == "<<" => return Ok(Scalar::Merge),
        Some("str" | "bool" | "null" | "int" | "float" | "timestamp") | None => {}
        Some(_) => return Ok(Scalar::String(value.to_string())),
    }
    if short == Some("str") {
        return Ok(Scalar::String(value.to_string()));
    }
    if short == Some("timestamp") && is_timestamp(value) {
        return Ok(Scalar::String(value.to_string()));
    }
    let implicit = resolve_implicit(value);
    let wanted = match short {
        None => return Ok(implicit),
        Some(t) => t,
    };
    match (wanted, &implicit) {
        ("null", Scalar::Null)
        | ("bool", Scalar::Bool(_))
        | ("int", Scalar::Int(_) | Scalar::Uint(_))
        | ("float", Scalar::Float(_)) => Ok(implicit),
        ("float", Scalar::Int(i)) => Ok(Scalar::Float(*i as f64)),
        _ => Err(ErrorKind::TagMismatch {
            value: value.to_string(),
            found: implicit.short_tag(),
            tag: format!("!!{wanted}"),
        }),
    }
}

/// The type of an untagged plain scalar.
pub(crate) fn resolve_implicit(s: &str) -> Scalar {
    implicit_non_string(s).unwrap_or_else(|| Scalar::String(s.to_string()))
}

/// An untagged scalar as the reader has it: the event's text moved into the result, not copied,
/// when it stays a string.
pub(crate) fn resolve_owned(
    value: String,
    plain: bool,
    tag: Option<&str>,
) -> Result<Scalar, ErrorKind> {
    match (tag, plain) {
        (None, false) => Ok(Scalar::String(value)),
        (None, true) => Ok(implicit_non_string(&value).unwrap_or(Scalar::String(value))),
        (Some(_), _) => resolve(&value, plain, tag),
    }
}

/// [`resolve_implicit`], `None` when the scalar is a string.
pub(crate) fn implicit_non_string(s: &str) -> Option<Scalar> {
    Some(match s {
        "" | "~" | "null" | "Null" | "NULL" => Scalar::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            Scalar::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            Scalar::Bool(false)
        }
        ".nan" | ".NaN" | ".NAN" => Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Scalar::Float(f64::NEG_INFINITY),
        "<<" => Scalar::Merge,
        _ => match s.as_bytes()[0] {
            b'.' => Scalar::Float(finite_float(s)?),
            b'0'..=b'9' | b'+' | b'-' => {
                let plain: String = s.chars().filter(|&c| c != '_').collect();
                if let Some(n) = parse_go_int(&plain) {
                    return Some(n);
                }
                if !is_yaml_float(&plain) {
                    return None;
                }
                Scalar::Float(finite_float(&plain)?)
            }
            _ => return None,
        },
    })
}

/// Go's `strconv.ParseFloat`, minus the spellings the callers never reach; out of range is `None`.
fn finite_float(s: &str) -> Option<f64> {
    let digits_ok = s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    let f: f64 = s.parse().ok().filter(|_| digits_ok)?;
    f.is_finite().then_some(f)
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseInt(s, 0, 64)`, falling back to `ParseUint` for unsigned values.
fn parse_go_int(s: &str) -> Option<Scalar> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => (0, s),
    };
    let lower = rest.get(..2).map(str::to_ascii_lowercase);
    let (radix, digits) = match lower.as_deref() {
        Some("0x") => (16, &rest[2..]),
        Some("0o") => (8, &rest[2..]),
        Some("0b") => (2, &rest[2..]),
        _ if rest.len() > 1 && rest.starts_with('0') => (8, &rest[1..]),
        _ => (10, rest),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    match sign {
        -1 if magnitude <= 1 << 63 => Some(Scalar::Int((magnitude as i64).wrapping_neg())),
        -1 => None,
        _ if magnitude <= i64::MAX as u64 => Some(Scalar::Int(magnitude as i64)),
        0 => Some(Scalar::Uint(magnitude)),
        _ => None,
    }
}

/// go-yaml's timestamp check: `YYYY-M-D`, optionally followed by a time.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let date_end = s.find(['T', 't', ' ']).unwrap_or(s.len());
    let mut parts = s[5..date_end].split('-');
    let in_range = |p: Option<&str>, max: u32| {
        p.filter(|p| (1..=2).contains(&p.len()))
            .and_then(|p| p.parse::<u32>().ok())
            .is_some_and(|n| (1..=max).contains(&n))
    };
    let date_ok =
        in_range(parts.next(), 12) && in_range(parts.next(), 31) && parts.next().is_none();
    date_ok && (date_end == s.len() || s[date_end + 1..].split(':').count().eq(&3))
}

fn decode_binary(text: &str) -> Result<Scalar, ErrorKind> {
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let bytes = base64_decode(&clean).ok_or(ErrorKind::Binary)?;
    Ok(Scalar::String(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Standard padded base64, as Go's `base64.StdEncoding`.
fn base64_decode(input: &[u8]) -> Option<Vec<u8>> {
    if !input.len().is_multiple_of(4) {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let chunks = input.chunks(4).collect::<Vec<_>>();
    for (n, chunk) in chunks.iter().enumerate() {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && n + 1 != chunks.len()) {
            return None;
        }
        let mut acc = 0u32;
        for &c in &chunk[..4 - pad] {
            acc = acc << 6 | value(c)?;
        }
        acc <<= 6 * pad as u32;
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Scalar {
        resolve(s, true, None).unwrap()
    }

    #[test]
    fn yaml_1_1_booleans_and_nulls() {
        assert_eq!(plain("yes"), Scalar::Bool(true));
        assert_eq!(plain("Off"), Scalar::Bool(false));
        assert_eq!(plain("yEs"), Scalar::String("yEs".into()));
        assert_eq!(plain("~"), Scalar::Null);
        assert_eq!(plain(""), Scalar::Null);
    }

    #[test]
    fn numbers_follow_go_parsing() {
        assert_eq!(plain("0644"), Scalar::Int(420));
        assert_eq!(plain("08080"), Scalar::Float(8080.0));
        assert_eq!(plain("0_644"), Scalar::Int(420));
        assert_eq!(plain("1_"), Scalar::Int(1));
        assert_eq!(plain("_1"), Scalar::String("_1".into()));
        assert_eq!(plain("0x1F"), Scalar::Int(31));
        assert_eq!(plain("-0b101"), Scalar::Int(-5));
        assert_eq!(plain("9223372036854775808"), Scalar::Uint(1 << 63));
        assert_eq!(plain("7e10"), Scalar::Float(7e10));
        assert_eq!(plain("1e309"), Scalar::String("1e309".into()));
        assert_eq!(plain("1:20"), Scalar::String("1:20".into()));
        assert_eq!(plain("-.5"), Scalar::Float(-0.5));
        assert_eq!(plain("inf"), Scalar::String("inf".into()));
    }

    #[test]
    fn tags_check_rather_than_convert() {
        let int = Some("tag:yaml.org,2002:int");
        assert_eq!(resolve("12", false, int).unwrap(), Scalar::Int(12));
        assert!(resolve("yes", true, int).is_err());
        let float = Some("tag:yaml.org,2002:float");
        assert_eq!(resolve("1", true, float).unwrap(), Scalar::Float(1.0));
        assert_eq!(
            resolve("0644", true, Some("!foo")).unwrap(),
            Scalar::String("0644".into())
        );
        let binary = Some("tag:yaml.org,2002:binary");
        assert_eq!(
            resolve("aGVsbG8=", true, binary).unwrap(),
            Scalar::String("hello".into())
        );
        assert!(resolve("not*base64", true, binary).is_err());
        let ts = Some("tag:yaml.org,2002:timestamp");
        assert!(resolve("2001-12-14", true, ts).is_ok());
        assert!(resolve("foo", true, ts).is_err());
    }
}
