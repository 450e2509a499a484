//! Go's `time.Parse` with the two layouts the API types decode times with — `metav1.Time`
//! (`time.RFC3339`) and `metav1.MicroTime` (`RFC3339Micro`, exactly six fraction digits) —
//! and its error texts (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as
//! "2006"`, `...: month out of range`). Transcribed from Go's time/format.go (`parse`,
//! `getnum`, `parseNanoseconds`, `ParseError.Error`, `quote`).

/// Which layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `time.RFC3339`.
    Rfc3339,
    /// apimachinery's `RFC3339Micro`.
    Rfc3339Micro,
}

impl Layout {
    fn text(self) -> &'static str {
        match self {
            Layout::Rfc3339 => "2006-01-02T15:04:05Z07:00",
            Layout::Rfc3339Micro => "2006-01-02T15:04:05.000000Z07:00",
        }
    }

    /// The layout's chunks: the literal before each element and the element.
    fn chunks(self) -> &'static [(&'static str, Elem)] {
        const RFC3339: &[(&str, Elem)] = &[
            ("", Elem::Year),
            ("-", Elem::Month),
            ("-", Elem::Day),
            ("T", Elem::Hour),
            (":", Elem::Minute),
            (":", Elem::Second),
            ("", Elem::Zone),
        ];
        const MICRO: &[(&str, Elem)] = &[
            ("", Elem::Year),
            ("-", Elem::Month),
            ("-", Elem::Day),
            ("T", Elem::Hour),
            (":", Elem::Minute),
            (":", Elem::Second),
            ("", Elem::Micros),
            ("", Elem::Zone),
        ];
        match self {
            Layout::Rfc3339 => RFC3339,
            Layout::Rfc3339Micro => MICRO,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    Micros,
    Zone,
}

impl Elem {
    fn layout(self) -> &'static str {
        match self {
            Elem::Year => "2006",
            Elem::Month => "01",
            Elem::Day => "02",
            Elem::Hour => "15",
            Elem::Minute => "04",
            Elem::Second => "05",
            Elem::Micros => ".000000",
            Elem::Zone => "Z07:00",
        }
    }
}

