//! How `resource.ParseQuantity` reads a quantity's text, before any arithmetic: the pieces
//! `parseQuantityString` cuts it into, what `suffixer.interpret` makes of the suffix, and
//! whether the parse takes the fast path that keeps the text as written. Transcribed from
//! k8s.io/apimachinery/pkg/api/resource quantity.go (`parseQuantityString`, `ParseQuantity`)
//! and suffix.go (`suffixer.interpret`), v0.30–v0.36 (unchanged).
//!
//! The kept text matters: `Quantity.String()` and the JSON and protobuf encodings return it
//! verbatim, so a server stores `+1Gi`, `0.500` or `1e+3` as written, and only other texts
//! in canonical form.

use super::quantity::DECIMAL;

/// The pieces of a quantity's text.
pub(crate) struct Parts<'a> {
    /// The sign and number as written (`value` in Go).
    pub value: &'a str,
    /// The integer digits without leading zeros (`"0"` when there are none).
    pub num: &'a str,
    pub denom: &'a str,
    pub suffix: &'a str,
}

/// `parseQuantityString` of a non-empty text; `Err` is the format error.
pub(crate) fn split(text: &str) -> Result<Parts<'_>, ()> {
    let b = text.as_bytes();
    let end = b.len();
    let mut pos = usize::from(matches!(b.first(), Some(b'-' | b'+')));
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
        return Err(());
    }
    Ok(Parts {
        value,
        num,
        denom,
        suffix: &text[suffix_start..],
    })
}

/// How a suffix scales the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Suffix {
    /// `Ki` … `Ei`: a power of two.
    Binary(u32),
    /// `n` … `E` or none: a power of ten.
    DecimalSi(i32),
    /// `e3`, `E-3`: a power of ten.
    Exponent(i32),
}

/// `suffixer.interpret`; `None` is the suffix error.
pub(crate) fn interpret(suffix: &str) -> Option<Suffix> {
    const BINARY: [(&str, u32); 6] = [
        ("Ki", 10),
        ("Mi", 20),
        ("Gi", 30),
        ("Ti", 40),
        ("Pi", 50),
        ("Ei", 60),
    ];
    if let Some((_, e)) = DECIMAL.iter().find(|(s, _)| *s == suffix) {
        return Some(Suffix::DecimalSi(*e));
    }
    if let Some((_, e)) = BINARY.iter().find(|(s, _)| *s == suffix) {
        return Some(Suffix::Binary(*e));
    }
    let digits = suffix.strip_prefix(['e', 'E'])?;
    // strconv.ParseInt(…, 10, 32): an optional sign, then decimal digits that fit an int32.
    let unsigned = digits.strip_prefix(['+', '-']).unwrap_or(digits);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<i32>().ok().map(Suffix::Exponent)
}

/// What `ParseQuantity`'s fast path (an int64 at a decimal scale no finer than nano) decides.
pub(crate) enum FastPath {
    /// The slow path (`inf.Dec`) parses it.
    No,
    /// The fast path parses it into an `int64Amount` (`value × 10^scale`, the sign applied by
    /// the caller); `keeps_text` when the text as written is cached (printed instead of the
    /// canonical form).
    Parsed {
        value: i64,
        scale: i32,
        keeps_text: bool,
    },
}

/// `ParseQuantity`'s fast path for `parts` and its interpreted suffix.
pub(crate) fn fast_path(parts: &Parts<'_>, suffix: Suffix) -> FastPath {
    let digits = (parts.num.len() + parts.denom.len()) as i64;
    let (precision, scale, mantissa, binary_exponent) = match suffix {
        Suffix::DecimalSi(e) | Suffix::Exponent(e) => (18 - digits, i64::from(e), 1i64, None),
        Suffix::Binary(e) if parts.denom.is_empty() => {
            let precision = 15 - parts.num.len() as i64 - (e as f32 * 3.0 / 10.0) as i64 - 1;
            (precision, 0, 1i64 << e, Some(e))
        }
        Suffix::Binary(_) => (-1, 0, 1, None),
    };
    let scale = scale - parts.denom.len() as i64;
    if precision < 0 || scale < -9 {
        return FastPath::No;
    }
    let shifted = [parts.num, parts.denom].concat();
    let Ok(value) = shifted.parse::<i64>() else {
        return FastPath::No;
    };
    let Some(result) = value.checked_mul(mantissa) else {
        return FastPath::No;
    };
    let keeps_text = match binary_exponent {
        Some(e) => e % 10 == 0 && value & 0x07 != 0,
        None => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
    };
    FastPath::Parsed {
        value: result,
        scale: scale as i32,
        keeps_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the parse keeps `text` as written.
    fn kept_as_written(text: &str) -> bool {
        crate::defaults::quantity::Quantity::parse_keeping(text).is_some_and(|(_, kept)| kept)
    }

    #[test]
    fn texts_the_fast_path_keeps() {
        // Checked against Go 1.26 with apimachinery v0.34's resource package.
        for kept in [
            "0", "1", "100m", "1Gi", "3Gi", "+1Gi", "001Gi", "1e3", "1e+3", "1.500", "1500",
        ] {
            assert!(kept_as_written(kept), "{kept}");
        }
        for canonical in [
            "1000", "0.5", "0.500", "8Gi", "1024Mi", "1.5Gi", "12e2", "1.000", "-m", "0Gi", ".",
        ] {
            assert!(!kept_as_written(canonical), "{canonical}");
        }
    }

    #[test]
    fn exponents_must_fit_an_int32() {
        assert_eq!(interpret("e9"), Some(Suffix::Exponent(9)));
        assert_eq!(interpret("E-3"), Some(Suffix::Exponent(-3)));
        assert_eq!(interpret("e3000000000"), None);
        assert_eq!(interpret("e"), None);
        assert_eq!(interpret("E"), Some(Suffix::DecimalSi(18)));
    }
}
