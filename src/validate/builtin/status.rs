//! Writes through the `status` subresource of the built-in kinds, as their registries'
//! `statusStrategy.ValidateUpdate` checks them (k8s.io/kubernetes pkg/registry/*/*/strategy.go):
//! the object metadata as for every write (k8s.io/apiserver `rest.BeforeUpdate`,
//! `validateCommonFields`), then the kind's status rules, dispatched by [`STATUS_RULES`].
//!
//! The stored spec (and whatever else the strategy's `PrepareForUpdate` keeps) is put back
//! before validation by the field manager's reset fields (`crate::managed::reset`), so only
//! what a status write may change is checked here.

use super::super::{BadValue, FieldError, StatusError, Write};
use super::{node, status_apps, status_batch, status_core, status_pod};
use crate::value::Value;

/// The rules of one kind's status strategy: `(w, object, errors)`.
type StatusCheck = fn(&Write, &Value, &mut Vec<FieldError>);

/// Per (group, kind): the status strategy's own rules, run after the object metadata's. Kinds
/// not listed have none beyond the metadata (CronJob: `cronJobStatusStrategy.ValidateUpdate`
/// returns no errors).
const STATUS_RULES: &[(&str, &str, StatusCheck)] = &[
    ("apps", "Deployment", status_apps::deployment),
    ("apps", "ReplicaSet", status_apps::replica_set),
    ("apps", "StatefulSet", status_apps::stateful_set),
    ("apps", "DaemonSet", status_apps::daemon_set),
    ("batch", "Job", status_batch::job),
    ("", "Pod", status_pod::pod),
    ("", "Service", status_core::service),
    ("networking.k8s.io", "Ingress", status_core::ingress),
    ("", "Namespace", status_core::namespace),
    (
        "",
        "PersistentVolumeClaim",
        status_core::persistent_volume_claim,
    ),
    // pkg/registry/core/node/strategy.go: `nodeStatusStrategy.ValidateUpdate` runs
    // `ValidateNodeUpdate`, which validates the whole Node again.
    ("", "Node", node::node),
    (
        "autoscaling",
        "HorizontalPodAutoscaler",
        status_core::horizontal_pod_autoscaler,
    ),
    (
        "policy",
        "PodDisruptionBudget",
        status_core::pod_disruption_budget,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        super::status_admission::validating_admission_policy,
    ),
    // apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go:
    // `ValidateUpdateCustomResourceDefinitionStatus`.
    (
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        super::crd_definition::status,
    ),
];

/// Whether `w` writes the status of a built-in kind (checked here rather than by the kind's
/// own rules).
pub fn is_builtin_status(w: &Write) -> bool {
    w.subresource == "status" && w.kind.is_builtin()
}

/// Built-in kinds whose strategy allows create on update (`AllowCreateOnUpdate`), so that
/// the status store creates rather than answering `NotFound`: pkg/registry/core/service
/// `svcStrategy`.
const CREATES_ON_UPDATE: &[(&str, &str)] = &[("", "Service")];

/// The store's `NotFound` for a status write without a stored object: the status endpoints
/// never create (`StatusREST.Update` passes `forceAllowCreate` false to the store, whatever the
/// request), and the store creates on update only when the strategy allows it. For custom
/// resources too (apiextensions-apiserver `customresource/etcd.go` `StatusREST`).
pub fn not_found(w: &Write, object: &Value) -> Result<(), StatusError> {
    if w.subresource != "status" || w.live.is_some() {
        return Ok(());
    }
    let gvk = &w.kind.gvk;
    let creates = w.kind.is_builtin()
        && CREATES_ON_UPDATE
            .iter()
            .any(|(g, k)| *g == gvk.group && *k == gvk.kind);
    if creates {
        return Ok(());
    }
    super::scale::store_not_found(w, object)
}

/// The status strategy's rules of `object`'s kind.
pub fn check(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let gvk = &w.kind.gvk;
    for (group, kind, rules) in STATUS_RULES {
        if *group == gvk.group && *kind == gvk.kind {
            rules(w, object, errors);
        }
    }
}

/// The object's `status`, `null` when absent.
pub(super) fn status(object: &Value) -> &Value {
    static NULL: Value = Value::Null;
    object.get("status").unwrap_or(&NULL)
}

/// An integer status field as Go reads it (absent: 0).
pub(super) fn int(status: &Value, key: &str) -> i64 {
    status.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// `ValidateNonnegativeField` of `status.<key>` when present (an absent field is Go's 0, or a
/// nil pointer the rules skip).
pub(super) fn non_negative(status: &Value, key: &str, errors: &mut Vec<FieldError>) {
    super::workloads::non_negative(status.get(key), &format!("status.{key}"), errors);
}

/// `field.Invalid(status.<key>, value, detail)` with an integer value.
pub(super) fn invalid_int(key: &str, value: i64, detail: &str) -> FieldError {
    FieldError::invalid(
        format!("status.{key}"),
        BadValue::Value(Value::Int(value)),
        detail,
    )
}

/// `apivalidation.IsDecremented` of `status.collisionCount` (a set count may not go down nor
/// be removed): `cannot be decremented`, quoting the new count (0 when removed).
pub(super) fn collision_count_decremented(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let Some(live) = w.live else { return };
    let count = |o: &Value| status(o).get("collisionCount").and_then(Value::as_i64);
    let (new, old) = (count(object), count(live));
    let decremented = match (new, old) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(n), Some(o)) => n < o,
    };
    if decremented {
        errors.push(invalid_int(
            "collisionCount",
            new.unwrap_or(0),
            "cannot be decremented",
        ));
    }
}
