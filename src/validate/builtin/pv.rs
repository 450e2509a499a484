//! A PersistentVolume's spec, as k8s.io/kubernetes pkg/apis/core/validation/validation.go
//! `ValidatePersistentVolumeSpec` checks it for a stored (not inline) volume: access modes,
//! capacity, reclaim policy, node affinity, exactly one volume source ([`super::pv_source`]),
//! class and mode; on update then `ValidatePersistentVolumeUpdate` ([`super::pv_update`]).

use super::super::{BadValue, FieldError, Write};
use super::fields::{present, quantity_text, text};
use super::pvc_spec::{access_modes, positive_quantity, VOLUME_MODES};
use super::{affinity, pv_source};
use crate::defaults::quantity::{Format, Quantity};
use crate::kube::VersionRange;
use crate::value::{Map, Value};

/// `supportedReclaimPolicy`, sorted.
const RECLAIM_POLICIES: &[&str] = &["Delete", "Recycle", "Retain"];

/// As for claims: `volumeAttributesClassName` is validated once the gate is on by default.
pub(super) const VOLUME_ATTRIBUTES_CLASS: VersionRange = VersionRange::since(34);

/// `ValidatePersistentVolume` (create), and on update the same checks followed by
/// `ValidatePersistentVolumeUpdate`'s immutability rules.
pub fn persistent_volume(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let spec = object.get("spec").unwrap_or(&empty);
    access_modes(spec, "spec", "", errors);
    capacity(spec, errors);
    let policy = text(spec, "persistentVolumeReclaimPolicy");
    if !policy.is_empty() && !RECLAIM_POLICIES.contains(&policy) {
        errors.push(FieldError::not_supported(
            "spec.persistentVolumeReclaimPolicy",
            FieldError::string_value(policy),
            RECLAIM_POLICIES,
        ));
    }
    // validateVolumeNodeAffinity, with `AllowInvalidLabelValueInRequiredNodeAffinity` from the
    // stored volume (`ValidationOptionsForPersistentVolume`).
    let node_affinity = present(spec, "nodeAffinity");
    if let Some(a) = node_affinity {
        match present(a, "required") {
            Some(required) => {
                let stored_terms = w.live.and_then(|old| {
                    old.get_path(&["spec", "nodeAffinity", "required", "nodeSelectorTerms"])
                });
                let check_values = affinity::required_values_checked(stored_terms, w.version());
                let at = "spec.nodeAffinity.required";
                affinity::node_selector(required, at, check_values, w.version(), errors);
            }
            None => errors.push(FieldError::required(
                "spec.nodeAffinity.required",
                "must specify required node constraints",
            )),
        }
    }
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let count = pv_source::check(spec, name, w.version(), errors, |key, errors| {
        if key == "local" && node_affinity.is_none() {
            errors.push(FieldError::required(
                "spec.nodeAffinity",
                "Local volume requires node affinity",
            ));
        }
    });
    if count == 0 {
        errors.push(FieldError::required("spec", "must specify a volume type"));
    }
    let host_path = spec.get_path(&["hostPath", "path"]).and_then(Value::as_str);
    if host_path.is_some_and(clean_is_root) && policy == "Recycle" {
        errors.push(FieldError::forbidden(
            "spec.persistentVolumeReclaimPolicy",
            "may not be 'recycle' for a hostPath mount of '/'",
        ));
    }
    let class = text(spec, "storageClassName");
    if !class.is_empty() {
        for msg in super::super::formats::dns1123_subdomain(class) {
            errors.push(FieldError::invalid(
                "spec.storageClassName",
                FieldError::string_value(class),
                msg,
            ));
        }
    }
    if let Some(mode) = present(spec, "volumeMode") {
        let mode = mode.as_str().unwrap_or("");
        if !VOLUME_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                "spec.volumeMode",
                FieldError::string_value(mode),
                VOLUME_MODES,
            ));
        }
    }
    let attributes_on = VOLUME_ATTRIBUTES_CLASS.contains(w.version())
        || w.live.is_some_and(|old| {
            old.get_path(&["spec", "volumeAttributesClassName"])
                .is_some_and(|v| !v.is_null())
        });
    if let Some(class) = present(spec, "volumeAttributesClassName").filter(|_| attributes_on) {
        let class = class.as_str().unwrap_or("");
        if class.is_empty() {
            errors.push(FieldError::required(
                "spec.volumeAttributesClassName",
                "an empty string is disallowed",
            ));
        } else {
            for msg in super::super::formats::dns1123_subdomain(class) {
                errors.push(FieldError::invalid(
                    "spec.volumeAttributesClassName",
                    FieldError::string_value(class),
                    msg,
                ));
            }
        }
        if present(spec, "csi").is_none() {
            errors.push(FieldError::required(
                "spec.csi",
                "has to be specified when using volumeAttributesClassName",
            ));
        }
    }
    mount_option_annotation(object, spec, errors);
    if let Some(old) = w.live {
        let old_spec = old.get("spec").unwrap_or(&empty);
        super::pv_update::check(spec, old_spec, w.version(), errors);
    }
}

