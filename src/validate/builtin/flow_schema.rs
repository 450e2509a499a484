//! FlowSchemas, as k8s.io/kubernetes pkg/apis/flowcontrol/validation checks them
//! (`ValidateFlowSchema`, which `ValidateFlowSchemaUpdate` runs again): matching precedence,
//! distinguisher method, the priority level reference, and each rule's subjects, resource and
//! non-resource rules. The strategy (pkg/registry/flowcontrol/flowschema/strategy.go) clears
//! `status` on create and keeps it on update, so it is not checked. v1 and v1beta3 (1.30–1.31)
//! default `matchingPrecedence` to 1000 alike.

use super::super::goprint::go_quote;
use super::super::{formats, BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use crate::validate::field::{indexed, join, typed_value};
use crate::validate::goprint::GoType;
use crate::value::{Map, Value};

/// `flowcontrol.FlowSchemaMaxMatchingPrecedence`.
const MAX_PRECEDENCE: i64 = 10000;
/// `SetDefaults_FlowSchemaSpec`.
const DEFAULT_PRECEDENCE: i64 = 1000;
/// `supportedDistinguisherMethods`, sorted.
const DISTINGUISHERS: &[&str] = &["ByNamespace", "ByUser"];
/// `supportedVerbs`, sorted.
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];
/// `supportedSubjectKinds`, sorted.
const SUBJECT_KINDS: &[&str] = &["Group", "ServiceAccount", "User"];
/// `nsErrIntro`.
const NS_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";

/// `ValidateFlowSchema` for create and update alike: the spec, then the fixed specs of the
/// mandatory `exempt` and `catch-all` schemas ([`super::flowcontrol_mandatory`]).
pub fn flow_schema(_w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let precedence = match spec.get("matchingPrecedence").and_then(Value::as_i64) {
        None | Some(0) => DEFAULT_PRECEDENCE,
        Some(n) => n,
    };
    let precedence_value = || BadValue::Value(Value::Int(precedence));
    const AT: &str = "spec.matchingPrecedence";
    if precedence <= 0 {
        errors.push(FieldError::invalid(
            AT,
            precedence_value(),
            "must be a positive value",
        ));
    }
    if precedence > MAX_PRECEDENCE {
        errors.push(FieldError::invalid(
            AT,
            precedence_value(),
            format!("must not be greater than {MAX_PRECEDENCE}"),
        ));
    }
    if precedence == 1 && name != "exempt" {
        errors.push(FieldError::invalid(
            AT,
            precedence_value(),
            "only the schema named 'exempt' may have matchingPrecedence 1",
        ));
    }
    if let Some(method) = present(spec, "distinguisherMethod") {
        let kind = text(method, "type");
        if !DISTINGUISHERS.contains(&kind) {
            // The bad value is the internal *FlowDistinguisherMethod.
            let mut value = Map::default();
            value.insert("Type".into(), Value::from(kind));
            errors.push(FieldError::not_supported(
                "spec.distinguisherMethod.type",
                BadValue::GoValue {
                    value: Value::Map(value),
                    go_syntax: format!(
                        "flowcontrol.FlowDistinguisherMethod{{Type:{}}}",
                        go_quote(kind)
                    ),
                },
                DISTINGUISHERS,
            ));
        }
    }
    let level = spec
        .get("priorityLevelConfiguration")
        .map_or("", |p| text(p, "name"));
    const LEVEL_AT: &str = "spec.priorityLevelConfiguration.name";
    if level.is_empty() {
        errors.push(FieldError::required(
            LEVEL_AT,
            "must reference a priority level",
        ));
    } else {
        for msg in formats::dns1123_subdomain(level) {
            errors.push(FieldError::invalid(
                LEVEL_AT,
                FieldError::string_value(level),
                msg,
            ));
        }
    }
    for (i, rule) in items(spec.get("rules")).iter().enumerate() {
        rule_with_subjects(rule, &indexed("spec.rules", i), errors);
    }
    super::flowcontrol_mandatory::flow_schema(name, spec, errors);
}

