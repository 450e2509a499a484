//! Stage 1b, before the field manager: what the server's decoder refuses in the request.
//!
//! - An apply's object is converted to its Go type after the merge
//!   (k8s.io/apimachinery managedfields internal/structuredmerge.go `Apply`, `toVersioned`;
//!   runtime/scheme.go `unstructuredToTyped`): a value the converter refuses fails the request
//!   with a 500 without a reason, which kubectl prints as `Error from server: failed to
//!   convert new object (<ns>/<name>; <gvk>) to proper version: unable to convert
//!   unstructured object to <gvk>: <error>`. Every value of the applied configuration ends up
//!   in the merged object, so the configuration is what is checked. Unknown fields never get
//!   this far: the typed patch object refuses them whatever `--validate` says, and duplicate
//!   keys never reach the server, as kubectl decodes the manifest (last key wins) and sends
//!   the result.
//! - An update's body is decoded by the JSON serializer (endpoints/handlers/update.go,
//!   `transformDecodeError`): 400 `<Kind> in version "<v>" cannot be handled as a <Kind>:
//!   <error>`. Fields the type does not declare are, per `fieldValidation`, refused
//!   (the same 400 with `strict decoding error: unknown field "spec.foo"` as the error), sent
//!   back as warnings (`Warning: unknown field "spec.foo"`), or dropped.
//!
//! Only built-in kinds are decoded into Go types; custom resources stay unstructured, and
//! their unknown fields are the ones their CRD's schema prunes ([`super::crd::decoding`]).

pub mod walk;

use super::crd::decoding::{self as crd_decoding, DecodeFailure};
use super::{
    ErrorType, FieldValidation, Patch, PatchType, Reason, StatusCause, StatusDetails, StatusError,
    Write,
};
use crate::kube::GroupVersionKind;
use crate::managed::Operation;
use crate::value::Value;
use walk::Decoder;

/// Checks the body of `w`; pushes the server's warnings (full lines, `Warning: …`).
pub fn check(w: &Write, warnings: &mut Vec<String>) -> Result<(), StatusError> {
    let gvk = &w.kind.gvk;
    match w.operation {
        // The field manager refuses managedFields in the configuration before it converts
        // anything (managedfields structuredmerge.go `Apply`).
        Operation::Apply if crate::managed::server::carries_managed_fields(w.body) => Ok(()),
        Operation::Apply => match apply_error(gvk, w.body) {
            Some((message, failure)) => Err(at_field(Reason::Unknown, message, w, &failure)),
            None => Ok(()),
        },
        Operation::Update => check_update(w, warnings),
    }
}

