//! Validation of custom resources, as the apiextensions-apiserver's strategy runs it: the
//! CRD's structural schema and its `x-kubernetes-validations` CEL rules.
//!
//! Belongs here (helper `cel`): type, format, enum, pattern, minimum/maximum, length and item
//! bounds, required, nullable, int-or-string, preserve-unknown-fields
//! (k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation), and CEL rules with
//! `message`/`messageExpression` and transition rules evaluated against `oldSelf` from
//! [`Write::live`](super::Write::live) (pkg/apiserver/schema/cel). Object metadata of custom
//! resources is checked by [`super::builtin`] like every kind's.

use super::{FieldError, Write};
use crate::value::Value;

/// The field errors of a custom resource; nothing for other kinds. No rule is implemented yet.
pub fn check(w: &Write, object: &Value) -> Vec<FieldError> {
    let _ = (w, object);
    Vec::new()
}
