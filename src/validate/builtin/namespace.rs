//! Namespaces and ServiceAccounts, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! beyond their metadata. `ValidateNamespace`: each `spec.finalizers` entry a qualified name
//! (apimachinery `ValidateFinalizerName`) that, without a `/`, is one of the standard
//! finalizers (`validateKubeFinalizerName`), all reported at `spec.finalizers` without an
//! index. `ValidateNamespaceUpdate` checks only the metadata: the strategy's `PrepareForUpdate`
//! (pkg/registry/core/namespace/strategy.go) keeps the stored spec and status.
//! `ValidateServiceAccount` and its update check only the metadata (`secrets` and
//! `imagePullSecrets` are not validated).

use super::super::formats;
use super::super::{FieldError, Write};
use super::fields::{items, spec};
use crate::value::Value;

/// `helper.IsStandardFinalizerName`: `kubernetes`, `orphan`, `foregroundDeletion`.
pub(super) const STANDARD_FINALIZERS: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// `ValidateNamespace` (create) / `ValidateNamespaceUpdate` (nothing beyond the metadata).
pub fn namespace(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if w.is_update() {
        return;
    }
    for finalizer in items(spec(object).get("finalizers")) {
        let name = finalizer.as_str().unwrap_or("");
        finalizer_name(name, "spec.finalizers", w.version(), errors);
    }
}

/// `validateFinalizerName`: a qualified name, and a standard one when it has no prefix.
pub(super) fn finalizer_name(
    name: &str,
    at: &str,
    version: crate::kube::KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for msg in formats::label_key(name, version) {
        errors.push(FieldError::invalid(at, FieldError::string_value(name), msg));
    }
    if !name.contains('/') && !STANDARD_FINALIZERS.contains(&name) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            "name is neither a standard finalizer name nor is it fully qualified",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const NAMESPACE: &str = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"monitoring"},
      "spec":{"finalizers":["kubernetes","example.com/cleanup"]}}"#;

    #[test]
    fn standard_or_qualified_finalizers_pass() {
        assert!(refusal_causes(NAMESPACE, None, 37).is_empty());
    }

    #[test]
    fn other_finalizers_are_refused_at_the_list() {
        let bad = NAMESPACE.replace(r#""kubernetes","#, r#""kubernetes","cleanup","a/b/c","#);
        assert_eq!(
            refusal_causes(&bad, None, 34),
            [
                "spec.finalizers: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified",
                "spec.finalizers: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ]
        );
    }

    #[test]
    fn updates_keep_the_stored_spec() {
        let bad = NAMESPACE.replace(r#""kubernetes","#, r#""cleanup","#);
        assert!(refusal_causes(&bad, Some(NAMESPACE), 37).is_empty());
    }

    #[test]
    fn service_accounts_check_only_metadata() {
        let sa = r#"{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"ci","namespace":"default"},
          "secrets":[{"name":""}],"imagePullSecrets":[{"name":"Not_A_Name"}],"automountServiceAccountToken":false}"#;
        assert!(refusal_causes(sa, None, 37).is_empty());
    }
}
