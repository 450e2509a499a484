//! What the CustomResourceDefinition strategy does to a definition besides its gated fields
//! (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go
//! `PrepareForCreate`, `PrepareForUpdate`; unchanged 1.30–1.36): a created definition gets an
//! empty status that records its storage version; an update keeps the stored status and
//! appends a storage version it has not recorded yet.

use crate::value::{Map, Value};

/// The name of the definition's storage version: the first version marked `storage`.
pub fn storage_version(crd: &Value) -> Option<&Value> {
    crd.get_path(&["spec", "versions"])
        .and_then(Value::as_list)?
        .iter()
        .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))?
        .get("name")
}

/// Prepares an apiextensions/v1 CustomResourceDefinition; `old` is the stored one on update.
/// Other objects are left alone.
pub fn prepare_crd(object: &mut Value, old: Option<&Value>) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    if text("apiVersion") != "apiextensions.k8s.io/v1" || text("kind") != "CustomResourceDefinition"
    {
        return;
    }
    let storage = storage_version(object)
        .and_then(Value::as_str)
        .map(str::to_owned);
    let Some(m) = object.as_map_mut() else { return };
    if old.is_none() {
        // `CustomResourceDefinitionStatus{}` as v1 encodes it: the names' `plural` and `kind`
        // and `storedVersions` have no omitempty.
        let mut accepted = Map::default();
        accepted.insert("plural".into(), Value::from(""));
        accepted.insert("kind".into(), Value::from(""));
        let mut status = Map::default();
        status.insert("acceptedNames".into(), Value::Map(accepted));
        status.insert("storedVersions".into(), Value::Null);
        m.insert("status".into(), Value::Map(status));
    }
    let Some(storage) = storage else { return };
    let status = m
        .entry("status".to_string())
        .or_insert_with(|| Value::Map(Map::default()));
    let Some(status) = status.as_map_mut() else {
        return;
    };
    let stored = status
        .entry("storedVersions".to_string())
        .or_insert(Value::Null);
    if stored.is_null() {
        *stored = Value::List(Default::default());
    }
    if let Value::List(versions) = stored {
        if !versions
            .iter()
            .any(|v| v.as_str() == Some(storage.as_str()))
        {
            versions.push(Value::from(storage));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
      "spec":{"versions":[{"name":"v1beta1","served":true,"storage":false},{"name":"v1","served":true,"storage":true}]},
      "status":{"storedVersions":["v0"]}}"#;

    fn status(old: Option<&str>) -> String {
        let mut crd = from_json_str(CRD).unwrap();
        let old = old.map(|o| from_json_str(o).unwrap());
        prepare_crd(&mut crd, old.as_ref());
        to_json_string(crd.get("status").unwrap())
    }

    #[test]
    fn a_created_definition_records_its_storage_version() {
        assert_eq!(
            status(None),
            r#"{"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}"#
        );
    }

    #[test]
    fn an_update_appends_a_new_storage_version() {
        // The stored status is already in place (reset fields); the storage version is added.
        assert_eq!(status(Some("{}")), r#"{"storedVersions":["v0","v1"]}"#);
    }
}
