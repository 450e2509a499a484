//! A Pod create's label-key selectors: k8s.io/kubernetes pkg/registry/core/pod/strategy.go
//! `PrepareForCreate` (`mutatePodAffinity`, `mutateTopologySpreadConstraints`,
//! `applyLabelKeysToLabelSelector`). Each `matchLabelKeys` key the Pod's labels carry becomes a
//! `key In (value)` expression appended to the term's or constraint's `labelSelector`, each
//! `mismatchLabelKeys` key a `key NotIn (value)` one; a term without a selector is left alone
//! (a nil selector matches nothing). Validation and the stored Pod see the merged selectors.
//! Pod templates are never merged: their pods are, when created.

use super::{KubeVersion, VersionRange};
use crate::value::access::{items, present};
use crate::value::{List, Map, Value};

/// The releases whose default gates merge pod (anti-)affinity terms' keys
/// (MatchLabelKeysInPodAffinity: alpha in 1.30, beta from 1.31, GA in 1.33).
const AFFINITY_MERGE: VersionRange = VersionRange::since(31);
/// The releases whose default gates merge topology spread constraints' keys
/// (MatchLabelKeysInPodTopologySpreadSelectorMerge, beta from 1.34).
const SPREAD_MERGE: VersionRange = VersionRange::since(34);

/// The affinity kinds and, per kind, the term lists with where the term sits in an item.
const AFFINITY_KINDS: [&str; 2] = ["podAffinity", "podAntiAffinity"];
const TERM_LISTS: [(&str, Option<&str>); 2] = [
    (
        "preferredDuringSchedulingIgnoredDuringExecution",
        Some("podAffinityTerm"),
    ),
    ("requiredDuringSchedulingIgnoredDuringExecution", None),
];

/// Merges the label keys of the Pod `pod` (a v1 Pod being created) into its selectors.
pub fn merge(pod: &mut Value, version: KubeVersion) {
    let labels = match pod
        .get_path(&["metadata", "labels"])
        .and_then(Value::as_map)
    {
        Some(labels) if !labels.is_empty() => labels.clone(),
        _ => return,
    };
    let Some(spec) = pod.as_map_mut().and_then(|p| p.get_mut("spec")) else {
        return;
    };
    if AFFINITY_MERGE.contains(version) && spec.get("affinity").is_some() {
        merge_affinity(spec, &labels);
    }
    if SPREAD_MERGE.contains(version) && !items(spec.get("topologySpreadConstraints")).is_empty() {
        for constraint in list_items_mut(spec, "topologySpreadConstraints") {
            apply(constraint, &labels);
        }
    }
}

fn merge_affinity(spec: &mut Value, labels: &Map) {
    let Some(affinity) = map_mut(spec, "affinity") else {
        return;
    };
    for kind in AFFINITY_KINDS {
        let Some(terms) = map_mut(affinity, kind) else {
            continue;
        };
        for (list, term_key) in TERM_LISTS {
            for item in list_items_mut(terms, list) {
                let term = match term_key {
                    Some(key) => match map_mut(item, key) {
                        Some(term) => term,
                        None => continue,
                    },
                    None => item,
                };
                apply(term, labels);
            }
        }
    }
}

/// `applyMatchLabelKeysAndMismatchLabelKeys` / `applyMatchLabelKeys` on one term or
/// constraint (a constraint has no `mismatchLabelKeys`).
fn apply(term: &mut Value, labels: &Map) {
    let mut added = Vec::new();
    for (keys, operator) in [("matchLabelKeys", "In"), ("mismatchLabelKeys", "NotIn")] {
        for key in items(term.get(keys)).iter().filter_map(Value::as_str) {
            if let Some(value) = labels.get(key).and_then(Value::as_str) {
                added.push(requirement(key, operator, value));
            }
        }
    }
    if added.is_empty() || present(term, "labelSelector").is_none() {
        return;
    }
    let Some(selector) = map_mut(term, "labelSelector") else {
        return;
    };
    let Some(selector) = selector.as_map_mut() else {
        return;
    };
    let expressions = selector
        .entry("matchExpressions".to_owned())
        .or_insert_with(|| Value::List(List::new()));
    if expressions.is_null() {
        *expressions = Value::List(List::new());
    }
    if let Value::List(list) = expressions {
        list.extend(added);
    }
}

