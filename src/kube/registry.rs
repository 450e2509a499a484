//! Which schema types an object: documents the user added (CRDs, OpenAPI, SMD YAML; the latest
//! added wins), then the built-ins of the chosen Kubernetes version, then the deduced schema.

use super::object::GroupVersionKind;
use super::version::KubeVersion;
use crate::schema::builtin::{builtin_for, BuiltinSchemas};
use crate::schema::crd::{crd_type_name, load_schema_document, CrdConversion, LoadedSchemas};
use crate::schema::{KindInfo, Schema, SchemaError, TypeRef, UNTYPED_DEDUCED};
use crate::validate::crd::LazySchema;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The schema and root type for one kind at one version.
#[derive(Debug, Clone)]
pub struct ResolvedKind {
    pub gvk: GroupVersionKind,
    pub schema: Arc<Schema>,
    pub type_ref: TypeRef,
    /// What the API serves for the kind; `None` for SMD YAML types and the deduced schema.
    pub info: Option<KindInfo>,
    /// No schema describes the kind: maps are granular, lists atomic.
    pub deduced: bool,
    /// The Kubernetes version whose built-ins, defaults and round trip apply.
    pub kube_version: KubeVersion,
    /// The other versions the object is served at (see [`super::convert`]).
    pub versions: KindVersions,
    /// For a custom resource: its CRD version's schema as validation reads it.
    pub crd_validation: Option<Arc<LazySchema>>,
    /// The kind's version converter, built by the first object that needs it and shared by
    /// every clone of this resolution (see [`super::convert::VersionConverter::for_kind`]).
    pub(crate) converter: ConverterSlot,
}

/// Where the converter of one resolution is kept once built.
pub(crate) type ConverterSlot =
    Arc<OnceLock<Result<Arc<super::convert::VersionConverter>, SchemaError>>>;

/// Which versions an object of a kind is served at, and how values convert between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KindVersions {
    /// One type serves every version (SMD YAML, OpenAPI documents, the deduced schema).
    Single,
    /// A Kubernetes resource: the versions of [`super::served`], converted as the API server's
    /// scheme converts them.
    Builtin,
    /// A custom resource: the CRD's served versions and its conversion strategy.
    Crd {
        conversion: CrdConversion,
        versions: Vec<KindInfo>,
    },
}

impl ResolvedKind {
    /// The deduced schema for a kind nobody describes.
    pub fn deduced(gvk: GroupVersionKind) -> ResolvedKind {
        static DEDUCED: OnceLock<Arc<Schema>> = OnceLock::new();
        let schema = DEDUCED.get_or_init(|| Arc::new(Schema::deduced())).clone();
        let type_ref = schema
            .type_ref(UNTYPED_DEDUCED)
            .expect("the deduced schema has its root type");
        ResolvedKind {
            gvk,
            schema,
            type_ref,
            info: None,
            deduced: true,
            versions: KindVersions::Single,
            kube_version: KubeVersion::default(),
            crd_validation: None,
            converter: ConverterSlot::default(),
        }
    }

    /// Whether the kind is one of the chosen Kubernetes version's built-ins.
    pub fn is_builtin(&self) -> bool {
        self.info.as_ref().is_some_and(KindInfo::is_builtin)
    }

    /// What follows a schema error about an object of this kind: the Kubernetes version for
    /// built-in kinds, whose fields depend on it (`field not declared in schema (Kubernetes
    /// 1.31)`), else nothing.
    pub fn version_note(&self) -> String {
        match self.is_builtin() {
            true => format!(" (Kubernetes {})", self.kube_version),
            false => String::new(),
        }
    }

    /// The one-line notice a caller shows when the deduced schema is used, else `None`.
    pub fn deduced_notice(&self) -> Option<String> {
        self.deduced.then(|| {
            format!(
                "no schema for {}: using the deduced schema (maps granular, lists atomic)",
                self.gvk
            )
        })
    }

