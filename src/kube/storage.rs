//! What happens to a written object between the field manager and storage, around the
//! managedFields layer: the conversion to the internal type and the registry's
//! `BeforeCreate`/`BeforeUpdate` (k8s.io/apiserver pkg/registry/rest/create.go, update.go).
//!
//! - Secret `stringData` is folded into `data` (base64), `stringData` winning, and never stored
//!   (kubernetes pkg/apis/core/v1/conversion.go `Convert_v1_Secret_To_core_Secret`). An apply
//!   is merged at the versioned type, so its managedFields own `f:stringData`; an update body is
//!   decoded to the internal type first, so its manager owns `f:data`.
//! - A StatefulSet's volume claim templates come back typed (`apiVersion: v1`, `kind:
//!   PersistentVolumeClaim`): the v1-to-internal conversion blanks their type and the way back
//!   writes it (pkg/apis/apps/v1/conversion.go `Convert_v1_StatefulSetSpec_To_apps_StatefulSetSpec`
//!   and `Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec`, kubernetes#87583), whatever the
//!   manifest said.
//! - A cluster-scoped object's `metadata.namespace` is cleared
//!   (`EnsureObjectNamespaceMatchesRequestNamespace`, pkg/registry/rest/meta.go).

use crate::value::{Map, Value};

/// Whether the object is a core/v1 Secret.
fn is_secret(object: &Value) -> bool {
    object.get("apiVersion").and_then(Value::as_str) == Some("v1")
        && object.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// Folds a Secret's `stringData` into `data`; other objects are left alone.
pub fn fold_secret_string_data(object: &mut Value) {
    if !is_secret(object) {
        return;
    }
    let Some(map) = object.as_map_mut() else {
        return;
    };
    let Some((at, _, string_data)) = map.shift_remove_full("stringData") else {
        return;
    };
    let Value::Map(string_data) = string_data else {
        return;
    };
    if string_data.is_empty() {
        return;
    }
    // A new `data` takes the place `stringData` had.
    if !matches!(map.get("data"), Some(Value::Map(_))) {
        let at = at.min(map.len());
        map.shift_insert(at, "data".to_string(), Value::Map(Map::default()));
    }
    if let Some(Value::Map(data)) = map.get_mut("data") {
        for (key, value) in string_data {
            let text = match &value {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => crate::value::to_json_string(other),
            };
            data.insert(key, Value::String(base64_encode(text.as_bytes())));
        }
    }
}

/// Types every volume claim template of an apps/v1 StatefulSet as the conversion to and from
/// the internal type does; other objects are left alone.
pub fn type_claim_templates(object: &mut Value) {
    let is_stateful_set = object.get("apiVersion").and_then(Value::as_str) == Some("apps/v1")
        && object.get("kind").and_then(Value::as_str) == Some("StatefulSet");
    if !is_stateful_set {
        return;
    }
    let templates = object
        .as_map_mut()
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
        .and_then(|spec| spec.get_mut("volumeClaimTemplates"));
    let Some(Value::List(templates)) = templates else {
        return;
    };
    let typed = |t: &Value| {
        t.get("apiVersion").and_then(Value::as_str) == Some("v1")
            && t.get("kind").and_then(Value::as_str) == Some("PersistentVolumeClaim")
    };
    if templates.iter().all(typed) {
        return;
    }
    let items: Vec<Value> = templates
        .iter()
        .map(|t| match t.as_map() {
            Some(m) => {
                // A missing type goes first, where `kubectl get` shows it.
                let mut typed = Map::default();
                typed.insert("apiVersion".into(), Value::String("v1".into()));
                typed.insert("kind".into(), Value::String("PersistentVolumeClaim".into()));
                for (k, v) in m.iter().filter(|(k, _)| *k != "apiVersion" && *k != "kind") {
                    typed.insert(k.clone(), v.clone());
                }
                Value::Map(typed)
            }
            None => t.clone(),
        })
        .collect();
    *templates = items.into();
}

/// Clears `metadata.namespace` of an object of a cluster-scoped kind.
pub fn clear_namespace(object: &mut Value) {
    if let Some(Value::Map(meta)) = object.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.shift_remove("namespace");
    }
}

/// Standard padded base64, as Go's `base64.StdEncoding` (how `[]byte` marshals to JSON).
pub fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn base64_matches_go() {
        assert_eq!(base64_encode(b""), "");
        assert_eq!(base64_encode(b"a"), "YQ==");
        assert_eq!(base64_encode(b"ab"), "YWI=");
        assert_eq!(base64_encode(b"abc"), "YWJj");
        assert_eq!(base64_encode(b"t0p-Secret"), "dDBwLVNlY3JldA==");
    }

    #[test]
    fn string_data_folds_into_data_and_wins() {
        let mut s = from_json_str(
            r#"{"apiVersion":"v1","kind":"Secret","data":{"a":"eA==","b":"eQ=="},"stringData":{"a":"admin","c":""}}"#,
        )
        .unwrap();
        fold_secret_string_data(&mut s);
        assert_eq!(
            s,
            from_json_str(
                r#"{"apiVersion":"v1","kind":"Secret","data":{"a":"YWRtaW4=","b":"eQ==","c":""}}"#
            )
            .unwrap()
        );
    }

    #[test]
    fn other_kinds_keep_string_data() {
        let text = r#"{"apiVersion":"example.com/v1","kind":"Secret","stringData":{"a":"b"}}"#;
        let mut v = from_json_str(text).unwrap();
        fold_secret_string_data(&mut v);
        assert_eq!(v, from_json_str(text).unwrap());
    }
}
