//! Defaulters of cluster-level kinds: core/v1 LimitRange, ResourceQuota and Node
//! (`SetDefaults_LimitRangeItem`, `SetDefaults_NodeStatus` and the `SetDefaults_ResourceList`
//! calls of the generated walks), networking/v1 `SetDefaults_IngressClass` and
//! flowcontrol/v1 `SetDefaults_PriorityLevelConfiguration` (pkg/apis/*/v1 `defaults.go`,
//! `zz_generated.defaults.go`; unchanged in 1.30–1.36).

use super::rules::{
    child, each, round_resource_list, set_defaults, set_defaults_nonzero, Int, Str,
};
use crate::value::{Map, Value};

/// The resource lists of a limit, each rounded up to milli precision after the item's defaults.
const LIMIT_LISTS: &[&str] = &[
    "max",
    "min",
    "default",
    "defaultRequest",
    "maxLimitRequestRatio",
];

pub(super) fn limit_range(obj: &mut Map) {
    let limits = child(obj, "spec").and_then(|s| s.get_mut("limits"));
    each(limits, |item| {
        limit_range_item(item);
        for list in LIMIT_LISTS {
            round_resource_list(item, list);
        }
    });
}

/// `SetDefaults_LimitRangeItem`: a `Container` limit's `default` takes what `max` has and it
/// lacks, its `defaultRequest` what `default` (so completed) has, then what `min` has. An
/// existing entry is never replaced. Validation sees the limits so completed too.
pub(crate) fn limit_range_item(item: &mut Map) {
    if item.get("type").and_then(Value::as_str) != Some("Container") {
        return;
    }
    let list = |item: &Map, key: &str| item.get(key).and_then(Value::as_map).cloned();
    let mut default = list(item, "default").unwrap_or_default();
    let mut request = list(item, "defaultRequest").unwrap_or_default();
    let fill = |to: &mut Map, from: Option<&Map>| {
        for (k, v) in from.into_iter().flatten() {
            if !to.contains_key(k.as_str()) {
                to.insert(k.clone(), v.clone());
            }
        }
    };
    fill(&mut default, list(item, "max").as_ref());
    fill(&mut request, Some(&default));
    fill(&mut request, list(item, "min").as_ref());
    // Go makes both maps; an empty one is omitted when the object is encoded.
    for (key, map) in [("default", default), ("defaultRequest", request)] {
        if !map.is_empty() {
            item.insert(key.into(), Value::Map(map));
        }
    }
}

pub(super) fn resource_quota(obj: &mut Map) {
    if let Some(spec) = child(obj, "spec") {
        round_resource_list(spec, "hard");
    }
    if let Some(status) = child(obj, "status") {
        round_resource_list(status, "hard");
        round_resource_list(status, "used");
    }
}

/// `SetDefaults_NodeStatus`: without `allocatable`, a node's allocatable is its capacity.
pub(super) fn node(obj: &mut Map) {
    let Some(status) = child(obj, "status") else {
        return;
    };
    let has = |key: &str| status.get(key).is_some_and(|v| !v.is_null());
    if !has("allocatable") && has("capacity") {
        let capacity = status.get("capacity").cloned().unwrap_or(Value::Null);
        status.insert("allocatable".into(), capacity);
    }
    round_resource_list(status, "capacity");
    round_resource_list(status, "allocatable");
}

/// `SetDefaults_IngressClass`: parameters are cluster-scoped unless a scope is given.
pub(super) fn ingress_class(spec: Option<&mut Map>) {
    let parameters = spec.and_then(|s| child(s, "parameters"));
    set_defaults(parameters, &[("scope", Str("Cluster"))]);
}

/// `SetDefaults_PriorityLevelConfiguration` (flowcontrol/v1): a limited level's shares and
/// lendable percent (an explicit 0 share is kept: the field is a pointer in v1), the queuing
/// parameters when queuing is given (non-pointer, so 0 counts as unset), an exempt level's two
/// pointers.
pub(super) fn priority_level(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    if let Some(limited) = child(spec, "limited") {
        set_defaults(
            Some(&mut *limited),
            &[
                ("nominalConcurrencyShares", Int(30)),
                ("lendablePercent", Int(0)),
            ],
        );
        let queuing = child(limited, "limitResponse").and_then(|r| child(r, "queuing"));
        set_defaults_nonzero(
            queuing,
            &[
                ("handSize", Int(8)),
                ("queues", Int(64)),
                ("queueLengthLimit", Int(50)),
            ],
        );
    }
    set_defaults(
        child(spec, "exempt"),
        &[
            ("nominalConcurrencyShares", Int(0)),
            ("lendablePercent", Int(0)),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(json: &str) -> Map {
        let v: Value = serde_json::from_str(json).unwrap();
        let mut m = v.as_map().unwrap().clone();
        limit_range_item(&mut m);
        m
    }

    fn json(m: Map) -> String {
        serde_json::to_string(&Value::Map(m)).unwrap()
    }

    #[test]
    fn a_container_limit_takes_its_defaults_from_max_then_min() {
        let got = item(
            r#"{"type":"Container","max":{"cpu":"2","memory":"1Gi"},"min":{"cpu":"100m","memory":"64Mi","ephemeral-storage":"1Gi"},"default":{"memory":"512Mi"}}"#,
        );
        assert_eq!(
            json(got),
            r#"{"type":"Container","max":{"cpu":"2","memory":"1Gi"},"min":{"cpu":"100m","memory":"64Mi","ephemeral-storage":"1Gi"},"default":{"memory":"512Mi","cpu":"2"},"defaultRequest":{"memory":"512Mi","cpu":"2","ephemeral-storage":"1Gi"}}"#
        );
    }

    #[test]
    fn other_limit_types_and_empty_results_stay_as_they_are() {
        let pod = r#"{"type":"Pod","max":{"cpu":"2"}}"#;
        assert_eq!(json(item(pod)), pod);
        let bare = r#"{"type":"Container","maxLimitRequestRatio":{"cpu":"2"}}"#;
        assert_eq!(json(item(bare)), bare);
    }

    #[test]
    fn node_allocatable_defaults_to_capacity() {
        let v: Value =
            serde_json::from_str(r#"{"status":{"capacity":{"cpu":"4","pods":"110"}}}"#).unwrap();
        let mut m = v.as_map().unwrap().clone();
        node(&mut m);
        assert_eq!(
            json(m),
            r#"{"status":{"capacity":{"cpu":"4","pods":"110"},"allocatable":{"cpu":"4","pods":"110"}}}"#
        );
    }
}
