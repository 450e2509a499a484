//! Validation of custom resources, as the apiextensions-apiserver's strategy runs it on create
//! and update (`pkg/registry/customresource/strategy.go`, `Validate`/`ValidateUpdate`): the
//! CRD's structural schema (type, format, enum, pattern, bounds, lengths, item and property
//! counts, required, nullable, int-or-string; `pkg/apiserver/validation`), the
//! `x-kubernetes-list-type` invariants (`pkg/apiserver/schema/listtype`), then the
//! `x-kubernetes-validations` CEL rules with `message`/`messageExpression` and transition rules
//! evaluated against `oldSelf` from [`Write::live`](super::Write::live)
//! (`pkg/apiserver/schema/cel`). Object metadata of custom resources is checked by
//! [`super::builtin`] like every kind's.

mod cel;
mod cel_budget;
pub mod cel_compile;
pub(crate) mod cel_cost;
mod cel_cost_decl;
mod cel_cost_fns;
mod cel_cost_macros;
mod cel_cost_net;
#[cfg(test)]
mod cel_cost_tests;
mod cel_cost_types;
mod cel_decl;
mod cel_env;
mod cel_macros;
mod cel_source;
mod cel_support;
mod cel_url;
pub(crate) mod cel_values;
pub mod decoding;
mod duration;
mod embedded;
mod formats;
mod go_net;
mod go_netip;
pub(crate) mod go_regexp;
pub(crate) mod go_url;
mod listtype;
pub mod schema;
mod structural;
mod wording;

pub use self::cel::SkippedRule;
pub use schema::{LazySchema, SchemaNode};

use super::Write;
use crate::kube::KubeVersion;
use crate::validate::field::{BadValue, ErrorType, FieldError};
use crate::value::Value;

/// The field errors of a custom resource (the object the write would store); nothing for other
/// kinds and CRD versions without a schema. `earlier`: the errors found before (metadata).
/// Pushes to `warnings` the server's warnings for rules failing on unchanged parts of an update
/// (`Warning: …`, as kubectl prints them) and a notice per rule kssa could not evaluate.
pub fn check(
    w: &Write,
    object: &Value,
    earlier: &[FieldError],
    warnings: &mut Vec<String>,
) -> Vec<FieldError> {
    let Some(schema) = w.kind.crd_validation.as_deref().map(LazySchema::node) else {
        return Vec::new();
    };
    let verdict = if w.subresource == "status" {
        validate_custom_resource_status(schema, object, w.live, earlier, w.version())
    } else {
        validate_custom_resource(schema, object, w.live, earlier, w.version())
    };
    let version = w.version();
    warnings.extend(
        verdict
            .warnings
            .iter()
            .map(|e| format!("Warning: {}", e.message(version))),
    );
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    warnings.extend(verdict.skipped.iter().map(|s| {
        format!(
            "notice: {} {name:?}: x-kubernetes-validations rule at {} not checked ({}): {}",
            w.kind.gvk.kind, s.field, s.reason, s.rule
        )
    }));
    verdict.errors
}

/// What the API server would say about one custom resource.
#[derive(Debug, Default)]
pub struct CrdVerdict {
    /// The 422's causes, in the server's order.
    pub errors: Vec<FieldError>,
    /// Rule failures on unchanged parts of an update, which the server only warns about.
    pub warnings: Vec<FieldError>,
    /// Rules kssa could not evaluate (reported as notices, never as refusals).
    pub skipped: Vec<SkippedRule>,
}

/// Validates `object` (the object a write would store) against its CRD version's schema;
/// `old` is the live object on an update. `earlier` are the errors other checks found before
/// (metadata): like the schema's own, the blocking ones keep the CEL rules from running.
pub fn validate_custom_resource(
    root: &SchemaNode,
    object: &Value,
    old: Option<&Value>,
    earlier: &[FieldError],
    version: KubeVersion,
) -> CrdVerdict {
    let mut errors = structural::validate_object(root, object, old, version);
    errors.extend(embedded::validate_embedded(root, object, version));
    lists_and_rules(root, object, old, earlier, errors)
}

