//! The warnings of StorageClasses and CSIStorageCapacities (pkg/api/storage/util.go
//! `GetWarningsForStorageClass`, `GetWarningsForCSIStorageCapacity`) and CSIDrivers
//! (pkg/registry/storage/csidriver/strategy.go `WarningsOnCreate`, `WarningsOnUpdate`).

use super::super::fields::{items, present, spec};
use super::node_labels::{deprecated, label_selector};
use crate::kube::VersionRange;
use crate::validate::field::{indexed, join};
use crate::validate::Write;
use crate::value::Value;

/// `GetWarningsForStorageClass`: deprecated node labels as the keys of the allowed
/// topologies' expressions.
pub fn storage_class(w: &Write, object: &Value, out: &mut Vec<String>) {
    for (i, topology) in items(object.get("allowedTopologies")).iter().enumerate() {
        let exprs_at = join(&indexed("allowedTopologies", i), ".matchLabelExpressions");
        for (j, expr) in items(topology.get("matchLabelExpressions"))
            .iter()
            .enumerate()
        {
            let key = expr.get("key").and_then(Value::as_str).unwrap_or("");
            if let Some(message) = deprecated(key, w.version()) {
                out.push(format!("{}.key: {message}", indexed(&exprs_at, j)));
            }
        }
    }
}

/// `GetWarningsForCSIStorageCapacity`: deprecated node labels in `nodeTopology`.
pub fn csi_storage_capacity(w: &Write, object: &Value, out: &mut Vec<String>) {
    label_selector(object.get("nodeTopology"), "nodeTopology", w.version(), out);
}

/// The releases whose CSIDriver strategy recommends `serviceAccountTokenInSecrets`
/// (CSIServiceAccountTokenSecrets: beta and on by default in 1.35, GA in 1.36).
const TOKEN_IN_SECRETS_RECOMMENDED: VersionRange = VersionRange::since(35);

/// The CSIDriver strategy's warnings: token requests without `serviceAccountTokenInSecrets`,
/// on create, and on an update that changes the token requests.
pub fn csi_driver(w: &Write, object: &Value, out: &mut Vec<String>) {
    if !TOKEN_IN_SECRETS_RECOMMENDED.contains(w.version()) {
        return;
    }
    let spec = spec(object);
    let requests = items(spec.get("tokenRequests"));
    // `apiequality.Semantic.DeepEqual` of the lists: an absent list equals an empty one.
    let unchanged = w.live.is_some_and(|live| {
        items(super::super::fields::spec(live).get("tokenRequests")) == requests
    });
    if !requests.is_empty() && !unchanged && present(spec, "serviceAccountTokenInSecrets").is_none()
    {
        out.push("spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes".into());
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::warnings;

    // As the 1.30, 1.31 and 1.36 references print them.
    #[test]
    fn storage_class_topologies() {
        let class = r#"{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"x.example.com",
            "allowedTopologies":[{"matchLabelExpressions":[{"key":"kubernetes.io/os","values":["a"]},
              {"key":"failure-domain.beta.kubernetes.io/zone","values":["a"]}]},
              {"matchLabelExpressions":[{"key":"node-role.kubernetes.io/master","values":["x"]}]}]}"#;
        let zone = r#"Warning: allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#;
        assert_eq!(warnings(class, None, 30), [zone]);
        assert_eq!(
            warnings(class, Some(class), 31),
            [
                zone,
                r#"Warning: allowedTopologies[1].matchLabelExpressions[0].key: use "node-role.kubernetes.io/control-plane" instead"#,
            ]
        );
    }

    #[test]
    fn capacity_node_topology() {
        let capacity = r#"{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"c","namespace":"default"},
            "storageClassName":"s","nodeTopology":{"matchLabels":{"beta.kubernetes.io/os":"linux","x":"y"},
            "matchExpressions":[{"key":"failure-domain.beta.kubernetes.io/region","operator":"Exists"}]}}"#;
        assert_eq!(
            warnings(capacity, None, 30),
            [
                r#"Warning: nodeTopology.matchExpressions[0].key: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
                r#"Warning: nodeTopology.matchLabels.beta.kubernetes.io/os: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            ]
        );
    }

    #[test]
    fn csi_driver_token_requests_from_1_35() {
        let driver = |spec: &str| {
            format!(
                r#"{{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{{"name":"d.example.com"}},"spec":{spec}}}"#
            )
        };
        let expected = ["Warning: spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes"];
        let a = driver(r#"{"tokenRequests":[{"audience":"a"}]}"#);
        let b = driver(r#"{"tokenRequests":[{"audience":"b"}]}"#);
        assert!(warnings(&a, None, 34).is_empty());
        assert_eq!(warnings(&a, None, 35), expected);
        assert!(warnings(&a, Some(&a), 36).is_empty());
        assert_eq!(warnings(&b, Some(&a), 36), expected);
        assert_eq!(warnings(&a, Some(&driver("{}")), 35), expected);
        let set =
            driver(r#"{"tokenRequests":[{"audience":"a"}],"serviceAccountTokenInSecrets":false}"#);
        assert!(warnings(&set, None, 36).is_empty());
    }
}
