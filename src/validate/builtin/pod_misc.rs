//! Container rules of the pod spec that depend on a release's feature gates: the lifecycle
//! `sleep` action against the grace period, `resizePolicy`, and `restartPolicy` on regular
//! containers (k8s.io/kubernetes pkg/apis/core/validation/validation.go).

use super::super::{BadValue, FieldError};
use super::fields::{items, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// `validateSleepAction`'s detail around the grace period when zero is refused, per release:
/// from 1.32 it names the gate that would allow zero (PodLifecycleSleepActionAllowZero, alpha
/// in 1.32, on by default from 1.33).
const POSITIVE_SLEEP_RULES: &[(VersionRange, &str)] = &[
    (VersionRange::until(31), ")"),
    (
        VersionRange::since(32),
        "). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.",
    ),
];
/// Zero sleeps pass by default (PodLifecycleSleepActionAllowZero on).
const ZERO_SLEEP_BY_DEFAULT: VersionRange = VersionRange::since(33);
/// `AllowPodLifecycleSleepActionZeroValue` exists (kubernetes 1.32): before, zero is refused
/// whatever the stored pod had.
const ZERO_SLEEP_OPTION: VersionRange = VersionRange::since(32);

/// `AllowPodLifecycleSleepActionZeroValue`: the gate, or a zero sleep the stored pod already
/// had (`stored_zero`, `podLifecycleSleepActionZeroValueInUse`).
pub fn zero_sleep_allowed(version: KubeVersion, stored_zero: bool) -> bool {
    ZERO_SLEEP_BY_DEFAULT.contains(version) || (stored_zero && ZERO_SLEEP_OPTION.contains(version))
}

/// What bounds a lifecycle hook's sleep: the pod's `terminationGracePeriodSeconds` (unset,
/// nothing is checked) and whether zero seconds pass ([`zero_sleep_allowed`]).
#[derive(Debug, Clone, Copy)]
pub struct SleepBounds {
    pub grace: Option<i64>,
    pub zero_allowed: bool,
}

/// `validateSleepAction`: a lifecycle hook's `sleep.seconds` at most the grace period and
/// positive, or non-negative where zero is allowed. `path` is the action's (`….preStop.sleep`).
pub fn sleep(
    action: &Value,
    path: &str,
    bounds: SleepBounds,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let Some(grace) = bounds.grace else {
        return;
    };
    let seconds = action.get("seconds").and_then(Value::as_i64).unwrap_or(0);
    let detail = if bounds.zero_allowed {
        (seconds < 0 || seconds > grace).then(|| {
            format!("must be non-negative and less than terminationGracePeriodSeconds ({grace})")
        })
    } else {
        let end = POSITIVE_SLEEP_RULES
            .iter()
            .find(|(r, _)| r.contains(version))
            .map_or(")", |(_, end)| end);
        (seconds <= 0 || seconds > grace).then(|| {
            format!(
                "must be greater than 0 and less than terminationGracePeriodSeconds ({grace}{end}"
            )
        })
    };
    if let Some(detail) = detail {
        errors.push(FieldError::invalid(
            path,
            BadValue::Value(Value::Int(seconds)),
            detail,
        ));
    }
}

/// The pod's grace period, as the handlers of its containers see it.
pub fn grace_period(spec: &Value) -> Option<i64> {
    spec.get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
}

/// `resizePolicy` is dropped by the strategy while InPlacePodVerticalScaling is off
/// (`dropDisabledFields`, pkg/api/pod/util.go): alpha until 1.32, on by default from 1.33.
/// From then on init containers may carry one too (`AllowSidecarResizePolicy`).
const RESIZE_POLICY: VersionRange = VersionRange::since(33);
/// The detail of a `RestartContainer` resize policy in a pod that never restarts, reworded in 1.36.
const RESIZE_NEVER_DETAIL: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(35),
        "must be 'NotRequired' when `restartPolicy` is 'Never'",
    ),
    (
        VersionRange::since(36),
        "must be 'NotRequired' when pod `restartPolicy` is 'Never'",
    ),
];
/// From 1.36 a non-sidecar init container may not be restarted to resize (kubernetes#137458):
/// `validateInitContainers` refuses a `RestartContainer` resize policy unless the stored pod
/// spec already has one (`AllowExistingRestartContainerForNonSidecarInitContainer`).
const INIT_RESTART_CONTAINER_REFUSED: VersionRange = VersionRange::since(36);

/// pkg/api/pod/util.go `hasRestartContainerForNonSidecarInitContainer`.
pub fn has_init_restart_container(spec: &Value) -> bool {
    items(spec.get("initContainers")).iter().any(|c| {
        text(c, "restartPolicy") != "Always"
            && items(c.get("resizePolicy"))
                .iter()
                .any(|p| text(p, "restartPolicy") == "RestartContainer")
    })
}

