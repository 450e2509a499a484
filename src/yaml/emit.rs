//! YAML output shaped like `kubectl get -o yaml` (go-yaml v2): two-space indents, lists under a
//! key not indented, strings quoted only when needed, and always quoted when YAML 1.1 would
//! read them back as something else (timestamps included, as go-yaml quotes them). Whatever it writes, `parse_document` reads back equal.

use super::go_quote::go_yaml_quotes;
use super::resolve::implicit_non_string;
use crate::value::{format_float, Map, Value};
use std::fmt::Write;

/// Keys longer than this are written as explicit `? key` entries: libyaml's simple keys stop
/// at 1024 characters.
const MAX_SIMPLE_KEY: usize = 1000;

/// Renders a value as one YAML document (no `---`), ending in a newline.
pub fn to_yaml_string(v: &Value) -> String {
    // Most objects take a kilobyte or two: the buffer is not grown and copied line by line.
    let mut out = String::with_capacity(2048);
    match v {
        Value::Map(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::List(l) if !l.is_empty() => write_list(&mut out, l, 0),
        _ => {
            write_scalar(&mut out, v, 2);
            out.push('\n');
        }
    }
    out
}

/// Map entries at `indent`; the caller has already placed the cursor for the first one.
fn write_map(out: &mut String, m: &Map, indent: usize) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            pad(out, indent);
        }
        let start = out.len();
        write_string(out, k);
        if out.len() - start > MAX_SIMPLE_KEY {
            let key = out.split_off(start);
            out.push_str("? ");
            out.push_str(&key);
            out.push('\n');
            pad(out, indent);
        }
        out.push(':');
        match v {
            Value::Map(child) if !child.is_empty() => {
                out.push('\n');
                pad(out, indent + 2);
                write_map(out, child, indent + 2);
            }
            Value::List(items) if !items.is_empty() => {
                out.push('\n');
                pad(out, indent);
                write_list(out, items, indent);
            }
            _ => {
                out.push(' ');
                write_scalar(out, v, indent + 2);
                out.push('\n');
            }
        }
    }
}

/// List items at `indent`; the caller has already placed the cursor for the first one.
fn write_list(out: &mut String, items: &[Value], indent: usize) {
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            pad(out, indent);
        }
        out.push_str("- ");
        match v {
            Value::Map(m) if !m.is_empty() => write_map(out, m, indent + 2),
            Value::List(l) if !l.is_empty() => write_list(out, l, indent + 2),
            _ => {
                write_scalar(out, v, indent + 2);
                out.push('\n');
            }
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = indent;
    while left > 0 {
        let n = left.min(SPACES.len());
        out.push_str(&SPACES[..n]);
        left -= n;
    }
}

/// A scalar or empty collection; block strings put their lines at `block_indent`.
fn write_scalar(out: &mut String, v: &Value, block_indent: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) if f.is_nan() => out.push_str(".nan"),
        Value::Float(f) if f.is_infinite() => out.push_str(if *f > 0.0 { ".inf" } else { "-.inf" }),
        Value::Float(f) => out.push_str(&format_float(*f)),
        Value::String(s) if literal_ok(s) => write_literal(out, s, block_indent),
        Value::String(s) => write_string(out, s),
        Value::List(_) => out.push_str("[]"),
        Value::Map(_) => out.push_str("{}"),
    }
}

/// A string as a plain scalar when that reads back as the same string, else double-quoted.
fn write_string(out: &mut String, s: &str) {
    if plain_ok(s) {
        out.push_str(s);
    } else {
        write_double_quoted(out, s);
    }
}

/// Whether YAML 1.1 reads plain `s` back as the string `s`. `resolve_implicit` reads a scalar
/// that starts with a letter as a string unless it is one of its words (`yes`, `null`, ...),
/// none longer than five characters; that common case needs no resolving.
fn implicitly_string(s: &str) -> bool {
    let letter = s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
    (letter && s.len() > 5) || implicit_non_string(s).is_none()
}

fn plain_ok(s: &str) -> bool {
    is_plain_word(s.as_bytes()) || plain_after_checks(s)
}

fn plain_after_checks(s: &str) -> bool {
    if s.is_empty() || super::starts_with_indicator(s.as_bytes()) {
        return false;
    }
    !s.starts_with("---")
        && !s.starts_with("...")
        && !s.starts_with(' ')
        && !s.ends_with(' ')
        && !s.ends_with(':')
        && plain_body_ok(s)
        && implicitly_string(s)
        && !go_yaml_quotes(s)
}

