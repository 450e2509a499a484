//! The typed round trip of a built-in object: what the API server's JSON serializer does when it
//! decodes a body into the k8s.io/api Go struct (`sigs.k8s.io/json`, case-sensitive, unknown
//! fields dropped) and encodes it again (`encoding/json`), without defaulting or conversion.
//!
//! The rules are `encoding/json`'s, applied to the Go types of [`super::gotypes`]:
//! - every struct field is written unless `omitempty` and empty (`""`, `0`, `false`, a nil
//!   pointer, interface, slice or map, or an empty slice or map) or `omitzero` and zero; a
//!   struct is never empty, so value structs (`resources: {}`, `status: {}`) appear;
//! - `null` leaves a struct, string, number or bool at its zero value and makes a pointer, slice
//!   or map nil (written `null` without `omitempty`); a `null` map value becomes the element's
//!   zero value;
//! - types with their own encoding: `metav1.Time` (zero: `null`, else RFC 3339 UTC seconds),
//!   `MicroTime`, `Quantity` (canonical, zero `"0"`), `IntOrString` (zero `0`), raw JSON kept.
//!
//! Fields keep the order they came in; fields the encoder adds follow in Go order.
//! Source: k8s.io/apimachinery `runtime/serializer/json` and the Go `encoding/json` rules.

use super::gotypes::{Decl, DeclId, GoField, GoType, GoTypes, Special};
use super::quantity;
use crate::managed::Time;
use crate::value::{format_float, Map, Value};

/// An encoded value and whether `omitempty` / `omitzero` would leave it out.
struct Encoded {
    value: Value,
    empty: bool,
    zero: bool,
}

impl Encoded {
    fn new(value: Value, empty: bool) -> Encoded {
        Encoded {
            value,
            empty,
            zero: empty,
        }
    }

    /// A value the encoder never omits (a struct, or input it could not decode: kept).
    fn kept(value: Value) -> Encoded {
        Encoded {
            value,
            empty: false,
            zero: false,
        }
    }
}

/// Round-trips `object`, whose Go type is the struct `root`, in place.
pub(crate) fn round_trip(types: &GoTypes, root: DeclId, object: &mut Value) {
    let input = std::mem::replace(object, Value::Null);
    *object = encode(types, &GoType::Named(root), Some(input)).value;
}

/// Decodes `input` (`None`: absent) into a zero value of `ty` and encodes the result.
fn encode(types: &GoTypes, ty: &GoType, input: Option<Value>) -> Encoded {
    let input = input.filter(|v| !v.is_null());
    match ty {
        GoType::String => match input {
            None => Encoded::new(Value::String(String::new()), true),
            Some(Value::String(s)) => string(s),
            Some(v) => Encoded::kept(v),
        },
        GoType::Bool => match input {
            None => Encoded::new(Value::Bool(false), true),
            Some(Value::Bool(b)) => Encoded::new(Value::Bool(b), !b),
            Some(v) => Encoded::kept(v),
        },
        GoType::Int(_) | GoType::Float => match input {
            None => Encoded::new(Value::Int(0), true),
            Some(Value::Int(i)) => Encoded::new(Value::Int(i), i == 0),
            Some(Value::Float(f)) if *ty == GoType::Float => {
                Encoded::new(Value::Float(f), f == 0.0)
            }
            Some(v) => Encoded::kept(v),
        },
        GoType::Bytes => match input {
            None => Encoded::new(Value::Null, true),
            Some(Value::String(s)) => string(s),
            Some(v) => Encoded::kept(v),
        },
        GoType::Any | GoType::Opaque => match input {
            None => Encoded::new(Value::Null, true),
            Some(v) => Encoded::kept(v),
        },
        GoType::Pointer(inner) => match input {
            None => Encoded::new(Value::Null, true),
            Some(v) => Encoded::kept(encode(types, inner, Some(v)).value),
        },
        GoType::Slice(inner) => match input {
            None => Encoded::new(Value::Null, true),
            Some(Value::List(items)) => {
                let empty = items.is_empty();
                let items = items
                    .into_iter()
                    .map(|item| encode(types, inner, Some(item)).value)
                    .collect();
                Encoded::new(Value::List(items), empty)
            }
            Some(v) => Encoded::kept(v),
        },
        GoType::Map(inner) => match input {
            None => Encoded::new(Value::Null, true),
            Some(Value::Map(m)) => {
                let empty = m.is_empty();
                let m = m
                    .into_iter()
                    .map(|(k, v)| (k, encode(types, inner, Some(v)).value))
                    .collect();
                Encoded::new(Value::Map(m), empty)
            }
            Some(v) => Encoded::kept(v),
        },
        GoType::Named(id) => match types.decl(*id) {
            Decl::Alias(t) => encode(types, t, input),
            Decl::Special(s) => special(*s, input),
            Decl::Struct(fields) => match input {
                None => Encoded::kept(Value::Map(encode_struct(types, fields, Map::default()))),
                Some(Value::Map(m)) => Encoded::kept(Value::Map(encode_struct(types, fields, m))),
                Some(v) => Encoded::kept(v),
            },
        },
    }
}