/// `api.MountOptionAnnotation`.
const MOUNT_OPTIONS_ANNOTATION: &str = "volume.beta.kubernetes.io/mount-options";
/// The volume sources that take mount options (pkg/volume/validation `checkMountOption`).
const MOUNTABLE_SOURCES: &[&str] = &[
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "nfs",
    "rbd",
    "quobyte",
    "iscsi",
    "cinder",
    "cephfs",
    "azureFile",
    "vsphereVolume",
    "azureDisk",
    "photonPersistentDisk",
];

/// pkg/volume/validation `ValidatePersistentVolume`, which the strategy runs after the core
/// rules: the mount-options annotation only on a volume type that takes mount options (its
/// path joins the key with a dot, as `Child` builds it).
fn mount_option_annotation(object: &Value, spec: &Value, errors: &mut Vec<FieldError>) {
    let annotated = object
        .get_path(&["metadata", "annotations", MOUNT_OPTIONS_ANNOTATION])
        .is_some();
    if annotated && !MOUNTABLE_SOURCES.iter().any(|s| present(spec, s).is_some()) {
        errors.push(FieldError::forbidden(
            format!("metadata.annotations.{MOUNT_OPTIONS_ANNOTATION}"),
            "may not specify mount options for this volume type",
        ));
    }
}

/// `path.Clean(p) == "/"`: only slashes and `.`/`..` segments.
fn clean_is_root(p: &str) -> bool {
    p.starts_with('/') && p.split('/').all(|s| matches!(s, "" | "." | ".."))
}

/// Capacity: required, exactly `storage`, each quantity a valid size above zero (keys sorted
/// where Go ranges over the map).
fn capacity(spec: &Value, errors: &mut Vec<FieldError>) {
    let list = present(spec, "capacity").and_then(Value::as_map);
    let len = list.map_or(0, Map::len);
    if len == 0 {
        errors.push(FieldError::required("spec.capacity", ""));
    }
    if list.is_none_or(|m| !m.contains_key("storage")) || len > 1 {
        errors.push(FieldError::not_supported(
            "spec.capacity",
            quoted_resource_list(list),
            &["storage"],
        ));
    }
    let mut entries: Vec<_> = list.into_iter().flatten().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    for (name, q) in entries {
        let Some(text) = quantity_text(q) else {
            continue;
        };
        let at = format!("spec.capacity[{name}]");
        if let Some(v) = integer_value(&text).filter(|v| *v < 0) {
            errors.push(FieldError::invalid(
                &at,
                BadValue::Value(Value::Int(v)),
                "must be a valid resource quantity",
            ));
        }
        positive_quantity(&text, &at, errors);
    }
}

/// `Quantity.Value()`: rounded away from zero to an integer.
pub(super) fn integer_value(text: &str) -> Option<i64> {
    let mut q = Quantity::parse(text)?;
    q.round_up(0)?;
    q.format = Format::DecimalExponent;
    let canonical = q.canonical()?;
    let (number, exponent) = canonical.split_once('e').unwrap_or((&canonical, "0"));
    let number: i128 = number.parse().ok()?;
    let value = number.checked_mul(10i128.checked_pow(exponent.parse().ok()?)?)?;
    i64::try_from(value).ok()
}

