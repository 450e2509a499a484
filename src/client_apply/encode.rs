//! The texts kubectl computes a patch from, encoded as `runtime.Encode(unstructured.
//! UnstructuredJSONScheme, obj)` does (compact JSON, keys sorted, `<>&` escaped, a final
//! newline), and the annotation built from the manifest (kubectl pkg/util/apply.go
//! `GetModifiedConfiguration`, `CreateApplyAnnotation`; apply.go `pruneNullsFromMap`).

use super::LAST_APPLIED;
use crate::value::{write_json, Map, Value};

/// An object as kubectl encodes it.
pub fn go_encode(v: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, &v.with_sorted_keys());
    out.push('\n');
    out
}

/// The manifest's annotations with `value` as the last-applied one (`None`: removed). The
/// annotations map is always set, so an object without annotations gets `{}`.
fn with_annotation(manifest: &Value, value: Option<String>) -> Value {
    let mut obj = manifest.clone();
    let Value::Map(root) = &mut obj else {
        return obj;
    };
    let meta = root
        .entry("metadata".to_string())
        .or_insert_with(|| Value::Map(Map::default()));
    if !matches!(meta, Value::Map(_)) {
        *meta = Value::Map(Map::default());
    }
    let Value::Map(meta) = meta else {
        unreachable!("set above")
    };
    let mut annotations = match meta.get("annotations") {
        Some(Value::Map(a)) if a.values().all(|v| matches!(v, Value::String(_))) => a.clone(),
        _ => Map::default(),
    };
    annotations.shift_remove(LAST_APPLIED);
    if let Some(v) = value {
        annotations.insert(LAST_APPLIED.to_string(), Value::from(v));
    }
    meta.insert("annotations".to_string(), Value::Map(annotations));
    obj
}

/// The annotation's value and `modified`: the manifest without any last-applied annotation,
/// encoded; then the manifest carrying that encoding as its annotation, encoded again.
pub fn modified_configuration(manifest: &Value) -> (String, String) {
    let annotation = go_encode(&with_annotation(manifest, None));
    let modified = go_encode(&with_annotation(manifest, Some(annotation.clone())));
    (annotation, modified)
}

/// What a create posts: the manifest with its annotation, `null` members pruned at any depth
/// (list items stay).
pub fn create_object(manifest: &Value) -> Value {
    let (annotation, _) = modified_configuration(manifest);
    prune_nulls(with_annotation(manifest, Some(annotation)))
}

fn prune_nulls(v: Value) -> Value {
    match v {
        Value::Map(m) => Value::Map(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, prune_nulls(v)))
                .collect(),
        ),
        Value::List(l) => Value::List(l.into_iter().map(prune_nulls).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn the_annotation_is_the_manifest_encoded_without_it() {
        let m = from_json_str(r#"{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"<&>"}}"#)
            .unwrap();
        let (annotation, modified) = modified_configuration(&m);
        assert_eq!(
            annotation,
            "{\"data\":{\"k\":\"\\u003c\\u0026\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"a\"}}\n"
        );
        assert!(modified.starts_with("{\"data\":{\"k\":\"\\u003c\\u0026\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":\"{\\\"data\\\""));
        assert!(modified.ends_with("}}\n"));
    }

    #[test]
    fn a_create_prunes_nulls_but_keeps_them_in_the_annotation() {
        let m =
            from_json_str(r#"{"kind":"A","metadata":{"name":"a"},"spec":{"x":null,"l":[null]}}"#)
                .unwrap();
        let created = create_object(&m);
        assert_eq!(
            created.get_path(&["spec"]).unwrap(),
            &from_json_str(r#"{"l":[null]}"#).unwrap()
        );
        let annotation = created
            .get_path(&["metadata", "annotations", LAST_APPLIED])
            .and_then(Value::as_str)
            .unwrap();
        assert!(annotation.contains("\"x\":null"), "{annotation}");
    }
}
