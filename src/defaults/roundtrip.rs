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
//!
//! Most of an object comes out of the round trip as it went in (every time after the first, and
//! most of it the first time), so the walk only reads, and builds new maps and lists only on the
//! way to what changes: everything else stays shared with the input.

use super::gotypes::{Decl, DeclId, GoField, GoType, GoTypes, Special, StructDecl};
use super::quantity;
use crate::managed::Time;
use crate::value::{format_float, List, Map, Value};

/// What encoding a value gives: the new value where it differs from the input, and whether
/// `omitempty` / `omitzero` would leave it out.
struct Encoded {
    changed: Option<Value>,
    empty: bool,
    zero: bool,
}

impl Encoded {
    fn same(empty: bool) -> Encoded {
        Encoded {
            changed: None,
            empty,
            zero: empty,
        }
    }

    /// A value the encoder never omits (a struct, or input it could not decode: kept).
    fn kept(changed: Option<Value>) -> Encoded {
        Encoded {
            changed,
            empty: false,
            zero: false,
        }
    }
}

/// The encoding of an absent (or `null`) value: the zero value of its type.
struct Zero {
    value: Value,
    empty: bool,
    zero: bool,
}

impl Zero {
    fn new(value: Value, empty: bool) -> Zero {
        Zero {
            value,
            empty,
            zero: empty,
        }
    }

    fn kept(value: Value) -> Zero {
        Zero {
            value,
            empty: false,
            zero: false,
        }
    }
}

/// Round-trips `object`, whose Go type is the struct `root`, in place.
pub(crate) fn round_trip(types: &GoTypes, root: DeclId, object: &mut Value) {
    if let Some(v) = encode(types, &GoType::Named(root), object).changed {
        *object = v;
    }
}

/// Decodes `input` into a zero value of `ty` and encodes the result.
fn encode(types: &GoTypes, ty: &GoType, input: &Value) -> Encoded {
    if input.is_null() {
        let z = zero(types, ty);
        return Encoded {
            changed: (!z.value.is_null()).then_some(z.value),
            empty: z.empty,
            zero: z.zero,
        };
    }
    match ty {
        GoType::String | GoType::Bytes => match input {
            Value::String(s) => Encoded::same(s.is_empty()),
            _ => Encoded::kept(None),
        },
        GoType::Bool => match input {
            Value::Bool(b) => Encoded::same(!b),
            _ => Encoded::kept(None),
        },
        GoType::Int(_) | GoType::Float => match input {
            Value::Int(i) => Encoded::same(*i == 0),
            Value::Float(f) if *ty == GoType::Float => Encoded::same(*f == 0.0),
            _ => Encoded::kept(None),
        },
        GoType::Any | GoType::Opaque => Encoded::kept(None),
        GoType::Pointer(inner) => Encoded::kept(encode(types, inner, input).changed),
        GoType::Slice(inner) => match input {
            Value::List(items) => {
                let changed = changed_items(items.iter().map(|item| encode(types, inner, item)));
                Encoded {
                    changed: changed.map(|c| Value::List(with_items(items, c))),
                    ..Encoded::same(items.is_empty())
                }
            }
            _ => Encoded::kept(None),
        },
        GoType::Map(inner) => match input {
            Value::Map(m) => {
                let changed = changed_items(m.values().map(|v| encode(types, inner, v)));
                Encoded {
                    changed: changed.map(|c| Value::Map(with_values(m, c))),
                    ..Encoded::same(m.is_empty())
                }
            }
            _ => Encoded::kept(None),
        },
        GoType::Named(id) => match types.decl(*id) {
            Decl::Alias(t) => encode(types, t, input),
            Decl::Special(s) => special(*s, input),
            Decl::Struct(decl) => match input {
                Value::Map(m) => Encoded::kept(encode_struct(types, decl, m).map(Value::Map)),
                _ => Encoded::kept(None),
            },
        },
    }
}

/// The zero value of `ty`, encoded.
fn zero(types: &GoTypes, ty: &GoType) -> Zero {
    match ty {
        GoType::String => Zero::new(Value::String(String::new()), true),
        GoType::Bool => Zero::new(Value::Bool(false), true),
        GoType::Int(_) | GoType::Float => Zero::new(Value::Int(0), true),
        GoType::Bytes
        | GoType::Any
        | GoType::Opaque
        | GoType::Pointer(_)
        | GoType::Slice(_)
        | GoType::Map(_) => Zero::new(Value::Null, true),
        GoType::Named(id) => match types.decl(*id) {
            Decl::Alias(t) => zero(types, t),
            Decl::Special(Special::Time | Special::MicroTime) => Zero {
                value: Value::Null,
                empty: false,
                zero: true,
            },
            Decl::Special(Special::Quantity) => Zero::kept(Value::String("0".into())),
            Decl::Special(Special::IntOrString) => Zero::kept(Value::Int(0)),
            Decl::Special(Special::Raw) => Zero::new(Value::Null, true),
            Decl::Struct(decl) => Zero::kept(Value::Map(
                absent_fields(types, decl)
                    .iter()
                    .map(|(_, name, v)| (name.clone(), v.clone()))
                    .collect(),
            )),
        },
    }
}

