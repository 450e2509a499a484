//! The smaller rewrites registry strategies make to what a client sent, per kind (the
//! `PrepareForCreate` / `PrepareForUpdate` of k8s.io/kubernetes pkg/registry, the same in
//! 1.30–1.36):
//!
//! - DaemonSet (apps/daemonset/strategy.go): the internal `spec.templateGeneration`, which
//!   apps/v1 carries as the `deprecated.daemonset.template.generation` annotation
//!   (apps/v1/conversion.go writes it on every read), is at least 1 on create; an update keeps
//!   the stored one, plus one when the pod template changed (`Semantic.DeepEqual`);
//! - ServiceAccount (core/serviceaccount/strategy.go `cleanSecretReferences`): each `secrets`
//!   reference keeps only its `name`;
//! - EndpointSlice (discovery/endpointslice/strategy.go `dropTopologyOnV1`): the v1 API drops
//!   `deprecatedTopology` from every endpoint, on update only when the endpoints changed; an
//!   endpoint without `nodeName` whose topology names a host the stored slice named gets that
//!   host as its `nodeName`.

use crate::value::access::{insert_in_order, items, present, set, text};
use crate::value::{Map, Value};
use std::collections::HashSet;

/// The annotation apps/v1 stores a DaemonSet's template generation in.
pub const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";
/// The topology key an endpoint's host was recorded under (`corev1.LabelHostname`).
const HOSTNAME_LABEL: &str = "kubernetes.io/hostname";

/// Prepares `object` as its kind's strategy does; `old` is the stored object on update.
pub fn prepare(object: &mut Value, old: Option<&Value>) {
    match (text(object, "apiVersion"), text(object, "kind")) {
        ("apps/v1", "DaemonSet") => daemon_set(object, old),
        ("v1", "ServiceAccount") => service_account(object),
        ("discovery.k8s.io/v1", "EndpointSlice") => endpoint_slice(object, old),
        _ => {}
    }
}

/// The template generation of a DaemonSet as the internal type reads it: the annotation as a
/// decimal integer, 0 without it. A value Go's `strconv.ParseInt` refuses makes the server
/// refuse the object while decoding; kssa leaves such a value alone (`None`).
fn template_generation(object: &Value) -> Option<i64> {
    match object.get_path(&["metadata", "annotations", TEMPLATE_GENERATION]) {
        None => Some(0),
        Some(v) => v.as_str().and_then(go_parse_int),
    }
}

/// `strconv.ParseInt(s, 10, 64)`: an optional sign, then ASCII digits only.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn daemon_set(object: &mut Value, old: Option<&Value>) {
    let Some(sent) = template_generation(object) else {
        return;
    };
    let generation = match old {
        None => sent.max(1),
        Some(old) => {
            let stored = template_generation(old).unwrap_or(0);
            let template = ["spec", "template"];
            if object.get_path(&template) != old.get_path(&template) {
                stored + 1
            } else {
                stored
            }
        }
    };
    let value = Value::String(generation.to_string());
    if object.get_path(&["metadata", "annotations", TEMPLATE_GENERATION]) == Some(&value) {
        return;
    }
    let Some(map) = object.as_map_mut() else {
        return;
    };
    let metadata = map.entry("metadata".to_owned()).or_insert(Value::Null);
    if metadata.is_null() {
        *metadata = Value::Map(Map::default());
    }
    if let Some(meta) = metadata.as_map_mut() {
        insert_in_order(meta, "annotations", Value::Null, AFTER_ANNOTATIONS);
        if let Some(annotations) = meta.get_mut("annotations") {
            set(annotations, TEMPLATE_GENERATION, Some(value));
        }
    }
}

/// The ObjectMeta fields the Go struct declares after `annotations`.
const AFTER_ANNOTATIONS: &[&str] = &["ownerReferences", "finalizers", "managedFields"];

fn service_account(object: &mut Value) {
    let needs_cleaning = items(object.get("secrets"))
        .iter()
        .any(|s| s.as_map().is_some_and(|m| m.keys().any(|k| k != "name")));
    if !needs_cleaning {
        return;
    }
    let Some(Value::List(secrets)) = object.as_map_mut().and_then(|m| m.get_mut("secrets")) else {
        return;
    };
    for secret in secrets.iter_mut() {
        let mut reference = Map::default();
        if let Some(name) = present(secret, "name") {
            reference.insert("name".into(), name.clone());
        }
        *secret = Value::Map(reference);
    }
}

