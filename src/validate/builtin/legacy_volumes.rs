//! The deprecated in-tree volume plugins' sources (gcePersistentDisk, awsElasticBlockStore,
//! iscsi, glusterfs, flocker, rbd, cinder, cephfs, quobyte, fc, flexVolume, azureFile,
//! vsphereVolume, photonPersistentDisk, portworxVolume, azureDisk, storageos, scaleIO), as
//! k8s.io/kubernetes pkg/apis/core/validation checks them (`validate<Plugin>VolumeSource`): mostly
//! required fields; the IQN and registry formats are not transcribed.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use super::volume_source::required;
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;

/// A disk partition: the check allows 0, the message says 1 (`pdPartitionErrorMsg`).
fn partition(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(Value::Int(n)) = v.get("partition") {
        if !(0..=255).contains(n) {
            errors.push(FieldError::invalid(
                join(at, ".partition"),
                BadValue::Value(Value::Int(*n)),
                formats::inclusive_range(1, 255),
            ));
        }
    }
}

pub(super) fn pd_name_and_partition(
    v: &Value,
    at: &str,
    _: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    required(v, at, &["pdName"], errors);
    partition(v, at, errors);
}

pub(super) fn volume_id_and_partition(
    v: &Value,
    at: &str,
    _: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    required(v, at, &["volumeID"], errors);
    partition(v, at, errors);
}

/// `validateISCSIVolumeSource` without the IQN regular expressions.
pub(super) fn iscsi(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["targetPortal", "iqn"], errors);
    let iqn = text(v, "iqn");
    if !iqn.is_empty() && !["iqn", "eui", "naa"].iter().any(|p| iqn.starts_with(p)) {
        errors.push(FieldError::invalid(
            join(at, ".iqn"),
            FieldError::string_value(iqn),
            "must be valid format starting with iqn, eui, or naa",
        ));
    }
    iscsi_lun(v, at, errors);
    chap_secret_ref(v, at, errors);
}

/// An iSCSI `lun`, 0 to 255 (pod volumes and PersistentVolumes alike).
pub(super) fn iscsi_lun(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(Value::Int(lun)) = v.get("lun") {
        if !(0..=255).contains(lun) {
            errors.push(FieldError::invalid(
                join(at, ".lun"),
                BadValue::Value(Value::Int(*lun)),
                formats::inclusive_range(0, 255),
            ));
        }
    }
}

/// CHAP authentication (discovery or session) needs the `secretRef` that holds its credentials.
pub(super) fn chap_secret_ref(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let chap = |k| v.get(k).and_then(Value::as_bool) == Some(true);
    if (chap("chapAuthDiscovery") || chap("chapAuthSession")) && present(v, "secretRef").is_none() {
        errors.push(FieldError::required(join(at, ".secretRef"), ""));
    }
}

pub(super) fn glusterfs(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["endpoints", "path"], errors);
}

pub(super) fn flocker(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let (name, uuid) = (text(v, "datasetName"), text(v, "datasetUUID"));
    if name.is_empty() && uuid.is_empty() {
        errors.push(FieldError::required(
            at,
            "one of datasetName and datasetUUID is required",
        ));
    }
    if !name.is_empty() && !uuid.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value("resource"),
            "datasetName and datasetUUID can not be specified simultaneously",
        ));
    }
    if name.contains('/') {
        errors.push(FieldError::invalid(
            join(at, ".datasetName"),
            FieldError::string_value(name),
            "must not contain '/'",
        ));
    }
}

pub(super) fn rbd(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["monitors", "image"], errors);
}

pub(super) fn cinder(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["volumeID"], errors);
    if let Some(r) = present(v, "secretRef") {
        required(r, &join(at, ".secretRef"), &["name"], errors);
    }
}

pub(super) fn cephfs(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["monitors"], errors);
}

/// `validateQuobyteVolumeSource` without the host:port parsing of the registry.
pub(super) fn quobyte(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    if text(v, "registry").is_empty() {
        errors.push(FieldError::required(
            join(at, ".registry"),
            "must be a host:port pair or multiple pairs separated by commas",
        ));
    } else if text(v, "tenant").len() >= 65 {
        errors.push(FieldError::required(
            join(at, ".tenant"),
            "must be a UUID and may not exceed a length of 64 characters",
        ));
    }
    required(v, at, &["volume"], errors);
}

