//! The mandatory API Priority and Fairness objects, whose specs are fixed: k8s.io/kubernetes
//! pkg/apis/flowcontrol/validation `ValidateFlowSchema` (the `exempt` and `catch-all` flow
//! schemas) and `ValidateIfMandatoryPriorityLevelConfigurationObject` (the `exempt` and
//! `catch-all` priority levels; `exempt`'s `spec.exempt` may differ). The fixed values are
//! k8s.io/apiserver pkg/apis/flowcontrol/bootstrap `Mandatory…`, identical in 1.30–1.36, as the
//! server holds them after defaulting. The comparison is `apiequality.Semantic.DeepEqual` of
//! the internal specs (an empty list equals a missing one); the error quotes the internal spec
//! whole: JSON of the untagged struct (Go field names) from 1.34, `%#v` before, whose pointers
//! print as addresses no client can know (`0x…` here).

use super::super::{BadValue, FieldError};
use crate::value::gofmt::go_quote;
use crate::value::{from_json_str, List, Map, Value};

/// A field of an internal struct: its JSON (v1) name, Go name and shape.
type Field = (&'static str, &'static str, Shape);

#[derive(Clone, Copy)]
enum Shape {
    Str,
    Int,
    Bool,
    StrList,
    /// `*int32`.
    IntPtr,
    Struct(&'static GoStruct),
    Ptr(&'static GoStruct),
    List(&'static GoStruct),
}

struct GoStruct {
    go: &'static str,
    fields: &'static [Field],
}

const LEVEL_REFERENCE: GoStruct = GoStruct {
    go: "flowcontrol.PriorityLevelConfigurationReference",
    fields: &[("name", "Name", Shape::Str)],
};
const DISTINGUISHER: GoStruct = GoStruct {
    go: "flowcontrol.FlowDistinguisherMethod",
    fields: &[("type", "Type", Shape::Str)],
};
const NAMED: GoStruct = GoStruct {
    go: "flowcontrol.UserSubject",
    fields: &[("name", "Name", Shape::Str)],
};
const GROUP: GoStruct = GoStruct {
    go: "flowcontrol.GroupSubject",
    ..NAMED
};
const SERVICE_ACCOUNT: GoStruct = GoStruct {
    go: "flowcontrol.ServiceAccountSubject",
    fields: &[
        ("namespace", "Namespace", Shape::Str),
        ("name", "Name", Shape::Str),
    ],
};
const SUBJECT: GoStruct = GoStruct {
    go: "flowcontrol.Subject",
    fields: &[
        ("kind", "Kind", Shape::Str),
        ("user", "User", Shape::Ptr(&NAMED)),
        ("group", "Group", Shape::Ptr(&GROUP)),
        (
            "serviceAccount",
            "ServiceAccount",
            Shape::Ptr(&SERVICE_ACCOUNT),
        ),
    ],
};
const RESOURCE_RULE: GoStruct = GoStruct {
    go: "flowcontrol.ResourcePolicyRule",
    fields: &[
        ("verbs", "Verbs", Shape::StrList),
        ("apiGroups", "APIGroups", Shape::StrList),
        ("resources", "Resources", Shape::StrList),
        ("clusterScope", "ClusterScope", Shape::Bool),
        ("namespaces", "Namespaces", Shape::StrList),
    ],
};
const NON_RESOURCE_RULE: GoStruct = GoStruct {
    go: "flowcontrol.NonResourcePolicyRule",
    fields: &[
        ("verbs", "Verbs", Shape::StrList),
        ("nonResourceURLs", "NonResourceURLs", Shape::StrList),
    ],
};
const RULES: GoStruct = GoStruct {
    go: "flowcontrol.PolicyRulesWithSubjects",
    fields: &[
        ("subjects", "Subjects", Shape::List(&SUBJECT)),
        (
            "resourceRules",
            "ResourceRules",
            Shape::List(&RESOURCE_RULE),
        ),
        (
            "nonResourceRules",
            "NonResourceRules",
            Shape::List(&NON_RESOURCE_RULE),
        ),
    ],
};
const FLOW_SCHEMA_SPEC: GoStruct = GoStruct {
    go: "flowcontrol.FlowSchemaSpec",
    fields: &[
        (
            "priorityLevelConfiguration",
            "PriorityLevelConfiguration",
            Shape::Struct(&LEVEL_REFERENCE),
        ),
        ("matchingPrecedence", "MatchingPrecedence", Shape::Int),
        (
            "distinguisherMethod",
            "DistinguisherMethod",
            Shape::Ptr(&DISTINGUISHER),
        ),
        ("rules", "Rules", Shape::List(&RULES)),
    ],
};
const QUEUING: GoStruct = GoStruct {
    go: "flowcontrol.QueuingConfiguration",
    fields: &[
        ("queues", "Queues", Shape::Int),
        ("handSize", "HandSize", Shape::Int),
        ("queueLengthLimit", "QueueLengthLimit", Shape::Int),
    ],
};
const LIMIT_RESPONSE: GoStruct = GoStruct {
    go: "flowcontrol.LimitResponse",
    fields: &[
        ("type", "Type", Shape::Str),
        ("queuing", "Queuing", Shape::Ptr(&QUEUING)),
    ],
};
const LIMITED: GoStruct = GoStruct {
    go: "flowcontrol.LimitedPriorityLevelConfiguration",
    fields: &[
        (
            "nominalConcurrencyShares",
            "NominalConcurrencyShares",
            Shape::Int,
        ),
        (
            "limitResponse",
            "LimitResponse",
            Shape::Struct(&LIMIT_RESPONSE),
        ),
        ("lendablePercent", "LendablePercent", Shape::IntPtr),
        (
            "borrowingLimitPercent",
            "BorrowingLimitPercent",
            Shape::IntPtr,
        ),
    ],
};
const EXEMPT: GoStruct = GoStruct {
    go: "flowcontrol.ExemptPriorityLevelConfiguration",
    fields: &[
        (
            "nominalConcurrencyShares",
            "NominalConcurrencyShares",
            Shape::IntPtr,
        ),
        ("lendablePercent", "LendablePercent", Shape::IntPtr),
    ],
};
const LEVEL_SPEC: GoStruct = GoStruct {
    go: "flowcontrol.PriorityLevelConfigurationSpec",
    fields: &[
        ("type", "Type", Shape::Str),
        ("limited", "Limited", Shape::Ptr(&LIMITED)),
        ("exempt", "Exempt", Shape::Ptr(&EXEMPT)),
    ],
};

/// The rules of both fixed schemas but their subjects: everything, everywhere.
const ALL_RULES: &str = r#""resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"clusterScope":true,"namespaces":["*"]}],
    "nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]"#;

/// A subject of the group `name`.
fn group(name: &str) -> String {
    format!(r#"{{"kind":"Group","group":{{"name":"{name}"}}}}"#)
}

/// The fixed flow schema specs by name (v1, defaulted).
fn mandatory_flow_schema(name: &str) -> Option<Value> {
    let (precedence, distinguisher, subjects) = match name {
        "exempt" => (1, "", group("system:masters")),
        "catch-all" => (
            10000,
            r#","distinguisherMethod":{"type":"ByUser"}"#,
            format!(
                "{},{}",
                group("system:unauthenticated"),
                group("system:authenticated")
            ),
        ),
        _ => return None,
    };
    let spec = format!(
        r#"{{"priorityLevelConfiguration":{{"name":"{name}"}},"matchingPrecedence":{precedence}{distinguisher},
        "rules":[{{"subjects":[{subjects}],{ALL_RULES}}}]}}"#
    );
    Some(from_json_str(&spec).expect("fixed flow schema spec"))
}

/// The fixed priority level specs by name (v1, defaulted).
fn mandatory_priority_level(name: &str) -> Option<Value> {
    let spec = match name {
        "exempt" => {
            r#"{"type":"Exempt","exempt":{"nominalConcurrencyShares":0,"lendablePercent":0}}"#
        }
        "catch-all" => {
            r#"{"type":"Limited","limited":{"nominalConcurrencyShares":5,"lendablePercent":0,"limitResponse":{"type":"Reject"}}}"#
        }
        _ => return None,
    };
    Some(from_json_str(spec).expect("fixed priority level spec"))
}

/// The check of a FlowSchema named `name` with the defaulted spec `spec`.
pub fn flow_schema(name: &str, spec: &Value, errors: &mut Vec<FieldError>) {
    let Some(fixed) = mandatory_flow_schema(name) else {
        return;
    };
    let spec = with_default_precedence(spec);
    if !same(&spec, &fixed, &FLOW_SCHEMA_SPEC) {
        errors.push(invalid_spec(
            &spec,
            &FLOW_SCHEMA_SPEC,
            format!("spec of '{name}' must equal the fixed value"),
        ));
    }
}

/// The check of a PriorityLevelConfiguration named `name` with the defaulted spec `spec`.
pub fn priority_level(name: &str, spec: &Value, errors: &mut Vec<FieldError>) {
    let Some(mut fixed) = mandatory_priority_level(name) else {
        return;
    };
    let detail = if name == "exempt" {
        // The admin may change the contents of `spec.exempt`.
        if let Some(m) = fixed.as_map_mut() {
            m.insert(
                "exempt".into(),
                spec.get("exempt").cloned().unwrap_or(Value::Null),
            );
        }
        format!("spec of '{name}' except the 'spec.exempt' field must equal the fixed value")
    } else {
        format!("spec of '{name}' must equal the fixed value")
    };
    if !same(spec, &fixed, &LEVEL_SPEC) {
        errors.push(invalid_spec(spec, &LEVEL_SPEC, detail));
    }
}

/// `SetDefaults_FlowSchemaSpec`: a zero `matchingPrecedence` is 1000.
fn with_default_precedence(spec: &Value) -> Value {
    let mut spec = spec.clone();
    let zero = spec
        .get("matchingPrecedence")
        .and_then(Value::as_i64)
        .is_none_or(|p| p == 0);
    if zero {
        crate::value::access::set(&mut spec, "matchingPrecedence", Some(Value::Int(1000)));
    }
    spec
}

fn invalid_spec(spec: &Value, shape: &'static GoStruct, detail: String) -> FieldError {
    let present = Some(spec).filter(|s| !s.is_null());
    FieldError::invalid(
        "spec",
        BadValue::GoValue {
            value: json(present, Shape::Struct(shape)),
            go_syntax: go_syntax(present, Shape::Struct(shape)),
        },
        detail,
    )
}

/// `Semantic.DeepEqual` of the internal values: compared as their JSON with empty lists as
/// missing ones.
fn same(a: &Value, b: &Value, shape: &'static GoStruct) -> bool {
    let canonical = |v: &Value| nil_empty_lists(json(Some(v), Shape::Struct(shape)));
    canonical(a) == canonical(b)
}

fn nil_empty_lists(v: Value) -> Value {
    match v {
        Value::List(l) if l.is_empty() => Value::Null,
        Value::List(l) => Value::List(l.iter().cloned().map(nil_empty_lists).collect()),
        Value::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (k.clone(), nil_empty_lists(v.clone())))
                .collect(),
        ),
        other => other,
    }
}

fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// The internal value as Go's `json.Marshal` writes the untagged struct.
fn json(v: Option<&Value>, shape: Shape) -> Value {
    let v = present(v);
    match shape {
        Shape::Str => Value::String(v.and_then(Value::as_str).unwrap_or("").into()),
        Shape::Int => Value::Int(v.and_then(Value::as_i64).unwrap_or(0)),
        Shape::Bool => Value::Bool(v.and_then(Value::as_bool).unwrap_or(false)),
        Shape::IntPtr => v.map_or(Value::Null, |n| Value::Int(n.as_i64().unwrap_or(0))),
        Shape::StrList => match v.and_then(Value::as_list) {
            None => Value::Null,
            Some(l) => Value::List(l.iter().map(|s| json(Some(s), Shape::Str)).collect()),
        },
        Shape::List(item) => match v.and_then(Value::as_list) {
            None => Value::Null,
            Some(l) => Value::List(
                l.iter()
                    .map(|s| json(Some(s), Shape::Struct(item)))
                    .collect::<List>(),
            ),
        },
        Shape::Ptr(_) if v.is_none() => Value::Null,
        Shape::Ptr(s) | Shape::Struct(s) => Value::Map(
            s.fields
                .iter()
                .map(|(key, go, shape)| (go.to_string(), json(v.and_then(|v| v.get(key)), *shape)))
                .collect::<Map>(),
        ),
    }
}

