//! JSON reading and writing for [`Value`], writing exactly as Go's `encoding/json` does
//! (shortest floats, `e+21` exponents, HTML-safe escapes), so output matches the API server.

use super::{Map, Value};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt::{self, Write};

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        // Like unstructured decoding: ints that do not fit int64 become float64.
        Ok(i64::try_from(v)
            .map(Value::Int)
            .unwrap_or(Value::Float(v as f64)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::List(items.into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map =
            Map::with_capacity_and_hasher(access.size_hint().unwrap_or(0), Default::default());
        while let Some((k, v)) = access.next_entry::<String, Value>()? {
            // encoding/json keeps the last of duplicate keys, at the first key's position.
            map.insert(k, v);
        }
        Ok(Value::Map(map))
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) => s.serialize_f64(*f),
            Value::String(v) => s.serialize_str(v),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

/// Parses JSON text into a [`Value`].
pub fn from_json_str(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text)
}

/// Converts a `serde_json::Value`.
pub fn from_serde(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else {
                Value::Float(n.as_f64().unwrap_or(0.0))
            }
        }
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::List(a.iter().map(from_serde).collect()),
        serde_json::Value::Object(o) => {
            Value::Map(o.iter().map(|(k, v)| (k.clone(), from_serde(v))).collect())
        }
    }
}

/// Converts to a `serde_json::Value`.
pub fn to_serde(v: &Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// Formats a float as Go's `encoding/json` does.
pub fn format_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((mantissa, exp)) if exp.starts_with('-') => format!("{mantissa}e{exp}"),
            Some((mantissa, exp)) => format!("{mantissa}e+{exp}"),
            None => s,
        }
    } else {
        format!("{f}")
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes compact JSON, Go style, into `out`.
pub fn write_json(out: &mut String, v: &Value) {
    write_json_indented(out, v, None, 0)
}

fn write_json_indented(out: &mut String, v: &Value, indent: Option<&str>, depth: usize) {
    let newline = |out: &mut String, depth: usize| {
        if let Some(ind) = indent {
            out.push('\n');
            for _ in 0..depth {
                out.push_str(ind);
            }
        }
    };
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => out.push_str(&format_float(*f)),
        Value::String(s) => write_string(out, s),
        Value::List(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_json_indented(out, item, indent, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Map(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_string(out, k);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_json_indented(out, item, indent, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// Compact JSON text, Go style.
pub fn to_json_string(v: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, v);
    out
}

/// Indented JSON text (four spaces, as `kubectl -o json`).
pub fn to_json_string_pretty(v: &Value) -> String {
    let mut out = String::new();
    write_json_indented(&mut out, v, Some("    "), 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_go() {
        assert_eq!(format_float(1.0), "1");
        assert_eq!(format_float(1.1), "1.1");
        assert_eq!(format_float(1e21), "1e+21");
        assert_eq!(format_float(1e-7), "1e-7");
        assert_eq!(format_float(1.5e-10), "1.5e-10");
        assert_eq!(format_float(-0.0), "-0");
        assert_eq!(format_float(1.2e46), "1.2e+46");
    }

    #[test]
    fn round_trips_order_and_kinds() {
        let text = r#"{"z":1,"a":[2.5,"x<y",null,true],"m":{}}"#;
        let v = from_json_str(text).unwrap();
        assert_eq!(
            to_json_string(&v),
            r#"{"z":1,"a":[2.5,"x\u003cy",null,true],"m":{}}"#
        );
    }

    #[test]
    fn big_unsigned_becomes_float() {
        let v = from_json_str("18446744073709551615").unwrap();
        assert!(matches!(v, Value::Float(_)));
    }
}
