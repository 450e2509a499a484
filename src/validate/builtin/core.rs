//! Core kinds other than pods, as k8s.io/kubernetes pkg/apis/core/validation checks them:
//! Service ports and cluster IPs, ConfigMap and Secret keys, sizes and `immutable`, the
//! PersistentVolumeClaim spec after creation.

use super::super::formats;
use super::super::{FieldError, Write};
use super::fields::{items, spec, text};
use super::selector::semantic_eq;
use super::{
    endpoints, pod, pod_annotations, pod_update, probe, service, service_ip, service_update,
};
use crate::kube::service_prepare;
use crate::validate::field::{join, keyed};
use crate::value::Value;
use std::collections::HashSet;

/// `core.MaxSecretSize`: ConfigMap and Secret data together, 1 MiB.
pub const MAX_DATA_SIZE: usize = 1 << 20;

/// Service types (`supportedServiceType`, sorted).
const SERVICE_TYPES: &[&str] = &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];

fn is_headless(spec: &Value) -> bool {
    text(spec, "clusterIP") == "None"
}

/// `ValidateServiceUpdate` / `ValidateService` on the spec as the registry prepared it
/// ([`service_update`]), after the allocator's IP family checks
/// ([`service_ip::ip_family_fields`]) and node port range
/// ([`service::node_port_out_of_range`]), which answer alone before any validation.
pub fn service(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let old_spec = w.live.map(spec);
    let mut prepared = service_prepare::prepare_spec(spec(object), old_spec);
    // The allocator answers alone: IP families first, then node ports.
    let refusal = service_ip::ip_family_fields(&prepared, old_spec, w.version());
    if !refusal.is_empty() {
        *errors = refusal;
        return;
    }
    if let Some(refusal) = service::node_port_out_of_range(&prepared, old_spec) {
        errors.clear();
        errors.push(refusal);
        return;
    }
    if let Some(old) = old_spec {
        service_update::allocate_families(&mut prepared, old);
        service_prepare::drop_type_dependent(&mut prepared, old);
        service_update::check(&prepared, old, w.version(), errors);
        let meta = object.get("metadata").unwrap_or(&Value::Null);
        super::meta_update::kind_name_rule(w, meta, errors);
    }
    let spec = &prepared;
    let annotations = object.get_path(&["metadata", "annotations"]);
    service_update::topology_annotations(annotations, errors);
    let kind = text(spec, "type");
    let ports = spec
        .get("ports")
        .and_then(Value::as_list)
        .map_or(&[][..], Vec::as_slice);
    if ports.is_empty() && !is_headless(spec) && kind != "ExternalName" {
        errors.push(FieldError::required("spec.ports", ""));
    }
    service::by_type(spec, w.version(), errors);
    let mut names = HashSet::new();
    for (i, p) in ports.iter().enumerate() {
        let at = format!("spec.ports[{i}]");
        let name = text(p, "name");
        if ports.len() > 1 && name.is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        } else if !name.is_empty() {
            for msg in formats::dns1123_label(name) {
                errors.push(FieldError::invalid(
                    join(&at, ".name"),
                    FieldError::string_value(name),
                    msg,
                ));
            }
            if !names.insert(name) {
                errors.push(FieldError::duplicate(
                    join(&at, ".name"),
                    FieldError::string_value(name),
                ));
            }
        }
        match p.get("port") {
            Some(Value::Int(n)) => pod::port_number(*n, &join(&at, ".port"), errors),
            None | Some(Value::Null) => pod::port_number(0, &join(&at, ".port"), errors),
            // Not an integer: the decoder's to refuse.
            Some(_) => {}
        }
        pod::protocol(p, &at, errors);
        probe::port_num_or_name(p.get("targetPort"), &join(&at, ".targetPort"), errors);
        endpoints::app_protocol(p, &join(&at, ".appProtocol"), w.version(), errors);
    }
    service::selector_and_affinity(spec, w.version(), errors);
    service_ip::external_ips(spec, old_spec, w.version(), errors);
    if !kind.is_empty() && !SERVICE_TYPES.contains(&kind) {
        errors.push(FieldError::not_supported(
            "spec.type",
            FieldError::string_value(kind),
            SERVICE_TYPES,
        ));
    }
    service::after_type(object, spec, w.live, w.version(), errors);
}

