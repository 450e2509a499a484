//! A webhook's `clientConfig`, as k8s.io/apiserver pkg/util/webhook/validation.go checks it
//! (`ValidateWebhookURL`, `ValidateWebhookService`) for admissionregistration's
//! `validate…Webhook`: exactly one of `url` and `service`; an https URL with a host and no user,
//! query or fragment; a service with a name, a namespace, a valid port and a path of DNS
//! subdomain segments.
//!
//! The admission validation passes the service's name and namespace to `ValidateWebhookService`
//! in the opposite order of its parameters (kubernetes#141353), so a missing namespace is
//! reported at `service.name` and a missing name at `service.namespace`; kssa does the same.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::{present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::crd::go_url::{parse_reference, UrlError};
use crate::validate::field::join;
use crate::value::Value;

/// `ValidateWebhookURL`'s suffix.
const URL_FORM: &str = "; desired format: https://host[/path]";
/// The `Required` details of the name and namespace parameters: apiserver v0.34 (1.34) dropped
/// them (pkg/util/webhook/validation.go, read at v0.33.0 and v0.34.0).
const SERVICE_REQUIRED_DETAILS: &[(VersionRange, (&str, &str))] = &[
    (
        VersionRange::until(33),
        ("service name is required", "service namespace is required"),
    ),
    (VersionRange::since(34), ("", "")),
];
/// `SetDefaults_ServiceReference`.
const DEFAULT_PORT: i64 = 443;

/// The client configuration at `at` (`webhooks[i].clientConfig`).
pub fn client_config(cc: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let url = present(cc, "url");
    let service = present(cc, "service");
    match (url, service) {
        (Some(url), None) => webhook_url(url.as_str().unwrap_or(""), &join(at, ".url"), errors),
        (None, Some(service)) => webhook_service(service, &join(at, ".service"), version, errors),
        _ => errors.push(FieldError::required(
            at,
            "exactly one of url or service is required",
        )),
    }
}

/// `ValidateWebhookURL` with https forced.
fn webhook_url(raw: &str, at: &str, errors: &mut Vec<FieldError>) {
    let url = match parse_reference(raw) {
        Ok(url) => url,
        Err(UrlError(reason)) => {
            errors.push(FieldError::required(
                at,
                format!("url must be a valid URL: {reason}{URL_FORM}"),
            ));
            return;
        }
    };
    if url.scheme != "https" {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&url.scheme),
            format!("'https' is the only allowed URL scheme{URL_FORM}"),
        ));
    }
    if url.host.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&url.host),
            format!("host must be specified{URL_FORM}"),
        ));
    }
    if let Some(user) = &url.userinfo {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(user),
            "user information is not permitted in the URL",
        ));
    }
    if !url.fragment.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&url.fragment),
            "fragments are not permitted in the URL",
        ));
    }
    if !url.raw_query.is_empty() {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&url.raw_query),
            "query parameters are not permitted in the URL",
        ));
    }
}

/// `ValidateWebhookService(fldPath, Name, Namespace, Path, Port)`, the arguments as the
/// admission validation passes them.
fn webhook_service(service: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let (name_detail, namespace_detail) = version.pick(SERVICE_REQUIRED_DETAILS);
    // The parameter called `name` receives the namespace, and `namespace` the name.
    if text(service, "namespace").is_empty() {
        errors.push(FieldError::required(join(at, ".name"), name_detail));
    }
    if text(service, "name").is_empty() {
        errors.push(FieldError::required(
            join(at, ".namespace"),
            namespace_detail,
        ));
    }
    let port = present(service, "port")
        .and_then(Value::as_i64)
        .unwrap_or(DEFAULT_PORT);
    let msgs = formats::port_number(port);
    if !msgs.is_empty() {
        errors.push(FieldError::invalid(
            join(at, ".port"),
            BadValue::Value(Value::Int(port)),
            format!("port is not valid: {}", msgs.join(", ")),
        ));
    }
    let Some(path) = present(service, "path") else {
        return;
    };
    let path = path.as_str().unwrap_or("");
    let path_at = join(at, ".path");
    let invalid =
        |msg: String| FieldError::invalid(path_at.as_str(), FieldError::string_value(path), msg);
    if path.is_empty() || path == "/" {
        return;
    }
    if path == "//" {
        errors.push(invalid("segment[0] may not be empty".into()));
        return;
    }
    if !path.starts_with('/') {
        errors.push(invalid("must start with a '/'".into()));
    }
    // Upstream drops the first byte whatever it is, and one trailing slash.
    let rest = path.get(1..).unwrap_or("");
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    for (i, step) in rest.split('/').enumerate() {
        if step.is_empty() {
            errors.push(invalid(format!("segment[{i}] may not be empty")));
            continue;
        }
        for msg in formats::dns1123_subdomain(step) {
            errors.push(invalid(format!("segment[{i}]: {msg}")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn messages(cc: &str) -> Vec<String> {
        let v = KubeVersion::new(37).unwrap();
        let mut errors = Vec::new();
        client_config(
            &from_json_str(cc).unwrap(),
            "webhooks[0].clientConfig",
            v,
            &mut errors,
        );
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn url_errors_are_go_url_parse_errors() {
        assert_eq!(
            messages(r#"{"url":":8443/x#f"}"#),
            ["webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse \":8443/x\": missing protocol scheme; desired format: https://host[/path]"]
        );
        assert_eq!(
            messages(r#"{"url":"https://me:pw@example.com:8443/x#f"}"#),
            [
                "webhooks[0].clientConfig.url: Invalid value: \"me:pw\": user information is not permitted in the URL",
                "webhooks[0].clientConfig.url: Invalid value: \"f\": fragments are not permitted in the URL",
            ]
        );
    }

    #[test]
    fn url_rules() {
        assert_eq!(
            messages(r#"{"url":"http://example.com/hook?x=1"}"#),
            [
                "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "webhooks[0].clientConfig.url: Invalid value: \"x=1\": query parameters are not permitted in the URL",
            ]
        );
        assert!(messages(r#"{"url":"https://example.com/hook"}"#).is_empty());
        assert_eq!(
            messages(r#"{"url":"https://a","service":{"name":"s","namespace":"n"}}"#),
            ["webhooks[0].clientConfig: Required value: exactly one of url or service is required"]
        );
    }

    #[test]
    fn service_rules_swap_name_and_namespace() {
        assert_eq!(
            messages(r#"{"service":{"name":"hook","port":0,"path":"/Validate/x//"}}"#),
            [
                "webhooks[0].clientConfig.service.name: Required value",
                "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
                "webhooks[0].clientConfig.service.path: Invalid value: \"/Validate/x//\": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "webhooks[0].clientConfig.service.path: Invalid value: \"/Validate/x//\": segment[2] may not be empty",
            ]
        );
        assert_eq!(
            messages(r#"{"service":{"namespace":"ns","path":"validate"}}"#),
            [
                "webhooks[0].clientConfig.service.namespace: Required value",
                "webhooks[0].clientConfig.service.path: Invalid value: \"validate\": must start with a '/'",
            ]
        );
    }
}