/// `validateInitContainers`' last rule: a non-sidecar init container's `RestartContainer`
/// resize policies, each at its own `restartPolicy`.
pub fn init_resize_policy(
    c: &Value,
    path: &str,
    sidecar: bool,
    existing_allowed: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if sidecar || existing_allowed || !INIT_RESTART_CONTAINER_REFUSED.contains(version) {
        return;
    }
    for (j, p) in items(c.get("resizePolicy")).iter().enumerate() {
        if text(p, "restartPolicy") == "RestartContainer" {
            errors.push(FieldError::invalid(
                join(&indexed(&join(path, ".resizePolicy"), j), ".restartPolicy"),
                FieldError::string_value("RestartContainer"),
                "must not be set to 'RestartContainer' for non-sidecar initContainers",
            ));
        }
    }
}

/// `supportedResizeResources`, `supportedResizePolicies`, sorted.
const RESIZE_RESOURCES: &[&str] = &["cpu", "memory"];
const RESIZE_RESTART_POLICIES: &[&str] = &["NotRequired", "RestartContainer"];

/// `validateResizePolicy` for the container at `path` of the pod `spec`: resource names
/// unique, `cpu` or `memory`; restart policies `NotRequired` or `RestartContainer`, only
/// `NotRequired` in a pod whose `restartPolicy` is `Never`. Errors other than the duplicate
/// are reported at `resizePolicy` itself, as the server does.
pub fn resize_policy(
    c: &Value,
    spec: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if !RESIZE_POLICY.contains(version) {
        return;
    }
    let at = join(path, ".resizePolicy");
    let never = text(spec, "restartPolicy") == "Never";
    let mut seen = HashSet::new();
    for (i, p) in items(c.get("resizePolicy")).iter().enumerate() {
        let resource = text(p, "resourceName");
        if !seen.insert(resource) {
            errors.push(FieldError::duplicate(
                indexed(&at, i),
                FieldError::stringer_value(resource),
            ));
        }
        let resource_value = FieldError::stringer_value;
        super::pod::required_enum_of(resource, &at, RESIZE_RESOURCES, resource_value, errors);
        let restart = text(p, "restartPolicy");
        super::pod::required_enum(restart, &at, RESIZE_RESTART_POLICIES, errors);
        if never && restart != "NotRequired" {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(restart),
                version.pick(RESIZE_NEVER_DETAIL),
            ));
        }
    }
}

/// `validateContainers` forbids `restartPolicy` on regular containers until ContainerRestartRules
/// (alpha in 1.34, on by default from 1.35). While the gate is off in 1.34 the strategy drops
/// the field instead (`dropContainerRestartRules`, pkg/api/pod/util.go), so nothing is refused;
/// from 1.35 the value and the container's `restartPolicyRules` are checked by
/// [`super::restart_rules`].
const NO_CONTAINER_RESTART_POLICY: VersionRange = VersionRange::until(33);

