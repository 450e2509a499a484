//! The request's own errors (before anything else) and the store's preconditions (after the
//! field manager, before validation).
//!
//! Belongs here (helper `decode`): [`check_request`] — an empty field manager on an apply
//! (`PatchOptions … fieldManager: Required value`), a subresource the kind does not serve
//! (404); [`check`] — `metadata.resourceVersion` or `metadata.uid` of the request that do not
//! match the live object (409 `Conflict`, k8s.io/apiserver registry/generic/registry
//! store.go `Update` and the patch handler's uid precondition).

use super::{StatusError, Write};
use crate::value::Value;

/// Request-level refusals, before decoding. No rule is implemented yet.
pub fn check_request(w: &Write) -> Result<(), StatusError> {
    let _ = w;
    Ok(())
}

/// The store's preconditions on the object the write would store. No rule is implemented yet.
pub fn check(w: &Write, object: &Value) -> Result<(), StatusError> {
    let _ = (w, object);
    Ok(())
}
