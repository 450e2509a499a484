//! MutatingAdmissionPolicy and binding rules, on the documented examples with one defect each.

use super::super::tests::refusal;

/// kubernetes/website content/en/examples/mutatingadmissionpolicy/json-patch-example.yaml.
const POLICY: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1beta1",
  "kind":"MutatingAdmissionPolicy","metadata":{"name":"sidecar-policy.example.com"},
  "spec":{"paramKind":{"kind":"Sidecar","apiVersion":"mutations.example.com/v1"},
    "matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],
      "operations":["CREATE"],"resources":["pods"]}]},
    "matchConditions":[{"name":"does-not-already-have-sidecar",
      "expression":"!object.spec.initContainers.exists(ic, ic.name == \"mesh-proxy\")"}],
    "failurePolicy":"Fail","reinvocationPolicy":"IfNeeded",
    "mutations":[{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: \"add\", path: \"/spec/initContainers/-\", value: Object.spec.initContainers{name: \"mesh-proxy\"}}]"}}]}}"#;

/// kubernetes/website content/en/examples/mutatingadmissionpolicy/
/// applyconfiguration-example-binding.yaml, with a `paramRef`.
const BINDING: &str = r#"{"apiVersion":"admissionregistration.k8s.io/v1",
  "kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"sidecar-policy.example.com"},
  "spec":{"matchResources":{"namespaceSelector":{}},"policyName":"sidecar-policy.example.com",
    "paramRef":{"name":"sidecar","namespace":"default","parameterNotFoundAction":"Deny"}}}"#;

fn policy_message(causes: &[&str]) -> String {
    header("MutatingAdmissionPolicy", causes)
}

fn header(kind: &str, causes: &[&str]) -> String {
    let head = format!("The {kind} \"sidecar-policy.example.com\" is invalid: ");
    match causes {
        [one] => format!("{head}{one}"),
        _ => format!("{head}\n* {}", causes.join("\n* ")),
    }
}

#[test]
fn the_documented_policy_and_binding_pass() {
    for minor in [34, 37] {
        assert_eq!(refusal(POLICY, None, minor), None);
    }
    let alpha = POLICY.replace("v1beta1", "v1alpha1");
    assert_eq!(refusal(&alpha, None, 32), None);
    assert_eq!(refusal(BINDING, None, 37), None);
    // failurePolicy defaults to Fail.
    let no_failure = POLICY.replace(r#""failurePolicy":"Fail","#, "");
    assert_eq!(refusal(&no_failure, None, 37), None);
}

#[test]
fn mutations_and_reinvocation_policy_are_required() {
    let bad = POLICY
        .replace(r#""reinvocationPolicy":"IfNeeded","#, "")
        .replace(r#""mutations":[{"#, r#""unused":[{"#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        policy_message(&[
            "spec.mutations: Required value: mutations must contain at least one item",
            "spec.reinvocationPolicy: Required value",
        ])
    );
    let bad = POLICY.replace(r#""IfNeeded""#, r#""Always""#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        policy_message(&[
            "spec.reinvocationPolicy: Unsupported value: \"Always\": supported values: \"IfNeeded\", \"Never\"",
        ])
    );
}

#[test]
fn patch_type_and_its_patch() {
    let other = POLICY.replace(
        r#""jsonPatch":{"#,
        r#""applyConfiguration":{"expression":"Object{}"},"jsonPatch":{"#,
    );
    assert_eq!(
        refusal(&other, None, 37).unwrap(),
        policy_message(&[
            "spec.mutations[0].applyConfiguration: Invalid value: \"{applyConfiguration}\": must not be specified when patchType is JSONPatch",
        ])
    );
    let swapped = POLICY.replace(
        r#""patchType":"JSONPatch""#,
        r#""patchType":"ApplyConfiguration""#,
    );
    assert_eq!(
        refusal(&swapped, None, 37).unwrap(),
        policy_message(&[
            "spec.mutations[0].applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration",
            "spec.mutations[0].jsonPatch: Invalid value: \"{jsonPatch}\": must not be specified when patchType is ApplyConfiguration",
        ])
    );
    let blank = POLICY.replace(
        r#""expression":"[JSONPatch"#,
        r#""expression":"  ","x":"[JSONPatch"#,
    );
    assert_eq!(
        refusal(&blank, None, 37).unwrap(),
        policy_message(&["spec.mutations[0].jsonPatch.expression: Required value"])
    );
    let unknown = POLICY.replace(r#""patchType":"JSONPatch""#, r#""patchType":"MergePatch""#);
    assert_eq!(
        refusal(&unknown, None, 37).unwrap(),
        policy_message(&[
            "spec.mutations[0].patchType: Unsupported value: \"MergePatch\": supported values: \"ApplyConfiguration\", \"JSONPatch\"",
        ])
    );
    let none = POLICY.replace(r#""patchType":"JSONPatch","#, "");
    assert_eq!(
        refusal(&none, None, 37).unwrap(),
        policy_message(&["spec.mutations[0].patchType: Required value"])
    );
}

#[test]
fn delete_cannot_be_mutated() {
    let bad = POLICY.replace(r#"["CREATE"]"#, r#"["CREATE","DELETE","PATCH"]"#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        policy_message(&[
            "spec.matchConstraints.resourceRules[0].operations[2]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"",
            "spec.matchConstraints.resourceRules.operations: Unsupported value: \"DELETE\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\"",
            "spec.matchConstraints.resourceRules.operations: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\"",
        ])
    );
}

#[test]
fn shared_rules_of_the_validating_policy() {
    let bad = POLICY
        .replace(r#""failurePolicy":"Fail""#, r#""failurePolicy":"Retry""#)
        .replace(r#""kind":"Sidecar""#, r#""kind":"""#)
        .replace(
            r#""matchConditions":"#,
            r#""variables":[{"name":"in","expression":"1"}],"matchConditions":"#,
        );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        policy_message(&[
            "spec.failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"",
            "spec.paramKind.kind: Required value",
            "spec.variables[0].name: Invalid value: \"in\": must be a valid CEL identifier",
        ])
    );
    let no_rules = POLICY.replace(
        r#"{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],
      "operations":["CREATE"],"resources":["pods"]}]}"#,
        r#"{"matchPolicy":"Loose"}"#,
    );
    assert_eq!(
        refusal(&no_rules, None, 37).unwrap(),
        policy_message(&[
            "spec.matchConstraints.matchPolicy: Unsupported value: \"Loose\": supported values: \"Equivalent\", \"Exact\"",
            "spec.matchConstraints.resourceRules: Required value",
        ])
    );
}

#[test]
fn binding_rules() {
    let bad = BINDING
        .replace(r#""policyName":"sidecar-policy.example.com","#, "")
        .replace(
            r#""namespaceSelector":{}"#,
            r#""namespaceSelector":{},"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["DELETE"],"resources":["pods"]}]"#,
        )
        .replace(r#","parameterNotFoundAction":"Deny""#, "");
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        header(
            "MutatingAdmissionPolicyBinding",
            &[
                "spec.policyName: Required value",
                "spec.paramRef.parameterNotFoundAction: Required value",
                "spec.matchResources.resourceRules.operations: Unsupported value: \"DELETE\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\"",
            ]
        )
    );
    // v1alpha1 defaults the action to Deny.
    let alpha = BINDING
        .replace("/v1\"", "/v1alpha1\"")
        .replace(r#","parameterNotFoundAction":"Deny""#, "");
    assert_eq!(refusal(&alpha, None, 32), None);
}
