//! ResourceSlices (resource.k8s.io), as k8s.io/kubernetes
//! pkg/apis/resource/validation/validation.go checks them (`ValidateResourceSlice`,
//! `ValidateResourceSliceUpdate`, `validateResourceSliceSpec`, `validateResourcePool`,
//! `validatePoolName`, `validateDevice`, `validateDeviceAttribute`, `validateDeviceTaint`).
//! Fields behind feature gates that are off in a release are dropped by the strategy and not
//! checked there.

use super::super::{BadValue, FieldError, Write};
use super::affinity;
use super::dra_claim::{self, dns_label, driver_name, qualified_name, DEVICE_TAINTS};
use super::fields::{items, present, spec, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed};
use crate::value::{Map, Value};
use regex::Regex;
use std::sync::OnceLock;

/// `ResourceSliceMaxDevices`.
const DEVICES_MAX: usize = 128;
/// `ResourceSliceMaxDevicesWithTaintsOrConsumesCounters`.
const DEVICES_WITH_TAINTS_MAX: usize = 64;
/// `ResourceSliceMaxAttributesAndCapacitiesPerDevice`.
const ATTRIBUTES_AND_CAPACITIES_MAX: usize = 32;
/// `PoolNameMaxLength`.
const POOL_NAME_MAX: usize = 253;
/// `DeviceAttributeMaxValueLength`.
const ATTRIBUTE_VALUE_MAX: usize = 64;
/// `DeviceMaxDomainLength + 1 + DeviceMaxIDLength`: longer keys are shortened in paths.
const KEY_IN_PATH_MAX: usize = 63 + 1 + 32;

/// DRAPartitionableDevices (beta, on by default from 1.36): `perDeviceNodeSelection`,
/// `sharedCounters` and per-device node selection are dropped before.
const PARTITIONABLE_DEVICES: VersionRange = VersionRange::since(36);
/// DRAConsumableCapacity (on from 1.36): `allowMultipleAllocations` and capacity request
/// policies are dropped before.
const CONSUMABLE_CAPACITY: VersionRange = VersionRange::since(36);
/// Where a malformed attribute or capacity name is reported: at the map entry
/// (`attributes[key]`) in 1.35, at the map (`attributes`) in the newest sources, which also
/// mark these key checks as covered by declarative validation; 1.36 is taken to be the first
/// release doing so (not confirmed).
const KEY_ERRORS_AT_MAP: VersionRange = VersionRange::since(36);

const NODE_SELECTION: &str =
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
const DEVICE_NODE_SELECTION: &str = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";

/// `ValidateResourceSlice`, or on update `ValidateResourceSliceUpdate` (the same rules plus
/// the immutable driver, pool name and node name).
pub fn resource_slice(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let spec = spec(object);
    driver_name(text(spec, "driver"), "spec.driver", version, errors);
    static NULL: Value = Value::Null;
    let pool = spec.get("pool").unwrap_or(&NULL);
    pool_name(text(pool, "name"), "spec.pool.name", version, errors);
    let number = |key| pool.get(key).and_then(Value::as_i64).unwrap_or(0);
    let count = number("resourceSliceCount");
    if count <= 0 {
        errors.push(FieldError::invalid(
            "spec.pool.resourceSliceCount",
            BadValue::Value(Value::Int(count)),
            "must be greater than zero",
        ));
    }
    let generation = number("generation");
    if generation < 0 {
        errors.push(FieldError::invalid(
            "spec.pool.generation",
            BadValue::Value(Value::Int(generation)),
            "must be greater than or equal to zero",
        ));
    }
    let old_spec = w.live.map(|live| live.get("spec").unwrap_or(&NULL));
    if let Some(old) = old_spec {
        for (path, at) in [
            (&["pool", "name"][..], "spec.pool.name"),
            (&["driver"][..], "spec.driver"),
            (&["nodeName"][..], "spec.nodeName"),
        ] {
            let new_value = spec.get_path(path).cloned().unwrap_or(Value::Null);
            let old_value = old.get_path(path).cloned().unwrap_or(Value::Null);
            if new_value != old_value {
                errors.push(FieldError::invalid(
                    at,
                    BadValue::Value(new_value),
                    "field is immutable",
                ));
            }
        }
    }
    node_selection(spec, version, errors);
    let partitionable = PARTITIONABLE_DEVICES.contains(version);
    if partitionable
        && present(spec, "sharedCounters").is_some()
        && present(spec, "devices").is_some()
    {
        errors.push(FieldError::invalid(
            "spec",
            FieldError::string_value(""),
            "only one of `sharedCounters` or `devices` is allowed",
        ));
    }
    let devices = items(spec.get("devices"));
    let tainted = DEVICE_TAINTS.contains(version)
        && devices.iter().any(|d| !items(d.get("taints")).is_empty());
    let consuming = partitionable
        && devices
            .iter()
            .any(|d| !items(d.get("consumesCounters")).is_empty());
    let max = if tainted || consuming {
        DEVICES_WITH_TAINTS_MAX
    } else {
        DEVICES_MAX
    };
    let per_device = partitionable
        && present(spec, "perDeviceNodeSelection").and_then(Value::as_bool) == Some(true);
    dra_claim::list_items(
        devices,
        max,
        "spec.devices",
        version,
        errors,
        Some(|d| text(d, "name").to_string()),
        |d, at, errors| {
            let old = old_spec.and_then(|s| {
                items(s.get("devices"))
                    .iter()
                    .find(|o| text(o, "name") == text(d, "name"))
            });
            device(d, old, at, per_device, version, errors)
        },
    );
}