/// `validateFCVolumeSource` (a lun out of range; both WWN lists at once is not checked).
pub(super) fn fc(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let wwns = !items(v.get("targetWWNs")).is_empty();
    if !wwns && items(v.get("wwids")).is_empty() {
        errors.push(FieldError::required(
            join(at, ".targetWWNs"),
            "must specify either targetWWNs or wwids, but not both",
        ));
    }
    if wwns {
        match v.get("lun") {
            None | Some(Value::Null) => errors.push(FieldError::required(
                join(at, ".lun"),
                "lun is required if targetWWNs is specified",
            )),
            Some(Value::Int(lun)) if !(0..=255).contains(lun) => {
                errors.push(FieldError::invalid(
                    join(at, ".lun"),
                    BadValue::Value(Value::Int(*lun)),
                    formats::inclusive_range(0, 255),
                ));
            }
            Some(_) => {}
        }
    }
}

/// `validateFlexVolumeSource`: a driver, and no option in the kubernetes.io or k8s.io
/// namespaces (options sorted, where Go ranges over the map).
pub(super) fn flex_volume(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["driver"], errors);
    let mut keys: Vec<&String> = v
        .get("options")
        .and_then(Value::as_map)
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    keys.sort();
    for k in keys {
        let namespace = k.split_once('/').map_or(k.as_str(), |(ns, _)| ns);
        let normalized = format!(".{}", namespace.to_lowercase());
        if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
            errors.push(FieldError::invalid(
                format!("{at}.options[{k}]"),
                FieldError::string_value(k),
                "kubernetes.io and k8s.io namespaces are reserved",
            ));
        }
    }
}

pub(super) fn azure_file(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["secretName", "shareName"], errors);
}

pub(super) fn vsphere_volume(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["volumePath"], errors);
}

pub(super) fn photon_persistent_disk(
    v: &Value,
    at: &str,
    _: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    required(v, at, &["pdID"], errors);
}

pub(super) fn portworx_volume(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["volumeID"], errors);
}

/// `validateAzureDisk`: names, the caching mode and kind enums, the disk URI's form per kind.
pub(super) fn azure_disk(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["diskName", "diskURI"], errors);
    let enumerated = |key: &str, supported: &[&str], errors: &mut Vec<FieldError>| {
        if let Some(value) = v.get(key).and_then(Value::as_str) {
            if !supported.contains(&value) {
                errors.push(FieldError::not_supported(
                    format!("{at}.{key}"),
                    FieldError::string_value(value),
                    supported,
                ));
            }
        }
    };
    enumerated("cachingMode", &["None", "ReadOnly", "ReadWrite"], errors);
    enumerated("kind", &["Dedicated", "Managed", "Shared"], errors);
    let Some(kind) = v.get("kind").and_then(Value::as_str) else {
        return;
    };
    let uri = text(v, "diskURI");
    let (ok, form) = if kind == "Managed" {
        (
            uri.starts_with("/subscriptions/"),
            "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}",
        )
    } else {
        (
            uri.starts_with("https://"),
            "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd",
        )
    };
    if !ok {
        errors.push(FieldError::not_supported(
            join(at, ".diskURI"),
            FieldError::string_value(uri),
            &[form],
        ));
    }
}

pub(super) fn storageos(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let dns_label = |key: &str, errors: &mut Vec<FieldError>| {
        let value = text(v, key);
        for msg in formats::dns1123_label(value) {
            errors.push(FieldError::invalid(
                format!("{at}.{key}"),
                FieldError::string_value(value),
                msg,
            ));
        }
    };
    if text(v, "volumeName").is_empty() {
        errors.push(FieldError::required(join(at, ".volumeName"), ""));
    } else {
        dns_label("volumeName", errors);
    }
    if !text(v, "volumeNamespace").is_empty() {
        dns_label("volumeNamespace", errors);
    }
    if let Some(r) = present(v, "secretRef") {
        required(r, &join(at, ".secretRef"), &["name"], errors);
    }
}

pub(super) fn scale_io(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["gateway", "system", "volumeName"], errors);
}
