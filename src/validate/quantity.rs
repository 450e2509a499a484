//! Which text `resource.ParseQuantity` refuses, and with which of its three errors: the form
//! is wrong, the suffix is unknown, or the number does not parse. Transcribed from
//! k8s.io/apimachinery/pkg/api/resource quantity.go (`parseQuantityString`, `ParseQuantity`)
//! and suffix.go (`suffixer.interpret`); `Quantity.UnmarshalJSON` strips the JSON quotes and
//! surrounding white space first.

use super::gojson;
use crate::value::Value;

/// `splitREString`, quoted by the format error.
const SPLIT_RE: &str = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

/// The three errors of `ParseQuantity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantityError {
    /// `ErrFormatWrong`.
    Format,
    /// `ErrSuffix`.
    Suffix,
    /// `ErrNumeric`.
    Numeric,
}

impl QuantityError {
    pub fn message(self) -> String {
        match self {
            QuantityError::Format => {
                format!("quantities must match the regular expression '{SPLIT_RE}'")
            }
            QuantityError::Suffix => "unable to parse quantity's suffix".into(),
            QuantityError::Numeric => "unable to parse numeric part of quantity".into(),
        }
    }
}

/// What `Quantity.UnmarshalJSON` says of a value (as `json.Marshal` writes it): `None` when it
/// decodes, `null` included.
pub fn unmarshal_error(v: &Value) -> Option<QuantityError> {
    let json = match v {
        Value::Null => return None,
        Value::Map(_) => "{".to_string(),
        Value::List(_) => "[".to_string(),
        // NaN and infinities never reach the server: the client cannot encode them.
        v => gojson::marshal_scalar(v)?,
    };
    let text = json
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(&json);
    parse_error(text.trim())
}

/// `ParseQuantity(text)`'s error, if any.
pub fn parse_error(text: &str) -> Option<QuantityError> {
    if text.is_empty() {
        return Some(QuantityError::Format);
    }
    if text == "0" {
        return None;
    }
    let parts = match split(text) {
        Ok(parts) => parts,
        Err(e) => return Some(e),
    };
    let Some((base, exponent)) = interpret(parts.suffix) else {
        return Some(QuantityError::Suffix);
    };
    // The fast path (an int64 scaled by a power of ten) cannot fail; the slow path reparses
    // the number and fails when it has no digit at all.
    let digits = parts.num.len() + parts.denom.len();
    let precision = match base {
        10 => 18 - digits as i64,
        _ if exponent >= 0 && parts.denom.is_empty() => {
            15 - parts.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1
        }
        _ => -1,
    };
    let scale = if base == 10 { exponent } else { 0 } - parts.denom.len() as i64;
    let fast = precision >= 0 && scale >= -9;
    let has_digit = parts.value.bytes().any(|b| b.is_ascii_digit());
    (!fast && !has_digit).then_some(QuantityError::Numeric)
}

struct Parts<'a> {
    /// The sign and number as written (`value` in Go).
    value: &'a str,
    /// The integer digits without leading zeros (`"0"` when there are none).
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`; `Err` is the format error.
fn split(text: &str) -> Result<Parts<'_>, QuantityError> {
    let b = text.as_bytes();
    let end = b.len();
    let mut pos = usize::from(matches!(b[0], b'-' | b'+'));
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok(Parts {
            value: "0",
            num: "0",
            denom: "",
            suffix: "",
        });
    }
    let num_start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    let num = if pos == num_start {
        "0"
    } else {
        &text[num_start..pos]
    };
    if pos >= end {
        return Ok(Parts {
            value: text,
            num,
            denom: "",
            suffix: "",
        });
    }
    let mut denom = "";
    if b[pos] == b'.' {
        pos += 1;
        let start = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &text[start..pos];
        if pos >= end {
            return Ok(Parts {
                value: text,
                num,
                denom,
                suffix: "",
            });
        }
    }
    let value = &text[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return Err(QuantityError::Format);
    }
    Ok(Parts {
        value,
        num,
        denom,
        suffix: &text[suffix_start..],
    })
}

/// `suffixer.interpret`: the base (2 or 10) and exponent of a suffix.
fn interpret(suffix: &str) -> Option<(u32, i64)> {
    const BINARY: [(&str, i64); 6] = [
        ("Ki", 10),
        ("Mi", 20),
        ("Gi", 30),
        ("Ti", 40),
        ("Pi", 50),
        ("Ei", 60),
    ];
    // The decimal suffixes are the ones the canonical form prints (crate::defaults::quantity).
    use crate::defaults::quantity::DECIMAL;
    if let Some((_, e)) = DECIMAL.iter().find(|(s, _)| *s == suffix) {
        return Some((10, i64::from(*e)));
    }
    if let Some((_, e)) = BINARY.iter().find(|(s, _)| *s == suffix) {
        return Some((2, *e));
    }
    let digits = suffix.strip_prefix(['e', 'E'])?;
    // strconv.ParseInt: an optional sign, then decimal digits.
    let unsigned = digits.strip_prefix(['+', '-']).unwrap_or(digits);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse::<i64>()
        .ok()
        .map(|e| (10, i64::from(e as i32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_quantities() {
        for ok in [
            "0",
            "1",
            "100m",
            "1.5",
            "1Gi",
            "512Mi",
            "1e3",
            "1E-3",
            "-1",
            "+2k",
            ".5",
            "1.",
            "0.000000001",
            "1.5Gi",
            "m",
            "-",
            ".",
        ] {
            assert_eq!(parse_error(ok), None, "{ok}");
        }
    }

    #[test]
    fn refused_quantities() {
        use QuantityError::*;
        for (bad, want) in [
            ("", Format),
            ("abc", Format),
            ("100mb", Format),
            ("1GB", Format),
            ("1.5.5", Format),
            ("1 m", Format),
            ("192i", Suffix),
            ("1K", Suffix),
            ("1e", Suffix),
            ("1Ki1", Suffix),
            ("1mi", Suffix),
        ] {
            assert_eq!(parse_error(bad), Some(want), "{bad}");
        }
    }

    #[test]
    fn json_values_are_unquoted_and_trimmed() {
        assert_eq!(unmarshal_error(&Value::from(" 1Gi ")), None);
        assert_eq!(unmarshal_error(&Value::Int(2)), None);
        assert_eq!(unmarshal_error(&Value::Float(0.5)), None);
        assert_eq!(unmarshal_error(&Value::Null), None);
        assert_eq!(
            unmarshal_error(&Value::Bool(true)),
            Some(QuantityError::Format)
        );
        // json.Marshal escapes the tab, which then does not trim.
        assert_eq!(
            unmarshal_error(&Value::from("\t1")),
            Some(QuantityError::Format)
        );
        assert_eq!(
            QuantityError::Format.message(),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
    }
}