/// `validatePoolName`: required, at most 253 bytes, DNS subdomains separated by slashes.
pub(super) fn pool_name(name: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if name.is_empty() {
        errors.push(FieldError::required(at, ""));
        return;
    }
    if name.len() > POOL_NAME_MAX {
        errors.push(FieldError::too_long(at, POOL_NAME_MAX, version));
    }
    for part in name.split('/') {
        for msg in super::super::formats::dns1123_subdomain(part) {
            errors.push(FieldError::invalid(at, FieldError::string_value(part), msg));
        }
    }
}

/// Exactly one of `nodeName`, `nodeSelector`, `allNodes` (and from 1.36
/// `perDeviceNodeSelection`), each valid.
fn node_selection(spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut set = Vec::new();
    if let Some(name) = present(spec, "nodeName").and_then(Value::as_str) {
        if name.is_empty() {
            errors.push(FieldError::invalid(
                "spec.nodeName",
                FieldError::string_value(""),
                "must be either unset or set to a non-empty string",
            ));
        } else {
            set.push("`nodeName`");
            super::endpoints::node_name(name, "spec.nodeName", errors);
        }
    }
    if let Some(selector) = present(spec, "nodeSelector") {
        set.push("`nodeSelector`");
        node_selector(selector, "spec.nodeSelector", version, errors);
        let terms = selector.get("nodeSelectorTerms");
        if items(terms).len() != 1 {
            errors.push(FieldError::invalid(
                "spec.nodeSelector.nodeSelectorTerms",
                BadValue::Value(internal_terms(terms)),
                "must have exactly one node selector term",
            ));
        }
    }
    let mut flag =
        |key: &'static str, shown: &'static str, set: &mut Vec<&str>| match present(spec, key)
            .and_then(Value::as_bool)
        {
            Some(true) => set.push(shown),
            Some(false) => errors.push(FieldError::invalid(
                format!("spec.{key}"),
                BadValue::Value(Value::Bool(false)),
                "must be either unset or set to true",
            )),
            None => {}
        };
    flag("allNodes", "`allNodes`", &mut set);
    if PARTITIONABLE_DEVICES.contains(version) {
        flag(
            "perDeviceNodeSelection",
            "`perDeviceNodeSelection`",
            &mut set,
        );
    }
    match set.len() {
        0 => errors.push(FieldError::required("spec", NODE_SELECTION)),
        1 => {}
        _ => errors.push(FieldError::invalid(
            "spec",
            FieldError::string_value(&format!("{{{}}}", set.join(", "))),
            format!("{NODE_SELECTION}, but multiple fields are set"),
        )),
    }
}

