//! What a Job update may change in its pod template (k8s.io/kubernetes
//! pkg/apis/batch/validation `validatePodTemplateUpdate`, `validatePodResourceUpdatesOnly`, with
//! the options of pkg/registry/batch/job/strategy.go `validationOptionsForJob`): nothing, unless
//! the stored Job is suspended.
//!
//! - A suspended Job that never started may change its template's labels, annotations, node
//!   selector, tolerations, scheduling gates and node affinity (JobMutableNodeSchedulingDirectives,
//!   GA in 1.27).
//! - From 1.36 (MutablePodResourcesForSuspendedJobs and
//!   MutableSchedulingDirectivesForSuspendedJobs, alpha in 1.35, beta and on in 1.36) both
//!   allowances need the stored Job suspended, not started or with a `Suspended=True`
//!   condition, and without active pods; the containers' and init containers' resources may
//!   then change too, and only the pod spec is compared (`spec.template.spec: … field is
//!   immutable`), the template's metadata not at all.

use super::super::internal_go::internal_value;
use super::super::FieldError;
use super::fields::items;
use super::selector::semantic_eq;
use super::workloads::IMMUTABLE;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

const SUSPENDED_TEMPLATE_GATES: VersionRange = VersionRange::since(36);

/// The template rules of `ValidateJobSpecUpdate`: `spec` and `old` are the new and stored Job
/// specs, `old_job` the stored Job (its status decides what a suspended Job may change).
pub(super) fn check(
    spec: &Value,
    old: &Value,
    old_job: &Value,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let suspended = old.get("suspend").and_then(Value::as_bool) == Some(true);
    let status = old_job.get("status");
    let not_started = status
        .and_then(|s| s.get("startTime"))
        .is_none_or(Value::is_null);
    let gates_on = SUSPENDED_TEMPLATE_GATES.contains(version);
    // `shouldAllowMutablePodTemplate`.
    let template_mutable = suspended
        && (not_started || suspended_condition(status))
        && status
            .and_then(|s| s.get("active"))
            .and_then(Value::as_i64)
            .unwrap_or(0)
            == 0;
    let directives = if gates_on {
        template_mutable
    } else {
        suspended && not_started
    };
    let resources = gates_on && template_mutable;
    let old_template = if directives {
        Some(with_new_directives(spec, old))
    } else {
        old.get("template").cloned()
    };
    if suspended && resources {
        resource_updates_only(spec, old_template.as_ref(), version, errors);
    } else if !semantic_eq(spec.get("template"), old_template.as_ref()) {
        errors.push(FieldError::invalid(
            "spec.template",
            internal_value(
                "PodTemplateSpec",
                spec.get("template"),
                "core.PodTemplateSpec",
                version,
            ),
            IMMUTABLE,
        ));
    }
}

/// `IsConditionTrue(conditions, JobSuspended)`.
fn suspended_condition(status: Option<&Value>) -> bool {
    items(status.and_then(|s| s.get("conditions")))
        .iter()
        .any(|c| {
            c.get("type").and_then(Value::as_str) == Some("Suspended")
                && c.get("status").and_then(Value::as_str) == Some("True")
        })
}

/// The stored template with the new one's scheduling directives and metadata.
fn with_new_directives(spec: &Value, old: &Value) -> Value {
    let mut template = old
        .get("template")
        .cloned()
        .unwrap_or(Value::Map(Map::default()));
    let new = spec.get("template");
    for path in [
        &["metadata", "labels"][..],
        &["metadata", "annotations"],
        &["spec", "nodeSelector"],
        &["spec", "tolerations"],
        &["spec", "schedulingGates"],
        &["spec", "affinity", "nodeAffinity"],
    ] {
        copy_at(
            &mut template,
            path,
            new.and_then(|n| n.get_path(path)).cloned(),
        );
    }
    template
}

/// Sets (or, for `None`, removes) the value at `path`, creating the maps above it.
fn copy_at(target: &mut Value, path: &[&str], value: Option<Value>) {
    let (last, parents) = path.split_last().expect("non-empty path");
    let mut node = target;
    for p in parents {
        let Value::Map(m) = node else { return };
        node = m
            .entry((*p).to_string())
            .or_insert_with(|| Value::Map(Map::default()));
    }
    if let Value::Map(m) = node {
        match value {
            Some(v) => {
                m.insert((*last).to_string(), v);
            }
            None => {
                m.shift_remove(*last);
            }
        }
    }
}

/// `validatePodResourceUpdatesOnly`: the stored pod spec takes the new containers' and init
/// containers' resources (where both lists have the same length and the names agree index by
/// index), and must then equal the new pod spec.
fn resource_updates_only(
    spec: &Value,
    old_template: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let new_pod = spec.get_path(&["template", "spec"]);
    let mut old_pod = old_template
        .and_then(|t| t.get("spec"))
        .cloned()
        .unwrap_or(Value::Map(Map::default()));
    for key in ["containers", "initContainers"] {
        let new_list = items(new_pod.and_then(|p| p.get(key)));
        let Some(Value::List(old_list)) = old_pod.as_map_mut().and_then(|m| m.get_mut(key)) else {
            continue;
        };
        if old_list.len() != new_list.len() {
            continue;
        }
        for (old_c, new_c) in old_list.iter_mut().zip(new_list) {
            if old_c.get("name") == new_c.get("name") {
                copy_at(old_c, &["resources"], new_c.get("resources").cloned());
            }
        }
    }
    if !semantic_eq(new_pod, Some(&old_pod)) {
        errors.push(FieldError::invalid(
            "spec.template.spec",
            internal_value("PodSpec", new_pod, "core.PodSpec", version),
            IMMUTABLE,
        ));
    }
}
