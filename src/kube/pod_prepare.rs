//! What the strategies of Pods and of the kinds with a pod template do to the pod spec before
//! validation and storage, where it changes the object rather than only its checks
//! (k8s.io/kubernetes pkg/api/pod/util.go `dropDisabledFields`, called by every such
//! strategy's `PrepareForCreate`/`PrepareForUpdate` through `DropDisabledPodFields` and
//! `DropDisabledTemplateFields`):
//!
//! - while ImageVolume is off by default (alpha 1.31–1.32, beta and off 1.33–1.34),
//!   `dropImageVolumes` removes every `image` volume and the volume mounts naming one, unless
//!   the stored spec already has an image volume. The write is then accepted without them;
//! - while EnvFiles is alpha (1.34), `dropFileKeyRefInUse` removes each env var's `fileKeyRef`
//!   unless the stored spec already has one, leaving a `valueFrom` that names no source.

use super::{KubeVersion, VersionRange};
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

/// The container lists `VisitContainers` walks.
const CONTAINER_LISTS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];

/// Releases where ImageVolume is off by default (1.30 has no `image` volume source at all).
const IMAGE_VOLUMES_DROPPED: VersionRange = VersionRange {
    since: Some(31),
    until: Some(34),
};

/// The release where EnvFiles is alpha and off.
const FILE_KEY_REFS_DROPPED: VersionRange = VersionRange {
    since: Some(34),
    until: Some(34),
};

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
        .try_fold(object, |v, k| v.as_map_mut()?.get_mut(k));
    let Some(spec) = spec else {
        return;
    };
    if IMAGE_VOLUMES_DROPPED.contains(version) && !old_spec.is_some_and(has_image_volume) {
        drop_image_volumes(spec);
    }
    if FILE_KEY_REFS_DROPPED.contains(version) && !old_spec.is_some_and(has_file_key_ref) {
        drop_file_key_refs(spec);
    }
}

/// `podFileKeyRefInUse`: an env var of any container of the pod spec reads a file.
pub fn has_file_key_ref(spec: &Value) -> bool {
    CONTAINER_LISTS
        .iter()
        .filter_map(|key| spec.get(key).and_then(Value::as_list))
        .flatten()
        .filter_map(|c| c.get("env").and_then(Value::as_list))
        .flatten()
        .any(|e| {
            e.get("valueFrom")
                .and_then(|f| f.get("fileKeyRef"))
                .is_some_and(|r| !r.is_null())
        })
}

/// `dropFileKeyRefInUse`.
fn drop_file_key_refs(spec: &mut Value) {
    let Some(map) = spec.as_map_mut() else {
        return;
    };
    for key in CONTAINER_LISTS {
        let Some(Value::List(containers)) = map.get_mut(key) else {
            continue;
        };
        for c in containers.iter_mut() {
            let Some(Value::List(vars)) = c.as_map_mut().and_then(|c| c.get_mut("env")) else {
                continue;
            };
            for var in vars.iter_mut() {
                if let Some(Value::Map(from)) =
                    var.as_map_mut().and_then(|v| v.get_mut("valueFrom"))
                {
                    from.shift_remove("fileKeyRef");
                }
            }
        }
    }
}

fn is_image_volume(v: &Value) -> bool {
    v.get("image").is_some_and(|i| !i.is_null())
}

fn image_volume_names(spec: &Value) -> Vec<String> {
    spec.get("volumes")
        .and_then(Value::as_list)
        .into_iter()
        .flatten()
        .filter(|v| is_image_volume(v))
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// `imageVolumesInUse`.
fn has_image_volume(spec: &Value) -> bool {
    spec.get("volumes")
        .and_then(Value::as_list)
        .is_some_and(|vs| {
            vs.iter()
                .any(|v| v.get("image").is_some_and(|i| !i.is_null()))
        })
}

/// `dropImageVolumes`: the image volumes go, then the mounts naming them in every container.
fn drop_image_volumes(spec: &mut Value) {
    let names = image_volume_names(spec);
    if names.is_empty() {
        return;
    }
    let Some(map) = spec.as_map_mut() else {
        return;
    };
    if let Some(Value::List(volumes)) = map.get_mut("volumes") {
        volumes.retain(|v| !is_image_volume(v));
    }
    for key in CONTAINER_LISTS {
        let Some(Value::List(containers)) = map.get_mut(key) else {
            continue;
        };
        for c in containers.iter_mut() {
            if let Some(Value::List(mounts)) =
                c.as_map_mut().and_then(|c| c.get_mut("volumeMounts"))
            {
                mounts.retain(|m| {
                    let name = m.get("name").and_then(Value::as_str).unwrap_or("");
                    !names.iter().any(|n| n == name)
                });
            }
        }
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
