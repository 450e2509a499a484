//! The CronJob schedule syntax as the API server checks it: github.com/robfig/cron/v3 (v3.0.1)
//! `ParseStandard` (parser.go `Parse`, `normalizeFields`, `getField`, `getRange`,
//! `parseIntOrName`, `mustParseInt`, `parseDescriptor`; bounds from spec.go), with the Go
//! library pieces its errors quote: `strconv.Atoi` and `time.ParseDuration` (time/format.go).

use super::tz;
use crate::validate::goprint::go_quote;

/// Why a schedule does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CronError {
    /// The parser's error text (`err.Error()`).
    Invalid(String),
    /// A `TZ=`/`CRON_TZ=` prefix with no space after it: robfig/cron slices with the index -1
    /// and panics (robfig/cron#470, #554), so the server answers with its panic handler.
    Panics,
}

/// A field's bounds and names (spec.go `bounds`).
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

/// The descriptors `parseDescriptor` knows besides `@every <duration>`.
const DESCRIPTORS: &[&str] = &[
    "@yearly",
    "@annually",
    "@monthly",
    "@weekly",
    "@daily",
    "@midnight",
    "@hourly",
];

/// `cron.ParseStandard(spec)`: five fields (minute, hour, day of month, month, day of week) or a
/// descriptor, after an optional `TZ=`/`CRON_TZ=` prefix.
pub fn parse_standard(spec: &str) -> Result<(), CronError> {
    let invalid = CronError::Invalid;
    if spec.is_empty() {
        return Err(invalid("empty spec string".into()));
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let Some(space) = spec.find(' ') else {
            return Err(CronError::Panics);
        };
        let eq = spec.find('=').unwrap_or(0);
        let name = &spec[eq + 1..space];
        if let Err(e) = tz::load_location(name) {
            return Err(invalid(format!("provided bad location {name}: {e}")));
        }
        spec = spec[space..].trim();
    }
    if spec.starts_with('@') {
        return descriptor(spec).map_err(invalid);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(invalid(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        )));
    }
    for (field, bounds) in fields.iter().zip([&MINUTES, &HOURS, &DOM, &MONTHS, &DOW]) {
        get_field(field, bounds).map_err(invalid)?;
    }
    Ok(())
}

/// `parseDescriptor`: an exact descriptor, or `@every ` and a Go duration.
fn descriptor(spec: &str) -> Result<(), String> {
    if DESCRIPTORS.contains(&spec) {
        return Ok(());
    }
    if let Some(duration) = spec.strip_prefix("@every ") {
        return parse_duration(duration)
            .map_err(|e| format!("failed to parse duration {spec}: {e}"));
    }
    Err(format!("unrecognized descriptor: {spec}"))
}

/// `getField`: comma-separated ranges, empty ones skipped (`strings.FieldsFunc`).
fn get_field(field: &str, bounds: &Bounds) -> Result<(), String> {
    field
        .split(',')
        .filter(|r| !r.is_empty())
        .try_for_each(|expr| get_range(expr, bounds))
}

/// `getRange`: `*`, `?`, a number or name, or a range, each with an optional `/step`.
fn get_range(expr: &str, r: &Bounds) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (r.min, r.max)
    } else {
        let start = int_or_name(low_and_high[0], r)?;
        match low_and_high.len() {
            1 => (start, start),
            2 => (start, int_or_name(low_and_high[1], r)?),
            _ => return Err(format!("too many hyphens: {expr}")),
        }
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_parse_int(range_and_step[1])?;
            // "N/step" runs to the field's maximum.
            if single {
                end = r.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < r.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            r.min
        ));
    }
    if end > r.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            r.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// `parseIntOrName`: a month or weekday name (any case), else a number.
fn int_or_name(expr: &str, r: &Bounds) -> Result<u64, String> {
    let lower = expr.to_lowercase();
    match r.names.iter().find(|(name, _)| *name == lower) {
        Some((_, n)) => Ok(*n),
        None => must_parse_int(expr),
    }
}

/// `mustParseInt`: `strconv.Atoi`, not negative.
fn must_parse_int(expr: &str) -> Result<u64, String> {
    let n = atoi(expr).map_err(|e| format!("failed to parse int from {expr}: {e}"))?;
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {expr}"));
    }
    Ok(n as u64)
}

/// Go's `strconv.Atoi` on a 64-bit platform, with its error text.
fn atoi(s: &str) -> Result<i64, String> {
    let err = |what: &str| format!("strconv.Atoi: parsing {}: {what}", go_quote(s));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(err("invalid syntax"));
    }
    // ParseUint reads left to right: a bad digit before the overflow is a syntax error.
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(err("invalid syntax"));
        }
        n = match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
        {
            Some(n) => n,
            None => return Err(err("value out of range")),
        };
    }
    let limit = 1u64 << 63;
    match (neg, n) {
        (false, n) if n >= limit => Err(err("value out of range")),
        (true, n) if n > limit => Err(err("value out of range")),
        (false, n) => Ok(n as i64),
        (true, n) => Ok((n as i64).wrapping_neg()),
    }
}

