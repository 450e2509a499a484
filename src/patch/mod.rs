//! The API server's three patch types over [`Value`]: JSON merge patch (RFC 7386, as
//! evanphx/json-patch v4 applies it), JSON patch (RFC 6902, same library) and strategic merge
//! patch (apimachinery `strategicpatch`, driven by per-field patch metadata), and the
//! three-way patches `kubectl apply` computes to send them.
//!
//! Each function reproduces the reference library's result and error, including its non-RFC
//! behaviours; error messages carry the library's wording so they can be compared with it.
mod error;

mod json_merge_three_way;
mod json_patch;
mod merge_patch;
pub mod strategic;

pub use error::{Input, PatchError, PatchType, StrategicError};
pub use json_merge_three_way::{three_way_json_merge_patch, JsonMergeError, Precondition};
pub use json_patch::json_patch;
pub use merge_patch::merge_patch;
pub use strategic::{
    strategic_merge_patch, three_way_merge_patch, FieldPatchMeta, NoPatchMeta, PatchMetaLookup,
    SchemaPatchMeta, ThreeWayError,
};

use crate::value::Value;

/// Parses one input of a patch request, reporting a syntax error as the reference library
/// does for that patch type (each library words its parse failures differently).
pub fn parse_input(patch_type: PatchType, input: Input, text: &str) -> Result<Value, PatchError> {
    crate::value::from_json_str(text).map_err(|e| PatchError::Syntax {
        patch_type,
        input,
        eof: e.classify() == serde_json::error::Category::Eof,
        detail: e.to_string(),
    })
}
