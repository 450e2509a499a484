//! Writes through the `scale` subresource, as the registries' `ScaleREST.Update` handles them
//! (k8s.io/kubernetes pkg/registry/apps/{deployment,replicaset,statefulset}/storage/storage.go,
//! pkg/registry/core/replicationcontroller/storage/storage.go: `scaleUpdatedObjectInfo`):
//! the object must exist, the new Scale passes `ValidateScale`
//! (pkg/apis/autoscaling/validation/validation.go) or the write is a 422 on `Scale`, and the
//! object with its new `spec.replicas` then goes through the store's update like any other,
//! with the resource's own strategy validating it.
//!
//! kssa reads a scale write as the part of the object it sets (`spec.replicas`), merged into
//! the stored object; the Scale the server would build from that object is what is checked.

use super::super::{FieldError, Reason, StatusError, Write};
use crate::value::Value;

/// The built-in resources whose scale subresource `ValidateScale` guards, by group and kind.
const SCALABLE: &[(&str, &str)] = &[
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "StatefulSet"),
    ("", "ReplicationController"),
];

/// Whether `w` is a scale write of a built-in scalable kind, whose object the kind's own
/// update validation then checks.
pub fn is_builtin_scale(w: &Write) -> bool {
    let gvk = &w.kind.gvk;
    w.subresource == "scale"
        && w.kind.is_builtin()
        && SCALABLE
            .iter()
            .any(|(g, k)| *g == gvk.group && *k == gvk.kind)
}

/// The store's `Update` without a stored object: the scale subresource never creates
/// (`forceAllowCreate` false, and no strategy here allows create on update), so the answer is
/// the store's `NotFound` for the resource (`deployments.apps "web" not found`), custom
/// resources' scale included (apiextensions-apiserver `customresource/etcd.go` `ScaleREST`).
pub fn not_found(w: &Write, object: &Value) -> Result<(), StatusError> {
    if w.subresource != "scale" || w.live.is_some() {
        return Ok(());
    }
    store_not_found(w, object)
}

/// The store's `NotFound` for the resource of `w` and the object's name (`deployments.apps
/// "web" not found`); `Ok` when kssa does not know the resource's plural.
pub(crate) fn store_not_found(w: &Write, object: &Value) -> Result<(), StatusError> {
    let Some(plural) = w.kind.info.as_ref().and_then(|i| i.plural.as_deref()) else {
        return Ok(());
    };
    let group = &w.kind.gvk.group;
    let resource = if group.is_empty() {
        plural.to_string()
    } else {
        format!("{plural}.{group}")
    };
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    Err(StatusError::plain(
        Reason::NotFound,
        format!(
            "{resource} {} not found",
            super::super::goprint::go_quote(name)
        ),
    ))
}

/// `ValidateScale` of the Scale built from `object` (`scaleFrom<Kind>`: name, namespace and
/// `spec.replicas` of the object), answered as `errors.NewInvalid(autoscaling.Kind("Scale"),
/// name, errs)`. The Scale's metadata comes from the stored object and is valid.
pub fn check(w: &Write, object: &Value) -> Result<(), StatusError> {
    if !is_builtin_scale(w) {
        return Ok(());
    }
    let replicas = object
        .get_path(&["spec", "replicas"])
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if replicas >= 0 {
        return Ok(());
    }
    let errors = [FieldError::invalid(
        "spec.replicas",
        super::super::BadValue::Value(Value::Int(replicas)),
        "must be greater than or equal to 0",
    )];
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    Err(StatusError::invalid(
        "autoscaling",
        "Scale",
        name,
        &errors,
        w.version(),
    ))
}

#[cfg(test)]
mod tests {
    use crate::kube::{KubeVersion, SchemaRegistry};
    use crate::managed::Operation;
    use crate::validate::{FieldValidation, Write};
    use crate::value::from_json_str;

    const LIVE: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","namespace":"default","resourceVersion":"7"},
      "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

    #[track_caller]
    fn scale(replicas: i64, live: Option<&str>, selector: &str) -> Option<String> {
        let v = KubeVersion::new(37).unwrap();
        let kind = SchemaRegistry::for_version(v)
            .resolve("apps/v1", "Deployment")
            .unwrap();
        let live = live.map(|l| from_json_str(l).unwrap());
        let object = from_json_str(
            &LIVE
                .replace(r#""replicas":2"#, &format!(r#""replicas":{replicas}"#))
                .replace(r#""matchLabels":{"app":"web"}"#, selector),
        )
        .unwrap();
        let body = from_json_str(&format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web"}},"spec":{{"replicas":{replicas}}}}}"#
        ))
        .unwrap();
        let w = Write {
            kind: &kind,
            operation: Operation::Apply,
            manager: "hpa",
            subresource: "scale",
            field_validation: FieldValidation::Strict,
            body: &body,
            patch: None,
            live: live.as_ref(),
        };
        w.after(&object, false).err().map(|e| e.kubectl_message())
    }

    const SELECTOR: &str = r#""matchLabels":{"app":"web"}"#;

    #[test]
    fn replicas_below_zero_are_refused_on_the_scale() {
        assert_eq!(scale(5, Some(LIVE), SELECTOR), None);
        assert_eq!(
            scale(-1, Some(LIVE), SELECTOR).unwrap(),
            "The Scale \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
    }

    #[test]
    fn the_object_is_then_validated_as_its_kind() {
        // A stored object the kind's update rules refuse is refused through the scale too.
        let changed = r#""matchLabels":{"app":"api"}"#;
        let refusal = scale(3, Some(LIVE), changed).unwrap();
        assert!(
            refusal.starts_with("The Deployment \"web\" is invalid: "),
            "{refusal}"
        );
    }

    #[test]
    fn a_scale_write_never_creates() {
        assert_eq!(
            scale(3, None, SELECTOR).unwrap(),
            "Error from server (NotFound): deployments.apps \"web\" not found"
        );
    }
}
