//! The rules walker over small schemas: messages, reasons, field paths, transition rules,
//! ratcheting and skipped rules.

use super::*;

fn schema(yaml: &str) -> SchemaNode {
    SchemaNode::parse(&serde_yaml::from_str(yaml).unwrap())
}

fn value(yaml: &str) -> Value {
    serde_yaml::from_str(yaml).unwrap()
}

fn render(e: &FieldError) -> String {
    let v = match &e.bad_value {
        BadValue::Omitted => String::new(),
        BadValue::Value(v) | BadValue::GoValue { value: v, .. } => {
            format!(" {}", crate::value::to_json_string(v))
        }
    };
    format!("{}: {}{v}: {}", e.field, e.error_type.as_str(), e.detail)
}

fn run(s: &SchemaNode, obj: &str, old: Option<&str>) -> (Vec<String>, RuleOutcome) {
    let old = old.map(value);
    let outcome = evaluate_rules(s, &value(obj), old.as_ref());
    (outcome.errors.iter().map(render).collect(), outcome)
}

const WIDGET: &str = r#"type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "!(self.mode == 'DaemonSet' && has(self.replicas))"
      message: replicas cannot be set when mode is DaemonSet
    - rule: self.replicas <= self.maxReplicas
      messageExpression: "'replicas ' + string(self.replicas) + ' exceed ' + string(self.maxReplicas)"
    - rule: "self.size() > 0"
    - rule: self.name == oldSelf.name
      message: name is immutable
      reason: FieldValueForbidden
      fieldPath: .name
    properties:
      name: {type: string}
      mode: {type: string}
      replicas: {type: integer}
      maxReplicas: {type: integer}
      labels:
        type: object
        additionalProperties:
          type: string
          x-kubernetes-validations:
          - rule: self.size() <= 3
"#;

#[test]
fn messages_expressions_and_defaults() {
    let s = schema(WIDGET);
    let (errors, _) = run(
        &s,
        "spec: {name: a, mode: DaemonSet, replicas: 5, maxReplicas: 2, labels: {app: toolong}}",
        None,
    );
    assert_eq!(
        errors,
        [
            r#"spec: Invalid value "object": replicas cannot be set when mode is DaemonSet"#,
            r#"spec: Invalid value "object": replicas 5 exceed 2"#,
            r#"spec.labels[app]: Invalid value "string": failed rule: self.size() <= 3"#,
        ]
    );
}

#[test]
fn missing_fields_are_runtime_errors() {
    let s = schema(WIDGET);
    let (errors, _) = run(&s, "spec: {name: a, mode: x, maxReplicas: 2}", None);
    assert_eq!(
        errors,
        [
            r#"spec: Invalid value "object": no such key: replicas evaluating rule: self.replicas <= self.maxReplicas"#
        ]
    );
}

#[test]
fn transition_rules_need_the_old_object() {
    let s = schema(WIDGET);
    let new = "spec: {name: b, mode: x, replicas: 1, maxReplicas: 2}";
    assert!(run(&s, new, None).0.is_empty());
    let (errors, _) = run(
        &s,
        new,
        Some("spec: {name: a, mode: x, replicas: 1, maxReplicas: 2}"),
    );
    assert_eq!(errors, ["spec.name: Forbidden: name is immutable"]);
}

#[test]
fn unchanged_parts_are_ratcheted_into_warnings() {
    let s = schema(WIDGET);
    let old = "spec: {name: a, mode: DaemonSet, replicas: 5, maxReplicas: 9}";
    let (errors, outcome) = run(&s, old, Some(old));
    assert!(errors.is_empty());
    assert_eq!(outcome.warnings.len(), 1);
}

