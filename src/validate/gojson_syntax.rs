//! The error Go's `json.Unmarshal(data, &map[string]interface{}{})` returns, where the API
//! server quotes it: `ValidateSecret` checks a `dockercfg` / `dockerconfigjson` Secret's payload
//! that way and puts `err.Error()` in the message.
//!
//! Go first runs its byte-at-a-time scanner over the whole input (`checkValid`), so a syntax
//! error wins over a type error; its messages name the offending byte and the scanner state
//! (`invalid character '}' looking for beginning of value`, `unexpected end of JSON input`).
//! Only then does decoding meet the top-level value: an object fills the map, `null` leaves it
//! alone, anything else is an `UnmarshalTypeError`. Transcribed from the Go standard library's
//! encoding/json `scanner.go` (the `state*` functions, `quoteChar`, `maxNestingDepth`) and
//! `decode.go` (`Unmarshal`, `literalStore`, `array`).

use super::gojson::unmarshal_type_error;

/// Go's `maxNestingDepth`: deeper arrays and objects are a syntax error.
const MAX_NESTING_DEPTH: usize = 10_000;

/// `None` when `data` unmarshals into a `map[string]interface{}`, else Go's error text.
pub fn map_unmarshal_error(data: &[u8]) -> Option<String> {
    if let Err(message) = check_valid(data) {
        return Some(message);
    }
    let first = data.iter().find(|b| !is_space(**b))?;
    let value = match first {
        b'{' | b'n' => return None,
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        _ => "number",
    };
    Some(unmarshal_type_error(value, "map[string]interface {}", None))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// What the scanner expects next; Go's `scanner.step` functions.
#[derive(Clone, Copy, PartialEq)]
enum State {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// Inside `\u`, with this many hex digits read.
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside a literal: its text and how many bytes of it were read.
    Literal(&'static str, usize),
}

/// Go's `parseState` stack entries.
#[derive(Clone, Copy, PartialEq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

struct Scanner {
    state: State,
    stack: Vec<Parse>,
}

/// Go's `checkValid`: every byte stepped, then `eof`.
fn check_valid(data: &[u8]) -> Result<(), String> {
    let mut s = Scanner {
        state: State::BeginValue,
        stack: Vec::new(),
    };
    for &c in data {
        s.step(c)?;
    }
    if s.state == State::EndTop {
        return Ok(());
    }
    // Go's `eof` steps a space, which completes a number at the end of the input.
    s.step(b' ')?;
    if s.state == State::EndTop {
        Ok(())
    } else {
        Err("unexpected end of JSON input".into())
    }
}

impl Scanner {
    fn step(&mut self, c: u8) -> Result<(), String> {
        match self.state {
            State::BeginValueOrEmpty if is_space(c) => Ok(()),
            State::BeginValueOrEmpty if c == b']' => self.end_value(c),
            State::BeginValueOrEmpty | State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty if is_space(c) => Ok(()),
            State::BeginStringOrEmpty if c == b'}' => {
                if let Some(top) = self.stack.last_mut() {
                    *top = Parse::ObjectValue;
                }
                self.end_value(c)
            }
            State::BeginStringOrEmpty | State::BeginString => match c {
                c if is_space(c) => Ok(()),
                b'"' => self.go(State::InString),
                c => error(c, "looking for beginning of object key string"),
            },
            State::EndValue => self.end_value(c),
            State::EndTop if is_space(c) => Ok(()),
            State::EndTop => error(c, "after top-level value"),
            State::InString => match c {
                b'"' => self.go(State::EndValue),
                b'\\' => self.go(State::InStringEsc),
                c if c < 0x20 => error(c, "in string literal"),
                _ => Ok(()),
            },
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.go(State::InString),
                b'u' => self.go(State::InStringEscU(0)),
                c => error(c, "in string escape code"),
            },
            State::InStringEscU(n) if c.is_ascii_hexdigit() => self.go(if n == 3 {
                State::InString
            } else {
                State::InStringEscU(n + 1)
            }),
            State::InStringEscU(_) => error(c, "in \\u hexadecimal character escape"),
            State::Neg => match c {
                b'0' => self.go(State::Zero),
                b'1'..=b'9' => self.go(State::One),
                c => error(c, "in numeric literal"),
            },
            State::One if c.is_ascii_digit() => Ok(()),
            State::One | State::Zero => match c {
                b'.' => self.go(State::Dot),
                b'e' | b'E' => self.go(State::E),
                c => self.end_value(c),
            },
            State::Dot if c.is_ascii_digit() => self.go(State::Dot0),
            State::Dot => error(c, "after decimal point in numeric literal"),
            State::Dot0 => match c {
                c if c.is_ascii_digit() => Ok(()),
                b'e' | b'E' => self.go(State::E),
                c => self.end_value(c),
            },
            State::E if c == b'+' || c == b'-' => self.go(State::ESign),
            State::E | State::ESign if c.is_ascii_digit() => self.go(State::E0),
            State::E | State::ESign => error(c, "in exponent of numeric literal"),
            State::E0 if c.is_ascii_digit() => Ok(()),
            State::E0 => self.end_value(c),
            State::Literal(word, read) => {
                let expected = word.as_bytes()[read];
                if c != expected {
                    return error(
                        c,
                        &format!("in literal {word} (expecting {})", quote_char(expected)),
                    );
                }
                self.go(if read + 1 == word.len() {
                    State::EndValue
                } else {
                    State::Literal(word, read + 1)
                })
            }
        }
    }

    fn go(&mut self, state: State) -> Result<(), String> {
        self.state = state;
        Ok(())
    }

    /// Go's `stateBeginValue` (after spaces and an empty array's `]` are dealt with).
    fn begin_value(&mut self, c: u8) -> Result<(), String> {
        match c {
            c if is_space(c) => Ok(()),
            b'{' => self.push(c, Parse::ObjectKey, State::BeginStringOrEmpty),
            b'[' => self.push(c, Parse::ArrayValue, State::BeginValueOrEmpty),
            b'"' => self.go(State::InString),
            b'-' => self.go(State::Neg),
            b'0' => self.go(State::Zero),
            b'1'..=b'9' => self.go(State::One),
            b't' => self.go(State::Literal("true", 1)),
            b'f' => self.go(State::Literal("false", 1)),
            b'n' => self.go(State::Literal("null", 1)),
            c => error(c, "looking for beginning of value"),
        }
    }

    fn push(&mut self, c: u8, parse: Parse, next: State) -> Result<(), String> {
        self.stack.push(parse);
        if self.stack.len() > MAX_NESTING_DEPTH {
            return error(c, "exceeded max depth");
        }
        self.go(next)
    }

    /// Go's `stateEndValue`: a value just ended (or is ending on `c`).
    fn end_value(&mut self, c: u8) -> Result<(), String> {
        let Some(&top) = self.stack.last() else {
            self.state = State::EndTop;
            return self.step(c);
        };
        if is_space(c) {
            return self.go(State::EndValue);
        }
        match (top, c) {
            (Parse::ObjectKey, b':') => {
                *self.stack.last_mut().expect("non-empty") = Parse::ObjectValue;
                self.go(State::BeginValue)
            }
            (Parse::ObjectKey, c) => error(c, "after object key"),
            (Parse::ObjectValue, b',') => {
                *self.stack.last_mut().expect("non-empty") = Parse::ObjectKey;
                self.go(State::BeginString)
            }
            (Parse::ObjectValue, b'}') | (Parse::ArrayValue, b']') => {
                self.stack.pop();
                self.go(if self.stack.is_empty() {
                    State::EndTop
                } else {
                    State::EndValue
                })
            }
            (Parse::ObjectValue, c) => error(c, "after object key:value pair"),
            (Parse::ArrayValue, b',') => self.go(State::BeginValue),
            (Parse::ArrayValue, c) => error(c, "after array element"),
        }
    }
}

fn error(c: u8, context: &str) -> Result<(), String> {
    Err(format!("invalid character {} {context}", quote_char(c)))
}

/// Go's `quoteChar`: the byte read as a Latin-1 rune and quoted as `strconv.Quote` does,
/// between single quotes.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".into(),
        b'"' => "'\"'".into(),
        _ => {
            let quoted = crate::value::gofmt::go_quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Option<String> {
        map_unmarshal_error(text.as_bytes())
    }

    #[test]
    fn objects_and_null_unmarshal() {
        assert_eq!(err(r#"{"auths":{"r.io":{"auth":"eA=="}}}"#), None);
        assert_eq!(err(" {} \n"), None);
        assert_eq!(err("null"), None);
        assert_eq!(err(r#"{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}"#), None);
    }

    /// The table was checked against `json.Unmarshal` of Go 1.25 and 1.26 (encoding/json v1;
    /// Go 1.27's jsonv2-backed package words them differently, but no supported Kubernetes
    /// release is built with it).
    #[test]
    fn syntax_errors_read_as_go_words_them() {
        let cases: [(&[u8], &str); 27] = [
            (b"", "unexpected end of JSON input"),
            (br#"{"auths": "#, "unexpected end of JSON input"),
            (
                b"auths: {}",
                "invalid character 'a' looking for beginning of value",
            ),
            (
                b"{auths: 1}",
                "invalid character 'a' looking for beginning of object key string",
            ),
            (br#"{"a" 1}"#, "invalid character '1' after object key"),
            (
                br#"{"a":1 "b":2}"#,
                "invalid character '\"' after object key:value pair",
            ),
            (
                br#"{"a":1,}"#,
                "invalid character '}' looking for beginning of object key string",
            ),
            (b"[1 2]", "invalid character '2' after array element"),
            (
                b"[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (b"{} {}", "invalid character '{' after top-level value"),
            (b"\"a\tb\"", r"invalid character '\t' in string literal"),
            (br#""\x""#, "invalid character 'x' in string escape code"),
            (
                br#""\u12g4""#,
                r"invalid character 'g' in \u hexadecimal character escape",
            ),
            (b"-a", "invalid character 'a' in numeric literal"),
            (
                b"1.e5",
                "invalid character 'e' after decimal point in numeric literal",
            ),
            (
                b"1e+x",
                "invalid character 'x' in exponent of numeric literal",
            ),
            (
                b"tru ",
                "invalid character ' ' in literal true (expecting 'e')",
            ),
            (
                b"nul",
                "invalid character ' ' in literal null (expecting 'l')",
            ),
            (
                b"{'a':1}",
                r"invalid character '\'' looking for beginning of object key string",
            ),
            (
                b"\xe9",
                "invalid character '\u{e9}' looking for beginning of value",
            ),
            (b"01", "invalid character '1' after top-level value"),
            (
                b"1.",
                "invalid character ' ' after decimal point in numeric literal",
            ),
            (b"-", "invalid character ' ' in numeric literal"),
            (
                b"\x7f",
                r"invalid character '\x7f' looking for beginning of value",
            ),
            (
                b"\x85",
                r"invalid character '\u0085' looking for beginning of value",
            ),
            (
                b"\xad",
                r"invalid character '\u00ad' looking for beginning of value",
            ),
            (
                b"\x01",
                r"invalid character '\x01' looking for beginning of value",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                map_unmarshal_error(input).as_deref(),
                Some(want),
                "{input:?}"
            );
        }
    }

    #[test]
    fn other_top_level_values_are_type_errors() {
        let want = |v: &str| {
            format!("json: cannot unmarshal {v} into Go value of type map[string]interface {{}}")
        };
        assert_eq!(err("[]"), Some(want("array")));
        assert_eq!(err(r#""{}""#), Some(want("string")));
        assert_eq!(err("12"), Some(want("number")));
        assert_eq!(err("true"), Some(want("bool")));
    }

    #[test]
    fn nesting_is_limited_as_go_limits_it() {
        let deep = "[".repeat(MAX_NESTING_DEPTH + 1);
        assert_eq!(
            err(&deep).as_deref(),
            Some("invalid character '[' exceeded max depth")
        );
        let fine = format!(
            "{}{}",
            "[".repeat(MAX_NESTING_DEPTH),
            "]".repeat(MAX_NESTING_DEPTH)
        );
        assert!(err(&fine).unwrap().contains("cannot unmarshal array"));
    }
}
