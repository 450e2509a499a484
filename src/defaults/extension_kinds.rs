//! CustomResourceDefinition and APIService defaults (the two built-in kinds whose Go types
//! k8s.io/api does not hold, so that kssa does not round-trip them). CustomResourceDefinition (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1
//! defaults.go `SetDefaults_CustomResourceDefinitionSpec`, `SetDefaults_ServiceReference`;
//! `SetDefaults_CustomResourceDefinition`; unchanged 1.30–1.36), and the status as v1 encodes
//! it: the struct whole, whose `acceptedNames.plural`, `acceptedNames.kind` and
//! `storedVersions` have no omitempty (a read of any stored definition shows them).

use super::rules::{child, child_or_insert, unset};
use crate::value::{Map, Value};

pub(super) fn custom_resource_definition(obj: &mut Map) {
    spec(obj);
    let storage = crate::kube::crd_prepare::storage_version(&Value::Map(obj.clone())).cloned();
    let Some(status) = child_or_insert(obj, "status") else {
        return;
    };
    if let Some(accepted) = child_or_insert(status, "acceptedNames") {
        for key in ["plural", "kind"] {
            accepted.entry(key.to_string()).or_insert(Value::from(""));
        }
    }
    let stored = status
        .entry("storedVersions".to_string())
        .or_insert(Value::Null);
    let empty = stored.as_list().is_none_or(|l| l.is_empty());
    if empty {
        if let Some(name) = storage {
            *stored = Value::List(vec![name].into());
        }
    }
}

fn spec(obj: &mut Map) {
    let Some(spec) = child(obj, "spec") else {
        return;
    };
    if let Some(names) = child(spec, "names") {
        let kind = names
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if unset(names, "singular") {
            names.insert("singular".into(), Value::from(kind.to_lowercase()));
        }
        if unset(names, "listKind") && !kind.is_empty() {
            names.insert("listKind".into(), Value::from(format!("{kind}List")));
        }
    }
    if spec.get("conversion").is_none_or(Value::is_null) {
        let mut conversion = Map::default();
        conversion.insert("strategy".into(), Value::from("None"));
        spec.insert("conversion".into(), Value::Map(conversion));
    }
    let service = child(spec, "conversion")
        .and_then(|c| child(c, "webhook"))
        .and_then(|w| child(w, "clientConfig"))
        .and_then(|c| child(c, "service"));
    if let Some(service) = service {
        if service.get("port").is_none_or(Value::is_null) {
            service.insert("port".into(), Value::Int(443));
        }
    }
}

/// APIService (k8s.io/kube-aggregator pkg/apis/apiregistration/v1 defaults.go
/// `SetDefaults_ServiceReference`): a service's port is 443. The status struct is encoded
/// whole (its only field, `conditions`, is omitempty).
pub(super) fn api_service(obj: &mut Map) {
    let service = child(obj, "spec").and_then(|s| child(s, "service"));
    if let Some(service) = service {
        if service.get("port").is_none_or(Value::is_null) {
            service.insert("port".into(), Value::Int(443));
        }
    }
    child_or_insert(obj, "status");
}
