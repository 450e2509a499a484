//! The downwardAPI and projected volume sources, as k8s.io/kubernetes
//! pkg/apis/core/validation checks them (`validateDownwardAPIVolumeSource`,
//! `validateDownwardAPIVolumeFile`, `validateProjectedVolumeSource`,
//! `validateProjectionSources`, `validateContainerResourceFieldSelector`,
//! `validateContainerResourceDivisor`), with the server's paths: a downward API file's errors
//! name the source, not the item, and duplicate projected paths name the volume.

use super::super::{BadValue, FieldError};
use super::env::{field_ref, HUGEPAGES_PREFIXES, RESOURCE_FIELD_PATHS};
use super::fields::{items, present, quantity_text, text};
use super::trust_bundle;
use super::volume_source::{file_mode, key_to_path, local_non_reserved};
use crate::defaults::quantity::canonicalize;
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;
use std::collections::HashSet;

/// `validVolumeDownwardAPIFieldPathExpressions`, sorted.
const VOLUME_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];
const CPU_DIVISORS: &[&str] = &["1m", "1"];
const BYTE_DIVISORS: &[&str] = &[
    "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
];
const BYTE_DIVISORS_TEXT: &str = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
/// A service account token's lifetime: at least 10 minutes, at most 2^32 seconds.
const MIN_TOKEN_SECONDS: i64 = 10 * 60;
const MAX_TOKEN_SECONDS: i64 = 1 << 32;

/// `validateDownwardAPIVolumeSource` at `at` (`…volumes[0].downwardAPI`).
pub fn downward_api_volume(
    v: &Value,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    file_mode(v.get("defaultMode"), &join(at, ".defaultMode"), errors);
    for file in items(v.get("items")) {
        downward_file(file, at, version, errors);
    }
}