/// [`validate_custom_resource`] for a write through the status subresource, as
/// apiextensions-apiserver `pkg/registry/customresource/status_strategy.go`
/// `statusStrategy.ValidateUpdate` runs it: the strategy has put back everything but `status`
/// from the stored object, so only `status` is validated against its own schema
/// (`customResourceValidator.ValidateStatusUpdate`: the status schema is the validator's root,
/// so kube-openapi names fields relative to it in its messages, and apiextensions reports them
/// under `status`), embedded resources' metadata is not checked, and the list invariants and
/// the CEL rules run over the whole object as on any update (ratcheted against the stored one).
pub fn validate_custom_resource_status(
    root: &SchemaNode,
    object: &Value,
    old: Option<&Value>,
    earlier: &[FieldError],
    version: KubeVersion,
) -> CrdVerdict {
    let mut errors = Vec::new();
    if let (Some(node), Some(status)) = (root.child("status"), object.get("status")) {
        let old_status = old.and_then(|o| o.get("status"));
        errors = structural::validate_object(node, status, old_status, version);
        for e in &mut errors {
            e.field = if e.field == "<nil>" {
                "status".to_string()
            } else {
                format!("status.{}", e.field)
            };
        }
    }
    lists_and_rules(root, object, old, earlier, errors)
}

/// The list-type invariants and the CEL rules after the schema's `errors`, as both strategies
/// run them.
fn lists_and_rules(
    root: &SchemaNode,
    object: &Value,
    old: Option<&Value>,
    earlier: &[FieldError],
    mut errors: Vec<FieldError>,
) -> CrdVerdict {
    // On update the list invariants are ratcheted as a whole: checked only if the old object
    // kept them.
    if old.is_none_or(|o| listtype::validate_lists(root, o).is_empty()) {
        errors.extend(listtype::validate_lists(root, object));
    }
    let mut verdict = CrdVerdict::default();
    if root.has_rules() {
        if earlier.iter().chain(&errors).any(blocks_rules) {
            errors.push(FieldError::new(
                ErrorType::Invalid,
                "<nil>",
                BadValue::Value(Value::Null),
                "some validation rules were not checked because the object was invalid; \
                 correct the existing errors to complete validation",
            ));
        } else {
            let outcome = cel::evaluate_rules(root, object, old);
            errors.extend(outcome.errors);
            verdict.warnings = outcome.warnings;
            verdict.skipped = outcome.skipped;
        }
    }
    verdict.errors = errors;
    verdict
}

/// The errors of a CRD schema node's `default`, as apiextensions' `ValidateDefaults`
/// (`pkg/apiserver/schema/defaulting/validation.go`) finds them outside type and object
/// metadata: the embedded resources the default holds, then the OpenAPI schema of the node
/// (the node being the validator's root), then its `x-kubernetes-validations` rules. The
/// fields are relative to the default (`<nil>` for the default itself).
pub fn validate_default(schema: &Value, default: &Value, version: KubeVersion) -> Vec<FieldError> {
    let node = SchemaNode::parse(schema);
    let errors = embedded::validate_embedded(&node, default, version);
    if !errors.is_empty() {
        return errors;
    }
    let errors = structural::validate_object(&node, default, None, version);
    if !errors.is_empty() || !node.has_rules() {
        return errors;
    }
    cel::evaluate_rules(&node, default, None).errors
}

/// The errors after which the server does not run the CEL rules (`hasBlockingErr`): wrong
/// types, enums, required fields, lengths and counts.
fn blocks_rules(e: &FieldError) -> bool {
    matches!(
        e.error_type,
        ErrorType::NotSupported
            | ErrorType::Required
            | ErrorType::TooLong
            | ErrorType::TooMany
            | ErrorType::TypeInvalid
    )
}

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod status_tests;
