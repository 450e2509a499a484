//! A PersistentVolumeClaim's spec after creation (pkg/apis/core/validation
//! `ValidatePersistentVolumeClaimUpdate`): the server compares copies of the two specs in which
//! what may change has been made equal — a first `volumeName`, the storage request of a bound
//! claim, `volumeAttributesClassName`, a storage class set for the first time — and refuses any
//! other difference, quoting a diff of the two copies.

use super::super::difflib;
use super::super::internal_go::internal_struct;
use super::super::{FieldError, Write};
use super::fields::{present, set, spec, text};
use super::resources::Amount;
use super::selector::semantic_eq;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;
use std::cmp::Ordering;

/// How the server words the refusal and what follows it, by Kubernetes version.
struct Wording {
    versions: VersionRange,
    detail: &'static str,
    /// Whether the detail is followed by the JSON line diff of `pkg/util/diff.Diff` (1.34+).
    /// Earlier releases print go-cmp's `cmp.Diff`, whose output is deliberately unstable (it
    /// varies its spacing from one process to the next), so kssa leaves it out there.
    json_diff: bool,
}

/// Every release names `volumeAttributesClassName` (read in the 1.30 and 1.36 sources); 1.34
/// is the release in which `cmp.Diff` gave way to `diff.Diff` (k8s.io/apimachinery
/// `pkg/util/diff/diff.go`, added for v0.34.0).
const WORDINGS: &[Wording] = &[
    Wording {
        versions: VersionRange::until(33),
        detail: "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
        json_diff: false,
    },
    Wording {
        versions: VersionRange::since(34),
        detail: "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
        json_diff: true,
    },
];

const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

/// `ValidatePersistentVolumeClaim` (the spec, [`super::pvc_spec::check`]) and, on update,
/// `ValidatePersistentVolumeClaimUpdate`'s immutability after it. The strategy has copied the
/// stored status onto the claim, so the stored phase decides what a bound claim may change.
pub fn persistent_volume_claim(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    super::pvc_spec::check(w, spec(object), "spec", errors);
    let Some(old) = w.live else { return };
    let (mut was, mut now) = (spec(old).clone(), spec(object).clone());
    // volumeName may be set once.
    if text(&was, "volumeName").is_empty() {
        set(&mut was, "volumeName", now.get("volumeName").cloned());
    }
    storage_class(object, old, &mut now, errors);
    let bound = old.get_path(&["status", "phase"]).and_then(Value::as_str) == Some("Bound");
    if bound {
        // The storage request of a bound claim may change (grow).
        let old_storage = was
            .get_path(&["resources", "requests", "storage"])
            .cloned()
            .unwrap_or_else(|| Value::from("0"));
        if let Some(Value::Map(requests)) = now
            .as_map_mut()
            .and_then(|m| m.get_mut("resources"))
            .and_then(Value::as_map_mut)
            .and_then(|m| m.get_mut("requests"))
        {
            requests.insert("storage".into(), old_storage);
        }
    }
    let class_masked = match w.version().pick(ATTRIBUTES_CLASS_MASK) {
        AttributesClassMask::Always => true,
        AttributesClassMask::BoundAndSet => bound && present(&now, ATTRIBUTES_CLASS).is_some(),
        AttributesClassMask::Bound => bound,
    };
    if class_masked {
        set(
            &mut now,
            ATTRIBUTES_CLASS,
            was.get(ATTRIBUTES_CLASS).cloned(),
        );
    }
    if !semantic_eq(Some(&now), Some(&was)) {
        spec_forbidden(w, &was, &now, errors);
    }
    smaller_request(w, object, old, errors);
    // `ValidateImmutableField(volumeMode)`, reported at `volumeMode` as upstream builds the path.
    let mode = |v: &Value| text(spec(v), "volumeMode").to_string();
    let (new_mode, old_mode) = (mode(object), mode(old));
    if new_mode != old_mode {
        errors.push(FieldError::invalid(
            "volumeMode",
            FieldError::string_value(&new_mode),
            "field is immutable",
        ));
    }
    attributes_class_update(w, object, old, errors);
}

