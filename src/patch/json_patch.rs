//! JSON patch (RFC 6902) as evanphx/json-patch v4 `DecodePatch` + `Apply` run it for
//! `application/json-patch+json`, with the library defaults the API server keeps: negative
//! array indices count from the end, and `copy` may add at most 3 MiB in total.
//!
//! The library's non-RFC behaviours are kept on purpose: `replace` of a missing object member
//! adds it, a path without a leading `/` starts at the root, indices may have leading zeros,
//! `add` without `value` stores `null`, and `test` compares scalars by their JSON spelling.

use super::PatchError;
use crate::value::{to_json_string, Map, Value};

/// The total size `copy` operations may add to a document.
pub const COPY_SIZE_LIMIT: usize = 3 * 1024 * 1024;

/// Applies the operations of `patch` (a JSON array) to `original`, in order; the first
/// failing operation fails the whole patch.
pub fn json_patch(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    let ops: &[Value] = match patch {
        Value::List(ops) => ops,
        Value::Null => &[],
        other => {
            return Err(PatchError::JsonPatchShape {
                found: json_kind(other),
                expected: "jsonpatch.Patch",
            })
        }
    };
    for op in ops {
        if !matches!(op, Value::Map(_) | Value::Null) {
            return Err(PatchError::JsonPatchShape {
                found: json_kind(op),
                expected: "jsonpatch.Operation",
            });
        }
    }
    let mut doc = match original {
        Value::Map(_) | Value::List(_) => original.clone(),
        Value::Null => Value::Map(Map::default()),
        other => {
            return Err(PatchError::JsonPatchShape {
                found: json_kind(other),
                expected: "jsonpatch.partialDoc",
            })
        }
    };
    let mut copied = 0usize;
    for (index, op) in ops.iter().enumerate() {
        let kind = match op.get("op") {
            Some(Value::String(s)) => s.as_str(),
            _ => "unknown",
        };
        let fail = |message: String| PatchError::JsonPatchOperation {
            index,
            op: kind.to_string(),
            message,
        };
        match kind {
            "add" => add(&mut doc, op).map_err(fail)?,
            "remove" => remove(&mut doc, op).map_err(fail)?,
            "replace" => replace(&mut doc, op).map_err(fail)?,
            "move" => move_op(&mut doc, op).map_err(fail)?,
            "test" => test(&mut doc, op).map_err(fail)?,
            "copy" => copy(&mut doc, op, &mut copied).map_err(|e| match e {
                CopyError::Limit(size) => PatchError::JsonPatchCopyLimit {
                    size,
                    limit: COPY_SIZE_LIMIT,
                },
                CopyError::Op(m) => fail(m),
            })?,
            other => return Err(PatchError::JsonPatchUnknownOp(other.to_string())),
        }
    }
    Ok(doc)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

const MISSING: &str = "missing value";

/// The operation's `path` (or `from`); the error text is the library's.
fn field<'a>(op: &'a Value, name: &str, missing: &str) -> Result<&'a str, String> {
    match op.get(name) {
        None | Some(Value::Null) => Err(format!("{missing}: {MISSING}")),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            json_kind(other)
        )),
    }
}

fn path_of(op: &Value) -> Result<&str, String> {
    field(op, "path", "operation missing path field")
}

fn from_of(op: &Value) -> Result<&str, String> {
    field(op, "from", "operation, missing from field")
}

/// The operation's `value`; an absent value is `null`.
fn value_of(op: &Value) -> Value {
    op.get("value").cloned().unwrap_or(Value::Null)
}

fn decode_key(k: &str) -> String {
    k.replace("~1", "/").replace("~0", "~")
}

/// The container holding the last segment of `path`, and that segment decoded. Like the
/// library, segments are whatever lies between slashes after the first one.
fn find_object<'a>(doc: &'a mut Value, path: &str) -> Option<(&'a mut Value, String)> {
    let split: Vec<&str> = path.split('/').collect();
    if split.len() < 2 {
        return None;
    }
    let mut cur = doc;
    for part in &split[1..split.len() - 1] {
        let next = get_mut(cur, &decode_key(part)).ok()??;
        if !matches!(next, Value::Map(_) | Value::List(_)) {
            return None;
        }
        cur = next;
    }
    Some((cur, decode_key(split[split.len() - 1])))
}

/// Go's `strconv.Atoi`, with its error text.
fn atoi(key: &str) -> Result<i64, String> {
    let digits = key.strip_prefix(['+', '-']).unwrap_or(key);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {key:?}: invalid syntax"));
    }
    key.parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing {key:?}: value out of range"))
}

fn invalid_index(idx: i64) -> String {
    format!("Unable to access invalid index: {idx}: invalid index referenced")
}

