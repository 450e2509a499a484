//! A pod volume's source, as k8s.io/kubernetes pkg/apis/core/validation `validateVolumeSource`
//! checks it: exactly one source, counted in the server's order, then that source's own rules
//! (secret, configMap, hostPath, nfs, csi, emptyDir, persistentVolumeClaim and the legacy
//! in-tree plugins here; downwardAPI and projected in [`super::projected`], ephemeral in
//! [`super::claim_template`]), and the relative-path and file-mode rules they share. The source
//! table, its counting and the rules of the shared types also serve a PersistentVolume's union
//! ([`super::pv_source`]), so the two cannot drift apart.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{items, present, quantity_text, text};
use super::projected::TokenPath;
use super::{claim_template, image_volume, legacy_volumes as legacy, projected};
use crate::defaults::quantity::Quantity;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::gofmt::go_quote;
use crate::value::Value;
use std::cmp::Ordering;

/// `fileModeErrorMsg`.
const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";
const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";
/// `supportedHostPathTypes`, sorted as `sets.List` sorts them (the unset type first).
const HOST_PATH_TYPES: &[&str] = &[
    "",
    "BlockDevice",
    "CharDevice",
    "Directory",
    "DirectoryOrCreate",
    "File",
    "FileOrCreate",
    "Socket",
];

/// A source's own rules, given its value and the path its errors are reported under.
pub(super) type Check = fn(&Value, &str, KubeVersion, &mut Vec<FieldError>);

/// One volume source (of a pod volume or a PersistentVolume): its field, the child the "more
/// than 1" refusal names (empty: never refused, as a PersistentVolume's `flexVolume`), the child
/// its own errors are reported under (the server's paths differ for a few: `downwarAPI`,
/// `cephFS`, `persistentDisk`), and its rules.
pub(super) struct Source {
    pub(super) key: &'static str,
    pub(super) refused_as: &'static str,
    pub(super) checked_as: &'static str,
    pub(super) check: Check,
}

pub(super) const fn source(key: &'static str, check: Check) -> Source {
    Source {
        key,
        refused_as: key,
        checked_as: key,
        check,
    }
}

/// Both unions report a gcePersistentDisk's errors under `persistentDisk`.
pub(super) const GCE_PERSISTENT_DISK: Source = Source {
    checked_as: "persistentDisk",
    ..source("gcePersistentDisk", legacy::pd_name_and_partition)
};

/// Both unions refuse a second source that is cephfs as `cephFS`.
pub(super) const CEPHFS: Source = Source {
    refused_as: "cephFS",
    ..source("cephfs", legacy::cephfs)
};

/// The sources in the order `validateVolumeSource` tests them (the order decides which one
/// counts and which are refused).
const SOURCES: &[Source] = &[
    source("emptyDir", empty_dir),
    source("hostPath", host_path),
    source("gitRepo", git_repo),
    GCE_PERSISTENT_DISK,
    source("awsElasticBlockStore", legacy::volume_id_and_partition),
    source("secret", secret),
    source("nfs", nfs),
    source("iscsi", legacy::iscsi),
    source("glusterfs", legacy::glusterfs),
    source("flocker", legacy::flocker),
    source("persistentVolumeClaim", persistent_volume_claim),
    source("rbd", legacy::rbd),
    source("cinder", legacy::cinder),
    CEPHFS,
    source("quobyte", legacy::quobyte),
    Source {
        refused_as: "downwarAPI",
        ..source("downwardAPI", projected::downward_api_volume)
    },
    source("fc", legacy::fc),
    source("flexVolume", legacy::flex_volume),
    source("configMap", config_map),
    source("azureFile", legacy::azure_file),
    source("vsphereVolume", legacy::vsphere_volume),
    source("photonPersistentDisk", legacy::photon_persistent_disk),
    source("portworxVolume", legacy::portworx_volume),
    source("azureDisk", legacy::azure_disk),
    source("storageos", legacy::storageos),
    source("projected", projected::projected_volume),
    source("scaleIO", legacy::scale_io),
    source("csi", csi),
    source("ephemeral", claim_template::ephemeral),
    source("image", image_volume::image),
];

/// `validateVolumeSource` for the volume at `path` (`spec.volumes[0]`).
/// `non_local_token_path` is `AllowNonLocalProjectedTokenPath`, the one pod option a source
/// reads. `pod_name` is the Pod's name (`None` for a template): an ephemeral volume's claim,
/// `<pod>-<volume>`, must then be a valid claim name.
pub fn check(
    volume: &Value,
    path: &str,
    non_local_token_path: bool,
    pod_name: Option<&str>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let count = count_sources(SOURCES, volume, path, errors, |s, value, at, errors| {
        if s.key == "projected" && non_local_token_path {
            projected::projected_volume_with(value, at, TokenPath::AnyAllowed, version, errors);
        } else {
            (s.check)(value, at, version, errors);
        }
        if s.key == "ephemeral" {
            ephemeral_claim_name(volume, path, pod_name, errors);
        }
    });
    if count == 0 {
        errors.push(FieldError::required(path, "must specify a volume type"));
    }
}

