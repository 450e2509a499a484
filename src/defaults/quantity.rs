//! Kubernetes resource quantities (`k8s.io/apimachinery/pkg/api/resource.Quantity`): parsing and
//! the canonical text the API server stores (`0.5` → `500m`, `1024Mi` → `1Gi`).
//!
//! Values are exact decimals `mantissa × 10^exponent` in `i128`; a quantity too large for that
//! is left as written (the caller keeps the original text).

use super::quantity_text::{fast_path, interpret, split, FastPath, Parts, Suffix};
use std::cmp::Ordering;

/// Go's `%#v` of the `resource.Quantity` that `ParseQuantity` makes of `text`, as releases
/// before 1.34 quote a quantity in a field error: `resource.Quantity{i:resource.int64Amount{
/// value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m",
/// Format:"DecimalSI"}`. `None` when the slow path parses it (an `inf.Dec` pointer, whose address
/// is not knowable) or the text is no quantity.
///
/// `milli_rounded`: the quantity sits in a `ResourceList`, which defaulting rounds up to milli
/// (`SetDefaults_ResourceList`); finer quantities are rescaled then, which is not modelled.
pub fn go_syntax(text: &str, milli_rounded: bool) -> Option<String> {
    let text = text.trim();
    let (value, scale, cached, format) = if text == "0" {
        (0, 0, "0", Format::DecimalSI)
    } else {
        let parts = split(text).ok()?;
        let suffix = interpret(parts.suffix)?;
        let FastPath::Parsed {
            value,
            scale,
            keeps_text,
        } = fast_path(&parts, suffix)
        else {
            return None;
        };
        let format = match suffix {
            Suffix::Binary(_) => Format::BinarySI,
            Suffix::DecimalSi(_) => Format::DecimalSI,
            Suffix::Exponent(_) => Format::DecimalExponent,
        };
        if milli_rounded && scale < -3 {
            return None;
        }
        let value = if text.starts_with('-') { -value } else { value };
        (value, scale, if keeps_text { text } else { "" }, format)
    };
    Some(format!(
        "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:{}, Format:\"{format:?}\"}}",
        crate::value::gofmt::go_quote(cached)
    ))
}

/// How the quantity was written, which decides how it is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `Ki`, `Mi`, ...
    BinarySI,
    /// `m`, `k`, `M`, ... or no suffix.
    DecimalSI,
    /// `e3`, `E-3`.
    DecimalExponent,
}

/// A parsed quantity: `mantissa × 10^exponent`, never finer than nano (as the Go type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    mantissa: i128,
    exponent: i32,
    pub format: Format,
}

const BINARY: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
/// The decimal SI suffixes and their powers of ten (k8s.io/apimachinery resource/suffix.go).
pub(crate) const DECIMAL: [(&str, i32); 10] = [
    ("n", -9),
    ("u", -6),
    ("m", -3),
    ("", 0),
    ("k", 3),
    ("M", 6),
    ("G", 9),
    ("T", 12),
    ("P", 15),
    ("E", 18),
];

impl Quantity {
    /// Parses the text form as `resource.ParseQuantity` reads it (`-m` and `.5` included);
    /// `None` when it is not a quantity or does not fit.
    pub fn parse(text: &str) -> Option<Quantity> {
        Quantity::parse_keeping(text).map(|(q, _)| q)
    }

    /// [`Quantity::parse`], and whether the parse keeps the text as written (`"0"`, or a text
    /// the fast path keeps), which `String()` then prints instead of the canonical form.
    pub(crate) fn parse_keeping(text: &str) -> Option<(Quantity, bool)> {
        if text.is_empty() {
            return None;
        }
        let parts = split(text).ok()?;
        let suffix = interpret(parts.suffix)?;
        let fast = fast_path(&parts, suffix);
        let kept = text == "0"
            || matches!(
                fast,
                FastPath::Parsed {
                    keeps_text: true,
                    ..
                }
            );
        Some((Quantity::from_parts(text, &parts, suffix, fast)?, kept))
    }

