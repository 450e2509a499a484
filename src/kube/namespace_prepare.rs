//! What a Namespace's strategy does to its `spec` (k8s.io/kubernetes
//! pkg/registry/core/namespace/strategy.go): `PrepareForCreate` adds the `kubernetes`
//! finalizer when the list lacks it (the namespace controller removes it once the namespace's
//! content is deleted), and `PrepareForUpdate` keeps the stored finalizers: they change only
//! through the `finalize` subresource. The status is the reset fields' business.

use crate::value::access::{items, set};
use crate::value::{List, Value};

/// The finalizer every namespace is created with (`api.FinalizerKubernetes`).
const KUBERNETES_FINALIZER: &str = "kubernetes";

/// Prepares a v1 Namespace written through the main resource; `old` is the stored one on
/// update. Other objects are left alone.
pub fn prepare_namespace(object: &mut Value, old: Option<&Value>) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    if text("apiVersion") != "v1" || text("kind") != "Namespace" {
        return;
    }
    let sent = object
        .get_path(&["spec", "finalizers"])
        .filter(|f| !f.is_null());
    let finalizers = match old {
        Some(old) => old
            .get_path(&["spec", "finalizers"])
            .filter(|f| !f.is_null())
            .cloned(),
        None => {
            let sent = items(sent);
            if sent
                .iter()
                .any(|f| f.as_str() == Some(KUBERNETES_FINALIZER))
            {
                return;
            }
            let mut list: List = sent.iter().cloned().collect();
            list.push(Value::String(KUBERNETES_FINALIZER.into()));
            Some(Value::List(list))
        }
    };
    if sent == finalizers.as_ref() {
        return;
    }
    if let Some(map) = object.as_map_mut() {
        let spec = map.entry("spec".to_owned()).or_insert(Value::Null);
        set(spec, "finalizers", finalizers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn prepared(object: &str, old: Option<&str>) -> String {
        let mut object = from_json_str(object).unwrap();
        let old = old.map(|o| from_json_str(o).unwrap());
        prepare_namespace(&mut object, old.as_ref());
        to_json_string(object.get("spec").unwrap())
    }

    const BARE: &str = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"}}"#;
    const OWN: &str = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"},"spec":{"finalizers":["example.com/x"]}}"#;

    #[test]
    fn a_created_namespace_gets_the_kubernetes_finalizer() {
        assert_eq!(prepared(BARE, None), r#"{"finalizers":["kubernetes"]}"#);
        assert_eq!(
            prepared(OWN, None),
            r#"{"finalizers":["example.com/x","kubernetes"]}"#
        );
        let with = OWN.replace("example.com/x", "kubernetes");
        assert_eq!(prepared(&with, None), r#"{"finalizers":["kubernetes"]}"#);
    }

    #[test]
    fn an_update_keeps_the_stored_finalizers() {
        let stored = BARE.replace(r#"}}"#, r#"},"spec":{"finalizers":["kubernetes"]}}"#);
        assert_eq!(
            prepared(OWN, Some(&stored)),
            r#"{"finalizers":["kubernetes"]}"#
        );
        assert_eq!(prepared(OWN, Some(BARE)), "{}");
    }
}
