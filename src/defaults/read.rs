//! The API server's read path: a stored object is decoded before anything else sees it — into
//! its Go type and defaulted for built-in kinds, pruned and defaulted by the CRD's structural
//! schema for custom resources — so what `kubectl get` shows, what an apply merges onto and what
//! an update compares against is the decoded object, not the bytes in storage.
//!
//! Source: k8s.io/apiserver `registry/generic/registry.Store` reads through the storage codec,
//! whose decoder converts and defaults (`runtime.WithVersionDecoder`, `DefaultingSerializer`);
//! custom resources decode through the CRD's structural schema (`crdConversionRESTOptionsGetter`,
//! `schemaCoercingDecoder`, pruning and `structuraldefaulting`).

use super::{round_trip, store, Stage};
use crate::kube::{GroupVersionKind, ResolvedKind, SchemaRegistry};
use crate::value::Value;
use std::fmt::Write;

/// What decoding changed that a user may care about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadNotes {
    /// Fields the stored object had, with a value, that decoding drops (unknown to the type or
    /// the CRD schema, or zero values the encoder omits), as dotted paths.
    pub dropped: Vec<String>,
}

/// Decodes a stored object in place as the API server does when it reads it from storage, and
/// says which of its fields went. `metadata.managedFields` entries are decoded too.
/// An object at another version than `kind` (a conversion's business) is only round-tripped.
pub fn decode_stored(object: &mut Value, kind: &ResolvedKind) -> ReadNotes {
    let before = object.clone();
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    // A list item may leave its type to the list.
    let own = match (text("apiVersion"), text("kind")) {
        ("", _) | (_, "") => kind.gvk.clone(),
        (api_version, kind) => GroupVersionKind::new(api_version, kind),
    };
    round_trip(object, &own);
    if own == kind.gvk {
        store(object, kind, Stage::Defaulted);
        // Read through the internal type, which has one service account field.
        crate::kube::pod_prepare::convert_pod_fields(object);
    }
    let mut dropped = Vec::new();
    gone(&before, object, &mut String::new(), &mut dropped);
    ReadNotes { dropped }
}

/// [`decode_stored`] for a document: one object, or each item of a `*List` (as `kubectl get`
/// prints several objects), each typed by `registry` from its own `apiVersion` and `kind`.
/// Whether anything changed.
pub fn decode_document(doc: &mut Value, registry: &SchemaRegistry) -> bool {
    let before = doc.clone();
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (api_version, kind) = (text(doc, "apiVersion"), text(doc, "kind"));
    match (
        kind.strip_suffix("List"),
        doc.as_map_mut().and_then(|m| m.get_mut("items")),
    ) {
        (Some(item_kind), Some(Value::List(items))) => {
            // Items without `kind`/`apiVersion` are the list's kind and version.
            for item in items {
                let or = |own: String, list: &str| match own.is_empty() {
                    true => list.to_string(),
                    false => own,
                };
                let a = or(text(item, "apiVersion"), &api_version);
                let k = or(text(item, "kind"), item_kind);
                decode_one(item, registry, &a, &k);
            }
        }
        _ => decode_one(doc, registry, &api_version, &kind),
    }
    *doc != before
}

fn decode_one(object: &mut Value, registry: &SchemaRegistry, api_version: &str, kind: &str) {
    if let Ok(kind) = registry.resolve(api_version, kind) {
        decode_stored(object, &kind);
    }
}

/// Paths with a value in `before` and none in `after`; `null`s, empty values and
/// managedFields are nobody's concern.
fn gone(before: &Value, after: &Value, path: &mut String, out: &mut Vec<String>) {
    let len = path.len();
    match (before, after) {
        (Value::Map(b), Value::Map(a)) => {
            for (k, v) in b {
                if k == "managedFields" {
                    continue;
                }
                path.push('.');
                path.push_str(k);
                match a.get(k) {
                    None if !v.is_null_or_empty() => out.push(path.clone()),
                    None => {}
                    Some(w) => gone(v, w, path, out),
                }
                path.truncate(len);
            }
        }
        (Value::List(b), Value::List(a)) if a.len() == b.len() => {
            for (i, (v, w)) in b.iter().zip(a).enumerate() {
                let _ = write!(path, "[{i}]");
                gone(v, w, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    #[test]
    fn stored_objects_are_decoded_and_defaulted() {
        let kind = SchemaRegistry::new()
            .resolve("apps/v1", "Deployment")
            .unwrap();
        let mut d = from_json_str(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",
            "managedFields":[{"manager":"m","operation":"Update","apiVersion":"apps/v1",
            "time":null,"fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]},
            "spec":{"templateGeneration":3,"selector":{"matchLabels":{"a":"b"}},
            "template":{"metadata":{"creationTimestamp":null,"labels":{"a":"b"}},
            "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}"#,
        )
        .unwrap();
        let notes = decode_stored(&mut d, &kind);
        assert_eq!(notes.dropped, vec![".spec.templateGeneration".to_string()]);
        assert_eq!(d.get_path(&["spec", "replicas"]), Some(&Value::Int(1)));
        assert_eq!(
            d.get_path(&["spec", "template", "metadata", "creationTimestamp"]),
            None
        );
        let entry = &d
            .get_path(&["metadata", "managedFields"])
            .unwrap()
            .as_list()
            .unwrap()[0];
        assert_eq!(entry.get("time"), None);
        let again = d.clone();
        assert!(decode_stored(&mut d, &kind).dropped.is_empty());
        assert_eq!(d, again);
    }
}
