//! A custom resource's values as CEL sees them in `x-kubernetes-validations` rules
//! (apiserver `pkg/cel/common/valuesunstructured.go`, `UnstructuredToVal`): typed by the schema,
//! property names escaped (`pkg/cel/escaping.go`), formatted strings as timestamps, durations
//! and bytes, and the resource root limited to `apiVersion`, `kind` and `metadata.name`/`generateName`.

use super::schema::SchemaNode;
use crate::value::Value;
use kube_cel::cel;
use std::collections::HashMap;
use std::sync::Arc;

/// `value` at a node of the schema; `resource_root`: the custom resource itself or an embedded
/// resource, whose metadata CEL sees only in part.
pub fn to_cel(node: &SchemaNode, value: &Value, resource_root: bool) -> cel::Value {
    match value {
        Value::Null => cel::Value::Null,
        _ if node.int_or_string => untyped(value),
        Value::Map(m) => {
            let root = resource_root || node.embedded_resource;
            if root || !node.properties.is_empty() {
                let entries = m.iter().filter_map(|(k, v)| {
                    let escaped = escape(k)?;
                    let converted = match (node.properties.get(k), k.as_str()) {
                        (_, "metadata") if root => object_meta(v),
                        (_, "apiVersion" | "kind") if root => untyped(v),
                        (Some(p), _) => to_cel(p, v, false),
                        (None, _) => return None,
                    };
                    Some((escaped, converted))
                });
                map(entries)
            } else if let Some(additional) = node.additional_properties.as_deref() {
                map(m
                    .iter()
                    .map(|(k, v)| (k.clone(), to_cel(additional, v, false))))
            } else {
                untyped(value)
            }
        }
        Value::List(items) => match node.items.as_deref() {
            Some(item) => cel::Value::List(Arc::new(
                items.iter().map(|i| to_cel(item, i, false)).collect(),
            )),
            None => untyped(value),
        },
        Value::String(s) => formatted(node.format.as_deref(), s),
        Value::Int(i) if node.type_name.as_deref() == Some("number") => {
            cel::Value::Float(*i as f64)
        }
        _ => untyped(value),
    }
}

/// A value without a schema (`x-kubernetes-preserve-unknown-fields`, int-or-string).
pub fn untyped(value: &Value) -> cel::Value {
    match value {
        Value::Null => cel::Value::Null,
        Value::Bool(b) => cel::Value::Bool(*b),
        Value::Int(i) => cel::Value::Int(*i),
        Value::Float(f) => cel::Value::Float(*f),
        Value::String(s) => cel::Value::String(Arc::new(s.clone())),
        Value::List(l) => cel::Value::List(Arc::new(l.iter().map(untyped).collect())),
        Value::Map(m) => map(m.iter().map(|(k, v)| (k.clone(), untyped(v)))),
    }
}

fn map(entries: impl Iterator<Item = (String, cel::Value)>) -> cel::Value {
    let m: HashMap<cel::objects::Key, cel::Value> = entries
        .map(|(k, v)| (cel::objects::Key::String(Arc::new(k)), v))
        .collect();
    cel::Value::Map(cel::objects::Map { map: Arc::new(m) })
}

/// The part of `metadata` rules may read: `name` and `generateName`.
fn object_meta(v: &Value) -> cel::Value {
    let Some(m) = v.as_map() else {
        return untyped(v);
    };
    map(m
        .iter()
        .filter(|(k, _)| *k == "name" || *k == "generateName")
        .map(|(k, v)| (k.clone(), untyped(v))))
}

/// A string as its `format` makes it: date-time and date as timestamps, duration as a duration,
/// byte as bytes; a string that does not parse stays a string.
fn formatted(format: Option<&str>, s: &str) -> cel::Value {
    let parsed = match format {
        Some("date-time") | Some("datetime") => chrono::DateTime::parse_from_rfc3339(s)
            .ok()
            .map(cel::Value::Timestamp),
        Some("date") => chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| cel::Value::Timestamp(t.and_utc().fixed_offset())),
        Some("duration") => go_duration(s).map(cel::Value::Duration),
        Some("byte") => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(s)
                .ok()
                .map(|b| cel::Value::Bytes(Arc::new(b)))
        }
        _ => None,
    };
    parsed.unwrap_or_else(|| cel::Value::String(Arc::new(s.to_string())))
}

/// Go's `time.ParseDuration`: a sequence of decimal numbers with units (`1h30m`, `1.5s`, `-2ms`).
fn go_duration(s: &str) -> Option<chrono::Duration> {
    let (negative, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest == "0" {
        return Some(chrono::Duration::zero());
    }
    let mut nanos: f64 = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|i| *i > 0)?;
        let number: f64 = rest[..number_end].parse().ok()?;
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        nanos += number * scale;
        rest = &rest[unit_end..];
    }
    let nanos = if negative { -nanos } else { nanos };
    Some(chrono::Duration::nanoseconds(nanos as i64))
}

/// The words CEL reserves (cel-go `parser`'s reserved identifiers, the apiserver's
/// `celReserved`): a property so named is escaped, a variable may not be so named.
pub(crate) const CEL_RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// CEL's name for a property (`Escape`): reserved words as `__word__`, `__`, `.`, `-` and `/`
/// spelled out; `None` for names CEL cannot reach.
pub fn escape(name: &str) -> Option<String> {
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if CEL_RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '_' if chars.peek() == Some(&'_') => {
                chars.next();
                out.push_str("__underscores__");
            }
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_the_api_server() {
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("foo-bar").as_deref(), Some("foo__dash__bar"));
        assert_eq!(escape("a.b/c").as_deref(), Some("a__dot__b__slash__c"));
        assert_eq!(escape("x__y").as_deref(), Some("x__underscores__y"));
        assert_eq!(escape("my_field").as_deref(), Some("my_field"));
        assert_eq!(escape("1abc"), None);
        assert_eq!(escape("a b"), None);
    }

    #[test]
    fn durations_and_typed_numbers() {
        assert_eq!(go_duration("1h30m"), Some(chrono::Duration::minutes(90)));
        assert_eq!(
            go_duration("1.5s"),
            Some(chrono::Duration::milliseconds(1500))
        );
        assert_eq!(go_duration("5x"), None);
        let node = SchemaNode::parse(&serde_yaml::from_str("type: number").unwrap());
        assert_eq!(to_cel(&node, &Value::Int(2), false), cel::Value::Float(2.0));
    }

    #[test]
    fn root_metadata_shows_only_names() {
        let node = SchemaNode::parse(
            &serde_yaml::from_str("type: object\nproperties: {spec: {type: object}}").unwrap(),
        );
        let obj: Value = serde_yaml::from_str(
            "{apiVersion: v1, kind: X, metadata: {name: a, namespace: b}, spec: {}, other: 1}",
        )
        .unwrap();
        let cel::Value::Map(m) = to_cel(&node, &obj, true) else {
            panic!()
        };
        let mut keys: Vec<String> = m.map.keys().map(|k| format!("{k:?}")).collect();
        keys.sort();
        assert_eq!(keys.len(), 4, "{keys:?}");
        let meta = &m.map[&cel::objects::Key::String(Arc::new("metadata".into()))];
        let cel::Value::Map(meta) = meta else {
            panic!()
        };
        assert_eq!(meta.map.len(), 1);
    }
}