/// `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn rule_with_subjects(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let subjects = items(rule.get("subjects"));
    if subjects.is_empty() {
        errors.push(FieldError::required(
            join(at, ".subjects"),
            "subjects must contain at least one value",
        ));
    }
    for (i, subject) in subjects.iter().enumerate() {
        self::subject(subject, &indexed(&join(at, ".subjects"), i), errors);
    }
    let resource_rules = items(rule.get("resourceRules"));
    let non_resource_rules = items(rule.get("nonResourceRules"));
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        errors.push(FieldError::required(
            at,
            "at least one of resourceRules and nonResourceRules has to be non-empty",
        ));
    }
    for (i, r) in resource_rules.iter().enumerate() {
        resource_rule(r, &indexed(&join(at, ".resourceRules"), i), errors);
    }
    for (i, r) in non_resource_rules.iter().enumerate() {
        non_resource_rule(r, &indexed(&join(at, ".nonResourceRules"), i), errors);
    }
}

/// `ValidateFlowSchemaSubject`: the member the kind names, no other.
fn subject(subject: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let kind = text(subject, "kind");
    let forbid = |member: &str, kind: &str, errors: &mut Vec<FieldError>| {
        if present(subject, member).is_some() {
            errors.push(FieldError::forbidden(
                join(at, &format!(".{member}")),
                format!("{member} is forbidden when subject kind is not '{kind}'"),
            ));
        }
    };
    match kind {
        "ServiceAccount" => {
            service_account(
                present(subject, "serviceAccount"),
                &join(at, ".serviceAccount"),
                errors,
            );
            forbid("user", "User", errors);
            forbid("group", "Group", errors);
        }
        "User" => {
            named(subject, "user", "User", at, errors);
            forbid("serviceAccount", "ServiceAccount", errors);
            forbid("group", "Group", errors);
        }
        "Group" => {
            named(subject, "group", "Group", at, errors);
            forbid("serviceAccount", "ServiceAccount", errors);
            forbid("user", "User", errors);
        }
        _ => errors.push(FieldError::not_supported(
            join(at, ".kind"),
            FieldError::string_value(kind),
            SUBJECT_KINDS,
        )),
    }
}

/// `ValidateUserSubject` / `ValidateGroupSubject`: present, with a name.
fn named(subject: &Value, member: &str, kind: &str, at: &str, errors: &mut Vec<FieldError>) {
    let at = join(at, &format!(".{member}"));
    match present(subject, member) {
        None => errors.push(FieldError::required(
            at,
            format!("{member} is required when subject kind is '{kind}'"),
        )),
        Some(m) if text(m, "name").is_empty() => {
            errors.push(FieldError::required(join(&at, ".name"), ""))
        }
        Some(_) => {}
    }
}