/// `validateDownwardAPIVolumeFile`, reported under `at` (the source, whatever the item).
fn downward_file(file: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let p = text(file, "path");
    if p.is_empty() {
        errors.push(FieldError::required(join(at, ".path"), ""));
    }
    local_non_reserved(p, &join(at, ".path"), errors);
    let resource = present(file, "resourceFieldRef");
    if let Some(r) = present(file, "fieldRef") {
        field_ref(
            r,
            &join(at, ".fieldRef"),
            VOLUME_FIELD_PATHS,
            version,
            errors,
        );
        if resource.is_some() {
            errors.push(FieldError::invalid(
                at,
                FieldError::string_value("resource"),
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if let Some(r) = resource {
        resource_field_ref(r, &join(at, ".resourceFieldRef"), errors);
    } else {
        errors.push(FieldError::required(
            at,
            "one of fieldRef and resourceFieldRef is required",
        ));
    }
    file_mode(file.get("mode"), &join(at, ".mode"), errors);
}

/// `validateContainerResourceFieldSelector` for volume files: a container name, a resource,
/// and its divisor.
fn resource_field_ref(r: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let resource = text(r, "resource");
    if text(r, "containerName").is_empty() {
        errors.push(FieldError::required(join(at, ".containerName"), ""));
    } else if resource.is_empty() {
        errors.push(FieldError::required(join(at, ".resource"), ""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource)
        && !HUGEPAGES_PREFIXES.iter().any(|p| resource.starts_with(p))
    {
        errors.push(FieldError::not_supported(
            join(at, ".resource"),
            FieldError::string_value(resource),
            RESOURCE_FIELD_PATHS,
        ));
    }
    divisor(resource, r.get("divisor"), at, errors);
}

/// `validateContainerResourceDivisor`: an unset or zero divisor passes; others must be one
/// of the resource's units.
fn divisor(resource: &str, divisor: Option<&Value>, at: &str, errors: &mut Vec<FieldError>) {
    let Some(shown) = divisor
        .and_then(quantity_text)
        .and_then(|t| canonicalize(&t))
    else {
        return;
    };
    if shown == "0" {
        return;
    }
    let mut refuse = |detail: String| {
        errors.push(FieldError::invalid(
            join(at, ".divisor"),
            FieldError::string_value(resource),
            detail,
        ));
    };
    let bytes = |what: &str| {
        format!("only divisor's values {BYTE_DIVISORS_TEXT} are supported with the {what} resource")
    };
    match resource {
        "limits.cpu" | "requests.cpu" if !CPU_DIVISORS.contains(&shown.as_str()) => {
            refuse("only divisor's values 1m and 1 are supported with the cpu resource".into())
        }
        "limits.memory" | "requests.memory" if !BYTE_DIVISORS.contains(&shown.as_str()) => {
            refuse(bytes("memory"))
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !BYTE_DIVISORS.contains(&shown.as_str()) =>
        {
            refuse(bytes("local ephemeral storage"))
        }
        _ => {}
    }
    if HUGEPAGES_PREFIXES.iter().any(|p| resource.starts_with(p))
        && !BYTE_DIVISORS.contains(&shown.as_str())
    {
        refuse(bytes("hugepages"));
    }
}

/// Whether a service account token's path must be local (`ValidateLocalNonReservedPath`), or
/// any path passes (`AllowNonLocalProjectedTokenPath`: the stored pod already had one that is
/// not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPath {
    Local,
    AnyAllowed,
}

/// `validateProjectedVolumeSource` at `at` (`…volumes[0].projected`), token paths local.
pub fn projected_volume(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    projected_volume_with(v, at, TokenPath::Local, version, errors);
}

/// `validateProjectedVolumeSource` with the token path rule `token_path`.
pub fn projected_volume_with(
    v: &Value,
    at: &str,
    token_path: TokenPath,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    file_mode(v.get("defaultMode"), &join(at, ".defaultMode"), errors);
    let mut paths = HashSet::new();
    for (i, source) in items(v.get("sources")).iter().enumerate() {
        let src = format!("{at}.sources[{i}]");
        let mut count = 0;
        for key in ["secret", "configMap"] {
            let Some(s) = present(source, key) else {
                continue;
            };
            count += 1;
            let name = text(s, "name");
            if name.is_empty() {
                errors.push(FieldError::required(format!("{src}.{key}.name"), ""));
            }
            for (j, item) in items(s.get("items")).iter().enumerate() {
                key_to_path(item, &format!("{src}.{key}.items[{j}]"), errors);
                let p = text(item, "path");
                if !p.is_empty() && !paths.insert(p) {
                    errors.push(FieldError::invalid(
                        at,
                        FieldError::string_value(name),
                        "conflicting duplicate paths",
                    ));
                }
            }
        }
        if let Some(d) = present(source, "downwardAPI") {
            count += 1;
            for file in items(d.get("items")) {
                downward_file(file, &join(&src, ".downwardAPI"), version, errors);
                let p = text(file, "path");
                if !p.is_empty() && !paths.insert(p) {
                    errors.push(FieldError::invalid(
                        at,
                        FieldError::string_value(p),
                        "conflicting duplicate paths",
                    ));
                }
            }
        }
        if let Some(token) = present(source, "serviceAccountToken") {
            count += 1;
            service_account_token(token, &src, at, token_path, errors);
        }
        if let Some(bundle) = present(source, "clusterTrustBundle") {
            if trust_bundle::KEPT.contains(version) {
                count += 1;
                trust_bundle::check(bundle, &src, at, &mut paths, version, errors);
            }
        }
        if count > 1 {
            errors.push(FieldError::forbidden(
                src,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
}

/// A projected token: its lifetime, and its path (reported at the volume's `path`).
fn service_account_token(
    token: &Value,
    src: &str,
    at: &str,
    token_path: TokenPath,
    errors: &mut Vec<FieldError>,
) {
    let seconds = token
        .get("expirationSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(3600);
    let seconds_at = join(src, ".serviceAccountToken.expirationSeconds");
    let refuse = |detail, errors: &mut Vec<FieldError>| {
        errors.push(FieldError::invalid(
            &seconds_at,
            BadValue::Value(Value::Int(seconds)),
            detail,
        ));
    };
    if seconds < MIN_TOKEN_SECONDS {
        refuse("may not specify a duration less than 10 minutes", errors);
    }
    if seconds > MAX_TOKEN_SECONDS {
        refuse(
            "may not specify a duration larger than 2^32 seconds",
            errors,
        );
    }
    let p = text(token, "path");
    if p.is_empty() {
        errors.push(FieldError::required(join(at, ".path"), ""));
    } else if token_path == TokenPath::Local {
        local_non_reserved(p, &join(at, ".path"), errors);
    }
}
