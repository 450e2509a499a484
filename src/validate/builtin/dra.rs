//! The dynamic resource allocation kinds of resource.k8s.io (served by default as v1 from
//! 1.34): ResourceClaim, ResourceClaimTemplate and DeviceClass, as k8s.io/kubernetes
//! pkg/apis/resource/validation/validation.go checks them (`ValidateResourceClaim`,
//! `ValidateResourceClaimTemplate`, `ValidateDeviceClass`, `ValidateDeviceClassUpdate`); the
//! device requests are [`super::dra_claim`]'s, ResourceSlices [`super::dra_slice`]'s.
//! Messages and paths follow the internal type (the v1 shape: `requests[0].exactly.…`).

use super::super::{FieldError, Write};
use super::batch::struct_value;
use super::claim_template;
use super::dra_claim::{self, CONFIG_MAX};
use super::fields::{items, present, spec};
use super::resources;
use super::selector::semantic_eq;
use super::workloads::IMMUTABLE;
use crate::kube::VersionRange;
use crate::validate::field::join;
use crate::value::Value;

/// DRAExtendedResource (beta, on by default from 1.36): `extendedResourceName` is dropped
/// before.
const EXTENDED_RESOURCE: VersionRange = VersionRange::since(36);

/// `ValidateResourceClaim`. On update only the spec's immutability is checked
/// (`ValidateResourceClaimUpdate`: `ValidateImmutableField(spec, oldSpec, "spec")`; from 1.35 an
/// unchanged spec is not validated again).
pub fn resource_claim(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if let Some(old) = w.live {
        immutable_spec(object, old, "resource.ResourceClaimSpec", errors);
        return;
    }
    dra_claim::claim_spec(spec(object), "spec", w.version(), errors);
}

/// `ValidateImmutableField` of the whole spec, compared as `Semantic.DeepEqual` compares the
/// internal structs. The server quotes the untagged internal struct, whose fields change from
/// release to release; kssa quotes the spec as written (see docs).
fn immutable_spec(object: &Value, old: &Value, go_type: &str, errors: &mut Vec<FieldError>) {
    let (new_spec, old_spec) = (object.get("spec"), old.get("spec"));
    if !semantic_eq(new_spec, old_spec) {
        let value = struct_value(new_spec, go_type);
        errors.push(FieldError::invalid("spec", value, IMMUTABLE));
    }
}

/// `ValidateResourceClaimTemplate`: the template's metadata (`ValidateTemplateObjectMeta`),
/// then its claim spec at `spec.spec`; on update the template spec is immutable.
pub fn resource_claim_template(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if let Some(old) = w.live {
        // `ValidateResourceClaimTemplateUpdate`: the template spec, metadata included.
        immutable_spec(object, old, "resource.ResourceClaimTemplateSpec", errors);
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
