//! Every CRD of the real-world corpus (testdata/crds: kube-prometheus, cert-manager, argo-cd)
//! loads through the registry, and a custom resource of each kind applies with the list type
//! its schema declares: two appliers share a keyed list or a set item by item, and conflict on
//! an atomic list as a whole.

use super::SchemaRegistry;
use crate::managed::{write, Operation, WriteError, WriteRequest};
use crate::value::{Map, Value};
use crate::yaml::parse_stream;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq)]
enum ListKind {
    Map,
    Set,
    Atomic,
}

/// The first list reachable through properties only, keyed lists first, then sets, then atomic.
fn find_list(schema: &Value) -> Option<(Vec<String>, ListKind, Value)> {
    let mut queue: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), schema)];
    let mut found: Vec<(Vec<String>, ListKind, Value)> = Vec::new();
    while let Some((path, s)) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let Some(props) = s.get("properties").and_then(Value::as_map) else {
            continue;
        };
        for (name, p) in props {
            if path.is_empty() && name == "status" {
                continue; // reset through the main resource
            }
            let mut child = path.clone();
            child.push(name.clone());
            if p.get("type").and_then(Value::as_str) == Some("array") {
                let kind = match p.get("x-kubernetes-list-type").and_then(Value::as_str) {
                    Some("map") => ListKind::Map,
                    Some("set") => ListKind::Set,
                    _ => ListKind::Atomic,
                };
                found.push((child, kind, p.clone()));
            } else if path.len() < 6 {
                queue.push((child, p));
            }
        }
    }
    found.sort_by_key(|(path, kind, _)| {
        (
            match kind {
                ListKind::Map => 0,
                ListKind::Set => 1,
                ListKind::Atomic => 2,
            },
            path.len(),
        )
    });
    found.into_iter().next()
}

/// A small value of the schema's type; `variant` makes values differ.
fn sample(s: &Value, variant: i64) -> Value {
    if let Some(e) = s
        .get("enum")
        .and_then(Value::as_list)
        .filter(|e| !e.is_empty())
    {
        return e[variant as usize % e.len()].clone();
    }
    if s.get("x-kubernetes-int-or-string").and_then(Value::as_bool) == Some(true) {
        return Value::from(format!("v{variant}"));
    }
    match s.get("type").and_then(Value::as_str) {
        Some("string") => Value::from(format!("v{variant}")),
        Some("integer") => Value::Int(variant + 1),
        Some("number") => Value::Int(variant + 1),
        Some("boolean") => Value::Bool(variant == 0),
        Some("array") => {
            Value::List(vec![sample(s.get("items").unwrap_or(&Value::Null), variant)].into())
        }
        _ => {
            let mut m = Map::default();
            let props = s.get("properties").and_then(Value::as_map);
            let scalar = props.and_then(|ps| {
                ps.iter().find(|(_, p)| {
                    matches!(
                        p.get("type").and_then(Value::as_str),
                        Some("string" | "integer" | "boolean")
                    )
                })
            });
            let nested =
                props.and_then(|ps| ps.iter().find(|(_, p)| p.get("properties").is_some()));
            if let Some((name, p)) = scalar.or(nested) {
                m.insert(name.clone(), sample(p, variant));
            } else {
                // A free-form map: any key will do.
                m.insert("key".into(), Value::from(format!("v{variant}")));
            }
            Value::Map(m)
        }
    }
}

fn list_item(list: &Value, kind: ListKind, variant: i64) -> Value {
    let items = list.get("items").unwrap_or(&Value::Null);
    if kind != ListKind::Map {
        return sample(items, variant);
    }
    let mut m = Map::default();
    for key in list
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_list)
        .into_iter()
        .flatten()
    {
        let key = key.as_str().unwrap();
        let ks = items.get_path(&["properties", key]).unwrap_or(&Value::Null);
        m.insert(key.to_string(), sample(ks, variant));
    }
    Value::Map(m)
}

