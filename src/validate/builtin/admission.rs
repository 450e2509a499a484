//! Validating and mutating webhook configurations, as k8s.io/kubernetes
//! pkg/apis/admissionregistration/validation checks them (`validateValidatingWebhookConfiguration`,
//! `validateMutatingWebhookConfiguration`, `validateValidatingWebhook`, `validateMutatingWebhook`,
//! `validateRuleWithOperations`, `validateRule`, `validateResources`,
//! `validateAdmissionReviewVersions`, `validateMatchConditions`), with the options
//! `Validate…WebhookConfigurationUpdate` derives from the stored object, and the client
//! configuration rules of k8s.io/apiserver pkg/util/webhook (`ValidateWebhookURL`,
//! `ValidateWebhookService`). Absent enums stand for their defaults (`SetDefaults_*Webhook`).

use super::super::field::typed_value;
use super::super::formats;
use super::super::goprint::{go_quote, GoType};
use super::super::{BadValue, FieldError, Write};
use super::admission_cel::{self, Decls, Returns};
use super::affinity::label_name;
use super::fields::{items, present, text};
use super::selector;
use super::webhook_client::client_config;
use crate::kube::KubeVersion;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `supportedFailurePolicies`, sorted as `sets.String.List` returns it.
pub(super) const FAILURE_POLICIES: &[&str] = &["Fail", "Ignore"];
/// `supportedMatchPolicies`, sorted.
pub(super) const MATCH_POLICIES: &[&str] = &["Equivalent", "Exact"];
/// `supportedSideEffectClasses`, sorted.
const SIDE_EFFECTS: &[&str] = &["None", "NoneOnDryRun", "Some", "Unknown"];
/// `noSideEffectClasses`, sorted: all a new configuration may use.
const NO_SIDE_EFFECTS: &[&str] = &["None", "NoneOnDryRun"];
/// `supportedOperations`, sorted.
const OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
/// `supportedReinvocationPolicies`, sorted.
const REINVOCATION_POLICIES: &[&str] = &["IfNeeded", "Never"];
/// `validScopes`, sorted.
const SCOPES: &[&str] = &["*", "Cluster", "Namespaced"];
/// `AcceptedAdmissionReviewVersions`.
const REVIEW_VERSIONS: &[&str] = &["v1", "v1beta1"];
/// The most match conditions a webhook may have.
const MAX_MATCH_CONDITIONS: usize = 64;

/// A webhook's label selectors, in the order they are checked.
const SELECTORS: [&str; 2] = ["namespaceSelector", "objectSelector"];

/// Which webhook kind: the mutating one has a reinvocation policy.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hook {
    Validating,
    Mutating,
}

/// `validationOptions`: strict on create; on update relaxed where the stored object already
/// breaks a rule.
struct Options {
    ignore_match_conditions: bool,
    require_no_side_effects: bool,
    require_recognized_review_version: bool,
    require_unique_names: bool,
    /// `allowInvalidLabelValueInSelector` (`…WebhookHasInvalidLabelValueInSelector`): a stored
    /// hook's namespace or object selector already broke a rule.
    selector_values: selector::Values,
}

impl Options {
    fn of(new: &[Value], old: Option<&Value>, version: KubeVersion) -> Options {
        let Some(old) = old else {
            return Options {
                ignore_match_conditions: false,
                require_no_side_effects: true,
                require_recognized_review_version: true,
                require_unique_names: true,
                selector_values: selector::Values::Checked,
            };
        };
        let old = items(old.get("webhooks"));
        let mut names = HashSet::new();
        let stored_invalid_selector = old.iter().any(|h| {
            SELECTORS
                .iter()
                .filter_map(|key| present(h, key))
                .any(|s| selector::is_invalid(s, version))
        });
        Options {
            selector_values: selector::Values::allowing_invalid_if(stored_invalid_selector),
            // ignore…WebhookMatchConditions: the same number of hooks, each with the same
            // conditions.
            ignore_match_conditions: new.len() == old.len()
                && new
                    .iter()
                    .zip(old)
                    .all(|(n, o)| conditions(n) == conditions(o)),
            require_no_side_effects: old.iter().all(|h| {
                present(h, "sideEffects")
                    .and_then(Value::as_str)
                    .is_some_and(|s| NO_SIDE_EFFECTS.contains(&s))
            }),
            require_recognized_review_version: old.iter().all(|h| {
                let versions = items(h.get("admissionReviewVersions"));
                versions.is_empty()
                    || versions
                        .iter()
                        .any(|v| REVIEW_VERSIONS.contains(&v.as_str().unwrap_or("")))
            }),
            require_unique_names: old.iter().all(|h| names.insert(text(h, "name"))),
        }
    }
}

