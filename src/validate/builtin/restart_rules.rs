//! Container restart rules (`restartPolicyRules`, KEP-5307), as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go `validateContainerRestartPolicy` checks them once
//! ContainerRestartRules is on by default (beta, 1.35); while it is alpha (1.34) the strategy
//! drops the rules (`dropContainerRestartRules`, pkg/api/pod/util.go). Only the rules whose
//! messages were read upstream (kubernetes#132642, #137135, #137136, #137368) or seen in a real
//! server's refusals (v1.36.1 dry runs: a missing container `restartPolicy`, a missing
//! `exitCodes`) are checked.

use super::super::FieldError;
use super::fields::{items, present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// Releases that keep and validate `restartPolicyRules`.
const RESTART_RULES: VersionRange = VersionRange::since(35);
/// `exitCodes.values` over the limit: `field.TooLong` (as bytes) in 1.35, `field.TooMany` from
/// 1.36 (kubernetes#137136, merged before the 1.36 beta).
const VALUES_TOO_MANY: VersionRange = VersionRange::since(36);
/// At most 255 exit codes per rule.
const MAX_EXIT_CODES: usize = 255;
/// `ContainerRestartRuleAction` values (RestartAllContainers needs an alpha gate).
const ACTIONS: &[&str] = &["Restart"];
/// `ContainerRestartRuleOnExitCodesOperator` values, in the server's order.
const OPERATORS: &[&str] = &["In", "NotIn"];

/// The `restartPolicyRules` of the container at `path`: rules need the container's own
/// `restartPolicy` (`Required value: must specify restartPolicy when restart rules are used`,
/// reported before the rules); each rule's `action` `Restart`, its `exitCodes` required
/// (`Required value: must be specified`), `exitCodes.operator` `In` or `NotIn`, at most 255
/// `exitCodes.values`.
pub fn check(c: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if !RESTART_RULES.contains(version) {
        return;
    }
    let rules = items(c.get("restartPolicyRules"));
    let policy_set = !matches!(c.get("restartPolicy"), None | Some(Value::Null));
    if !rules.is_empty() && !policy_set {
        errors.push(FieldError::required(
            join(path, ".restartPolicy"),
            "must specify restartPolicy when restart rules are used",
        ));
    }
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("{path}.restartPolicyRules[{i}]");
        let action = text(rule, "action");
        if !ACTIONS.contains(&action) {
            errors.push(FieldError::not_supported(
                join(&at, ".action"),
                FieldError::string_value(action),
                ACTIONS,
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
            errors.push(if VALUES_TOO_MANY.contains(version) {
                FieldError::too_many(values_at, n, MAX_EXIT_CODES, version)
            } else {
                FieldError::too_long(values_at, MAX_EXIT_CODES, version)
            });
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