/// A `LabelSelectorRequirement`, its fields in the order the server writes them.
fn requirement(key: &str, operator: &str, value: &str) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("key".into(), Value::String(key.into()));
    m.insert("operator".into(), Value::String(operator.into()));
    m.insert(
        "values".into(),
        Value::List(List::from(vec![Value::String(value.into())])),
    );
    Value::Map(m)
}

/// The map under `key`, when present and a map.
fn map_mut<'v>(v: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    v.as_map_mut()?
        .get_mut(key)
        .filter(|x| x.as_map().is_some())
}

/// The items of the list under `key`, none when absent or not a list.
fn list_items_mut<'v>(v: &'v mut Value, key: &str) -> impl Iterator<Item = &'v mut Value> {
    let list = match v.as_map_mut().and_then(|m| m.get_mut(key)) {
        Some(Value::List(list)) => Some(list),
        _ => None,
    };
    list.into_iter().flat_map(|l| l.iter_mut())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    const POD: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","labels":{"app":"web","rev":"7"}},
      "spec":{"affinity":{"podAntiAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone","labelSelector":{"matchLabels":{"app":"web"}},"matchLabelKeys":["rev","absent"],"mismatchLabelKeys":["app"]}],
        "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"zone","matchLabelKeys":["rev"]}}]}},
      "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"},"matchExpressions":null},"matchLabelKeys":["rev"]}],
      "containers":[{"name":"c","image":"i"}]}}"#;

    fn merged(minor: u8) -> Value {
        let mut pod = from_json_str(POD).unwrap();
        merge(&mut pod, KubeVersion::new(minor).unwrap());
        pod
    }

    fn at(pod: &Value, path: &[&str]) -> String {
        to_json_string(pod.get_path(path).unwrap_or(&Value::Null))
    }

    #[test]
    fn affinity_keys_become_expressions_from_1_31() {
        let path = ["spec", "affinity", "podAntiAffinity"];
        let required = |pod: &Value| {
            let terms = pod.get_path(&path).unwrap();
            to_json_string(&items(terms.get("requiredDuringSchedulingIgnoredDuringExecution"))[0])
        };
        assert!(!required(&merged(30)).contains("matchExpressions"));
        assert!(required(&merged(31)).contains(
            r#""matchExpressions":[{"key":"rev","operator":"In","values":["7"]},{"key":"app","operator":"NotIn","values":["web"]}]"#
        ));
        // No selector: nothing to merge into.
        let pod = merged(36);
        let preferred = &items(
            pod.get_path(&path)
                .unwrap()
                .get("preferredDuringSchedulingIgnoredDuringExecution"),
        )[0];
        assert!(preferred
            .get_path(&["podAffinityTerm", "labelSelector"])
            .is_none());
    }

    #[test]
    fn spread_keys_become_expressions_from_1_34() {
        let path = ["spec", "topologySpreadConstraints"];
        assert!(!at(&merged(33), &path).contains(r#""key":"rev""#));
        assert!(at(&merged(34), &path)
            .contains(r#""matchExpressions":[{"key":"rev","operator":"In","values":["7"]}]"#));
    }

    #[test]
    fn a_pod_without_labels_is_left_alone() {
        let mut pod = from_json_str(POD).unwrap();
        pod.as_map_mut()
            .unwrap()
            .get_mut("metadata")
            .unwrap()
            .as_map_mut()
            .unwrap()
            .shift_remove("labels");
        let before = to_json_string(&pod);
        merge(&mut pod, KubeVersion::new(36).unwrap());
        assert_eq!(to_json_string(&pod), before);
    }
}