/// The storage class rules of an update: a class named for the first time after the beta
/// annotation (`validateStorageClassUpgradeFromAnnotation`) is not a change; otherwise the
/// annotation is immutable (`ValidateImmutableAnnotation`, at a path that joins the key with a
/// dot) and a class set where the stored claim had neither class nor annotation is not a
/// change either (`validateStorageClassUpgradeFromNil`, RetroactiveDefaultStorageClass being GA).
fn storage_class(object: &Value, old: &Value, now: &mut Value, errors: &mut Vec<FieldError>) {
    let annotation = |v: &Value| {
        v.get_path(&["metadata", "annotations", BETA_STORAGE_CLASS])
            .map(|a| a.as_str().unwrap_or("").to_string())
    };
    let (old_annotation, new_annotation) = (annotation(old), annotation(object));
    fn class(v: &Value) -> Option<&str> {
        present(v, "storageClassName").map(|c| c.as_str().unwrap_or(""))
    }
    let (old_class, new_class) = (class(spec(old)), class(spec(object)));
    let from_annotation = old_annotation.as_deref().is_some_and(|a| {
        old_class.is_none()
            && new_class == Some(a)
            && new_annotation.as_deref().is_none_or(|n| n == a)
    });
    if from_annotation {
        set(now, "storageClassName", None);
        return;
    }
    let (new_text, old_text) = (
        new_annotation.as_deref().unwrap_or(""),
        old_annotation.as_deref().unwrap_or(""),
    );
    if new_text != old_text {
        errors.push(FieldError::invalid(
            format!("metadata.annotations.{BETA_STORAGE_CLASS}"),
            FieldError::string_value(new_text),
            "field is immutable",
        ));
    }
    if old_annotation.is_none() && old_class.is_none() && new_class.is_some() {
        set(now, "storageClassName", None);
    }
}

const ATTRIBUTES_CLASS: &str = "volumeAttributesClassName";

/// When the update's copy of the new spec takes the stored `volumeAttributesClassName` before
/// the specs are compared (read in the 1.30, 1.31, 1.33 and 1.36 sources).
#[derive(Clone, Copy)]
enum AttributesClassMask {
    Always,
    BoundAndSet,
    Bound,
}
const ATTRIBUTES_CLASS_MASK: &[(VersionRange, AttributesClassMask)] = &[
    (VersionRange::until(30), AttributesClassMask::Always),
    (
        VersionRange {
            since: Some(31),
            until: Some(33),
        },
        AttributesClassMask::BoundAndSet,
    ),
    (VersionRange::since(34), AttributesClassMask::Bound),
];

/// VolumeAttributesClass is on by default from 1.34.
const ATTRIBUTES_CLASS_GATE: VersionRange = VersionRange::since(34);

/// What guards removing a claim's attributes class, and the two refusals' wording: until 1.33
/// the stored spec's class, from 1.34 the class the status says was applied.
struct ClassRemoval {
    versions: VersionRange,
    guarded_by_status: bool,
    to_nil: &'static str,
    to_empty: &'static str,
}
const CLASS_REMOVAL: &[ClassRemoval] = &[
    ClassRemoval {
        versions: VersionRange::until(33),
        guarded_by_status: false,
        to_nil: "update from non-nil value to nil is forbidden",
        to_empty: "update from non-nil value to an empty string is forbidden",
    },
    ClassRemoval {
        versions: VersionRange::since(34),
        guarded_by_status: true,
        to_nil: "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil",
        to_empty: "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
    },
];