/// A regular container's `restartPolicy`: `Forbidden: may not be set for non-init containers`.
pub fn container_restart_policy(
    c: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let set = !matches!(c.get("restartPolicy"), None | Some(Value::Null));
    if set && NO_CONTAINER_RESTART_POLICY.contains(version) {
        errors.push(FieldError::forbidden(
            join(path, ".restartPolicy"),
            "may not be set for non-init containers",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    #[test]
    fn non_sidecar_init_containers_may_not_restart_to_resize_from_1_36() {
        let spec = crate::value::from_json_str(
            r#"{"initContainers":[
              {"name":"a","resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"},
                {"resourceName":"memory","restartPolicy":"RestartContainer"}]},
              {"name":"b","restartPolicy":"Always",
               "resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}]}"#,
        )
        .unwrap();
        assert!(has_init_restart_container(&spec));
        let init = items(spec.get("initContainers"));
        let run = |c: &Value, sidecar, existing, minor| {
            let mut errors = Vec::new();
            let v = KubeVersion::new(minor).unwrap();
            init_resize_policy(
                c,
                "spec.initContainers[0]",
                sidecar,
                existing,
                v,
                &mut errors,
            );
            errors.iter().map(|e| e.message(v)).collect::<Vec<_>>()
        };
        assert_eq!(
            run(&init[0], false, false, 36),
            ["spec.initContainers[0].resizePolicy[1].restartPolicy: Invalid value: \"RestartContainer\": must not be set to 'RestartContainer' for non-sidecar initContainers"]
        );
        assert!(run(&init[0], false, false, 35).is_empty());
        // A stored spec that has one keeps the allowance; sidecars are not concerned.
        assert!(run(&init[0], false, true, 36).is_empty());
        assert!(run(&init[1], true, false, 36).is_empty());
    }

    fn sleep_messages_over(seconds: i64, grace: i64, minor: u8, stored_zero: bool) -> Vec<String> {
        messages_of(&format!(r#"{{"seconds":{seconds}}}"#), minor, |a, v, e| {
            let bounds = SleepBounds {
                grace: Some(grace),
                zero_allowed: zero_sleep_allowed(v, stored_zero),
            };
            sleep(
                a,
                "spec.containers[0].lifecycle.preStop.sleep",
                bounds,
                v,
                e,
            )
        })
    }

    fn sleep_messages(seconds: i64, grace: i64, minor: u8) -> Vec<String> {
        sleep_messages_over(seconds, grace, minor, false)
    }

    #[test]
    fn sleep_is_bounded_by_the_grace_period_worded_per_release() {
        assert!(sleep_messages(30, 30, 37).is_empty());
        assert_eq!(
            sleep_messages(45, 30, 37),
            ["spec.containers[0].lifecycle.preStop.sleep: Invalid value: 45: must be non-negative and less than terminationGracePeriodSeconds (30)"]
        );
        assert_eq!(
            sleep_messages(45, 30, 31),
            ["spec.containers[0].lifecycle.preStop.sleep: Invalid value: 45: must be greater than 0 and less than terminationGracePeriodSeconds (30)"]
        );
        assert_eq!(
            sleep_messages(0, 30, 32),
            ["spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."]
        );
    }

    #[test]
    fn a_stored_zero_sleep_keeps_zero_allowed_from_1_32() {
        assert!(sleep_messages_over(0, 30, 32, true).is_empty());
        assert_eq!(
            sleep_messages_over(-1, 30, 32, true),
            ["spec.containers[0].lifecycle.preStop.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)"]
        );
        // The option is new in 1.32: before, a stored zero changes nothing.
        assert_eq!(sleep_messages_over(0, 30, 31, true).len(), 1);
    }

    #[test]
    fn zero_sleep_passes_from_1_33() {
        assert!(sleep_messages(0, 30, 33).is_empty());
        assert_eq!(sleep_messages(-1, 30, 33).len(), 1);
    }

    fn resize_messages(container: &str, spec: &str, minor: u8) -> Vec<String> {
        let spec = super::super::tests::json(spec);
        messages_of(container, minor, |c, v, e| {
            resize_policy(c, &spec, "spec.containers[0]", v, e)
        })
    }

    #[test]
    fn resize_policies_name_cpu_or_memory_once() {
        let c = r#"{"resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"},
            {"resourceName":"cpu","restartPolicy":"Restart"},{"resourceName":"gpu","restartPolicy":""}]}"#;
        assert_eq!(
            resize_messages(c, r#"{"restartPolicy":"Always"}"#, 37),
            [
                "spec.containers[0].resizePolicy[1]: Duplicate value: \"cpu\"",
                "spec.containers[0].resizePolicy: Unsupported value: \"Restart\": supported values: \"NotRequired\", \"RestartContainer\"",
                "spec.containers[0].resizePolicy: Unsupported value: \"gpu\": supported values: \"cpu\", \"memory\"",
                "spec.containers[0].resizePolicy: Required value",
            ]
        );
        // Dropped while InPlacePodVerticalScaling is off by default.
        assert!(resize_messages(c, r#"{"restartPolicy":"Always"}"#, 32).is_empty());
    }

    #[test]
    fn a_pod_that_never_restarts_resizes_in_place() {
        let c =
            r#"{"resizePolicy":[{"resourceName":"memory","restartPolicy":"RestartContainer"}]}"#;
        assert!(resize_messages(c, r#"{"restartPolicy":"OnFailure"}"#, 37).is_empty());
        assert_eq!(
            resize_messages(c, r#"{"restartPolicy":"Never"}"#, 35),
            ["spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"]
        );
        assert_eq!(
            resize_messages(c, r#"{"restartPolicy":"Never"}"#, 37),
            ["spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'"]
        );
    }

    #[test]
    fn regular_containers_have_no_restart_policy_until_restart_rules() {
        let check = |minor| {
            messages_of(r#"{"restartPolicy":"Always"}"#, minor, |c, v, e| {
                container_restart_policy(c, "spec.containers[0]", v, e)
            })
        };
        assert_eq!(
            check(33),
            ["spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"]
        );
        assert!(check(34).is_empty());
        assert!(check(37).is_empty());
    }
}