fn conditions(hook: &Value) -> &[Value] {
    items(hook.get("matchConditions"))
}

/// `ValidateValidatingWebhookConfiguration` / `…Update`.
pub fn validating(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    configuration(w, object, Hook::Validating, errors);
}

/// `ValidateMutatingWebhookConfiguration` / `…Update`.
pub fn mutating(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    configuration(w, object, Hook::Mutating, errors);
}

fn configuration(w: &Write, object: &Value, kind: Hook, errors: &mut Vec<FieldError>) {
    let hooks = items(object.get("webhooks"));
    let opts = Options::of(hooks, w.live, w.version());
    let mut names = HashSet::new();
    for (i, hook) in hooks.iter().enumerate() {
        let at = indexed("webhooks", i);
        webhook(w, hook, kind, &opts, &at, errors);
        review_versions(hook, &opts, &join(&at, ".admissionReviewVersions"), errors);
        let name = text(hook, "name");
        if opts.require_unique_names && !name.is_empty() && !names.insert(name) {
            errors.push(FieldError::duplicate(
                join(&at, ".name"),
                FieldError::string_value(name),
            ));
        }
    }
}

/// An enum field checked only when set (its default is valid).
fn optional_enum(
    hook: &Value,
    key: &str,
    at: &str,
    allowed: &[&str],
    errors: &mut Vec<FieldError>,
) {
    if let Some(v) = present(hook, key) {
        let v = v.as_str().unwrap_or("");
        if !allowed.contains(&v) {
            errors.push(FieldError::not_supported(
                join(at, &format!(".{key}")),
                FieldError::string_value(v),
                allowed,
            ));
        }
    }
}

/// `validateValidatingWebhook` / `validateMutatingWebhook`.
fn webhook(
    w: &Write,
    hook: &Value,
    kind: Hook,
    opts: &Options,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    fully_qualified_name(text(hook, "name"), &join(at, ".name"), errors);
    for (i, rule) in items(hook.get("rules")).iter().enumerate() {
        rule_with_operations(rule, &indexed(&join(at, ".rules"), i), errors);
    }
    optional_enum(hook, "failurePolicy", at, FAILURE_POLICIES, errors);
    optional_enum(hook, "matchPolicy", at, MATCH_POLICIES, errors);
    let allowed = if opts.require_no_side_effects {
        NO_SIDE_EFFECTS
    } else {
        SIDE_EFFECTS
    };
    if present(hook, "sideEffects").is_none() {
        errors.push(FieldError::required(
            join(at, ".sideEffects"),
            format!("must specify one of {}", allowed.join(", ")),
        ));
    }
    optional_enum(hook, "sideEffects", at, allowed, errors);
    if let Some(t) = present(hook, "timeoutSeconds").and_then(Value::as_i64) {
        if !(1..=30).contains(&t) {
            errors.push(FieldError::invalid(
                join(at, ".timeoutSeconds"),
                BadValue::Value(Value::Int(t)),
                "the timeout value must be between 1 and 30 seconds",
            ));
        }
    }
    for key in SELECTORS {
        if let Some(sel) = present(hook, key) {
            let at = join(at, &format!(".{key}"));
            selector::validate_with(sel, &at, opts.selector_values, w.version(), errors);
        }
    }
    if kind == Hook::Mutating {
        optional_enum(
            hook,
            "reinvocationPolicy",
            at,
            REINVOCATION_POLICIES,
            errors,
        );
    }
    static NULL: Value = Value::Null;
    let cc = hook.get("clientConfig").unwrap_or(&NULL);
    client_config(cc, &join(at, ".clientConfig"), w.version(), errors);
    if !opts.ignore_match_conditions {
        let stored: Vec<&str> = w
            .live
            .map(|old| items(old.get("webhooks")))
            .unwrap_or_default()
            .iter()
            .flat_map(|h| conditions(h).iter().map(|c| text(c, "expression")))
            .collect();
        match_conditions(
            w,
            conditions(hook),
            &join(at, ".matchConditions"),
            Some(Decls::WEBHOOK),
            &stored,
            errors,
        );
    }
}

