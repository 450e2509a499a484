//! Pod affinity rules, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`validateAffinity`, `ValidateNodeSelector`, `ValidateNodeSelectorRequirement`,
//! `ValidateNodeFieldSelectorRequirement`, `ValidatePreferredSchedulingTerms`,
//! `validatePodAffinityTerm`, `validateMatchLabelKeysAndMismatchLabelKeys`).

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{items, present, text};
use super::pod_options::PodOptions;
use super::selector;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// Label values in required node affinity expressions are checked from 1.33 (kubernetes
/// #128212, `AllowInvalidLabelValueInRequiredNodeAffinity` false on create).
const NODE_AFFINITY_VALUES: VersionRange = VersionRange::since(33);

/// `validateAffinity` of the pod spec at `path`, with what `opts` allows.
pub fn affinity(
    spec: &Value,
    path: &str,
    opts: &PodOptions,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(a) = present(spec, "affinity") else {
        return;
    };
    let at = join(path, ".affinity");
    if let Some(na) = present(a, "nodeAffinity") {
        let check_values =
            NODE_AFFINITY_VALUES.contains(version) && !opts.invalid_required_node_affinity_values;
        node_affinity(
            na,
            &join(&at, ".nodeAffinity"),
            check_values,
            version,
            errors,
        );
    }
    for key in ["podAffinity", "podAntiAffinity"] {
        if let Some(pa) = present(a, key) {
            let at = format!("{at}.{key}");
            pod_affinity(pa, &at, opts.affinity_selector_values, version, errors);
        }
    }
}

/// `validateNodeAffinity`; `check_values`: the label values of required terms are checked.
fn node_affinity(
    na: &Value,
    path: &str,
    check_values: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
    const PREFERRED: &str = "preferredDuringSchedulingIgnoredDuringExecution";
    if let Some(selector) = present(na, REQUIRED) {
        let at = format!("{path}.{REQUIRED}");
        node_selector(selector, &at, check_values, version, errors);
    }
    for (i, term) in items(na.get(PREFERRED)).iter().enumerate() {
        let at = format!("{path}.{PREFERRED}[{i}]");
        weight(term, &at, errors);
        // Preferred terms keep invalid label values: they may still match on one node.
        static NULL: Value = Value::Null;
        let preference = present(term, "preference").unwrap_or(&NULL);
        node_selector_term(
            preference,
            &join(&at, ".preference"),
            false,
            version,
            errors,
        );
    }
}