/// The claim a Pod's ephemeral volume creates is named `<pod>-<volume>`
/// (`validateVolumeSource`, checked with `ValidatePersistentVolumeName`); skipped, as upstream
/// does, while either name is unknown.
fn ephemeral_claim_name(
    volume: &Value,
    path: &str,
    pod_name: Option<&str>,
    errors: &mut Vec<FieldError>,
) {
    let volume_name = text(volume, "name");
    let Some(pod_name) = pod_name.filter(|n| !n.is_empty() && !volume_name.is_empty()) else {
        return;
    };
    let claim = ephemeral_claim(pod_name, volume_name);
    for msg in formats::dns1123_subdomain(&claim) {
        errors.push(FieldError::invalid(
            format!("{path}.name"),
            FieldError::string_value(volume_name),
            format!("PVC name {}: {msg}", go_quote(&claim)),
        ));
    }
}

/// The name of the claim the ephemeral volume `volume` of the Pod `pod` gets.
pub(super) fn ephemeral_claim(pod: &str, volume: &str) -> String {
    format!("{pod}-{volume}")
}

/// Goes through `sources` in order as the server does: the first one `holder` sets counts and
/// `check_counted` checks it at `{path}.{checked_as}`; a later one is refused as one too many,
/// unless it is never refused (then it counts and is checked as well). Returns how many counted.
pub(super) fn count_sources(
    sources: &[Source],
    holder: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
    mut check_counted: impl FnMut(&Source, &Value, &str, &mut Vec<FieldError>),
) -> usize {
    let mut count = 0;
    for s in sources {
        let Some(value) = present(holder, s.key) else {
            continue;
        };
        if count > 0 && !s.refused_as.is_empty() {
            errors.push(FieldError::forbidden(
                format!("{path}.{}", s.refused_as),
                MORE_THAN_ONE,
            ));
            continue;
        }
        count += 1;
        check_counted(s, value, &format!("{path}.{}", s.checked_as), errors);
    }
    count
}

// ---- paths and modes shared by the sources ----

/// `validatePathNoBacksteps`: no `..` element (one error however many).
pub(super) fn no_backsteps(p: &str, at: &str, errors: &mut Vec<FieldError>) {
    if p.split('/').any(|part| part == "..") {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(p),
            "must not contain '..'",
        ));
    }
}

/// `validateLocalDescendingPath`: relative, without backsteps.
pub(super) fn local_descending(p: &str, at: &str, errors: &mut Vec<FieldError>) {
    if p.starts_with('/') {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(p),
            "must be a relative path",
        ));
    }
    no_backsteps(p, at, errors);
}

/// `ValidateLocalNonReservedPath`: [`local_descending`], and not starting with `..` (unless
/// the backstep check already said so).
pub(super) fn local_non_reserved(p: &str, at: &str, errors: &mut Vec<FieldError>) {
    local_descending(p, at, errors);
    if p.starts_with("..") && !p.starts_with("../") {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(p),
            "must not start with '..'",
        ));
    }
}

/// A `defaultMode` or `mode`: 0 to 0777.
pub(super) fn file_mode(v: Option<&Value>, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(Value::Int(mode)) = v {
        if !(0..=0o777).contains(mode) {
            errors.push(FieldError::invalid(
                at,
                BadValue::Value(Value::Int(*mode)),
                FILE_MODE_MSG,
            ));
        }
    }
}

/// `validateKeyToPath`: a secret or config map item.
pub(super) fn key_to_path(item: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if text(item, "key").is_empty() {
        errors.push(FieldError::required(join(at, ".key"), ""));
    }
    let p = text(item, "path");
    if p.is_empty() {
        errors.push(FieldError::required(join(at, ".path"), ""));
    }
    local_non_reserved(p, &join(at, ".path"), errors);
    file_mode(item.get("mode"), &join(at, ".mode"), errors);
}

/// `field.Required` for each of `keys` that is empty (a string or a list).
pub(super) fn required(v: &Value, at: &str, keys: &[&str], errors: &mut Vec<FieldError>) {
    for key in keys {
        let empty = match v.get(key) {
            Some(Value::String(s)) => s.is_empty(),
            Some(Value::List(l)) => l.is_empty(),
            None | Some(Value::Null) => true,
            Some(_) => false,
        };
        if empty {
            errors.push(FieldError::required(format!("{at}.{key}"), ""));
        }
    }
}

