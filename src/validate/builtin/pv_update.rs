//! What may not change in a PersistentVolume after creation, as k8s.io/kubernetes
//! pkg/apis/core/validation `ValidatePersistentVolumeUpdate` checks it after the spec rules:
//! the volume source, `volumeMode`, a stored node affinity (except beta to GA labels) and
//! `volumeAttributesClassName`.

use super::super::difflib;
use super::super::internal_go::internal_struct;
use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use super::pv::VOLUME_ATTRIBUTES_CLASS;
use super::pv_source::SOURCES;
use super::selector::semantic_eq;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// `pkg/util/diff.Diff` prints indented JSON and a line diff from 1.34.
const SOURCE_DIFF: VersionRange = VersionRange::since(34);

/// The beta node labels a stored node affinity may trade for their GA names (the volume
/// binding's beta-to-GA allowance of `validatePvNodeAffinity`).
const BETA_TO_GA: &[(&str, &str)] = &[
    (
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/zone",
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        "topology.kubernetes.io/region",
    ),
    ("beta.kubernetes.io/os", "kubernetes.io/os"),
    ("beta.kubernetes.io/arch", "kubernetes.io/arch"),
    (
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
    ),
];

/// `ValidatePersistentVolumeUpdate` after `ValidatePersistentVolume`, in its order. The
/// source's refusal is followed on the server by a diff of the two sources: go-cmp's
/// `cmp.Diff`, deliberately unstable, until 1.33 (kssa prints the first line only), from 1.34
/// `pkg/util/diff.Diff` of the internal `PersistentVolumeSource`s.
pub fn check(new: &Value, old: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let compared = compared_source(new, old);
    if !same_source(&compared, old) {
        let mut detail = "spec.persistentvolumesource is immutable after creation".to_string();
        if SOURCE_DIFF.contains(version) {
            let source = |spec: &Value| {
                internal_struct("PersistentVolumeSource", Some(spec), version).indented()
            };
            detail.push('\n');
            detail.push_str(&difflib::unified_diff(
                &difflib::split_lines(&source(old)),
                &difflib::split_lines(&source(&compared)),
                3,
            ));
        }
        errors.push(FieldError::forbidden("spec.persistentvolumesource", detail));
    }
    // ValidateImmutableField at the path the server gives: `volumeMode`, without `spec`; both
    // defaulted to Filesystem (SetDefaults_PersistentVolume).
    fn mode(spec: &Value) -> &str {
        present(spec, "volumeMode").map_or("Filesystem", |m| m.as_str().unwrap_or(""))
    }
    if mode(new) != mode(old) {
        let value = present(new, "volumeMode").cloned().unwrap_or(Value::Null);
        errors.push(FieldError::invalid(
            "volumeMode",
            BadValue::Value(value),
            "field is immutable",
        ));
    }
    if let Some(old_affinity) = present(old, "nodeAffinity") {
        let new_affinity = present(new, "nodeAffinity");
        if !affinity_update_allowed(new_affinity, old_affinity) {
            errors.push(FieldError::invalid(
                "nodeAffinity",
                quoted_affinity(new_affinity, version),
                "field is immutable, except for updating from beta label to GA",
            ));
        }
    }
    attributes_class(new, old, version, errors);
}

/// The new spec as the source comparison sees it: a `controllerExpandSecretRef` added to a
/// csi source that had none is dropped (allowed).
fn compared_source(new: &Value, old: &Value) -> Value {
    let mut compared = new.clone();
    let had = old
        .get("csi")
        .and_then(|c| present(c, "controllerExpandSecretRef"))
        .is_some();
    if !had {
        if let Some(Value::Map(csi)) = compared.as_map_mut().and_then(|m| m.get_mut("csi")) {
            csi.shift_remove("controllerExpandSecretRef");
        }
    }
    compared
}

/// `apiequality.Semantic.DeepEqual` of the `PersistentVolumeSource` union.
fn same_source(new: &Value, old: &Value) -> bool {
    SOURCES
        .iter()
        .all(|s| semantic_eq(new.get(s.key), old.get(s.key)))
}