/// The last rules of `ValidatePersistentVolumeClaimUpdate`, for a changed attributes class.
fn attributes_class_update(w: &Write, object: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let (old_class, new_class) = (
        present(spec(old), ATTRIBUTES_CLASS),
        present(spec(object), ATTRIBUTES_CLASS),
    );
    if old_class == new_class {
        return;
    }
    const AT: &str = "spec.volumeAttributesClassName";
    let gate_on = ATTRIBUTES_CLASS_GATE.contains(w.version());
    if !gate_on {
        errors.push(FieldError::forbidden(
            AT,
            "update is forbidden when the VolumeAttributesClass feature gate is disabled",
        ));
    }
    if !gate_on && old_class.is_none() {
        return;
    }
    let Some(rule) = CLASS_REMOVAL
        .iter()
        .find(|r| r.versions.contains(w.version()))
    else {
        return;
    };
    let guarded = if rule.guarded_by_status {
        old.get_path(&["status", "currentVolumeAttributesClassName"])
            .is_some_and(|c| !c.is_null())
    } else {
        old_class.is_some()
    };
    if !guarded {
        return;
    }
    match new_class.map(|c| c.as_str().unwrap_or("")) {
        None => errors.push(FieldError::forbidden(AT, rule.to_nil)),
        Some("") => errors.push(FieldError::forbidden(AT, rule.to_empty)),
        Some(_) => {}
    }
}

/// RecoverVolumeExpansionFailure (on by default from 1.32) lets a request shrink down to just
/// above the recorded capacity; before, never below the previous request.
const RECOVER_FROM_EXPANSION_FAILURE: VersionRange = VersionRange::since(32);

/// `ValidatePersistentVolumeClaimUpdate`'s storage request rule.
fn smaller_request(w: &Write, object: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let storage = |v: &Value, path: &[&str]| v.get_path(path).and_then(Amount::of);
    let requested = ["spec", "resources", "requests", "storage"];
    let (Some(new_size), Some(old_size)) = (storage(object, &requested), storage(old, &requested))
    else {
        return;
    };
    if new_size.compare(&old_size) != Some(Ordering::Less) {
        return;
    }
    const AT: &str = "spec.resources.requests.storage";
    if !RECOVER_FROM_EXPANSION_FAILURE.contains(w.version()) {
        errors.push(FieldError::forbidden(
            AT,
            "field can not be less than previous value",
        ));
        return;
    }
    // A missing capacity is the zero quantity.
    let capacity =
        storage(old, &["status", "capacity", "storage"]).or_else(|| Amount::of(&Value::from("0")));
    let at_or_below = capacity.is_some_and(|c| new_size.compare(&c) != Some(Ordering::Greater));
    if at_or_below {
        errors.push(FieldError::forbidden(
            AT,
            "field can not be less than status.capacity",
        ));
    }
}

/// The `spec` Forbidden, with the release's wording and diff.
fn spec_forbidden(w: &Write, was: &Value, now: &Value, errors: &mut Vec<FieldError>) {
    let Some(wording) = WORDINGS.iter().find(|x| x.versions.contains(w.version())) else {
        return;
    };
    let mut detail = wording.detail.to_string();
    if wording.json_diff {
        detail.push('\n');
        let (a, b) = (
            internal_spec_json(was, w.version()),
            internal_spec_json(now, w.version()),
        );
        detail.push_str(&difflib::unified_diff(
            &difflib::split_lines(&a),
            &difflib::split_lines(&b),
            3,
        ));
    }
    errors.push(FieldError::forbidden("spec", detail));
}

/// `json.MarshalIndent(spec, "", " ")` of the internal `core.PersistentVolumeClaimSpec`
/// (`validate::internal_go`).
fn internal_spec_json(spec: &Value, version: KubeVersion) -> String {
    internal_struct("PersistentVolumeClaimSpec", Some(spec), version).indented()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn the_internal_spec_prints_go_names_in_go_order() {
        let spec = from_json_str(
            r#"{"accessModes":["ReadWriteMany"],"resources":{"requests":{"storage":"500Mi"}},
            "storageClassName":"local-path","volumeMode":"Filesystem"}"#,
        )
        .unwrap();
        assert_eq!(
            internal_spec_json(&spec, KubeVersion::new(36).unwrap()),
            "{\n \"AccessModes\": [\n  \"ReadWriteMany\"\n ],\n \"Selector\": null,\n \"Resources\": {\n  \"Limits\": null,\n  \"Requests\": {\n   \"storage\": \"500Mi\"\n  }\n },\n \"VolumeName\": \"\",\n \"StorageClassName\": \"local-path\",\n \"VolumeMode\": \"Filesystem\",\n \"DataSource\": null,\n \"DataSourceRef\": null,\n \"VolumeAttributesClassName\": null\n}"
        );
    }
}
