//! The warnings of PersistentVolumeClaims (pkg/api/persistentvolumeclaim/util.go
//! `GetWarningsForPersistentVolumeClaim`, `GetWarningsForPersistentVolumeClaimSpec`) and
//! PersistentVolumes (pkg/api/persistentvolume/util.go `GetWarningsForPersistentVolume`).

use super::super::super::goprint::go_quote;
use super::super::fields::{items, present, quantity_text, spec, text};
use super::node_labels::node_selector_term;
use crate::defaults::quantity::{canonicalize, Quantity};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed};
use crate::validate::Write;
use crate::value::Value;

const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";
const STORAGE_CLASS_DEPRECATED: &str =
    r#"deprecated since v1.8; use "storageClassName" attribute instead"#;

/// The PersistentVolume's deprecated annotations (`deprecatedAnnotations`; the mount options
/// one from 1.31), in upstream's order.
const PV_DEPRECATED_ANNOTATIONS: &[(&str, &str, VersionRange)] = &[
    (
        STORAGE_CLASS_ANNOTATION,
        STORAGE_CLASS_DEPRECATED,
        VersionRange::ALWAYS,
    ),
    (
        "volume.beta.kubernetes.io/mount-options",
        r#"deprecated since v1.31; use "mountOptions" attribute instead"#,
        VersionRange::since(31),
    ),
];

/// The deprecated volume plugins a PersistentVolume warns of, in upstream's order.
const PV_DEPRECATED_PLUGINS: &[(&str, &str)] = &[
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    (
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("storageOS", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

fn has_annotation(object: &Value, key: &str) -> bool {
    object.get_path(&["metadata", "annotations", key]).is_some()
}

/// `GetWarningsForPersistentVolumeClaim`.
pub fn claim(w: &Write, object: &Value, out: &mut Vec<String>) {
    if has_annotation(object, STORAGE_CLASS_ANNOTATION) {
        out.push(format!(
            "metadata.annotations[{STORAGE_CLASS_ANNOTATION}]: {STORAGE_CLASS_DEPRECATED}"
        ));
    }
    claim_spec(spec(object), "spec", w.version(), out);
}

/// `GetWarningsForPersistentVolumeClaimSpec`: a storage request or limit that is not a whole
/// number of bytes, printed as the server prints the quantity (`Quantity.String`).
pub fn claim_spec(spec: &Value, at: &str, _version: KubeVersion, out: &mut Vec<String>) {
    for list in ["requests", "limits"] {
        let resources = spec.get_path(&["resources", list]);
        let list_at = join(at, &format!(".resources.{list}"));
        fractional_bytes(resources, &["storage"], &list_at, out);
    }
}

/// The byte quantities among `names` of a resource list that are no whole number of bytes
/// (`MilliValue() % 1000 != 0`), printed as the server prints the quantity (`Quantity.String`).
pub(super) fn fractional_bytes(
    resources: Option<&Value>,
    names: &[&str],
    at: &str,
    out: &mut Vec<String>,
) {
    for name in names {
        let Some(written) = resources.and_then(|r| r.get(name)).and_then(quantity_text) else {
            continue;
        };
        let fractional = Quantity::parse(&written)
            .and_then(|q| q.milli())
            .is_some_and(|milli| milli % 1000 != 0);
        if fractional {
            let printed = canonicalize(&written).unwrap_or(written);
            out.push(format!(
                "{}: fractional byte value {} is invalid, must be an integer",
                keyed(at, name),
                go_quote(&printed)
            ));
        }
    }
}

/// `GetWarningsForPersistentVolume` (`warningsForPersistentVolumeSpecAndMeta`).
pub fn volume(w: &Write, object: &Value, out: &mut Vec<String>) {
    let version = w.version();
    for (key, message, versions) in PV_DEPRECATED_ANNOTATIONS {
        if versions.contains(version) && has_annotation(object, key) {
            out.push(format!("metadata.annotations[{key}]: {message}"));
        }
    }
    let spec = spec(object);
    if text(spec, "persistentVolumeReclaimPolicy") == "Recycle" {
        out.push("spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.".into());
    }
    if let Some(required) = present(spec, "nodeAffinity").and_then(|a| present(a, "required")) {
        let terms_at = "spec.nodeAffinity.required.nodeSelectorTerms";
        for (i, term) in items(required.get("nodeSelectorTerms")).iter().enumerate() {
            node_selector_term(term, false, &indexed(terms_at, i), version, out);
        }
    }
    for (plugin, message) in PV_DEPRECATED_PLUGINS {
        if present(spec, plugin).is_some() {
            out.push(format!("spec.{plugin}: {message}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::warnings;

    fn claim(annotations: &str, resources: &str) -> String {
        format!(
            r#"{{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{{"name":"c","namespace":"default",
            "annotations":{annotations}}},"spec":{{"accessModes":["ReadWriteOnce"],"resources":{resources}}}}}"#
        )
    }

    // As the 1.30 and 1.36 references print them.
    #[test]
    fn claim_annotation_and_fractional_bytes() {
        let c = claim(
            r#"{"volume.beta.kubernetes.io/storage-class":"x"}"#,
            r#"{"requests":{"storage":"1.5"},"limits":{"storage":"2500m"}}"#,
        );
        let expected = [
            r#"Warning: metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead"#,
            r#"Warning: spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer"#,
            r#"Warning: spec.resources.limits[storage]: fractional byte value "2500m" is invalid, must be an integer"#,
        ];
        assert_eq!(warnings(&c, None, 30), expected);
        assert_eq!(warnings(&c, Some(&c), 36), expected);
        let c = claim("{}", r#"{"requests":{"storage":"0.1Ki"}}"#);
        assert_eq!(
            warnings(&c, None, 36),
            [
                r#"Warning: spec.resources.requests[storage]: fractional byte value "102400m" is invalid, must be an integer"#
            ]
        );
        let c = claim("{}", r#"{"requests":{"storage":1.25}}"#);
        assert_eq!(
            warnings(&c, None, 33),
            [
                r#"Warning: spec.resources.requests[storage]: fractional byte value "1250m" is invalid, must be an integer"#
            ]
        );
        assert!(warnings(&claim("{}", r#"{"requests":{"storage":"1Gi"}}"#), None, 36).is_empty());
    }

    #[test]
    fn volume_annotations_policy_affinity_and_plugins() {
        let volume = r#"{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p",
            "annotations":{"volume.beta.kubernetes.io/mount-options":"y","volume.beta.kubernetes.io/storage-class":"x"}},
            "spec":{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},"persistentVolumeReclaimPolicy":"Recycle",
            "nfs":{"server":"s","path":"/x"},
            "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
              {"key":"beta.kubernetes.io/os","operator":"In","values":["linux"]},
              {"key":"node-role.kubernetes.io/master","operator":"Exists"}]}]}}}}"#;
        let all = [
            r#"Warning: metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead"#,
            r#"Warning: metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead"#,
            "Warning: spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.",
            r#"Warning: spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead"#,
            r#"Warning: spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].key: node-role.kubernetes.io/master is use "node-role.kubernetes.io/control-plane" instead"#,
        ];
        assert_eq!(warnings(volume, None, 30), [all[0], all[2], all[3]]);
        assert_eq!(warnings(volume, None, 31), all);
        let rbd = r#"{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p"},
            "spec":{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},"rbd":{"monitors":["m"],"image":"i"}}}"#;
        assert_eq!(
            warnings(rbd, None, 36),
            ["Warning: spec.rbd: deprecated in v1.28, non-functional in v1.31+"]
        );
    }
}
