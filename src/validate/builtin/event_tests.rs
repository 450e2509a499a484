//! Event rules per request version: the legacy ones for every write, the strict ones through
//! `events.k8s.io/v1`.

use super::super::tests::refusal_causes;

const CORE: &str = r#"{"apiVersion":"v1","kind":"Event",
  "metadata":{"name":"web.17a","namespace":"default"},
  "involvedObject":{"kind":"Pod","namespace":"default","name":"web","apiVersion":"v1"},
  "reason":"Started","message":"Started container web","type":"Normal",
  "source":{"component":"kubelet","host":"node-1"},"count":1,
  "firstTimestamp":"2024-05-01T10:00:00Z","lastTimestamp":"2024-05-01T10:00:00Z"}"#;

const EVENTS: &str = r#"{"apiVersion":"events.k8s.io/v1","kind":"Event",
  "metadata":{"name":"web.17b","namespace":"default"},
  "eventTime":"2024-05-01T10:00:00.000000Z","reportingController":"example.com/operator",
  "reportingInstance":"operator-7d9f","action":"Scale","reason":"ScaledUp",
  "regarding":{"kind":"Deployment","namespace":"default","name":"web","apiVersion":"apps/v1"},
  "note":"Scaled up to 3","type":"Normal"}"#;

#[test]
fn valid_events_pass_both_versions() {
    assert!(refusal_causes(CORE, None, 37).is_empty());
    assert!(refusal_causes(CORE, Some(CORE), 37).is_empty());
    assert!(refusal_causes(EVENTS, None, 37).is_empty());
    assert!(refusal_causes(EVENTS, Some(EVENTS), 30).is_empty());
}

#[test]
fn core_events_need_the_involved_namespace_only() {
    let bad = CORE.replace(
        r#""namespace":"default","name":"web""#,
        r#""namespace":"prod","name":"web""#,
    );
    assert_eq!(
        refusal_causes(&bad, None, 37),
        ["involvedObject.namespace: Invalid value: \"prod\": does not match event.namespace"]
    );
    // Without an event time core/v1 needs none of the reporting fields; a name that is no DNS
    // subdomain passes the generic path-segment check.
    let odd = CORE.replace("web.17a", "Web_17a");
    assert!(refusal_causes(&odd, None, 37).is_empty());
    let timed = CORE.replace(
        r#""type":"Normal""#,
        r#""type":"Normal","eventTime":"2024-05-01T10:00:00.000000Z""#,
    );
    assert_eq!(
        refusal_causes(&timed, None, 37),
        [
            "reportingController: Required value",
            "reportingController: Invalid value: \"\": name part must be non-empty",
            "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "reportingInstance: Required value",
            "action: Required value",
        ]
    );
}

#[test]
fn events_k8s_io_creates_are_strict() {
    let bad = EVENTS
        .replace(r#""type":"Normal""#, r#""type":"Info","deprecatedCount":2"#)
        .replace(
            r#""action":"Scale""#,
            &format!(r#""action":"{}""#, "a".repeat(129)),
        );
    assert_eq!(
        refusal_causes(&bad, None, 37),
        [
            "action: Invalid value: \"\": can have at most 128 characters",
            "type: Invalid value: \"\": has invalid value: Info",
            "count: Invalid value: \"\": needs to be unset",
        ]
    );
    let untimed = EVENTS.replace(
        r#""eventTime":"2024-05-01T10:00:00.000000Z","#,
        r#""series":{"count":1},"#,
    );
    assert_eq!(
        refusal_causes(&untimed, None, 37),
        [
            "series.count: Invalid value: \"\": should be at least 2",
            "series.lastObservedTime: Required value",
            "eventTime: Required value",
        ]
    );
    let name = EVENTS.replace("web.17b", "Web_17b");
    assert_eq!(
        refusal_causes(&name, None, 37),
        ["metadata.name: Invalid value: \"Web_17b\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
}

#[test]
fn events_k8s_io_updates_keep_the_event() {
    let changed = EVENTS.replace("Scaled up to 3", "Scaled up to 4").replace(
        r#""name":"web","apiVersion""#,
        r#""name":"api","apiVersion""#,
    );
    assert_eq!(
        refusal_causes(&changed, Some(EVENTS), 37),
        [
            "involvedObject: Invalid value: {\"kind\":\"Deployment\",\"namespace\":\"default\",\"name\":\"api\",\"apiVersion\":\"apps/v1\"}: field is immutable",
            "message: Invalid value: \"Scaled up to 4\": field is immutable",
        ]
    );
    assert_eq!(
        refusal_causes(&changed, Some(EVENTS), 33)[0],
        "involvedObject: Invalid value: core.ObjectReference{Kind:\"Deployment\", Namespace:\"default\", Name:\"api\", UID:\"\", APIVersion:\"apps/v1\", ResourceVersion:\"\", FieldPath:\"\"}: field is immutable"
    );
    // The event time is immutable too, quoted as JSON from 1.34 and as `time.Time`'s String()
    // before.
    let retimed = EVENTS.replace("10:00:00.000000Z", "10:00:01.250000Z");
    assert_eq!(
        refusal_causes(&retimed, Some(EVENTS), 37),
        ["eventTime: Invalid value: \"2024-05-01T10:00:01.250000Z\": field is immutable"]
    );
    assert_eq!(
        refusal_causes(&retimed, Some(EVENTS), 33),
        ["eventTime: Invalid value: 2024-05-01 10:00:01.25 +0000 UTC: field is immutable"]
    );
    let first = EVENTS.replace(
        r#""type":"Normal"}"#,
        r#""type":"Normal","deprecatedFirstTimestamp":"2024-05-01T09:00:00Z"}"#,
    );
    assert_eq!(
        refusal_causes(&first, Some(EVENTS), 36),
        ["firstTimestamp: Invalid value: \"2024-05-01T09:00:00Z\": field is immutable"]
    );
    assert_eq!(
        refusal_causes(EVENTS, Some(&first), 32),
        ["firstTimestamp: Invalid value: 0001-01-01 00:00:00 +0000 UTC: field is immutable"]
    );
    assert_eq!(
        refusal_causes(EVENTS, Some(&first), 34),
        ["firstTimestamp: Invalid value: null: field is immutable"]
    );
    // core/v1 updates only run the legacy rules.
    let core = CORE.replace("Started container web", "Restarted");
    assert!(refusal_causes(&core, Some(CORE), 37).is_empty());
}
