//! The compilation of admission expressions (`admission_cel.rs`) on whole policies and webhook
//! configurations.

use super::super::tests::{refusal, refusal_causes};

/// kubernetes/website content/en/examples/validatingadmissionpolicy/policy-with-param.yaml,
/// with `EXTRA` put into its spec.
fn policy(extra: &str, validations: &str) -> String {
    format!(
        r#"{{"apiVersion":"admissionregistration.k8s.io/v1",
  "kind":"ValidatingAdmissionPolicy","metadata":{{"name":"replicalimit-policy.example.com"}},
  "spec":{{"failurePolicy":"Fail",{extra}
    "paramKind":{{"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit"}},
    "matchConstraints":{{"resourceRules":[{{"apiGroups":["apps"],"apiVersions":["v1"],
      "operations":["CREATE","UPDATE"],"resources":["deployments"]}}]}},
    "validations":[{validations}]}}}}"#
    )
}

const DOCS: &str =
    r#"{"expression":"object.spec.replicas <= params.maxReplicas","reason":"Invalid"}"#;

#[test]
fn the_documented_policy_compiles() {
    for minor in 30..=37 {
        assert!(refusal_causes(&policy("", DOCS), None, minor).is_empty());
    }
}

#[test]
fn compile_errors_and_result_types_in_the_servers_order() {
    let object = policy(
        r#""matchConditions":[{"name":"a","expression":" request.userInfo.usrname != 'x' "}],
        "variables":[{"name":"limit","expression":"params.maxReplicas"},
                     {"name":"n","expression":"variables.limit + varibles.x"}],
        "auditAnnotations":[{"key":"k","valueExpression":" string(request.dryRun) + undeclared "}],"#,
        r#"{"expression":"object.spec.paused","messageExpression":"authorizer.x + 'x'"},
           {"expression":"size(object.spec.x)","messageExpression":"1 == 1"},
           {"expression":"request.dryRun && variables.nope"}"#,
    );
    assert_eq!(
        refusal_causes(&object, None, 37),
        [
            "spec.matchConditions[0].expression: Invalid value: \"request.userInfo.usrname != 'x'\": compilation failed: ERROR: <input>:1:17: undefined field 'usrname'",
            " | request.userInfo.usrname != 'x'",
            " | ................^",
            "spec.variables[1].expression: Invalid value: \"variables.limit + varibles.x\": compilation failed: ERROR: <input>:1:19: undeclared reference to 'varibles' (in container '')",
            " | variables.limit + varibles.x",
            " | ..................^",
            "spec.validations[0].expression: Invalid value: \"object.spec.paused\": must evaluate to bool but got dyn",
            "spec.validations[0].messageExpression: Invalid value: \"authorizer.x + 'x'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')",
            " | authorizer.x + 'x'",
            " | ^",
            "spec.validations[1].expression: Invalid value: \"size(object.spec.x)\": must evaluate to bool but got int",
            "spec.validations[1].messageExpression: Invalid value: \"1 == 1\": must evaluate to string but got bool",
            "spec.validations[2].expression: Invalid value: \"request.dryRun && variables.nope\": compilation failed: ERROR: <input>:1:28: undefined field 'nope'",
            " | request.dryRun && variables.nope",
            " | ...........................^",
            "spec.auditAnnotations[0].valueExpression: Invalid value: \" string(request.dryRun) + undeclared \": compilation failed: ERROR: <input>:1:26: undeclared reference to 'undeclared' (in container '')",
            " | string(request.dryRun) + undeclared",
            " | .........................^",
        ]
    );
}

#[test]
fn params_and_variables_are_declared_only_when_the_policy_has_them() {
    let object = policy("", r#"{"expression":"variables.a"}"#).replace(
        r#""paramKind":{"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit"},"#,
        r#""matchConditions":[{"name":"p","expression":"params.x == 1"}],"#,
    );
    let causes = refusal_causes(&object, None, 37);
    assert_eq!(causes.len(), 6, "{causes:?}");
    assert!(causes[0].contains("undeclared reference to 'params'"));
    assert!(causes[3].contains("undeclared reference to 'variables'"));
}

