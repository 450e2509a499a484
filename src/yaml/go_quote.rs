//! The two extra reasons go-yaml v2's encoder double-quotes a string that would otherwise read
//! back as a string: it looks like a YAML 1.1 timestamp, or like a base-60 float. kubectl prints
//! `creationTimestamp: "2024-01-01T00:00:00Z"` because of the first.
//!
//! Transcribed from go-yaml v2 (`encode.go`, `encoder.stringv`: plain only when `resolve("", s)`
//! gives `!!str` and `!isBase60Float(s)`; `resolve.go`, `parseTimestamp`: a `YYYY-` prefix, then
//! Go's `time.Parse` with each of `allowedTimestampFormats`).

/// Whether go-yaml v2 writes `s` double-quoted although YAML 1.1 would read it back as a string.
pub(crate) fn go_yaml_quotes(s: &str) -> bool {
    looks_like_timestamp(s) || is_base60_float(s)
}

/// go-yaml's `parseTimestamp`: four digits and `-`, then one of the layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (also with `t`), `2006-1-2 15:4:5.999999999`, `2006-1-2`.
fn looks_like_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let Some(rest) = date(s) else {
        return false;
    };
    if rest.is_empty() {
        return true;
    }
    let with_zone = |sep: u8| {
        rest.as_bytes()[0] == sep
            && clock(&rest[1..])
                .and_then(zone)
                .is_some_and(|r| r.is_empty())
    };
    // Go's layout matcher lets one space in the layout match a run of spaces.
    let spaced =
        rest.starts_with(' ') && clock(rest.trim_start_matches(' ')).is_some_and(|r| r.is_empty());
    with_zone(b'T') || with_zone(b't') || spaced
}

/// Go's `getnum(s, false)`: one digit, or two when two follow.
fn number(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u32::from(c - b'0'))
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None => Some((first, &s[1..])),
    }
}

/// `2006-1-2`: a year, a month 1–12 and a day that exists in that month. Returns the rest.
fn date(s: &str) -> Option<&str> {
    let year: u32 = s[..4].parse().ok()?;
    let (month, rest) = number(&s[5..])?;
    let rest = rest.strip_prefix('-')?;
    let (day, rest) = number(rest)?;
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(rest)
}

/// `15:4:5.999999999`: hour 0–23, minute and second 0–59, an optional fraction of any length
/// (`.` or `,`). Returns the rest.
fn clock(s: &str) -> Option<&str> {
    let (hour, rest) = number(s)?;
    let (minute, rest) = number(rest.strip_prefix(':')?)?;
    let (second, rest) = number(rest.strip_prefix(':')?)?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let fraction = rest
        .strip_prefix(['.', ','])
        .filter(|f| f.starts_with(|c: char| c.is_ascii_digit()));
    Some(match fraction {
        Some(f) => f.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => rest,
    })
}

/// `Z07:00`: `Z`, or a sign and `hh:mm` (Go allows up to 24 hours and 60 minutes). Returns the
/// rest.
fn zone(s: &str) -> Option<&str> {
    if let Some(rest) = s.strip_prefix('Z') {
        return Some(rest);
    }
    let b = s.as_bytes();
    let ok = b.len() >= 6
        && matches!(b[0], b'+' | b'-')
        && b[3] == b':'
        && [1, 2, 4, 5].iter().all(|&i| b[i].is_ascii_digit());
    if !ok {
        return None;
    }
    let hours: u32 = s[1..3].parse().ok()?;
    let minutes: u32 = s[4..6].parse().ok()?;
    (hours <= 24 && minutes <= 60).then_some(&s[6..])
}

/// go-yaml's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if !s.starts_with(|c: char| c.is_ascii_digit()) || !s.contains(':') {
        return false;
    }
    let (body, fraction) = s.split_once('.').unwrap_or((s, ""));
    if !fraction.bytes().all(|c| c.is_ascii_digit() || c == b'_') {
        return false;
    }
    let mut parts = body.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.bytes().all(|c| c.is_ascii_digit() || c == b'_');
    head_ok
        && parts.all(|p| {
            let b = p.as_bytes();
            match b {
                [d] => d.is_ascii_digit(),
                [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_as_go_yaml_sees_them() {
        for s in [
            "2024-01-01T00:00:00Z",
            "2024-01-01t00:00:00Z",
            "2024-1-2T3:4:5+02:00",
            "2024-01-01T00:00:00.123456789Z",
            "2024-01-01",
            "2024-02-29",
            "2024-01-01 10:00:00",
            "2024-01-01   10:00:00.5",
        ] {
            assert!(go_yaml_quotes(s), "{s}");
        }
        for s in [
            "2023-02-29",
            "2024-13-01",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01 10:00:00Z",
            "2024-01-01T00:00:00z",
            "2024-01-01x",
            "202-01-01",
            "2024-01-01T00:00Z",
            "v2024-01-01",
        ] {
            assert!(!go_yaml_quotes(s), "{s}");
        }
    }

    #[test]
    fn base60_floats() {
        for s in ["1:20", "-1:20:30.5", "190:20:30", "1_0:5"] {
            assert!(go_yaml_quotes(s), "{s}");
        }
        for s in ["1:60", "a:1", "1:", "8080:80", "1:2x"] {
            assert!(!go_yaml_quotes(s), "{s}");
        }
    }
}