/// Why an element failed: it does not parse, or its value is out of range.
enum Failure {
    Bad,
    Range(&'static str),
}

/// `time.Parse(layout, value)`'s error text, or `None` when `value` parses.
pub fn parse_error(layout: Layout, value: &str) -> Option<String> {
    let cannot_parse = |value_elem: &str, layout_elem: &str| {
        format!(
            "parsing time {} as {}: cannot parse {} as {}",
            quote(value),
            quote(layout.text()),
            quote(value_elem),
            quote(layout_elem)
        )
    };
    let with_message = |message: &str| format!("parsing time {}{message}", quote(value));
    let mut rest = value;
    let (mut year, mut month, mut day) = (0i64, 0u32, 0u32);
    for &(prefix, elem) in layout.chunks() {
        match rest.strip_prefix(prefix) {
            Some(r) => rest = r,
            None => return Some(cannot_parse(rest, prefix)),
        }
        let hold = rest;
        let failure = match elem {
            Elem::Year => {
                let b = rest.as_bytes();
                if b.len() < 4 || !b[0].is_ascii_digit() || !b[..4].iter().all(u8::is_ascii_digit) {
                    Some(Failure::Bad)
                } else {
                    year = rest[..4].parse().unwrap_or(0);
                    rest = &rest[4..];
                    None
                }
            }
            Elem::Month => number(&mut rest, true, |n| {
                month = n;
                (!(1..=12).contains(&n)).then_some("month")
            }),
            Elem::Day => number(&mut rest, true, |n| {
                day = n;
                None
            }),
            Elem::Hour => number(&mut rest, false, |n| (n >= 24).then_some("hour")),
            Elem::Minute => number(&mut rest, true, |n| (n >= 60).then_some("minute")),
            Elem::Second => {
                let failure = number(&mut rest, true, |n| (n >= 60).then_some("second"));
                // A fraction the layout does not name is accepted (and dropped).
                if failure.is_none() && layout == Layout::Rfc3339 {
                    let b = rest.as_bytes();
                    if b.len() >= 2 && matches!(b[0], b'.' | b',') && b[1].is_ascii_digit() {
                        let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                        rest = &rest[n..];
                    }
                }
                failure
            }
            Elem::Micros => {
                let b = rest.as_bytes();
                if b.len() < 7
                    || !matches!(b[0], b'.' | b',')
                    || !b[1..7].iter().all(u8::is_ascii_digit)
                {
                    Some(Failure::Bad)
                } else {
                    rest = &rest[7..];
                    None
                }
            }
            Elem::Zone => zone(&mut rest),
        };
        match failure {
            Some(Failure::Range(what)) => {
                return Some(with_message(&format!(": {what} out of range")))
            }
            Some(Failure::Bad) => return Some(cannot_parse(hold, elem.layout())),
            None => {}
        }
    }
    if !rest.is_empty() {
        return Some(with_message(&format!(": extra text: {}", quote(rest))));
    }
    if day < 1 || day > days_in(month, year) {
        return Some(with_message(": day out of range"));
    }
    None
}

/// `getnum`: one or two digits (`fixed`: exactly two), then the range check.
fn number(
    rest: &mut &str,
    fixed: bool,
    range: impl FnOnce(u32) -> Option<&'static str>,
) -> Option<Failure> {
    let b = rest.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if !digit(0) {
        return Some(Failure::Bad);
    }
    let len = if digit(1) {
        2
    } else if fixed {
        return Some(Failure::Bad);
    } else {
        1
    };
    let n: u32 = rest[..len].parse().unwrap_or(0);
    *rest = &rest[len..];
    range(n).map(Failure::Range)
}

/// `Z07:00`: `Z`, or a sign, two hour digits, `:` and two minute digits.
fn zone(rest: &mut &str) -> Option<Failure> {
    if let Some(r) = rest.strip_prefix('Z') {
        *rest = r;
        return None;
    }
    let b = rest.as_bytes();
    if b.len() < 6 || b[3] != b':' {
        return Some(Failure::Bad);
    }
    let two = |s: &[u8]| {
        (s[0].is_ascii_digit() && s[1].is_ascii_digit())
            .then(|| u32::from(s[0] - b'0') * 10 + u32::from(s[1] - b'0'))
    };
    let (Some(hours), Some(minutes)) = (two(&b[1..3]), two(&b[4..6])) else {
        return Some(Failure::Bad);
    };
    let mut range = None;
    if hours > 24 {
        range = Some("time zone offset hour");
    }
    if minutes > 60 {
        range = Some("time zone offset minute");
    }
    *rest = &rest[6..];
    // A range error wins over a bad sign, as Go checks ranges first.
    match range {
        Some(what) => Some(Failure::Range(what)),
        None if !matches!(b[0], b'+' | b'-') => Some(Failure::Bad),
        None => None,
    }
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The time package's `quote`: double quotes, `"` and `\` escaped, bytes of non-ASCII and
/// control characters as `\xNN`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if (c as u32) < 0x20 || (c as u32) >= 0x80 {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc(v: &str) -> Option<String> {
        parse_error(Layout::Rfc3339, v)
    }

    #[test]
    fn valid_times_parse() {
        for ok in [
            "2024-01-02T03:04:05Z",
            "2024-01-02T03:04:05+01:00",
            "2024-01-02T03:04:05.123Z",
            "2024-02-29T00:00:00Z",
            "2024-01-02T3:04:05Z",
        ] {
            assert_eq!(rfc(ok), None, "{ok}");
        }
        assert_eq!(
            parse_error(Layout::Rfc3339Micro, "2024-01-02T03:04:05.123456Z"),
            None
        );
    }

    #[test]
    fn errors_quote_the_element() {
        assert_eq!(
            rfc("").unwrap(),
            r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#
        );
        assert_eq!(
            rfc("2024-01-02").unwrap(),
            r#"parsing time "2024-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#
        );
        assert_eq!(
            rfc("2024/01/02T00:00:00Z").unwrap(),
            r#"parsing time "2024/01/02T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/02T00:00:00Z" as "-""#
        );
        assert_eq!(
            rfc("2024-01-02 03:04:05Z").unwrap(),
            r#"parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T""#
        );
        assert_eq!(
            rfc("2024-01-02T03:04:05").unwrap(),
            r#"parsing time "2024-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#
        );
        assert_eq!(
            parse_error(Layout::Rfc3339Micro, "2024-01-02T03:04:05Z").unwrap(),
            r#"parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000""#
        );
    }

    #[test]
    fn ranges_and_extra_text() {
        assert_eq!(
            rfc("2024-13-02T03:04:05Z").unwrap(),
            r#"parsing time "2024-13-02T03:04:05Z": month out of range"#
        );
        assert_eq!(
            rfc("2023-02-29T03:04:05Z").unwrap(),
            r#"parsing time "2023-02-29T03:04:05Z": day out of range"#
        );
        assert_eq!(
            rfc("2024-01-02T24:04:05Z").unwrap(),
            r#"parsing time "2024-01-02T24:04:05Z": hour out of range"#
        );
        assert_eq!(
            rfc("2024-01-02T03:04:05Zjunk").unwrap(),
            r#"parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk""#
        );
    }
}
