//! Declarative validation that replaces handwritten errors. From 1.36 the API server runs
//! `rest.ValidateDeclarativelyWithMigrationChecks` (k8s.io/apiserver pkg/registry/rest
//! `validate.go`): declarative errors of rules tagged `+k8s:beta` are enforced while
//! DeclarativeValidationBeta is on (beta, on by default from 1.36), each handwritten error
//! marked `MarkCoveredByDeclarative` that one of them matches (same type, origin and field:
//! apimachinery pkg/api/validate `FilterCoveredHandwrittenErrors`) is dropped, and the
//! declarative errors are appended after the handwritten ones.
//!
//! k8s.io/api v0.36 tags no rule `+k8s:beta`; v0.37 tags 584. Modelled here: the `immutable`
//! ones, whose declarative error quotes no value (`validate.Immutable` passes `nil`:
//! `spec: Invalid value: null: field is immutable`), so they differ visibly from the
//! handwritten errors they replace (which 1.36 already marks covered, origin `immutable`).

use super::{BadValue, ErrorType, FieldError, Write};
use crate::kube::VersionRange;
use crate::value::Value;

/// The release whose k8s.io/api first tags rules `+k8s:beta` (v0.37; v0.36 tags none).
const BETA_TAGS: VersionRange = VersionRange::since(37);

/// `+k8s:beta(since: "1.37")=+k8s:immutable` fields of served kinds (k8s.io/api
/// v0.37.0-beta.0): group, kind, field path.
const BETA_IMMUTABLE: &[(&str, &str, &str)] = &[
    ("discovery.k8s.io", "EndpointSlice", "addressType"),
    ("networking.k8s.io", "IPAddress", "spec.parentRef"),
    ("node.k8s.io", "RuntimeClass", "handler"),
    ("resource.k8s.io", "ResourceClaim", "spec"),
    ("storage.k8s.io", "StorageClass", "provisioner"),
    ("storage.k8s.io", "StorageClass", "parameters"),
    ("storage.k8s.io", "StorageClass", "reclaimPolicy"),
    ("storage.k8s.io", "StorageClass", "volumeBindingMode"),
    ("storage.k8s.io", "VolumeAttachment", "spec"),
];

const IMMUTABLE: &str = "field is immutable";

/// Replaces the handwritten `field is immutable` errors an enforced declarative rule covers
/// with the declarative ones, moved after every other error.
pub fn enforce(w: &Write, errors: &mut Vec<FieldError>) {
    let gvk = &w.kind.gvk;
    if !w.kind.is_builtin() || !BETA_TAGS.contains(w.version()) {
        return;
    }
    let covered = |e: &FieldError| {
        e.error_type == ErrorType::Invalid
            && e.detail == IMMUTABLE
            && BETA_IMMUTABLE.iter().any(|(group, kind, path)| {
                *group == gvk.group && *kind == gvk.kind && *path == e.field
            })
    };
    let (declared, mut kept): (Vec<FieldError>, Vec<FieldError>) =
        errors.drain(..).partition(covered);
    kept.extend(
        declared
            .into_iter()
            .map(|e| FieldError::invalid(e.field, BadValue::Value(Value::Null), IMMUTABLE)),
    );
    *errors = kept;
}
