//! Reading the fields of an object under validation: the small accessors every kind's rules use,
//! treating an absent field, a `null` and a value of another type alike (as Go's zero values).

use crate::value::Value;

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

/// The object's `spec`, `null` when absent.
pub(super) fn spec(object: &Value) -> &Value {
    static NULL: Value = Value::Null;
    object.get("spec").unwrap_or(&NULL)
}
