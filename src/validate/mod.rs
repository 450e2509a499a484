//! Predicts the API server's refusals of a write: request errors, decoding errors (400),
//! preconditions (409), and the 422 `Invalid` of built-in validation and of CRD schemas and
//! CEL rules, each with the server's message for the target Kubernetes version.
//!
//! One [`Write`] describes the request; its stages run in the order of k8s.io/apiserver's
//! handlers (endpoints/handlers/patch.go, update.go, create.go; registry/generic/registry
//! store.go):
//!
//! 1. [`Write::before`], before the field manager: the body's size ([`request::check_size`],
//!    413), the request itself
//!    ([`precondition::check_request`]: field manager, subresource), then decoding of the body
//!    ([`decode::check`]: values the typed decoder refuses, unknown and duplicate fields per
//!    `--validate`);
//! 2. the field manager and defaulting ([`crate::managed::write`]);
//! 3. [`Write::after`], on the object that would be stored: for the `scale` subresource the
//!    store's `NotFound` and `ValidateScale` ([`builtin::scale`]), for the `status` subresource
//!    the store's `NotFound` ([`builtin::status`]), the store's preconditions
//!    ([`precondition::check`]: resourceVersion, uid), then the strategy's `Validate` /
//!    `ValidateUpdate` — [`builtin::check`] for every kind (object metadata) and the built-in
//!    kinds' rules, [`crd::check`] for custom resources — all field errors of one object
//!    together in one 422 ([`StatusError::invalid`]).
//!
//! The first stage that refuses ends the write, as the server answers with the first error.
//! Every check reports [`FieldError`]s (apimachinery's `field.Error`) or a [`StatusError`];
//! how they print per version is [`field`]'s and [`status`]'s job.

pub mod builtin;
pub mod crd;
mod declarative;
pub mod decode;
pub mod difflib;
pub mod field;
pub mod formats;
pub mod gojson;
pub mod gojson_syntax;
pub mod goprint;
pub mod gotime;
pub mod internal_go;
pub mod path_text;
pub mod precondition;
pub mod quantity;
pub mod request;
pub mod status;
pub mod update_policy;

pub use field::{BadValue, ErrorType, FieldError};
pub use status::{Reason, StatusCause, StatusDetails, StatusError};

use crate::kube::{KubeVersion, ResolvedKind};
use crate::managed::Operation;
use crate::value::Value;
use std::borrow::Cow;

/// How a PATCH request's body is applied (its content type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// `application/strategic-merge-patch+json` (built-in kinds only).
    Strategic,
    /// `application/merge-patch+json` (RFC 7386).
    Merge,
    /// `application/json-patch+json` (RFC 6902).
    Json,
}

/// A PATCH request: its type and the patch document as sent. The write's body is then the
/// patched object.
#[derive(Debug, Clone, Copy)]
pub struct Patch<'a> {
    pub patch_type: PatchType,
    pub document: &'a Value,
}

/// kubectl's `--validate` (the request's `fieldValidation`): what the server does with unknown
/// and duplicate fields of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FieldValidation {
    /// Refuse the request (kubectl's default, `--validate=strict` or `true`).
    #[default]
    Strict,
    /// Accept it with a `Warning:` per field (`--validate=warn`).
    Warn,
    /// Drop the fields silently (`--validate=ignore` or `false`).
    Ignore,
}

impl std::str::FromStr for FieldValidation {
    type Err = String;

    /// kubectl's spellings: `strict`/`true`, `warn`, `ignore`/`false`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "strict" | "true" => Ok(FieldValidation::Strict),
            "warn" => Ok(FieldValidation::Warn),
            "ignore" | "false" => Ok(FieldValidation::Ignore),
            other => Err(format!(
                "invalid - validate option {other:?}; must be one of: strict (or true), warn, ignore (or false)"
            )),
        }
    }
}