/// Resolves an existing-element index (negative counts from the end).
fn element_index(len: usize, key: &str) -> Result<usize, String> {
    let mut idx = atoi(key)?;
    let len = len as i64;
    if idx < 0 {
        if idx < -len {
            return Err(invalid_index(idx));
        }
        idx += len;
    }
    if idx >= len {
        return Err(invalid_index(idx));
    }
    Ok(idx as usize)
}

/// The value under `key`: `Ok(None)` when an object lacks it or it is `null`.
fn get_mut<'a>(con: &'a mut Value, key: &str) -> Result<Option<&'a mut Value>, String> {
    match con {
        Value::Map(m) => Ok(m.get_mut(key).filter(|v| !v.is_null())),
        Value::List(l) => {
            let i = element_index(l.len(), key)?;
            Ok(Some(&mut l[i]).filter(|v| !v.is_null()))
        }
        _ => Ok(None),
    }
}

fn con_add(con: &mut Value, key: &str, val: Value) -> Result<(), String> {
    match con {
        Value::Map(m) => {
            m.insert(key.to_string(), val);
            Ok(())
        }
        Value::List(l) => {
            if key == "-" {
                l.push(val);
                return Ok(());
            }
            let mut idx = atoi(key)
                .map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
            let size = l.len() as i64 + 1;
            if idx >= size {
                return Err(invalid_index(idx));
            }
            if idx < 0 {
                if idx < -size {
                    return Err(invalid_index(idx));
                }
                idx += size;
            }
            l.insert(idx as usize, val);
            Ok(())
        }
        _ => Ok(()),
    }
}

fn con_remove(con: &mut Value, key: &str) -> Result<Value, String> {
    match con {
        Value::Map(m) => m
            .shift_remove(key)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {key}: {MISSING}")),
        Value::List(l) => {
            let mut idx = atoi(key)?;
            let len = l.len() as i64;
            if idx >= len {
                return Err(invalid_index(idx));
            }
            if idx < 0 {
                if idx < -len {
                    return Err(invalid_index(idx));
                }
                idx += len;
            }
            Ok(l.remove(idx as usize))
        }
        _ => Ok(Value::Null),
    }
}

