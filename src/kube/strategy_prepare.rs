//! What the registry strategies' `PrepareForCreate` / `PrepareForUpdate` do to an object before
//! validation and storage, per kind: claims and volumes ([`super::claim_prepare`]), pod specs
//! ([`super::pod_prepare`]), Services' gated fields ([`super::service_prepare`]), a
//! CustomResourceDefinition's status ([`super::crd_prepare`]), a Namespace's finalizers
//! ([`super::namespace_prepare`]), a Pod status write ([`super::pod_status_write`]), the smaller per-kind rewrites ([`super::kind_prepare`]) and the other kinds' gated fields
//! ([`super::kind_gates`]).

use super::KubeVersion;
use crate::value::Value;

/// Prepares `object` as its kind's strategy does, or the strategy of `subresource` when not
/// empty (which drops its own gated fields: the Node status strategy keeps the Node one's);
/// `old` is the stored object on update.
pub fn prepare(object: &mut Value, old: Option<&Value>, version: KubeVersion, subresource: &str) {
    super::claim_prepare::prepare_claim(object, old, version);
    super::pod_prepare::prepare_pod_spec(object, old, version);
    super::service_prepare::drop_disabled_fields(object, old, version);
    if subresource.is_empty() {
        super::crd_prepare::prepare_crd(object, old);
        super::namespace_prepare::prepare_namespace(object, old);
    }
    super::kind_gates::drop_disabled(object, old, version, subresource);
    if let (Some(old), "status") = (old, subresource) {
        super::pod_status_write::prepare(object, old, version);
    }
    if subresource.is_empty() {
        super::kind_prepare::prepare(object, old);
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
        prepare(&mut created, None, v(30), "");
        assert!(created.get_path(&["spec", "trafficDistribution"]).is_none());
        let stored = from_json_str(service).unwrap();
        let mut updated = from_json_str(service).unwrap();
        prepare(&mut updated, Some(&stored), v(30), "");
        assert!(updated.get_path(&["spec", "trafficDistribution"]).is_some());
        let mut created = from_json_str(service).unwrap();
        prepare(&mut created, None, v(31), "");
        assert!(created.get_path(&["spec", "trafficDistribution"]).is_some());
    }
}
