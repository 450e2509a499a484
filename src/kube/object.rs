//! Object identity: group, version, kind, namespace and name, read from a manifest.

use crate::value::Value;
use std::fmt;

/// `ObjectMeta`'s JSON fields in the Go struct's order, as the server writes them.
pub const OBJECT_META_ORDER: [&str; 16] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
    "clusterName",
];

/// The `ObjectMeta` fields the Go struct declares after `field` (none for an unknown one):
/// where a field the server sets goes in a map that lacks it.
pub fn object_meta_fields_after(field: &str) -> &'static [&'static str] {
    OBJECT_META_ORDER
        .iter()
        .position(|k| *k == field)
        .map_or(&[], |i| &OBJECT_META_ORDER[i + 1..])
}

/// An API group, version and kind; the group is empty for the core group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupVersionKind {
    pub group: String,
    pub version: String,
    pub kind: String,
}

impl GroupVersionKind {
    /// Splits an `apiVersion` (`apps/v1`, `v1`) and pairs it with `kind`.
    pub fn new(api_version: &str, kind: &str) -> GroupVersionKind {
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g, v),
            None => ("", api_version),
        };
        GroupVersionKind {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
        }
    }

    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

impl fmt::Display for GroupVersionKind {
    /// As Go's `schema.GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, and for the core
    /// group `/v1, Kind=Service` (group, `/`, version, always).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}

/// Which object a manifest names. Two references name the same object when everything but the
/// version matches ([`ObjectRef::same_object`]): one object is served at several versions.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectRef {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// Empty for cluster-scoped objects (or when the manifest leaves it to the context).
    pub namespace: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectRefError {
    #[error("the object is not a map")]
    NotAnObject,
    #[error("apiVersion is missing or not a string")]
    MissingApiVersion,
    #[error("kind is missing or not a string")]
    MissingKind,
}

impl ObjectRef {
    /// Reads the identity of `object`; the name and namespace may be absent (empty).
    pub fn from_value(object: &Value) -> Result<ObjectRef, ObjectRefError> {
        if object.as_map().is_none() {
            return Err(ObjectRefError::NotAnObject);
        }
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let api_version = text(object.get("apiVersion"))
            .filter(|s| !s.is_empty())
            .ok_or(ObjectRefError::MissingApiVersion)?;
        let kind = text(object.get("kind"))
            .filter(|s| !s.is_empty())
            .ok_or(ObjectRefError::MissingKind)?;
        let gvk = GroupVersionKind::new(&api_version, &kind);
        Ok(ObjectRef {
            group: gvk.group,
            version: gvk.version,
            kind: gvk.kind,
            namespace: text(object.get_path(&["metadata", "namespace"])).unwrap_or_default(),
            name: text(object.get_path(&["metadata", "name"])).unwrap_or_default(),
        })
    }

    pub fn gvk(&self) -> GroupVersionKind {
        GroupVersionKind {
            group: self.group.clone(),
            version: self.version.clone(),
            kind: self.kind.clone(),
        }
    }

    pub fn api_version(&self) -> String {
        self.gvk().api_version()
    }

    /// Whether both name the same stored object (the version does not matter).
    pub fn same_object(&self, other: &ObjectRef) -> bool {
        self.group == other.group
            && self.kind == other.kind
            && self.namespace == other.namespace
            && self.name == other.name
    }
}

impl fmt::Display for ObjectRef {
    /// As the API server names an object in field-manager errors: `shop/web; apps/v1, Kind=Deployment`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}; {}", self.namespace, self.name, self.gvk())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn reads_identity_and_matches_across_versions() {
        let v1 = from_json_str(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"}}"#,
        )
        .unwrap();
        let r = ObjectRef::from_value(&v1).unwrap();
        assert_eq!(r.to_string(), "shop/web; apps/v1, Kind=Deployment");
        let mut beta = r.clone();
        beta.version = "v1beta1".into();
        assert!(r.same_object(&beta));
        beta.name = "other".into();
        assert!(!r.same_object(&beta));
    }

    #[test]
    fn core_group_and_errors() {
        let cm = from_json_str(r#"{"apiVersion":"v1","kind":"ConfigMap"}"#).unwrap();
        let r = ObjectRef::from_value(&cm).unwrap();
        assert_eq!((r.group.as_str(), r.api_version().as_str()), ("", "v1"));
        assert_eq!(r.to_string(), "/; /v1, Kind=ConfigMap");
        let bad = from_json_str(r#"{"kind":"ConfigMap"}"#).unwrap();
        assert_eq!(
            ObjectRef::from_value(&bad),
            Err(ObjectRefError::MissingApiVersion)
        );
    }
}
