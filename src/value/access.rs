//! Reading and setting an object's fields as Go code reads its typed structs: an absent field,
//! a `null` and a value of another type all read as the zero value.

use super::{Map, Value};

/// The string under `key`, `""` when absent or not a string.
pub fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The items of a list, none when absent or not a list.
pub fn items(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_list).map_or(&[], Vec::as_slice)
}

/// The value under `key` unless absent or `null` (Go's nil pointer).
pub fn present<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.get(key).filter(|x| !x.is_null())
}

/// Sets `key` of a map to `value`, or removes it for `None`, as a registry's preparation of a
/// write does: a `null` (absent) map becomes an empty one first, anything else is left alone.
pub fn set(map: &mut Value, key: &str, value: Option<Value>) {
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

/// Inserts `key` (when absent) where a Go struct's field order puts it: before the first of
/// the keys `later` (the fields the struct declares after it) that the map holds, else last.
pub fn insert_in_order(map: &mut Map, key: &str, value: Value, later: &[&str]) {
    if map.contains_key(key) {
        return;
    }
    let at = map
        .keys()
        .position(|k| later.contains(&k.as_str()))
        .unwrap_or(map.len());
    map.shift_insert(at, key.into(), value);
}
