//! Ingresses and IngressClasses, as k8s.io/kubernetes pkg/apis/networking/validation checks
//! them (`ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressSpec`,
//! `validateIngressRules`, `validateHTTPIngressPath`, `validateIngressBackend`,
//! `validateIngressTLS`, `ValidateIngressClass`, `ValidateIngressClassUpdate`).

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::netaddr;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// The legacy class annotation, which must agree with `ingressClassName` on create.
const CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";
const PATH_TYPES: &[&str] = &["Exact", "ImplementationSpecific", "Prefix"];
const INVALID_PATH_SEQUENCES: &[&str] = &["//", "/./", "/../", "%2f", "%2F"];
const INVALID_PATH_SUFFIXES: &[&str] = &["/..", "/."];
const WILDCARD_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const WILDCARD_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// `maxLenIngressClassController`.
const CONTROLLER_MAX: usize = 250;
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const PARAMETER_SCOPES: &[&str] = &["Cluster", "Namespace"];

fn invalid_each(errors: &mut Vec<FieldError>, path: &str, value: &str, msgs: Vec<String>) {
    for msg in msgs {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `IsWildcardDNS1123Subdomain`.
fn wildcard_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > formats::DNS1123_SUBDOMAIN_MAX {
        errs.push(format!(
            "must be no more than {} characters",
            formats::DNS1123_SUBDOMAIN_MAX
        ));
    }
    let label = |l: &str| {
        let b = l.as_bytes();
        let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty()
            && edge(b[0])
            && edge(b[b.len() - 1])
            && b.iter().all(|&c| edge(c) || c == b'-')
    };
    let valid = s
        .strip_prefix("*.")
        .is_some_and(|rest| rest.split('.').all(label));
    if !valid {
        errs.push(format!(
            "{WILDCARD_MSG} (e.g. '*.example.com', regex used for validation is '{WILDCARD_FMT}')"
        ));
    }
    errs
}

/// The relaxations `ValidateIngressUpdate` grants what the stored object already holds.
#[derive(Default)]
struct Options {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
    /// `AllowRelaxedServiceNameValidation`: backend service names are DNS labels, not
    /// DNS-1035 labels.
    allow_relaxed_service_name: bool,
    /// The release's wording of a reference's missing kind and name.
    version: Option<KubeVersion>,
}

/// `validateIngressTypedLocalObjectReference`'s `Required` details: `kind is required`, `name is
/// required` until 1.33, none from 1.34 (read in the 1.33 and 1.34 sources).
const REFERENCE_REQUIRED_DETAILS: &[(VersionRange, bool)] = &[
    (VersionRange::until(33), true),
    (VersionRange::since(34), false),
];

/// RelaxedServiceNameValidation (KEP-5311): alpha 1.34, beta and on by default from 1.36.
const RELAXED_SERVICE_NAMES: VersionRange = VersionRange::since(36);
/// `allowRelaxedServiceNameValidation` keeps a stored relaxed name valid from 1.34 (rule
/// backends) and 1.35 (the default backend too).
const RELAXED_IF_STORED_RULES: VersionRange = VersionRange::since(34);
const RELAXED_IF_STORED_DEFAULT: VersionRange = VersionRange::since(35);

/// A name only the relaxed rule allows.
fn relaxed_only(name: &str) -> bool {
    formats::dns1123_label(name).is_empty() && !formats::dns1035_label(name).is_empty()
}

/// `allowRelaxedServiceNameValidation(old)`.
fn allow_relaxed_service_name(old: Option<&Value>, version: KubeVersion) -> bool {
    if RELAXED_SERVICE_NAMES.contains(version) {
        return true;
    }
    let Some(old) = old.map(spec) else {
        return false;
    };
    let service_name =
        |backend: &Value| present(backend, "service").map(|s| text(s, "name").to_string());
    let default = present(old, "defaultBackend").and_then(service_name);
    if RELAXED_IF_STORED_DEFAULT.contains(version) && default.is_some_and(|n| relaxed_only(&n)) {
        return true;
    }
    RELAXED_IF_STORED_RULES.contains(version)
        && items(old.get("rules")).iter().any(|rule| {
            let paths = rule
                .get("http")
                .map(|h| items(h.get("paths")))
                .unwrap_or(&[]);
            paths.iter().any(|p| {
                p.get("backend")
                    .and_then(service_name)
                    .is_some_and(|n| relaxed_only(&n))
            })
        })
}

impl Options {
    /// `allowInvalidSecretName`, `allowInvalidWildcardHostRule`,
    /// `allowRelaxedServiceNameValidation` of the live object.
    fn of(old: Option<&Value>, version: KubeVersion) -> Options {
        let allow_relaxed_service_name = allow_relaxed_service_name(old, version);
        let Some(old) = old.map(spec) else {
            return Options {
                allow_relaxed_service_name,
                version: Some(version),
                ..Options::default()
            };
        };
        Options {
            allow_relaxed_service_name,
            version: Some(version),
            allow_invalid_secret_name: items(old.get("tls"))
                .iter()
                .any(|t| !secret_name(text(t, "secretName")).is_empty()),
            allow_invalid_wildcard_host_rule: items(old.get("rules")).iter().any(|r| {
                let mut errs = Vec::new();
                rule_value(r, "", &Options::default(), &mut errs);
                text(r, "host").contains('*') && !errs.is_empty()
            }),
        }
    }
}

fn secret_name(name: &str) -> Vec<String> {
    if name.is_empty() {
        Vec::new()
    } else {
        formats::dns1123_subdomain(name)
    }
}

/// `ValidateIngressCreate` / `ValidateIngressUpdate`.
pub fn ingress(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let opts = Options::of(w.live, w.version());
    let spec = spec(object);
    let rules = items(spec.get("rules"));
    let default_backend = present(spec, "defaultBackend");
    if rules.is_empty() && default_backend.is_none() {
        let (value, go_syntax) = match spec.get("rules") {
            Some(Value::List(_)) => (Value::List(Vec::new().into()), "[]networking.IngressRule{}"),
            _ => (Value::Null, "[]networking.IngressRule(nil)"),
        };
        errors.push(FieldError::invalid(
            "spec",
            BadValue::GoValue {
                value,
                go_syntax: go_syntax.into(),
            },
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(backend) = default_backend {
        self::backend(backend, "spec.defaultBackend", &opts, errors);
    }
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("spec.rules[{i}]");
        let host = text(rule, "host");
        let mut wildcard = false;
        if !host.is_empty() {
            if netaddr::parse_ip(host).is_some() {
                errors.push(FieldError::invalid(
                    join(&at, ".host"),
                    FieldError::string_value(host),
                    "must be a DNS name, not an IP address",
                ));
            }
            if host.contains('*') {
                invalid_each(errors, &join(&at, ".host"), host, wildcard_subdomain(host));
                wildcard = true;
            } else {
                invalid_each(
                    errors,
                    &join(&at, ".host"),
                    host,
                    formats::dns1123_subdomain(host),
                );
            }
        }
        if !wildcard || !opts.allow_invalid_wildcard_host_rule {
            rule_value(rule, &at, &opts, errors);
        }
    }
    for (t, tls) in items(spec.get("tls")).iter().enumerate() {
        for (i, host) in items(tls.get("hosts")).iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            let at = format!("spec.tls[{t}].hosts[{i}]");
            let msgs = if host.contains('*') {
                wildcard_subdomain(host)
            } else {
                formats::dns1123_subdomain(host)
            };
            invalid_each(errors, &at, host, msgs);
        }
        if !opts.allow_invalid_secret_name {
            let name = text(tls, "secretName");
            invalid_each(
                errors,
                &format!("spec.tls[{t}].secretName"),
                name,
                secret_name(name),
            );
        }
    }
    if let Some(class) = present(spec, "ingressClassName") {
        let class = class.as_str().unwrap_or("");
        invalid_each(
            errors,
            "spec.ingressClassName",
            class,
            formats::dns1123_subdomain(class),
        );
    }
    if !w.is_update() {
        let annotation = object
            .get_path(&["metadata", "annotations", CLASS_ANNOTATION])
            .and_then(Value::as_str);
        let class = present(spec, "ingressClassName").and_then(Value::as_str);
        if let (Some(annotation), Some(class)) = (annotation, class) {
            if annotation != class {
                errors.push(FieldError::invalid(
                    format!("annotations.{CLASS_ANNOTATION}"),
                    FieldError::string_value(annotation),
                    "must match `ingressClassName` when both are specified",
                ));
            }
        }
    }
}

/// `validateIngressRuleValue` / `validateHTTPIngressRuleValue` at `path` (a rule).
fn rule_value(rule: &Value, path: &str, opts: &Options, errors: &mut Vec<FieldError>) {
    let Some(http) = present(rule, "http") else {
        return;
    };
    let paths = items(http.get("paths"));
    if paths.is_empty() {
        errors.push(FieldError::required(join(path, ".http.paths"), ""));
    }
    for (i, p) in paths.iter().enumerate() {
        http_path(p, &format!("{path}.http.paths[{i}]"), opts, errors);
    }
}

/// `validateHTTPIngressPath`: a path type, a path fitting it, then the backend.
fn http_path(p: &Value, at: &str, opts: &Options, errors: &mut Vec<FieldError>) {
    let Some(path_type) = present(p, "pathType") else {
        errors.push(FieldError::required(
            join(at, ".pathType"),
            "pathType must be specified",
        ));
        return;
    };
    let path = text(p, "path");
    let bad = |errors: &mut Vec<FieldError>, msg: String| {
        errors.push(FieldError::invalid(
            join(at, ".path"),
            FieldError::string_value(path),
            msg,
        ));
    };
    match path_type.as_str().unwrap_or("") {
        "Exact" | "Prefix" => {
            if !path.starts_with('/') {
                bad(errors, "must be an absolute path".into());
            }
            if !path.is_empty() {
                for seq in INVALID_PATH_SEQUENCES {
                    if path.contains(seq) {
                        bad(errors, format!("must not contain '{seq}'"));
                    }
                }
                for suffix in INVALID_PATH_SUFFIXES {
                    if path.ends_with(suffix) {
                        bad(errors, format!("cannot end with '{suffix}'"));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !path.is_empty() && !path.starts_with('/') {
                bad(errors, "must be an absolute path".into());
            }
        }
        other => errors.push(FieldError::not_supported(
            join(at, ".pathType"),
            FieldError::string_value(other),
            PATH_TYPES,
        )),
    }
    let empty = Value::Null;
    backend(
        p.get("backend").unwrap_or(&empty),
        &join(at, ".backend"),
        opts,
        errors,
    );
}

/// `validateIngressBackend`: exactly one of a resource and a service; a service's name (a
/// Service name: DNS-1035, or a DNS label where relaxed) and its port's name or number.
fn backend(backend: &Value, at: &str, opts: &Options, errors: &mut Vec<FieldError>) {
    let resource = present(backend, "resource");
    let service = present(backend, "service");
    let empty_value = || FieldError::string_value("");
    match (resource, service) {
        (Some(_), Some(_)) => errors.push(FieldError::invalid(
            at,
            empty_value(),
            "cannot set both resource and service backends",
        )),
        (Some(r), None) => local_object_reference(r, &join(at, ".resource"), opts.version, errors),
        (None, Some(s)) => {
            let name = text(s, "name");
            if name.is_empty() {
                errors.push(FieldError::required(join(at, ".service.name"), ""));
            } else {
                let msgs = if opts.allow_relaxed_service_name {
                    formats::dns1123_label(name)
                } else {
                    formats::dns1035_label(name)
                };
                invalid_each(errors, &join(at, ".service.name"), name, msgs);
            }
            let empty = Value::Null;
            let port = s.get("port").unwrap_or(&empty);
            let port_name = text(port, "name");
            let number = port.get("number").and_then(Value::as_i64).unwrap_or(0);
            if !port_name.is_empty() && number != 0 {
                errors.push(FieldError::invalid(
                    at,
                    empty_value(),
                    "cannot set both port name & port number",
                ));
            } else if !port_name.is_empty() {
                invalid_each(
                    errors,
                    &join(at, ".service.port.name"),
                    port_name,
                    formats::port_name(port_name),
                );
            } else if number != 0 {
                for msg in formats::port_number(number) {
                    errors.push(FieldError::invalid(
                        join(at, ".service.port.number"),
                        BadValue::Value(Value::Int(number)),
                        msg,
                    ));
                }
            } else {
                errors.push(FieldError::required(at, "port name or number is required"));
            }
        }
        (None, None) => errors.push(FieldError::invalid(
            at,
            empty_value(),
            "resource or service backend is required",
        )),
    }
}

/// `validateIngressTypedLocalObjectReference`.
fn local_object_reference(
    r: &Value,
    at: &str,
    version: Option<KubeVersion>,
    errors: &mut Vec<FieldError>,
) {
    let details = version.is_some_and(|v| v.pick(REFERENCE_REQUIRED_DETAILS));
    if let Some(group) = present(r, "apiGroup").and_then(Value::as_str) {
        invalid_each(
            errors,
            &join(at, ".apiGroup"),
            group,
            formats::dns1123_subdomain(group),
        );
    }
    for key in ["kind", "name"] {
        let v = text(r, key);
        if v.is_empty() {
            let detail = if details {
                format!("{key} is required")
            } else {
                String::new()
            };
            errors.push(FieldError::required(format!("{at}.{key}"), detail));
        } else {
            invalid_each(
                errors,
                &format!("{at}.{key}"),
                v,
                formats::path_segment_name(v),
            );
        }
    }
}

/// `ValidateIngressClass` / `ValidateIngressClassUpdate` (the controller is immutable).
pub fn ingress_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let controller = text(spec, "controller");
    if let Some(old) = w.live {
        let was = text(self::spec(old), "controller");
        if was != controller {
            errors.push(FieldError::invalid(
                "spec.controller",
                FieldError::string_value(controller),
                "field is immutable",
            ));
        }
    }
    if controller.is_empty() {
        errors.push(FieldError::required("spec.controller", ""));
    } else {
        if controller.len() > CONTROLLER_MAX {
            errors.push(FieldError::too_long(
                "spec.controller",
                CONTROLLER_MAX,
                w.version(),
            ));
        }
        domain_prefixed_path("spec.controller", controller, errors);
    }
    if let Some(params) = present(spec, "parameters") {
        parameters(params, "spec.parameters", w.version(), errors);
    }
}

/// `IsDomainPrefixedPath`.
fn domain_prefixed_path(at: &str, value: &str, errors: &mut Vec<FieldError>) {
    let Some((host, path)) = value
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return;
    };
    invalid_each(errors, at, host, formats::dns1123_subdomain(host));
    let valid_path = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b));
    if !valid_path {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(path),
            format!("Invalid path (regex used for validation is '{HTTP_PATH_FMT}')"),
        ));
    }
}

/// `validateIngressClassParametersReference`.
fn parameters(params: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    local_object_reference(params, at, Some(version), errors);
    let Some(scope) = present(params, "scope") else {
        errors.push(FieldError::required(join(at, ".scope"), ""));
        return;
    };
    let scope = scope.as_str().unwrap_or("");
    let namespace = present(params, "namespace").map(|n| n.as_str().unwrap_or(""));
    match scope {
        "Namespace" => match namespace {
            None => errors.push(FieldError::required(
                join(at, ".namespace"),
                "`parameters.scope` is set to 'Namespace'",
            )),
            Some(ns) => invalid_each(
                errors,
                &join(at, ".namespace"),
                ns,
                formats::dns1123_label(ns),
            ),
        },
        "Cluster" if namespace.is_some() => errors.push(FieldError::forbidden(
            join(at, ".namespace"),
            "`parameters.scope` is set to 'Cluster'",
        )),
        "Cluster" => {}
        other => errors.push(FieldError::not_supported(
            join(at, ".scope"),
            FieldError::string_value(other),
            PARAMETER_SCOPES,
        )),
    }
}