/// `ValidateServiceAccountSubject`: a name (`*` or a DNS subdomain) and a namespace.
fn service_account(sa: Option<&Value>, at: &str, errors: &mut Vec<FieldError>) {
    let Some(sa) = sa else {
        errors.push(FieldError::required(
            at,
            "serviceAccount is required when subject kind is 'ServiceAccount'",
        ));
        return;
    };
    let name = text(sa, "name");
    if name.is_empty() {
        errors.push(FieldError::required(join(at, ".name"), ""));
    } else if name != "*" {
        for msg in formats::dns1123_subdomain(name) {
            errors.push(FieldError::invalid(
                join(at, ".name"),
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    let namespace = text(sa, "namespace");
    if namespace.is_empty() {
        errors.push(FieldError::required(
            join(at, ".namespace"),
            "must specify namespace for service account",
        ));
    } else {
        for msg in formats::dns1123_label(namespace) {
            errors.push(FieldError::invalid(
                join(at, ".namespace"),
                FieldError::string_value(namespace),
                msg,
            ));
        }
    }
}

/// The strings of a list field, and the list as the server quotes it (`[]string`).
fn strings(v: &Value, key: &str) -> (Vec<String>, BadValue) {
    let list: Vec<String> = items(v.get(key))
        .iter()
        .map(|s| s.as_str().unwrap_or("").to_string())
        .collect();
    let value = Value::List(list.iter().map(|s| Value::from(s.as_str())).collect());
    let quoted = typed_value(value, &GoType::StringList);
    (list, quoted)
}

fn has_wildcard(list: &[String]) -> bool {
    list.iter().any(|s| s == "*")
}

/// The verbs check both rule kinds share: required, `*` alone, known verbs.
fn verbs(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let at = join(at, ".verbs");
    let (verbs, quoted) = strings(rule, "verbs");
    if verbs.is_empty() {
        errors.push(FieldError::required(
            at,
            "verbs must contain at least one value",
        ));
    } else if has_wildcard(&verbs) {
        if verbs.len() > 1 {
            errors.push(FieldError::invalid(
                at,
                quoted,
                "if '*' is present, must not specify other verbs",
            ));
        }
    } else if !verbs.iter().all(|v| VERBS.contains(&v.as_str())) {
        errors.push(FieldError::not_supported(at, quoted, VERBS));
    }
}

/// `ValidateFlowSchemaResourcePolicyRule`.
fn resource_rule(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    verbs(rule, at, errors);
    for (key, what) in [("apiGroups", "api group"), ("resources", "resource")] {
        let (list, quoted) = strings(rule, key);
        if list.is_empty() {
            errors.push(FieldError::required(
                join(at, &format!(".{key}")),
                format!("resource rules must supply at least one {what}"),
            ));
        } else if list.len() > 1 && has_wildcard(&list) {
            let plural = if key == "apiGroups" {
                "api groups"
            } else {
                "resources"
            };
            errors.push(FieldError::invalid(
                join(at, &format!(".{key}")),
                quoted,
                format!("if '*' is present, must not specify other {plural}"),
            ));
        }
    }
    let (namespaces, quoted) = strings(rule, "namespaces");
    let cluster_scope = rule
        .get("clusterScope")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let ns_at = join(at, ".namespaces");
    if namespaces.is_empty() && !cluster_scope {
        errors.push(FieldError::required(
            ns_at,
            "resource rules that are not cluster scoped must supply at least one namespace",
        ));
    } else if has_wildcard(&namespaces) {
        if namespaces.len() > 1 {
            errors.push(FieldError::invalid(
                ns_at,
                quoted,
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (i, ns) in namespaces.iter().enumerate() {
            for msg in formats::dns1123_label(ns) {
                errors.push(FieldError::invalid(
                    indexed(&ns_at, i),
                    FieldError::string_value(ns),
                    format!("{NS_INTRO}{msg}"),
                ));
            }
        }
    }
}

/// `ValidateFlowSchemaNonResourcePolicyRule`.
fn non_resource_rule(rule: &Value, at: &str, errors: &mut Vec<FieldError>) {
    verbs(rule, at, errors);
    let at = join(at, ".nonResourceURLs");
    let (urls, quoted) = strings(rule, "nonResourceURLs");
    if urls.is_empty() {
        errors.push(FieldError::required(
            at,
            "nonResourceURLs must contain at least one value",
        ));
    } else if has_wildcard(&urls) {
        if urls.len() > 1 {
            errors.push(FieldError::invalid(
                at,
                quoted,
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (i, url) in urls.iter().enumerate() {
            if let Some(why) = non_resource_url(url) {
                errors.push(FieldError::invalid(
                    indexed(&at, i),
                    FieldError::string_value(url),
                    why,
                ));
            }
        }
    }
}

/// `ValidateNonResourceURLPath`: why `path` is refused, if it is.
fn non_resource_url(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return Some("must start with slash");
    }
    if path.contains(' ') {
        return Some("must not contain white-space");
    }
    if path.contains("//") {
        return Some("must not contain double slash");
    }
    let stars = path.matches('*').count();
    if stars > 1 || (stars == 1 && !path.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const SCHEMA: &str = r#"{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema",
      "metadata":{"name":"service-accounts"},
      "spec":{"distinguisherMethod":{"type":"ByUser"},"matchingPrecedence":9000,
        "priorityLevelConfiguration":{"name":"workload-low"},
        "rules":[{"resourceRules":[{"apiGroups":["*"],"clusterScope":true,"namespaces":["*"],
          "resources":["*"],"verbs":["*"]}],
          "subjects":[{"group":{"name":"system:serviceaccounts"},"kind":"Group"}]}]}}"#;

    #[test]
    fn a_valid_schema_passes() {
        assert_eq!(refusal(SCHEMA, None, 37), None);
        assert_eq!(refusal(SCHEMA, Some(SCHEMA), 30), None);
        let v1beta3 = SCHEMA.replace("/v1\"", "/v1beta3\"");
        assert_eq!(refusal(&v1beta3, None, 31), None);
    }

    #[test]
    fn precedence_distinguisher_and_level() {
        let bad = SCHEMA
            .replace("9000", "1")
            .replace("ByUser", "ByGroup")
            .replace("workload-low", "");
        assert_eq!(
            refusal_causes(&bad, None, 33),
            [
                "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
                "spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:\"ByGroup\"}: supported values: \"ByNamespace\", \"ByUser\"",
                "spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
            ]
        );
        assert_eq!(
            refusal_causes(&bad, None, 34)[1],
            "spec.distinguisherMethod.type: Unsupported value: {\"Type\":\"ByGroup\"}: supported values: \"ByNamespace\", \"ByUser\""
        );
        let high = SCHEMA.replace("9000", "10001");
        assert_eq!(
            refusal_causes(&high, None, 37),
            ["spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000"]
        );
        let defaulted = SCHEMA.replace(r#""matchingPrecedence":9000,"#, "");
        assert_eq!(refusal(&defaulted, None, 37), None);
    }

    #[test]
    fn subjects() {
        let bad = SCHEMA.replace(
            r#"[{"group":{"name":"system:serviceaccounts"},"kind":"Group"}]"#,
            r#"[{"kind":"ServiceAccount","user":{"name":"x"}},
               {"kind":"ServiceAccount","serviceAccount":{"name":"Bad_Name"}},
               {"kind":"User","user":{"name":""}},{"kind":"Robot"}]"#,
        );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
                "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
                "spec.rules[0].subjects[1].serviceAccount.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.rules[0].subjects[1].serviceAccount.namespace: Required value: must specify namespace for service account",
                "spec.rules[0].subjects[2].user.name: Required value",
                "spec.rules[0].subjects[3].kind: Unsupported value: \"Robot\": supported values: \"Group\", \"ServiceAccount\", \"User\"",
            ]
        );
    }

    #[test]
    fn resource_and_non_resource_rules() {
        let bad = SCHEMA.replace(
            r#"[{"apiGroups":["*"],"clusterScope":true,"namespaces":["*"],
          "resources":["*"],"verbs":["*"]}]"#,
            r#"[{"apiGroups":["*","apps"],"namespaces":["Default"],"resources":[],"verbs":["get","fetch"]},
               {"apiGroups":[""],"resources":["pods"],"verbs":["*","get"]}],
               "nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["healthz","/a//b","/a*","/ok/*"]}]"#,
        );
        assert_eq!(
            refusal_causes(&bad, None, 33),
            [
                "spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{\"get\", \"fetch\"}: supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
                "spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{\"*\", \"apps\"}: if '*' is present, must not specify other api groups",
                "spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource",
                "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"Default\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.rules[0].resourceRules[1].verbs: Invalid value: []string{\"*\", \"get\"}: if '*' is present, must not specify other verbs",
                "spec.rules[0].resourceRules[1].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: \"healthz\": must start with slash",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: \"/a//b\": must not contain double slash",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: \"/a*\": wildcard can only do suffix matching",
            ]
        );
        let empty = SCHEMA.replace(
            r#""resourceRules":[{"apiGroups":["*"],"clusterScope":true,"namespaces":["*"],
          "resources":["*"],"verbs":["*"]}],"#,
            "",
        );
        assert_eq!(
            refusal_causes(&empty, None, 37),
            ["spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty"]
        );
    }
}