fn string(s: String) -> Encoded {
    let empty = s.is_empty();
    Encoded::new(Value::String(s), empty)
}

fn encode_struct(types: &GoTypes, fields: &[GoField], input: Map) -> Map {
    let omitted = |f: &GoField, e: &Encoded| (f.omitempty && e.empty) || (f.omitzero && e.zero);
    let mut out = Map::with_capacity_and_hasher(fields.len(), Default::default());
    for (name, v) in input {
        let Some(f) = fields.iter().find(|f| f.json == name) else {
            continue; // unknown fields are dropped
        };
        let e = encode(types, &f.ty, Some(v));
        if !omitted(f, &e) {
            out.insert(name, e.value);
        }
    }
    for f in fields {
        if out.contains_key(&f.json) {
            continue;
        }
        let e = encode(types, &f.ty, None);
        if !omitted(f, &e) {
            out.insert(f.json.clone(), e.value);
        }
    }
    out
}

fn special(s: Special, input: Option<Value>) -> Encoded {
    match (s, input) {
        (Special::Time | Special::MicroTime, None) => Encoded {
            value: Value::Null,
            empty: false,
            zero: true,
        },
        (Special::Time, Some(Value::String(t))) => {
            let canonical = match Time::parse(&t) {
                // Most stored times are canonical already: the string is kept.
                Ok(parsed) if parsed.rfc3339_bytes().is_some_and(|b| b == t.as_bytes()) => t,
                Ok(parsed) => parsed.to_string(),
                Err(_) => t,
            };
            Encoded::kept(Value::String(canonical))
        }
        (Special::MicroTime, Some(Value::String(t))) => {
            Encoded::kept(Value::String(micro_time(&t).unwrap_or(t)))
        }
        (Special::Quantity, None) => Encoded::kept(Value::String("0".into())),
        (Special::Quantity, Some(mut v)) => {
            canonical_quantity(&mut v);
            Encoded::kept(v)
        }
        (Special::IntOrString, None) => Encoded::kept(Value::Int(0)),
        (Special::Raw, None) => Encoded::new(Value::Null, true),
        (_, Some(v)) => Encoded::kept(v),
    }
}

/// `MicroTime`'s encoding: UTC, six fraction digits (`2006-01-02T15:04:05.000000Z`).
fn micro_time(text: &str) -> Option<String> {
    let seconds = Time::parse(text).ok()?.to_string();
    let fraction: String = text
        .get(19..)
        .and_then(|r| r.strip_prefix('.'))
        .map(|f| f.chars().take_while(char::is_ascii_digit).collect())
        .unwrap_or_default();
    let micros = format!("{fraction:0<6}");
    Some(format!(
        "{}.{}Z",
        seconds.trim_end_matches('Z'),
        &micros[..6]
    ))
}

/// Rewrites a quantity (string or number) to its canonical string; leaves anything else.
pub(crate) fn canonical_quantity(v: &mut Value) {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_float(*f),
        _ => return,
    };
    if let Some(c) = quantity::canonicalize(&text) {
        *v = Value::String(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn rt(group: &str, version: &str, kind: &str, json: &str) -> String {
        let types = GoTypes::builtin();
        let root = types.kind(group, version, kind).unwrap();
        let mut v = from_json_str(json).unwrap();
        round_trip(types, root, &mut v);
        crate::value::to_json_string(&v)
    }

    #[test]
    fn zero_times_stay_null_and_creation_timestamp_goes() {
        let pod = r#"{"metadata":{"creationTimestamp":null},"spec":{"containers":[]},
            "status":{"conditions":[{"type":"Ready","status":"True","lastProbeTime":null}]}}"#;
        let out = rt("", "v1", "Pod", pod);
        assert!(out.contains(r#""lastProbeTime":null"#), "{out}");
        assert!(!out.contains("creationTimestamp"), "{out}");
    }

    #[test]
    fn int_or_string_zero_is_written() {
        let out = rt("", "v1", "Service", r#"{"spec":{"ports":[{"port":80}]}}"#);
        assert!(out.contains(r#"{"port":80,"targetPort":0}"#), "{out}");
    }

    #[test]
    fn micro_times_keep_six_digits() {
        assert_eq!(
            micro_time("2024-01-02T03:04:05.5+01:00").unwrap(),
            "2024-01-02T02:04:05.500000Z"
        );
    }
}
