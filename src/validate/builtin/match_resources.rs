//! `MatchResources` as admission policies and their bindings carry it (`matchConstraints`,
//! `matchResources`), checked as k8s.io/kubernetes pkg/apis/admissionregistration/validation
//! does in `validateMatchResources` and `validateNamedRuleWithOperations`, the rules being the
//! webhooks' (`admission::rule_with_operations`).
//!
//! kssa stores these kinds without their v1 defaults (`SetDefaults_MatchResources`: `matchPolicy`
//! `Equivalent`, empty selectors; `SetDefaults_Rule`: scope `*`), so an absent field stands for
//! its default here and its `Required value` is never reported.

use super::super::formats;
use super::super::{FieldError, Write};
use super::admission::{rule_with_operations, MATCH_POLICIES};
use super::fields::{items, present};
use super::selector;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `validateMatchResources` of the value at `at` (present: a nil one is not checked).
pub(super) fn match_resources(w: &Write, mc: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(policy) = present(mc, "matchPolicy") {
        let policy = policy.as_str().unwrap_or("");
        if !MATCH_POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                join(at, ".matchPolicy"),
                FieldError::string_value(policy),
                MATCH_POLICIES,
            ));
        }
    }
    // Both selectors are checked strictly: the type came after kubernetes#99139.
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(sel) = present(mc, key) {
            selector::validate(sel, &join(at, &format!(".{key}")), w.version(), errors);
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        let list_at = join(at, &format!(".{key}"));
        for (i, rule) in items(mc.get(key)).iter().enumerate() {
            named_rule_with_operations(rule, &indexed(&list_at, i), errors);
        }
    }
}

/// `validateNamedRuleWithOperations`: resource names path segments and unique, then the rule.
fn named_rule_with_operations(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let names_at = join(at, ".resourceNames");
    let mut seen = HashSet::new();
    for (i, name) in items(rule.get("resourceNames")).iter().enumerate() {
        let name = name.as_str().unwrap_or("");
        let item_at = indexed(&names_at, i);
        for msg in formats::path_segment_name(name) {
            errors.push(FieldError::invalid(
                item_at.as_str(),
                FieldError::string_value(name),
                msg,
            ));
        }
        if !seen.insert(name) {
            errors.push(FieldError::duplicate(
                item_at,
                FieldError::string_value(name),
            ));
        }
    }
    rule_with_operations(rule, at, errors);
}
