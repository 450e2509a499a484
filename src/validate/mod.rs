//! Predicts the API server's refusals of a write: decoding errors, preconditions (409), and
//! the 422 `Invalid` of built-in validation and of CRD schemas and CEL rules.
//!
//! Every check reports [`FieldError`]s, apimachinery's `field.Error`; how they are printed
//! (per Kubernetes version, in kubectl's form) is [`field`]'s job.

pub mod crd;
pub mod field;

pub use field::{BadValue, ErrorType, FieldError};
