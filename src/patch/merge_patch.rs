//! JSON merge patch (RFC 7386) as evanphx/json-patch v4 `MergePatch` applies it for
//! `application/merge-patch+json`: objects merge, `null` deletes, anything else replaces, and
//! the nulls of a value that is taken whole are pruned.

use super::PatchError;
use crate::value::{Map, Value};

/// Applies `patch` to `original`.
///
/// As in the library: a `null` document or patch, or a scalar patch, is an error; a document
/// that is not an object is replaced by the (pruned) patch object; an array patch replaces the
/// document.
pub fn merge_patch(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    if original.is_null() {
        return Err(PatchError::MergeInvalidDocument);
    }
    match patch {
        Value::Map(p) => match original {
            Value::Map(doc) => {
                let mut doc = doc.clone();
                merge_docs(&mut doc, p);
                Ok(Value::Map(doc))
            }
            _ => Ok(pruned(patch.clone())),
        },
        Value::List(_) => Ok(pruned(patch.clone())),
        _ => Err(PatchError::MergeInvalidPatch),
    }
}

fn merge_docs(doc: &mut Map, patch: &Map) {
    for (k, v) in patch {
        if v.is_null() {
            doc.shift_remove(k);
            continue;
        }
        match doc.get_mut(k) {
            Some(cur) if !cur.is_null() => merge_value(cur, v),
            _ => {
                doc.insert(k.clone(), pruned(v.clone()));
            }
        }
    }
}

/// Merges `patch` into the existing non-null value `cur`.
fn merge_value(cur: &mut Value, patch: &Value) {
    match (cur, patch) {
        (Value::Map(c), Value::Map(p)) => merge_docs(c, p),
        // The library prunes only when the current value is not an object.
        (c @ Value::Map(_), p) => *c = p.clone(),
        (c, p) => *c = pruned(p.clone()),
    }
}

/// Drops null members of objects, at any depth; nulls directly inside arrays stay.
fn pruned(v: Value) -> Value {
    match v {
        Value::Map(m) => Value::Map(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, pruned(v)))
                .collect(),
        ),
        Value::List(items) => Value::List(items.into_iter().map(pruned).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn v(s: &str) -> Value {
        from_json_str(s).unwrap()
    }

    #[test]
    fn null_deletes_and_objects_merge() {
        let out = merge_patch(
            &v(r#"{"a":{"b":1,"c":2},"d":3}"#),
            &v(r#"{"a":{"b":null},"d":4}"#),
        );
        assert_eq!(out.unwrap(), v(r#"{"a":{"c":2},"d":4}"#));
    }

    #[test]
    fn new_values_lose_their_nulls_but_arrays_keep_theirs() {
        let out = merge_patch(
            &v(r#"{"a":null}"#),
            &v(r#"{"a":{"b":1,"c":null},"l":[null,{"x":null}]}"#),
        );
        assert_eq!(out.unwrap(), v(r#"{"a":{"b":1},"l":[null,{}]}"#));
    }

    #[test]
    fn a_non_object_patch_over_an_object_is_taken_as_is() {
        let out = merge_patch(&v(r#"{"a":{"b":1}}"#), &v(r#"{"a":[{"x":null}]}"#));
        assert_eq!(out.unwrap(), v(r#"{"a":[{"x":null}]}"#));
    }

    #[test]
    fn invalid_inputs() {
        assert_eq!(
            merge_patch(&Value::Null, &v("{}")),
            Err(PatchError::MergeInvalidDocument)
        );
        assert_eq!(
            merge_patch(&v("{}"), &Value::Null),
            Err(PatchError::MergeInvalidPatch)
        );
        assert_eq!(
            merge_patch(&v("{}"), &v("\"s\"")),
            Err(PatchError::MergeInvalidPatch)
        );
        assert_eq!(
            merge_patch(&v("[1]"), &v(r#"{"a":null}"#)).unwrap(),
            v("{}")
        );
        assert_eq!(
            merge_patch(&v("{}"), &v("[1,null]")).unwrap(),
            v("[1,null]")
        );
    }
}
