//! What a write through a Pod's `status` subresource keeps from the stored status:
//! k8s.io/kubernetes pkg/registry/core/pod/strategy.go `podStatusStrategy.PrepareForUpdate`
//! (the spec, deletion timestamp and owner references are put back by the reset fields,
//! `crate::managed::reset`):
//!
//! - from 1.32, an empty `qosClass` gets the stored one back (old kubelets dropped it);
//! - from 1.33, `preserveOldObservedGeneration`: a missing `observedGeneration` keeps the
//!   stored one, and each condition without one takes the stored value of the same type, the
//!   n-th new condition of a type the n-th stored one's;
//! - in 1.33, where PodObservedGenerationTracking is alpha, pkg/api/pod/util.go
//!   `dropDisabledStatusFields` then clears every `observedGeneration` unless the stored status
//!   uses one (`podObservedGenerationTrackingInUse`). From 1.34 the gate is on;
//! - until 1.33, where DynamicResourceAllocation is off, `dropDisabledStatusFields` drops
//!   `resourceClaimStatuses` unless the stored spec has `resourceClaims`.

use super::{KubeVersion, VersionRange};
use crate::value::{Map, Value};
use std::collections::HashMap;

const QOS_CLASS_BACKFILLED: VersionRange = VersionRange::since(32);
const OBSERVED_GENERATION_PRESERVED: VersionRange = VersionRange::since(33);
const OBSERVED_GENERATION_GATE_OFF: VersionRange = VersionRange::between(33, 33);
/// DynamicResourceAllocation, off by default until 1.33.
const DYNAMIC_RESOURCE_ALLOCATION_OFF: VersionRange = VersionRange::until(33);

/// Prepares `object`, a v1 Pod written through its `status` subresource over `old`.
pub fn prepare(object: &mut Value, old: &Value, version: KubeVersion) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    if (text("apiVersion"), text("kind")) != ("v1", "Pod") {
        return;
    }
    let old_status = old.get("status").unwrap_or(&Value::Null);
    let Some(pod) = object.as_map_mut() else {
        return;
    };
    let status = pod
        .entry("status".to_string())
        .or_insert_with(|| Value::Map(Map::with_capacity(0)));
    let Some(status) = status.as_map_mut() else {
        return;
    };
    if QOS_CLASS_BACKFILLED.contains(version) {
        backfill_qos_class(status, old_status);
    }
    if OBSERVED_GENERATION_PRESERVED.contains(version) {
        preserve_observed_generation(status, old_status);
    }
    if OBSERVED_GENERATION_GATE_OFF.contains(version) && !tracks_generation(old_status) {
        clear_observed_generation(status);
    }
    let claims_in_use = old
        .get_path(&["spec", "resourceClaims"])
        .and_then(Value::as_list)
        .is_some_and(|l| !l.is_empty());
    if DYNAMIC_RESOURCE_ALLOCATION_OFF.contains(version) && !claims_in_use {
        status.shift_remove("resourceClaimStatuses");
    }
    if status.is_empty() {
        pod.shift_remove("status");
    }
}

fn backfill_qos_class(status: &mut Map, old_status: &Value) {
    let empty = status
        .get("qosClass")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty);
    match old_status.get("qosClass") {
        Some(class) if empty && class.as_str().is_some_and(|c| !c.is_empty()) => {
            status.insert("qosClass".into(), class.clone());
        }
        _ => {}
    }
}

