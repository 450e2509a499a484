//! RBAC roles and bindings, as k8s.io/kubernetes pkg/apis/rbac/validation checks them
//! (`ValidateRole`, `ValidateClusterRole`, `ValidatePolicyRule`, `ValidateRoleBinding`,
//! `ValidateClusterRoleBinding`, `ValidateRoleBindingSubject`) and the registry strategies'
//! `ValidateUpdate` (pkg/registry/rbac/{rolebinding,clusterrolebinding}/strategy.go: the
//! `roleRef` of a binding never changes).

use super::super::field::typed_value;
use super::super::formats;
use super::super::goprint::{go_quote, GoType};
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, text};
use super::selector::{self, Selector};
use crate::validate::field::{indexed, join};
use crate::value::{Map, Value};

/// `rbac.GroupName`.
const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// `ValidateRole`: every rule, namespaced; on update the metadata update checks follow.
pub fn role(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    rules(object, true, errors);
    super::meta::update_checks(w, object, errors);
}

/// `ValidateClusterRole`: every rule, then the aggregation rule's selectors; on update the
/// metadata update checks follow.
pub fn cluster_role(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    rules(object, false, errors);
    aggregation_rule(w, object, errors);
    super::meta::update_checks(w, object, errors);
}

fn aggregation_rule(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let Some(aggregation) = object.get("aggregationRule").filter(|a| !a.is_null()) else {
        return;
    };
    let base = "aggregationRule.clusterRoleSelectors";
    let selectors = items(aggregation.get("clusterRoleSelectors"));
    if selectors.is_empty() {
        errors.push(FieldError::required(
            base,
            "at least one clusterRoleSelector required if aggregationRule is non-nil",
        ));
    }
    for (i, s) in selectors.iter().enumerate() {
        let at = indexed(base, i);
        selector::validate(s, &at, w.version(), errors);
        if !Selector::of(Some(s)).converts() {
            // The selector the failed conversion returns is nil.
            errors.push(FieldError::invalid(
                at,
                BadValue::Value(Value::Null),
                "invalid label selector.",
            ));
        }
    }
}

fn rules(object: &Value, namespaced: bool, errors: &mut Vec<FieldError>) {
    for (i, rule) in items(object.get("rules")).iter().enumerate() {
        policy_rule(rule, namespaced, &format!("rules[{i}]"), errors);
    }
}