    /// Whether the kind serves a `status` subresource (unknown kinds: no).
    pub fn has_status_subresource(&self) -> bool {
        self.info.as_ref().is_some_and(|i| i.has_status_subresource)
    }
}

/// Built-in kinds of one Kubernetes version plus the schema documents added to it.
#[derive(Debug, Clone)]
pub struct SchemaRegistry {
    added: Vec<LoadedSchemas>,
    use_builtin: bool,
    version: KubeVersion,
    resolved: ResolveMemo,
}

/// The kinds a registry has resolved, by `apiVersion` and kind: a stream of thousands of
/// objects of a few kinds resolves each kind (and builds its converter) once. A clone starts
/// empty, as does a registry a document is added to.
#[derive(Default)]
struct ResolveMemo(Mutex<FxHashMap<String, FxHashMap<String, ResolvedKind>>>);

impl Clone for ResolveMemo {
    fn clone(&self) -> Self {
        ResolveMemo::default()
    }
}

impl std::fmt::Debug for ResolveMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResolveMemo")
    }
}

/// A built-in group's kind that the chosen Kubernetes version does not have, refused as
/// kubectl's REST mapping refuses it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no matches for kind {kind:?} in version {api_version:?} (Kubernetes {kube_version})")]
pub struct NotInVersion {
    pub kind: String,
    pub api_version: String,
    pub kube_version: KubeVersion,
}

impl Default for SchemaRegistry {
    fn default() -> Self {
        SchemaRegistry::new()
    }
}

impl SchemaRegistry {
    /// The built-ins of the newest embedded Kubernetes and nothing else.
    pub fn new() -> SchemaRegistry {
        SchemaRegistry::for_version(KubeVersion::default())
    }

    /// The built-ins of one Kubernetes version and nothing else.
    pub fn for_version(version: KubeVersion) -> SchemaRegistry {
        SchemaRegistry {
            added: Vec::new(),
            use_builtin: true,
            version,
            resolved: ResolveMemo::default(),
        }
    }

    /// No built-ins: only added documents (and the deduced fallback).
    pub fn without_builtin() -> SchemaRegistry {
        SchemaRegistry {
            added: Vec::new(),
            use_builtin: false,
            version: KubeVersion::default(),
            resolved: ResolveMemo::default(),
        }
    }

    /// The same documents over another Kubernetes version's built-ins.
    pub fn with_version(&self, version: KubeVersion) -> SchemaRegistry {
        SchemaRegistry {
            version,
            ..self.clone()
        }
    }

    /// The Kubernetes version whose built-ins resolve.
    pub fn version(&self) -> KubeVersion {
        self.version
    }