#[test]
fn optional_old_self_runs_on_create() {
    let s = schema(
        r#"type: object
properties:
  spec:
    type: object
    properties:
      size:
        type: integer
        x-kubernetes-validations:
        - rule: "!oldSelf.hasValue() || self >= oldSelf.value()"
          optionalOldSelf: true
          message: size may only grow
"#,
    );
    assert!(run(&s, "spec: {size: 1}", None).0.is_empty());
    assert_eq!(
        run(&s, "spec: {size: 1}", Some("spec: {size: 2}")).0,
        [r#"spec.size: Invalid value "integer": size may only grow"#]
    );
}

#[test]
fn root_rules_report_at_no_field_and_read_metadata_names() {
    let s = schema(
        r#"type: object
x-kubernetes-validations:
- rule: self.metadata.name.startsWith('web-')
  message: names start with web-
properties:
  spec: {type: object}
"#,
    );
    let (errors, _) = run(
        &s,
        "{apiVersion: x/v1, kind: X, metadata: {name: db}, spec: {}}",
        None,
    );
    assert_eq!(
        errors,
        [r#"<nil>: Invalid value "object": names start with web-"#]
    );
}

#[test]
fn unknown_functions_are_skipped() {
    let s = schema(
        r#"type: object
properties:
  spec:
    type: object
    properties:
      endpoint:
        type: string
        x-kubernetes-validations:
        - rule: self.noSuchFunction()
"#,
    );
    let (errors, outcome) = run(&s, "spec: {endpoint: 'x'}", None);
    assert!(errors.is_empty());
    assert_eq!(outcome.skipped.len(), 1);
    assert_eq!(outcome.skipped[0].field, "spec.endpoint");
    assert!(
        outcome.skipped[0].reason.contains("noSuchFunction"),
        "{:?}",
        outcome.skipped
    );
}

#[test]
fn urls_binds_and_two_variable_comprehensions() {
    let s = schema(
        r#"type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.ports.all(name, port, port > 1024)"
      messageExpression: "'ports below 1025: ' + self.ports.transformList(n, p, p <= 1024, n).join(', ')"
    - rule: "cel.bind(u, url(self.endpoint), u.getScheme() == 'https' && u.getHost() != '')"
      message: endpoint must be an https URL
    properties:
      endpoint: {type: string}
      ports: {type: object, additionalProperties: {type: integer}}
"#,
    );
    let (errors, outcome) = run(
        &s,
        "spec: {endpoint: 'https://example.com/x', ports: {http: 8080, admin: 9000}}",
        None,
    );
    assert!(
        errors.is_empty() && outcome.skipped.is_empty(),
        "{errors:?} {:?}",
        outcome.skipped
    );
    let (errors, _) = run(
        &s,
        "spec: {endpoint: 'http://x', ports: {http: 80, b: 22}}",
        None,
    );
    assert_eq!(
        errors,
        [
            r#"spec: Invalid value "object": ports below 1025: b, http"#,
            r#"spec: Invalid value "object": endpoint must be an https URL"#,
        ]
    );
    let (errors, _) = run(&s, "spec: {endpoint: 'example.com', ports: {}}", None);
    assert_eq!(
        errors,
        [
            r#"spec: Invalid value "object": URL parse error during conversion from string: parse "example.com": invalid URI for request evaluating rule: endpoint must be an https URL"#
        ]
    );
}

#[test]
fn kubernetes_libraries_are_available() {
    let s = schema(
        r#"type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: quantity(self.memory).isLessThan(quantity('1Gi'))
      message: too much memory
    - rule: self.items.isSorted()
      message: unsorted
    - rule: self.host.matches('^[a-z.]+$') && self.host.lowerAscii() == self.host
      message: bad host
    properties:
      memory: {type: string}
      host: {type: string}
      items: {type: array, items: {type: integer}}
"#,
    );
    let (errors, outcome) = run(&s, "spec: {memory: 2Gi, items: [2, 1], host: a.b}", None);
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
    assert_eq!(
        errors,
        [
            r#"spec: Invalid value "object": too much memory"#,
            r#"spec: Invalid value "object": unsorted"#,
        ]
    );
}

#[test]
fn field_paths_normalize_against_the_schema() {
    let s = schema(WIDGET);
    let spec = &s.properties["spec"];
    assert_eq!(
        normalized_field_path(spec, ".name").as_deref(),
        Some("name")
    );
    assert_eq!(
        normalized_field_path(spec, ".labels['a.b']").as_deref(),
        Some("labels[a.b]")
    );
    assert_eq!(normalized_field_path(spec, ".nope"), None);
}

#[test]
fn cel_semantics_match_cel_go() {
    // Error absorption in || and &&, mixed int/double comparison, macros, conversions.
    let s = schema(
        r#"type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.missing == 1 || true"
    - rule: "true || self.missing == 1"
    - rule: "!(self.missing == 1 && false)"
    - rule: "self.n > 0.5"
    - rule: "self.m.all(k, k != 'x') && 'a' in self.m && self.m.size() == 1"
    - rule: "self.l.exists_one(i, i == 2) && self.l.map(i, i * 2)[1] == 4"
    - rule: "string(self.n) + 'x' == '1x' && int('3') == 3 && double(self.n) == 1.0"
    - rule: "self.s.startsWith('ab') && self.s.endsWith('c') && self.s.contains('b') && size(self.s) == 3"
    - rule: "self.l.filter(i, i > 1).size() == 2 && self.?missing.orValue(5) == 5"
    properties:
      n: {type: integer}
      s: {type: string}
      m: {type: object, additionalProperties: {type: string}}
      l: {type: array, items: {type: integer}}
"#,
    );
    let (errors, outcome) = run(&s, "spec: {n: 1, s: abc, m: {a: b}, l: [1, 2, 3]}", None);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
}

#[test]
fn errors_inside_conversions_keep_their_text() {
    let s = schema(
        r#"type: object
properties:
  endpoint:
    type: string
    x-kubernetes-validations:
    - rule: "url(self).getPort() == '' || int(url(self).getPort()) < 65536"
      message: port out of range
"#,
    );
    let (errors, outcome) = run(&s, "{endpoint: 'x/api'}", None);
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
    assert_eq!(
        errors,
        [
            r#"endpoint: Invalid value "string": URL parse error during conversion from string: parse "x/api": invalid URI for request evaluating rule: port out of range"#
        ]
    );
}
