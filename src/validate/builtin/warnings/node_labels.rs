//! Deprecated node labels in selectors (k8s.io/kubernetes pkg/api/node/util.go:
//! `GetNodeLabelDeprecatedMessage`, `GetWarningsForNodeSelector`,
//! `GetWarningsForNodeSelectorTerm`, `GetWarningsForRuntimeClass`).

use super::super::super::{formats, Write};
use super::super::fields::items;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `deprecatedNodeLabels`, with the releases that list each label (three were added in 1.31).
const DEPRECATED_NODE_LABELS: &[(&str, &str, VersionRange)] = &[
    (
        "beta.kubernetes.io/arch",
        r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
        VersionRange::ALWAYS,
    ),
    (
        "beta.kubernetes.io/os",
        r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
        VersionRange::ALWAYS,
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
        VersionRange::ALWAYS,
    ),
    (
        "failure-domain.beta.kubernetes.io/zone",
        r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
        VersionRange::ALWAYS,
    ),
    (
        "beta.kubernetes.io/instance-type",
        r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
        VersionRange::ALWAYS,
    ),
    (
        "app.kubernetes.io/created-by",
        "deprecated since v1.9",
        VersionRange::since(31),
    ),
    (
        "scheduler.alpha.kubernetes.io/preferAvoidPods",
        "deprecated since v1.22; use Taints and Tolerations instead",
        VersionRange::since(31),
    ),
    (
        "node-role.kubernetes.io/master",
        r#"use "node-role.kubernetes.io/control-plane" instead"#,
        VersionRange::since(31),
    ),
];

/// The releases whose `GetWarningsForNodeSelectorTerm` also checks the values of preferred
/// node affinity terms (`checkLabelValue`).
const PREFERRED_VALUES_CHECKED: VersionRange = VersionRange::since(33);

/// `GetNodeLabelDeprecatedMessage`.
pub fn deprecated(key: &str, version: KubeVersion) -> Option<&'static str> {
    DEPRECATED_NODE_LABELS
        .iter()
        .find(|(label, _, versions)| *label == key && versions.contains(version))
        .map(|(_, message, _)| *message)
}

/// The keys of a string map (`nodeSelector`, `matchLabels`), sorted: upstream ranges over the
/// Go map, in random order.
pub fn sorted_keys(map: Option<&Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = map
        .and_then(Value::as_map)
        .map(|m| m.keys().map(|k| k.as_str()).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// `<at>: <message>` for each deprecated key of a string map, at `<at>[<key>]`.
// For the pod warnings' `nodeSelector`, written on another branch.
#[allow(dead_code)]
pub fn map_keys(map: Option<&Value>, at: &str, version: KubeVersion, out: &mut Vec<String>) {
    for key in sorted_keys(map) {
        if let Some(message) = deprecated(key, version) {
            out.push(format!("{at}[{key}]: {message}"));
        }
    }
}

/// `GetWarningsForNodeSelector`: a label selector's expressions, then its `matchLabels`
/// (reported as `<at>.matchLabels.<key>`, a child path, as upstream builds it).
pub fn label_selector(
    selector: Option<&Value>,
    at: &str,
    version: KubeVersion,
    out: &mut Vec<String>,
) {
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return;
    };
    let exprs_at = join(at, ".matchExpressions");
    for (i, expr) in items(selector.get("matchExpressions")).iter().enumerate() {
        let key = expr.get("key").and_then(Value::as_str).unwrap_or("");
        if let Some(message) = deprecated(key, version) {
            out.push(format!("{}.key: {key} is {message}", indexed(&exprs_at, i)));
        }
    }
    for key in sorted_keys(selector.get("matchLabels")) {
        if let Some(message) = deprecated(key, version) {
            out.push(format!("{at}.matchLabels.{key}: {message}"));
        }
    }
}

/// `GetWarningsForNodeSelectorTerm`: deprecated keys of the term's expressions, and for
/// `preferred` terms (from 1.33) values that are no label values.
pub fn node_selector_term(
    term: &Value,
    preferred: bool,
    at: &str,
    version: KubeVersion,
    out: &mut Vec<String>,
) {
    let check_values = preferred && PREFERRED_VALUES_CHECKED.contains(version);
    let exprs_at = join(at, ".matchExpressions");
    for (i, expr) in items(term.get("matchExpressions")).iter().enumerate() {
        let expr_at = indexed(&exprs_at, i);
        let key = expr.get("key").and_then(Value::as_str).unwrap_or("");
        if let Some(message) = deprecated(key, version) {
            out.push(format!("{expr_at}.key: {key} is {message}"));
        }
        if !check_values {
            continue;
        }
        let values_at = join(&expr_at, ".values");
        for (j, value) in items(expr.get("values")).iter().enumerate() {
            let value = value.as_str().unwrap_or("");
            for msg in formats::label_value(value, version) {
                out.push(format!(
                    "{}: {value} is invalid, {msg}",
                    indexed(&values_at, j)
                ));
            }
        }
    }
}

/// `GetWarningsForRuntimeClass`: one warning per deprecated `scheduling.nodeSelector` key, at
/// the map's path (upstream leaves the key out).
pub fn runtime_class(w: &Write, object: &Value, out: &mut Vec<String>) {
    let selector = object.get_path(&["scheduling", "nodeSelector"]);
    for key in sorted_keys(selector) {
        if let Some(message) = deprecated(key, w.version()) {
            out.push(format!("scheduling.nodeSelector: {message}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::json;
    use super::*;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    #[test]
    fn labels_deprecated_per_release() {
        assert!(deprecated("beta.kubernetes.io/os", v(30)).is_some());
        assert_eq!(deprecated("node-role.kubernetes.io/master", v(30)), None);
        assert_eq!(
            deprecated("node-role.kubernetes.io/master", v(31)),
            Some(r#"use "node-role.kubernetes.io/control-plane" instead"#)
        );
        assert_eq!(deprecated("kubernetes.io/os", v(36)), None);
    }

    #[test]
    fn selectors_and_terms() {
        let selector = json(
            r#"{"matchExpressions":[{"key":"failure-domain.beta.kubernetes.io/zone","operator":"In","values":["a"]}],
                "matchLabels":{"beta.kubernetes.io/os":"linux","app":"x"}}"#,
        );
        let mut out = Vec::new();
        label_selector(Some(&selector), "nodeTopology", v(36), &mut out);
        assert_eq!(
            out,
            [
                r#"nodeTopology.matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
                r#"nodeTopology.matchLabels.beta.kubernetes.io/os: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            ]
        );
        let term =
            json(r#"{"matchExpressions":[{"key":"zone","operator":"In","values":["a b"]}]}"#);
        let mut out = Vec::new();
        node_selector_term(&term, true, "p", v(32), &mut out);
        assert!(out.is_empty());
        node_selector_term(&term, true, "p", v(33), &mut out);
        assert_eq!(out.len(), 1);
        assert!(out[0]
            .starts_with("p.matchExpressions[0].values[0]: a b is invalid, a valid label must be"));
    }

    #[test]
    fn runtime_class_node_selector() {
        let class = r#"{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"gvisor"},
          "handler":"runsc","scheduling":{"nodeSelector":{"beta.kubernetes.io/os":"linux","beta.kubernetes.io/arch":"amd64"}}}"#;
        assert_eq!(
            super::super::super::tests::warnings(class, None, 36),
            [
                r#"Warning: scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
                r#"Warning: scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            ]
        );
    }
}
