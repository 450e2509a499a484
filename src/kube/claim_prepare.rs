//! What the PersistentVolumeClaim strategy does to a claim's spec before validation and storage
//! (k8s.io/kubernetes pkg/registry/core/persistentvolumeclaim/strategy.go `PrepareForCreate`,
//! `PrepareForUpdate`, with pkg/api/persistentvolumeclaim/util.go `DropDisabledFields`,
//! `EnforceDataSourceBackwardsCompatibility` and `NormalizeDataSources`; unchanged 1.30–1.36):
//!
//! - `volumeAttributesClassName` is dropped while the VolumeAttributesClass gate is off (until
//!   1.33), unless the stored claim has one;
//! - a `dataSourceRef` naming a namespace is dropped (CrossNamespaceVolumeDataSource is alpha and
//!   off in every release), unless the stored claim has a `dataSourceRef`;
//! - a `dataSource` that is neither a PersistentVolumeClaim nor a
//!   `snapshot.storage.k8s.io` VolumeSnapshot is dropped when no `dataSourceRef` is given and the
//!   stored claim has no data source (the legacy behaviour of ignoring such sources);
//! - either reference given alone is copied to the other (AnyVolumeDataSource, on in every
//!   supported release), a `dataSourceRef` with a namespace excepted.

use super::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

/// VolumeAttributesClass is on by default from 1.34.
const VOLUME_ATTRIBUTES_CLASS_ON: VersionRange = VersionRange::since(34);

/// The releases whose PersistentVolume strategy drops a new `volumeAttributesClassName`
/// (`DropDisabledSpecFields` with the gate off): 1.30's strategy did not call it, from 1.34 the
/// gate is on (pkg/registry/core/persistentvolume/strategy.go).
const VOLUME_CLASS_DROPPED: VersionRange = VersionRange {
    since: Some(31),
    until: Some(33),
};

/// Prepares a core/v1 PersistentVolumeClaim or PersistentVolume as its strategy does; `old` is
/// the stored object on update. Other objects are left alone.
pub fn prepare_claim(object: &mut Value, old: Option<&Value>, version: KubeVersion) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    let core = text("apiVersion") == "v1";
    let volume = core && text("kind") == "PersistentVolume";
    if !(core && text("kind") == "PersistentVolumeClaim" || volume) {
        return;
    }
    let old_spec = old.and_then(|o| o.get("spec"));
    if volume {
        let old_has_class = old_spec.is_some_and(|s| is_set(s.get("volumeAttributesClassName")));
        if VOLUME_CLASS_DROPPED.contains(version) && !old_has_class {
            if let Some(Value::Map(spec)) = object.as_map_mut().and_then(|m| m.get_mut("spec")) {
                spec.shift_remove("volumeAttributesClassName");
            }
        }
        return;
    }
    let old_has = |key: &str| old_spec.is_some_and(|s| is_set(s.get(key)));
    let Some(Value::Map(spec)) = object.as_map_mut().and_then(|m| m.get_mut("spec")) else {
        return;
    };
    if !VOLUME_ATTRIBUTES_CLASS_ON.contains(version) && !old_has("volumeAttributesClassName") {
        spec.shift_remove("volumeAttributesClassName");
    }
    let namespaced_ref = spec
        .get("dataSourceRef")
        .and_then(|r| r.get("namespace"))
        .and_then(Value::as_str)
        .is_some_and(|ns| !ns.is_empty());
    if namespaced_ref && !old_has("dataSourceRef") {
        spec.shift_remove("dataSourceRef");
    }
    let source_in_use = old_has("dataSource") || old_has("dataSourceRef");
    if !source_in_use
        && !is_set(spec.get("dataSourceRef"))
        && is_set(spec.get("dataSource"))
        && !spec.get("dataSource").is_some_and(is_claim_or_snapshot)
    {
        spec.shift_remove("dataSource");
    }
    normalize_sources(spec);
}

fn is_set(v: Option<&Value>) -> bool {
    v.is_some_and(|v| !v.is_null())
}