/// `ValidateNodeSelector(selector, false, at)`: at least one term, each valid.
fn node_selector(selector: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let terms_at = join(at, ".nodeSelectorTerms");
    let terms = items(selector.get("nodeSelectorTerms"));
    if terms.is_empty() {
        errors.push(FieldError::required(
            terms_at,
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, term) in terms.iter().enumerate() {
        affinity::node_selector_term(term, &indexed(&terms_at, i), true, version, errors);
    }
}

/// The internal `[]core.NodeSelectorTerm` as JSON (untagged fields: Go names, nil lists as
/// `null`).
fn internal_terms(terms: Option<&Value>) -> Value {
    let Some(Value::List(terms)) = terms else {
        return Value::Null;
    };
    let requirements = |list: Option<&Value>| match list {
        Some(Value::List(reqs)) => Value::List(
            reqs.iter()
                .map(|r| {
                    let mut m = Map::default();
                    m.insert("Key".into(), Value::from(text(r, "key")));
                    m.insert("Operator".into(), Value::from(text(r, "operator")));
                    m.insert(
                        "Values".into(),
                        r.get("values").cloned().unwrap_or(Value::Null),
                    );
                    Value::Map(m)
                })
                .collect(),
        ),
        _ => Value::Null,
    };
    Value::List(
        terms
            .iter()
            .map(|t| {
                let mut m = Map::default();
                m.insert(
                    "MatchExpressions".into(),
                    requirements(t.get("matchExpressions")),
                );
                m.insert("MatchFields".into(), requirements(t.get("matchFields")));
                Value::Map(m)
            })
            .collect(),
    )
}

/// `validateDevice`.
fn device(
    d: &Value,
    old: Option<&Value>,
    at: &str,
    per_device: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    dns_label(text(d, "name"), &join(at, ".name"), errors);
    let attributes = sorted_entries(d.get("attributes"));
    let capacity = sorted_entries(d.get("capacity"));
    let total = attributes.len() + capacity.len();
    if total > ATTRIBUTES_AND_CAPACITIES_MAX {
        errors.push(FieldError::invalid(
            at,
            BadValue::Value(Value::Int(total as i64)),
            format!("the total number of attributes and capacities must not exceed {ATTRIBUTES_AND_CAPACITIES_MAX}"),
        ));
    }
    let attributes_at = join(at, ".attributes");
    for (key, value) in &attributes {
        let key_at = keyed(&attributes_at, &truncated(key));
        key_name(key, &attributes_at, &key_at, version, errors);
        attribute(value, &key_at, version, errors);
    }
    let capacity_at = join(at, ".capacity");
    let multiple = CONSUMABLE_CAPACITY.contains(version)
        && present(d, "allowMultipleAllocations").and_then(Value::as_bool) == Some(true);
    for (key, value) in &capacity {
        let key_at = keyed(&capacity_at, &truncated(key));
        key_name(key, &capacity_at, &key_at, version, errors);
        let policy =
            CONSUMABLE_CAPACITY.contains(version) && present(value, "requestPolicy").is_some();
        if policy && !multiple {
            errors.push(FieldError::forbidden(
                join(&key_at, ".requestPolicy"),
                "allowMultipleAllocations must be true",
            ));
        }
    }
    let taints = d.get("taints");
    let taints_changed = old.is_none_or(|o| o.get("taints") != taints);
    if DEVICE_TAINTS.contains(version) && taints_changed {
        for (i, t) in items(taints).iter().enumerate() {
            taint(t, &indexed(&join(at, ".taints"), i), version, errors);
        }
    }
    if !PARTITIONABLE_DEVICES.contains(version) {
        return;
    }
    let node_fields = ["nodeName", "nodeSelector", "allNodes"];
    if per_device {
        device_node_selection(d, at, version, errors);
    } else if node_fields.iter().any(|k| present(d, k).is_some()) {
        errors.push(FieldError::invalid(
            at,
            BadValue::Value(Value::Null),
            "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
        ));
    }
}

/// A device's own node selection, when the slice has `perDeviceNodeSelection: true`.
fn device_node_selection(d: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut set = Vec::new();
    if let Some(name) = present(d, "nodeName").and_then(Value::as_str) {
        let name_at = join(at, ".nodeName");
        if name.is_empty() {
            errors.push(FieldError::invalid(
                name_at,
                FieldError::string_value(""),
                "must not be empty",
            ));
        } else {
            set.push("`nodeName`");
            super::endpoints::node_name(name, &name_at, errors);
        }
    }
    if let Some(selector) = present(d, "nodeSelector") {
        set.push("`nodeSelector`");
        node_selector(selector, &join(at, ".nodeSelector"), version, errors);
    }
    match present(d, "allNodes").and_then(Value::as_bool) {
        Some(true) => set.push("`allNodes`"),
        Some(false) => errors.push(FieldError::invalid(
            join(at, ".allNodes"),
            BadValue::Value(Value::Bool(false)),
            "must be either unset or set to true",
        )),
        None => {}
    }
    match set.len() {
        0 => errors.push(FieldError::required(at, DEVICE_NODE_SELECTION)),
        1 => {}
        _ => errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&format!("{{{}}}", set.join(", "))),
            DEVICE_NODE_SELECTION,
        )),
    }
}

