//! The dynamic resource allocation kinds of resource.k8s.io (served by default as v1 from
//! 1.34): ResourceClaim, ResourceClaimTemplate and DeviceClass, as k8s.io/kubernetes
//! pkg/apis/resource/validation/validation.go checks them (`ValidateResourceClaim`,
//! `ValidateResourceClaimTemplate`, `ValidateDeviceClass`, `ValidateDeviceClassUpdate`); the
//! device requests are [`super::dra_claim`]'s, ResourceSlices [`super::dra_slice`]'s.
//! Messages and paths follow the internal type (the v1 shape: `requests[0].exactly.…`).

use super::super::{FieldError, Write};
use super::claim_template;
use super::dra_claim::{self, CONFIG_MAX};
use super::fields::{items, present, spec};
use super::resources;
use crate::kube::VersionRange;
use crate::validate::field::join;
use crate::value::Value;

/// DRAExtendedResource (beta, on by default from 1.36): `extendedResourceName` is dropped
/// before.
const EXTENDED_RESOURCE: VersionRange = VersionRange::since(36);

/// `ValidateResourceClaim`. On update only the spec's immutability is checked (1.35's
/// `ValidateResourceClaimUpdate`); it is not reported here (see docs).
pub fn resource_claim(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if w.is_update() {
        return;
    }
    dra_claim::claim_spec(spec(object), "spec", w.version(), errors);
}

/// `ValidateResourceClaimTemplate`: the template's metadata (`ValidateTemplateObjectMeta`),
/// then its claim spec at `spec.spec`.
pub fn resource_claim_template(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if w.is_update() {
        return;
    }
    let version = w.version();
    let template = spec(object);
    static NULL: Value = Value::Null;
    let metadata = template.get("metadata").unwrap_or(&NULL);
    claim_template::template_meta(metadata, "spec.metadata", version, errors);
    dra_claim::claim_spec(
        template.get("spec").unwrap_or(&NULL),
        "spec.spec",
        version,
        errors,
    );
}

/// `ValidateDeviceClass` / `ValidateDeviceClassUpdate` (`validateDeviceClassSpec`): the
/// selectors, the configuration, the extended resource name.
pub fn device_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let spec = spec(object);
    dra_claim::selectors(
        items(spec.get("selectors")),
        "spec.selectors",
        version,
        errors,
    );
    dra_claim::list_items(
        items(spec.get("config")),
        CONFIG_MAX,
        "spec.config",
        version,
        errors,
        None,
        |c, at, errors| dra_claim::device_configuration(c, at, version, errors),
    );
    if !EXTENDED_RESOURCE.contains(version) {
        return;
    }
    if let Some(name) = present(spec, "extendedResourceName").and_then(Value::as_str) {
        if !resources::is_extended(name, version) {
            errors.push(FieldError::invalid(
                join("spec", ".extendedResourceName"),
                FieldError::string_value(name),
                "must be a valid extended resource name",
            ));
        }
    }
}