#[test]
fn unchanged_match_conditions_are_not_compiled_again() {
    let object = policy(
        r#""matchConditions":[{"name":"a","expression":"nope"}],"#,
        DOCS,
    );
    assert_eq!(
        refusal(&object, None, 37).unwrap(),
        "The ValidatingAdmissionPolicy \"replicalimit-policy.example.com\" is invalid: \
         spec.matchConditions[0].expression: Invalid value: \"nope\": compilation failed: \
         ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^"
    );
    assert_eq!(refusal(&object, Some(&object), 37), None);
}

/// kssa's valid-webhooks case (ingress-nginx's admission webhook) with a match condition.
fn webhook(expression: &str) -> String {
    format!(
        r#"{{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration",
  "metadata":{{"name":"ingress-nginx-admission"}},
  "webhooks":[{{"name":"validate.nginx.ingress.kubernetes.io","admissionReviewVersions":["v1"],
    "sideEffects":"None","failurePolicy":"Fail","matchPolicy":"Equivalent",
    "clientConfig":{{"service":{{"name":"ingress-nginx-controller-admission","namespace":"ingress-nginx","path":"/networking/v1/ingresses"}}}},
    "rules":[{{"apiGroups":["networking.k8s.io"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["ingresses"]}}],
    "matchConditions":[{{"name":"not-system","expression":{expression:?}}}]}}]}}"#
    )
}

#[test]
fn webhook_match_conditions_have_no_params() {
    let ok = "!(request.userInfo.username in ['system:admin']) && authorizer.group('').resource('x').check('get').allowed()";
    assert!(refusal_causes(&webhook(ok), None, 37).is_empty());
    // A selection on the authorizer (`authorizer.requestResource` is a variable of its own,
    // anything else is an error kssa does not reproduce) is not judged.
    let resource = "authorizer.requestResource.check('get').allowed() && authorizer.nope && nope2";
    assert!(refusal_causes(&webhook(resource), None, 37).is_empty());
    assert_eq!(
        refusal(&webhook("params.allowed"), None, 37).unwrap(),
        "The ValidatingWebhookConfiguration \"ingress-nginx-admission\" is invalid: \
         webhooks[0].matchConditions[0].expression: Invalid value: \"params.allowed\": \
         compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n\
         \x20| params.allowed\n | ^"
    );
    assert_eq!(
        refusal_causes(&webhook("request.name"), None, 30),
        ["webhooks[0].matchConditions[0].expression: Invalid value: \"request.name\": must evaluate to bool but got string"]
    );
}

#[test]
fn new_expressions_get_the_previous_releases_libraries_stored_ones_their_own() {
    let object = policy("", r#"{"expression":"[1, 2].all(i, v, v > i)"}"#);
    let message = refusal(&object, None, 32).unwrap();
    assert!(
        message.contains("is invalid: spec.validations[0].expression: Invalid value: \"[1, 2].all(i, v, v > i)\": compilation failed: ERROR: <input>:1:11: undeclared reference to 'all' (in container '')"),
        "{message}"
    );
    assert!(refusal_causes(&object, None, 33).is_empty());
    // Upstream looks a validation up among the stored validations.
    assert!(refusal_causes(&object, Some(&object), 32).is_empty());
    let variable = policy(
        r#""variables":[{"name":"ok","expression":"[1, 2].all(i, v, v > i)"}],"#,
        r#"{"expression":"variables.ok"}"#,
    );
    let message = refusal(&variable, None, 32).unwrap();
    assert!(
        message.contains("is invalid: spec.variables[0].expression: "),
        "{message}"
    );
    assert!(refusal_causes(&variable, None, 33).is_empty());
}