/// `ValidateNodeSelector`: at least one term, each term valid; `check_values` as
/// [`NODE_AFFINITY_VALUES`] and the stored object decide (see [`required_values_checked`]).
pub(super) fn node_selector(
    selector: &Value,
    path: &str,
    check_values: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let at = join(path, ".nodeSelectorTerms");
    let terms = items(selector.get("nodeSelectorTerms"));
    if terms.is_empty() {
        errors.push(FieldError::required(
            at,
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, term) in terms.iter().enumerate() {
        node_selector_term(term, &indexed(&at, i), check_values, version, errors);
    }
}

/// Whether the label values of a required node selector's expressions are checked: from 1.33,
/// unless the stored object's terms already held an invalid one
/// (`AllowInvalidLabelValueInRequiredNodeAffinity`, set by
/// `HasInvalidLabelValueInNodeSelectorTerms` on update).
pub(super) fn required_values_checked(stored_terms: Option<&Value>, version: KubeVersion) -> bool {
    NODE_AFFINITY_VALUES.contains(version) && !has_invalid_label_value(stored_terms, version)
}

/// `HasInvalidLabelValueInNodeSelectorTerms`: a value of a term's expression that is no label
/// value.
pub(super) fn has_invalid_label_value(terms: Option<&Value>, version: KubeVersion) -> bool {
    items(terms)
        .iter()
        .flat_map(|term| items(term.get("matchExpressions")))
        .flat_map(|expr| items(expr.get("values")))
        .any(|v| !formats::label_value(v.as_str().unwrap_or(""), version).is_empty())
}

/// A term's `weight` in 1–100.
fn weight(term: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let w = term.get("weight").and_then(Value::as_i64).unwrap_or(0);
    if !(1..=100).contains(&w) {
        errors.push(FieldError::invalid(
            join(path, ".weight"),
            BadValue::Value(Value::Int(w)),
            "must be in the range 1-100",
        ));
    }
}

/// `ValidateNodeSelectorTerm`: each expression, then each field expression.
pub(super) fn node_selector_term(
    term: &Value,
    path: &str,
    check_values: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for (j, req) in items(term.get("matchExpressions")).iter().enumerate() {
        let at = format!("{path}.matchExpressions[{j}]");
        let values = items(req.get("values"));
        match text(req, "operator") {
            "In" | "NotIn" if values.is_empty() => errors.push(FieldError::required(
                join(&at, ".values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errors.push(FieldError::forbidden(
                join(&at, ".values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "Gt" | "Lt" if values.len() != 1 => errors.push(FieldError::required(
                join(&at, ".values"),
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
            other => errors.push(FieldError::invalid(
                join(&at, ".operator"),
                FieldError::string_value(other),
                "not a valid selector operator",
            )),
        }
        label_name(text(req, "key"), &join(&at, ".key"), version, errors);
        if check_values {
            for (k, v) in values.iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                for msg in formats::label_value(v, version) {
                    errors.push(FieldError::invalid(
                        format!("{at}.values[{k}]"),
                        FieldError::string_value(v),
                        msg,
                    ));
                }
            }
        }
    }
    for (j, req) in items(term.get("matchFields")).iter().enumerate() {
        let at = format!("{path}.matchFields[{j}]");
        let values = items(req.get("values"));
        match text(req, "operator") {
            "In" | "NotIn" => {
                if values.len() != 1 {
                    errors.push(FieldError::required(
                        join(&at, ".values"),
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                    ));
                }
            }
            other => errors.push(FieldError::invalid(
                join(&at, ".operator"),
                FieldError::string_value(other),
                "not a valid selector operator",
            )),
        }
        let key = text(req, "key");
        if key != "metadata.name" {
            errors.push(FieldError::invalid(
                join(&at, ".key"),
                FieldError::string_value(key),
                "not a valid field selector key",
            ));
            continue;
        }
        // `ValidateNodeName`: a DNS subdomain.
        for (k, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in formats::dns1123_subdomain(v) {
                errors.push(FieldError::invalid(
                    format!("{at}.values[{k}]"),
                    FieldError::string_value(v),
                    msg,
                ));
            }
        }
    }
}

/// `ValidateLabelName`: a qualified name.
pub fn label_name(key: &str, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    for msg in formats::label_key(key, version) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(key),
            msg,
        ));
    }
}

/// `validatePodAffinity` / `validatePodAntiAffinity`: required terms, then weighted ones.
fn pod_affinity(
    pa: &Value,
    path: &str,
    values: selector::Values,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
    const PREFERRED: &str = "preferredDuringSchedulingIgnoredDuringExecution";
    for (i, term) in items(pa.get(REQUIRED)).iter().enumerate() {
        let at = format!("{path}.{REQUIRED}[{i}]");
        pod_affinity_term(term, &at, values, version, errors);
    }
    for (i, weighted) in items(pa.get(PREFERRED)).iter().enumerate() {
        let at = format!("{path}.{PREFERRED}[{i}]");
        weight(weighted, &at, errors);
        static NULL: Value = Value::Null;
        let term = present(weighted, "podAffinityTerm").unwrap_or(&NULL);
        pod_affinity_term(
            term,
            &join(&at, ".podAffinityTerm"),
            values,
            version,
            errors,
        );
    }
}

/// `validatePodAffinityTerm`: the selectors (`ValidatePodAffinityTermSelector`, label values
/// checked as `values` says), the namespaces, the label keys, the topology key.
fn pod_affinity_term(
    term: &Value,
    path: &str,
    values: selector::Values,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for key in ["labelSelector", "namespaceSelector"] {
        if let Some(s) = present(term, key) {
            selector::validate_with(s, &format!("{path}.{key}"), values, version, errors);
        }
    }
    for ns in items(term.get("namespaces")) {
        let ns = ns.as_str().unwrap_or("");
        // `ValidateNamespaceName`, reported at the singular `namespace` as the server does.
        for msg in formats::dns1123_label(ns) {
            errors.push(FieldError::invalid(
                join(path, ".namespace"),
                FieldError::string_value(ns),
                msg,
            ));
        }
    }
    match_label_keys(term, path, version, errors);
    let topology_key = text(term, "topologyKey");
    if topology_key.is_empty() {
        errors.push(FieldError::required(
            join(path, ".topologyKey"),
            "can not be empty",
        ));
    }
    label_name(topology_key, &join(path, ".topologyKey"), version, errors);
}

/// `validateMatchLabelKeysAndMismatchLabelKeys` of a pod affinity term. A Pod's terms reach
/// validation with the keys merged into their selectors (`kube::pod_label_keys`), templates'
/// as written.
fn match_label_keys(term: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let strings = |key: &str| -> Vec<&str> {
        items(term.get(key))
            .iter()
            .map(|k| k.as_str().unwrap_or(""))
            .collect()
    };
    label_keys_rules(
        &strings("matchLabelKeys"),
        &strings("mismatchLabelKeys"),
        present(term, "labelSelector"),
        path,
        version,
        errors,
    );
}

/// `ValidateMatchLabelKeysAndMismatchLabelKeys` at `path` (an affinity term, or from 1.34 a
/// topology spread constraint, which has no mismatching keys): label names, only with a
/// selector; a matching key whose expression follows another part of the selector with that
/// key (after a Pod's merge: a key the selector already constrains), reported, as upstream
/// does, at `path[i]`; no key both matching and mismatching.
pub fn label_keys_rules(
    matching: &[&str],
    mismatching: &[&str],
    selector: Option<&Value>,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for (key, keys) in [
        ("matchLabelKeys", matching),
        ("mismatchLabelKeys", mismatching),
    ] {
        if keys.is_empty() {
            continue;
        }
        let at = format!("{path}.{key}");
        if selector.is_none() {
            errors.push(FieldError::forbidden(
                at,
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (i, k) in keys.iter().enumerate() {
            label_name(k, &indexed(&at, i), version, errors);
        }
    }
    if let Some(s) = selector {
        let mut seen: HashSet<&str> = s
            .get("matchLabels")
            .and_then(Value::as_map)
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for expr in items(s.get("matchExpressions")) {
            let key = text(expr, "key");
            if let Some(i) = matching.iter().rposition(|k| *k == key) {
                if seen.contains(key) {
                    errors.push(FieldError::invalid(
                        indexed(path, i),
                        FieldError::string_value(key),
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
            seen.insert(key);
        }
    }
    let mismatch: HashSet<&str> = mismatching.iter().copied().collect();
    for (i, k) in matching.iter().enumerate() {
        if mismatch.contains(k) {
            errors.push(FieldError::invalid(
                format!("{path}.matchLabelKeys[{i}]"),
                FieldError::string_value(k),
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
}

#[cfg(test)]
#[path = "affinity_tests.rs"]
mod tests;