/// A map's entries sorted by key (the server ranges over a Go map).
fn sorted_entries(map: Option<&Value>) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = match map {
        Some(Value::Map(m)) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        _ => Vec::new(),
    };
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// `truncateIfTooLong`: a long key shown with its middle cut out.
fn truncated(key: &str) -> String {
    if key.len() <= KEY_IN_PATH_MAX || !key.is_ascii() {
        return key.to_string();
    }
    let remaining = KEY_IN_PATH_MAX - 3;
    format!(
        "{}...{}",
        &key[..remaining.div_ceil(2)],
        &key[key.len() - remaining / 2..]
    )
}

/// An attribute or capacity name, reported where the release reports it.
fn key_name(
    key: &str,
    map_at: &str,
    key_at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let at = if KEY_ERRORS_AT_MAP.contains(version) {
        map_at
    } else {
        key_at
    };
    qualified_name(key, at, version, errors);
}

/// `validateDeviceAttribute`: exactly one of `int`, `bool`, `string`, `version`; strings and
/// versions at most 64 bytes, versions semantic versions.
fn attribute(a: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut set = 0;
    for key in ["int", "bool"] {
        if present(a, key).is_some() {
            set += 1;
        }
    }
    if let Some(s) = present(a, "string") {
        set += 1;
        if s.as_str().unwrap_or("").len() > ATTRIBUTE_VALUE_MAX {
            errors.push(FieldError::too_long(
                join(at, ".string"),
                ATTRIBUTE_VALUE_MAX,
                version,
            ));
        }
    }
    if let Some(v) = present(a, "version") {
        set += 1;
        let v = v.as_str().unwrap_or("");
        let v_at = join(at, ".version");
        if !semver().is_match(v) {
            errors.push(FieldError::invalid(
                &v_at,
                FieldError::string_value(v),
                "must be a string compatible with semver.org spec 2.0.0",
            ));
        }
        if v.len() > ATTRIBUTE_VALUE_MAX {
            errors.push(FieldError::too_long(v_at, ATTRIBUTE_VALUE_MAX, version));
        }
    }
    match set {
        0 => errors.push(FieldError::invalid(
            at,
            FieldError::string_value(""),
            "exactly one value must be specified",
        )),
        1 => {}
        _ => errors.push(FieldError::invalid(
            at,
            BadValue::Value(internal_attribute(a)),
            "exactly one value must be specified",
        )),
    }
}

/// The internal `resource.DeviceAttribute` as JSON (untagged: Go names, nil as `null`).
fn internal_attribute(a: &Value) -> Value {
    let mut m = Map::default();
    for (key, go) in [
        ("int", "IntValue"),
        ("bool", "BoolValue"),
        ("string", "StringValue"),
        ("version", "VersionValue"),
    ] {
        m.insert(go.into(), present(a, key).cloned().unwrap_or(Value::Null));
    }
    Value::Map(m)
}

/// The semantic version expression of `validateDeviceAttributeVersionValue`.
fn semver() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let num = r"(0|[1-9]\d*)";
        let pre = r"(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)";
        let build = r"[0-9a-zA-Z-]+";
        Regex::new(&format!(
            r"^{num}\.{num}\.{num}(-{pre}(\.{pre})*)?(\+{build}(\.{build})*)?$"
        ))
        .expect("the semver expression compiles")
    })
}

/// `validateDeviceTaint` of a new or changed taint: key a label name, value a label value,
/// effect required and known.
fn taint(t: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    affinity::label_name(text(t, "key"), &join(at, ".key"), version, errors);
    let value = text(t, "value");
    if !value.is_empty() {
        dra_claim::label_value(value, &join(at, ".value"), version, errors);
    }
    dra_claim::taint_effect(text(t, "effect"), &join(at, ".effect"), true, errors);
}
