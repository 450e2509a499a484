//! A pod spec's ephemeral containers, as k8s.io/kubernetes pkg/apis/core/validation
//! `validateEphemeralContainers` checks them (the same in 1.30–1.36), after the init
//! containers: each as a container (`validateContainerCommon`, its security context
//! included), its image without surrounding whitespace (`validateContainerOnlyForPod`, in pod
//! templates too), a name unique across all containers, a `targetContainerName` naming a
//! regular or init container, none of the fields an ephemeral container may not set
//! (`validateFieldAllowList`), and no `subPath` / `subPathExpr` mounts.
//!
//! A Pod gets them only through the `ephemeralcontainers` subresource, and a pod template
//! never: these errors come before the `cannot be set on create` / `not allowed in pod
//! template` refusals.

use super::super::FieldError;
use super::fields::{items, text};
use super::pod::{container_common, PodScope};
use super::security_context;
use crate::kube::KubeVersion;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

const NOT_FOR_EPHEMERAL: &str = "cannot be set for an Ephemeral Container";

/// The fields of the internal `core.EphemeralContainerCommon`, in Go order, that
/// `allowedEphemeralContainerFields` does not allow (JSON names).
const DISALLOWED: [&str; 9] = [
    "ports",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "restartPolicyRules",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

/// `validateEphemeralContainers` of the pod spec `pod.spec` at `path`.
pub(super) fn check(
    pod: &PodScope,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let spec = pod.spec;
    let ephemeral = items(spec.get("ephemeralContainers"));
    if ephemeral.is_empty() {
        return;
    }
    let others: HashSet<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|list| items(spec.get(list)))
        .map(|c| text(c, "name"))
        .collect();
    let mut all = others.clone();
    let list_path = join(path, ".ephemeralContainers");
    for (i, c) in ephemeral.iter().enumerate() {
        let at = indexed(&list_path, i);
        container_common(c, pod, &at, version, errors);
        security_context::container(c, spec, &at, version, errors);
        let image = text(c, "image");
        if image.trim() != image {
            errors.push(FieldError::invalid(
                join(&at, ".image"),
                FieldError::string_value(image),
                "must not have leading or trailing whitespace",
            ));
        }
        let name = text(c, "name");
        if !all.insert(name) {
            errors.push(FieldError::duplicate(
                join(&at, ".name"),
                FieldError::string_value(name),
            ));
        }
        let target = text(c, "targetContainerName");
        if !target.is_empty() && !others.contains(target) {
            errors.push(FieldError::not_found(
                join(&at, ".targetContainerName"),
                FieldError::string_value(target),
            ));
        }
        for field in DISALLOWED {
            if c.get(field).is_some_and(|v| is_set(field, v)) {
                errors.push(FieldError::forbidden(
                    join(&at, &format!(".{field}")),
                    NOT_FOR_EPHEMERAL,
                ));
            }
        }
        for (j, mount) in items(c.get("volumeMounts")).iter().enumerate() {
            for field in ["subPath", "subPathExpr"] {
                if !text(mount, field).is_empty() {
                    errors.push(FieldError::forbidden(
                        format!("{at}.volumeMounts[{j}].{field}"),
                        NOT_FOR_EPHEMERAL,
                    ));
                }
            }
        }
    }
}

/// Whether a decoded field differs from its Go zero value (`reflect.DeepEqual` with it): a
/// pointer, list or map that is present, even empty, is not nil; `resources`, the one struct
/// among them, is zero when none of its members is set.
fn is_set(field: &str, v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Map(m) if field == "resources" => m.values().any(|member| !member.is_null()),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal_causes, refusal_over_stored};

    const POD: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"api","namespace":"shop"},
      "spec":{"containers":[{"name":"api","image":"api:2"}],
        "ephemeralContainers":[{"name":"debugger-x2k","image":"busybox:1.36","targetContainerName":"api",
          "stdin":true,"tty":true,"resources":{},"terminationMessagePolicy":"File"}]}}"#;

    #[test]
    fn a_kubectl_debug_container_passes_on_a_stored_pod() {
        assert_eq!(refusal_over_stored(POD, Some(POD), 36), None);
    }

    #[test]
    fn a_template_gets_the_rules_before_its_refusal() {
        let deployment = format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"api","namespace":"shop"}},
              "spec":{{"selector":{{"matchLabels":{{"app":"api"}}}},"template":{{"metadata":{{"labels":{{"app":"api"}}}},
              "spec":{}}}}}}}"#,
            &POD[POD.find(r#""spec":"#).unwrap() + 7..POD.len() - 1]
        )
        .replace(r#""resources":{}"#, r#""resources":{"limits":{"cpu":"1"}}"#);
        assert_eq!(
            refusal_causes(&deployment, None, 36),
            [
                "spec.template.spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container",
                "spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
            ]
        );
    }
}
