//! The distinguished names and validity times of a certificate, with crypto/x509's errors
//! (parser.go `parseName`, `parseASN1String`, `parseValidity`; cryptobyte's
//! `ReadASN1UTCTime` / `ReadASN1GeneralizedTime`, which parse with Go's `time.Parse` and
//! accept only a value that formats back to the same text).

use super::der::{self, Der};
use super::Parsed;

/// `parseName` over a Name element (an RDNSequence).
pub fn parse_name(name: &[u8]) -> Parsed<()> {
    let mut rdns = Der(Der(name)
        .read(der::SEQUENCE)
        .ok_or("x509: invalid RDNSequence")?);
    while !rdns.is_empty() {
        let mut set = Der(rdns.read(der::SET).ok_or("x509: invalid RDNSequence")?);
        while !set.is_empty() {
            let mut attribute = Der(set
                .read(der::SEQUENCE)
                .ok_or("x509: invalid RDNSequence: invalid attribute")?);
            attribute
                .oid()
                .ok_or("x509: invalid RDNSequence: invalid attribute type")?;
            let (tag, value) = attribute
                .any()
                .ok_or("x509: invalid RDNSequence: invalid attribute value")?;
            if let Err(why) = string_value(tag, value) {
                return Err(format!(
                    "x509: invalid RDNSequence: invalid attribute value: {why}"
                ));
            }
        }
    }
    Ok(())
}

/// `isPrintable`: the PrintableString set, with `*` and `&`, which Go lets through.
fn printable(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b" '()+,-./:=?*&".contains(&b)
}

/// `parseASN1String`'s refusals of an attribute value of type `tag`.
fn string_value(tag: u8, value: &[u8]) -> Result<(), String> {
    let ok = match tag {
        der::T61_STRING => true,
        der::PRINTABLE_STRING => value.iter().all(|b| printable(*b)),
        der::UTF8_STRING => std::str::from_utf8(value).is_ok(),
        der::BMP_STRING => {
            let value = match value {
                [rest @ .., 0, 0] if value.len().is_multiple_of(2) => rest,
                _ => value,
            };
            value.len().is_multiple_of(2)
                && value.chunks(2).all(|pair| {
                    let point = u16::from_be_bytes([pair[0], pair[1]]);
                    !(point >= 0xfffe
                        || (0xfdd0..=0xfdef).contains(&point)
                        || (0xd800..=0xdfff).contains(&point))
                })
        }
        der::IA5_STRING => value.is_ascii(),
        der::NUMERIC_STRING => value.iter().all(|b| b.is_ascii_digit() || *b == b' '),
        _ => return Err(format!("unsupported string type: {tag}")),
    };
    if ok {
        return Ok(());
    }
    Err(match tag {
        der::PRINTABLE_STRING => "invalid PrintableString",
        der::UTF8_STRING => "invalid UTF-8 string",
        der::BMP_STRING => "invalid BMPString",
        der::IA5_STRING => "invalid IA5String",
        _ => "invalid NumericString",
    }
    .into())
}

/// `parseValidity`: two times, each a UTCTime or a GeneralizedTime.
pub fn parse_validity(validity: &[u8]) -> Parsed<()> {
    let mut times = Der(validity);
    for _ in 0..2 {
        match times.peek_tag() {
            Some(der::UTC_TIME) => {
                let text = times.read(der::UTC_TIME).unwrap_or_default();
                if !utc_time(text) {
                    return Err("x509: malformed UTCTime".into());
                }
            }
            Some(der::GENERALIZED_TIME) => {
                let text = times.read(der::GENERALIZED_TIME);
                if !text.is_some_and(generalized_time) {
                    return Err("x509: malformed GeneralizedTime".into());
                }
            }
            _ => return Err("x509: unsupported time format".into()),
        }
    }
    Ok(())
}

/// Two ASCII digits.
fn two_digits(text: &[u8]) -> Option<u32> {
    match text {
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        }
        _ => None,
    }
}

/// A date and time Go's `time.Parse` accepts (`month`, `day` in range for the month, hours,
/// minutes and seconds below 24, 60, 60).
fn calendar(year: i32, fields: &[u8]) -> bool {
    let numbers: Option<Vec<u32>> = fields.chunks(2).map(two_digits).collect();
    let Some(numbers) = numbers else {
        return false;
    };
    let [month, day, hour, minute, rest @ ..] = numbers.as_slice() else {
        return false;
    };
    let second = rest.first().copied().unwrap_or(0);
    chrono::NaiveDate::from_ymd_opt(year, *month, *day).is_some()
        && *hour < 24
        && *minute < 60
        && second < 60
}

/// The zone of a `Z0700` layout, as it formats back: `Z`, or a non-zero `±hhmm`.
fn zone(text: &[u8]) -> bool {
    match text {
        [b'Z'] => true,
        [sign, rest @ ..] if (*sign == b'+' || *sign == b'-') && rest.len() == 4 => {
            match (two_digits(&rest[..2]), two_digits(&rest[2..])) {
                (Some(h), Some(m)) => h <= 24 && m < 60 && (h, m) != (0, 0),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `060102150405Z0700`, or with minutes only (`0601021504Z0700`).
fn utc_time(text: &[u8]) -> bool {
    [12usize, 10].iter().any(|&digits| {
        text.len() > digits
            && two_digits(&text[..2]).is_some_and(|yy| {
                let year = if yy >= 69 { 1900 + yy } else { 2000 + yy };
                calendar(year as i32, &text[2..digits])
            })
            && zone(&text[digits..])
    })
}

/// `20060102150405.999999999Z0700`: a fraction only when not zero, without trailing zeros.
fn generalized_time(text: &[u8]) -> bool {
    if text.len() < 15 || !text[..14].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let year: i32 = std::str::from_utf8(&text[..4])
        .ok()
        .and_then(|y| y.parse().ok())
        .unwrap_or(-1);
    if !calendar(year, &text[4..14]) {
        return false;
    }
    let mut rest = &text[14..];
    if let [b'.', tail @ ..] = rest {
        let digits = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 9 || tail[digits - 1] == b'0' {
            return false;
        }
        rest = &tail[digits..];
    }
    zone(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_format_back_to_themselves() {
        assert!(utc_time(b"250101120000Z"));
        assert!(utc_time(b"2501011200Z"));
        assert!(utc_time(b"250101120000+0100"));
        assert!(!utc_time(b"250101120000+0000"));
        assert!(!utc_time(b"250230120000Z"));
        assert!(!utc_time(b"250101126000Z"));
        assert!(generalized_time(b"20250101120000Z"));
        assert!(generalized_time(b"20250101120000.5Z"));
        assert!(!generalized_time(b"20250101120000.50Z"));
        assert!(!generalized_time(b"20250101120000"));
    }

    #[test]
    fn attribute_strings() {
        assert!(string_value(der::PRINTABLE_STRING, b"Example *.co & Co").is_ok());
        assert_eq!(
            string_value(der::PRINTABLE_STRING, b"a@b").unwrap_err(),
            "invalid PrintableString"
        );
        assert_eq!(
            string_value(0x1c, b"x").unwrap_err(),
            "unsupported string type: 28"
        );
    }
}