fn endpoint_slice(object: &mut Value, old: Option<&Value>) {
    if old.is_some_and(|old| old.get("endpoints") == object.get("endpoints")) {
        return;
    }
    let has_topology = items(object.get("endpoints"))
        .iter()
        .any(|e| e.get("deprecatedTopology").is_some());
    if !has_topology {
        return;
    }
    let stored_hosts: HashSet<String> = old
        .map(|o| items(o.get("endpoints")))
        .unwrap_or_default()
        .iter()
        .filter_map(|e| e.get_path(&["deprecatedTopology", HOSTNAME_LABEL]))
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let Some(Value::List(list)) = object.as_map_mut().and_then(|m| m.get_mut("endpoints")) else {
        return;
    };
    for endpoint in list.iter_mut() {
        let Some(ep) = endpoint.as_map_mut() else {
            continue;
        };
        let host = ep
            .get("deprecatedTopology")
            .and_then(|t| t.get(HOSTNAME_LABEL))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let no_node = ep.get("nodeName").is_none_or(Value::is_null);
        if let Some(host) = host.filter(|h| {
            no_node
                && stored_hosts.contains(h)
                && crate::validate::formats::dns1123_subdomain(h).is_empty()
        }) {
            ep.insert("nodeName".into(), Value::String(host));
        }
        ep.shift_remove("deprecatedTopology");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn prepared(object: &str, old: Option<&str>) -> Value {
        let mut object = from_json_str(object).unwrap();
        let old = old.map(|o| from_json_str(o).unwrap());
        prepare(&mut object, old.as_ref());
        object
    }

    fn daemon_set(annotation: Option<&str>, image: &str) -> String {
        let annotations = annotation
            .map(|a| format!(r#","annotations":{{"{TEMPLATE_GENERATION}":"{a}"}}"#))
            .unwrap_or_default();
        format!(
            r#"{{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{{"name":"agent"{annotations}}},
            "spec":{{"template":{{"spec":{{"containers":[{{"name":"a","image":"{image}"}}]}}}}}}}}"#
        )
    }

    fn generation(object: &Value) -> Option<&str> {
        object
            .get_path(&["metadata", "annotations", TEMPLATE_GENERATION])
            .and_then(Value::as_str)
    }

    #[test]
    fn a_daemon_set_template_generation_starts_at_one_and_counts_template_changes() {
        assert_eq!(
            generation(&prepared(&daemon_set(None, "a:1"), None)),
            Some("1")
        );
        assert_eq!(
            generation(&prepared(&daemon_set(Some("0"), "a:1"), None)),
            Some("1")
        );
        assert_eq!(
            generation(&prepared(&daemon_set(Some("7"), "a:1"), None)),
            Some("7")
        );
        let stored = daemon_set(Some("3"), "a:1");
        // The client's value is ignored on update.
        let same = prepared(&daemon_set(Some("9"), "a:1"), Some(&stored));
        assert_eq!(generation(&same), Some("3"));
        let changed = prepared(&daemon_set(None, "a:2"), Some(&stored));
        assert_eq!(generation(&changed), Some("4"));
        // Not an integer: the server refuses it while decoding; left alone.
        let bad = prepared(&daemon_set(Some("x"), "a:1"), None);
        assert_eq!(generation(&bad), Some("x"));
    }

    #[test]
    fn service_account_secret_references_keep_only_their_names() {
        let sa = prepared(
            r#"{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"ci"},
            "secrets":[{"name":"ci-token","namespace":"ci","kind":"Secret"},{"uid":"u"}]}"#,
            None,
        );
        assert_eq!(
            to_json_string(sa.get("secrets").unwrap()),
            r#"[{"name":"ci-token"},{}]"#
        );
    }

    const SLICE: &str = r#"{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","addressType":"IPv4",
        "endpoints":[{"addresses":["10.0.0.1"],"deprecatedTopology":{"kubernetes.io/hostname":"node-a"}}]}"#;

    #[test]
    fn endpoint_slice_topology_is_dropped_and_a_known_host_kept_as_node_name() {
        let created = prepared(SLICE, None);
        assert_eq!(
            to_json_string(created.get("endpoints").unwrap()),
            r#"[{"addresses":["10.0.0.1"]}]"#
        );
        // Unchanged endpoints keep their topology.
        let unchanged = prepared(SLICE, Some(SLICE));
        assert!(to_json_string(&unchanged).contains("deprecatedTopology"));
        let moved = SLICE.replace("10.0.0.1", "10.0.0.2");
        let updated = prepared(&moved, Some(SLICE));
        assert_eq!(
            to_json_string(updated.get("endpoints").unwrap()),
            r#"[{"addresses":["10.0.0.2"],"nodeName":"node-a"}]"#
        );
    }
}
