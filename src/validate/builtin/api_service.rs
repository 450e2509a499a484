//! APIServices, as k8s.io/kube-aggregator pkg/apis/apiregistration/validation checks them
//! (`ValidateAPIService`, run again by `ValidateAPIServiceUpdate`; the strategy in
//! pkg/registry/apiservice/strategy.go resets `status`, so it is not checked). Unchanged over
//! kube-aggregator v0.30–v0.36 but for the path segment helper's package.

use super::super::goprint::go_quote;
use super::super::{formats, BadValue, FieldError, Write};
use super::certificates::decode_bytes;
use super::fields::{present, spec, text};
use crate::value::Value;

/// v1 `SetDefaults_ServiceReference`.
const DEFAULT_PORT: i64 = 443;

/// `ValidateAPIService`'s name function, for `name` and `generateName` alike (it ignores the
/// prefix flag): a path segment, then `spec.version + "." + spec.group`.
pub fn name_messages(object: &Value, name: &str) -> Vec<String> {
    let segment = formats::path_segment_name(name);
    if !segment.is_empty() {
        return segment;
    }
    let spec = spec(object);
    let required = format!("{}.{}", text(spec, "version"), text(spec, "group"));
    if name == required {
        return Vec::new();
    }
    vec![format!(
        "must be `spec.version+\".\"+spec.group`: {}",
        go_quote(&required)
    )]
}

/// `ValidateAPIService`: group and version formats, the two priorities, and the service
/// reference or the local service's restrictions. The name rule is the metadata check's
/// ([`super::meta::NameRule::ApiService`]); on update, where the metadata check leaves names alone,
/// `ValidateAPIServiceUpdate` runs `ValidateAPIService` whole, so it is run here.
pub fn api_service(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let (group, version) = (text(spec, "group"), text(spec, "version"));
    if w.is_update() {
        for field in ["generateName", "name"] {
            let name = object
                .get_path(&["metadata", field])
                .and_then(Value::as_str)
                .unwrap_or("");
            if name.is_empty() {
                continue;
            }
            for msg in name_messages(object, name) {
                errors.push(FieldError::invalid(
                    format!("metadata.{field}"),
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
    }
    if group.is_empty() && version != "v1" {
        errors.push(FieldError::required(
            "spec.group",
            "only v1 may have an empty group and it better be legacy kube",
        ));
    }
    if !group.is_empty() {
        for msg in formats::dns1123_subdomain(group) {
            errors.push(FieldError::invalid(
                "spec.group",
                FieldError::string_value(group),
                msg,
            ));
        }
    }
    for msg in formats::dns1035_label(version) {
        errors.push(FieldError::invalid(
            "spec.version",
            FieldError::string_value(version),
            msg,
        ));
    }
    let number = |key: &str| spec.get(key).and_then(Value::as_i64).unwrap_or(0);
    for (key, max) in [("groupPriorityMinimum", 20000), ("versionPriority", 1000)] {
        let n = number(key);
        if n <= 0 || n > max {
            errors.push(FieldError::invalid(
                format!("spec.{key}"),
                BadValue::Value(Value::Int(n)),
                format!("must be positive and less than {max}"),
            ));
        }
    }
    let ca_bundle = decode_bytes(text(spec, "caBundle")).map_or(0, |b| b.len());
    let insecure = spec
        .get("insecureSkipTLSVerify")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let Some(service) = present(spec, "service") else {
        if ca_bundle != 0 {
            errors.push(FieldError::invalid(
                "spec.caBundle",
                FieldError::string_value(&format!("{ca_bundle} bytes")),
                "local APIServices may not have a caBundle",
            ));
        }
        if insecure {
            errors.push(FieldError::invalid(
                "spec.insecureSkipTLSVerify",
                BadValue::Value(Value::Bool(true)),
                "local APIServices may not have insecureSkipTLSVerify",
            ));
        }
        return;
    };
    for key in ["namespace", "name"] {
        if text(service, key).is_empty() {
            errors.push(FieldError::required(format!("spec.service.{key}"), ""));
        }
    }
    let port = present(service, "port")
        .and_then(Value::as_i64)
        .unwrap_or(DEFAULT_PORT);
    let port_errors = formats::port_number(port);
    if !port_errors.is_empty() {
        errors.push(FieldError::invalid(
            "spec.service.port",
            BadValue::Value(Value::Int(port)),
            format!("port is not valid: {}", port_errors.join(", ")),
        ));
    }
    if insecure && ca_bundle > 0 {
        errors.push(FieldError::invalid(
            "spec.insecureSkipTLSVerify",
            BadValue::Value(Value::Bool(true)),
            "may not be true if caBundle is present",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const SERVICE: &str = r#"{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService",
      "metadata":{"name":"v1beta1.metrics.k8s.io"},
      "spec":{"group":"metrics.k8s.io","version":"v1beta1","groupPriorityMinimum":100,
        "versionPriority":100,"insecureSkipTLSVerify":true,
        "service":{"name":"prometheus-adapter","namespace":"monitoring"}}}"#;

    #[test]
    fn a_valid_service_passes() {
        assert_eq!(refusal(SERVICE, None, 37), None);
        assert_eq!(refusal(SERVICE, Some(SERVICE), 30), None);
        let local = r#"{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService",
          "metadata":{"name":"v1.apps"},
          "spec":{"group":"apps","version":"v1","groupPriorityMinimum":17800,"versionPriority":15}}"#;
        assert_eq!(refusal(local, None, 37), None);
    }

    #[test]
    fn the_name_is_version_dot_group() {
        let bad = SERVICE.replace(r#""version":"v1beta1""#, r#""version":"v1beta2""#);
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The APIService \"v1beta1.metrics.k8s.io\" is invalid: metadata.name: Invalid value: \"v1beta1.metrics.k8s.io\": must be `spec.version+\".\"+spec.group`: \"v1beta2.metrics.k8s.io\""
        );
        assert!(refusal(&bad, Some(SERVICE), 37).is_some());
    }

    #[test]
    fn spec_rules() {
        let bad = SERVICE
            .replace("metrics.k8s.io", "Metrics")
            .replace(
                r#""groupPriorityMinimum":100"#,
                r#""groupPriorityMinimum":0"#,
            )
            .replace(r#""versionPriority":100"#, r#""versionPriority":1001"#)
            .replace(
                r#""namespace":"monitoring""#,
                r#""namespace":"","port":70000"#,
            )
            .replace(
                r#""insecureSkipTLSVerify":true"#,
                r#""insecureSkipTLSVerify":true,"caBundle":"AAAA""#,
            );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.group: Invalid value: \"Metrics\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
                "spec.versionPriority: Invalid value: 1001: must be positive and less than 1000",
                "spec.service.namespace: Required value",
                "spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
                "spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present",
            ]
        );
    }

    #[test]
    fn local_services_have_no_tls_settings() {
        let local = r#"{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService",
          "metadata":{"name":"v2"},
          "spec":{"version":"v2","groupPriorityMinimum":1,"versionPriority":1,
            "insecureSkipTLSVerify":true,"caBundle":"AAAA"}}"#;
        assert_eq!(
            refusal_causes(local, None, 37),
            [
                "metadata.name: Invalid value: \"v2\": must be `spec.version+\".\"+spec.group`: \"v2.\"",
                "spec.group: Required value: only v1 may have an empty group and it better be legacy kube",
                "spec.caBundle: Invalid value: \"3 bytes\": local APIServices may not have a caBundle",
                "spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify",
            ]
        );
    }
}
