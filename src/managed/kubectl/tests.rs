use super::*;
use crate::kube::SchemaRegistry;
use crate::value::from_json_str;

fn obj(json: &str) -> Value {
    from_json_str(json).unwrap()
}

fn req(manager: &str) -> WriteRequest<'_> {
    WriteRequest {
        operation: Operation::Apply,
        manager,
        force: false,
        subresource: "",
        now: "2024-05-01T10:00:00Z",
        reset_fields: true,
        normalize_unions: false,
        defaulting: false,
        validation: None,
        managed_fields: true,
        patch: None,
    }
}

/// A ConfigMap last written by client-side `kubectl apply` with keys a and b.
fn client_side_applied() -> Value {
    obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default","uid":"u1",
        "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"b\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"cm\",\"namespace\":\"default\"}}\n"},
        "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","time":"2024-01-01T00:00:00Z","fieldsType":"FieldsV1",
          "fieldsV1":{"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}}]},
        "data":{"a":"1","b":"2"}}"#,
    )
}

fn managers(o: &Value) -> Vec<String> {
    o.get_path(&["metadata", "managedFields"])
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .map(|e| {
                    format!(
                        "{} {}",
                        e.get("manager").and_then(Value::as_str).unwrap_or(""),
                        e.get("operation").and_then(Value::as_str).unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn kubectl_migrates_client_side_ownership_and_reapplies() {
    let kind = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
    let live = client_side_applied();
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"a":"1"}}"#,
    );
    let out = apply(Some(&live), &config, &kind, &req("kubectl")).unwrap();
    assert_eq!(out.warnings, Vec::<String>::new());
    let o = &out.outcome.object;
    // The migrated ownership of b lets the re-apply remove it.
    assert_eq!(o.get("data"), Some(&obj(r#"{"a":"1"}"#)));
    let mut names = managers(o);
    names.sort();
    assert_eq!(names, ["kubectl Apply", "kubectl-last-applied Apply"]);
    // The server rewrote the annotation from the applied configuration.
    let annotation = o
        .get_path(&["metadata", "annotations", LAST_APPLIED_ANNOTATION])
        .and_then(Value::as_str)
        .unwrap();
    assert!(!annotation.contains("\"b\""), "{annotation}");
    assert!(out.outcome.changed);
}

#[test]
fn the_server_alone_keeps_client_side_ownership() {
    let kind = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
    let live = client_side_applied();
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"a":"1"}}"#,
    );
    let server_only = write(Some(&live), &config, &kind, &req("kubectl")).unwrap();
    assert_eq!(
        server_only.object.get("data"),
        Some(&obj(r#"{"a":"1","b":"2"}"#))
    );
    assert_eq!(
        managers(&server_only.object),
        ["kubectl Apply", "kubectl-client-side-apply Update"]
    );
}

#[test]
fn other_field_managers_get_only_the_server_apply() {
    let kind = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
    let live = client_side_applied();
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"a":"1"}}"#,
    );
    let out = apply(Some(&live), &config, &kind, &req("argocd")).unwrap();
    assert_eq!(
        out.outcome,
        write(Some(&live), &config, &kind, &req("argocd")).unwrap()
    );
}

#[test]
fn objects_without_the_annotation_need_no_follow_up() {
    let kind = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"a":"1"}}"#,
    );
    let out = apply(None, &config, &kind, &req("kubectl")).unwrap();
    assert_eq!(
        out.outcome,
        write(None, &config, &kind, &req("kubectl")).unwrap()
    );
}

#[test]
fn follow_ups_read_managed_fields_even_when_the_caller_does_not() {
    let kind = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
    let config = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"a":"1"}}"#,
    );
    let unread = WriteRequest {
        managed_fields: false,
        patch: None,
        ..req("kubectl")
    };
    let out = apply(Some(&client_side_applied()), &config, &kind, &unread).unwrap();
    // The migration still happened: b, owned by client-side apply, is removed.
    assert_eq!(out.outcome.object.get("data"), Some(&obj(r#"{"a":"1"}"#)));
}
