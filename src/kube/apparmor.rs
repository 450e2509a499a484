//! The Pod strategy's AppArmor version skew (k8s.io/kubernetes
//! pkg/registry/core/pod/strategy.go `applyAppArmorVersionSkew`, run by `PrepareForCreate`):
//! a container's deprecated annotation
//! (`container.apparmor.security.beta.kubernetes.io/<name>`) without the container field
//! becomes the field, unless it says what the pod-level profile says; until 1.33 a container
//! with a field (or a pod-level profile) and no annotation also gets the annotation.
//! Annotation values: pkg/api/pod/util.go `ApparmorFieldForAnnotation`.

use super::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

pub const ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// The releases that also write the annotation for a field (`appArmorAnnotationForField`).
const ANNOTATIONS_FROM_FIELDS: VersionRange = VersionRange::until(33);

/// `ApparmorFieldForAnnotation`: the profile an annotation value stands for.
pub fn profile_for_annotation(annotation: &str) -> Option<Value> {
    let mut profile = Map::default();
    match annotation {
        "runtime/default" => {
            profile.insert("type".into(), Value::from("RuntimeDefault"));
        }
        "unconfined" => {
            profile.insert("type".into(), Value::from("Unconfined"));
        }
        _ => {
            let name = annotation
                .strip_prefix("localhost/")
                .filter(|n| !n.is_empty())?;
            profile.insert("type".into(), Value::from("Localhost"));
            profile.insert("localhostProfile".into(), Value::from(name));
        }
    }
    Some(Value::Map(profile))
}

/// `appArmorAnnotationForField`; `None` for a profile no annotation spells.
fn annotation_for_profile(profile: &Value) -> Option<String> {
    match profile.get("type").and_then(Value::as_str) {
        Some("Unconfined") => Some("unconfined".into()),
        Some("RuntimeDefault") => Some("runtime/default".into()),
        Some("Localhost") => profile
            .get("localhostProfile")
            .and_then(Value::as_str)
            .map(|name| format!("localhost/{name}")),
        _ => None,
    }
}

/// `Semantic.DeepEqual` of two profiles (an unset `localhostProfile` is nil).
pub fn same_profile(a: &Value, b: &Value) -> bool {
    let field = |v: &Value, k: &str| v.get(k).filter(|x| !x.is_null()).cloned();
    field(a, "type") == field(b, "type")
        && field(a, "localhostProfile") == field(b, "localhostProfile")
}

/// Whether `ValidateAppArmorProfileField` accepts a profile made from an annotation: a
/// localhost profile's name unpadded and at most 4095 bytes.
fn valid(profile: &Value) -> bool {
    profile
        .get("localhostProfile")
        .and_then(Value::as_str)
        .is_none_or(|name| name.trim() == name && name.len() <= 4095)
}

fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|x| !x.is_null())
}

