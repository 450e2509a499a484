//! Reading the fields of an object under validation: the small accessors every kind's rules use,
//! treating an absent field, a `null` and a value of another type alike (as Go's zero values).

use crate::value::{Map, Value};

/// The string under `key`, `""` when absent or not a string.
pub(super) fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The items of a list, none when absent or not a list.
pub(super) fn items(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_list).map_or(&[], Vec::as_slice)
}

/// The value under `key` unless absent or `null` (Go's nil pointer).
pub(super) fn present<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.get(key).filter(|x| !x.is_null())
}

/// A quantity's text as the object holds it (numbers included).
pub(super) fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Int(n) => Some(n.to_string()),
        Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// The value under `key`, `null` when absent.
pub(super) fn child<'v>(v: &'v Value, key: &str) -> &'v Value {
    static NULL: Value = Value::Null;
    v.get(key).unwrap_or(&NULL)
}

/// The object's `spec`, `null` when absent.
pub(super) fn spec(object: &Value) -> &Value {
    child(object, "spec")
}

/// Sets `key` of a map to `value`, or removes it for `None`, as the registry's preparation of
/// a write does: a `null` (absent) map becomes an empty one first, anything else is left alone.
pub(super) fn set(map: &mut Value, key: &str, value: Option<Value>) {
    if map.is_null() {
        *map = Value::Map(Map::default());
    }
    let Some(m) = map.as_map_mut() else { return };
    match value {
        Some(v) => {
            m.insert(key.into(), v);
        }
        None => {
            m.shift_remove(key);
        }
    }
}
