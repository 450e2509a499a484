//! Patch errors. Display texts follow the reference libraries' wording (evanphx/json-patch v4,
//! apimachinery strategicpatch/mergepatch), so a caller or a test can recognise each failure.

use crate::value::Value;

use crate::value::gofmt::{go_map, go_value};

/// The three patch content types the API server accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// `application/merge-patch+json`
    Merge,
    /// `application/json-patch+json`
    Json,
    /// `application/strategic-merge-patch+json`
    Strategic,
}

/// Which input of a patch request a syntax error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Document,
    Patch,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PatchError {
    /// Unparsable JSON text.
    #[error("{}", syntax_message(*.patch_type, *.input, *.eof, .detail))]
    Syntax {
        patch_type: PatchType,
        input: Input,
        eof: bool,
        detail: String,
    },

    /// Merge patch: the document is `null`.
    #[error("Invalid JSON Document")]
    MergeInvalidDocument,
    /// Merge patch: the patch is `null` or a scalar.
    #[error("Invalid JSON Patch")]
    MergeInvalidPatch,

    /// JSON patch: the patch (or one operation) does not have the shape of a patch.
    #[error("json: cannot unmarshal {found} into Go value of type {expected}")]
    JsonPatchShape {
        found: &'static str,
        expected: &'static str,
    },
    /// JSON patch: an operation whose `op` is none of the six.
    #[error("Unexpected kind: {0}")]
    JsonPatchUnknownOp(String),
    /// JSON patch: an operation failed; `message` is the library's text, naming op and path.
    #[error("{message}")]
    JsonPatchOperation {
        index: usize,
        op: String,
        message: String,
    },
    /// JSON patch: `copy` operations grew the document past the limit.
    #[error("Unable to complete the copy, the accumulated size increase of copy is {size}, exceeding the limit {limit}")]
    JsonPatchCopyLimit { size: usize, limit: usize },

    /// Strategic merge patch: `error` at `path` (dotted field path; empty for the root).
    #[error("{}{error}", if .path.is_empty() { String::new() } else { format!("{}: ", .path) })]
    Strategic { path: String, error: StrategicError },
}

fn syntax_message(patch_type: PatchType, input: Input, eof: bool, detail: &str) -> String {
    match (patch_type, input) {
        (PatchType::Merge, Input::Document) => "Invalid JSON Document".into(),
        (PatchType::Merge, Input::Patch) => "Invalid JSON Patch".into(),
        (PatchType::Strategic, _) => "invalid JSON document".into(),
        (PatchType::Json, _) if eof => "unexpected end of JSON input".into(),
        (PatchType::Json, _) => format!("invalid JSON: {detail}"),
    }
}

/// What went wrong in a strategic merge patch, worded as apimachinery words it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StrategicError {
    #[error("invalid JSON document")]
    NotAnObject,
    #[error("unknown patch type: {} in map: {}", go_value(.directive), go_map(.map))]
    UnknownPatchType {
        directive: Box<Value>,
        map: Box<crate::value::Map>,
    },
    #[error("merging lists cannot yet be specified in the patch")]
    MergeDirectiveInList,
    #[error("map: {} does not contain declared merge key: {key}", go_map(.map))]
    NoMergeKey {
        map: Box<crate::value::Map>,
        key: String,
    },
    #[error("expected a {expected}, but received a {}", .actual.go_type_name())]
    BadArgType {
        expected: &'static str,
        actual: Box<Value>,
    },
    #[error("invalid patch format of primitive list")]
    BadPrimitiveListFormat,
    #[error("invalid patch format of retainKeys")]
    BadRetainKeysFormat,
    #[error("invalid patch format of setElementOrder list")]
    BadSetElementOrderFormat,
    #[error("The order in patch list:\n{}\n doesn't match $setElementOrder list:\n{}\n", go_value(&Value::List(.patch.clone().into())), go_value(&Value::List(.order.clone().into())))]
    OrderMismatch {
        patch: Vec<Value>,
        order: Vec<Value>,
    },
    #[error("lists of lists are not supported")]
    ListOfLists,
    #[error("list element types are not identical: {}", go_value(&Value::List(.lists.iter().cloned().map(Value::from).collect())))]
    MixedElementTypes { lists: Vec<Vec<Value>> },
    #[error("no elements in any of the given slices")]
    NoElements,
    #[error("cannot merge lists without merge key for {0}")]
    NoMergeKeyForList(String),
    #[error("unexpected patch strategy: [{}]", .0.join(" "))]
    BadStrategy(Vec<String>),
    /// Combining two patches whose `$retainKeys` lists differ (never expected to happen).
    #[error("{} and {} are not deep equal: this may happen when calculating the 3-way diff patch", go_value(.left), go_value(.right))]
    RetainKeysDiffer { left: Box<Value>, right: Box<Value> },
    /// Three-way patch: `$patch` holds something other than a string.
    #[error("invalid value for special key: $patch")]
    BadDirectiveValue,
    /// The patch metadata could not describe a field (unknown field, wrong kind of type).
    #[error("{0}")]
    Lookup(String),
}
