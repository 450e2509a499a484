//! The object model: a JSON-like value with distinct ints and floats and insertion-ordered maps.
//!
//! Ordering and equality follow structured-merge-diff's `value.Compare`/`value.Equals`, which
//! compare ints and floats numerically; set items and list keys depend on that order.

pub mod access;
pub(crate) mod go_unicode;
pub(crate) mod gofmt;
mod json;
mod shared;

use std::cmp::Ordering;

pub use json::{
    format_float, from_json_str, from_serde, to_json_string, to_json_string_pretty, to_serde,
    write_json,
};

pub use shared::{Entries, List, Map};

/// A JSON-compatible value. Ints and floats are distinct (`2` is not `2.0` when printed), but
/// compare numerically, as in the reference.
#[derive(Debug, Clone, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    List(List),
    Map(Map),
}

impl Value {
    /// Whether both are the same shared map or list: then they are equal, and so is everything
    /// below them, without looking inside.
    pub fn same_shared(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Map(a), Value::Map(b)) => Map::ptr_eq(a, b),
            (Value::List(a), Value::List(b)) => List::ptr_eq(a, b),
            _ => false,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// `null`, or a map or list without entries: what `omitempty` leaves out of a map or list.
    pub fn is_null_or_empty(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Map(m) => m.is_empty(),
            Value::List(l) => l.is_empty(),
            _ => false,
        }
    }

    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&Vec<Value>> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The value under `key` when this is a map.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map().and_then(|m| m.get(key))
    }

    /// Follows a chain of map keys.
    pub fn get_path(&self, keys: &[&str]) -> Option<&Value> {
        keys.iter().try_fold(self, |v, k| v.get(k))
    }

    /// A short name of the value's kind, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::String(_) => "string",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// The name Go's `reflect.TypeOf` gives the decoded JSON value, for messages that must
    /// read like the reference's.
    pub fn go_type_name(&self) -> &'static str {
        match self {
            Value::Null => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int64",
            Value::Float(_) => "float64",
            Value::String(_) => "string",
            Value::List(_) => "[]interface {}",
            Value::Map(_) => "map[string]interface {}",
        }
    }

    /// A copy with map keys sorted at every depth, as Go marshals maps.
    pub fn with_sorted_keys(&self) -> Value {
        match self {
            Value::Map(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Map(
                    keys.into_iter()
                        .map(|k| (k.clone(), m[k].with_sorted_keys()))
                        .collect(),
                )
            }
            Value::List(l) => Value::List(l.iter().map(Value::with_sorted_keys).collect()),
            other => other.clone(),
        }
    }

    fn rank(&self) -> u8 {
        // The reference orders kinds: numbers, strings, bools, lists, maps, null.
        match self {
            Value::Int(_) | Value::Float(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::List(_) => 3,
            Value::Map(_) => 4,
            Value::Null => 5,
        }
    }
}

fn float_compare(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Float(a), Float(b)) => float_compare(*a, *b),
            (Int(a), Float(b)) => float_compare(*a as f64, *b),
            (Float(a), Int(b)) => float_compare(*a, *b as f64),
            (String(a), String(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (List(a), List(b)) => a.iter().cmp(b.iter()),
            (Map(a), Map(b)) => map_compare(a, b),
            (Null, Null) => Ordering::Equal,
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// Maps compare as their sorted (key, value) sequences, like the reference's ordered zip.
fn map_compare(a: &Map, b: &Map) -> Ordering {
    let mut ak: Vec<&String> = a.keys().collect();
    let mut bk: Vec<&String> = b.keys().collect();
    ak.sort();
    bk.sort();
    let (mut i, mut j) = (0, 0);
    loop {
        match (ak.get(i), bk.get(j)) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => match x.cmp(y) {
                // A key only the left has sorts the left after.
                Ordering::Less => return Ordering::Greater,
                Ordering::Greater => return Ordering::Less,
                Ordering::Equal => {
                    let c = a[*x].cmp(&b[*y]);
                    if c != Ordering::Equal {
                        return c;
                    }
                    i += 1;
                    j += 1;
                }
            },
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Float(a), Float(b)) => a == b,
            (Int(a), Float(b)) | (Float(b), Int(a)) => (*a as f64) == *b,
            (String(a), String(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Null, Null) => true,
            (List(a), List(b)) => a == b,
            (Map(a), Map(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

/// Hashing agrees with the numeric equality above: numbers hash by their f64 value, and maps
/// hash independently of entry order.
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let number = |f: f64| if f == 0.0 { 0u64 } else { f.to_bits() };
        match self {
            Value::Null => state.write_u8(0),
            Value::Bool(b) => {
                state.write_u8(1);
                b.hash(state);
            }
            Value::Int(i) => {
                state.write_u8(2);
                state.write_u64(number(*i as f64));
            }
            Value::Float(f) => {
                state.write_u8(2);
                state.write_u64(number(*f));
            }
            Value::String(s) => {
                state.write_u8(3);
                s.hash(state);
            }
            Value::List(items) => {
                state.write_u8(4);
                items.hash(state);
            }
            Value::Map(m) => {
                use std::hash::BuildHasher;
                state.write_u8(5);
                let build = rustc_hash::FxBuildHasher;
                let sum = m
                    .iter()
                    .fold(0u64, |acc, entry| acc.wrapping_add(build.hash_one(entry)));
                state.write_usize(m.len());
                state.write_u64(sum);
            }
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Map(m)
    }
}

impl From<List> for Value {
    fn from(l: List) -> Self {
        Value::List(l)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::List(items.into())
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_json_string(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_floats_compare_numerically() {
        assert_eq!(Value::Int(2), Value::Float(2.0));
        assert!(Value::Int(1) < Value::Float(1.5));
        assert!(Value::Int(9) < Value::String("a".into()));
        assert!(Value::String("z".into()) < Value::Bool(false));
        assert!(Value::Map(Map::default()) < Value::Null);
    }

    #[test]
    fn maps_compare_by_sorted_entries() {
        let a = from_json_str(r#"{"b":1,"a":2}"#).unwrap();
        let b = from_json_str(r#"{"a":2,"b":1}"#).unwrap();
        assert_eq!(a.cmp(&b), Ordering::Equal);
        assert_eq!(a, b);
        let c = from_json_str(r#"{"a":2}"#).unwrap();
        assert_eq!(c.cmp(&a), Ordering::Less);
    }
}