// ---- the sources ----

/// A negative `sizeLimit`.
fn empty_dir(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    let limit = v.get("sizeLimit").and_then(quantity_text);
    let negative = limit
        .and_then(|t| Quantity::parse(&t))
        .and_then(|q| q.compare(&Quantity::parse("0")?));
    if negative == Some(Ordering::Less) {
        errors.push(FieldError::forbidden(
            join(at, ".sizeLimit"),
            "SizeLimit field must be a valid resource quantity",
        ));
    }
}

/// A required `path` without backsteps, as `validateLocalVolumeSource` checks it and
/// `validateHostPathVolumeSource` starts; false when it is missing (the host path's type is
/// then not looked at).
pub(super) fn backstep_free_path(v: &Value, at: &str, errors: &mut Vec<FieldError>) -> bool {
    let p = text(v, "path");
    if p.is_empty() {
        errors.push(FieldError::required(join(at, ".path"), ""));
        return false;
    }
    no_backsteps(p, &join(at, ".path"), errors);
    true
}

pub(super) fn host_path(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    if !backstep_free_path(v, at, errors) {
        return;
    }
    if let Some(kind) = v.get("type").and_then(Value::as_str) {
        if !HOST_PATH_TYPES.contains(&kind) {
            errors.push(FieldError::not_supported(
                join(at, ".type"),
                FieldError::string_value(kind),
                HOST_PATH_TYPES,
            ));
        }
    }
}

/// `validateGitRepoVolumeSource`: a repository, and a directory within the volume.
fn git_repo(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["repository"], errors);
    local_descending(text(v, "directory"), &join(at, ".directory"), errors);
}

/// `validateSecretVolumeSource`: a secret name, the default mode and each item.
fn secret(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["secretName"], errors);
    file_mode(v.get("defaultMode"), &join(at, ".defaultMode"), errors);
    for (i, item) in items(v.get("items")).iter().enumerate() {
        key_to_path(item, &format!("{at}.items[{i}]"), errors);
    }
}

/// `validateConfigMapVolumeSource`: as a secret's, with the config map's name.
fn config_map(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["name"], errors);
    file_mode(v.get("defaultMode"), &join(at, ".defaultMode"), errors);
    for (i, item) in items(v.get("items")).iter().enumerate() {
        key_to_path(item, &format!("{at}.items[{i}]"), errors);
    }
}

/// `validateNFSVolumeSource`: a server and an absolute path.
pub(super) fn nfs(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["server", "path"], errors);
    let p = text(v, "path");
    if !p.starts_with('/') {
        errors.push(FieldError::invalid(
            join(at, ".path"),
            FieldError::string_value(p),
            "must be an absolute path",
        ));
    }
}

/// `validatePersistentClaimVolumeSource`: a claim name.
fn persistent_volume_claim(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["claimName"], errors);
}

/// `validateCSIVolumeSource`: `ValidateCSIDriverName` (an empty name is also not a DNS
/// subdomain), and the node publish secret's name (reported at `csi.name`).
fn csi(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    csi_driver_name(v, at, version, errors);
    if let Some(r) = present(v, "nodePublishSecretRef") {
        let name = text(r, "name");
        if name.is_empty() {
            errors.push(FieldError::required(
                join(at, ".nodePublishSecretRef.name"),
                "",
            ));
        } else {
            for msg in formats::dns1123_subdomain(name) {
                errors.push(FieldError::invalid(
                    join(at, ".name"),
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
    }
}

/// `ValidateCSIDriverName` of a csi source's `driver`, for pod volumes and PersistentVolumes
/// alike (lowercased first, so only the form is judged, not the case).
pub(super) fn csi_driver_name(
    v: &Value,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    driver_name(text(v, "driver"), &join(at, ".driver"), version, errors);
}

/// `ValidateCSIDriverName` returns after `Required value` from 1.35 (read in the 1.34 and 1.35
/// sources); before, an empty name also got the DNS subdomain message.
const EMPTY_DRIVER_NAME_ALONE: VersionRange = VersionRange::since(35);

/// `ValidateCSIDriverName`: required, at most 63 bytes, a DNS subdomain once lowercased.
pub(super) fn driver_name(
    driver: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if driver.is_empty() {
        errors.push(FieldError::required(at, ""));
        // From 1.35 `ValidateCSIDriverName` stops at a missing name.
        if EMPTY_DRIVER_NAME_ALONE.contains(version) {
            return;
        }
    }
    if driver.len() > 63 {
        errors.push(FieldError::too_long(at, 63, version));
    }
    for msg in formats::dns1123_subdomain(&driver.to_lowercase()) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(driver),
            msg,
        ));
    }
}
