//! The storage defaulters: core/v1 `SetObjectDefaults_PersistentVolume` and
//! storage.k8s.io/v1 `SetDefaults_StorageClass`, `SetDefaults_CSIDriver` and the generated
//! `SetObjectDefaults_VolumeAttachment` walk (pkg/apis/core/v1 and pkg/apis/storage/v1
//! `defaults.go`, `zz_generated.defaults.go`; the same in 1.30–1.36).

use super::rules::{
    child, round_resource_list, set_defaults, Bool, Lit, Str, PENDING, VOLUME_SOURCES,
};
use crate::value::{Map, Value};

const STORAGE_CLASS: &[(&str, Lit)] = &[
    ("reclaimPolicy", Str("Delete")),
    ("volumeBindingMode", Str("Immediate")),
];

/// `SetDefaults_CSIDriver`. `seLinuxMount` is defaulted while SELinuxMountReadWriteOncePod is
/// on, which it is by default in every release from 1.30 (beta) and locked from 1.36 (GA).
/// `preventPodSchedulingIfMissing` (1.36, behind VolumeLimitScaling, alpha and off) is not.
const CSI_DRIVER: &[(&str, Lit)] = &[
    ("attachRequired", Bool(true)),
    ("podInfoOnMount", Bool(false)),
    ("storageCapacity", Bool(false)),
    ("fsGroupPolicy", Str("ReadWriteOnceWithFSType")),
    ("requiresRepublish", Bool(false)),
    ("seLinuxMount", Bool(false)),
];

const PERSISTENT_VOLUME: &[(&str, Lit)] = &[
    ("persistentVolumeReclaimPolicy", Str("Retain")),
    ("volumeMode", Str("Filesystem")),
];

pub(super) fn storage_class(obj: &mut Map) {
    set_defaults(Some(obj), STORAGE_CLASS);
}

pub(super) fn csi_driver(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), CSI_DRIVER);
    let modes = spec.get("volumeLifecycleModes").and_then(Value::as_list);
    if modes.is_none_or(Vec::is_empty) {
        spec.insert(
            "volumeLifecycleModes".into(),
            Value::List(vec![Value::String("Persistent".into())].into()),
        );
    }
}

pub(super) fn persistent_volume(obj: &mut Map) {
    if let Some(spec) = child(obj, "spec") {
        set_defaults(Some(&mut *spec), PERSISTENT_VOLUME);
        persistent_volume_spec(spec);
    }
    set_defaults(child(obj, "status"), PENDING);
}

/// A VolumeAttachment's inline volume gets the walk of a PersistentVolume's spec, not
/// `SetDefaults_PersistentVolume` (no reclaim policy or volume mode).
pub(super) fn volume_attachment(obj: &mut Map) {
    let inline = child(obj, "spec")
        .and_then(|s| child(s, "source"))
        .and_then(|s| child(s, "inlineVolumeSpec"));
    if let Some(spec) = inline {
        persistent_volume_spec(spec);
    }
}

/// The capacity rounded up to milli precision and the volume sources' own defaults (a
/// persistent volume source has the host path, iSCSI, RBD, Azure disk and ScaleIO ones of a
/// pod volume, with the same values).
fn persistent_volume_spec(spec: &mut Map) {
    round_resource_list(spec, "capacity");
    for (source, table) in VOLUME_SOURCES {
        set_defaults(child(spec, source), table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(json: &str) -> Map {
        let v: Value = serde_json::from_str(json).unwrap();
        v.as_map().unwrap().clone()
    }

    #[test]
    fn csi_driver_defaults_fill_only_what_is_unset() {
        let mut spec = map(r#"{"attachRequired":false,"volumeLifecycleModes":[]}"#);
        csi_driver(Some(&mut spec));
        let got = serde_json::to_string(&Value::Map(spec)).unwrap();
        assert_eq!(
            got,
            r#"{"attachRequired":false,"volumeLifecycleModes":["Persistent"],"podInfoOnMount":false,"storageCapacity":false,"fsGroupPolicy":"ReadWriteOnceWithFSType","requiresRepublish":false,"seLinuxMount":false}"#
        );
    }

    #[test]
    fn persistent_volume_sources_and_capacity() {
        let mut pv = map(
            r#"{"spec":{"capacity":{"storage":"0.0001"},"rbd":{"monitors":["m"],"image":"i"}}}"#,
        );
        persistent_volume(&mut pv);
        let spec = pv.get("spec").unwrap();
        assert_eq!(
            spec.get("persistentVolumeReclaimPolicy").unwrap().as_str(),
            Some("Retain")
        );
        assert_eq!(
            spec.get_path(&["rbd", "pool"]).unwrap().as_str(),
            Some("rbd")
        );
        assert_eq!(
            spec.get_path(&["capacity", "storage"]).unwrap().as_str(),
            Some("1m")
        );
    }
}