/// Applies the version skew to a Pod being created, and returns the annotation keys the
/// strategy warns about (`deprecated since v1.30; use the "appArmorProfile" field instead`):
/// annotations that made no valid profile, or made one other than the pod's.
pub fn sync(pod: &mut Value, version: KubeVersion) -> Vec<String> {
    let mut warned = Vec::new();
    if pod
        .get_path(&["spec", "os", "name"])
        .and_then(Value::as_str)
        == Some("windows")
    {
        return warned;
    }
    let pod_profile =
        present(pod.get_path(&["spec", "securityContext", "appArmorProfile"])).cloned();
    let mut annotations = pod
        .get_path(&["metadata", "annotations"])
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    let before = annotations.len();
    let Some(spec) = pod
        .as_map_mut()
        .and_then(|p| p.get_mut("spec"))
        .and_then(Value::as_map_mut)
    else {
        return warned;
    };
    // `VisitContainers` with every feature: init containers, containers, ephemeral ones.
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        let Some(Value::List(containers)) = spec.get_mut(list) else {
            continue;
        };
        for container in containers.iter_mut() {
            let name = container.get("name").and_then(Value::as_str).unwrap_or("");
            let key = format!("{ANNOTATION_PREFIX}{name}");
            let own = present(container.get_path(&["securityContext", "appArmorProfile"])).cloned();
            let annotation = annotations
                .get(&key)
                .and_then(Value::as_str)
                .map(str::to_string);
            match annotation.as_deref() {
                None if ANNOTATIONS_FROM_FIELDS.contains(version) => {
                    let spelled = own
                        .as_ref()
                        .or(pod_profile.as_ref())
                        .and_then(annotation_for_profile);
                    if let Some(value) = spelled.filter(|v| !v.is_empty()) {
                        annotations.insert(key, Value::from(value));
                    }
                }
                None => {}
                Some(annotation) if own.is_none() => {
                    let field = profile_for_annotation(annotation).filter(valid);
                    let unusable = field.is_none();
                    let copied =
                        field.filter(|f| !pod_profile.as_ref().is_some_and(|p| same_profile(f, p)));
                    if unusable || copied.is_some() {
                        warned.push(key);
                    }
                    if let Some(profile) = copied {
                        set_container_profile(container, profile);
                    }
                }
                Some(_) => {}
            }
        }
    }
    if annotations.len() != before {
        if let Some(Value::Map(meta)) = pod.as_map_mut().and_then(|p| p.get_mut("metadata")) {
            meta.insert("annotations".into(), Value::Map(annotations));
        }
    }
    warned
}

fn set_container_profile(container: &mut Value, profile: Value) {
    let Some(c) = container.as_map_mut() else {
        return;
    };
    let context = c
        .entry("securityContext".into())
        .or_insert_with(|| Value::Map(Map::default()));
    if context.is_null() {
        *context = Value::Map(Map::default());
    }
    if let Some(context) = context.as_map_mut() {
        context.insert("appArmorProfile".into(), profile);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    const POD: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
      "annotations":{"container.apparmor.security.beta.kubernetes.io/a":"localhost/prof"}},
      "spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"x","securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}}}]}}"#;

    #[test]
    fn annotations_become_fields_and_fields_annotations_until_1_33() {
        let mut pod = from_json_str(POD).unwrap();
        let warned = sync(&mut pod, v(33));
        assert_eq!(warned, ["container.apparmor.security.beta.kubernetes.io/a"]);
        assert_eq!(
            pod.get_path(&["spec", "containers"])
                .unwrap()
                .as_list()
                .unwrap()[0]
                .get_path(&["securityContext", "appArmorProfile", "localhostProfile"])
                .and_then(Value::as_str),
            Some("prof")
        );
        assert_eq!(
            pod.get_path(&[
                "metadata",
                "annotations",
                "container.apparmor.security.beta.kubernetes.io/b"
            ])
            .and_then(Value::as_str),
            Some("runtime/default")
        );
        let mut pod = from_json_str(POD).unwrap();
        sync(&mut pod, v(34));
        assert!(pod
            .get_path(&[
                "metadata",
                "annotations",
                "container.apparmor.security.beta.kubernetes.io/b"
            ])
            .is_none());
    }

    #[test]
    fn an_annotation_matching_the_pod_profile_is_not_copied() {
        let mut pod = from_json_str(&POD.replace(
            r#""spec":{"#,
            r#""spec":{"securityContext":{"appArmorProfile":{"type":"Localhost","localhostProfile":"prof"}},"#,
        ))
        .unwrap();
        assert!(sync(&mut pod, v(36)).is_empty());
        let bad = POD.replace("localhost/prof", "localhost/ prof");
        let mut pod = from_json_str(&bad).unwrap();
        assert_eq!(sync(&mut pod, v(36)).len(), 1);
        assert!(pod
            .get_path(&["spec", "containers"])
            .unwrap()
            .as_list()
            .unwrap()[0]
            .get("securityContext")
            .is_none());
    }
}
