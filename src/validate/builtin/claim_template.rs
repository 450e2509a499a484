//! The ephemeral volume source: its claim template's metadata and spec, as k8s.io/kubernetes
//! pkg/apis/core/validation checks them on create (`validateEphemeralVolumeSource`,
//! `ValidatePersistentVolumeClaimTemplate`, `ValidateTemplateObjectMeta`,
//! `ValidatePersistentVolumeClaimSpec`, `validateDataSource`, `validateDataSourceRef`).

use super::super::formats;
use super::super::FieldError;
use super::fields::{items, present, text};
use super::volume_source::quantity_text;
use super::{meta, selector};
use crate::defaults::quantity::{canonicalize, Quantity};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;
use std::cmp::Ordering;

/// `supportedAccessModes`, sorted.
const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
const VOLUME_MODES: &[&str] = &["Block", "Filesystem"];
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
/// VolumeAttributesClass: the class name is validated once the feature is on by default (GA
/// in 1.34; beta and off by default before).
const VOLUME_ATTRIBUTES_CLASS: VersionRange = VersionRange::since(34);

/// `validateEphemeralVolumeSource` at `at` (`…volumes[0].ephemeral`).
pub fn ephemeral(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let template_at = format!("{at}.volumeClaimTemplate");
    let Some(template) = present(v, "volumeClaimTemplate") else {
        errors.push(FieldError::required(template_at, ""));
        return;
    };
    let empty = Value::Null;
    let metadata = template.get("metadata").unwrap_or(&empty);
    let meta_at = format!("{template_at}.metadata");
    meta::annotations(
        metadata.get("annotations"),
        &format!("{meta_at}.annotations"),
        version,
        errors,
    );
    meta::labels(
        metadata.get("labels"),
        &format!("{meta_at}.labels"),
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
    claim_spec(
        template.get("spec").unwrap_or(&empty),
        &format!("{template_at}.spec"),
        version,
        errors,
    );
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

/// `ValidatePersistentVolumeClaimSpec` for a new claim (no stored claim to relax it).
pub fn claim_spec(spec: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let modes = items(spec.get("accessModes"));
    let modes_at = format!("{at}.accessModes");
    if modes.is_empty() {
        errors.push(FieldError::required(
            &modes_at,
            "at least 1 access mode is required",
        ));
    }
    if let Some(s) = present(spec, "selector") {
        selector::validate(s, &format!("{at}.selector"), version, errors);
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in modes.iter().map(|m| m.as_str().unwrap_or("")) {
        if !ACCESS_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                &modes_at,
                FieldError::string_value(mode),
                ACCESS_MODES,
            ));
        } else if mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errors.push(FieldError::forbidden(
            &modes_at,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    storage_request(spec, at, errors);
    if let Some(class) = spec.get("storageClassName").and_then(Value::as_str) {
        subdomain(class, &format!("{at}.storageClassName"), errors);
    }
    if let Some(mode) = spec.get("volumeMode").and_then(Value::as_str) {
        if !VOLUME_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                format!("{at}.volumeMode"),
                FieldError::string_value(mode),
                VOLUME_MODES,
            ));
        }
    }
    for key in ["dataSource", "dataSourceRef"] {
        if let Some(r) = present(spec, key) {
            data_source(r, &format!("{at}.{key}"), key == "dataSourceRef", errors);
        }
    }
    if VOLUME_ATTRIBUTES_CLASS.contains(version) {
        if let Some(class) = spec
            .get("volumeAttributesClassName")
            .and_then(Value::as_str)
        {
            subdomain(class, &format!("{at}.volumeAttributesClassName"), errors);
        }
    }
}

/// `resources.requests.storage`: required and greater than zero (reported at
/// `resources[storage]`).
fn storage_request(spec: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let storage_at = format!("{at}.resources[storage]");
    let Some(storage) = spec
        .get_path(&["resources", "requests", "storage"])
        .filter(|v| !v.is_null())
    else {
        errors.push(FieldError::required(storage_at, ""));
        return;
    };
    let Some(text) = quantity_text(storage) else {
        return;
    };
    let zero = Quantity::parse("0").expect("0 is a quantity");
    let positive = Quantity::parse(&text).and_then(|q| q.compare(&zero));
    if matches!(positive, Some(Ordering::Less | Ordering::Equal)) {
        let shown = canonicalize(&text).unwrap_or(text);
        errors.push(FieldError::invalid(
            storage_at,
            FieldError::string_value(&shown),
            "must be greater than zero",
        ));
    }
}

/// A class name, when not empty: a DNS subdomain.
fn subdomain(name: &str, at: &str, errors: &mut Vec<FieldError>) {
    if name.is_empty() {
        return;
    }
    for msg in formats::dns1123_subdomain(name) {
        errors.push(FieldError::invalid(at, FieldError::string_value(name), msg));
    }
}

/// `validateDataSource` / `validateDataSourceRef` (the agreement of the two is not checked).
fn data_source(r: &Value, at: &str, is_ref: bool, errors: &mut Vec<FieldError>) {
    for key in ["name", "kind"] {
        if text(r, key).is_empty() {
            errors.push(FieldError::required(format!("{at}.{key}"), ""));
        }
    }
    let group = text(r, "apiGroup");
    let kind = text(r, "kind");
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(kind),
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    subdomain(group, &format!("{at}.apiGroup"), errors);
    let namespace = text(r, "namespace");
    if is_ref && !namespace.is_empty() {
        for msg in formats::dns1123_label(namespace) {
            errors.push(FieldError::invalid(
                format!("{at}.namespace"),
                FieldError::string_value(namespace),
                msg,
            ));
        }
    }
}