/// An update's body (a PUT or POST, or the object a PATCH made), decoded as the handler
/// decodes it.
fn check_update(w: &Write, warnings: &mut Vec<String>) -> Result<(), StatusError> {
    let gvk = &w.kind.gvk;
    let strict = w.field_validation != FieldValidation::Ignore;
    let Some(decoded) = decode_update(w, strict) else {
        return Ok(());
    };
    let (failure, unknown) = match w.patch {
        // A strategic merge patch's result goes from the patched map to the Go type
        // (patch.go `applyPatchToObject`, `FromUnstructuredWithValidation`): the
        // converter's errors, the unknown fields sorted by their error text.
        Some(Patch {
            patch_type: PatchType::Strategic,
            ..
        }) => {
            let converted = walk::decode(
                &gvk.group,
                &gvk.version,
                &gvk.kind,
                w.body,
                Decoder::Unstructured,
            );
            let mut unknown = unknown_field_errors(&decoded.unknown);
            unknown.sort_unstable();
            (converted.and_then(|c| c.failure), unknown)
        }
        _ => (decoded.failure, unknown_field_errors(&decoded.unknown)),
    };
    if let Some(failure) = failure {
        return Err(match w.patch {
            None => {
                let message = cannot_be_handled(gvk, &failure.message);
                at_field(Reason::BadRequest, message, w, &failure)
            }
            Some(patch) => invalid_patch(w, patch, &failure.message),
        });
    }
    match w.field_validation {
        // Strict errors go through transformDecodeError like any other (create.go,
        // update.go): only `warn` treats them apart.
        FieldValidation::Strict if !unknown.is_empty() => {
            let error = format!("strict decoding error: {}", unknown.join(", "));
            Err(match w.patch {
                None => StatusError::plain(Reason::BadRequest, cannot_be_handled(gvk, &error)),
                Some(patch) => invalid_patch(w, patch, &error),
            })
        }
        FieldValidation::Warn => {
            warnings.extend(unknown.iter().map(|u| format!("Warning: {u}")));
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `unknown field "spec.foo"` for each path.
fn unknown_field_errors(paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .map(|path| format!("unknown field {}", super::goprint::go_quote(path)))
        .collect()
}

/// The update's body as the JSON decoder reads it: a built-in kind into its Go type, a custom
/// resource against its CRD version's schema; `None` for a kind nobody describes.
fn decode_update(w: &Write, strict: bool) -> Option<walk::Outcome> {
    let gvk = &w.kind.gvk;
    let decoder = Decoder::Json { strict };
    if let Some(outcome) = walk::decode(&gvk.group, &gvk.version, &gvk.kind, w.body, decoder) {
        return Some(outcome);
    }
    let lazy = w.kind.crd_validation.as_deref()?;
    let decoded = crd_decoding::decode(lazy.node(), !lazy.preserve_unknown_fields, strict, w.body);
    let failure = decoded.failure.map(|failure| match failure {
        DecodeFailure::Metadata(failure) => failure,
        DecodeFailure::Embedded(error) => walk::Failure {
            path: error.field.clone(),
            message: error.message(w.version()),
        },
    });
    Some(walk::Outcome {
        failure,
        unknown: decoded.unknown,
    })
}

/// The patch handler's 422 for a patched object the decoder refuses (patch.go: `field.Invalid`
/// at `patch`, without a kind or name, so kubectl prints `The request is invalid: …`). It
/// quotes the patch document itself for a strategic merge patch (`%+v` of the decoded map) and
/// the patched object's JSON for the others.
fn invalid_patch(w: &Write, patch: Patch, error: &str) -> StatusError {
    let quoted = match patch.patch_type {
        PatchType::Strategic => crate::value::gofmt::go_value(patch.document),
        PatchType::Merge | PatchType::Json => patched_object_json(w.body),
    };
    StatusError::invalid(
        "",
        "",
        "",
        &[super::FieldError::invalid(
            "patch",
            super::BadValue::Value(Value::String(quoted)),
            error,
        )],
        w.version(),
    )
}

/// A refusal with the server's `message`, carrying the refused field as its one cause so that
/// finding renderers can point at it (the server's Status has no details for these).
fn at_field(reason: Reason, message: String, w: &Write, failure: &walk::Failure) -> StatusError {
    let gvk = &w.kind.gvk;
    let name = w
        .body
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    StatusError {
        reason,
        message,
        details: Some(Box::new(StatusDetails {
            group: gvk.group.clone(),
            kind: gvk.kind.clone(),
            name: name.to_string(),
            causes: vec![StatusCause {
                error_type: ErrorType::Invalid,
                field: failure.path.clone(),
                message: failure.message.clone(),
            }],
        })),
    }
}

/// The apply's conversion error for the configuration `body` of kind `gvk`, as the field
/// manager words it (`objectGVKNN` names the applied object's namespace and name), and the
/// refused value.
pub fn apply_error(gvk: &GroupVersionKind, body: &Value) -> Option<(String, walk::Failure)> {
    let outcome = walk::decode(
        &gvk.group,
        &gvk.version,
        &gvk.kind,
        body,
        Decoder::Unstructured,
    )?;
    let failure = outcome.failure?;
    let meta = |key: &str| {
        body.get_path(&["metadata", key])
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let message = format!(
        "failed to convert new object ({}/{}; {gvk}) to proper version: unable to convert unstructured object to {gvk}: {}",
        meta("namespace"),
        meta("name"),
        failure.message
    );
    Some((message, failure))
}

/// `transformDecodeError` when the body names its kind.
fn cannot_be_handled(gvk: &GroupVersionKind, error: &str) -> String {
    format!(
        "{kind} in version {} cannot be handled as a {kind}: {error}",
        super::goprint::go_quote(&gvk.version),
        kind = gvk.kind
    )
}

/// The patched object as the JSON patch library writes it for a custom resource: compact,
/// keys sorted, `<>&` escaped (Go's `json.Marshal`, as kubectl's encoding).
fn patched_object_json(body: &Value) -> String {
    let mut json = String::new();
    crate::value::write_json(&mut json, &body.with_sorted_keys());
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn patched_objects_are_quoted_compact_with_sorted_keys_and_html_escaped() {
        let v = from_json_str(
            r#"{"spec":{"b":[1,2.5,null,true],"a":"<x&y>"},"kind":"K","apiVersion":"v1"}"#,
        )
        .unwrap();
        assert_eq!(
            patched_object_json(&v),
            r#"{"apiVersion":"v1","kind":"K","spec":{"a":"\u003cx\u0026y\u003e","b":[1,2.5,null,true]}}"#
        );
    }

    #[test]
    fn apply_errors_name_the_object_and_its_kind() {
        let gvk = GroupVersionKind::new("v1", "Secret");
        let body =
            from_json_str(r#"{"metadata":{"name":"s","namespace":"ns"},"data":{"k":"no base64"}}"#)
                .unwrap();
        assert_eq!(
            apply_error(&gvk, &body).unwrap().0,
            "failed to convert new object (ns/s; /v1, Kind=Secret) to proper version: unable to convert unstructured object to /v1, Kind=Secret: error decoding from json: illegal base64 data at input byte 2"
        );
    }

    #[test]
    fn update_errors_say_the_kind_cannot_be_handled() {
        let gvk = GroupVersionKind::new("apps/v1", "Deployment");
        assert_eq!(
            cannot_be_handled(&gvk, "x"),
            "Deployment in version \"v1\" cannot be handled as a Deployment: x"
        );
    }
}
