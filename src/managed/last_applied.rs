//! kubectl's client-side-apply annotation during the move to server-side apply
//! (`lastAppliedManager` / `lastAppliedUpdater`): conflicts on fields whose live value still
//! equals the last-applied one are forced, and the annotation follows what `kubectl` applies.

use crate::fieldpath::Set;
use crate::schema::{Schema, TypeRef};
use crate::typed::Typed;
use crate::value::{from_json_str, write_json, Value};

/// The annotation kubectl's client-side apply keeps the last applied configuration in.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Only this manager gets the allowance and the annotation rewrite.
pub const KUBECTL_MANAGER: &str = "kubectl";

/// The largest total size of an object's annotations (`ValidateAnnotationsSize`).
const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

fn last_applied(object: &Value) -> Option<&str> {
    object
        .get_path(&["metadata", "annotations", LAST_APPLIED_ANNOTATION])
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The fields an applier may take from others because the live value still equals the
/// last-applied one; `None` when there is no usable annotation.
pub fn allowed_conflicts(
    live: &Value,
    api_version: &str,
    schema: &Schema,
    type_ref: &TypeRef,
) -> Option<Set> {
    let text = last_applied(live)?;
    let applied = from_json_str(text).ok()?;
    if applied.get("apiVersion").and_then(Value::as_str) != Some(api_version) {
        return None;
    }
    let typed = Typed::new(schema, type_ref);
    typed.validate(live, true).ok()?;
    typed.validate(&applied, true).ok()?;
    let set = typed.to_field_set(&applied).ok()?;
    let c = typed.compare(&applied, live).ok()?;
    Some(
        set.difference(&c.modified)
            .difference(&c.added)
            .difference(&c.removed),
    )
}

/// Rewrites the annotation of `object` from the applied configuration when it already has one.
pub fn update_annotation(object: &mut Value, applied: &Value) {
    if last_applied(object).is_none() {
        return;
    }
    let value = build_last_applied(applied);
    let Some(annotations) = object
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_map_mut)
    else {
        return;
    };
    annotations.insert(LAST_APPLIED_ANNOTATION.to_string(), Value::from(value));
    let size: usize = annotations
        .iter()
        .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
        .sum();
    if size > TOTAL_ANNOTATION_SIZE_LIMIT {
        annotations.shift_remove(LAST_APPLIED_ANNOTATION);
    }
}

/// The annotation's value: the applied object without the annotation, as Go encodes an
/// unstructured object (sorted keys, HTML-safe escapes, a final newline).
pub fn build_last_applied(applied: &Value) -> String {
    let mut obj = applied.clone();
    if let Some(meta) = obj
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    {
        match meta.get_mut("annotations") {
            Some(Value::Map(a)) => {
                a.shift_remove(LAST_APPLIED_ANNOTATION);
            }
            Some(_) => {
                meta.shift_remove("annotations");
            }
            None => {}
        }
    }
    let mut out = String::new();
    write_json(&mut out, &obj.with_sorted_keys());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_annotation_as_go_encodes_it() {
        let applied = from_json_str(
            r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"x"}},"data":{"k":"<&>"}}"#,
        )
        .unwrap();
        assert_eq!(
            build_last_applied(&applied),
            "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"\\u003c\\u0026\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"a\"}}\n"
        );
    }
}
