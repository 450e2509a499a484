//! The status a Pod is created with: k8s.io/kubernetes pkg/registry/core/pod/strategy.go
//! `PrepareForCreate` replaces whatever status the client sent by `phase: Pending` and the QoS
//! class, then `applySchedulingGatedCondition` adds a `PodScheduled=False` condition while
//! scheduling gates are set. The class is pkg/apis/core/helper/qos `GetPodQOS`: the one the
//! client sent in `status.qosClass` (read before the status is replaced), else
//! `ComputePodQOS` of the defaulted spec (container limits already copied into missing
//! requests).

use super::{KubeVersion, VersionRange};
use crate::defaults::quantity::Quantity;
use crate::value::access::{items, present, text};
use crate::value::{List, Map, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// PodLevelResources on by default (beta from 1.34): a pod-level `resources` decides the class
/// instead of the containers'. Before, the gate is off (1.32–1.33) or absent.
const POD_LEVEL_QOS: VersionRange = VersionRange::since(34);

/// The compute resources the QoS class looks at (`supportedQoSComputeResources`).
const QOS_RESOURCES: [&str; 2] = ["cpu", "memory"];

const GATED_MESSAGE: &str = "Scheduling is blocked due to non-empty scheduling gates";

/// Sets the status of `pod`, a v1 Pod being created, as its strategy does. `sent` is the
/// object the client sent (its `status.qosClass` wins); `now` the write's time (RFC 3339).
pub fn created(pod: &mut Value, sent: &Value, version: KubeVersion, now: &str) {
    let sent_class = text(sent.get("status").unwrap_or(&Value::Null), "qosClass");
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    let class = match sent_class {
        "" => qos_class(spec, version),
        class => class,
    };
    let gated = !items(spec.get("schedulingGates")).is_empty();
    let mut status = Map::with_capacity(3);
    status.insert("phase".into(), Value::String("Pending".into()));
    if gated {
        status.insert(
            "conditions".into(),
            Value::List(List::from(vec![gated_condition(now)])),
        );
    }
    status.insert("qosClass".into(), Value::String(class.into()));
    if let Some(p) = pod.as_map_mut() {
        p.insert("status".into(), Value::Map(status));
    }
}

/// `ComputePodQOS` of a defaulted pod spec.
pub fn qos_class(spec: &Value, version: KubeVersion) -> &'static str {
    let mut requests = Totals::default();
    let mut limits = Totals::default();
    let mut guaranteed = true;
    match present(spec, "resources").filter(|_| POD_LEVEL_QOS.contains(version)) {
        Some(resources) => {
            requests.add(resources.get("requests"));
            if present(resources, "limits").is_some_and(|l| !is_empty_map(l)) {
                guaranteed &= limits.add(resources.get("limits"));
            }
        }
        None => {
            let containers = items(spec.get("containers"))
                .iter()
                .chain(items(spec.get("initContainers")));
            for c in containers {
                let resources = c.get("resources").unwrap_or(&Value::Null);
                requests.add(resources.get("requests"));
                guaranteed &= limits.add(resources.get("limits"));
            }
        }
    }
    if requests.0.is_empty() && limits.0.is_empty() {
        return "BestEffort";
    }
    let matched = requests.0.iter().all(|(name, req)| {
        limits
            .0
            .get(name)
            .is_some_and(|lim| lim.compare(req) == Some(Ordering::Equal))
    });
    if guaranteed && matched && requests.0.len() == limits.0.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

fn is_empty_map(v: &Value) -> bool {
    v.as_map().is_some_and(Map::is_empty)
}

/// The positive quantities of cpu and memory, summed per resource.
#[derive(Default)]
struct Totals(BTreeMap<&'static str, Quantity>);

impl Totals {
    /// Adds a resource list; true when it holds positive cpu and memory (a limit list that
    /// allows a Guaranteed class).
    fn add(&mut self, list: Option<&Value>) -> bool {
        let mut positive = BTreeSet::new();
        let zero = Quantity::parse("0").expect("zero parses");
        let Some(list) = list.and_then(Value::as_map) else {
            return false;
        };
        for name in QOS_RESOURCES {
            let Some(q) = list.get(name).and_then(quantity) else {
                continue;
            };
            if q.compare(&zero) != Some(Ordering::Greater) {
                continue;
            }
            positive.insert(name);
            let total = match self.0.get(name) {
                Some(sum) => q.add(sum).unwrap_or(q),
                None => q,
            };
            self.0.insert(name, total);
        }
        positive.len() == QOS_RESOURCES.len()
    }
}

fn quantity(v: &Value) -> Option<Quantity> {
    match v {
        Value::String(s) => Quantity::parse(s),
        Value::Int(i) => Quantity::parse(&i.to_string()),
        Value::Float(f) => Quantity::parse(&f.to_string()),
        _ => None,
    }
}

/// The condition `applySchedulingGatedCondition` adds (`UpdatePodCondition` times it now).
fn gated_condition(now: &str) -> Value {
    let mut c = Map::with_capacity(6);
    c.insert("type".into(), Value::String("PodScheduled".into()));
    c.insert("status".into(), Value::String("False".into()));
    c.insert("lastProbeTime".into(), Value::Null);
    c.insert("lastTransitionTime".into(), Value::String(now.into()));
    c.insert("reason".into(), Value::String("SchedulingGated".into()));
    c.insert("message".into(), Value::String(GATED_MESSAGE.into()));
    Value::Map(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn class(spec: &str, minor: u8) -> &'static str {
        qos_class(
            &from_json_str(spec).unwrap(),
            KubeVersion::new(minor).unwrap(),
        )
    }

    #[test]
    fn classes_from_container_resources() {
        assert_eq!(class(r#"{"containers":[{"name":"a"}]}"#, 36), "BestEffort");
        let equal = r#"{"containers":[{"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1000m","memory":"1Gi"}}}]}"#;
        assert_eq!(class(equal, 36), "Guaranteed");
        let request_only = r#"{"containers":[{"resources":{"requests":{"cpu":"100m"}}}]}"#;
        assert_eq!(class(request_only, 36), "Burstable");
        // A second container without limits spoils the Guaranteed class.
        let mixed = r#"{"containers":[{"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}}},{"name":"b"}]}"#;
        assert_eq!(class(mixed, 36), "Burstable");
        // Zero and other resources do not count.
        let zero =
            r#"{"containers":[{"resources":{"requests":{"cpu":"0","ephemeral-storage":"1Gi"}}}]}"#;
        assert_eq!(class(zero, 36), "BestEffort");
        // Init containers count, summed per resource.
        let init = r#"{"containers":[{"resources":{"limits":{"cpu":1,"memory":"1Gi"},"requests":{"cpu":1,"memory":"1Gi"}}}],
            "initContainers":[{"resources":{"limits":{"cpu":1,"memory":"1Gi"},"requests":{"cpu":1,"memory":"1Gi"}}}]}"#;
        assert_eq!(class(init, 36), "Guaranteed");
    }

    #[test]
    fn pod_level_resources_decide_from_1_34() {
        let spec = r#"{"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}},
            "containers":[{"name":"a"}]}"#;
        assert_eq!(class(spec, 34), "Guaranteed");
        assert_eq!(class(spec, 33), "BestEffort");
    }

    #[test]
    fn status_is_pending_with_the_sent_class_and_a_gated_condition() {
        let mut pod = from_json_str(
            r#"{"kind":"Pod","spec":{"containers":[{"name":"a"}],"schedulingGates":[{"name":"wait"}]},"status":{}}"#,
        )
        .unwrap();
        let sent =
            from_json_str(r#"{"status":{"phase":"Running","qosClass":"Guaranteed"}}"#).unwrap();
        created(
            &mut pod,
            &sent,
            KubeVersion::new(36).unwrap(),
            "2026-01-02T03:04:05Z",
        );
        assert_eq!(
            to_json_string(pod.get("status").unwrap()),
            r#"{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:05Z","reason":"SchedulingGated","message":"Scheduling is blocked due to non-empty scheduling gates"}],"qosClass":"Guaranteed"}"#
        );
    }
}