/// One write request as the checks see it.
#[derive(Debug, Clone, Copy)]
pub struct Write<'a> {
    /// The endpoint's kind; its `kube_version` picks rules and wording.
    pub kind: &'a ResolvedKind,
    pub operation: Operation,
    pub manager: &'a str,
    /// "" for the main resource, else e.g. "status".
    pub subresource: &'a str,
    pub field_validation: FieldValidation,
    /// What the client sent: the apply configuration or the update body, as read; for a
    /// PATCH, the patched object.
    pub body: &'a Value,
    /// A PATCH (an update only): how the body was made.
    pub patch: Option<Patch<'a>>,
    /// The stored object as the server reads it (decoded, at the request's version); `None`
    /// when the write creates the object.
    pub live: Option<&'a Value>,
}

impl<'a> Write<'a> {
    /// The Kubernetes version the rules and messages are those of.
    pub fn version(&self) -> KubeVersion {
        self.kind.kube_version
    }

    /// Whether the write is an update of an existing object (`ValidateUpdate`) rather than a
    /// create (`Validate`).
    pub fn is_update(&self) -> bool {
        self.live.is_some()
    }

    /// Stage 1, before the field manager: request errors and decoding. `Ok` carries the
    /// warnings the server sends back (kubectl prints them as `Warning: …`).
    pub fn before(&self) -> Result<Vec<String>, StatusError> {
        request::check_size(self)?;
        precondition::check_request(self)?;
        let mut warnings = Vec::new();
        decode::check(self, &mut warnings)?;
        Ok(warnings)
    }

    /// Stage 3, on the object the write would store (after the field manager and defaulting;
    /// `defaulted: false` when the caller stores the raw merge, which is then defaulted here
    /// for checking only, as the server always defaults). `Ok` carries the warnings (full
    /// lines) the server sends back and kssa's notices about what it could not check.
    pub fn after(&self, object: &Value, defaulted: bool) -> Result<Vec<String>, StatusError> {
        let object = if defaulted {
            Cow::Borrowed(object)
        } else {
            Cow::Owned(self.defaulted(object))
        };
        // A scale write: the store's NotFound, then `ValidateScale` inside the update's
        // `UpdatedObject`, before the store compares resourceVersions.
        builtin::scale::not_found(self, &object)?;
        builtin::status::not_found(self, &object)?;
        builtin::scale::check(self, &object)?;
        precondition::check(self, &object)?;
        // The metadata update checks run with the rest of the metadata's when built-in
        // validation runs, in the server's order.
        let mut errors = if builtin::checks_metadata(self) {
            Vec::new()
        } else {
            builtin::meta_update::immutable_metadata(self, &object)
        };
        errors.extend(builtin::check(self, &object));
        declarative::enforce(self, &mut errors);
        let mut warnings = Vec::new();
        let custom = crd::check(self, &object, &errors, &mut warnings);
        errors.extend(custom);
        if errors.is_empty() {
            if crate::defaults::classify(self.kind) == crate::defaults::KindClass::Custom {
                warnings.extend(builtin::finalizers::custom_resource_warnings(
                    &object,
                    self.live,
                    self.version(),
                ));
            }
            warnings.extend(builtin::warnings::check(self, &object));
            return Ok(warnings);
        }
        Err(self.invalid(&object, &errors))
    }

    /// The 422 for `errors` of `object` (`errors.NewInvalid` with the endpoint's group and
    /// kind and the object's name).
    pub fn invalid(&self, object: &Value, errors: &[FieldError]) -> StatusError {
        let name = object
            .get_path(&["metadata", "name"])
            .and_then(Value::as_str)
            .unwrap_or("");
        let gvk = &self.kind.gvk;
        StatusError::invalid(&gvk.group, &gvk.kind, name, errors, self.version())
    }

    fn defaulted(&self, object: &Value) -> Value {
        let mut copy = object.clone();
        crate::kube::storage::fold_secret_string_data(&mut copy);
        crate::defaults::store(&mut copy, self.kind, crate::defaults::Stage::Defaulted);
        crate::kube::strategy_prepare::prepare(
            &mut copy,
            self.live,
            self.version(),
            self.subresource,
        );
        crate::kube::pod_prepare::convert_pod_fields(&mut copy);
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_flag_takes_kubectl_spellings() {
        assert_eq!("true".parse(), Ok(FieldValidation::Strict));
        assert_eq!("warn".parse(), Ok(FieldValidation::Warn));
        assert_eq!("false".parse(), Ok(FieldValidation::Ignore));
        assert!("maybe".parse::<FieldValidation>().is_err());
    }
}