/// An `observedGeneration` as Go reads it (absent: 0).
fn generation(v: &Value) -> i64 {
    v.get("observedGeneration")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

fn preserve_observed_generation(status: &mut Map, old_status: &Value) {
    let old_generation = generation(old_status);
    if status
        .get("observedGeneration")
        .is_none_or(|g| g.as_i64() == Some(0))
        && old_generation != 0
    {
        status.insert("observedGeneration".into(), Value::Int(old_generation));
    }
    let mut stored: HashMap<&str, std::collections::VecDeque<i64>> = HashMap::new();
    for c in conditions(old_status) {
        let kind = c.get("type").and_then(Value::as_str).unwrap_or("");
        stored.entry(kind).or_default().push_back(generation(c));
    }
    let Some(Value::List(list)) = status.get_mut("conditions") else {
        return;
    };
    for c in list.iter_mut() {
        let kind = c
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let old_generation = stored
            .get_mut(kind.as_str())
            .and_then(|q| q.pop_front())
            .unwrap_or(0);
        if generation(c) == 0 && old_generation != 0 {
            if let Some(m) = c.as_map_mut() {
                m.insert("observedGeneration".into(), Value::Int(old_generation));
            }
        }
    }
}

fn conditions(status: &Value) -> &[Value] {
    match status.get("conditions") {
        Some(Value::List(l)) => l,
        _ => &[],
    }
}

/// `podObservedGenerationTrackingInUse` of the stored status.
fn tracks_generation(old_status: &Value) -> bool {
    generation(old_status) != 0 || conditions(old_status).iter().any(|c| generation(c) != 0)
}

fn clear_observed_generation(status: &mut Map) {
    status.shift_remove("observedGeneration");
    if let Some(Value::List(list)) = status.get_mut("conditions") {
        for c in list.iter_mut() {
            if let Some(m) = c.as_map_mut() {
                m.shift_remove("observedGeneration");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    const STORED: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
      "status":{"qosClass":"Burstable","observedGeneration":3,"conditions":[
        {"type":"Ready","status":"True","observedGeneration":3},
        {"type":"example.com/Probe","status":"True","observedGeneration":2},
        {"type":"example.com/Probe","status":"False","observedGeneration":1}]}}"#;

    const SENT: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
      "status":{"phase":"Running","conditions":[
        {"type":"example.com/Probe","status":"True"},
        {"type":"Ready","status":"False","observedGeneration":4},
        {"type":"example.com/Probe","status":"True"},
        {"type":"example.com/Probe","status":"True"}]}}"#;

    fn prepared(minor: u8) -> String {
        let mut object = from_json_str(SENT).unwrap();
        let old = from_json_str(STORED).unwrap();
        prepare(&mut object, &old, KubeVersion::new(minor).unwrap());
        to_json_string(object.get("status").unwrap())
    }

    #[test]
    fn releases_keep_what_they_keep() {
        assert_eq!(
            prepared(36),
            r#"{"phase":"Running","conditions":[{"type":"example.com/Probe","status":"True","observedGeneration":2},{"type":"Ready","status":"False","observedGeneration":4},{"type":"example.com/Probe","status":"True","observedGeneration":1},{"type":"example.com/Probe","status":"True"}],"qosClass":"Burstable","observedGeneration":3}"#
        );
        assert_eq!(
            prepared(32),
            r#"{"phase":"Running","conditions":[{"type":"example.com/Probe","status":"True"},{"type":"Ready","status":"False","observedGeneration":4},{"type":"example.com/Probe","status":"True"},{"type":"example.com/Probe","status":"True"}],"qosClass":"Burstable"}"#
        );
        assert_eq!(
            prepared(31),
            to_json_string(from_json_str(SENT).unwrap().get("status").unwrap())
        );
    }

    #[test]
    fn an_alpha_gate_clears_generations_the_stored_status_lacks() {
        let mut object = from_json_str(SENT).unwrap();
        let old = from_json_str(r#"{"apiVersion":"v1","kind":"Pod","status":{"phase":"Pending"}}"#)
            .unwrap();
        prepare(&mut object, &old, KubeVersion::new(33).unwrap());
        assert!(!to_json_string(&object).contains("observedGeneration"));
    }

    #[test]
    fn claim_statuses_need_the_gate_or_stored_claims_until_1_33() {
        let sent = r#"{"apiVersion":"v1","kind":"Pod","status":{"phase":"Running",
          "resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"p-gpu"}]}}"#;
        let kept = |minor: u8, old: &str| {
            let mut object = from_json_str(sent).unwrap();
            let old = from_json_str(old).unwrap();
            prepare(&mut object, &old, KubeVersion::new(minor).unwrap());
            to_json_string(&object).contains("resourceClaimStatuses")
        };
        let plain = r#"{"apiVersion":"v1","kind":"Pod","spec":{}}"#;
        let claims =
            r#"{"apiVersion":"v1","kind":"Pod","spec":{"resourceClaims":[{"name":"gpu"}]}}"#;
        assert!(!kept(33, plain));
        assert!(kept(33, claims));
        assert!(kept(34, plain));
    }
}
