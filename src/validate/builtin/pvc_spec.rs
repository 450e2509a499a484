//! A PersistentVolumeClaim's spec on create and update, and the access modes and storage sizes
//! PersistentVolumes share with it, as k8s.io/kubernetes pkg/apis/core/validation/validation.go
//! checks them (`ValidatePersistentVolumeClaimSpec`, `validateDataSource`,
//! `validateDataSourceRef`, `ValidatePositiveQuantityValue`).

use super::super::goprint::go_quote;
use super::super::{formats, BadValue, FieldError, Write};
use super::fields::{items, present, quantity_text, text};
use super::selector;
use crate::defaults::quantity::{canonicalize, Quantity};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::{Map, Value};
use std::cmp::Ordering;

/// `supportedAccessModes`, sorted as `sets.List` returns them.
pub const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
/// `supportedVolumeModes`, sorted.
pub const VOLUME_MODES: &[&str] = &["Block", "Filesystem"];

/// `VolumeAttributesClass` is on by default from 1.34 (GA); before, the strategy drops
/// `volumeAttributesClassName` of a new claim and validation skips it.
const VOLUME_ATTRIBUTES_CLASS: VersionRange = VersionRange::since(34);

/// The access modes: each supported, `ReadWriteOncePod` alone. `required` is the detail of the
/// error for an empty list (`None`: not checked here).
pub fn access_modes(spec: &Value, path: &str, required: &str, errors: &mut Vec<FieldError>) {
    let modes = items(spec.get("accessModes"));
    let at = join(path, ".accessModes");
    if modes.is_empty() {
        errors.push(FieldError::required(&at, required));
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in modes {
        let mode = mode.as_str().unwrap_or("");
        if !ACCESS_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                &at,
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
            &at,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
}

/// `ValidatePositiveQuantityValue`: the quantity (printed canonical, as `Quantity.String`) must
/// be above zero. Returns whether it was.
pub fn positive_quantity(text: &str, path: &str, errors: &mut Vec<FieldError>) -> bool {
    let zero = Quantity::parse("0").expect("0 is a quantity");
    let Some(q) = Quantity::parse(text) else {
        // Not a quantity: the decoder refuses it first.
        return true;
    };
    if q.compare(&zero) == Some(Ordering::Greater) {
        return true;
    }
    let shown = canonicalize(text).unwrap_or_else(|| text.to_string());
    errors.push(FieldError::invalid(
        path,
        FieldError::string_value(&shown),
        "must be greater than zero",
    ));
    false
}

fn class_name(value: &str, path: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_subdomain(value) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// What `ValidatePersistentVolumeClaimSpec` is told besides the spec: the Kubernetes version,
/// the stored spec whose content relaxes the rules (`ValidationOptionsForPersistentVolumeClaim`;
/// `None` on a create and for a pod's claim template), and whether the strategy first filled
/// each data source reference from the other (`NormalizeDataSources`: a claim's, not a pod's
/// claim template, which is validated as written).
pub struct SpecOptions<'a> {
    pub version: KubeVersion,
    pub old_spec: Option<&'a Value>,
    pub normalize_sources: bool,
}

/// A PersistentVolumeClaim's spec at `path`, with the options the strategy derives from the
/// stored claim.
pub fn check(w: &Write, spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let opts = SpecOptions {
        version: w.version(),
        old_spec: w.live.and_then(|old| old.get("spec")),
        normalize_sources: true,
    };
    validate_spec(spec, path, &opts, errors);
}

/// `ValidatePersistentVolumeClaimSpec` of the spec at `path`: a claim's, or the
/// `volumeClaimTemplate.spec` of a pod's ephemeral volume.
pub fn validate_spec(spec: &Value, path: &str, opts: &SpecOptions, errors: &mut Vec<FieldError>) {
    let old_spec = opts.old_spec;
    access_modes_and_selector(opts.version, spec, old_spec, path, errors);
    let storage_path = format!("{path}.resources[storage]");
    match spec
        .get_path(&["resources", "requests", "storage"])
        .filter(|v| !v.is_null())
    {
        None => errors.push(FieldError::required(&storage_path, "")),
        Some(v) => {
            if let Some(text) = quantity_text(v) {
                positive_quantity(&text, &storage_path, errors);
            }
        }
    }
    if let Some(class) = present(spec, "storageClassName").and_then(Value::as_str) {
        if !class.is_empty() {
            class_name(class, &join(path, ".storageClassName"), errors);
        }
    }
    if let Some(mode) = present(spec, "volumeMode") {
        let mode = mode.as_str().unwrap_or("");
        if !VOLUME_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                join(path, ".volumeMode"),
                FieldError::string_value(mode),
                VOLUME_MODES,
            ));
        }
    }
    data_sources(spec, old_spec, opts.normalize_sources, path, errors);
    let attributes_on = VOLUME_ATTRIBUTES_CLASS.contains(opts.version)
        || old_spec.is_some_and(|o| present(o, "volumeAttributesClassName").is_some());
    if attributes_on {
        if let Some(class) = present(spec, "volumeAttributesClassName").and_then(Value::as_str) {
            if !class.is_empty() {
                class_name(class, &join(path, ".volumeAttributesClassName"), errors);
            }
        }
    }
}