/// Most keys and many values (`containerPort`, `registry.k8s.io/pause`): a letter, then
/// letters, digits and `-._/`, longer than YAML 1.1's longest word (`false`). No indicator can
/// start it, it holds no `: ` or ` #`, it resolves to a string, and go-yaml's timestamp and
/// base-60 forms start with a digit or sign: plain without the checks below.
fn is_plain_word(bytes: &[u8]) -> bool {
    bytes.len() > 5
        && bytes[0].is_ascii_alphabetic()
        && bytes.iter().all(|&b| BYTE_CLASS[b as usize] == WORD)
}

/// What a byte is to the scans of plain scalars, looked up rather than worked out per byte
/// (those scans were most of what writing an object cost).
const WORD: u8 = 0;
/// Printable ASCII other than a word byte, `:` and `#`.
const OTHER_PRINTABLE: u8 = 1;
const COLON: u8 = 2;
const HASH: u8 = 3;
/// Control characters, DEL and every byte of a non-ASCII character.
const NOT_ASCII_PRINTABLE: u8 = 4;

static BYTE_CLASS: [u8; 256] = byte_classes();

const fn byte_classes() -> [u8; 256] {
    let mut table = [NOT_ASCII_PRINTABLE; 256];
    let mut b = b' ';
    while b <= b'~' {
        table[b as usize] = match b {
            b':' => COLON,
            b'#' => HASH,
            b'-' | b'.' | b'_' | b'/' => WORD,
            _ if b.is_ascii_alphanumeric() => WORD,
            _ => OTHER_PRINTABLE,
        };
        b += 1;
    }
    table
}

/// No `: ` or ` #` inside, and only characters a plain scalar may hold (printable, no tab or
/// line break). Printable ASCII, nearly every value, is settled in one pass over the bytes.
fn plain_body_ok(s: &str) -> bool {
    let bytes = s.as_bytes();
    // One pass: most bytes are neither `:` nor `#` nor outside printable ASCII.
    let mut ascii = true;
    for (i, &b) in bytes.iter().enumerate() {
        match BYTE_CLASS[b as usize] {
            WORD | OTHER_PRINTABLE => {}
            COLON if bytes.get(i + 1) == Some(&b' ') => return false,
            HASH if i > 0 && bytes[i - 1] == b' ' => return false,
            COLON | HASH => {}
            _ => {
                ascii = false;
                break;
            }
        }
    }
    if ascii {
        return true;
    }
    !s.contains(": ")
        && !s.contains(" #")
        && s.chars()
            .all(|c| !matches!(c, '\t' | '\n' | '\u{feff}') && printable(c) && !line_break(c))
}

/// Multi-line text as a `|` block, when its lines survive the trip unchanged.
fn literal_ok(s: &str) -> bool {
    let body = s.trim_end_matches('\n');
    if !s.contains('\n') || body.is_empty() || body.starts_with([' ', '\t', '\n']) {
        return false;
    }
    // Printable ASCII lines (nearly all text) are settled in one pass over the bytes: no line
    // may end in a space (a tab is not in the range, so it takes the general check).
    let bytes = body.as_bytes();
    if bytes
        .iter()
        .all(|&b| b == b'\n' || (b' '..=b'~').contains(&b))
    {
        return !body.ends_with(' ') && crate::search::find_bytes(bytes, b" \n").is_none();
    }
    body.split('\n').all(|l| !l.ends_with([' ', '\t']))
        && body
            .chars()
            .all(|c| c == '\n' || (c != '\u{feff}' && printable(c) && !line_break(c)))
}

fn write_literal(out: &mut String, s: &str, indent: usize) {
    let body = s.trim_end_matches('\n');
    out.push_str(match s.len() - body.len() {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    let mut start = 0;
    let ends = crate::search::byte_positions(b'\n', body.as_bytes()).chain([body.len()]);
    for end in ends {
        let line = &body[start..end];
        start = end + 1;
        out.push('\n');
        if !line.is_empty() {
            pad(out, indent);
            out.push_str(line);
        }
    }
    for _ in 1..s.len() - body.len() {
        out.push('\n');
    }
}

fn write_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if printable(c) && !line_break(c) && c != '\u{feff}' => out.push(c),
            c if (c as u32) <= 0xFFFF => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08X}", c as u32);
            }
        }
    }
    out.push('"');
}

