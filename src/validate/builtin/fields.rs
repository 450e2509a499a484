//! Reading the fields of an object under validation: the small accessors every kind's rules use,
//! treating an absent field, a `null` and a value of another type alike (as Go's zero values).

pub(super) use crate::value::access::{items, present, set, text};
use crate::value::Value;

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