fn object(api_version: &str, kind: &str, namespaced: bool, path: &[String], list: Value) -> Value {
    let mut v = list;
    for name in path.iter().rev() {
        let mut m = Map::default();
        m.insert(name.clone(), v);
        v = Value::Map(m);
    }
    let Value::Map(mut top) = v else {
        unreachable!()
    };
    let mut meta = Map::default();
    meta.insert("name".into(), Value::from("sample"));
    if namespaced {
        meta.insert("namespace".into(), Value::from("default"));
    }
    top.insert("apiVersion".into(), Value::from(api_version));
    top.insert("kind".into(), Value::from(kind));
    top.insert("metadata".into(), Value::Map(meta));
    let last = top.len() - 1;
    top.move_index(last, 0);
    let last = top.len() - 1;
    top.move_index(last, 0);
    let last = top.len() - 1;
    top.move_index(last, 0);
    Value::Map(top)
}

#[test]
fn corpus_crds_load_and_apply_with_their_list_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/crds");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 19, "the corpus CRDs are in testdata/crds");
    let mut kinds_checked = 0;
    for file in files {
        let docs = parse_stream(&std::fs::read(&file).unwrap()).unwrap();
        for doc in docs.into_iter().filter(|d| !d.value.is_null()) {
            let mut registry = SchemaRegistry::new();
            let kinds = registry
                .add_document(&doc.value)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let info = kinds
                .first()
                .unwrap_or_else(|| panic!("{}: no kinds", file.display()));
            let api_version = format!("{}/{}", info.group, info.version);
            let resolved = registry.resolve(&api_version, &info.kind).unwrap();
            assert!(!resolved.deduced, "{}", info.kind);
            let versions = doc
                .value
                .get_path(&["spec", "versions"])
                .and_then(Value::as_list)
                .unwrap();
            let version = versions
                .iter()
                .find(|v| v.get("name").and_then(Value::as_str) == Some(info.version.as_str()))
                .unwrap();
            let schema = version.get_path(&["schema", "openAPIV3Schema"]).unwrap();
            let (path, list_kind, list) =
                find_list(schema).unwrap_or_else(|| panic!("{}: no list in the schema", info.kind));
            let one = object(
                &api_version,
                &info.kind,
                info.namespaced,
                &path,
                Value::List(vec![list_item(&list, list_kind, 0)].into()),
            );
            let two = object(
                &api_version,
                &info.kind,
                info.namespaced,
                &path,
                Value::List(vec![list_item(&list, list_kind, 1)].into()),
            );
            let req = |manager, now| WriteRequest {
                operation: Operation::Apply,
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
            };
            let context = format!("{} .{} ({list_kind:?})", info.kind, path.join("."));
            let first = write(None, &one, &resolved, &req("one", "2024-05-01T10:00:00Z"))
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            let second = write(
                Some(&first.object),
                &two,
                &resolved,
                &req("two", "2024-05-01T10:01:00Z"),
            );
            let keys: Vec<&str> = path.iter().map(String::as_str).collect();
            match list_kind {
                ListKind::Map | ListKind::Set => {
                    let stored = second.unwrap_or_else(|e| panic!("{context}: {e}")).object;
                    let items = stored
                        .get_path(&keys)
                        .and_then(Value::as_list)
                        .unwrap_or_else(|| {
                            panic!("{context}: {}", crate::value::to_json_string(&stored))
                        });
                    assert_eq!(items.len(), 2, "{context}: both items kept");
                    let mf = crate::value::to_json_string(
                        stored.get_path(&["metadata", "managedFields"]).unwrap(),
                    );
                    let marker = if list_kind == ListKind::Map {
                        "\"k:{"
                    } else {
                        "\"v:"
                    };
                    assert!(
                        mf.contains(marker),
                        "{context}: items owned one by one: {mf}"
                    );
                }
                ListKind::Atomic => match second {
                    Err(WriteError::Conflicts { message, .. }) => assert_eq!(
                        message,
                        format!(
                            "Apply failed with 1 conflict: conflict with \"one\": .{}",
                            path.join(".")
                        ),
                        "{context}"
                    ),
                    other => {
                        panic!("{context}: expected a conflict on the whole list, got {other:?}")
                    }
                },
            }
            kinds_checked += 1;
        }
    }
    // The 19 corpus CRDs, the example CRD with transition rules (validation tests) and the
    // route CRD whose group ends in k8s.io.
    assert_eq!(kinds_checked, 21);
}