/// Equal, or equal once each beta label key of the stored affinity that the new one names by
/// its GA key at the same place is renamed.
fn affinity_update_allowed(new: Option<&Value>, old: &Value) -> bool {
    if semantic_eq(new, Some(old)) {
        return true;
    }
    let Some(new) = new else { return false };
    let mut renamed = old.clone();
    let new_terms = items(new.get_path(&["required", "nodeSelectorTerms"]));
    let Some(Value::List(terms)) = renamed
        .as_map_mut()
        .and_then(|m| m.get_mut("required"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("nodeSelectorTerms"))
    else {
        return false;
    };
    for (term, new_term) in terms.iter_mut().zip(new_terms) {
        let new_exprs = items(new_term.get("matchExpressions"));
        let Some(Value::List(exprs)) = term
            .as_map_mut()
            .and_then(|m| m.get_mut("matchExpressions"))
        else {
            continue;
        };
        for (expr, new_expr) in exprs.iter_mut().zip(new_exprs) {
            let key = text(expr, "key");
            let new_key = text(new_expr, "key");
            if BETA_TO_GA.contains(&(key, new_key)) {
                if let Some(m) = expr.as_map_mut() {
                    m.insert("key".into(), Value::from(new_key));
                }
            }
        }
    }
    semantic_eq(Some(new), Some(&renamed))
}

/// The new `*core.VolumeNodeAffinity`, dereferenced: JSON of the internal type (Go field
/// names, nil as `null`) since 1.34, `%#v` before (its pointer's address known only to the
/// server, written `0x…`).
fn quoted_affinity(affinity: Option<&Value>, version: KubeVersion) -> BadValue {
    let Some(affinity) = affinity else {
        return BadValue::Value(Value::Null);
    };
    let go_syntax = match present(affinity, "required") {
        Some(_) => "core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0x…)}",
        None => "core.VolumeNodeAffinity{Required:(*core.NodeSelector)(nil)}",
    };
    BadValue::GoValue {
        value: internal_struct("VolumeNodeAffinity", Some(affinity), version).to_value(),
        go_syntax: go_syntax.into(),
    }
}

/// `volumeAttributesClassName` on update: while the gate is off by default (until 1.33) a
/// change is refused (from 1.31 the strategy drops a new class the stored volume did not have,
/// [`crate::kube::claim_prepare`], so only a stored one can change; 1.30's kept it); with the
/// feature in use, it may not be removed.
fn attributes_class(new: &Value, old: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let key = "volumeAttributesClassName";
    let (n, o) = (present(new, key), present(old, key));
    let gate_on = VOLUME_ATTRIBUTES_CLASS.contains(version);
    if n == o {
        return;
    }
    let at = "spec.volumeAttributesClassName";
    if !gate_on {
        errors.push(FieldError::forbidden(
            at,
            "update is forbidden when the VolumeAttributesClass feature gate is disabled",
        ));
    }
    if o.is_some() && n.is_none() {
        errors.push(FieldError::forbidden(
            at,
            "update from non-nil value to nil is forbidden",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_over_stored;

    const PV: &str = r#"{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv1"},
      "spec":{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},SPEC}}"#;
    const PREFIX: &str = "The PersistentVolume \"pv1\" is invalid: ";
    const AFFINITY: &str = r#""nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"KEY","operator":"In","values":["VALUE"]}]}]}}"#;

    fn update(new: &str, old: &str, minor: u8) -> Option<String> {
        let old = PV.replace("SPEC", old);
        refusal_over_stored(&PV.replace("SPEC", new), Some(&old), minor)
    }

    fn local(key: &str, value: &str) -> String {
        format!(
            r#""local":{{"path":"/mnt/disk"}},{}"#,
            AFFINITY.replace("KEY", key).replace("VALUE", value)
        )
    }

    #[test]
    fn the_source_and_volume_mode_are_immutable() {
        let old = r#""hostPath":{"path":"/data"},"volumeMode":"Filesystem""#;
        assert_eq!(update(old, old, 37), None);
        let new = r#""hostPath":{"path":"/data2"},"volumeMode":"Block""#;
        let source = "* spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation";
        let mode = "* volumeMode: Invalid value: \"Block\": field is immutable";
        assert_eq!(
            update(new, old, 33).unwrap(),
            format!("{PREFIX}\n{source}\n{mode}")
        );
        // From 1.34 the internal sources' diff follows (defaulted, the host path type is "").
        let diff = "@@ -2,7 +2,7 @@\n  \"GCEPersistentDisk\": null,\n  \"AWSElasticBlockStore\": null,\n  \"HostPath\": {\n-  \"Path\": \"/data\",\n+  \"Path\": \"/data2\",\n   \"Type\": \"\"\n  },\n  \"Glusterfs\": null,\n";
        assert_eq!(
            update(new, old, 37).unwrap(),
            format!("{PREFIX}\n{source}\n{diff}\n{mode}")
        );
        // A controllerExpandSecretRef may be added to a csi source.
        let csi = r#""csi":{"driver":"d","volumeHandle":"h"}"#;
        let expanded = r#""csi":{"driver":"d","volumeHandle":"h","controllerExpandSecretRef":{"name":"s","namespace":"n"}}"#;
        assert_eq!(update(expanded, csi, 37), None);
    }

    #[test]
    fn a_stored_node_affinity_only_moves_from_beta_to_ga_labels() {
        let beta = local("failure-domain.beta.kubernetes.io/zone", "a");
        assert_eq!(
            update(&local("topology.kubernetes.io/zone", "a"), &beta, 37),
            None
        );
        let other = local("kubernetes.io/hostname", "n2");
        assert_eq!(
            update(&other, &local("kubernetes.io/hostname", "n1"), 37).unwrap(),
            format!("{PREFIX}nodeAffinity: Invalid value: {{\"Required\":{{\"NodeSelectorTerms\":[{{\"MatchExpressions\":[{{\"Key\":\"kubernetes.io/hostname\",\"Operator\":\"In\",\"Values\":[\"n2\"]}}],\"MatchFields\":null}}]}}}}: field is immutable, except for updating from beta label to GA")
        );
        assert_eq!(
            update(&other, &local("kubernetes.io/hostname", "n1"), 33).unwrap(),
            format!("{PREFIX}nodeAffinity: Invalid value: core.VolumeNodeAffinity{{Required:(*core.NodeSelector)(0x…)}}: field is immutable, except for updating from beta label to GA")
        );
        // Setting one where there was none is allowed.
        let plain = r#""hostPath":{"path":"/data"}"#;
        let with = format!(
            r#"{plain},{}"#,
            AFFINITY.replace("KEY", "k").replace("VALUE", "v")
        );
        assert_eq!(update(&with, plain, 37), None);
    }

    #[test]
    fn attributes_class_per_version() {
        let csi = r#""csi":{"driver":"d","volumeHandle":"h"}"#;
        let old = format!(r#"{csi},"volumeAttributesClassName":"gold""#);
        assert_eq!(
            update(csi, &old, 37).unwrap(),
            format!("{PREFIX}spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden")
        );
        assert_eq!(
            update(csi, &old, 33).unwrap(),
            format!("{PREFIX}\n* spec.volumeAttributesClassName: Forbidden: update is forbidden when the VolumeAttributesClass feature gate is disabled\n* spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden")
        );
        // A new class: 1.30's strategy keeps it for validation to refuse, 1.31–1.33 drop it.
        assert_eq!(
            update(&old, csi, 30).unwrap(),
            format!("{PREFIX}spec.volumeAttributesClassName: Forbidden: update is forbidden when the VolumeAttributesClass feature gate is disabled")
        );
        assert_eq!(update(&old, csi, 31), None);
    }
}
