//! admissionregistration.k8s.io defaulters (pkg/apis/admissionregistration/v1 `defaults.go`,
//! the same in v1beta1 and v1alpha1 for the policy kinds; unchanged in 1.30–1.36):
//! `SetDefaults_ValidatingWebhook` / `SetDefaults_MutatingWebhook` with `SetDefaults_Rule` and
//! `SetDefaults_ServiceReference`, `SetDefaults_ValidatingAdmissionPolicySpec` /
//! `SetDefaults_MutatingAdmissionPolicySpec`, `SetDefaults_MatchResources`, and the alpha
//! binding's `SetDefaults_ParamRef`. A webhook's `sideEffects` and `admissionReviewVersions`
//! have no default in v1.

use super::rules::{child, each, set_defaults, EmptyMap, Int, Lit, Str};
use crate::value::Map;

const WEBHOOK: &[(&str, Lit)] = &[
    ("failurePolicy", Str("Fail")),
    ("matchPolicy", Str("Equivalent")),
    ("namespaceSelector", EmptyMap),
    ("objectSelector", EmptyMap),
    ("timeoutSeconds", Int(10)),
];
const MATCH_RESOURCES: &[(&str, Lit)] = &[
    ("matchPolicy", Str("Equivalent")),
    ("namespaceSelector", EmptyMap),
    ("objectSelector", EmptyMap),
];
const RULE: &[(&str, Lit)] = &[("scope", Str("*"))];

pub(super) fn webhooks(obj: &mut Map, mutating: bool) {
    each(obj.get_mut("webhooks"), |hook| {
        set_defaults(Some(&mut *hook), WEBHOOK);
        if mutating {
            set_defaults(Some(&mut *hook), &[("reinvocationPolicy", Str("Never"))]);
        }
        each(hook.get_mut("rules"), |rule| set_defaults(Some(rule), RULE));
        let service = child(hook, "clientConfig").and_then(|c| child(c, "service"));
        set_defaults(service, &[("port", Int(443))]);
    });
}

pub(super) fn policy(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), &[("failurePolicy", Str("Fail"))]);
    match_resources(child(spec, "matchConstraints"));
}

/// A binding's `matchResources`; a v1alpha1 binding's `paramRef` also refuses a missing
/// parameter by default (later versions make the field required instead).
pub(super) fn binding(spec: Option<&mut Map>, alpha: bool) {
    let Some(spec) = spec else { return };
    if alpha {
        set_defaults(
            child(spec, "paramRef"),
            &[("parameterNotFoundAction", Str("Deny"))],
        );
    }
    match_resources(child(spec, "matchResources"));
}

fn match_resources(resources: Option<&mut Map>) {
    let Some(resources) = resources else { return };
    set_defaults(Some(&mut *resources), MATCH_RESOURCES);
    for rules in ["resourceRules", "excludeResourceRules"] {
        each(resources.get_mut(rules), |rule| {
            set_defaults(Some(rule), RULE)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn webhook_defaults() {
        let v: Value = serde_json::from_str(
            r#"{"webhooks":[{"name":"a.b.c","clientConfig":{"service":{"name":"s","namespace":"n"}},"rules":[{"operations":["CREATE"]}],"timeoutSeconds":5}]}"#,
        )
        .unwrap();
        let mut m = v.as_map().unwrap().clone();
        webhooks(&mut m, true);
        assert_eq!(
            serde_json::to_string(&Value::Map(m)).unwrap(),
            r#"{"webhooks":[{"name":"a.b.c","clientConfig":{"service":{"name":"s","namespace":"n","port":443}},"rules":[{"operations":["CREATE"],"scope":"*"}],"timeoutSeconds":5,"failurePolicy":"Fail","matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"reinvocationPolicy":"Never"}]}"#
        );
    }
}
