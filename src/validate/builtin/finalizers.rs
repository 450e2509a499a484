//! `metadata.finalizers`: what apimachinery checks for every kind (pkg/api/validation/objectmeta.go
//! `ValidateFinalizers`, `ValidateFinalizerName`, and on update `ValidateNoNewFinalizers`), what
//! the core wrapper adds for the kinds validated through k8s.io/kubernetes
//! pkg/apis/core/validation `ValidateObjectMeta`/`ValidateObjectMetaUpdate`
//! (`validateKubeFinalizerName`: a name without `/` must be a standard one), and the warnings
//! the custom resource strategy sends back instead (apiextensions-apiserver
//! pkg/registry/customresource `generateWarningsFromObj`, validator.go `validateKubeFinalizerName`).

use super::super::field::{indexed, typed_value, FieldError};
use super::super::formats;
use super::super::goprint::{go_quote, GoType};
use super::fields::items;
use super::namespace::STANDARD_FINALIZERS;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// `metav1.FinalizerOrphanDependents` and `metav1.FinalizerDeleteDependents`.
const ORPHAN: &str = "orphan";
const FOREGROUND: &str = "foregroundDeletion";

/// Kinds whose strategies validate metadata with apimachinery's `ValidateObjectMeta` directly,
/// not through the core wrapper, and so accept unqualified finalizer names:
/// admissionregistration (`genericvalidation.ValidateObjectMeta`), CustomResourceDefinition and
/// APIService (their servers cannot import the core package), Lease and RuntimeClass (both
/// `k8s.io/apimachinery/pkg/api/validation`). A `*` kind is the whole group.
const APIMACHINERY_METADATA: &[(&str, &str)] = &[
    ("admissionregistration.k8s.io", "*"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("apiregistration.k8s.io", "APIService"),
    ("coordination.k8s.io", "Lease"),
    ("node.k8s.io", "RuntimeClass"),
    // No metadata rule of its own: the generic store's apimachinery one (`rest.BeforeCreate`).
    ("policy", "PodDisruptionBudget"),
];

/// Whether a built-in kind's metadata goes through the core wrapper (`validateKubeFinalizerName`).
pub fn core_wrapper(group: &str, kind: &str) -> bool {
    !APIMACHINERY_METADATA
        .iter()
        .any(|(g, k)| *g == group && (*k == "*" || *k == kind))
}

fn names(finalizers: Option<&Value>) -> Vec<&str> {
    items(finalizers)
        .iter()
        .map(|f| f.as_str().unwrap_or(""))
        .collect()
}

/// `ValidateFinalizers`: each name a qualified name (reported at the list, without an index),
/// then `orphan` and `foregroundDeletion` not both.
pub fn check(
    finalizers: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let names = names(finalizers);
    for name in &names {
        for msg in formats::label_key(name, version) {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    if names.contains(&ORPHAN) && names.contains(&FOREGROUND) {
        let list = finalizers.cloned().unwrap_or(Value::Null);
        errors.push(FieldError::invalid(
            path,
            typed_value(list, &GoType::StringList),
            format!("finalizer {ORPHAN} and {FOREGROUND} cannot be both set"),
        ));
    }
}

/// The core wrapper's `validateKubeFinalizerName` of each finalizer, at `path[i]`.
pub fn kube_names(finalizers: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
    for (i, name) in names(finalizers).into_iter().enumerate() {
        if !name.contains('/') && !STANDARD_FINALIZERS.contains(&name) {
            errors.push(FieldError::invalid(
                indexed(path, i),
                FieldError::string_value(name),
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
}

/// `ValidateNoNewFinalizers`, run on update when the stored object is being deleted.
pub fn no_new_while_deleting(
    finalizers: Option<&Value>,
    live: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let deleting = live
        .get_path(&["metadata", "deletionTimestamp"])
        .is_some_and(|t| !t.is_null());
    if !deleting {
        return;
    }
    let old = names(live.get_path(&["metadata", "finalizers"]));
    let mut extra: Vec<&str> = names(finalizers)
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    extra.sort_unstable();
    extra.dedup();
    if extra.is_empty() {
        return;
    }
    // `%#v` of the sorted `[]string`.
    let quoted: Vec<String> = extra.iter().map(|f| go_quote(f)).collect();
    errors.push(FieldError::forbidden(
        path,
        format!(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
            quoted.join(", ")
        ),
    ));
}

/// From 1.32 a dotted name without a path gets its own advice.
const DOTTED_ADVICE: VersionRange = VersionRange::since(32);

/// The custom resource strategy's warnings (`WarningsOnCreate`/`WarningsOnUpdate`) for the
/// finalizers `object` adds to `live`'s, in sorted order, as `Warning:` lines.
pub fn custom_resource_warnings(
    object: &Value,
    live: Option<&Value>,
    version: KubeVersion,
) -> Vec<String> {
    let old = live.map_or_else(Vec::new, |l| names(l.get_path(&["metadata", "finalizers"])));
    let mut added: Vec<&str> = names(object.get_path(&["metadata", "finalizers"]))
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    added.sort_unstable();
    added.dedup();
    let mut warnings = Vec::new();
    for name in added {
        let quoted = go_quote(name);
        for msg in formats::label_key(name, version) {
            warnings.push(format!("Warning: metadata.finalizers: {quoted}: {msg}"));
        }
        if !name.contains('/') && !STANDARD_FINALIZERS.contains(&name) {
            let advice = if DOTTED_ADVICE.contains(version) && name.contains('.') {
                "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
            } else {
                "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
            };
            warnings.push(format!("Warning: metadata.finalizers: {quoted}: {advice}"));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::super::tests::{json, messages_of, refusal_causes};
    use super::*;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    #[test]
    fn names_are_qualified_and_not_both_orphan_and_foreground() {
        let found = messages_of(
            r#"{"finalizers":["orphan","a/b/c","foregroundDeletion"]}"#,
            33,
            |o, v, errors| check(o.get("finalizers"), "metadata.finalizers", v, errors),
        );
        assert_eq!(found.len(), 2);
        assert!(found[0].starts_with(
            "metadata.finalizers: Invalid value: \"a/b/c\": a qualified name must consist of"
        ));
        assert_eq!(
            found[1],
            "metadata.finalizers: Invalid value: []string{\"orphan\", \"a/b/c\", \"foregroundDeletion\"}: finalizer orphan and foregroundDeletion cannot be both set"
        );
    }

    #[test]
    fn core_kinds_refuse_unqualified_names() {
        let cm = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default",
          "finalizers":["kubernetes","example.com/keep","cleanup"]}}"#;
        assert_eq!(
            refusal_causes(cm, None, 37),
            ["metadata.finalizers[2]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified"]
        );
        // Leases are validated by apimachinery alone.
        let lease = r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","namespace":"default",
          "finalizers":["cleanup"]}}"#;
        assert!(refusal_causes(lease, None, 37).is_empty());
    }

    #[test]
    fn no_new_finalizers_on_an_object_being_deleted() {
        let live = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","uid":"u",
          "resourceVersion":"5","deletionTimestamp":"2024-05-01T10:00:00Z","finalizers":["example.com/a"]}}"#;
        let object = live.replace(
            r#""finalizers":["example.com/a"]"#,
            r#""finalizers":["example.com/z","example.com/a","example.com/b"]"#,
        );
        assert_eq!(
            refusal_causes(&object, Some(live), 37),
            ["metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\", \"example.com/z\"}"]
        );
        // Removing one is how deletion proceeds.
        let fewer = live.replace(r#""finalizers":["example.com/a"]"#, r#""finalizers":[]"#);
        assert!(refusal_causes(&fewer, Some(live), 37).is_empty());
    }

    #[test]
    fn custom_resources_are_warned_about_new_unqualified_names() {
        let object = json(
            r#"{"metadata":{"finalizers":["resources-finalizer.argocd.argoproj.io","cleanup","example.com/x","kubernetes"]}}"#,
        );
        assert_eq!(
            custom_resource_warnings(&object, None, v(37)),
            [
                "Warning: metadata.finalizers: \"cleanup\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers",
                "Warning: metadata.finalizers: \"resources-finalizer.argocd.argoproj.io\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers",
            ]
        );
        assert_eq!(
            custom_resource_warnings(&object, None, v(31))[1],
            "Warning: metadata.finalizers: \"resources-finalizer.argocd.argoproj.io\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
        );
        // Only the finalizers the write adds.
        assert!(custom_resource_warnings(&object, Some(&object), v(37)).is_empty());
    }
}
