//! One test per API-server rule of [`super::server`], with exact texts.

use super::server::{write, WriteError, WriteOutcome, WriteRequest};
use super::Operation;
use crate::kube::{ResolvedKind, SchemaRegistry};
use crate::value::{from_json_str, to_json_string, Value};

fn obj(json: &str) -> Value {
    from_json_str(json).unwrap()
}

fn kind(api_version: &str, k: &str) -> ResolvedKind {
    SchemaRegistry::new().resolve(api_version, k).unwrap()
}

fn req<'a>(operation: Operation, manager: &'a str, now: &'a str) -> WriteRequest<'a> {
    WriteRequest {
        operation,
        manager,
        force: false,
        subresource: "",
        now,
        reset_fields: true,
        normalize_unions: false,
        defaulting: false,
        validation: None,
        managed_fields: true,
        patch: None,
    }
}

const T0: &str = "2024-05-01T10:00:00Z";
const T1: &str = "2024-05-01T10:01:00Z";
const T2: &str = "2024-05-01T10:02:00Z";

fn cm(data: &str) -> Value {
    obj(&format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"c","namespace":"n"}},"data":{data}}}"#
    ))
}

#[track_caller]
fn ok(r: Result<WriteOutcome, WriteError>) -> Value {
    r.unwrap_or_else(|e| panic!("{e}")).object
}

#[track_caller]
fn err(r: Result<WriteOutcome, WriteError>) -> String {
    r.expect_err("the write must fail").to_string()
}

fn managed_fields(o: &Value) -> String {
    to_json_string(
        o.get_path(&["metadata", "managedFields"])
            .unwrap_or(&Value::Null),
    )
}

#[test]
fn meta_fields_are_never_owned() {
    let k = kind("v1", "ConfigMap");
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n","uid":"u","generation":2,"resourceVersion":"1","labels":{"a":"b"}}}"#,
    );
    let o = ok(write(None, &config, &k, &req(Operation::Apply, "m", T0)));
    assert_eq!(
        managed_fields(&o),
        r#"[{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2024-05-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:a":{}}}}}]"#
    );
}

#[test]
fn time_moves_only_when_the_write_changed_the_object() {
    let k = kind("v1", "ConfigMap");
    let first = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "m", T0),
    ));
    let again = write(
        Some(&first),
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "m", T1),
    )
    .unwrap();
    assert!(!again.changed && !again.managed_fields_changed);
    assert_eq!(again.object, first);
    let changed = ok(write(
        Some(&first),
        &cm(r#"{"a":"2"}"#),
        &k,
        &req(Operation::Apply, "m", "2024-05-01T10:02:00.9Z"),
    ));
    assert!(managed_fields(&changed).contains(r#""time":"2024-05-01T10:02:00Z""#));
}

#[test]
fn update_managers_are_capped_into_ancient_changes() {
    let k = kind("v1", "ConfigMap");
    let mut live = ok(write(
        None,
        &cm(r#"{}"#),
        &k,
        &req(Operation::Apply, "applier", T0),
    ));
    for i in 0..11 {
        let now = format!("2024-05-01T11:{i:02}:00Z");
        let manager = format!("c{i:02}");
        let mut data = live.get("data").cloned().unwrap_or_else(|| obj("{}"));
        data.as_map_mut()
            .unwrap()
            .insert(manager.clone(), Value::from("x"));
        let mut new = live.clone();
        new.as_map_mut().unwrap().insert("data".into(), data);
        live = ok(write(
            Some(&live),
            &new,
            &k,
            &req(Operation::Update, &manager, &now),
        ));
    }
    let entries = live
        .get_path(&["metadata", "managedFields"])
        .unwrap()
        .as_list()
        .unwrap();
    let names: Vec<&str> = entries
        .iter()
        .map(|e| e.get("manager").unwrap().as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "applier",
            "ancient-changes",
            "c02",
            "c03",
            "c04",
            "c05",
            "c06",
            "c07",
            "c08",
            "c09",
            "c10"
        ]
    );
    assert_eq!(
        entries[1].get("time").unwrap().as_str(),
        Some("2024-05-01T11:01:00Z")
    );
    assert_eq!(
        to_json_string(entries[1].get("fieldsV1").unwrap()),
        r#"{"f:data":{"f:c00":{},"f:c01":{}}}"#
    );
}

#[test]
fn first_apply_to_an_untracked_stored_object_attributes_fields_to_before_first_apply() {
    let k = kind("v1", "ConfigMap");
    let live = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n","uid":"u"},"data":{"a":"1"}}"#,
    );
    assert_eq!(
        err(write(
            Some(&live),
            &cm(r#"{"a":"2"}"#),
            &k,
            &req(Operation::Apply, "m", T0)
        )),
        r#"Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a"#
    );
    let o = ok(write(
        Some(&live),
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "m", T0),
    ));
    assert_eq!(
        managed_fields(&o),
        concat!(
            r#"[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}},"#,
            r#"{"manager":"before-first-apply","operation":"Update","apiVersion":"v1","time":"2024-05-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{}}}}]"#
        )
    );
}

#[test]
fn updates_track_creates_but_not_untracked_stored_objects() {
    let k = kind("v1", "ConfigMap");
    let created = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Update, "helm", T0),
    ));
    assert!(managed_fields(&created).contains(r#""manager":"helm""#));
    let stored = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n","uid":"u"},"data":{"a":"1"}}"#,
    );
    let mut new = stored.clone();
    new.as_map_mut()
        .unwrap()
        .insert("data".into(), obj(r#"{"a":"2"}"#));
    let o = ok(write(
        Some(&stored),
        &new,
        &k,
        &req(Operation::Update, "m", T0),
    ));
    assert_eq!(o, new);
}

#[test]
fn update_with_empty_managed_fields_stops_tracking() {
    let k = kind("v1", "ConfigMap");
    let live = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "m", T0),
    ));
    for reset in ["[{}]", "[]"] {
        let mut body = live.clone();
        body.as_map_mut().unwrap()["metadata"]
            .as_map_mut()
            .unwrap()
            .insert("managedFields".into(), obj(reset));
        let o = ok(write(
            Some(&live),
            &body,
            &k,
            &req(Operation::Update, "op", T1),
        ));
        assert_eq!(o.get_path(&["metadata", "managedFields"]), None, "{reset}");
    }
}