    /// The value of `text`, cut into `parts` with its interpreted `suffix`; `fast` is what the
    /// fast path makes of it (only the slow path can fail, on a number without digits).
    fn from_parts(
        text: &str,
        parts: &Parts<'_>,
        suffix: Suffix,
        fast: FastPath,
    ) -> Option<Quantity> {
        if !parts.value.bytes().any(|b| b.is_ascii_digit()) && matches!(fast, FastPath::No) {
            return None;
        }
        let mut mantissa: i128 = 0;
        for d in parts.num.bytes().chain(parts.denom.bytes()) {
            mantissa = mantissa
                .checked_mul(10)?
                .checked_add(i128::from(d - b'0'))?;
        }
        let mut exponent = -i32::try_from(parts.denom.len()).ok()?;
        let format = match suffix {
            Suffix::Binary(e) => {
                mantissa = mantissa.checked_mul(1i128.checked_shl(e)?)?;
                Format::BinarySI
            }
            Suffix::DecimalSi(e) => {
                exponent = exponent.checked_add(e)?;
                Format::DecimalSI
            }
            Suffix::Exponent(e) => {
                exponent = exponent.checked_add(e)?;
                Format::DecimalExponent
            }
        };
        if text.starts_with('-') {
            mantissa = -mantissa;
        }
        let mut q = Quantity {
            mantissa,
            exponent,
            format,
        };
        q.round_up(-9)?;
        q.normalize();
        // `ParseQuantity` caps binary quantities at `maxAllowed` (2^63 - 1), keeping the sign.
        let max = Quantity {
            mantissa: i128::from(i64::MAX),
            exponent: 0,
            format,
        };
        let magnitude = Quantity {
            mantissa: q.mantissa.abs(),
            ..q
        };
        if format == Format::BinarySI && magnitude.compare(&max) == Some(Ordering::Greater) {
            q.mantissa = max.mantissa * q.mantissa.signum();
            q.exponent = 0;
        }
        Some(q)
    }

    fn normalize(&mut self) {
        if self.mantissa == 0 {
            self.exponent = 0;
            return;
        }
        // Nearly every quantity fits a machine word, where division is one instruction rather
        // than a call.
        if let Ok(mut m) = i64::try_from(self.mantissa) {
            while m % 10 == 0 {
                m /= 10;
                self.exponent += 1;
            }
            self.mantissa = i128::from(m);
            return;
        }
        while self.mantissa % 10 == 0 {
            self.mantissa /= 10;
            self.exponent += 1;
        }
    }

    /// Rounds away from zero to `10^scale` (`SetDefaults_ResourceList` uses milli, -3).
    /// `None` when the value does not fit.
    pub fn round_up(&mut self, scale: i32) -> Option<()> {
        if self.exponent >= scale {
            return Some(());
        }
        let divisor = 10i128.checked_pow(u32::try_from(scale - self.exponent).ok()?)?;
        let (q, r) = (self.mantissa / divisor, self.mantissa % divisor);
        self.mantissa = match r.cmp(&0) {
            Ordering::Greater => q + 1,
            Ordering::Less => q - 1,
            Ordering::Equal => q,
        };
        self.exponent = scale;
        self.normalize();
        Some(())
    }

    /// `Quantity.Value()`: the value rounded up to a whole number; `None` when it does not fit.
    pub fn whole(&self) -> Option<i128> {
        let mut q = *self;
        q.round_up(0)?;
        q.mantissa
            .checked_mul(10i128.checked_pow(u32::try_from(q.exponent).ok()?)?)
    }

    /// `Quantity.MilliValue()`: a thousand times the value, rounded up; `None` when it does not
    /// fit.
    pub fn milli(&self) -> Option<i128> {
        let mut q = *self;
        q.round_up(-3)?;
        let shift = u32::try_from(q.exponent + 3).ok()?;
        q.mantissa.checked_mul(10i128.checked_pow(shift)?)
    }

    /// Both values at the finer of the two exponents; `None` when that does not fit.
    fn aligned(&self, other: &Quantity) -> Option<(i128, i128, i32)> {
        let exponent = self.exponent.min(other.exponent);
        let scale = |q: &Quantity| {
            let shift = u32::try_from(q.exponent - exponent).ok()?;
            q.mantissa.checked_mul(10i128.checked_pow(shift)?)
        };
        Some((scale(self)?, scale(other)?, exponent))
    }

    /// `self + other`, keeping `self`'s format (`Quantity.Add`); `None` on overflow.
    pub fn add(&self, other: &Quantity) -> Option<Quantity> {
        let (a, b, exponent) = self.aligned(other)?;
        let mut sum = Quantity {
            mantissa: a.checked_add(b)?,
            exponent,
            format: self.format,
        };
        sum.normalize();
        Some(sum)
    }

    /// Whether the value is below zero (`Quantity.Sign() < 0`).
    pub fn is_negative(&self) -> bool {
        self.mantissa < 0
    }

    /// Compares the values (`Quantity.Cmp`); `None` when they cannot be aligned.
    pub fn compare(&self, other: &Quantity) -> Option<Ordering> {
        let (a, b, _) = self.aligned(other)?;
        Some(a.cmp(&b))
    }