/// Go's `time.ParseDuration` (`[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`), checking only; its errors
/// quote with the time package's `quote`.
fn parse_duration(orig: &str) -> Result<(), String> {
    let invalid = || format!("time: invalid duration {}", time_quote(orig));
    let mut s = orig;
    let mut neg = false;
    if let Some(rest) = s.strip_prefix(['-', '+']) {
        neg = s.starts_with('-');
        s = rest;
    }
    if s == "0" {
        return Ok(());
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut total: u64 = 0;
    while !s.is_empty() {
        let first = s.as_bytes()[0];
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u64 = 0;
        for b in s[..digits].bytes() {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(b - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
        }
        let pre = digits > 0;
        s = &s[digits..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for b in rest[..n].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(b - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            s = &rest[n..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .bytes()
            .take_while(|c| !(*c == b'.' || c.is_ascii_digit()))
            .count();
        if unit_len == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                time_quote(orig)
            ));
        }
        let unit_text = &s[..unit_len];
        s = &s[unit_len..];
        let unit: u64 = match unit_text {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    time_quote(unit_text),
                    time_quote(orig)
                ))
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        total += v;
        if total > LIMIT {
            return Err(invalid());
        }
    }
    if !neg && total > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(())
}

/// The time package's `quote`: printable ASCII as is (`"` and `\` escaped), every other byte
/// of a rune as `\xNN`.
fn time_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(spec: &str) -> String {
        match parse_standard(spec) {
            Err(CronError::Invalid(e)) => e,
            other => panic!("{spec:?}: {other:?}"),
        }
    }

    #[test]
    fn standard_schedules_and_descriptors_parse() {
        for ok in [
            "*/1 * * * *",
            "0 0 * * 0",
            "15,45 9-17/2 1-31 jan-DEC mon-fri",
            "0 0 ? * SUN",
            "5/15 * * * *",
            "*-5 * * * *",
            "0 0 1 */3 *",
            "@yearly",
            "@hourly",
            "@every 1h30m",
            "@every 0",
            "@every .5s",
            "TZ=UTC 0 3 * * *",
            "CRON_TZ=Europe/Paris @daily",
            "  0\t3 * * *  ",
        ] {
            assert_eq!(parse_standard(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn errors_are_robfig_crons() {
        assert_eq!(err("* * *"), "expected exactly 5 fields, found 3: [* * *]");
        assert_eq!(
            err("0 0 0 * * *"),
            "expected exactly 5 fields, found 6: [0 0 0 * * *]"
        );
        assert_eq!(
            err("61 * * * *"),
            "end of range (61) above maximum (59): 61"
        );
        assert_eq!(
            err("0 0 0 * *"),
            "beginning of range (0) below minimum (1): 0"
        );
        assert_eq!(
            err("5-1 * * * *"),
            "beginning of range (5) beyond end of range (1): 5-1"
        );
        assert_eq!(
            err("*/0 * * * *"),
            "step of range should be a positive number: */0"
        );
        assert_eq!(
            err("*/* 24 * * *"),
            "failed to parse int from *: strconv.Atoi: parsing \"*\": invalid syntax"
        );
        assert_eq!(
            err("0 0 * * MON-"),
            "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax"
        );
        assert_eq!(err("*/-5 * * * *"), "negative number (-5) not allowed: -5");
        assert_eq!(err("1-2-3 * * * *"), "too many hyphens: 1-2-3");
        assert_eq!(err("1/2/3 * * * *"), "too many slashes: 1/2/3");
        assert_eq!(
            err("99999999999999999999 * * * *"),
            "failed to parse int from 99999999999999999999: strconv.Atoi: parsing \"99999999999999999999\": value out of range"
        );
        assert_eq!(err("@weekly "), "unrecognized descriptor: @weekly ");
        assert_eq!(err("@reboot"), "unrecognized descriptor: @reboot");
        assert_eq!(
            err("@every 1d"),
            "failed to parse duration @every 1d: time: unknown unit \"d\" in duration \"1d\""
        );
        assert_eq!(
            err("@every 10"),
            "failed to parse duration @every 10: time: missing unit in duration \"10\""
        );
        assert_eq!(
            err("@every x"),
            "failed to parse duration @every x: time: invalid duration \"x\""
        );
        assert_eq!(
            err("TZ=Mars/Olympus 0 * * * *"),
            "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"
        );
        assert_eq!(parse_standard("TZ=UTC"), Err(CronError::Panics));
    }

    #[test]
    fn durations_overflow_like_go() {
        assert!(parse_duration("2562047h").is_ok());
        assert_eq!(
            parse_duration("2562048h"),
            Err("time: invalid duration \"2562048h\"".into())
        );
        assert_eq!(parse_duration("1µs").map_err(|_| ()), Ok(()), "micro sign");
        assert_eq!(
            parse_duration("1é"),
            Err("time: unknown unit \"\\xc3\\xa9\" in duration \"1\\xc3\\xa9\"".into())
        );
    }
}