#[test]
fn update_body_managed_fields_replace_the_stored_ones_unless_invalid() {
    let k = kind("v1", "ConfigMap");
    let live = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "m", T0),
    ));
    let mut body = live.clone();
    body.as_map_mut().unwrap()["metadata"].as_map_mut().unwrap().insert(
        "managedFields".into(),
        obj(r#"[{"manager":"other","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]"#),
    );
    let o = ok(write(
        Some(&live),
        &body,
        &k,
        &req(Operation::Update, "op", T1),
    ));
    assert_eq!(
        managed_fields(&o),
        r#"[{"manager":"other","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]"#
    );
    body.as_map_mut().unwrap()["metadata"]
        .as_map_mut()
        .unwrap()
        .insert(
            "managedFields".into(),
            obj(r#"[{"manager":"x","operation":"Patch"}]"#),
        );
    let o = ok(write(
        Some(&live),
        &body,
        &k,
        &req(Operation::Update, "op", T1),
    ));
    assert_eq!(managed_fields(&o), managed_fields(&live));
}

#[test]
fn applied_objects_must_not_carry_managed_fields() {
    let k = kind("v1", "ConfigMap");
    let mut config = cm(r#"{"a":"1"}"#);
    config.as_map_mut().unwrap()["metadata"]
        .as_map_mut()
        .unwrap()
        .insert("managedFields".into(), obj("[]"));
    assert_eq!(
        err(write(None, &config, &k, &req(Operation::Apply, "m", T0))),
        "metadata.managedFields must be nil"
    );
    config.as_map_mut().unwrap()["metadata"]
        .as_map_mut()
        .unwrap()
        .insert("managedFields".into(), Value::Null);
    ok(write(None, &config, &k, &req(Operation::Apply, "m", T0)));
}

#[test]
fn stored_managed_fields_that_do_not_decode_fail_an_apply() {
    let k = kind("v1", "ConfigMap");
    let mut live = cm(r#"{"a":"1"}"#);
    let bad = [
        (r#"[{"manager":"x","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1"}]"#, "failed to decode managed fields: operation must be `Apply` or `Update`"),
        (r#"[{"manager":"x","operation":"Apply","fieldsType":"FieldsV1"}]"#, "failed to decode managed fields: apiVersion must not be empty"),
        (r#"[{"manager":"x","operation":"Apply","apiVersion":"v1"}]"#, "failed to decode managed fields: missing fieldsType in managed fields entry 0"),
        (r#"[{"manager":"x","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV2"}]"#, "failed to decode managed fields: invalid fieldsType \"FieldsV2\" in managed fields entry 0"),
    ];
    for (mf, message) in bad {
        live.as_map_mut().unwrap()["metadata"]
            .as_map_mut()
            .unwrap()
            .insert("managedFields".into(), obj(mf));
        assert_eq!(
            err(write(
                Some(&live),
                &cm(r#"{"a":"1"}"#),
                &k,
                &req(Operation::Apply, "m", T0)
            )),
            message
        );
    }
}

#[test]
fn apply_checks_kind_and_clock() {
    let k = kind("v1", "ConfigMap");
    let secret = obj(r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"c"}}"#);
    assert_eq!(
        err(write(None, &secret, &k, &req(Operation::Apply, "m", T0))),
        "invalid object type: /v1, Kind=Secret"
    );
    assert_eq!(
        err(write(
            None,
            &cm("{}"),
            &k,
            &req(Operation::Apply, "m", "yesterday")
        )),
        r#"invalid RFC 3339 time "yesterday""#
    );
}

fn deployment(spec: &str) -> Value {
    obj(&format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"shop"}},"spec":{spec}}}"#
    ))
}

#[test]
fn conflict_messages_name_each_manager_as_the_server_does() {
    let k = kind("apps/v1", "Deployment");
    let live = ok(write(
        None,
        &deployment(r#"{"replicas":1,"paused":false}"#),
        &k,
        &req(Operation::Apply, "a", T0),
    ));
    let mut status_req = req(Operation::Update, "kcm", T1);
    status_req.subresource = "status";
    let mut with_status = live.clone();
    with_status
        .as_map_mut()
        .unwrap()
        .insert("status".into(), obj(r#"{"replicas":1}"#));
    let live = ok(write(Some(&live), &with_status, &k, &status_req));
    let mut no_reset = req(Operation::Apply, "b", T2);
    no_reset.reset_fields = false;
    let config = obj(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":2,"paused":true},"status":{"replicas":3}}"#,
    );
    assert_eq!(
        err(write(Some(&live), &config, &k, &no_reset)),
        "Apply failed with 3 conflicts: conflicts with \"a\":\n- .spec.paused\n- .spec.replicas\nconflicts with \"kcm\" with subresource \"status\" using apps/v1:\n- .status.replicas"
    );
    let one = deployment(r#"{"replicas":2}"#);
    match write(Some(&live), &one, &k, &req(Operation::Apply, "b", T2)) {
        Err(WriteError::Conflicts { conflicts, message }) => {
            assert_eq!(
                message,
                r#"Apply failed with 1 conflict: conflict with "a": .spec.replicas"#
            );
            assert_eq!(conflicts.len(), 1);
            assert_eq!(
                (conflicts[0].manager.as_str(), conflicts[0].operation),
                ("a", Operation::Apply)
            );
            assert_eq!(conflicts[0].time.as_deref(), Some(T0));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
}

#[test]
fn reset_fields_keep_status_out_of_main_resource_writes_and_spec_out_of_status_writes() {
    let k = kind("apps/v1", "Deployment");
    let mut with_status = deployment(r#"{"replicas":1}"#);
    with_status
        .as_map_mut()
        .unwrap()
        .insert("status".into(), obj(r#"{"replicas":7}"#));
    let o = ok(write(
        None,
        &with_status,
        &k,
        &req(Operation::Apply, "a", T0),
    ));
    assert_eq!(o.get("status"), None);
    assert!(!managed_fields(&o).contains("f:status"));
    let mut status_req = req(Operation::Update, "kcm", T1);
    status_req.subresource = "status";
    let mut body = with_status.clone();
    body.as_map_mut()
        .unwrap()
        .insert("spec".into(), obj(r#"{"replicas":5}"#));
    let o2 = ok(write(Some(&o), &body, &k, &status_req));
    assert_eq!(o2.get_path(&["spec", "replicas"]), Some(&Value::Int(1)));
    assert_eq!(o2.get_path(&["status", "replicas"]), Some(&Value::Int(7)));
    assert!(managed_fields(&o2).contains(
        r#"{"manager":"kcm","operation":"Update","apiVersion":"apps/v1","time":"2024-05-01T10:01:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:replicas":{}}},"subresource":"status"}"#
    ));
}

#[test]
fn kubectl_takes_fields_still_equal_to_last_applied_and_rewrites_the_annotation() {
    let k = kind("v1", "ConfigMap");
    let last = r#"{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"b\":\"1\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\"}}\n"#;
    let live = obj(&format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"c","namespace":"n","uid":"u","annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{last}"}},
        "managedFields":[{{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","time":"2024-05-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{{"f:data":{{"f:a":{{}},"f:b":{{}}}}}}}},
                         {{"manager":"hpa","operation":"Update","apiVersion":"v1","time":"2024-05-01T09:30:00Z","fieldsType":"FieldsV1","fieldsV1":{{"f:data":{{"f:c":{{}}}}}}}}]}},
        "data":{{"a":"1","b":"1","c":"9"}}}}"#
    ));
    // b still equals last-applied: taken; c was changed by another manager: a conflict.
    assert_eq!(
        err(write(
            Some(&live),
            &cm(r#"{"a":"1","b":"2","c":"1"}"#),
            &k,
            &req(Operation::Apply, "kubectl", T0)
        )),
        r#"Apply failed with 1 conflict: conflict with "hpa" using v1: .data.c"#
    );
    assert_eq!(
        err(write(
            Some(&live),
            &cm(r#"{"a":"1","b":"2"}"#),
            &k,
            &req(Operation::Apply, "other", T0)
        )),
        r#"Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b"#
    );
    let o = ok(write(
        Some(&live),
        &cm(r#"{"a":"1","b":"2"}"#),
        &k,
        &req(Operation::Apply, "kubectl", T0),
    ));
    assert_eq!(
        o.get_path(&["data", "b"]).and_then(Value::as_str),
        Some("2")
    );
    assert_eq!(
        o.get_path(&["metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"]).and_then(Value::as_str),
        Some("{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"b\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\"}}\n")
    );
}

#[test]
fn entries_sort_apply_first_then_time_then_name() {
    let k = kind("v1", "ConfigMap");
    let o = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Update, "z-creator", T0),
    ));
    let o = ok(write(
        Some(&o),
        &cm(r#"{"b":"1"}"#),
        &k,
        &req(Operation::Apply, "late-applier", T2),
    ));
    let mut upd = o.clone();
    upd.as_map_mut().unwrap()["data"]
        .as_map_mut()
        .unwrap()
        .insert("c".into(), Value::from("1"));
    let o = ok(write(
        Some(&o),
        &upd,
        &k,
        &req(Operation::Update, "a-updater", T0),
    ));
    let names: Vec<String> = o
        .get_path(&["metadata", "managedFields"])
        .unwrap()
        .as_list()
        .unwrap()
        .iter()
        .map(|e| e.get("manager").unwrap().as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["late-applier", "a-updater", "z-creator"]);
}

#[test]
fn invalid_objects_name_the_object_and_path() {
    let k = kind("apps/v1", "Deployment");
    assert_eq!(
        err(write(None, &deployment(r#"{"replica":1}"#), &k, &req(Operation::Apply, "m", T0))),
        "failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): .spec.replica: field not declared in schema"
    );
}

#[test]
fn unread_managed_fields_are_left_out_and_nothing_else_changes() {
    let k = kind("v1", "ConfigMap");
    let live = ok(write(
        None,
        &cm(r#"{"a":"1"}"#),
        &k,
        &req(Operation::Apply, "x", T0),
    ));
    for stored in [None, Some(&live)] {
        let config = cm(r#"{"a":"2","b":"3"}"#);
        let forced = WriteRequest {
            force: true,
            ..req(Operation::Apply, "y", T1)
        };
        let full = ok(write(stored, &config, &k, &forced));
        let unread = WriteRequest {
            managed_fields: false,
            patch: None,
            ..forced
        };
        let lean = ok(write(stored, &config, &k, &unread));
        assert_eq!(managed_fields(&lean), "null");
        let mut stripped = full.clone();
        if let Some(Value::Map(meta)) = stripped.as_map_mut().and_then(|m| m.get_mut("metadata")) {
            meta.shift_remove("managedFields");
        }
        assert_eq!(lean, stripped);
    }
}
