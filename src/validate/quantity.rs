//! Which text `resource.ParseQuantity` refuses, and with which of its three errors: the form
//! is wrong, the suffix is unknown, or the number does not parse. Transcribed from
//! k8s.io/apimachinery/pkg/api/resource quantity.go (`parseQuantityString`, `ParseQuantity`)
//! and suffix.go (`suffixer.interpret`); `Quantity.UnmarshalJSON` strips the JSON quotes and
//! surrounding white space first.

use super::gojson;
use crate::defaults::quantity_text::{fast_path, interpret, split, FastPath};
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
    let Ok(parts) = split(text) else {
        return Some(QuantityError::Format);
    };
    let Some(suffix) = interpret(parts.suffix) else {
        return Some(QuantityError::Suffix);
    };
    // The fast path (an int64 scaled by a power of ten) cannot fail; the slow path reparses
    // the number and fails when it has no digit at all.
    let fast = !matches!(fast_path(&parts, suffix), FastPath::No);
    let has_digit = parts.value.bytes().any(|b| b.is_ascii_digit());
    (!fast && !has_digit).then_some(QuantityError::Numeric)
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
