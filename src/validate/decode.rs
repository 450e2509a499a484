//! Stage 1b, before the field manager: what the server's decoder refuses in the request.
//!
//! An apply's object is converted to its Go type after the merge
//! (k8s.io/apimachinery managedfields internal/structuredmerge.go `Apply`, `toVersioned`):
//! a value the converter refuses fails the request with a 500 and no reason, which kubectl
//! prints as `Error from server: failed to convert new object (…) to proper version: …`.
//! An update's body is decoded by the JSON serializer (endpoints/handlers/update.go,
//! `transformDecodeError`): 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: …`,
//! and under strict field validation fields the type does not declare are refused
//! (`strict decoding error: unknown field "spec.foo"`) or, under warn, returned as warnings.

pub mod walk;
