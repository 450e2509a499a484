//! The API server's side of a client-side apply: the POST or PATCH handler applies the
//! request (strategic merge patch with the kind's patch metadata, or JSON merge patch) and
//! the field manager records the result as an `Update` by the request's manager.

use super::{PatchType, Request};
use crate::kube::ResolvedKind;
use crate::managed::{write, Operation, WriteError, WriteRequest};
use crate::patch::{merge_patch, strategic_merge_patch, PatchError, SchemaPatchMeta};
use crate::value::Value;

/// What the server stores.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// The stored object, managedFields and annotation included.
    pub object: Value,
    /// Whether anything (managedFields included) differs from the live object.
    pub changed: bool,
    /// The server's warnings, as kubectl prints them (`Warning: …`).
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StoreError {
    /// The server could not apply the patch.
    #[error("{0}")]
    Patch(#[from] PatchError),
    #[error("{0}")]
    Write(#[from] WriteError),
}

/// Runs `request` against `live` as the server would. The request's operation is always an
/// `Update` on the main resource, whatever `write_request` says.
pub fn store(
    live: Option<&Value>,
    request: &Request,
    kind: &ResolvedKind,
    write_request: &WriteRequest,
) -> Result<Stored, StoreError> {
    // A create is a POST, which the checks of crate::validate predict; a patch's refusals
    // read differently (`The request is invalid: patch: Invalid value: "map[…]": …`) and are
    // not predicted.
    let validation = match request {
        Request::Create { .. } => write_request.validation,
        _ => None,
    };
    let req = WriteRequest {
        operation: Operation::Update,
        force: false,
        subresource: "",
        validation,
        managed_fields: true,
        patch: None,
        ..*write_request
    };
    let (live, new) = match (request, live) {
        (Request::Nothing { .. }, Some(live)) => {
            return Ok(Stored {
                object: live.clone(),
                changed: false,
                warnings: Vec::new(),
            })
        }
        (Request::Create { object }, _) => (None, object.clone()),
        (Request::Patch { .. } | Request::Nothing { .. }, None) => {
            return Err(StoreError::Write(WriteError::BadRequest {
                message: "a patch needs a live object".into(),
            }))
        }
        (
            Request::Patch {
                patch_type, patch, ..
            },
            Some(live),
        ) => {
            let patched = match patch_type {
                PatchType::Strategic => strategic_merge_patch(
                    live,
                    patch,
                    &SchemaPatchMeta::new(&kind.schema, &kind.type_ref),
                )?,
                PatchType::Merge => merge_patch(live, patch)?,
            };
            (Some(live), patched)
        }
    };
    let outcome = write(live, &new, kind, &req)?;
    Ok(Stored {
        changed: outcome.changed || outcome.managed_fields_changed,
        object: outcome.object,
        warnings: outcome.warnings,
    })
}