fn access_modes_and_selector(
    version: KubeVersion,
    spec: &Value,
    old_spec: Option<&Value>,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let mut modes = Vec::new();
    access_modes(spec, path, "at least 1 access mode is required", &mut modes);
    // The server reports the empty list first, then the selector, then each mode.
    let (empty, rest): (Vec<_>, Vec<_>) = modes
        .into_iter()
        .partition(|e| e.error_type == super::super::ErrorType::Required);
    errors.extend(empty);
    if let Some(sel) = present(spec, "selector") {
        // pkg/apis/core/validation `ValidationOptionsForPersistentVolumeClaim`: a stored
        // claim whose selector already broke a rule keeps invalid label values allowed.
        let stored_invalid = old_spec
            .and_then(|o| present(o, "selector"))
            .is_some_and(|old| selector::is_invalid(old, version));
        selector::validate_with(
            sel,
            &join(path, ".selector"),
            selector::Values::allowing_invalid_if(stored_invalid),
            version,
            errors,
        );
    }
    errors.extend(rest);
}

/// `validateDataSource` / `validateDataSourceRef`, then how the two must agree.
fn data_sources(
    spec: &Value,
    old_spec: Option<&Value>,
    normalize: bool,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    // A stored claim with an API group in either reference keeps invalid groups allowed.
    let allow_invalid_group = old_spec.is_some_and(|o| {
        ["dataSource", "dataSourceRef"]
            .iter()
            .any(|k| present(o, k).and_then(|r| present(r, "apiGroup")).is_some())
    });
    let (source, source_ref) = if normalize {
        normalized_sources(spec)
    } else {
        (
            present(spec, "dataSource").cloned(),
            present(spec, "dataSourceRef").cloned(),
        )
    };
    let (source, source_ref) = (source.as_ref(), source_ref.as_ref());
    for (reference, key) in [(source, "dataSource"), (source_ref, "dataSourceRef")] {
        let Some(r) = reference else { continue };
        let at = format!("{path}.{key}");
        if text(r, "name").is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        }
        let kind = text(r, "kind");
        if kind.is_empty() {
            errors.push(FieldError::required(join(&at, ".kind"), ""));
        }
        let group = text(r, "apiGroup");
        if group.is_empty() && kind != "PersistentVolumeClaim" {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(kind),
                "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
            ));
        }
        if !group.is_empty() && !allow_invalid_group {
            for msg in formats::dns1123_subdomain(group) {
                errors.push(FieldError::invalid(
                    join(&at, ".apiGroup"),
                    FieldError::string_value(group),
                    msg,
                ));
            }
        }
        let namespace = text(r, "namespace");
        if key == "dataSourceRef" && !namespace.is_empty() {
            for msg in formats::dns1123_label(namespace) {
                errors.push(FieldError::invalid(
                    join(&at, ".namespace"),
                    FieldError::string_value(namespace),
                    msg,
                ));
            }
        }
    }
    let ref_namespace = source_ref.map_or("", |r| text(r, "namespace"));
    let detail = if !ref_namespace.is_empty() {
        source.map(|_| "may not be specified when dataSourceRef.namespace is specified")
    } else {
        match (source, source_ref) {
            (Some(s), Some(r)) if !same_reference(s, r) => Some("must match dataSourceRef"),
            _ => None,
        }
    };
    if let Some(detail) = detail {
        errors.push(FieldError::invalid(
            path,
            quoted_path(&join(path, ".dataSource")),
            detail,
        ));
    }
}

