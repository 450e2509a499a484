//! The built-in rules on small objects: which errors, in which order, with which wording.

use super::selector::{semantic_eq, Selector};
use crate::kube::{KubeVersion, SchemaRegistry};
use crate::managed::Operation;
use crate::validate::{FieldError, FieldValidation, Write};
use crate::value::{from_json_str, Value};

pub(super) fn json(text: &str) -> Value {
    from_json_str(text).unwrap()
}

/// The messages, worded for Kubernetes 1.`minor`, of the errors `check` finds in the JSON
/// `object` (a rule tested apart from the kind that holds it).
#[track_caller]
pub(super) fn messages_of(
    object: &str,
    minor: u8,
    check: impl FnOnce(&Value, KubeVersion, &mut Vec<FieldError>),
) -> Vec<String> {
    let v = KubeVersion::new(minor).unwrap();
    let mut errors = Vec::new();
    check(&json(object), v, &mut errors);
    errors.iter().map(|e| e.message(v)).collect()
}

/// The kubectl message for `object` written over `live`, as given.
#[track_caller]
pub(super) fn refusal(object: &str, live: Option<&str>, minor: u8) -> Option<String> {
    message(object, live, minor, false)
}

/// The causes of [`refusal`], one per line of kubectl's message (the cause itself when there
/// is one); none when the write is accepted.
#[track_caller]
pub(super) fn refusal_causes(object: &str, live: Option<&str>, minor: u8) -> Vec<String> {
    let Some(message) = refusal(object, live, minor) else {
        return Vec::new();
    };
    let causes: Vec<String> = message
        .lines()
        .skip(1)
        .map(|l| l.trim_start_matches("* ").to_string())
        .collect();
    if causes.is_empty() {
        vec![message.split_once("is invalid: ").unwrap().1.to_string()]
    } else {
        causes
    }
}

/// [`refusal`] over a live object first defaulted as the server stored it.
#[track_caller]
pub(super) fn refusal_over_stored(object: &str, live: Option<&str>, minor: u8) -> Option<String> {
    message(object, live, minor, true)
}

/// The `Warning: …` lines of an accepted write (the live object defaulted as stored).
#[track_caller]
pub(super) fn warnings(object: &str, live: Option<&str>, minor: u8) -> Vec<String> {
    match outcome(object, live, minor, true) {
        Ok(warnings) => warnings,
        Err(e) => panic!("refused: {}", e.kubectl_message()),
    }
}

#[track_caller]
fn message(object: &str, live: Option<&str>, minor: u8, default_live: bool) -> Option<String> {
    outcome(object, live, minor, default_live)
        .err()
        .map(|e| e.kubectl_message())
}

#[track_caller]
fn outcome(
    object: &str,
    live: Option<&str>,
    minor: u8,
    default_live: bool,
) -> Result<Vec<String>, crate::validate::StatusError> {
    let object = json(object);
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap();
    let kind = SchemaRegistry::for_version(KubeVersion::new(minor).unwrap())
        .resolve(text("apiVersion"), text("kind"))
        .unwrap();
    let live = live.map(|l| {
        let mut live = json(l);
        if default_live {
            crate::defaults::store(&mut live, &kind, crate::defaults::Stage::Defaulted);
        }
        live
    });
    let w = Write {
        kind: &kind,
        operation: Operation::Apply,
        manager: "test",
        subresource: "",
        field_validation: FieldValidation::Strict,
        body: &object,
        patch: None,
        live: live.as_ref(),
    };
    w.after(&object, false)
}

const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","namespace":"default"},
  "spec":{"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}]}]}}}}"#;

#[test]
fn a_valid_deployment_passes() {
    assert_eq!(refusal(DEPLOYMENT, None, 37), None);
}

#[test]
fn selector_must_match_template_labels_worded_per_version() {
    let bad = DEPLOYMENT.replace(r#""labels":{"app":"web"}"#, r#""labels":{"app":"api"}"#);
    assert_eq!(
        refusal(&bad, None, 33).unwrap(),
        "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"api\"}: `selector` does not match template `labels`"
    );
    assert_eq!(
        refusal(&bad, None, 34).unwrap(),
        "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"
    );
}

#[test]
fn selectors_are_immutable_on_update_only() {
    let changed = DEPLOYMENT
        .replace("\"web\"}}", "\"web2\"}}")
        .replace(r#""labels":{"app":"web"}"#, r#""labels":{"app":"web2"}"#);
    assert_eq!(refusal(&changed, None, 37), None);
    assert_eq!(
        refusal(&changed, Some(DEPLOYMENT), 37).unwrap(),
        "The Deployment \"web\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web2\"}}: field is immutable"
    );
}

#[test]
fn container_errors_are_listed_in_the_servers_order() {
    let bad = DEPLOYMENT
        .replace(r#""name":"web","image""#, r#""image""#)
        .replace(
            r#""containerPort":80"#,
            r#""containerPort":80,"protocol":"TCPP""#,
        );
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The Deployment \"web\" is invalid: \n* spec.template.spec.containers[0].name: Required value\n* spec.template.spec.containers[0].ports[0].protocol: Unsupported value: \"TCPP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
    );
}

#[test]
fn kinds_without_a_schema_are_not_checked() {
    // A kind no schema describes is not checked at all (its scope and name rule are unknown).
    let object =
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"Bad_Name"}}"#;
    assert_eq!(refusal(object, None, 37), None);
}

#[test]
fn selectors_match_like_label_selectors() {
    let sel = json(
        r#"{"matchLabels":{"a":"1"},"matchExpressions":[{"key":"b","operator":"NotIn","values":["x"]},{"key":"c","operator":"Exists"}]}"#,
    );
    let s = Selector::of(Some(&sel));
    assert!(s.matches(Some(&json(r#"{"a":"1","c":""}"#))));
    assert!(!s.matches(Some(&json(r#"{"a":"1","b":"x","c":""}"#))));
    assert!(!s.matches(Some(&json(r#"{"a":"1"}"#))));
    assert!(Selector::of(Some(&json("{}"))).is_empty());
    assert!(!Selector::of(None).matches(Some(&json(r#"{"a":"1"}"#))));
    let bad = json(r#"{"matchExpressions":[{"key":"a","operator":"In"}]}"#);
    assert!(!Selector::of(Some(&bad)).converts());
}

#[test]
fn semantic_equality_treats_empty_as_absent() {
    let a = json(r#"{"matchLabels":{"a":"1"},"matchExpressions":[]}"#);
    let b = json(r#"{"matchLabels":{"a":"1"}}"#);
    assert!(semantic_eq(Some(&a), Some(&b)));
    assert!(semantic_eq(None, Some(&json("{}"))));
    assert!(!semantic_eq(
        Some(&a),
        Some(&json(r#"{"matchLabels":{"a":"2"}}"#))
    ));
}

mod text_parsers {
    //! The parsers the rules run on user strings (schedules, time zones, addresses) answer every
    //! string without panicking.
    use super::super::{cron, netaddr, tz};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn answer_any_string(s in "[ -~é\\t*/,?@#%:.\\[\\]-]{0,40}|\\PC{0,20}") {
            let _ = cron::parse_standard(&s);
            let _ = netaddr::parse_ip(&s);
            let _ = netaddr::parse_cidr(&s);
            let _ = tz::load_location(&s);
        }

        #[test]
        fn answer_schedule_like_strings(s in "(TZ=|CRON_TZ=)?[0-9a-zA-Z*/,?@ -]{0,30}") {
            let _ = cron::parse_standard(&s);
        }
    }
}