/// `dataSourceIsPvcOrSnapshot`.
fn is_claim_or_snapshot(source: &Value) -> bool {
    let text = |k: &str| source.get(k).and_then(Value::as_str).unwrap_or("");
    matches!(
        (text("kind"), text("apiGroup")),
        ("PersistentVolumeClaim", "") | ("VolumeSnapshot", "snapshot.storage.k8s.io")
    )
}

/// `NormalizeDataSources`: the missing reference becomes a copy of the other's kind, name and
/// API group, placed beside it.
fn normalize_sources(spec: &mut Map) {
    let source = spec.get("dataSource").filter(|v| !v.is_null()).cloned();
    let source_ref = spec.get("dataSourceRef").filter(|v| !v.is_null()).cloned();
    let (from, to, at) = match (&source, &source_ref) {
        (Some(s), None) => (
            s,
            "dataSourceRef",
            spec.get_index_of("dataSource").map(|i| i + 1),
        ),
        (None, Some(r)) => {
            let namespaced = r
                .get("namespace")
                .and_then(Value::as_str)
                .is_some_and(|ns| !ns.is_empty());
            if namespaced {
                return;
            }
            (r, "dataSource", spec.get_index_of("dataSourceRef"))
        }
        _ => return,
    };
    // Both reference types print `apiGroup` even when nil (`json:"apiGroup"`, no omitempty).
    let mut copy = Map::default();
    for key in ["apiGroup", "kind", "name"] {
        let value = from.get(key).cloned().unwrap_or(Value::Null);
        if key == "apiGroup" || !value.is_null() {
            copy.insert(key.into(), value);
        }
    }
    spec.shift_remove(to);
    let at = at.unwrap_or(spec.len()).min(spec.len());
    spec.shift_insert(at, to.into(), Value::Map(copy));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn prepared(spec: &str, old: Option<&str>, minor: u8) -> Value {
        let mut claim = from_json_str(&format!(
            r#"{{"apiVersion":"v1","kind":"PersistentVolumeClaim","spec":{spec}}}"#
        ))
        .unwrap();
        let old = old.map(|o| from_json_str(&format!(r#"{{"spec":{o}}}"#)).unwrap());
        prepare_claim(&mut claim, old.as_ref(), KubeVersion::new(minor).unwrap());
        claim.get("spec").unwrap().clone()
    }

    #[test]
    fn a_snapshot_source_gets_its_reference_copy() {
        let spec = prepared(
            r#"{"dataSource":{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"s"},"volumeMode":"Filesystem"}"#,
            None,
            36,
        );
        assert_eq!(
            crate::value::to_json_string(&spec),
            r#"{"dataSource":{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"s"},"dataSourceRef":{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"s"},"volumeMode":"Filesystem"}"#
        );
    }

    #[test]
    fn unsupported_and_cross_namespace_sources_are_dropped() {
        let spec = prepared(
            r#"{"dataSource":{"kind":"VolumeSnapshot","name":"s"}}"#,
            None,
            36,
        );
        assert!(spec.get("dataSource").is_none() && spec.get("dataSourceRef").is_none());
        let spec = prepared(
            r#"{"dataSourceRef":{"kind":"PersistentVolumeClaim","name":"src","namespace":"other"}}"#,
            None,
            36,
        );
        assert!(spec.get("dataSource").is_none() && spec.get("dataSourceRef").is_none());
        // A stored claim keeps what it has.
        let old = r#"{"dataSource":{"kind":"Foo","apiGroup":"example.com","name":"x"}}"#;
        let spec = prepared(old, Some(old), 36);
        assert!(spec.get("dataSource").is_some());
    }

    #[test]
    fn the_attributes_class_is_dropped_while_its_gate_is_off() {
        let spec = r#"{"volumeAttributesClassName":"gold"}"#;
        assert!(prepared(spec, None, 33)
            .get("volumeAttributesClassName")
            .is_none());
        assert!(prepared(spec, Some(spec), 33)
            .get("volumeAttributesClassName")
            .is_some());
        assert!(prepared(spec, None, 34)
            .get("volumeAttributesClassName")
            .is_some());
    }
}
