//! Go's `%v` and `%#v` renderings of decoded JSON (`map[k:v]` with sorted keys, `<nil>`,
//! `1e+06`; `map[string]interface {}{"k":v}`), used to word errors exactly as the reference
//! libraries do.

use crate::value::{Map, Value};

/// `fmt.Sprintf("%v", v)` for a decoded JSON value.
pub(crate) fn go_value(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v);
    out
}

/// `%v` of a decoded JSON object: `map[k:v ...]` with sorted keys.
pub(crate) fn go_map(m: &Map) -> String {
    let mut out = String::new();
    write_map(&mut out, m);
    out
}

fn write_map(out: &mut String, m: &Map) {
    let mut keys: Vec<&String> = m.keys().collect();
    keys.sort();
    out.push_str("map[");
    for (i, k) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(k);
        out.push(':');
        write(out, &m[k]);
    }
    out.push(']');
}

fn write(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&go_float(*f)),
        Value::String(s) => out.push_str(s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => write_map(out, m),
    }
}

/// `fmt.Sprintf("%#v", v)` for a decoded JSON value held in an `interface{}`.
pub(crate) fn go_syntax_value(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => go_float(*f),
        Value::String(s) => go_quote(s),
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(go_syntax_value).collect();
            format!("[]interface {{}}{{{}}}", parts.join(", "))
        }
        Value::Map(m) => {
            let mut entries: Vec<_> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| {
                    let key = go_quote(k);
                    format!("{key}:{}", go_syntax_value(v))
                })
                .collect();
            format!("map[string]interface {{}}{{{}}}", parts.join(", "))
        }
    }
}

/// `strconv.Quote`: double quotes, Go escapes, non-printable runes as `\x`/`\u`/`\U`.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if super::go_unicode::is_print(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// `%v` of a float64: shortest digits, exponent form when the exponent is < -4 or >= 6
/// (strconv's `'g'` with shortest precision).
/// `%v` of a float64 (`strconv` 'g', shortest: exponent form below 1e-4 and from 1e6).
pub(crate) fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn go_syntax_prints_interfaces_as_the_server_quotes_them() {
        // As in real "failed to create typed patch object" errors:
        // `&value.valueUnstructured{Value:map[string]interface {}{"kind":"Workflow", …}}`.
        let v = from_json_str(r#"{"name":"docker","kind":"Workflow","n":[1,2.5,true,null]}"#);
        assert_eq!(
            go_syntax_value(&v.unwrap()),
            r#"map[string]interface {}{"kind":"Workflow", "n":[]interface {}{1, 2.5, true, interface {}(nil)}, "name":"docker"}"#
        );
        assert_eq!(
            go_syntax_value(&Value::List(Vec::new().into())),
            "[]interface {}{}"
        );
    }

    #[test]
    fn maps_print_sorted_like_go() {
        let v = from_json_str(r#"{"name":"x","$patch":"delete","n":[1,2.5,null]}"#).unwrap();
        assert_eq!(go_value(&v), "map[$patch:delete n:[1 2.5 <nil>] name:x]");
    }

    #[test]
    fn floats_switch_to_exponent_form() {
        assert_eq!(go_float(80.5), "80.5");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(123456.5), "123456.5");
        assert_eq!(go_float(0.00001), "1e-05");
    }
}
