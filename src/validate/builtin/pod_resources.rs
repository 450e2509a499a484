//! Pod-level `spec.resources` (PodLevelResources), as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go checks it (`validatePodResources`,
//! `validatePodResourceRequirements`, `validatePodResourceName`,
//! `validatePodResourceConsistency`): no claims, the names and quantities of a resource list
//! limited to cpu, memory and huge pages, and agreement with the containers' resources.

use super::super::FieldError;
use super::fields::{items, present, quantity_text};
use super::resources::{self, Context, Level};
use crate::defaults::quantity::{canonicalize, Quantity};
use crate::defaults::versioned::aggregate_container_requests;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;
use std::cmp::Ordering;

/// PodLevelResources: alpha (off, the field dropped by `dropDisabledPodLevelResources`) in
/// 1.32–1.33, beta and on by default from 1.34.
const POD_LEVEL_RESOURCES: VersionRange = VersionRange::since(34);

/// `validatePodResources` for the pod spec `spec` at `path`, when the release validates it.
pub fn check(
    spec: &Value,
    path: &str,
    context: Context,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if !POD_LEVEL_RESOURCES.contains(version) {
        return;
    }
    let Some(pod) = present(spec, "resources") else {
        return;
    };
    let at = join(path, ".resources");
    if present(pod, "claims").is_some() {
        errors.push(FieldError::forbidden(
            join(&at, ".claims"),
            "claims cannot be set for Resources at pod-level",
        ));
    }
    resources::requirements(Some(pod), &at, Level::Pod, context, version, errors);
    consistency(spec, pod, &at, errors);
}

fn quantity(v: &Value) -> Option<Quantity> {
    Quantity::parse(&quantity_text(v)?)
}

fn shown(v: &Value) -> String {
    let text = quantity_text(v).unwrap_or_default();
    canonicalize(&text).unwrap_or(text)
}

/// `validatePodResourceConsistency`: the pod-level request of each resource at least the
/// containers' aggregated requests (`AggregateContainerRequests`), each container's limit at
/// most the pod-level one. Resources without a pod-level request are skipped (see
/// docs/validation.md); kssa lists resources by name where the server ranges over a map.
fn consistency(spec: &Value, pod: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let requests = pod.get("requests");
    if let Some(spec_map) = spec.as_map() {
        let mut aggregated = aggregate_container_requests(spec_map);
        aggregated.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, total) in aggregated {
            let Some(requested) = requests.and_then(|r| r.get(&name)) else {
                continue;
            };
            let Some(q) = quantity(requested) else {
                continue;
            };
            if total.compare(&q) == Some(Ordering::Greater) {
                let total = total.canonical().unwrap_or_default();
                errors.push(FieldError::invalid(
                    keyed(&join(at, ".requests"), &name),
                    FieldError::string_value(&shown(requested)),
                    format!(
                        "must be greater than or equal to aggregate container requests of {total}"
                    ),
                ));
            }
        }
    }
    let limits = pod.get("limits").and_then(Value::as_map);
    for (i, c) in items(spec.get("containers")).iter().enumerate() {
        let own = c
            .get("resources")
            .and_then(|r| r.get("limits"))
            .and_then(Value::as_map);
        let mut own: Vec<_> = own.into_iter().flatten().collect();
        own.sort_by(|a, b| a.0.cmp(b.0));
        for (name, limit) in own {
            let Some(pod_limit) = limits.and_then(|l| l.get(name)) else {
                continue;
            };
            let (Some(a), Some(b)) = (quantity(limit), quantity(pod_limit)) else {
                continue;
            };
            if a.compare(&b) == Some(Ordering::Greater) {
                let container_at = indexed(&join(at, ".containers"), i);
                errors.push(FieldError::invalid(
                    join(&keyed(&container_at, name), ".limits"),
                    FieldError::string_value(&shown(limit)),
                    format!(
                        "must be less than or equal to pod limits of {}",
                        shown(pod_limit)
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(spec: &str, minor: u8) -> Vec<String> {
        messages_of(spec, minor, |s, v, errors| {
            check(s, "spec", Context::default(), v, errors)
        })
    }

    #[test]
    fn pod_level_resources_are_cpu_memory_and_huge_pages() {
        let spec = r#"{"resources":{"limits":{"ephemeral-storage":"1Gi","cpu":"1"},
            "requests":{"cpu":"2"},"claims":[{"name":"x"}]},"containers":[]}"#;
        assert_eq!(
            messages(spec, 37),
            [
                "spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level",
                "spec.resources.limits[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: \"cpu\", \"hugepages-\", \"memory\"",
                "spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
            ]
        );
        // Dropped while PodLevelResources is off by default.
        assert!(messages(spec, 33).is_empty());
    }

    #[test]
    fn containers_fit_in_the_pod() {
        let spec = r#"{"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m"}},
            "containers":[{"resources":{"requests":{"cpu":"400m","memory":"2Gi"},"limits":{"memory":"2Gi"}}},
                          {"resources":{"requests":{"cpu":"200m"}}}]}"#;
        assert_eq!(
            messages(spec, 34),
            [
                "spec.resources.requests[cpu]: Invalid value: \"500m\": must be greater than or equal to aggregate container requests of 600m",
                "spec.resources.containers[0][memory].limits: Invalid value: \"2Gi\": must be less than or equal to pod limits of 1Gi",
            ]
        );
    }
}
