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
use crate::validate::field::{join, typed_value};
use crate::validate::goprint::GoType;
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

/// The detail of a quobyte `registry` that is missing or no list of host:port pairs.
const REGISTRY_PAIRS: &str = "must be a host:port pair or multiple pairs separated by commas";

/// `validateQuobyteVolumeSource`: a registry of comma-separated host:port pairs (one error
/// per pair Go's `net.SplitHostPort` refuses), a tenant of at most 64 bytes, a volume.
pub(super) fn quobyte(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let registry = text(v, "registry");
    if registry.is_empty() {
        errors.push(FieldError::required(join(at, ".registry"), REGISTRY_PAIRS));
    } else if text(v, "tenant").len() >= 65 {
        errors.push(FieldError::required(
            join(at, ".tenant"),
            "must be a UUID and may not exceed a length of 64 characters",
        ));
    } else {
        for pair in registry.split(',') {
            if !splits_into_host_and_port(pair) {
                errors.push(FieldError::invalid(
                    join(at, ".registry"),
                    FieldError::string_value(registry),
                    REGISTRY_PAIRS,
                ));
            }
        }
    }
    required(v, at, &["volume"], errors);
}

/// Whether Go's `net.SplitHostPort` accepts `s`: a last colon before the port; a bracketed
/// host ends right before it; no other colon in an unbracketed host; no stray brackets.
fn splits_into_host_and_port(s: &str) -> bool {
    let Some(last_colon) = s.rfind(':') else {
        return false;
    };
    let (mut j, mut k) = (0, 0);
    if s.starts_with('[') {
        match s.find(']') {
            Some(end) if end + 1 == last_colon => (j, k) = (1, end + 1),
            _ => return false,
        }
    } else if s[..last_colon].contains(':') {
        return false;
    }
    !s[j..].contains('[') && !s[k..].contains(']')
}

/// `validateFCVolumeSource`: target WWNs or WWIDs, not both; a lun 0–255 with WWNs.
pub(super) fn fc(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let wwns = !items(v.get("targetWWNs")).is_empty();
    let wwids = !items(v.get("wwids")).is_empty();
    if !wwns && !wwids {
        errors.push(FieldError::required(
            join(at, ".targetWWNs"),
            "must specify either targetWWNs or wwids, but not both",
        ));
    }
    if wwns && wwids {
        let listed = v.get("targetWWNs").cloned().unwrap_or(Value::Null);
        errors.push(FieldError::invalid(
            join(at, ".targetWWNs"),
            typed_value(listed, &GoType::StringList),
            "targetWWNs and wwids can not be specified simultaneously",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fc_takes_wwns_or_wwids_not_both() {
        let v = crate::value::from_json_str(r#"{"targetWWNs":["a","b"],"wwids":["c"],"lun":0}"#)
            .unwrap();
        let messages = |minor: u8| {
            let version = KubeVersion::new(minor).unwrap();
            let mut errors = Vec::new();
            fc(&v, "spec.volumes[0].fc", version, &mut errors);
            errors
                .iter()
                .map(|e| e.message(version))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            messages(33),
            ["spec.volumes[0].fc.targetWWNs: Invalid value: []string{\"a\", \"b\"}: targetWWNs and wwids can not be specified simultaneously"]
        );
        assert_eq!(
            messages(34),
            ["spec.volumes[0].fc.targetWWNs: Invalid value: [\"a\",\"b\"]: targetWWNs and wwids can not be specified simultaneously"]
        );
    }

    #[test]
    fn registries_are_host_port_pairs_as_go_splits_them() {
        for ok in [
            "registry:7861",
            "138.68.74.142:7861",
            "[::1]:7861",
            "a:",
            ":1",
        ] {
            assert!(splits_into_host_and_port(ok), "{ok}");
        }
        for bad in [
            "UPPER", "a:b:c", "[::1]", "[::1]x:1", "a]:1", "[a:1", "x[y:1",
        ] {
            assert!(!splits_into_host_and_port(bad), "{bad}");
        }
    }
}