    /// The built-in schemas of the registry's version.
    pub fn builtin(&self) -> &'static BuiltinSchemas {
        builtin_for(self.version)
    }

    /// Adds a CRD manifest, OpenAPI document or SMD schema YAML; returns the kinds it serves.
    pub fn add_document(&mut self, doc: &Value) -> Result<Vec<KindInfo>, SchemaError> {
        let loaded = load_schema_document(doc)?;
        let kinds = loaded.kinds.clone();
        self.added.push(loaded);
        self.resolved = ResolveMemo::default();
        Ok(kinds)
    }

    /// The schema for `kind` at `api_version`; the deduced schema when nothing describes it.
    pub fn resolve(&self, api_version: &str, kind: &str) -> Result<ResolvedKind, SchemaError> {
        let memo = || self.resolved.0.lock().unwrap_or_else(|p| p.into_inner());
        let known = memo()
            .get(api_version)
            .and_then(|kinds| kinds.get(kind))
            .cloned();
        if let Some(known) = known {
            return Ok(known);
        }
        let mut resolved = self.resolve_any(api_version, kind)?;
        resolved.kube_version = self.version;
        memo()
            .entry(api_version.to_string())
            .or_default()
            .insert(kind.to_string(), resolved.clone());
        Ok(resolved)
    }

    /// Refuses a kind of a built-in group that another embedded Kubernetes version has but the
    /// registry's does not (added or removed since): kubectl finds no REST mapping for it.
    pub fn check_in_version(&self, api_version: &str, kind: &str) -> Result<(), NotInVersion> {
        let gvk = GroupVersionKind::new(api_version, kind);
        let added = self
            .added
            .iter()
            .any(|l| l.kind(&gvk.group, &gvk.version, &gvk.kind).is_some());
        if !self.use_builtin
            || added
            || self
                .builtin()
                .kind(&gvk.group, &gvk.version, &gvk.kind)
                .is_some()
        {
            return Ok(());
        }
        let elsewhere = KubeVersion::all().any(|v| {
            builtin_for(v)
                .kind(&gvk.group, &gvk.version, &gvk.kind)
                .is_some()
        });
        match elsewhere {
            true => Err(NotInVersion {
                kind: gvk.kind.clone(),
                api_version: api_version.to_string(),
                kube_version: self.version,
            }),
            false => Ok(()),
        }
    }

    fn resolve_any(&self, api_version: &str, kind: &str) -> Result<ResolvedKind, SchemaError> {
        let gvk = GroupVersionKind::new(api_version, kind);
        for loaded in self.added.iter().rev() {
            if let Some(info) = loaded.kind(&gvk.group, &gvk.version, &gvk.kind) {
                let type_ref = loaded.schema.type_ref(&info.type_name)?;
                let versions = match &loaded.crd {
                    Some(conversion) => KindVersions::Crd {
                        conversion: conversion.clone(),
                        versions: loaded.kinds.clone(),
                    },
                    None => KindVersions::Single,
                };
                let crd_validation = loaded
                    .validation
                    .iter()
                    .find(|(version, _)| *version == gvk.version)
                    .map(|(_, schema)| schema.clone());
                return Ok(ResolvedKind {
                    gvk,
                    schema: loaded.schema.clone(),
                    type_ref,
                    info: Some(info.clone()),
                    deduced: false,
                    kube_version: self.version,
                    versions,
                    crd_validation,
                    converter: ConverterSlot::default(),
                });
            }
            if loaded.kinds.is_empty() {
                // SMD schema YAML names types, not kinds: match by the CRD-style name or the kind.
                let crd_name = crd_type_name(&gvk.group, &gvk.version, &gvk.kind);
                let kind_name = gvk.kind.clone();
                for name in [crd_name.as_str(), kind_name.as_str()] {
                    if let Ok(type_ref) = loaded.schema.type_ref(name) {
                        return Ok(ResolvedKind {
                            gvk,
                            schema: loaded.schema.clone(),
                            type_ref,
                            info: None,
                            deduced: false,
                            kube_version: self.version,
                            versions: KindVersions::Single,
                            crd_validation: None,
                            converter: ConverterSlot::default(),
                        });
                    }
                }
            }
        }
        if self.use_builtin {
            let b = self.builtin();
            if let Some(info) = b.kind(&gvk.group, &gvk.version, &gvk.kind) {
                let schema = b.schema_for(&info.type_name)?;
                let type_ref = schema.type_ref(&info.type_name)?;
                return Ok(ResolvedKind {
                    gvk,
                    schema,
                    type_ref,
                    info: Some(info.clone()),
                    deduced: false,
                    kube_version: self.version,
                    versions: KindVersions::Builtin,
                    crd_validation: None,
                    converter: ConverterSlot::default(),
                });
            }
        }
        Ok(ResolvedKind::deduced(gvk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_kinds_resolve_with_their_info() {
        let r = SchemaRegistry::new()
            .resolve("apps/v1", "Deployment")
            .unwrap();
        assert!(!r.deduced);
        let info = r.info.as_ref().unwrap();
        assert!(info.namespaced && info.has_status_subresource);
        assert_eq!(r.deduced_notice(), None);
    }

    #[test]
    fn kinds_resolve_for_the_chosen_version() {
        let v31 = SchemaRegistry::for_version(KubeVersion::new(31).unwrap());
        let fs = v31
            .resolve("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
            .unwrap();
        assert!(!fs.deduced && fs.kube_version == v31.version());
        assert_eq!(fs.version_note(), " (Kubernetes 1.31)");
        let err = v31
            .check_in_version("certificates.k8s.io/v1", "ClusterTrustBundle")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"no matches for kind "ClusterTrustBundle" in version "certificates.k8s.io/v1" (Kubernetes 1.31)"#
        );
        let newest = v31.with_version(KubeVersion::NEWEST);
        assert!(newest
            .check_in_version("certificates.k8s.io/v1", "ClusterTrustBundle")
            .is_ok());
        assert!(newest
            .check_in_version("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
            .is_err());
        // Kinds no embedded version has are not this check's business.
        assert!(v31.check_in_version("example.com/v1", "Widget").is_ok());
    }

    #[test]
    fn unknown_kinds_fall_back_to_the_deduced_schema() {
        let r = SchemaRegistry::new()
            .resolve("stable.example.com/v1", "CronTab")
            .unwrap();
        assert!(r.deduced);
        assert_eq!(
            r.deduced_notice().unwrap(),
            "no schema for stable.example.com/v1, Kind=CronTab: using the deduced schema (maps granular, lists atomic)"
        );
    }
}

#[cfg(test)]
mod memo_tests {
    use super::*;
    use crate::kube::convert::VersionConverter;
    use crate::value::from_json_str;

    #[test]
    fn a_kind_resolves_once_and_shares_its_converter() {
        let r = SchemaRegistry::new();
        let a = r.resolve("apps/v1", "Deployment").unwrap();
        let b = r.resolve("apps/v1", "Deployment").unwrap();
        let (ca, cb) = (
            VersionConverter::for_kind(&a).unwrap(),
            VersionConverter::for_kind(&b).unwrap(),
        );
        assert!(Arc::ptr_eq(&ca, &cb));
        // Another version's registry resolves afresh.
        let older = r.with_version(KubeVersion::new(30).unwrap());
        let c = older.resolve("apps/v1", "Deployment").unwrap();
        assert_eq!(c.kube_version, KubeVersion::new(30).unwrap());
    }

    #[test]
    fn an_added_document_replaces_what_was_resolved_before() {
        let mut r = SchemaRegistry::new();
        assert!(r.resolve("example.com/v1", "Widget").unwrap().deduced);
        let crd = from_json_str(
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":"widgets.example.com"},
            "spec":{"group":"example.com","scope":"Namespaced",
              "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
              "versions":[{"name":"v1","served":true,"storage":true,
                "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}"#,
        )
        .unwrap();
        r.add_document(&crd).unwrap();
        assert!(!r.resolve("example.com/v1", "Widget").unwrap().deduced);
    }

    #[test]
    fn a_custom_resource_in_a_k8s_io_group_is_not_a_builtin() {
        // Its type name, the group reversed, begins like a built-in's: io.k8s.networking….
        let mut r = SchemaRegistry::new();
        let crd = from_json_str(
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":"httproutes.gateway.networking.k8s.io"},
            "spec":{"group":"gateway.networking.k8s.io","scope":"Namespaced",
              "names":{"plural":"httproutes","kind":"HTTPRoute"},
              "versions":[{"name":"v1","served":true,"storage":true,
                "schema":{"openAPIV3Schema":{"type":"object"}}}]}}"#,
        )
        .unwrap();
        r.add_document(&crd).unwrap();
        let route = r
            .resolve("gateway.networking.k8s.io/v1", "HTTPRoute")
            .unwrap();
        assert!(route
            .info
            .as_ref()
            .unwrap()
            .type_name
            .starts_with("io.k8s."));
        assert!(!route.is_builtin());
        assert_eq!(
            crate::defaults::classify(&route),
            crate::defaults::KindClass::Custom
        );
        let policy = r.resolve("networking.k8s.io/v1", "NetworkPolicy").unwrap();
        assert!(policy.is_builtin());
    }
}