    /// The canonical text (`Quantity.String()`).
    pub fn canonical(&self) -> Option<String> {
        if self.mantissa == 0 {
            return Some("0".into());
        }
        if self.format == Format::BinarySI && self.mantissa.abs() >= 1024 && self.exponent >= 0 {
            let mut value = self
                .mantissa
                .checked_mul(10i128.checked_pow(self.exponent as u32)?)?;
            let mut k = 0;
            // Divisible by 1024 when the low ten bits are clear, negative values too.
            while k < BINARY.len() - 1 && value & 1023 == 0 {
                value >>= 10;
                k += 1;
            }
            return Some(number_text(value, BINARY[k]));
        }
        // Decimal: the exponent goes down to a multiple of three.
        let e3 = self.exponent.div_euclid(3) * 3;
        let shift = u32::try_from(self.exponent - e3).ok()?;
        let number = self.mantissa.checked_mul(10i128.checked_pow(shift)?)?;
        let mut exponent = itoa::Buffer::new();
        let suffix = match self.format {
            Format::DecimalExponent if e3 == 0 => "",
            Format::DecimalExponent => exponent.format(e3),
            // Past `E` Go finds no suffix and prints none (`1000E` is printed `1`).
            _ => DECIMAL.iter().find(|(_, e)| *e == e3).map_or("", |d| d.0),
        };
        let e = if self.format == Format::DecimalExponent && e3 != 0 {
            "e"
        } else {
            ""
        };
        Some(number_text(number, &[e, suffix].concat()))
    }
}

/// `number` then `suffix`, without the formatting machinery (quantities are printed for every
/// container of every object).
fn number_text(number: i128, suffix: &str) -> String {
    let mut digits = itoa::Buffer::new();
    let digits = match i64::try_from(number) {
        Ok(small) => digits.format(small),
        Err(_) => digits.format(number),
    };
    [digits, suffix].concat()
}

/// The text a server stores and prints for a quantity written as `text` (`Quantity.String()`):
/// the text itself when the parse keeps it, else the canonical form; `None` when it does not
/// parse.
pub fn canonicalize(text: &str) -> Option<String> {
    match Quantity::parse_keeping(text)? {
        (_, true) => Some(text.to_string()),
        (q, false) => q.canonical(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_syntax_dumps_the_fast_path_int64_amount() {
        let dump = |value: i64, scale: i32, s: &str, format: &str| {
            format!("resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:\"{s}\", Format:\"{format}\"}}")
        };
        assert_eq!(
            go_syntax("500m", true),
            Some(dump(500, -3, "500m", "DecimalSI"))
        );
        assert_eq!(
            go_syntax("1Gi", true),
            Some(dump(1073741824, 0, "1Gi", "BinarySI"))
        );
        assert_eq!(go_syntax("0", true), Some(dump(0, 0, "0", "DecimalSI")));
        // Not canonical: nothing cached.
        assert_eq!(
            go_syntax("1000", true),
            Some(dump(1000, 0, "", "DecimalSI"))
        );
        assert_eq!(go_syntax("-1", false), Some(dump(-1, 0, "-1", "DecimalSI")));
        assert_eq!(
            go_syntax("2e3", false),
            Some(dump(2, 3, "2e3", "DecimalExponent"))
        );
        // The slow path (an `inf.Dec` pointer), and what milli rounding rescales.
        assert_eq!(go_syntax("1.5Gi", true), None);
        assert_eq!(go_syntax("1500u", true), None);
        assert!(go_syntax("1500u", false).is_some());
    }

    #[track_caller]
    fn canon(input: &str, want: &str) {
        assert_eq!(canonicalize(input).as_deref(), Some(want), "{input}");
    }

    #[test]
    fn canonical_forms() {
        canon("0.5", "500m");
        canon("-1024Mi", "-1Gi");
        canon("-1536Mi", "-1536Mi");
        canon("1.5Gi", "1536Mi");
        canon("1024Mi", "1Gi");
        canon("1536Mi", "1536Mi");
        canon("1000", "1k");
        canon("1500", "1500");
        canon("100m", "100m");
        canon("0", "0");
        canon("0Mi", "0");
        canon("512Ki", "512Ki");
        canon("1Ki", "1Ki");
        canon("0.5Ki", "512");
        canon("1e3", "1e3");
        canon("1.5", "1500m");
        canon("2000000000", "2G");
        canon("1n", "1n");
        canon("0.0000000001", "1n");
        canon("-1.5", "-1500m");
        canon("10Gi", "10Gi");
        // Texts the parse keeps, and Go's leniency (checked against apimachinery v0.34).
        canon("+1Gi", "+1Gi");
        canon("1e+3", "1e+3");
        canon("1.500", "1.500");
        canon("0.500", "500m");
        canon(".", "0");
        canon("-m", "0");
        canon("36997908Pi", "9223372036854775807");
        canon("-99Ei", "-9223372036854775807");
        canon("00031000e18", "31e21");
        canon("1000E", "1");
    }

    #[test]
    fn not_quantities() {
        for bad in ["", "abc", "1.2.3", "1Qi", "1e", "1 m", ".e-12"] {
            assert_eq!(canonicalize(bad), None, "{bad}");
        }
    }

    #[test]
    fn rounding_up_to_milli() {
        let mut q = Quantity::parse("1n").unwrap();
        q.round_up(-3).unwrap();
        assert_eq!(q.canonical().unwrap(), "1m");
        let mut q = Quantity::parse("100m").unwrap();
        q.round_up(-3).unwrap();
        assert_eq!(q.canonical().unwrap(), "100m");
    }
}