/// YAML 1.1's printable set (libyaml's `IS_PRINTABLE`).
fn printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Characters YAML 1.1 treats as line breaks besides `\n`.
fn line_break(c: char) -> bool {
    matches!(c, '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::super::parse_document;
    use super::*;

    #[test]
    fn plain_words_pass_every_check() {
        let words = [
            "containerPort",
            "registry.k8s.io/pause",
            "app.kubernetes.io_name-1",
            "Falsey",
            "Infinity",
            "nullable",
            "e12345",
        ];
        for w in words {
            assert!(is_plain_word(w.as_bytes()), "{w}");
            assert!(plain_after_checks(w), "{w}");
        }
        for w in ["false", "2024-01-01", "-value", ".inf.x", "a:b", "value "] {
            assert!(!is_plain_word(w.as_bytes()), "{w}");
        }
    }
    use crate::value::from_json_str;
    use proptest::prelude::*;

    fn yaml(json: &str) -> String {
        to_yaml_string(&from_json_str(json).unwrap())
    }

    proptest! {
        /// The one-pass check over printable ASCII decides as the general one does.
        #[test]
        fn plain_body_fast_path_agrees(s in "[ -~\t\u{e9}]{0,12}") {
            let general = !s.contains(": ")
                && !s.contains(" #")
                && s.chars().all(|c| {
                    !matches!(c, '\t' | '\n' | '\u{feff}') && printable(c) && !line_break(c)
                });
            prop_assert_eq!(plain_body_ok(&s), general);
        }
    }

    #[test]
    fn kubectl_layout() {
        assert_eq!(
            yaml(
                r#"{"metadata":{"name":"x","labels":{}},"items":["a",{"b":1,"c":[]}],"m":[[1,2]]}"#
            ),
            "metadata:\n  name: x\n  labels: {}\nitems:\n- a\n- b: 1\n  c: []\nm:\n- - 1\n  - 2\n"
        );
        assert_eq!(
            yaml(r#"{"f":1.5,"g":1e21,"t":true,"z":null}"#),
            "f: 1.5\ng: 1e+21\nt: true\nz: null\n"
        );
    }

    #[test]
    fn quotes_what_would_read_back_differently() {
        for s in [
            "yes",
            "0644",
            "1e3",
            "null",
            "~",
            "",
            " a",
            "a ",
            "a: b",
            "#c",
            "- a",
            "<<",
            "on",
            "1_0",
            "2024-01-01T00:00:00Z",
            "1:20",
        ] {
            let out = to_yaml_string(&Value::from(s));
            assert!(out.starts_with('"'), "{s:?} gave {out:?}");
        }
        assert_eq!(to_yaml_string(&Value::from("hello world")), "hello world\n");
        assert_eq!(to_yaml_string(&Value::from("-x")), "-x\n");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        assert_eq!(yaml(r#"{"a":"x\ny\n"}"#), "a: |\n  x\n  y\n");
        assert_eq!(yaml(r#"{"a":"x\n\ny"}"#), "a: |-\n  x\n\n  y\n");
        assert_eq!(yaml(r#"{"a":[" x\ny"]}"#), "a:\n- \" x\\ny\"\n");
    }

    fn nasty_string() -> impl Strategy<Value = String> {
        prop_oneof![
            "[ -~\n\t\r]{0,12}",
            "\\PC{0,6}",
            prop::sample::select(vec![
                "yes",
                "No",
                "0644",
                "0x1F",
                "1e3",
                "1_000",
                ".inf",
                "~",
                "null",
                "<<",
                "---",
                "...",
                "- a",
                "? x",
                ": y",
                "a: b",
                "a #c",
                "key:",
                "|",
                ">",
                "\u{2028}",
                "\u{85}",
                "\u{feff}x",
                "x\n",
                "x\n\n",
                "\n",
                " lead\nx",
                "é\n ü",
                "'",
                "\"",
                "\\/",
                "%x",
                "2001-12-14",
                "+1",
                "-.5",
                "0b101",
                "1:20",
                "{}",
                "[a]",
                "*a",
                "&a",
                "!x",
            ])
            .prop_map(String::from),
        ]
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::Int),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::Float),
            nasty_string().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
                prop::collection::vec((nasty_string(), inner), 0..5)
                    .prop_map(|kv| Value::Map(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn output_reads_back_equal(v in any_value()) {
            let text = to_yaml_string(&v);
            let back = parse_document(&text);
            prop_assert_eq!(back.as_ref(), Ok(&v), "YAML was:\n{}", text);
        }
    }
}