fn add(doc: &mut Value, op: &Value) -> Result<(), String> {
    let path =
        path_of(op).map_err(|_| format!("add operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find_object(doc, path) else {
        return Err(format!(
            "add operation does not apply: doc is missing path: {path:?}: {MISSING}"
        ));
    };
    con_add(con, &key, value_of(op)).map_err(|e| format!("error in add for path: '{path}': {e}"))
}

fn remove(doc: &mut Value, op: &Value) -> Result<(), String> {
    let path =
        path_of(op).map_err(|_| format!("remove operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find_object(doc, path) else {
        return Err(format!(
            "remove operation does not apply: doc is missing path: {path:?}: {MISSING}"
        ));
    };
    con_remove(con, &key)
        .map(drop)
        .map_err(|e| format!("error in remove for path: '{path}': {e}"))
}

fn replace(doc: &mut Value, op: &Value) -> Result<(), String> {
    let path = path_of(op).map_err(|e| format!("replace operation failed to decode path: {e}"))?;
    if path.is_empty() {
        // The library replaces the root only with an object or array, and silently ignores
        // anything else.
        let val = value_of(op);
        if matches!(val, Value::Map(_) | Value::List(_)) {
            *doc = val;
        }
        return Ok(());
    }
    let Some((con, key)) = find_object(doc, path) else {
        return Err(format!(
            "replace operation does not apply: doc is missing path: {path}: {MISSING}"
        ));
    };
    match con {
        Value::List(l) => {
            let i = element_index(l.len(), &key).map_err(|_| {
                format!("replace operation does not apply: doc is missing key: {path}: {MISSING}")
            })?;
            l[i] = value_of(op);
        }
        Value::Map(m) => {
            // A missing member is added, not reported.
            m.insert(key, value_of(op));
        }
        _ => {}
    }
    Ok(())
}

fn move_op(doc: &mut Value, op: &Value) -> Result<(), String> {
    let from = from_of(op).map_err(|e| format!("move operation failed to decode from: {e}"))?;
    let Some((con, key)) = find_object(doc, from) else {
        return Err(format!(
            "move operation does not apply: doc is missing from path: {from}: {MISSING}"
        ));
    };
    get_mut(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let val = con_remove(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let path = path_of(op).map_err(|e| format!("move operation failed to decode path: {e}"))?;
    let Some((con, key)) = find_object(doc, path) else {
        return Err(format!(
            "move operation does not apply: doc is missing destination path: {path}: {MISSING}"
        ));
    };
    con_add(con, &key, val).map_err(|e| format!("error in move for path: '{path}': {e}"))
}

fn test(doc: &mut Value, op: &Value) -> Result<(), String> {
    let path = path_of(op).map_err(|e| format!("test operation failed to decode path: {e}"))?;
    let failed = || format!("testing value {path} failed: test failed");
    let expected = value_of(op);
    if path.is_empty() {
        return if same_json(doc, &expected) {
            Ok(())
        } else {
            Err(failed())
        };
    }
    let Some((con, key)) = find_object(doc, path) else {
        return Err(format!(
            "test operation does not apply: is missing path: {path}: {MISSING}"
        ));
    };
    let actual =
        get_mut(con, &key).map_err(|e| format!("error in test for path: '{path}': {e}"))?;
    match actual {
        // A missing or null member passes a test against null.
        None if expected.is_null() => Ok(()),
        Some(v) if same_json(v, &expected) => Ok(()),
        _ => Err(failed()),
    }
}

enum CopyError {
    Op(String),
    Limit(usize),
}

fn copy(doc: &mut Value, op: &Value, copied: &mut usize) -> Result<(), CopyError> {
    let from = from_of(op)
        .map_err(|e| CopyError::Op(format!("copy operation failed to decode from: {e}")))?;
    let Some((con, key)) = find_object(doc, from) else {
        return Err(CopyError::Op(format!(
            "copy operation does not apply: doc is missing from path: {from}: {MISSING}"
        )));
    };
    let val = get_mut(con, &key)
        .map_err(|e| CopyError::Op(format!("error in copy for from: '{from}': {e}")))?
        .map(|v| v.clone())
        .unwrap_or(Value::Null);
    let path = path_of(op)
        .map_err(|_| CopyError::Op(format!("copy operation failed to decode path: {MISSING}")))?;
    let Some((con, key)) = find_object(doc, path) else {
        return Err(CopyError::Op(format!(
            "copy operation does not apply: doc is missing destination path: {path}: {MISSING}"
        )));
    };
    *copied += to_json_string(&val).len();
    if *copied > COPY_SIZE_LIMIT {
        return Err(CopyError::Limit(*copied));
    }
    con_add(con, &key, val)
        .map_err(|e| CopyError::Op(format!("error while adding value during copy: {e}")))
}

/// The library's `test` equality: objects and arrays structurally, scalars by their JSON
/// text (so `1` and `1.0` differ, unlike [`Value`]'s numeric equality).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_json(v, w))
        }
        (Value::Map(_) | Value::List(_), _) | (_, Value::Map(_) | Value::List(_)) => false,
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        _ => to_json_string(a) == to_json_string(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn v(s: &str) -> Value {
        from_json_str(s).unwrap()
    }

    fn apply(doc: &str, patch: &str) -> Result<Value, String> {
        json_patch(&v(doc), &v(patch)).map_err(|e| e.to_string())
    }

    #[test]
    fn add_remove_replace() {
        let out = apply(
            r#"{"a":[1,2],"b":{"c":1}}"#,
            r#"[{"op":"add","path":"/a/-","value":3},{"op":"remove","path":"/b/c"},
               {"op":"replace","path":"/a/0","value":0}]"#,
        );
        assert_eq!(out.unwrap(), v(r#"{"a":[0,2,3],"b":{}}"#));
    }

    #[test]
    fn negative_indices_and_escapes() {
        let out = apply(
            r#"{"a":[1,2,3],"x/y":1}"#,
            r#"[{"op":"remove","path":"/a/-1"},{"op":"replace","path":"/x~1y","value":2}]"#,
        );
        assert_eq!(out.unwrap(), v(r#"{"a":[1,2],"x/y":2}"#));
    }

    #[test]
    fn move_copy_test() {
        let out = apply(
            r#"{"a":{"b":1}}"#,
            r#"[{"op":"copy","from":"/a","path":"/c"},{"op":"move","from":"/a/b","path":"/d"},
               {"op":"test","path":"/c","value":{"b":1}}]"#,
        );
        assert_eq!(out.unwrap(), v(r#"{"a":{},"c":{"b":1},"d":1}"#));
    }

    #[test]
    fn errors_name_operation_and_path() {
        let err = apply(r#"{"a":[1]}"#, r#"[{"op":"remove","path":"/a/5"}]"#).unwrap_err();
        assert_eq!(
            err,
            "error in remove for path: '/a/5': Unable to access invalid index: 5: invalid index referenced"
        );
        let err = apply(r#"{}"#, r#"[{"op":"test","path":"/a","value":1}]"#).unwrap_err();
        assert_eq!(err, "testing value /a failed: test failed");
        let err = apply(r#"{}"#, r#"{"op":"add"}"#).unwrap_err();
        assert_eq!(
            err,
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
        );
        let err = apply(r#"{}"#, r#"[{"op":"frob"}]"#).unwrap_err();
        assert_eq!(err, "Unexpected kind: frob");
    }

    #[test]
    fn test_compares_scalars_by_spelling() {
        assert!(apply(r#"{"a":1}"#, r#"[{"op":"test","path":"/a","value":1.0}]"#).is_err());
        assert!(apply(r#"{"a":1}"#, r#"[{"op":"test","path":"/b","value":null}]"#).is_ok());
    }
}
