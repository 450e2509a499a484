//! Which schema types an object: documents the user added (CRDs, OpenAPI, SMD YAML; the latest
//! added wins), then the embedded Kubernetes 1.36 built-ins, then the deduced schema.

use super::object::GroupVersionKind;
use crate::schema::builtin::builtin;
use crate::schema::crd::{crd_type_name, load_schema_document, CrdConversion, LoadedSchemas};
use crate::schema::{KindInfo, Schema, SchemaError, TypeRef, UNTYPED_DEDUCED};
use crate::value::Value;
use std::sync::{Arc, OnceLock};

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
    /// The other versions the object is served at (see [`super::convert`]).
    pub versions: KindVersions,
}

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

/// Built-in kinds plus the schema documents added to it.
#[derive(Debug, Clone)]
pub struct SchemaRegistry {
    added: Vec<LoadedSchemas>,
    use_builtin: bool,
}

impl Default for SchemaRegistry {
    fn default() -> Self {
        SchemaRegistry::new()
    }
}

impl SchemaRegistry {
    /// The Kubernetes 1.36 built-ins and nothing else.
    pub fn new() -> SchemaRegistry {
        SchemaRegistry {
            added: Vec::new(),
            use_builtin: true,
        }
    }

    /// No built-ins: only added documents (and the deduced fallback).
    pub fn without_builtin() -> SchemaRegistry {
        SchemaRegistry {
            added: Vec::new(),
            use_builtin: false,
        }
    }

    /// Adds a CRD manifest, OpenAPI document or SMD schema YAML; returns the kinds it serves.
    pub fn add_document(&mut self, doc: &Value) -> Result<Vec<KindInfo>, SchemaError> {
        let loaded = load_schema_document(doc)?;
        let kinds = loaded.kinds.clone();
        self.added.push(loaded);
        Ok(kinds)
    }

    /// The schema for `kind` at `api_version`; the deduced schema when nothing describes it.
    pub fn resolve(&self, api_version: &str, kind: &str) -> Result<ResolvedKind, SchemaError> {
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
                return Ok(ResolvedKind {
                    gvk,
                    schema: loaded.schema.clone(),
                    type_ref,
                    info: Some(info.clone()),
                    deduced: false,
                    versions,
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
                            versions: KindVersions::Single,
                        });
                    }
                }
            }
        }
        if self.use_builtin {
            let b = builtin();
            if let Some(info) = b.kind(&gvk.group, &gvk.version, &gvk.kind) {
                let schema = b.schema_for(&info.type_name)?;
                let type_ref = schema.type_ref(&info.type_name)?;
                return Ok(ResolvedKind {
                    gvk,
                    schema,
                    type_ref,
                    info: Some(info.clone()),
                    deduced: false,
                    versions: KindVersions::Builtin,
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