/// The two references after the strategy's `NormalizeDataSources` (AnyVolumeDataSource, on in
/// every supported release): either one given alone is copied to the other, a reference with a
/// namespace excepted.
fn normalized_sources(spec: &Value) -> (Option<Value>, Option<Value>) {
    let copy = |r: &Value| {
        let mut m = Map::default();
        for key in ["apiGroup", "kind", "name"] {
            if let Some(v) = present(r, key) {
                m.insert(key.into(), v.clone());
            }
        }
        Value::Map(m)
    };
    match (present(spec, "dataSource"), present(spec, "dataSourceRef")) {
        (Some(s), None) => (Some(s.clone()), Some(copy(s))),
        (None, Some(r)) if text(r, "namespace").is_empty() => (Some(copy(r)), Some(r.clone())),
        (s, r) => (s.cloned(), r.cloned()),
    }
}

/// `isDataSourceEqualDataSourceRef`: the same group (both absent, or equal), kind and name.
fn same_reference(a: &Value, b: &Value) -> bool {
    present(a, "apiGroup") == present(b, "apiGroup")
        && text(a, "kind") == text(b, "kind")
        && text(a, "name") == text(b, "name")
}

/// A `*field.Path` as the bad value: its fields are unexported, so JSON (1.34+) prints `{}`;
/// `%#v` before prints the struct with its parent's unknowable address.
fn quoted_path(path: &str) -> BadValue {
    let (parent, name) = path.rsplit_once('.').unwrap_or(("", path));
    let parent = if parent.is_empty() { "nil" } else { "0x…" };
    BadValue::GoValue {
        value: Value::Map(Map::default()),
        go_syntax: format!(
            "field.Path{{name:{}, index:\"\", parent:(*field.Path)({parent})}}",
            go_quote(name)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const PVC: &str = r#"{"apiVersion":"v1","kind":"PersistentVolumeClaim",
      "metadata":{"name":"data","namespace":"default"},"spec":SPEC}"#;

    fn pvc(spec: &str) -> String {
        PVC.replace("SPEC", spec)
    }

    #[test]
    fn a_claim_needs_access_modes_and_storage() {
        assert_eq!(
            refusal(&pvc("{}"), None, 37).unwrap(),
            "The PersistentVolumeClaim \"data\" is invalid: \n* spec.accessModes: Required value: at least 1 access mode is required\n* spec.resources[storage]: Required value"
        );
        let ok = r#"{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}"#;
        assert_eq!(refusal(&pvc(ok), None, 37), None);
    }

    #[test]
    fn access_modes_are_an_enum_and_read_write_once_pod_is_alone() {
        let spec = r#"{"accessModes":["ReadWriteOncePod","ReadWriteOnce","RWO"],
          "resources":{"requests":{"storage":"0Gi"}},"volumeMode":"Raw"}"#;
        assert_eq!(
            refusal(&pvc(spec), None, 37).unwrap(),
            "The PersistentVolumeClaim \"data\" is invalid: \n* spec.accessModes: Unsupported value: \"RWO\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"\n* spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes\n* spec.resources[storage]: Invalid value: \"0\": must be greater than zero\n* spec.volumeMode: Unsupported value: \"Raw\": supported values: \"Block\", \"Filesystem\""
        );
    }

    #[test]
    fn storage_class_and_data_sources() {
        let spec = r#"{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},
          "storageClassName":"Fast_SSD","dataSourceRef":{"kind":"VolumeSnapshot","name":"snap"}}"#;
        assert_eq!(
            refusal(&pvc(spec), None, 37).unwrap(),
            "The PersistentVolumeClaim \"data\" is invalid: \n* spec.storageClassName: Invalid value: \"Fast_SSD\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n* spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup\n* spec.dataSourceRef: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"
        );
        // Given as `dataSource` alone, a source other than a claim or a snapshot is dropped
        // (`EnforceDataSourceBackwardsCompatibility`), not refused.
        let legacy = r#"{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},
          "dataSource":{"kind":"VolumeSnapshot","name":"snap"}}"#;
        assert_eq!(refusal(&pvc(legacy), None, 37), None);
        let mismatch = r#"{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},
          "dataSource":{"kind":"PersistentVolumeClaim","name":"a"},
          "dataSourceRef":{"kind":"PersistentVolumeClaim","name":"b"}}"#;
        assert_eq!(
            refusal(&pvc(mismatch), None, 37).unwrap(),
            "The PersistentVolumeClaim \"data\" is invalid: spec: Invalid value: {}: must match dataSourceRef"
        );
    }
}
