//! The object metadata an update cannot change, as k8s.io/apiserver pkg/registry/rest/update.go
//! `BeforeUpdate` restores it from the stored object around the strategy's `PrepareForUpdate`
//! (the same in 1.30–1.36): the stored `generation` always (a strategy may then bump it,
//! which kssa does not predict), a missing `uid`, the stored `creationTimestamp` when set, a
//! set `deletionTimestamp`, and a `deletionGracePeriodSeconds` the write left out.
//!
//! An apply's merged object already carries these from the live one; a PUT that omits them (an
//! edited copy of a manifest) or a write that sets `creationTimestamp: null` gets them back
//! here, as the stored object shows them.

use super::object::object_meta_fields_after;
use crate::value::access::insert_in_order;
use crate::value::{Map, Value};

/// Restores `object`'s system metadata from `old`, the stored object of an update.
pub fn restore(object: &mut Value, old: &Value) {
    let Some(old_meta) = old.get("metadata").and_then(Value::as_map) else {
        return;
    };
    let Some(meta) = object
        .as_map_mut()
        .and_then(|o| o.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    else {
        return;
    };
    match old_meta.get("generation").filter(|g| !is_zero(g)) {
        Some(g) => set(meta, "generation", g),
        None => {
            meta.shift_remove("generation");
        }
    }
    if meta.get("uid").is_none_or(is_zero) {
        restore_if_set(meta, old_meta, "uid");
    }
    for key in ["creationTimestamp", "deletionTimestamp"] {
        restore_if_set(meta, old_meta, key);
    }
    if meta
        .get("deletionGracePeriodSeconds")
        .is_none_or(Value::is_null)
    {
        restore_if_set(meta, old_meta, "deletionGracePeriodSeconds");
    }
}

/// Go's zero value as JSON decodes it into the metadata field: absent, `null`, `""`, `0`.
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Int(i) => *i == 0,
        _ => false,
    }
}

fn restore_if_set(meta: &mut Map, old_meta: &Map, key: &str) {
    if let Some(v) = old_meta.get(key).filter(|v| !is_zero(v)) {
        set(meta, key, v);
    }
}

/// Sets `key` in place, or inserts it where the Go struct's field order puts it.
fn set(meta: &mut Map, key: &str, value: &Value) {
    if let Some(slot) = meta.get_mut(key) {
        *slot = value.clone();
        return;
    }
    insert_in_order(meta, key, value.clone(), object_meta_fields_after(key));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    const STORED: &str = r#"{"metadata":{"name":"web","uid":"u-1","generation":4,
      "creationTimestamp":"2026-01-01T00:00:00Z","resourceVersion":"9"}}"#;

    fn restored(sent: &str) -> String {
        let mut object = from_json_str(sent).unwrap();
        restore(&mut object, &from_json_str(STORED).unwrap());
        to_json_string(&object)
    }

    #[test]
    fn a_put_without_system_fields_keeps_the_stored_ones() {
        assert_eq!(
            restored(r#"{"metadata":{"name":"web","creationTimestamp":null,"generation":9}}"#),
            r#"{"metadata":{"name":"web","uid":"u-1","creationTimestamp":"2026-01-01T00:00:00Z","generation":4}}"#
        );
        assert_eq!(
            restored(r#"{"metadata":{"name":"web","uid":"u-2"}}"#),
            r#"{"metadata":{"name":"web","uid":"u-2","generation":4,"creationTimestamp":"2026-01-01T00:00:00Z"}}"#
        );
    }
}
