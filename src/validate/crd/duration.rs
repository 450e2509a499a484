//! The `duration` format: kube-openapi `strfmt.ParseDuration` (`pkg/validation/strfmt/duration.go`)
//! accepts what Go's `time.ParseDuration` accepts, and otherwise any text in which some
//! `<digits> <unit>` (units in words too: `3 weeks`, `1 day`, `10min`) is found.

use regex::Regex;
use std::sync::OnceLock;

pub fn is_duration(s: &str) -> bool {
    go_duration(s).is_some() || worded_duration(s)
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the units ns, us (µs,
/// μs), ms, s, m and h, or `0`; `None` where Go returns an error (overflow included).
fn go_duration(s: &str) -> Option<()> {
    const UNITS: &[(&str, u64)] = &[
        ("ns", 1),
        ("us", 1_000),
        ("\u{b5}s", 1_000),
        ("\u{3bc}s", 1_000),
        ("ms", 1_000_000),
        ("s", 1_000_000_000),
        ("m", 60_000_000_000),
        ("h", 3_600_000_000_000),
    ];
    let limit: u64 = 1 << 63;
    let mut rest = s.strip_prefix(['-', '+']).unwrap_or(s);
    if rest == "0" {
        return Some(());
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let mut whole: u64 = 0;
        for b in rest[..int_len].bytes() {
            // Go's leadingInt: overflow is an error.
            if whole > (limit - 1) / 10 {
                return None;
            }
            whole = whole * 10 + u64::from(b - b'0');
            if whole > limit {
                return None;
            }
        }
        rest = &rest[int_len..];
        let mut fraction = (0u64, 1f64, false);
        if let Some(after) = rest.strip_prefix('.') {
            let frac_len = after.bytes().take_while(u8::is_ascii_digit).count();
            for b in after[..frac_len].bytes() {
                // Go's leadingFraction: digits past what fits are ignored.
                if fraction.0 <= (limit - 1) / 10 {
                    fraction.0 = fraction.0 * 10 + u64::from(b - b'0');
                    fraction.1 *= 10.0;
                }
            }
            fraction.2 = frac_len > 0;
            rest = &after[frac_len..];
        }
        if int_len == 0 && !fraction.2 {
            return None;
        }
        let unit_len = rest
            .bytes()
            .take_while(|b| *b != b'.' && !b.is_ascii_digit())
            .count();
        if unit_len == 0 {
            return None;
        }
        let unit = UNITS.iter().find(|(u, _)| *u == &rest[..unit_len])?.1;
        rest = &rest[unit_len..];
        if whole > limit / unit {
            return None;
        }
        let mut v = whole * unit;
        if fraction.0 > 0 {
            v += (fraction.0 as f64 * (unit as f64 / fraction.1)) as u64;
            if v > limit {
                return None;
            }
        }
        total = total.checked_add(v).filter(|t| *t <= limit)?;
    }
    (s.starts_with('-') || total < limit).then_some(())
}

/// strfmt's fallback: every `<digits><space><letters>` found; valid when one names a unit
/// (`ns`, `us`/`µs`/`micro…`, `ms`/`milli…`, `s`/`sec…`, `m`/`min…`, `h`/`hr`/`hour…`,
/// `d`/`day…`, `w`/`wk`/`week…`), invalid as soon as a number overflows Go's `int`.
fn worded_duration(s: &str) -> bool {
    const UNITS: &[&[&str]] = &[
        &["ns", "nano"],
        &["us", "\u{b5}s", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    static MATCHER: OnceLock<Regex> = OnceLock::new();
    let matcher = MATCHER.get_or_init(|| {
        Regex::new(r"(([0-9]+)[\t\n\x0C\r ]*([A-Za-z\u{b5}]+))").expect("the pattern compiles")
    });
    let mut named = false;
    for caps in matcher.captures_iter(s) {
        if caps[2].parse::<i64>().is_err() {
            return false;
        }
        let unit = caps[3].to_lowercase();
        named |= UNITS.iter().any(|variants| {
            let last = variants.len() - 1;
            variants
                .iter()
                .enumerate()
                .any(|(i, v)| (i == last && unit.starts_with(v)) || unit.eq_ignore_ascii_case(v))
        });
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        for ok in [
            "0", "-0", "1h30m", "1.5h", ".5s", "5.s", "300ms", "2\u{b5}s", "-1m", "1h1h",
        ] {
            assert!(go_duration(ok).is_some(), "{ok}");
        }
        for bad in [
            "",
            "-",
            "1",
            "h",
            ".s",
            "1d",
            "1x",
            "3000000h",
            "9223372036854775808ns",
        ] {
            assert!(go_duration(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn worded_durations() {
        for ok in [
            "3 weeks",
            "1 day",
            "10min",
            "2 HOURS",
            "5 secs and more",
            "1.5d",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in ["soon", "3", "5 x", "99999999999999999999 days"] {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