/// `IsConfigMapKey` errors of every key of `map` at `<path>[<key>]`; returns the data's size.
fn keys(map: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) -> usize {
    let Some(Value::Map(m)) = map else { return 0 };
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut size = 0;
    for (key, value) in entries {
        for msg in formats::config_map_key(key) {
            errors.push(FieldError::invalid(
                keyed(path, key),
                FieldError::string_value(key),
                msg,
            ));
        }
        size += value.as_str().map_or(0, str::len);
    }
    size
}

/// The `immutable: true` rules of ConfigMap and Secret updates, then the kind's name rule
/// (`ValidateConfigMap` / `ValidateSecret` begin with `ValidateObjectMeta`).
fn immutable_data(w: &Write, object: &Value, fields: &[&str], errors: &mut Vec<FieldError>) {
    immutable_fields(w, object, fields, errors);
    if w.live.is_some() {
        let meta = object.get("metadata").unwrap_or(&Value::Null);
        super::meta_update::kind_name_rule(w, meta, errors);
    }
}

fn immutable_fields(w: &Write, object: &Value, fields: &[&str], errors: &mut Vec<FieldError>) {
    let Some(old) = w.live else { return };
    if old.get("immutable").and_then(Value::as_bool) != Some(true) {
        return;
    }
    const DETAIL: &str = "field is immutable when `immutable` is set";
    if object.get("immutable").and_then(Value::as_bool) != Some(true) {
        errors.push(FieldError::forbidden("immutable", DETAIL));
    }
    for f in fields {
        if !semantic_eq(object.get(f), old.get(f)) {
            errors.push(FieldError::forbidden(*f, DETAIL));
        }
    }
}

/// `ValidateConfigMap` / `ValidateConfigMapUpdate`.
pub fn config_map(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    immutable_data(w, object, &["data", "binaryData"], errors);
    let mut size = keys(object.get("data"), "data", errors);
    if let (Some(Value::Map(data)), Some(Value::Map(binary))) =
        (object.get("data"), object.get("binaryData"))
    {
        let mut dup: Vec<&String> = data.keys().filter(|k| binary.contains_key(k)).collect();
        dup.sort();
        for key in dup {
            errors.push(FieldError::invalid(
                format!("data[{key}]"),
                FieldError::string_value(key),
                "duplicate of key present in binaryData",
            ));
        }
    }
    // binaryData holds base64 text: the server counts the decoded bytes.
    size += binary_size(object.get("binaryData"), "binaryData", errors);
    if size > MAX_DATA_SIZE {
        // The server's path is empty ("pass back \"\" to indicate … the whole object").
        errors.push(FieldError::too_long("[]", MAX_DATA_SIZE, w.version()));
    }
}

fn binary_size(map: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) -> usize {
    let Some(Value::Map(m)) = map else { return 0 };
    let mut keys_only = m.clone();
    keys_only.values_mut().for_each(|v| *v = Value::from(""));
    keys(Some(&Value::Map(keys_only)), path, errors);
    m.values().filter_map(Value::as_str).map(decoded_len).sum()
}

/// The length of base64 text once decoded (padding and whitespace ignored).
fn decoded_len(text: &str) -> usize {
    let n = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    n * 3 / 4
}

/// The annotation a service account token Secret must name its account in; the token
/// controller fills in the rest.
const SERVICE_ACCOUNT_NAME_KEY: &str = "kubernetes.io/service-account.name";

/// A docker config Secret's payload must be present and unmarshal, as Go's encoding/json
/// does, into a map; the server quotes Go's error and redacts the value.
fn docker_config(object: &Value, key: &str, errors: &mut Vec<FieldError>) {
    let Some(payload) = object.get("data").and_then(|d| d.get(key)) else {
        errors.push(FieldError::required(format!("data[{key}]"), ""));
        return;
    };
    // A `null` value decodes to no bytes; text that is not base64 was refused when the body
    // was decoded.
    let bytes = match payload {
        Value::Null => Vec::new(),
        other => match other.as_str().and_then(super::certificates::decode_bytes) {
            Some(bytes) => bytes,
            None => return,
        },
    };
    if let Some(message) = crate::validate::gojson_syntax::map_unmarshal_error(&bytes) {
        errors.push(FieldError::invalid(
            format!("data[{key}]"),
            FieldError::string_value("<secret contents redacted>"),
            message,
        ));
    }
}