/// The internal value as Go's `%#v` writes it; pointers print as `0x…`.
fn go_syntax(v: Option<&Value>, shape: Shape) -> String {
    let v = present(v);
    match shape {
        Shape::Str => go_quote(v.and_then(Value::as_str).unwrap_or("")),
        Shape::Int => v.and_then(Value::as_i64).unwrap_or(0).to_string(),
        Shape::Bool => v.and_then(Value::as_bool).unwrap_or(false).to_string(),
        Shape::IntPtr => format!("(*int32)({})", if v.is_some() { "0x…" } else { "nil" }),
        Shape::StrList => list_syntax("string", v, |s| go_syntax(Some(s), Shape::Str)),
        Shape::List(item) => list_syntax(item.go, v, |s| go_syntax(Some(s), Shape::Struct(item))),
        Shape::Ptr(s) => format!("(*{})({})", s.go, if v.is_some() { "0x…" } else { "nil" }),
        Shape::Struct(s) => {
            let fields: Vec<String> = s
                .fields
                .iter()
                .map(|(key, go, shape)| {
                    format!("{go}:{}", go_syntax(v.and_then(|v| v.get(key)), *shape))
                })
                .collect();
            format!("{}{{{}}}", s.go, fields.join(", "))
        }
    }
}

fn list_syntax(item: &str, v: Option<&Value>, each: impl Fn(&Value) -> String) -> String {
    match v.and_then(Value::as_list) {
        None => format!("[]{item}(nil)"),
        Some(l) => format!(
            "[]{item}{{{}}}",
            l.iter().map(each).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::KubeVersion;

    fn messages(
        check: fn(&str, &Value, &mut Vec<FieldError>),
        name: &str,
        spec: &str,
        minor: u8,
    ) -> Vec<String> {
        let mut errors = Vec::new();
        check(name, &from_json_str(spec).unwrap(), &mut errors);
        errors
            .iter()
            .map(|e| e.message(KubeVersion::new(minor).unwrap()))
            .collect()
    }

    #[test]
    fn the_fixed_specs_pass_and_others_are_quoted_whole() {
        let exempt = mandatory_flow_schema("exempt").unwrap();
        let fixed = crate::value::to_json_string(&exempt);
        assert!(messages(flow_schema, "exempt", &fixed, 36).is_empty());
        // An empty list is a missing one.
        let catch_all = crate::value::to_json_string(&mandatory_flow_schema("catch-all").unwrap());
        assert!(messages(flow_schema, "catch-all", &catch_all, 36).is_empty());
        assert!(messages(flow_schema, "other", "{}", 36).is_empty());
        let changed = fixed.replace(r#""matchingPrecedence":1"#, r#""matchingPrecedence":2"#);
        assert_eq!(
            messages(flow_schema, "exempt", &changed, 36),
            [
                r#"spec: Invalid value: {"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":2,"DistinguisherMethod":null,"Rules":[{"Subjects":[{"Kind":"Group","User":null,"Group":{"Name":"system:masters"},"ServiceAccount":null}],"ResourceRules":[{"Verbs":["*"],"APIGroups":["*"],"Resources":["*"],"ClusterScope":true,"Namespaces":["*"]}],"NonResourceRules":[{"Verbs":["*"],"NonResourceURLs":["*"]}]}]}: spec of 'exempt' must equal the fixed value"#
            ]
        );
        assert_eq!(
            messages(flow_schema, "exempt", &changed, 33),
            [
                r#"spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:"exempt"}, MatchingPrecedence:2, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(nil), Rules:[]flowcontrol.PolicyRulesWithSubjects{flowcontrol.PolicyRulesWithSubjects{Subjects:[]flowcontrol.Subject{flowcontrol.Subject{Kind:"Group", User:(*flowcontrol.UserSubject)(nil), Group:(*flowcontrol.GroupSubject)(0x…), ServiceAccount:(*flowcontrol.ServiceAccountSubject)(nil)}}, ResourceRules:[]flowcontrol.ResourcePolicyRule{flowcontrol.ResourcePolicyRule{Verbs:[]string{"*"}, APIGroups:[]string{"*"}, Resources:[]string{"*"}, ClusterScope:true, Namespaces:[]string{"*"}}}, NonResourceRules:[]flowcontrol.NonResourcePolicyRule{flowcontrol.NonResourcePolicyRule{Verbs:[]string{"*"}, NonResourceURLs:[]string{"*"}}}}}}: spec of 'exempt' must equal the fixed value"#
            ]
        );
    }

    #[test]
    fn the_exempt_level_may_change_its_exempt_settings_only() {
        let raised =
            r#"{"type":"Exempt","exempt":{"nominalConcurrencyShares":10,"lendablePercent":0}}"#;
        assert!(messages(priority_level, "exempt", raised, 36).is_empty());
        let queued = r#"{"type":"Limited","limited":{"nominalConcurrencyShares":5,"lendablePercent":0,"limitResponse":{"type":"Queue","queuing":{"queues":64,"handSize":6,"queueLengthLimit":50}}}}"#;
        assert_eq!(
            messages(priority_level, "catch-all", queued, 36),
            [
                r#"spec: Invalid value: {"Type":"Limited","Limited":{"NominalConcurrencyShares":5,"LimitResponse":{"Type":"Queue","Queuing":{"Queues":64,"HandSize":6,"QueueLengthLimit":50}},"LendablePercent":0,"BorrowingLimitPercent":null},"Exempt":null}: spec of 'catch-all' must equal the fixed value"#
            ]
        );
    }
}