/// The items' new values by index, if any changed.
fn changed_items(items: impl Iterator<Item = Encoded>) -> Option<Vec<(usize, Value)>> {
    let changed: Vec<_> = items
        .enumerate()
        .filter_map(|(i, e)| Some((i, e.changed?)))
        .collect();
    (!changed.is_empty()).then_some(changed)
}

fn with_items(items: &List, changed: Vec<(usize, Value)>) -> List {
    let mut out = items.clone();
    for (i, v) in changed {
        out[i] = v;
    }
    out
}

fn with_values(m: &Map, changed: Vec<(usize, Value)>) -> Map {
    let mut out = m.clone();
    for (i, v) in changed {
        if let Some((_, slot)) = out.get_index_mut(i) {
            *slot = v;
        }
    }
    out
}

fn omitted(f: &GoField, empty: bool, zero: bool) -> bool {
    (f.omitempty && empty) || (f.omitzero && zero)
}

/// The fields the encoder writes for a struct that lacks them (their zero values, unless
/// omitted), in Go order: the same for every value of the struct, so worked out once.
fn absent_fields<'d>(types: &GoTypes, decl: &'d StructDecl) -> &'d [(usize, String, Value)] {
    decl.absent.get_or_init(|| {
        decl.fields
            .iter()
            .enumerate()
            .filter_map(|(at, f)| {
                let z = zero(types, &f.ty);
                (!omitted(f, z.empty, z.zero)).then(|| (at, f.json.clone(), z.value))
            })
            .collect()
    })
}

/// The positions of the struct fields an input has, for the structs of up to 128 fields
/// (nearly all): which of the fields the encoder adds are missing is then a bit test, not a
/// search of the input per field.
struct Present(u128);

impl Present {
    fn mark(&mut self, at: usize) {
        if at < 128 {
            self.0 |= 1 << at;
        }
    }

    fn has(&self, at: usize, name: &str, input: &Map) -> bool {
        match at < 128 {
            true => self.0 & (1 << at) != 0,
            false => input.contains_key(name),
        }
    }
}

/// The struct `input` encoded, if that changes it: unknown and omitted fields dropped, values
/// re-encoded, the fields the encoder writes that the input lacks appended in Go order.
fn encode_struct(types: &GoTypes, decl: &StructDecl, input: &Map) -> Option<Map> {
    // Per input field, by index: `None` drops it, `Some` replaces its value.
    let mut edits: Vec<(usize, Option<Value>)> = Vec::new();
    let mut present = Present(0);
    for (i, (name, v)) in input.iter().enumerate() {
        let Some((at, f)) = decl.field(name) else {
            edits.push((i, None)); // unknown fields are dropped
            continue;
        };
        present.mark(at);
        let e = encode(types, &f.ty, v);
        if omitted(f, e.empty, e.zero) {
            edits.push((i, None));
        } else if let Some(new) = e.changed {
            edits.push((i, Some(new)));
        }
    }
    let added: Vec<_> = absent_fields(types, decl)
        .iter()
        .filter(|(at, name, _)| !present.has(*at, name, input))
        .map(|(_, name, v)| (name.clone(), v.clone()))
        .collect();
    if edits.is_empty() && added.is_empty() {
        return None;
    }
    let mut out = input.clone();
    // From the back, so that removing a field leaves the indexes still to come valid.
    for (i, edit) in edits.into_iter().rev() {
        match edit {
            Some(v) => {
                if let Some((_, slot)) = out.get_index_mut(i) {
                    *slot = v;
                }
            }
            None => {
                out.shift_remove_index(i);
            }
        }
    }
    out.extend(added);
    Some(out)
}

fn special(s: Special, input: &Value) -> Encoded {
    let Value::String(text) = input else {
        return match (s, input) {
            (Special::Quantity, v) => Encoded::kept(canonical_quantity_of(v).map(Value::String)),
            _ => Encoded::kept(None),
        };
    };
    let changed = match s {
        Special::Time => match Time::parse(text) {
            // Most stored times are canonical already: the string is kept.
            Ok(parsed) if parsed.rfc3339_bytes().is_some_and(|b| b == text.as_bytes()) => None,
            Ok(parsed) => Some(parsed.to_string()),
            Err(_) => None,
        },
        Special::MicroTime => micro_time(text),
        Special::Quantity => canonical_quantity_of(input),
        Special::IntOrString | Special::Raw => None,
    };
    Encoded::kept(changed.filter(|c| c != text).map(Value::String))
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
    if let Some(c) = canonical_quantity_of(v) {
        *v = Value::String(c);
    }
}

/// The canonical string of a quantity (string or number), if it is one.
fn canonical_quantity_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => quantity::canonicalize(s),
        Value::Int(i) => quantity::canonicalize(&i.to_string()),
        Value::Float(f) => quantity::canonicalize(&format_float(*f)),
        _ => None,
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