/// A `core.ResourceList`: JSON since 1.34 (canonical quantities, keys sorted); before, `%#v`
/// prints each `resource.Quantity`'s internals, which kssa shortens to `…`.
fn quoted_resource_list(list: Option<&Map>) -> BadValue {
    let Some(m) = list else {
        return BadValue::GoValue {
            value: Value::Null,
            go_syntax: "core.ResourceList(nil)".into(),
        };
    };
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut value = Map::default();
    for (k, q) in &entries {
        let text = quantity_text(q).unwrap_or_default();
        let shown = crate::defaults::quantity::canonicalize(&text).unwrap_or(text);
        value.insert((*k).clone(), Value::String(shown));
    }
    let go_syntax = if entries.is_empty() {
        "core.ResourceList{}".to_string()
    } else {
        "core.ResourceList{…}".to_string()
    };
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const PV: &str = r#"{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv1"},
      "spec":SPEC}"#;

    fn pv(spec: &str) -> String {
        PV.replace("SPEC", spec)
    }

    #[test]
    fn a_volume_needs_modes_capacity_and_one_source() {
        assert_eq!(
            refusal(&pv("{}"), None, 37).unwrap(),
            "The PersistentVolume \"pv1\" is invalid: \n* spec.accessModes: Required value\n* spec.capacity: Required value\n* spec.capacity: Unsupported value: null: supported values: \"storage\"\n* spec: Required value: must specify a volume type"
        );
        let ok = r#"{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"2Gi"},
          "hostPath":{"path":"/tmp/x","type":""},"persistentVolumeReclaimPolicy":"Delete"}"#;
        assert_eq!(refusal(&pv(ok), None, 37), None);
    }

    #[test]
    fn sources_policy_and_capacity_values() {
        let spec = r#"{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"-1Ki"},
          "hostPath":{"path":"/"},"nfs":{"server":"n","path":"/"},
          "persistentVolumeReclaimPolicy":"Recycle"}"#;
        assert_eq!(
            refusal(&pv(spec), None, 37).unwrap(),
            "The PersistentVolume \"pv1\" is invalid: \n* spec.capacity[storage]: Invalid value: -1024: must be a valid resource quantity\n* spec.capacity[storage]: Invalid value: \"-1Ki\": must be greater than zero\n* spec.nfs: Forbidden: may not specify more than 1 volume type\n* spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"
        );
        let local = r#"{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},
          "local":{"path":"/mnt/disk"},"persistentVolumeReclaimPolicy":"Keep"}"#;
        assert_eq!(
            refusal(&pv(local), None, 37).unwrap(),
            "The PersistentVolume \"pv1\" is invalid: \n* spec.persistentVolumeReclaimPolicy: Unsupported value: \"Keep\": supported values: \"Delete\", \"Recycle\", \"Retain\"\n* spec.nodeAffinity: Required value: Local volume requires node affinity"
        );
    }

    #[test]
    fn mount_options_annotation_needs_a_mountable_source() {
        let annotated = |source: &str| {
            PV.replace(r#""metadata":{"name":"pv1"}"#, r#""metadata":{"name":"pv1","annotations":{"volume.beta.kubernetes.io/mount-options":"ro"}}"#)
                .replace("SPEC", &format!(r#"{{"accessModes":["ReadWriteOnce"],"capacity":{{"storage":"1Gi"}},{source}}}"#))
        };
        assert_eq!(
            refusal(&annotated(r#""hostPath":{"path":"/data"}"#), None, 37).unwrap(),
            "The PersistentVolume \"pv1\" is invalid: metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type"
        );
        assert_eq!(
            refusal(
                &annotated(r#""nfs":{"server":"nfs","path":"/data"}"#),
                None,
                37
            ),
            None
        );
    }

    #[test]
    fn required_node_affinity_terms_are_validated() {
        let pv = |terms: &str| {
            format!(
                r#"{{"apiVersion":"v1","kind":"PersistentVolume","metadata":{{"name":"pv1"}},
                  "spec":{{"accessModes":["ReadWriteOnce"],"capacity":{{"storage":"1Gi"}},"local":{{"path":"/mnt"}},
                    "nodeAffinity":{{"required":{{"nodeSelectorTerms":{terms}}}}}}}}}"#
            )
        };
        assert_eq!(
            refusal_causes(&pv("[]"), None, 36),
            ["spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term"]
        );
        let spaced = pv(
            r#"[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["node 1"]}]}]"#,
        );
        assert!(refusal_causes(&spaced, None, 32).is_empty());
        let causes = refusal_causes(&spaced, None, 33);
        assert_eq!(causes.len(), 1);
        assert!(causes[0].starts_with("spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"node 1\""));
        // Kept when the stored volume already had it.
        let grown = spaced.replace("1Gi", "2Gi");
        assert!(refusal_causes(&grown, Some(&spaced), 36).is_empty());
    }
}
