//! Timestamps as `metav1.Time` stores them: RFC 3339, UTC, whole seconds.

use std::fmt;

/// A point in time with the API server's precision (seconds since the Unix epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid RFC 3339 time {0:?}")]
pub struct TimeError(pub String);

impl Time {
    /// Parses `2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.5Z` or `2024-05-01T12:00:00+02:00`;
    /// fractions of a second are dropped, as `metav1.Time` serialization does.
    pub fn parse(text: &str) -> Result<Time, TimeError> {
        let err = || TimeError(text.to_string());
        let b = text.as_bytes();
        // Every valid time is ASCII; checking first keeps the byte slicing below on character
        // boundaries (found by fuzzing: a multi-byte character at byte 4 panicked).
        if !text.is_ascii()
            || b.len() < 20
            || b[4] != b'-'
            || b[7] != b'-'
            || !matches!(b[10], b'T' | b't')
            || b[13] != b':'
            || b[16] != b':'
        {
            return Err(err());
        }
        let num = |r: std::ops::Range<usize>| -> Result<i64, TimeError> {
            let s = &text[r];
            if s.bytes().all(|c| c.is_ascii_digit()) {
                s.parse().map_err(|_| err())
            } else {
                Err(err())
            }
        };
        let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&month)
            || !(1..=31).contains(&day)
            || hour > 23
            || minute > 59
            || second > 60
        {
            return Err(err());
        }
        let mut rest = &text[19..];
        if let Some(frac) = rest.strip_prefix('.') {
            let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return Err(err());
            }
            rest = &frac[digits..];
        }
        let offset = match rest {
            "Z" | "z" => 0,
            _ if rest.len() == 6 && matches!(&rest[..1], "+" | "-") && &rest[3..4] == ":" => {
                let sign = if rest.starts_with('-') { -1 } else { 1 };
                let at = 19 + text[19..].len() - 6;
                sign * (num(at + 1..at + 3)? * 3600 + num(at + 4..at + 6)? * 60)
            }
            _ => return Err(err()),
        };
        let days = days_from_civil(year, month, day);
        Ok(Time(
            days * 86400 + hour * 3600 + minute * 60 + second - offset,
        ))
    }
}

impl Time {
    /// The RFC 3339 text (`2024-05-01T10:00:00Z`) as bytes, for years 0 to 9999 (the others
    /// need more digits or a sign: `None`). Written digit by digit: timestamps are formatted
    /// for every object written, and `write!` costs ten times as much.
    pub fn rfc3339_bytes(self) -> Option<[u8; 20]> {
        let days = self.0.div_euclid(86400);
        let secs = self.0.rem_euclid(86400);
        let (y, m, d) = civil_from_days(days);
        if !(0..=9999).contains(&y) {
            return None;
        }
        let mut out = *b"0000-00-00T00:00:00Z";
        let mut put = |at: usize, width: usize, mut n: i64| {
            for i in (at..at + width).rev() {
                out[i] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        };
        put(0, 4, y);
        put(5, 2, m);
        put(8, 2, d);
        put(11, 2, secs / 3600);
        put(14, 2, secs % 3600 / 60);
        put(17, 2, secs % 60);
        Some(out)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(bytes) = self.rfc3339_bytes() {
            // Only ASCII digits and separators were written.
            return f.write_str(std::str::from_utf8(&bytes).unwrap_or_default());
        }
        let days = self.0.div_euclid(86400);
        let secs = self.0.rem_euclid(86400);
        let (y, m, d) = civil_from_days(days);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        )
    }
}

// Howard Hinnant's algorithms for the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_byte_characters_are_an_error() {
        for text in [
            "2024ƟƟ05-01T10:00:00Z",
            "2024-05-01T10:00:0ƟZ",
            "2024-05-01T10:00:00+0Ɵ00",
        ] {
            assert!(Time::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn round_trips_to_utc_seconds() {
        let t = Time::parse("2024-05-01T10:01:00.7Z").unwrap();
        assert_eq!(t.to_string(), "2024-05-01T10:01:00Z");
        assert_eq!(t.0, 1714557660);
        assert_eq!(Time::parse("2024-05-01T12:01:00+02:00").unwrap(), t);
        assert_eq!(Time::parse("1970-01-01T00:00:00Z").unwrap().0, 0);
        assert_eq!(Time(951782400).to_string(), "2000-02-29T00:00:00Z");
        // Beyond four-digit years the slow path writes what `write!` always wrote.
        assert_eq!(Time(253402300800).to_string(), "10000-01-01T00:00:00Z");
        assert_eq!(Time(-62135596801).to_string(), "0000-12-31T23:59:59Z");
    }

    #[test]
    fn rejects_malformed_times() {
        for bad in [
            "2024-05-01",
            "2024-05-01T10:00:00",
            "2024-13-01T10:00:00Z",
            "2024-05-01T10:00:00.Z",
        ] {
            assert_eq!(Time::parse(bad), Err(TimeError(bad.to_string())), "{bad}");
        }
    }
}
