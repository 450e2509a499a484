//! Workload controllers, as k8s.io/kubernetes pkg/apis/apps/validation checks them (Jobs and
//! CronJobs are in [`super::batch`] and [`super::cronjob`]), with the immutability the registry
//! strategies add on update (pkg/registry/apps/*/strategy.go `ValidateUpdate`: `spec.selector` of apps/v1
//! Deployments, ReplicaSets and DaemonSets).

use super::super::{BadValue, FieldError, Write};
use super::fields::spec;
use super::pod;
use super::selector::{self, quoted, quoted_labels, semantic_eq, Selector};
use super::strategy;
use crate::kube::VersionRange;
use crate::validate::field::join;
use crate::value::Value;

pub(super) const SELECTOR_MISMATCH: &str = "`selector` does not match template `labels`";
pub(super) const IMMUTABLE: &str = "field is immutable";

pub(super) fn non_negative(value: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(n) = value.and_then(Value::as_i64).filter(|n| *n < 0) {
        errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(n)),
            "must be greater than or equal to 0",
        ));
    }
}

/// The selector of Deployments, ReplicaSets and StatefulSets: required, valid, not empty
/// (`empty selector is invalid for <what>`). Returns what it converts to.
pub(super) fn required_selector<'v>(
    w: &Write,
    spec: &'v Value,
    what: &str,
    errors: &mut Vec<FieldError>,
) -> (Option<&'v Value>, Selector<'v>) {
    let sel = spec.get("selector").filter(|s| !s.is_null());
    match sel {
        None => errors.push(FieldError::required("spec.selector", "")),
        Some(s) => {
            selector::validate(s, "spec.selector", w.version(), errors);
            if Selector::of(Some(s)).is_empty() {
                errors.push(FieldError::invalid(
                    "spec.selector",
                    quoted(Some(s)),
                    format!("empty selector is invalid for {what}"),
                ));
            }
        }
    }
    (sel, Selector::of(sel))
}

/// [`required_selector`], then the template's labels must match it; `false` when the
/// selector does not convert (`invalid label selector`) and the template is not checked.
fn selector_and_template(
    w: &Write,
    spec: &Value,
    what: &str,
    errors: &mut Vec<FieldError>,
) -> bool {
    let (sel, converted) = required_selector(w, spec, what, errors);
    if !converted.converts() {
        errors.push(FieldError::invalid(
            "spec.selector",
            quoted(sel),
            "invalid label selector",
        ));
        return false;
    }
    template_labels_match(&converted, spec, errors);
    true
}

fn template_labels(spec: &Value) -> Option<&Value> {
    spec.get_path(&["template", "metadata", "labels"])
}

pub(super) fn template_labels_match(sel: &Selector, spec: &Value, errors: &mut Vec<FieldError>) {
    template_labels_match_at(sel, spec, "spec", errors);
}

/// The template labels of the spec at `path` must match the selector.
fn template_labels_match_at(
    sel: &Selector,
    spec: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let labels = template_labels(spec);
    if !sel.is_empty() && !sel.matches(labels) {
        errors.push(FieldError::invalid(
            join(path, ".template.metadata.labels"),
            quoted_labels(labels),
            SELECTOR_MISMATCH,
        ));
    }
}

/// A restart policy the controller does not allow in its template.
pub(super) fn template_restart_policy(
    spec: &Value,
    allowed: &[&str],
    errors: &mut Vec<FieldError>,
) {
    template_restart_policy_at(spec, "spec", allowed, errors);
}

/// [`template_restart_policy`] of the spec at `path`.
fn template_restart_policy_at(
    spec: &Value,
    path: &str,
    allowed: &[&str],
    errors: &mut Vec<FieldError>,
) {
    let policy = spec
        .get_path(&["template", "spec", "restartPolicy"])
        .and_then(Value::as_str)
        .unwrap_or("");
    if !allowed.contains(&policy) {
        errors.push(FieldError::not_supported(
            join(path, ".template.spec.restartPolicy"),
            FieldError::string_value(policy),
            allowed,
        ));
    }
}

pub(super) fn active_deadline_forbidden(spec: &Value, what: &str, errors: &mut Vec<FieldError>) {
    if spec
        .get_path(&["template", "spec", "activeDeadlineSeconds"])
        .is_some_and(|v| !v.is_null())
    {
        errors.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            format!("activeDeadlineSeconds in {what} is not Supported"),
        ));
    }
}

