//! The ephemeral volume source: its claim template's metadata and spec, as k8s.io/kubernetes
//! pkg/apis/core/validation checks them on create (`validateEphemeralVolumeSource`,
//! `ValidatePersistentVolumeClaimTemplate`, `ValidateTemplateObjectMeta`; the spec is the
//! claim's, [`pvc_spec::validate_spec`]).

use super::super::FieldError;
use super::fields::present;
use super::meta;
use super::pvc_spec::{self, SpecOptions};
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;
/// The object metadata fields a template may not set (`validateFieldAllowList` over
/// `metav1.ObjectMeta`, in the struct's order, named as the server lower-cases the Go name).
const FORBIDDEN_META: &[(&str, &str)] = &[
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
];

/// `validateEphemeralVolumeSource` at `at` (`…volumes[0].ephemeral`).
pub fn ephemeral(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let template_at = join(at, ".volumeClaimTemplate");
    let Some(template) = present(v, "volumeClaimTemplate") else {
        errors.push(FieldError::required(template_at, ""));
        return;
    };
    let empty = Value::Null;
    let metadata = template.get("metadata").unwrap_or(&empty);
    template_meta(metadata, &join(&template_at, ".metadata"), version, errors);
    // `ValidationOptionsForPersistentVolumeClaimTemplate` with no stored template; the pod
    // strategy does not normalize the template's data sources.
    let opts = SpecOptions {
        version,
        old_spec: None,
        normalize_sources: false,
    };
    pvc_spec::validate_spec(
        template.get("spec").unwrap_or(&empty),
        &join(&template_at, ".spec"),
        &opts,
        errors,
    );
}

/// `ValidateTemplateObjectMeta` of a template's `metadata` at `meta_at`: annotations, labels,
/// and none of the fields a template may not set (also used by ResourceClaimTemplates).
pub(super) fn template_meta(
    metadata: &Value,
    meta_at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    meta::annotations(
        metadata.get("annotations"),
        &join(meta_at, ".annotations"),
        version,
        errors,
    );
    meta::labels(
        metadata.get("labels"),
        &join(meta_at, ".labels"),
        version,
        errors,
    );
    for (key, go_name) in FORBIDDEN_META {
        if is_set(metadata.get(key)) {
            errors.push(FieldError::forbidden(
                format!("{meta_at}.{go_name}"),
                "cannot be set",
            ));
        }
    }
}

/// Whether a metadata field differs from its Go zero value (empty lists counted as unset).
fn is_set(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Int(n)) => *n != 0,
        Some(Value::List(l)) => !l.is_empty(),
        Some(_) => true,
    }
}
