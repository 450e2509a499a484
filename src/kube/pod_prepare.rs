//! What the strategies of Pods and of the kinds with a pod template do to the pod spec before
//! validation and storage, where it changes the object rather than only its checks: the v1
//! conversions ([`convert_pod_fields`]), a Pod create's AppArmor version skew
//! ([`super::apparmor`]) and label-key selectors ([`super::pod_label_keys`]), and the fields of
//! gates that are off by default ([`super::pod_gates`]).

use super::KubeVersion;
use crate::value::Value;

/// The core/v1 conversions of a pod spec (k8s.io/kubernetes pkg/apis/core/v1/conversion.go
/// `Convert_v1_PodSpec_To_core_PodSpec` and back): `serviceAccount` is an alias of
/// `serviceAccountName`, which wins when both are given; the stored object has both. A Pod's
/// (not a template's) negative `terminationGracePeriodSeconds` becomes 1
/// (`Convert_v1_Pod_To_core_Pod`).
pub fn convert_pod_fields(object: &mut Value) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    let is_pod = text("apiVersion") == "v1" && text("kind") == "Pod";
    let Some(path) = pod_spec_path(text("apiVersion"), text("kind")) else {
        return;
    };
    let spec = path
        .iter()
        .try_fold(object, |v, k| v.as_map_mut()?.get_mut(k));
    let Some(spec) = spec.and_then(Value::as_map_mut) else {
        return;
    };
    let grace = spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if is_pod && grace.is_some_and(|g| g < 0) {
        spec.insert("terminationGracePeriodSeconds".into(), Value::Int(1));
    }
    let name_of = |k: &str| spec.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let name = match name_of("serviceAccountName") {
        n if n.is_empty() => name_of("serviceAccount"),
        n => n,
    };
    if name.is_empty() {
        return;
    }
    for key in ["serviceAccountName", "serviceAccount"] {
        spec.insert(key.into(), Value::String(name.clone()));
    }
}

/// Where the pod spec of a core or workload kind sits.
fn pod_spec_path(api_version: &str, kind: &str) -> Option<&'static [&'static str]> {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    match (group, kind) {
        ("", "Pod") => Some(&["spec"]),
        ("", "PodTemplate") => Some(&["template", "spec"]),
        ("", "ReplicationController")
        | ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("batch", "Job") => Some(&["spec", "template", "spec"]),
        ("batch", "CronJob") => Some(&["spec", "jobTemplate", "spec", "template", "spec"]),
        _ => None,
    }
}

/// Prepares the pod spec of `object` as its strategy does; `old` is the stored object on
/// update. Objects without a pod spec are left alone.
pub fn prepare_pod_spec(object: &mut Value, old: Option<&Value>, version: KubeVersion) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    let Some(path) = pod_spec_path(text("apiVersion"), text("kind")) else {
        return;
    };
    if old.is_none() && path == ["spec"] {
        super::apparmor::sync(object, version);
    }
    let old_spec = old.and_then(|o| o.get_path(path));
    let spec = path
        .iter()
        .try_fold(&mut *object, |v, k| v.as_map_mut()?.get_mut(k));
    if let Some(spec) = spec {
        super::pod_gates::drop_disabled(spec, old_spec, version);
    }
    if old.is_none() && path == ["spec"] {
        super::pod_label_keys::merge(object, version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":{"spec":{
        "containers":[{"name":"c","volumeMounts":[{"name":"tools","mountPath":"/t"},{"name":"cfg","mountPath":"/c"}]}],
        "volumes":[{"name":"tools","image":{"reference":"tools:1"}},{"name":"cfg","configMap":{"name":"cfg"}}]}}}}"#;

    fn prepared(object: &str, old: Option<&str>, minor: u8) -> String {
        let mut object = from_json_str(object).unwrap();
        let old = old.map(|o| from_json_str(o).unwrap());
        prepare_pod_spec(&mut object, old.as_ref(), KubeVersion::new(minor).unwrap());
        to_json_string(&object)
    }

    #[test]
    fn image_volumes_and_their_mounts_are_dropped_while_the_gate_is_off() {
        let got = prepared(DEPLOYMENT, None, 34);
        assert!(!got.contains("tools"), "{got}");
        assert!(got.contains(r#""name":"cfg""#));
        // On by default from 1.35; kept when the stored spec already has one.
        assert!(prepared(DEPLOYMENT, None, 35).contains("tools:1"));
        assert!(prepared(DEPLOYMENT, Some(DEPLOYMENT), 33).contains("tools:1"));
    }

    #[test]
    fn service_account_and_its_name_are_aliases() {
        let aliased = |spec: &str| {
            let mut pod = from_json_str(&format!(
                r#"{{"apiVersion":"v1","kind":"Pod","spec":{spec}}}"#
            ))
            .unwrap();
            convert_pod_fields(&mut pod);
            to_json_string(pod.get("spec").unwrap())
        };
        assert_eq!(
            aliased(r#"{"serviceAccountName":"a"}"#),
            r#"{"serviceAccountName":"a","serviceAccount":"a"}"#
        );
        assert_eq!(
            aliased(r#"{"serviceAccount":"b"}"#),
            r#"{"serviceAccount":"b","serviceAccountName":"b"}"#
        );
        assert_eq!(
            aliased(r#"{"serviceAccount":"b","serviceAccountName":"a"}"#),
            r#"{"serviceAccount":"a","serviceAccountName":"a"}"#
        );
        assert_eq!(aliased("{}"), "{}");
    }

    #[test]
    fn file_key_refs_are_dropped_in_1_34_only() {
        let pod = r#"{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"c","env":[
            {"name":"A","valueFrom":{"fileKeyRef":{"key":"A","volumeName":"v","path":"a.env"}}}]}]}}"#;
        assert!(prepared(pod, None, 34).contains(r#""valueFrom":{}"#));
        assert!(prepared(pod, Some(pod), 34).contains("a.env"));
        assert!(prepared(pod, None, 35).contains("a.env"));
    }
}
