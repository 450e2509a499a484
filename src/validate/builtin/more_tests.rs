//! Scenario tests of the RBAC, networking, policy and autoscaling rules: a small object with
//! one defect, and the server's message for it.

use super::tests::refusal;

const BINDING: &str = r#"{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
  "metadata":{"name":"read","namespace":"default"},
  "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"reader"},
  "subjects":[{"kind":"ServiceAccount","name":"app","namespace":"default"},{"kind":"User","name":"jane"}]}"#;

#[test]
fn a_valid_binding_passes_and_its_role_ref_never_changes() {
    assert_eq!(refusal(BINDING, None, 37), None);
    let changed = BINDING.replace(r#""name":"reader""#, r#""name":"writer""#);
    assert_eq!(
        refusal(&changed, Some(BINDING), 37).unwrap(),
        r#"The RoleBinding "read" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"writer"}: cannot change roleRef"#
    );
    assert_eq!(
        refusal(&changed, Some(BINDING), 33).unwrap(),
        r#"The RoleBinding "read" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"writer"}: cannot change roleRef"#
    );
}

#[test]
fn binding_subjects_and_role_refs_are_checked() {
    let bad = BINDING
        .replace(r#""kind":"Role""#, r#""kind":"Roles""#)
        .replace(r#""kind":"User""#, r#""kind":"Person""#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The RoleBinding \"read\" is invalid: \n* roleRef.kind: Unsupported value: \"Roles\": supported values: \"Role\", \"ClusterRole\"\n* subjects[1].kind: Unsupported value: \"Person\": supported values: \"ServiceAccount\", \"User\", \"Group\""
    );
    let cluster = BINDING
        .replace("RoleBinding", "ClusterRoleBinding")
        .replace(r#""kind":"Role""#, r#""kind":"ClusterRole""#)
        .replace(r#","namespace":"default"}"#, "}");
    assert_eq!(
        refusal(&cluster, None, 37).unwrap(),
        "The ClusterRoleBinding \"read\" is invalid: subjects[0].namespace: Required value"
    );
}

#[test]
fn policy_rules_need_verbs_and_resources() {
    let role = r#"{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
      "metadata":{"name":"reader","namespace":"default"},
      "rules":[{"apiGroups":[""],"resources":["pods"]},{"nonResourceURLs":["/metrics"],"verbs":["get"]}]}"#;
    assert_eq!(
        refusal(role, None, 33).unwrap(),
        "The Role \"reader\" is invalid: \n* rules[0].verbs: Required value: verbs must contain at least one value\n* rules[1].nonResourceURLs: Invalid value: []string{\"/metrics\"}: namespaced rules cannot apply to non-resource URLs"
    );
    let cluster = role.replace(r#""kind":"Role""#, r#""kind":"ClusterRole""#);
    assert_eq!(
        refusal(&cluster, None, 37).unwrap(),
        "The ClusterRole \"reader\" is invalid: rules[0].verbs: Required value: verbs must contain at least one value"
    );
}

const INGRESS: &str = r#"{"apiVersion":"networking.k8s.io/v1","kind":"Ingress",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"ingressClassName":"nginx","rules":[{"host":"example.com","http":{"paths":[
    {"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}"#;

#[test]
fn ingress_paths_need_a_type_and_an_absolute_path() {
    assert_eq!(refusal(INGRESS, None, 37), None);
    let untyped = INGRESS.replace(r#""pathType":"Prefix","#, "");
    assert_eq!(
        refusal(&untyped, None, 37).unwrap(),
        "The Ingress \"web\" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"
    );
    let relative = INGRESS.replace(r#""path":"/""#, r#""path":"api//v1""#);
    assert_eq!(
        refusal(&relative, None, 37).unwrap(),
        "The Ingress \"web\" is invalid: \n* spec.rules[0].http.paths[0].path: Invalid value: \"api//v1\": must be an absolute path\n* spec.rules[0].http.paths[0].path: Invalid value: \"api//v1\": must not contain '//'"
    );
}

#[test]
fn ingress_hosts_backends_and_class() {
    let bad = INGRESS
        .replace("example.com", "10.0.0.1")
        .replace(r#"{"number":80}"#, r#"{"name":"http","number":80}"#)
        .replace(
            r#""metadata":{"name":"web","#,
            r#""metadata":{"annotations":{"kubernetes.io/ingress.class":"traefik"},"name":"web","#,
        );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The Ingress \"web\" is invalid: \n* spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address\n* spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both port name & port number\n* annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified"
    );
    let empty = r#"{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web","namespace":"default"},"spec":{}}"#;
    assert_eq!(
        refusal(empty, None, 33).unwrap(),
        "The Ingress \"web\" is invalid: spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified"
    );
    assert_eq!(
        refusal(empty, None, 34).unwrap(),
        "The Ingress \"web\" is invalid: spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"
    );
    let wildcard = INGRESS.replace("example.com", "*.*.example.com");
    assert!(refusal(&wildcard, None, 37).unwrap().contains(
        "spec.rules[0].host: Invalid value: \"*.*.example.com\": a wildcard DNS-1123 subdomain must start with '*.'"
    ));
    assert_eq!(
        refusal(&INGRESS.replace("example.com", "*.example.com"), None, 37),
        None
    );
}

const PDB: &str = r#"{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}"#;

#[test]
fn disruption_budgets_take_one_bound_as_an_integer_or_percentage() {
    assert_eq!(refusal(PDB, None, 37), None);
    let both = PDB.replace(
        r#""minAvailable":1"#,
        r#""minAvailable":1,"maxUnavailable":"150%""#,
    );
    assert_eq!(
        refusal(&both, None, 37).unwrap(),
        "The PodDisruptionBudget \"web\" is invalid: \n* spec: Invalid value: {\"MinAvailable\":1,\"Selector\":{\"matchLabels\":{\"app\":\"web\"}},\"MaxUnavailable\":\"150%\",\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set\n* spec.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%"
    );
    let word = PDB.replace(r#""minAvailable":1"#, r#""minAvailable":"half""#);
    assert_eq!(
        refusal(&word, None, 33).unwrap(),
        "The PodDisruptionBudget \"web\" is invalid: spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
    );
}

const HPA: &str = r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"minReplicas":2,"maxReplicas":5,
    "scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}}}"#;

#[test]
fn autoscalers_bound_their_replicas_and_name_a_target() {
    assert_eq!(refusal(HPA, None, 37), None);
    let bad = HPA
        .replace(r#""maxReplicas":5"#, r#""maxReplicas":1"#)
        .replace(r#","name":"web"}}"#, "}}");
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The HorizontalPodAutoscaler \"web\" is invalid: \n* spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`\n* spec.scaleTargetRef.name: Required value"
    );
    let zero = HPA.replace(r#""minReplicas":2"#, r#""minReplicas":0"#);
    assert_eq!(
        refusal(&zero, None, 37).unwrap(),
        "The HorizontalPodAutoscaler \"web\" is invalid: \n* spec.minReplicas: Invalid value: 0: must be greater than or equal to 1\n* spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"
    );
    let behavior = HPA.replace(
        r#""maxReplicas":5,"#,
        r#""maxReplicas":5,"behavior":{"scaleDown":{"stabilizationWindowSeconds":7200,"policies":[{"type":"Pods","value":1,"periodSeconds":0}]}},"#,
    );
    assert_eq!(
        refusal(&behavior, None, 37).unwrap(),
        "The HorizontalPodAutoscaler \"web\" is invalid: \n* spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 7200: must be less than or equal to 3600\n* spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero"
    );
}

const NETPOL: &str = r#"{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"podSelector":{"matchLabels":{"app":"web"}},
    "ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}],"ports":[{"port":8080,"endPort":8090}]}]}}"#;

#[test]
fn network_policies_check_ports_and_peers() {
    assert_eq!(refusal(NETPOL, None, 37), None);
    let bad = NETPOL
        .replace(
            r#""except":["10.1.0.0/16"]"#,
            r#""except":["192.168.0.0/16"]"#,
        )
        .replace(r#""endPort":8090"#, r#""endPort":8000"#)
        .replace(r#""ipBlock":{"#, r#""podSelector":{},"ipBlock":{"#);
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The NetworkPolicy \"web\" is invalid: \n* spec.ingress[0].ports[0].endPort: Invalid value: 8080: must be greater than or equal to `port`\n* spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"192.168.0.0/16\": must be a strict subset of `cidr`\n* spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer"
    );
    let cidr = NETPOL.replace("10.0.0.0/8", "10.0.0.0");
    assert_eq!(
        refusal(&cidr, None, 37).unwrap(),
        "The NetworkPolicy \"web\" is invalid: spec.ingress[0].from[0].ipBlock.cidr: Invalid value: \"10.0.0.0\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
    );
    // A CIDR the stored object already holds stays accepted.
    assert_eq!(refusal(&cidr, Some(&cidr), 37), None);
}
