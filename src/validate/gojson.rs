//! What Go's `encoding/json` and `encoding/base64` do with a value, where the API server's
//! messages quote them: the JSON text `json.Marshal` writes for a string or a number, the
//! offset `base64.StdEncoding` reports for bad input, and `UnmarshalTypeError`'s text.
//! Transcribed from the Go standard library (encode.go `encodeState.string`/`floatEncoder`,
//! base64.go `decodeQuantum`, decode.go `UnmarshalTypeError.Error`).

use crate::value::Value;

/// The text `json.Marshal` writes for a scalar (HTML-escaping strings, as it does by default);
/// `None` for maps, lists and numbers JSON cannot carry (NaN, infinities).
pub fn marshal_scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        Value::Float(f) => float_text(*f),
        Value::String(s) => Some(marshal_string(s)),
        _ => None,
    }
}

/// `json.Marshal` of a string: quoted, `"` and `\` escaped, control characters as `\n`-style
/// or `\u00XX`, `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`.
pub fn marshal_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `json.Marshal` of a float64: shortest digits, plain between 1e-6 and 1e21, else the `e`
/// form with at least two exponent digits when positive (`1e+21`) and none padded when
/// negative (`1e-7`). A whole float prints without a point (`30`).
pub fn float_text(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let abs = f.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        return Some(format!("{f}"));
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    Some(if exp < 0 {
        format!("{mantissa}e-{}", -exp)
    } else {
        format!("{mantissa}e+{exp:02}")
    })
}

/// The offset `base64.StdEncoding.DecodeString` reports (`illegal base64 data at input byte
/// N`), or `None` when `src` decodes. Line breaks are skipped, padding is required, bits after
/// the last full byte are not checked (the encoding is not strict).
pub fn base64_error_offset(src: &[u8]) -> Option<usize> {
    let newline = |b: u8| b == b'\n' || b == b'\r';
    let alphabet = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
    let mut si = 0;
    while si < src.len() {
        // One quantum of four characters.
        let mut sextets = 0;
        while sextets < 4 {
            if si == src.len() {
                return (sextets != 0).then(|| si - sextets);
            }
            let c = src[si];
            si += 1;
            if alphabet(c) {
                sextets += 1;
                continue;
            }
            if newline(c) {
                continue;
            }
            if c != b'=' {
                return Some(si - 1);
            }
            // Padding: the quantum ends here.
            match sextets {
                0 | 1 => return Some(si - 1),
                2 => {
                    while si < src.len() && newline(src[si]) {
                        si += 1;
                    }
                    if si == src.len() {
                        return Some(src.len());
                    }
                    if src[si] != b'=' {
                        return Some(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && newline(src[si]) {
                si += 1;
            }
            return (si < src.len()).then_some(si);
        }
    }
    None
}

/// `json.UnmarshalTypeError.Error()`: `value` is what the JSON held (`number 1.5`, `string`,
/// `bool`, `object`, `array`); `context` the innermost struct and the field path of struct
/// fields (`PodSpec`, `spec.template.spec.terminationGracePeriodSeconds`), when the decoder
/// was inside a struct.
pub fn unmarshal_type_error(value: &str, go_type: &str, context: Option<(&str, &str)>) -> String {
    match context {
        Some((strukt, field)) => {
            format!("json: cannot unmarshal {value} into Go struct field {strukt}.{field} of type {go_type}")
        }
        None => format!("json: cannot unmarshal {value} into Go value of type {go_type}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_go_marshals_them() {
        assert_eq!(float_text(1.5).unwrap(), "1.5");
        assert_eq!(float_text(30.0).unwrap(), "30");
        assert_eq!(float_text(3e9).unwrap(), "3000000000");
        assert_eq!(float_text(1e21).unwrap(), "1e+21");
        assert_eq!(float_text(1.5e-7).unwrap(), "1.5e-7");
        assert_eq!(float_text(-2.5e-10).unwrap(), "-2.5e-10");
        assert_eq!(float_text(f64::NAN), None);
    }

    #[test]
    fn strings_escape_as_go_does() {
        assert_eq!(marshal_string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(marshal_string("1<2\t"), r#""1\u003c2\t""#);
        assert_eq!(marshal_string("\u{1}"), r#""\u0001""#);
    }

    #[test]
    fn base64_offsets_match_go() {
        assert_eq!(base64_error_offset(b"aGVsbG8="), None);
        assert_eq!(base64_error_offset(b"aGVs\nbG8="), None);
        assert_eq!(base64_error_offset(b""), None);
        // A character outside the alphabet.
        assert_eq!(base64_error_offset(b"not base64!"), Some(3));
        assert_eq!(base64_error_offset(b"aGVsbG8*"), Some(7));
        // Missing padding: the offset of the unfinished quantum.
        assert_eq!(base64_error_offset(b"aGVsbG8"), Some(4));
        assert_eq!(base64_error_offset(b"abcde"), Some(4));
        // Padding too early, or too short.
        assert_eq!(base64_error_offset(b"a==="), Some(1));
        assert_eq!(base64_error_offset(b"ab="), Some(3));
        assert_eq!(base64_error_offset(b"ab=x"), Some(2));
        // Trailing data after the padding.
        assert_eq!(base64_error_offset(b"aGk=aGk="), Some(4));
        // A space where a line was folded.
        assert_eq!(base64_error_offset(b"aGVs bG8="), Some(4));
    }

    #[test]
    fn type_errors_name_the_struct_field() {
        assert_eq!(
            unmarshal_type_error("number 1.5", "int64", Some(("PodSpec", "spec.x"))),
            "json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.x of type int64"
        );
        assert_eq!(
            unmarshal_type_error("bool", "int32", None),
            "json: cannot unmarshal bool into Go value of type int32"
        );
    }
}