/// `ValidateSecret` / `ValidateSecretUpdate`.
pub fn secret(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if let Some(old) = w.live {
        let (new_type, old_type) = (text(object, "type"), text(old, "type"));
        if new_type != old_type {
            errors.push(FieldError::invalid(
                "type",
                FieldError::string_value(new_type),
                "field is immutable",
            ));
        }
    }
    immutable_data(w, object, &["data"], errors);
    let mut data_errors = Vec::new();
    let size = binary_size(object.get("data"), "data", &mut data_errors);
    errors.extend(data_errors);
    if size > MAX_DATA_SIZE {
        errors.push(FieldError::too_long("data", MAX_DATA_SIZE, w.version()));
    }
    let has = |key: &str| object.get("data").and_then(|d| d.get(key)).is_some();
    let required = |key: &str| FieldError::required(format!("data[{key}]"), "");
    match text(object, "type") {
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !has(key) {
                    errors.push(required(key));
                }
            }
        }
        "kubernetes.io/service-account-token" => {
            let annotations = object.get("metadata").and_then(|m| m.get("annotations"));
            if annotations
                .map_or("", |a| text(a, SERVICE_ACCOUNT_NAME_KEY))
                .is_empty()
            {
                errors.push(FieldError::required(
                    format!("metadata.annotations[{SERVICE_ACCOUNT_NAME_KEY}]"),
                    "",
                ));
            }
        }
        "kubernetes.io/dockerconfigjson" => docker_config(object, ".dockerconfigjson", errors),
        "kubernetes.io/dockercfg" => docker_config(object, ".dockercfg", errors),
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            errors.push(required("username"));
            errors.push(required("password"));
        }
        "kubernetes.io/ssh-auth"
            if object
                .get("data")
                .and_then(|d| d.get("ssh-privatekey"))
                .and_then(Value::as_str)
                .is_none_or(str::is_empty) =>
        {
            errors.push(required("ssh-privatekey"));
        }
        _ => {}
    }
}

/// `ValidatePodCreate` / `ValidatePodUpdate`: the spec, the pod-only image rule
/// (`validateContainersOnlyForPod`), then on update what may change ([`pod_update::check`]).
pub fn pod(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let stored_annotations = w
        .live
        .and_then(|l| l.get_path(&["metadata", "annotations"]));
    pod_annotations::check(
        object.get_path(&["metadata", "annotations"]),
        spec,
        "metadata.annotations",
        pod_annotations::stored_invalid_cost(stored_annotations),
        errors,
    );
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str);
    pod::spec(
        spec,
        w.live.map(self::spec),
        name,
        "spec",
        w.version(),
        errors,
    );
    for key in ["containers", "initContainers"] {
        let list = spec
            .get(key)
            .and_then(Value::as_list)
            .map_or(&[][..], Vec::as_slice);
        for (i, c) in list.iter().enumerate() {
            let image = text(c, "image");
            if image.trim() != image {
                errors.push(FieldError::invalid(
                    format!("spec.{key}[{i}].image"),
                    FieldError::string_value(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    match w.live {
        Some(old) => {
            let stored_class = old
                .get_path(&["status", "qosClass"])
                .and_then(Value::as_str)
                .unwrap_or("");
            let old_spec = self::spec(old);
            pod_update::check(spec, old_spec, stored_class, w.version(), errors)
        }
        None => pod_create_only(spec, errors),
    }
}

/// `ValidatePodCreate`'s own rules: ephemeral containers come only through their subresource,
/// and a pod with scheduling gates may not be bound yet.
fn pod_create_only(spec: &Value, errors: &mut Vec<FieldError>) {
    if !items(spec.get("ephemeralContainers")).is_empty() {
        errors.push(FieldError::forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        ));
    }
    if !text(spec, "nodeName").is_empty() && !items(spec.get("schedulingGates")).is_empty() {
        errors.push(FieldError::forbidden(
            "spec.nodeName",
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
}
