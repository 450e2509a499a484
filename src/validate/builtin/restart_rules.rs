//! Container restart rules (`restartPolicyRules`, KEP-5307) and the container-level
//! `restartPolicy`, as k8s.io/kubernetes pkg/apis/core/validation/validation.go
//! `validateContainerRestartPolicy` and `validateInitContainerRestartPolicy` check them once
//! ContainerRestartRules is on by default (beta, 1.35); while it is alpha (1.34) the strategy
//! drops the rules (`dropContainerRestartRules`, pkg/api/pod/util.go). From 1.36
//! RestartAllContainersOnContainerExits is beta and on: the `RestartAllContainers` action is
//! allowed and a sidecar's rules are validated instead of forbidden.

use super::super::FieldError;
use super::fields::{items, present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// Releases that keep and validate `restartPolicyRules`.
const RESTART_RULES: VersionRange = VersionRange::since(35);
/// Lists over their limit: `field.TooLong` (as bytes) in 1.35, `field.TooMany` from 1.36
/// (kubernetes#137136, merged before the 1.36 beta).
const LISTS_TOO_MANY: VersionRange = VersionRange::since(36);
/// Releases where RestartAllContainersOnContainerExits is on (`AllowRestartAllContainers`).
const RESTART_ALL_CONTAINERS: VersionRange = VersionRange::since(36);
/// At most 20 rules per container.
const MAX_RULES: usize = 20;
/// At most 255 exit codes per rule.
const MAX_EXIT_CODES: usize = 255;
/// `supportedContainerRestartPolicies`, sorted as `sets.List` sorts it.
const POLICIES: &[&str] = &["Always", "Never", "OnFailure"];
/// `ContainerRestartRuleAction` values, sorted; 1.35 lists only `Restart`.
const ACTIONS: &[&str] = &["Restart"];
const ACTIONS_WITH_RESTART_ALL: &[&str] = &["Restart", "RestartAllContainers"];
/// `ContainerRestartRuleOnExitCodesOperator` values, in the server's order.
const OPERATORS: &[&str] = &["In", "NotIn"];

fn policy_set(c: &Value) -> bool {
    !matches!(c.get("restartPolicy"), None | Some(Value::Null))
}

/// A regular container's `restartPolicy` and `restartPolicyRules` (`validateContainers`).
pub fn check(c: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if RESTART_RULES.contains(version) {
        policy_and_rules(c, path, version, errors);
    }
}

/// An init container's (`validateInitContainerRestartPolicy`): rules need a policy; a sidecar
/// (`Always`) may carry rules only from 1.36; any other policy is checked as a regular
/// container's.
pub fn check_init(c: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if !RESTART_RULES.contains(version) {
        return;
    }
    let rules = items(c.get("restartPolicyRules"));
    if !policy_set(c) {
        if !rules.is_empty() {
            errors.push(required_policy(path));
        }
        return;
    }
    if text(c, "restartPolicy") != "Always" || RESTART_ALL_CONTAINERS.contains(version) {
        policy_and_rules(c, path, version, errors);
    } else if !rules.is_empty() {
        errors.push(FieldError::forbidden(
            join(path, ".restartPolicyRules"),
            "restartPolicyRules are not allowed for init containers with restart policy Always",
        ));
    }
}

fn required_policy(path: &str) -> FieldError {
    FieldError::required(
        join(path, ".restartPolicy"),
        "must specify restartPolicy when restart rules are used",
    )
}

fn too_many(at: impl Into<String>, n: usize, max: usize, version: KubeVersion) -> FieldError {
    if LISTS_TOO_MANY.contains(version) {
        FieldError::too_many(at, n, max, version)
    } else {
        FieldError::too_long(at, max, version)
    }
}

/// `validateContainerRestartPolicy`: the policy one of [`POLICIES`] (rules need one, reported
/// before the rules), at most 20 rules, each with a known `action`, its `exitCodes` required,
/// `exitCodes.operator` `In` or `NotIn`, at most 255 `exitCodes.values`.
fn policy_and_rules(c: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let rules = items(c.get("restartPolicyRules"));
    if !policy_set(c) {
        if rules.is_empty() {
            return;
        }
        errors.push(required_policy(path));
    } else {
        let policy = text(c, "restartPolicy");
        if !POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                join(path, ".restartPolicy"),
                FieldError::string_value(policy),
                POLICIES,
            ));
        }
    }
    if rules.len() > MAX_RULES {
        let at = join(path, ".restartPolicyRules");
        errors.push(too_many(at, rules.len(), MAX_RULES, version));
    }
    let actions = if RESTART_ALL_CONTAINERS.contains(version) {
        ACTIONS_WITH_RESTART_ALL
    } else {
        ACTIONS
    };
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("{path}.restartPolicyRules[{i}]");
        let action = text(rule, "action");
        if !actions.contains(&action) {
            errors.push(FieldError::not_supported(
                join(&at, ".action"),
                FieldError::string_value(action),
                actions,
            ));
        }
        let Some(codes) = present(rule, "exitCodes") else {
            errors.push(FieldError::required(
                join(&at, ".exitCodes"),
                "must be specified",
            ));
            continue;
        };
        let codes_at = join(&at, ".exitCodes");
        let operator = text(codes, "operator");
        if !OPERATORS.contains(&operator) {
            errors.push(FieldError::not_supported(
                join(&codes_at, ".operator"),
                FieldError::string_value(operator),
                OPERATORS,
            ));
        }
        let n = items(codes.get("values")).len();
        if n > MAX_EXIT_CODES {
            let values_at = join(&codes_at, ".values");
            errors.push(too_many(values_at, n, MAX_EXIT_CODES, version));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(container: &str, minor: u8) -> Vec<String> {
        messages_of(container, minor, |c, v, e| {
            check(c, "spec.containers[0]", v, e)
        })
    }

    #[test]
    fn rules_restart_on_exit_codes_in_or_not_in() {
        let c = r#"{"restartPolicy":"Never","restartPolicyRules":[
            {"action":"Restart","exitCodes":{"operator":"In","values":[42]}},
            {"action":"Retry","exitCodes":{"operator":"Equals","values":[1]}}]}"#;
        assert_eq!(
            messages(c, 35),
            [
                "spec.containers[0].restartPolicyRules[1].action: Unsupported value: \"Retry\": supported values: \"Restart\"",
                "spec.containers[0].restartPolicyRules[1].exitCodes.operator: Unsupported value: \"Equals\": supported values: \"In\", \"NotIn\"",
            ]
        );
        // Dropped while the gate is alpha.
        assert!(messages(c, 34).is_empty());
    }

    #[test]
    fn rules_need_the_container_policy_and_exit_codes() {
        let c = r#"{"restartPolicyRules":[{"action":"Restart"}]}"#;
        assert_eq!(
            messages(c, 36),
            [
                "spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used",
                "spec.containers[0].restartPolicyRules[0].exitCodes: Required value: must be specified",
            ]
        );
        assert!(messages(c, 34).is_empty());
        // A policy without rules, or rules with a policy and exit codes, are fine.
        assert!(messages(r#"{"restartPolicy":"Never"}"#, 37).is_empty());
        let ok = r#"{"restartPolicy":"Never","restartPolicyRules":[
            {"action":"Restart","exitCodes":{"operator":"In","values":[]}}]}"#;
        assert!(messages(ok, 37).is_empty());
    }

    fn init_messages(container: &str, minor: u8) -> Vec<String> {
        messages_of(container, minor, |c, v, e| {
            check_init(c, "spec.initContainers[0]", v, e)
        })
    }

    #[test]
    fn restart_all_containers_and_sidecar_rules_from_1_36() {
        let rules =
            r#"[{"action":"RestartAllContainers","exitCodes":{"operator":"In","values":[1]}}]"#;
        let regular = format!(r#"{{"restartPolicy":"Never","restartPolicyRules":{rules}}}"#);
        assert_eq!(
            messages(&regular, 35),
            ["spec.containers[0].restartPolicyRules[0].action: Unsupported value: \"RestartAllContainers\": supported values: \"Restart\""]
        );
        assert!(messages(&regular, 36).is_empty());
        let sidecar = format!(r#"{{"restartPolicy":"Always","restartPolicyRules":{rules}}}"#);
        assert_eq!(
            init_messages(&sidecar, 35),
            ["spec.initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always"]
        );
        assert!(init_messages(&sidecar, 36).is_empty());
        let retry = r#"{"restartPolicy":"Always","restartPolicyRules":[{"action":"Retry","exitCodes":{"operator":"In","values":[1]}}]}"#;
        assert_eq!(
            init_messages(retry, 36),
            ["spec.initContainers[0].restartPolicyRules[0].action: Unsupported value: \"Retry\": supported values: \"Restart\", \"RestartAllContainers\""]
        );
    }

    #[test]
    fn policy_values_and_rule_count() {
        let rule = r#"{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}"#;
        let many = vec![rule; 21].join(",");
        let c = format!(r#"{{"restartPolicy":"Sometimes","restartPolicyRules":[{many}]}}"#);
        assert_eq!(
            messages(&c, 36),
            [
                "spec.containers[0].restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\", \"OnFailure\"",
                "spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items",
            ]
        );
        assert_eq!(
            init_messages(r#"{"restartPolicy":"Sometimes"}"#, 35),
            ["spec.initContainers[0].restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\", \"OnFailure\""]
        );
        assert!(messages(r#"{"restartPolicy":"Sometimes"}"#, 34).is_empty());
    }

    #[test]
    fn at_most_255_exit_codes_worded_per_release() {
        let values: Vec<String> = (1..=256).map(|n| n.to_string()).collect();
        let c = format!(
            r#"{{"restartPolicy":"Never","restartPolicyRules":[{{"action":"Restart","exitCodes":{{"operator":"NotIn","values":[{}]}}}}]}}"#,
            values.join(",")
        );
        assert_eq!(
            messages(&c, 35),
            ["spec.containers[0].restartPolicyRules[0].exitCodes.values: Too long: may not be more than 255 bytes"]
        );
        assert_eq!(
            messages(&c, 36),
            ["spec.containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items"]
        );
    }
}
