//! kubectl's JSON path: a stream of JSON values read with encoding/json's strictness and
//! decoded the way unstructured objects are (int64 when it fits, else float64).

use super::compose::MAX_DEPTH;
use crate::value::{Map, Value};

/// Why a JSON value could not be read; `offset` is a byte offset into the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JsonError {
    pub message: String,
    pub offset: usize,
    /// False when the text is valid JSON that unstructured decoding cannot represent.
    pub syntax: bool,
}

/// Reads the value starting at or after `pos`. `Ok(None)` at the end of the text; otherwise
/// the value and the offset just past it.
pub(crate) fn next_value(text: &str, pos: usize) -> Result<Option<(Value, usize)>, JsonError> {
    let mut r = Reader {
        b: text.as_bytes(),
        text,
        i: pos,
    };
    r.skip_ws();
    if r.i >= r.b.len() {
        return Ok(None);
    }
    let v = r.value()?;
    Ok(Some((v, r.i)))
}

struct Reader<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

enum Open {
    List(Vec<Value>),
    Map(Map, Option<String>),
}

impl Reader<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, JsonError> {
        Err(JsonError {
            message: message.into(),
            offset: self.i,
            syntax: true,
        })
    }

    fn skip_ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\r' | b'\n') {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Result<u8, JsonError> {
        self.skip_ws();
        match self.b.get(self.i) {
            Some(&c) => Ok(c),
            None => self.err("unexpected end of JSON input"),
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), JsonError> {
        if self.peek()? != c {
            return self.err(format!("expected '{}'", c as char));
        }
        self.i += 1;
        Ok(())
    }

    /// One complete value, iteratively so depth cannot overflow the stack.
    fn value(&mut self) -> Result<Value, JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // Parse the start of a value, or close containers.
            let mut done = match self.peek()? {
                b'{' | b'[' if stack.len() >= MAX_DEPTH => {
                    return self.err("exceeded max depth");
                }
                b'{' => {
                    self.i += 1;
                    if self.peek()? == b'}' {
                        self.i += 1;
                        Value::Map(Map::default())
                    } else {
                        let key = self.key()?;
                        stack.push(Open::Map(Map::default(), Some(key)));
                        continue;
                    }
                }
                b'[' => {
                    self.i += 1;
                    if self.peek()? == b']' {
                        self.i += 1;
                        Value::List(Vec::new().into())
                    } else {
                        stack.push(Open::List(Vec::new()));
                        continue;
                    }
                }
                b'"' => Value::String(self.string()?),
                b't' => self.literal("true", Value::Bool(true))?,
                b'f' => self.literal("false", Value::Bool(false))?,
                b'n' => self.literal("null", Value::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                c => return self.err(format!("invalid character {:?}", c as char)),
            };
            // Hand the finished value to its parent, closing parents that end here.
            loop {
                match stack.last_mut() {
                    None => return Ok(done),
                    Some(Open::List(items)) => {
                        items.push(done);
                        match self.peek()? {
                            b',' => {
                                self.i += 1;
                                break;
                            }
                            b']' => {
                                self.i += 1;
                                let Some(Open::List(items)) = stack.pop() else {
                                    unreachable!()
                                };
                                done = Value::List(items.into());
                            }
                            _ => return self.err("expected ',' or ']'"),
                        }
                    }
                    Some(Open::Map(map, key)) => {
                        map.insert(key.take().expect("key before value"), done);
                        match self.peek()? {
                            b',' => {
                                self.i += 1;
                                let k = self.key()?;
                                if let Some(Open::Map(_, key)) = stack.last_mut() {
                                    *key = Some(k);
                                }
                                break;
                            }
                            b'}' => {
                                self.i += 1;
                                let Some(Open::Map(map, _)) = stack.pop() else {
                                    unreachable!()
                                };
                                done = Value::Map(map);
                            }
                            _ => return self.err("expected ',' or '}'"),
                        }
                    }
                }
            }
        }
    }

    fn key(&mut self) -> Result<String, JsonError> {
        if self.peek()? != b'"' {
            return self.err("expected a string key");
        }
        let k = self.string()?;
        self.expect(b':')?;
        Ok(k)
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err(format!("invalid literal, expected {word}"))
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        let digits = |r: &mut Self| {
            let s = r.i;
            while r.i < r.b.len() && r.b[r.i].is_ascii_digit() {
                r.i += 1;
            }
            r.i - s
        };
        if self.b[self.i] == b'-' {
            self.i += 1;
        }
        match self.b.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return self.err("invalid number"),
        }
        let mut float = false;
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            float = true;
            if digits(self) == 0 {
                return self.err("invalid number");
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            float = true;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return self.err("invalid number");
            }
        }
        let text = &self.text[start..self.i];
        if !float {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Int(i));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => Err(JsonError {
                message: format!("number {text} does not fit a float64"),
                offset: start,
                syntax: false,
            }),
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let rest = &self.text[self.i..];
            let Some(stop) = rest.find(|c: char| c == '"' || c == '\\' || c < ' ') else {
                return self.err("unexpected end of JSON input");
            };
            out.push_str(&rest[..stop]);
            self.i += stop;
            match self.b[self.i] {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.i += 1;
                    let c = self.b.get(self.i).copied();
                    self.i += 1;
                    match c {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => out.push(self.unicode_escape()?),
                        _ => return self.err("invalid escape in string"),
                    }
                }
                _ => return self.err("invalid control character in string"),
            }
        }
    }

    /// `\uXXXX`, pairing surrogates; a lone surrogate becomes U+FFFD as in Go.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let hex = |r: &mut Self| -> Result<u32, JsonError> {
            let h = r
                .text
                .get(r.i..r.i + 4)
                .and_then(|h| u32::from_str_radix(h, 16).ok());
            match h {
                Some(h) => {
                    r.i += 4;
                    Ok(h)
                }
                None => r.err("invalid \\u escape"),
            }
        };
        let first = hex(self)?;
        if (0xD800..0xDC00).contains(&first) && self.b[self.i..].starts_with(b"\\u") {
            let save = self.i;
            self.i += 2;
            let second = hex(self)?;
            if (0xDC00..0xE000).contains(&second) {
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            self.i = save;
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Value, JsonError> {
        next_value(text, 0).map(|v| v.expect("a value").0)
    }

    #[test]
    fn numbers_decode_like_unstructured() {
        let v = one(r#"{"a": 1.0, "c": -0, "i": 12345678901234567890123}"#).unwrap();
        assert!(matches!(v.get("a"), Some(Value::Float(_))));
        assert!(matches!(v.get("c"), Some(Value::Int(0))));
        assert!(matches!(v.get("i"), Some(Value::Float(_))));
        assert!(one(r#"{"f": 1e400}"#).is_err());
    }

    #[test]
    fn strict_like_encoding_json() {
        assert!(one(r#"{"a": 0644}"#).is_err());
        assert!(one(r#"{"a": NaN}"#).is_err());
        assert!(one("{\"a\": 1 # c\n}").is_err());
        assert_eq!(
            one(r#"{"a": "\/\u00e9"}"#).unwrap().get("a"),
            Some(&Value::from("/é"))
        );
    }

    #[test]
    fn streams_of_values() {
        let (_, end) = next_value(r#"{"a":1}{"b":2}"#, 0).unwrap().unwrap();
        assert_eq!(end, 7);
        assert!(next_value("  \n", 0).unwrap().is_none());
    }
}