/// apimachinery `IsFullyQualifiedName`: required, a DNS subdomain (its messages joined by a
/// comma), at least three labels.
fn fully_qualified_name(name: &str, at: &str, errors: &mut Vec<FieldError>) {
    if name.is_empty() {
        errors.push(FieldError::required(at, ""));
        return;
    }
    let msgs = formats::dns1123_subdomain(name);
    if !msgs.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            msgs.join(","),
        ));
    } else if name.split('.').count() < 3 {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(name),
            "should be a domain with at least three segments separated by dots",
        ));
    }
}

pub(super) fn strings(v: Option<&Value>) -> Vec<&str> {
    items(v).iter().map(|s| s.as_str().unwrap_or("")).collect()
}

/// A `[]string` as the server quotes it.
fn string_list(list: &[&str]) -> BadValue {
    let value = Value::List(list.iter().map(|s| Value::from(*s)).collect());
    typed_value(value, &GoType::StringList)
}

/// `validateRuleWithOperations`, then `validateRule` with subresources allowed.
pub(super) fn rule_with_operations(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let ops = strings(rule.get("operations"));
    let ops_at = join(at, ".operations");
    if ops.is_empty() {
        errors.push(FieldError::required(ops_at.as_str(), ""));
    }
    if ops.len() > 1 && ops.contains(&"*") {
        let quoted: Vec<String> = ops.iter().map(|o| go_quote(o)).collect();
        errors.push(FieldError::invalid(
            ops_at.as_str(),
            BadValue::GoValue {
                value: Value::List(ops.iter().map(|o| Value::from(*o)).collect()),
                go_syntax: format!(
                    "[]admissionregistration.OperationType{{{}}}",
                    quoted.join(", ")
                ),
            },
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, op) in ops.iter().enumerate() {
        if !OPERATIONS.contains(op) {
            errors.push(FieldError::not_supported(
                indexed(&ops_at, i),
                FieldError::string_value(op),
                OPERATIONS,
            ));
        }
    }
    for (key, what) in [("apiGroups", "API groups"), ("apiVersions", "API versions")] {
        let list = strings(rule.get(key));
        let list_at = join(at, &format!(".{key}"));
        if list.is_empty() {
            errors.push(FieldError::required(list_at.as_str(), ""));
        }
        if list.len() > 1 && list.contains(&"*") {
            errors.push(FieldError::invalid(
                list_at.as_str(),
                string_list(&list),
                format!("if '*' is present, must not specify other {what}"),
            ));
        }
        if key == "apiVersions" {
            for (i, v) in list.iter().enumerate() {
                if v.is_empty() {
                    errors.push(FieldError::required(indexed(&list_at, i), ""));
                }
            }
        }
    }
    resources(
        &strings(rule.get("resources")),
        &join(at, ".resources"),
        errors,
    );
    if let Some(scope) = present(rule, "scope") {
        let scope = scope.as_str().unwrap_or("");
        if !SCOPES.contains(&scope) {
            errors.push(FieldError::not_supported(
                join(at, ".scope"),
                FieldError::string_value(scope),
                SCOPES,
            ));
        }
    }
}

/// `validateResources`: required, no empty item, wildcards not overlapping.
fn resources(list: &[&str], at: &str, errors: &mut Vec<FieldError>) {
    if list.is_empty() {
        errors.push(FieldError::required(at, ""));
    }
    let mut with_wildcard_sub: HashSet<&str> = HashSet::new();
    let mut sub_with_wildcard_res: HashSet<&str> = HashSet::new();
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, res_sub) in list.iter().enumerate() {
        let item_at = indexed(at, i);
        if res_sub.is_empty() {
            errors.push(FieldError::required(item_at, ""));
            continue;
        }
        double |= *res_sub == "*/*";
        single |= *res_sub == "*";
        let Some((res, sub)) = res_sub.split_once('/') else {
            // As upstream: the last resource without a subresource decides.
            plain = *res_sub != "*";
            continue;
        };
        if with_wildcard_sub.contains(res) {
            errors.push(FieldError::invalid(
                item_at.as_str(),
                FieldError::string_value(res_sub),
                format!("if '{res}/*' is present, must not specify {res_sub}"),
            ));
        }
        if sub_with_wildcard_res.contains(sub) {
            errors.push(FieldError::invalid(
                item_at.as_str(),
                FieldError::string_value(res_sub),
                format!("if '*/{sub}' is present, must not specify {res_sub}"),
            ));
        }
        if sub == "*" {
            with_wildcard_sub.insert(res);
        }
        if res == "*" {
            sub_with_wildcard_res.insert(sub);
        }
    }
    if list.len() > 1 && double {
        errors.push(FieldError::invalid(
            at,
            string_list(list),
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single && plain {
        errors.push(FieldError::invalid(
            at,
            string_list(list),
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
}

/// `validateAdmissionReviewVersions`.
fn review_versions(hook: &Value, opts: &Options, at: &str, errors: &mut Vec<FieldError>) {
    let versions = strings(hook.get("admissionReviewVersions"));
    if versions.is_empty() {
        errors.push(FieldError::required(
            at,
            format!("must specify one of {}", REVIEW_VERSIONS.join(", ")),
        ));
        return;
    }
    let mut seen = HashSet::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        let item_at = indexed(at, i);
        if !seen.insert(*v) {
            errors.push(FieldError::invalid(
                item_at,
                FieldError::string_value(v),
                "duplicate version",
            ));
            continue;
        }
        for msg in formats::dns1035_label(v) {
            errors.push(FieldError::invalid(
                item_at.as_str(),
                FieldError::string_value(v),
                msg,
            ));
        }
        accepted |= REVIEW_VERSIONS.contains(v);
    }
    if opts.require_recognized_review_version && !accepted {
        errors.push(FieldError::invalid(
            at,
            string_list(&versions),
            format!(
                "must include at least one of {}",
                REVIEW_VERSIONS.join(", ")
            ),
        ));
    }
}

/// `validateMatchConditions`: at most 64, each with an expression (compiled trimmed,
/// `validateMatchConditionsExpression`, with the declarations `decls`) and a qualified name,
/// names unique (`decls` `None`: not compiled). `stored`: the expressions of the stored object (`preexistingExpressions`).
pub(super) fn match_conditions(
    w: &Write,
    list: &[Value],
    at: &str,
    decls: Option<Decls>,
    stored: &[&str],
    errors: &mut Vec<FieldError>,
) {
    if list.len() > MAX_MATCH_CONDITIONS {
        errors.push(FieldError::too_many(
            at,
            list.len(),
            MAX_MATCH_CONDITIONS,
            w.version(),
        ));
    }
    let mut names = HashSet::new();
    for (i, condition) in list.iter().enumerate() {
        let item_at = indexed(at, i);
        let expression = text(condition, "expression").trim();
        let expression_at = join(&item_at, ".expression");
        if expression.is_empty() {
            errors.push(FieldError::required(expression_at, ""));
        } else if let Some(decls) = decls {
            let stored = stored.contains(&expression);
            let (error, _) = admission_cel::compile(
                expression,
                expression,
                &expression_at,
                decls,
                Returns::Bool,
                w.version(),
                stored,
            );
            errors.extend(error);
        }
        let name = text(condition, "name");
        let name_at = join(&item_at, ".name");
        if name.is_empty() {
            errors.push(FieldError::required(name_at.as_str(), ""));
        } else {
            label_name(name, &name_at, w.version(), errors);
            if !names.insert(name) {
                errors.push(FieldError::duplicate(
                    name_at,
                    FieldError::string_value(name),
                ));
            }
        }
    }
}

#[cfg(test)]
#[path = "admission_tests.rs"]
mod tests;