/// `ValidatePodTemplateSpecForReplicaSet`: the pod template of a Deployment or ReplicaSet.
fn replica_set_template(w: &Write, spec: &Value, what: &str, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    pod::template(
        spec.get("template").unwrap_or(&empty),
        pod::stored(w.live, "spec.template"),
        "spec.template",
        w.version(),
        errors,
    );
    template_restart_policy(spec, &["Always"], errors);
    active_deadline_forbidden(spec, what, errors);
}

/// The strategies' `ValidateUpdate`: apps/v1 selectors never change.
fn selector_immutable(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let Some(old) = w.live else { return };
    let new_sel = spec(object).get("selector");
    if !semantic_eq(new_sel, spec(old).get("selector")) {
        errors.push(FieldError::invalid(
            "spec.selector",
            quoted(new_sel),
            IMMUTABLE,
        ));
    }
}

/// `ValidateDeployment` / `ValidateDeploymentUpdate`.
pub fn deployment(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    non_negative(spec.get("replicas"), "spec.replicas", errors);
    if selector_and_template(w, spec, "deployment", errors) {
        replica_set_template(w, spec, "ReplicaSet", errors);
    }
    strategy::deployment(spec, errors);
    non_negative(spec.get("minReadySeconds"), "spec.minReadySeconds", errors);
    non_negative(
        spec.get("revisionHistoryLimit"),
        "spec.revisionHistoryLimit",
        errors,
    );
    strategy::rollback(spec, errors);
    if let Some(deadline) = spec.get("progressDeadlineSeconds").and_then(Value::as_i64) {
        non_negative(
            spec.get("progressDeadlineSeconds"),
            "spec.progressDeadlineSeconds",
            errors,
        );
        let min_ready = spec
            .get("minReadySeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if deadline <= min_ready {
            errors.push(FieldError::invalid(
                "spec.progressDeadlineSeconds",
                BadValue::Value(Value::Int(deadline)),
                "must be greater than minReadySeconds",
            ));
        }
    }
    selector_immutable(w, object, errors);
}

/// `ValidateReplicaSet` / `ValidateReplicaSetUpdate`.
pub fn replica_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    non_negative(spec.get("replicas"), "spec.replicas", errors);
    non_negative(spec.get("minReadySeconds"), "spec.minReadySeconds", errors);
    // The server's message names a deployment here too.
    if selector_and_template(w, spec, "deployment", errors) {
        replica_set_template(w, spec, "ReplicaSet", errors);
    }
    selector_immutable(w, object, errors);
}

/// From 1.34 the selector's immutability is part of `ValidateDaemonSetSpecUpdate`, checked
/// before the spec; earlier the strategy appended it after everything else.
const DAEMON_SET_SELECTOR_FIRST: VersionRange = VersionRange::since(34);

/// `ValidateDaemonSet` / `ValidateDaemonSetUpdate`.
pub fn daemon_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let selector_first = DAEMON_SET_SELECTOR_FIRST.contains(w.version());
    if selector_first {
        selector_immutable(w, object, errors);
    }
    let sel = spec.get("selector").filter(|s| !s.is_null());
    if let Some(s) = sel {
        let stored = w.live.and_then(|l| l.get_path(&["spec", "selector"]));
        let values = selector::values_after(stored, w.version());
        selector::validate_with(s, "spec.selector", values, w.version(), errors);
    }
    let converted = Selector::of(sel);
    if converted.converts() && !converted.matches(template_labels(spec)) {
        errors.push(FieldError::invalid(
            "spec.template.metadata.labels",
            quoted_labels(template_labels(spec)),
            SELECTOR_MISMATCH,
        ));
    }
    if sel.is_some() && converted.is_empty() {
        errors.push(FieldError::invalid(
            "spec.selector",
            quoted(sel),
            "empty selector is invalid for daemonset",
        ));
    }
    let empty = Value::Null;
    pod::template(
        spec.get("template").unwrap_or(&empty),
        pod::stored(w.live, "spec.template"),
        "spec.template",
        w.version(),
        errors,
    );
    template_restart_policy(spec, &["Always"], errors);
    active_deadline_forbidden(spec, "DaemonSet", errors);
    non_negative(spec.get("minReadySeconds"), "spec.minReadySeconds", errors);
    strategy::daemon_set(spec, errors);
    non_negative(
        spec.get("revisionHistoryLimit"),
        "spec.revisionHistoryLimit",
        errors,
    );
    if !selector_first {
        selector_immutable(w, object, errors);
    }
}
