//! What the registry strategies' `PrepareForCreate` / `PrepareForUpdate` do to an object before
//! validation and storage, per kind: claims and volumes ([`super::claim_prepare`]), pod specs
//! ([`super::pod_prepare`]), and Services' gated fields (k8s.io/kubernetes
//! pkg/registry/core/service/strategy.go `dropServiceDisabledFields`).

use super::{KubeVersion, VersionRange};
use crate::value::Value;

/// ServiceTrafficDistribution was alpha and off in 1.30: the strategy drops a new
/// `trafficDistribution` unless the stored Service has one.
const TRAFFIC_DISTRIBUTION_DROPPED: VersionRange = VersionRange::until(30);

/// Prepares `object` as its kind's strategy does; `old` is the stored object on update.
pub fn prepare(object: &mut Value, old: Option<&Value>, version: KubeVersion) {
    super::claim_prepare::prepare_claim(object, old, version);
    super::pod_prepare::prepare_pod_spec(object, old, version);
    prepare_service(object, old, version);
}

fn prepare_service(object: &mut Value, old: Option<&Value>, version: KubeVersion) {
    let is_service = object.get("apiVersion").and_then(Value::as_str) == Some("v1")
        && object.get("kind").and_then(Value::as_str) == Some("Service");
    if !is_service || !TRAFFIC_DISTRIBUTION_DROPPED.contains(version) {
        return;
    }
    let in_use = old
        .and_then(|o| o.get_path(&["spec", "trafficDistribution"]))
        .is_some_and(|v| !v.is_null());
    if in_use {
        return;
    }
    if let Some(Value::Map(spec)) = object.as_map_mut().and_then(|m| m.get_mut("spec")) {
        spec.shift_remove("trafficDistribution");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn traffic_distribution_is_dropped_in_1_30_unless_stored() {
        let service = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},
          "spec":{"ports":[{"port":80}],"trafficDistribution":"PreferClose"}}"#;
        let v = |m| KubeVersion::new(m).unwrap();
        let mut created = from_json_str(service).unwrap();
        prepare(&mut created, None, v(30));
        assert!(created.get_path(&["spec", "trafficDistribution"]).is_none());
        let stored = from_json_str(service).unwrap();
        let mut updated = from_json_str(service).unwrap();
        prepare(&mut updated, Some(&stored), v(30));
        assert!(updated.get_path(&["spec", "trafficDistribution"]).is_some());
        let mut created = from_json_str(service).unwrap();
        prepare(&mut created, None, v(31));
        assert!(created.get_path(&["spec", "trafficDistribution"]).is_some());
    }
}
