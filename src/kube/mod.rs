//! The Kubernetes layer over the schema model: which object a manifest names ([`ObjectRef`]) and
//! which schema types it ([`SchemaRegistry`]: built-ins, CRDs and other schema documents, and the
//! deduced schema for kinds nobody describes).

pub mod apparmor;
pub mod applyset;
pub mod claim_prepare;
pub mod convert;
pub mod crd_prepare;
pub mod created_status;
pub mod kind_gates;
pub mod kind_prepare;
pub mod namespace_prepare;
mod object;
pub mod pod_gates;
pub mod pod_label_keys;
pub mod pod_prepare;
pub mod pod_status;
pub mod pod_status_write;
pub mod prune;
mod registry;
pub mod selector;
pub mod served;
pub mod service_prepare;
pub mod storage;
pub mod strategy_prepare;
pub mod update_meta;
mod version;

pub use convert::VersionConverter;
pub use object::{
    object_meta_fields_after, GroupVersionKind, ObjectRef, ObjectRefError, OBJECT_META_ORDER,
};
pub use registry::{KindVersions, NotInVersion, ResolvedKind, SchemaRegistry};
pub use version::{KubeVersion, KubeVersionError, VersionRange};

#[cfg(test)]
mod corpus_tests;