/// `ValidatePolicyRule`: verbs always; either non-resource URLs (cluster roles only, alone) or
/// API groups and resources.
fn policy_rule(rule: &Value, namespaced: bool, path: &str, errors: &mut Vec<FieldError>) {
    let count = |key: &str| items(rule.get(key)).len();
    if count("verbs") == 0 {
        errors.push(FieldError::required(
            join(path, ".verbs"),
            "verbs must contain at least one value",
        ));
    }
    if count("nonResourceURLs") > 0 {
        let urls = || {
            typed_value(
                rule.get("nonResourceURLs").cloned().unwrap_or(Value::Null),
                &GoType::StringList,
            )
        };
        let at = join(path, ".nonResourceURLs");
        if namespaced {
            errors.push(FieldError::invalid(
                &at,
                urls(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if count("apiGroups") > 0 || count("resources") > 0 || count("resourceNames") > 0 {
            errors.push(FieldError::invalid(
                &at,
                urls(),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if count("apiGroups") == 0 {
        errors.push(FieldError::required(
            join(path, ".apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if count("resources") == 0 {
        errors.push(FieldError::required(
            join(path, ".resources"),
            "resource rules must supply at least one resource",
        ));
    }
}

/// `ValidateRoleBinding` / `ValidateRoleBindingUpdate`.
pub fn role_binding(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    binding(w, object, &["Role", "ClusterRole"], true, errors);
}

/// `ValidateClusterRoleBinding` / `ValidateClusterRoleBindingUpdate`.
pub fn cluster_role_binding(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    binding(w, object, &["ClusterRole"], false, errors);
}

fn binding(
    w: &Write,
    object: &Value,
    kinds: &[&str],
    namespaced: bool,
    errors: &mut Vec<FieldError>,
) {
    let empty = Value::Null;
    let role_ref = object.get("roleRef").unwrap_or(&empty);
    let api_group = text(role_ref, "apiGroup");
    if api_group != RBAC_GROUP {
        errors.push(FieldError::not_supported(
            "roleRef.apiGroup",
            FieldError::string_value(api_group),
            &[RBAC_GROUP],
        ));
    }
    let kind = text(role_ref, "kind");
    if !kinds.contains(&kind) {
        errors.push(FieldError::not_supported(
            "roleRef.kind",
            FieldError::string_value(kind),
            kinds,
        ));
    }
    let name = text(role_ref, "name");
    if name.is_empty() {
        errors.push(FieldError::required("roleRef.name", ""));
    } else {
        for msg in formats::path_segment_name(name) {
            errors.push(FieldError::invalid(
                "roleRef.name",
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    for (i, s) in items(object.get("subjects")).iter().enumerate() {
        subject(s, namespaced, &format!("subjects[{i}]"), errors);
    }
    super::meta::update_checks(w, object, errors);
    if let Some(old) = w.live {
        let old_ref = old.get("roleRef").unwrap_or(&empty);
        let same = ["apiGroup", "kind", "name"]
            .iter()
            .all(|k| text(role_ref, k) == text(old_ref, k));
        if !same {
            errors.push(FieldError::invalid(
                "roleRef",
                quoted_role_ref(role_ref),
                "cannot change roleRef",
            ));
        }
    }
}

/// The internal `rbac.RoleRef` as the server quotes it: Go syntax before 1.34, JSON of the
/// untagged struct (Go field names) since.
fn quoted_role_ref(role_ref: &Value) -> BadValue {
    let fields = [("APIGroup", "apiGroup"), ("Kind", "kind"), ("Name", "name")];
    let mut value = Map::default();
    let mut go = Vec::new();
    for (go_name, key) in fields {
        let v = text(role_ref, key);
        value.insert(go_name.into(), Value::from(v));
        go.push(format!("{go_name}:{}", go_quote(v)));
    }
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax: format!("rbac.RoleRef{{{}}}", go.join(", ")),
    }
}

/// `ValidateRoleBindingSubject`.
fn subject(s: &Value, namespaced: bool, path: &str, errors: &mut Vec<FieldError>) {
    let name = text(s, "name");
    if name.is_empty() {
        errors.push(FieldError::required(join(path, ".name"), ""));
    }
    let api_group = text(s, "apiGroup");
    match text(s, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for msg in formats::dns1123_subdomain(name) {
                    errors.push(FieldError::invalid(
                        join(path, ".name"),
                        FieldError::string_value(name),
                        msg,
                    ));
                }
            }
            if !api_group.is_empty() {
                errors.push(FieldError::not_supported(
                    join(path, ".apiGroup"),
                    FieldError::string_value(api_group),
                    &[""],
                ));
            }
            if !namespaced && text(s, "namespace").is_empty() {
                errors.push(FieldError::required(join(path, ".namespace"), ""));
            }
        }
        "User" | "Group" => {
            if api_group != RBAC_GROUP {
                errors.push(FieldError::not_supported(
                    join(path, ".apiGroup"),
                    FieldError::string_value(api_group),
                    &[RBAC_GROUP],
                ));
            }
        }
        other => errors.push(FieldError::not_supported(
            join(path, ".kind"),
            FieldError::string_value(other),
            &["ServiceAccount", "User", "Group"],
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    /// `ValidateRoleBindingUpdate`: the binding, then `ValidateObjectMetaUpdate`, then `roleRef`.
    #[test]
    fn binding_updates_check_metadata_after_the_binding() {
        let live = r#"{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b","namespace":"default","uid":"u",
          "resourceVersion":"5","deletionTimestamp":"2024-05-01T10:00:00Z","finalizers":["example.com/a"]},
          "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},
          "subjects":[{"kind":"ServiceAccount","name":"s","namespace":"default"}]}"#;
        let object = live
            .replace(
                r#""finalizers":["example.com/a"]"#,
                r#""finalizers":["example.com/a","example.com/b"]"#,
            )
            .replace(r#""name":"s","#, r#""name":"","#)
            .replace(r#""name":"r""#, r#""name":"other""#);
        assert_eq!(
            refusal_causes(&object, Some(live), 37),
            [
                "subjects[0].name: Required value",
                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}",
                "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"other\"}: cannot change roleRef",
            ]
        );
    }
}
