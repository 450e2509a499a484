//! Status writes of the apps workloads, as k8s.io/kubernetes pkg/apis/apps/validation checks
//! them for the registries' status strategies: `ValidateDeploymentStatusUpdate`,
//! `ValidateReplicaSetStatusUpdate`, `ValidateStatefulSetStatusUpdate`,
//! `ValidateDaemonSetStatusUpdate` (non-negative counts, counts no greater than
//! `status.replicas`, a `collisionCount` that never goes down).

use super::super::{FieldError, Write};
use super::status::{collision_count_decremented, int, invalid_int, non_negative, status};
use crate::kube::VersionRange;
use crate::value::Value;

const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

/// `status.terminatingReplicas` of Deployments and ReplicaSets (DeploymentReplicaSetTerminatingReplicas:
/// alpha and off in 1.33–1.34, when the strategy drops the field unless the stored object has
/// it; beta and on from 1.35). Where the server checks it among the counts was read from a port
/// of the upstream function, not upstream itself.
const TERMINATING_REPLICAS: VersionRange = VersionRange::since(35);

fn checks_terminating(w: &Write) -> bool {
    TERMINATING_REPLICAS.contains(w.version())
        || w.live.is_some_and(|l| {
            status(l)
                .get("terminatingReplicas")
                .is_some_and(|v| !v.is_null())
        })
}

/// `ValidateDeploymentStatusUpdate` (`ValidateDeploymentStatus`, then the collision count).
pub fn deployment(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    for key in [
        "observedGeneration",
        "replicas",
        "updatedReplicas",
        "readyReplicas",
        "availableReplicas",
        "unavailableReplicas",
    ] {
        non_negative(s, key, errors);
    }
    if checks_terminating(w) {
        non_negative(s, "terminatingReplicas", errors);
    }
    non_negative(s, "collisionCount", errors);
    let replicas = int(s, "replicas");
    for key in ["updatedReplicas", "readyReplicas", "availableReplicas"] {
        if int(s, key) > replicas {
            errors.push(invalid_int(key, int(s, key), ABOVE_REPLICAS));
        }
    }
    available_above_ready(s, "cannot be greater than readyReplicas", errors);
    collision_count_decremented(w, object, errors);
}

/// `ValidateReplicaSetStatusUpdate` (`ValidateReplicaSetStatus`).
pub fn replica_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    for key in [
        "replicas",
        "fullyLabeledReplicas",
        "readyReplicas",
        "availableReplicas",
        "observedGeneration",
    ] {
        non_negative(s, key, errors);
    }
    if checks_terminating(w) {
        non_negative(s, "terminatingReplicas", errors);
    }
    let replicas = int(s, "replicas");
    for key in ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"] {
        if int(s, key) > replicas {
            errors.push(invalid_int(key, int(s, key), ABOVE_REPLICAS));
        }
    }
    available_above_ready(s, "cannot be greater than readyReplicas", errors);
}

/// `ValidateStatefulSetStatusUpdate` (`ValidateStatefulSetStatus`, then the collision count).
pub fn stateful_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    for key in [
        "replicas",
        "readyReplicas",
        "currentReplicas",
        "updatedReplicas",
        "availableReplicas",
        "observedGeneration",
        "collisionCount",
    ] {
        non_negative(s, key, errors);
    }
    let replicas = int(s, "replicas");
    for key in [
        "readyReplicas",
        "currentReplicas",
        "updatedReplicas",
        "availableReplicas",
    ] {
        if int(s, key) > replicas {
            errors.push(invalid_int(key, int(s, key), ABOVE_REPLICAS));
        }
    }
    available_above_ready(s, "cannot be greater than status.readyReplicas", errors);
    collision_count_decremented(w, object, errors);
}

/// `ValidateDaemonSetStatusUpdate` (`validateDaemonSetStatus`, then the collision count).
pub fn daemon_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let s = status(object);
    for key in [
        "currentNumberScheduled",
        "numberMisscheduled",
        "desiredNumberScheduled",
        "numberReady",
        "observedGeneration",
        "updatedNumberScheduled",
        "numberAvailable",
        "numberUnavailable",
        "collisionCount",
    ] {
        non_negative(s, key, errors);
    }
    collision_count_decremented(w, object, errors);
}

/// `availableReplicas` above `readyReplicas` (the StatefulSet's detail names `status.`).
fn available_above_ready(s: &Value, detail: &str, errors: &mut Vec<FieldError>) {
    let available = int(s, "availableReplicas");
    if available > int(s, "readyReplicas") {
        errors.push(invalid_int("availableReplicas", available, detail));
    }
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","namespace":"default","resourceVersion":"7","generation":3},
      "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}},
      "status":{"observedGeneration":3,"replicas":2,"updatedReplicas":2,"readyReplicas":2,
        "availableReplicas":2,"collisionCount":1}}"#;

    #[test]
    fn deployment_counts() {
        assert_eq!(status_write(37, DEPLOYMENT, DEPLOYMENT), None);
        let bad = DEPLOYMENT
            .replace(r#""readyReplicas":2"#, r#""readyReplicas":3"#)
            .replace(r#""updatedReplicas":2"#, r#""updatedReplicas":-1"#);
        assert_eq!(
            status_write(37, DEPLOYMENT, &bad).unwrap(),
            "The Deployment \"web\" is invalid: \n\
             * status.updatedReplicas: Invalid value: -1: must be greater than or equal to 0\n\
             * status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas"
        );
    }

    #[test]
    fn collision_count_may_not_go_down() {
        let bad = DEPLOYMENT.replace(r#","collisionCount":1"#, "");
        assert_eq!(
            status_write(37, DEPLOYMENT, &bad).unwrap(),
            "The Deployment \"web\" is invalid: status.collisionCount: Invalid value: 0: cannot be decremented"
        );
    }

    #[test]
    fn terminating_replicas_from_1_35() {
        let bad = DEPLOYMENT.replace(
            r#""collisionCount":1"#,
            r#""collisionCount":1,"terminatingReplicas":-2"#,
        );
        assert_eq!(
            status_write(35, DEPLOYMENT, &bad).unwrap(),
            "The Deployment \"web\" is invalid: status.terminatingReplicas: Invalid value: -2: must be greater than or equal to 0"
        );
    }

    #[test]
    fn stateful_set_available_above_ready() {
        let live = r#"{"apiVersion":"apps/v1","kind":"StatefulSet",
          "metadata":{"name":"db","namespace":"default","resourceVersion":"7"},
          "spec":{"replicas":3,"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
            "template":{"metadata":{"labels":{"app":"db"}},
              "spec":{"containers":[{"name":"db","image":"postgres:16"}]}}},
          "status":{"replicas":3,"readyReplicas":2,"availableReplicas":2}}"#;
        let bad = live.replace(r#""availableReplicas":2"#, r#""availableReplicas":3"#);
        assert_eq!(
            status_write(37, live, &bad).unwrap(),
            "The StatefulSet \"db\" is invalid: status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas"
        );
    }
}
