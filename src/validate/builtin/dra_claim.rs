//! Dynamic resource allocation: the device requests of a ResourceClaim's spec (also a
//! ResourceClaimTemplate's `spec.spec`) and the selectors and opaque configuration DeviceClasses
//! share with them, as k8s.io/kubernetes pkg/apis/resource/validation/validation.go checks them
//! (`validateDeviceClaim`, `validateDeviceRequest`, `validateExactDeviceRequest`,
//! `validateDeviceSubRequest`, `validateDeviceAllocationMode`, `validateSelector`,
//! `validateDeviceConstraint`, `validateDeviceConfiguration`, `validateRawExtension`); the CEL
//! selectors are compiled by `dra_cel`.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::affinity;
use super::dra_cel;
use super::fields::{items, present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::{to_json_string, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// `DeviceRequestsMaxSize` (also the limit of a constraint's or a config's `requests`).
const REQUESTS_MAX: usize = 32;
/// `FirstAvailableDeviceRequestMaxSize`.
const FIRST_AVAILABLE_MAX: usize = 8;
/// `DeviceSelectorsMaxSize`.
pub(super) const SELECTORS_MAX: usize = 32;
/// `DeviceConstraintsMaxSize`.
const CONSTRAINTS_MAX: usize = 32;
/// `DeviceConfigMaxSize`.
pub(super) const CONFIG_MAX: usize = 32;
/// `CELSelectorExpressionMaxLength`.
const CEL_EXPRESSION_MAX: usize = 10 * 1024;
/// `OpaqueParametersMaxLength`.
const OPAQUE_PARAMETERS_MAX: usize = 10 * 1024;
/// `DeviceMaxIDLength`: the identifier of a qualified name.
const ID_MAX: usize = 32;

/// DRADeviceTaints (beta, on by default from 1.36): request tolerations are dropped before.
pub(super) const DEVICE_TAINTS: VersionRange = VersionRange::since(36);
/// DRAConsumableCapacity (beta, on by default from 1.36): `distinctAttribute` is dropped
/// before, and a constraint without an attribute is reported at `matchAttribute`.
const CONSUMABLE_CAPACITY: VersionRange = VersionRange::since(36);

const REQUEST_REF: &str =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/// The request names of a claim, each with its subrequests' names (`gatherRequestNames`).
struct RequestNames(BTreeMap<String, Option<BTreeSet<String>>>);

impl RequestNames {
    fn of(requests: &[Value]) -> RequestNames {
        let mut names = BTreeMap::new();
        for r in requests {
            let subs = items(r.get("firstAvailable"));
            let set = (!subs.is_empty())
                .then(|| subs.iter().map(|s| text(s, "name").to_string()).collect());
            names.insert(text(r, "name").to_string(), set);
        }
        RequestNames(names)
    }

    /// `requestNames.Has`: `request` or `request/subrequest`.
    fn has(&self, reference: &str) -> bool {
        let segments: Vec<&str> = reference.split('/').collect();
        match (segments.as_slice(), self.0.get(segments[0])) {
            (_, None) => false,
            ([_], Some(_)) => true,
            ([_, sub], Some(subs)) => subs.as_ref().is_some_and(|s| s.contains(*sub)),
            _ => false,
        }
    }
}

/// `validateSlice`/`validateSet`: more than `max` items is reported alone (`Too many`);
/// otherwise each item, then (with `key`) each repeated key as `Duplicate value`.
pub(super) fn list_items(
    list: &[Value],
    max: usize,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
    key: Option<fn(&Value) -> String>,
    mut each: impl FnMut(&Value, &str, &mut Vec<FieldError>),
) {
    if list.len() > max {
        errors.push(FieldError::too_many(at, list.len(), max, version));
        return;
    }
    for (i, item) in list.iter().enumerate() {
        each(item, &indexed(at, i), errors);
    }
    if let Some(key) = key {
        let mut seen = HashSet::new();
        for (i, item) in list.iter().enumerate() {
            let k = key(item);
            if !seen.insert(k.clone()) {
                errors.push(FieldError::duplicate(
                    indexed(at, i),
                    FieldError::string_value(&k),
                ));
            }
        }
    }
}

fn name_key(v: &Value) -> String {
    text(v, "name").to_string()
}

fn string_key(v: &Value) -> String {
    v.as_str().unwrap_or("").to_string()
}

/// `ValidateDNS1123Label`.
pub(super) fn dns_label(value: &str, at: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_label(value) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `ValidateCSIDriverName`, which DRA driver names reuse: required, at most 63 bytes, a DNS
/// subdomain once lower-cased.
pub(super) fn driver_name(
    name: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if name.is_empty() {
        errors.push(FieldError::required(at, ""));
    }
    if name.len() > 63 {
        errors.push(FieldError::too_long(at, 63, version));
    }
    for msg in formats::dns1123_subdomain(&name.to_lowercase()) {
        errors.push(FieldError::invalid(at, FieldError::string_value(name), msg));
    }
}

/// `validateDeviceClaim` of a claim spec at `at` (`spec`, or `spec.spec` in a template).
pub(super) fn claim_spec(
    spec: &Value,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    static NULL: Value = Value::Null;
    let devices = spec.get("devices").unwrap_or(&NULL);
    let at = join(at, ".devices");
    let requests = items(devices.get("requests"));
    let names = RequestNames::of(requests);
    let requests_at = join(&at, ".requests");
    list_items(
        requests,
        REQUESTS_MAX,
        &requests_at,
        version,
        errors,
        Some(name_key),
        |r, at, errors| request(r, at, version, errors),
    );
    let constraints_at = join(&at, ".constraints");
    let constraints = items(devices.get("constraints"));
    list_items(
        constraints,
        CONSTRAINTS_MAX,
        &constraints_at,
        version,
        errors,
        None,
        |c, at, errors| constraint(c, at, &names, version, errors),
    );
    let config = items(devices.get("config"));
    list_items(
        config,
        CONFIG_MAX,
        &join(&at, ".config"),
        version,
        errors,
        None,
        |c, at, errors| {
            request_refs(c, at, &names, version, errors);
            device_configuration(c, at, version, errors);
        },
    );
}

/// `validateDeviceRequest`: a name, then exactly one of `exactly` and `firstAvailable`.
fn request(r: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    dns_label(text(r, "name"), &join(at, ".name"), errors);
    let first = items(r.get("firstAvailable"));
    let exactly = present(r, "exactly");
    match (exactly, first.is_empty()) {
        (None, true) => errors.push(FieldError::required(
            at,
            "exactly one of `exactly` or `firstAvailable` is required",
        )),
        (Some(_), false) => errors.push(FieldError::invalid(
            at,
            BadValue::Value(Value::Null),
            "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
        )),
        (None, false) => list_items(
            first,
            FIRST_AVAILABLE_MAX,
            &join(at, ".firstAvailable"),
            version,
            errors,
            Some(name_key),
            |sub, at, errors| {
                dns_label(text(sub, "name"), &join(at, ".name"), errors);
                device_request_body(sub, at, version, errors);
            },
        ),
        (Some(exactly), true) => {
            device_request_body(exactly, &join(at, ".exactly"), version, errors)
        }
    }
}

/// What `validateExactDeviceRequest` and `validateDeviceSubRequest` share: the class, the
/// selectors, the allocation mode and count, the tolerations.
fn device_request_body(r: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let class = text(r, "deviceClassName");
    let class_at = join(at, ".deviceClassName");
    if class.is_empty() {
        errors.push(FieldError::required(&class_at, ""));
    } else {
        for msg in formats::dns1123_subdomain(class) {
            errors.push(FieldError::invalid(
                &class_at,
                FieldError::string_value(class),
                msg,
            ));
        }
    }
    selectors(
        items(r.get("selectors")),
        &join(at, ".selectors"),
        version,
        errors,
    );
    allocation_mode(r, at, errors);
    if DEVICE_TAINTS.contains(version) {
        for (i, t) in items(r.get("tolerations")).iter().enumerate() {
            toleration(t, &indexed(&join(at, ".tolerations"), i), version, errors);
        }
    }
}

/// `validateDeviceAllocationMode`, on the request as the v1 defaulter completes it (mode
/// `ExactCount`, count 1).
fn allocation_mode(r: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let mode = match text(r, "allocationMode") {
        "" => "ExactCount",
        m => m,
    };
    let mut count = r.get("count").and_then(Value::as_i64).unwrap_or(0);
    if mode == "ExactCount" && count == 0 {
        count = 1;
    }
    let count_at = join(at, ".count");
    match mode {
        "All" if count != 0 => errors.push(FieldError::invalid(
            count_at,
            BadValue::Value(Value::Int(count)),
            "must not be specified when allocationMode is 'All'",
        )),
        "ExactCount" if count <= 0 => errors.push(FieldError::invalid(
            count_at,
            BadValue::Value(Value::Int(count)),
            "must be greater than zero",
        )),
        "All" | "ExactCount" => {}
        other => errors.push(FieldError::not_supported(
            join(at, ".allocationMode"),
            FieldError::string_value(other),
            &["All", "ExactCount"],
        )),
    }
}

/// `validateSelectorSlice`: each selector needs `cel`, whose expression may not be longer
/// than 10 KiB and must compile (`dra_cel`).
pub(super) fn selectors(
    list: &[Value],
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    list_items(
        list,
        SELECTORS_MAX,
        at,
        version,
        errors,
        None,
        |s, at, errors| {
            let cel_at = join(at, ".cel");
            match present(s, "cel") {
                None => errors.push(FieldError::required(cel_at, "")),
                Some(cel) => {
                    let expression = text(cel, "expression");
                    let at = join(&cel_at, ".expression");
                    if expression.len() > CEL_EXPRESSION_MAX {
                        errors.push(FieldError::too_long(at, CEL_EXPRESSION_MAX, version));
                    } else {
                        errors.extend(dra_cel::selector(expression, &at, version));
                    }
                }
            }
        },
    );
}

/// `validateDeviceToleration` (operator defaulted to `Equal`).
fn toleration(t: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let key = text(t, "key");
    if !key.is_empty() {
        affinity::label_name(key, &join(at, ".key"), version, errors);
    }
    let value = text(t, "value");
    let value_at = join(at, ".value");
    match text(t, "operator") {
        "Exists" if !value.is_empty() => errors.push(FieldError::invalid(
            value_at,
            FieldError::string_value(value),
            "must be empty for operator `Exists`",
        )),
        "Exists" => {}
        "Equal" | "" => label_value(value, &value_at, version, errors),
        other => errors.push(FieldError::not_supported(
            join(at, ".operator"),
            FieldError::string_value(other),
            &["Equal", "Exists"],
        )),
    }
    taint_effect(text(t, "effect"), &join(at, ".effect"), false, errors);
}

/// The effects of device taints (`validDeviceTaintEffects`, listed sorted); required in a
/// taint, optional in a toleration.
pub(super) fn taint_effect(effect: &str, at: &str, required: bool, errors: &mut Vec<FieldError>) {
    const EFFECTS: &[&str] = &["NoExecute", "NoSchedule", "None"];
    if effect.is_empty() {
        if required {
            errors.push(FieldError::required(at, ""));
        }
    } else if !EFFECTS.contains(&effect) {
        errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(effect),
            EFFECTS,
        ));
    }
}

/// `validateLabelValue`.
pub(super) fn label_value(
    value: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for msg in formats::label_value(value, version) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `validateDeviceConstraint`: its request references, then the attribute.
fn constraint(
    c: &Value,
    at: &str,
    names: &RequestNames,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    request_refs(c, at, names, version, errors);
    let consumable = CONSUMABLE_CAPACITY.contains(version);
    let attribute = |key| present(c, key).and_then(Value::as_str);
    if let Some(name) = attribute("matchAttribute") {
        fully_qualified_name(name, &join(at, ".matchAttribute"), version, errors);
    } else if let Some(name) = attribute("distinctAttribute").filter(|_| consumable) {
        fully_qualified_name(name, &join(at, ".distinctAttribute"), version, errors);
    } else if consumable {
        errors.push(FieldError::required(
            at,
            "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set",
        ));
    } else {
        errors.push(FieldError::required(join(at, ".matchAttribute"), ""));
    }
}

/// The `requests` of a constraint or a config: a set of `validateRequestNameRef`.
fn request_refs(
    v: &Value,
    at: &str,
    names: &RequestNames,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    list_items(
        items(v.get("requests")),
        REQUESTS_MAX,
        &join(at, ".requests"),
        version,
        errors,
        Some(string_key),
        |r, at, errors| {
            let name = r.as_str().unwrap_or("");
            let segments: Vec<&str> = name.split('/').collect();
            if segments.len() > 2 {
                errors.push(FieldError::invalid(
                    at,
                    FieldError::string_value(name),
                    REQUEST_REF,
                ));
                return;
            }
            for segment in segments {
                dns_label(segment, at, errors);
            }
            if !names.has(name) {
                errors.push(FieldError::invalid(
                    at,
                    FieldError::string_value(name),
                    REQUEST_REF,
                ));
            }
        },
    );
}

/// `validateDeviceConfiguration`: an `opaque` configuration with a driver and parameters.
pub(super) fn device_configuration(
    c: &Value,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let opaque_at = join(at, ".opaque");
    let Some(opaque) = present(c, "opaque") else {
        errors.push(FieldError::required(opaque_at, ""));
        return;
    };
    driver_name(
        text(opaque, "driver"),
        &join(&opaque_at, ".driver"),
        version,
        errors,
    );
    let at = join(&opaque_at, ".parameters");
    match present(opaque, "parameters") {
        None => errors.push(FieldError::required(at, "")),
        Some(p) if to_json_string(p).len() > OPAQUE_PARAMETERS_MAX => {
            errors.push(FieldError::too_long(at, OPAQUE_PARAMETERS_MAX, version))
        }
        Some(Value::Map(_)) => {}
        Some(_) => errors.push(FieldError::invalid(
            at,
            FieldError::string_value("<value omitted>"),
            "must be a valid JSON object",
        )),
    }
}

/// `validateQualifiedName`: a C identifier, or a driver-name domain, a slash and a C
/// identifier. Names with more than one slash are accepted (as 1.35 does; a later release
/// refuses them, from which release could not be read).
pub(super) fn qualified_name(
    name: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => c_identifier(id, at, version, errors),
        [domain, id] => {
            if domain.is_empty() {
                errors.push(FieldError::invalid(
                    at,
                    FieldError::string_value(""),
                    "the domain must not be empty",
                ));
            } else {
                driver_name(domain, at, version, errors);
            }
            if id.is_empty() {
                errors.push(FieldError::invalid(
                    at,
                    FieldError::string_value(""),
                    "the name must not be empty",
                ));
            } else {
                c_identifier(id, at, version, errors);
            }
        }
        _ => {}
    }
}

/// `validateFullyQualifiedName`: a qualified name with a domain.
fn fully_qualified_name(name: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    qualified_name(name, at, version, errors);
    if !name.contains('/') {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            "a fully qualified name must be a domain and a name separated by a slash",
        ));
    }
}

/// `validateCIdentifier`: at most 32 bytes, `[A-Za-z_][A-Za-z0-9_]*`.
fn c_identifier(id: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if id.len() > ID_MAX {
        errors.push(FieldError::too_long(at, ID_MAX, version));
    }
    for msg in formats::c_identifier(id) {
        errors.push(FieldError::invalid(at, FieldError::string_value(id), msg));
    }
}
