//! Dynamic resource allocation in the pod spec, as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go checks it: `spec.resourceClaims`
//! (`validatePodResourceClaims`, `validatePodResourceClaim`, `gatherPodResourceClaimNames`)
//! and the containers' `resources.claims` that refer to them (`validateResourceClaimNames`).
//! Both are dropped by the strategy while DynamicResourceAllocation is off
//! (pkg/api/pod/util.go `dropDisabledDynamicResourceAllocationFields`).

use super::super::formats;
use super::super::{ErrorType, FieldError};
use super::fields::{items, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::{Map, Value};
use std::collections::{BTreeSet, HashSet};

/// DynamicResourceAllocation: alpha until 1.31, beta and off in 1.32–1.33, GA and on from 1.34.
const DYNAMIC_RESOURCE_ALLOCATION: VersionRange = VersionRange::since(34);

/// `validatePodResourceClaims` for `spec.resourceClaims` at `path` (the pod spec's), returning
/// the non-empty claim names the containers may refer to; `None` (nothing checked) where the
/// strategy drops the claims.
pub fn pod_claims(
    spec: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) -> Option<BTreeSet<String>> {
    if !DYNAMIC_RESOURCE_ALLOCATION.contains(version) {
        return None;
    }
    let claims = items(spec.get("resourceClaims"));
    let list_at = join(path, ".resourceClaims");
    let mut seen = HashSet::new();
    for (i, claim) in claims.iter().enumerate() {
        let at = indexed(&list_at, i);
        let name_at = join(&at, ".name");
        let name = text(claim, "name");
        if name.is_empty() {
            errors.push(FieldError::required(&name_at, ""));
        } else if seen.contains(name) {
            errors.push(FieldError::duplicate(
                &name_at,
                FieldError::string_value(name),
            ));
        } else {
            dns_label(name, &name_at, errors);
            seen.insert(name);
        }
        let claim_name = claim.get("resourceClaimName").and_then(Value::as_str);
        let template_name = claim
            .get("resourceClaimTemplateName")
            .and_then(Value::as_str);
        let detail = match (claim_name, template_name) {
            (Some(_), Some(_)) => {
                Some("at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified")
            }
            (None, None) => {
                Some("must specify one of: `resourceClaimName`, `resourceClaimTemplateName`")
            }
            _ => None,
        };
        if let Some(detail) = detail {
            errors.push(FieldError::invalid(&at, claim_value(claim), detail));
        }
        for (key, value) in [
            ("resourceClaimName", claim_name),
            ("resourceClaimTemplateName", template_name),
        ] {
            if let Some(value) = value {
                for msg in formats::dns1123_subdomain(value) {
                    errors.push(FieldError::invalid(
                        join(&at, &format!(".{key}")),
                        FieldError::string_value(value),
                        msg,
                    ));
                }
            }
        }
    }
    Some(
        claims
            .iter()
            .map(|c| text(c, "name"))
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// The internal `core.PodResourceClaim` as 1.34+ quote it: JSON in its fields' order.
fn claim_value(claim: &Value) -> super::super::BadValue {
    let mut m = Map::default();
    m.insert("name".into(), Value::from(text(claim, "name")));
    for key in ["resourceClaimName", "resourceClaimTemplateName"] {
        if let Some(v) = claim.get(key).filter(|v| !v.is_null()) {
            m.insert(key.into(), v.clone());
        }
    }
    super::super::BadValue::Value(Value::Map(m))
}

fn dns_label(value: &str, at: &str, errors: &mut Vec<FieldError>) {
    for msg in formats::dns1123_label(value) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `validateResourceClaimNames` for a `resources.claims` list at `at`: names required, each
/// claim (or claim request) once, requests DNS labels, names among `pod_claims`.
pub fn references(
    claims: Option<&Value>,
    at: &str,
    pod_claims: &BTreeSet<String>,
    errors: &mut Vec<FieldError>,
) {
    // A sorted set: where the server ranges over its map of names, kssa's order is stable.
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (i, claim) in items(claims).iter().enumerate() {
        let item_at = indexed(at, i);
        let name = text(claim, "name");
        if name.is_empty() {
            errors.push(FieldError::required(&item_at, ""));
            continue;
        }
        if names.contains(name) {
            errors.push(FieldError::duplicate(
                &item_at,
                FieldError::string_value(name),
            ));
        } else {
            let request = text(claim, "request");
            let mut key = name.to_string();
            if !request.is_empty() {
                dns_label(request, &join(&item_at, ".request"), errors);
                key = format!("{name}/{request}");
            }
            if names.contains(&key) {
                errors.push(FieldError::duplicate(
                    &item_at,
                    FieldError::string_value(&key),
                ));
            } else if request.is_empty() {
                let prefix = format!("{name}/");
                for _ in names.iter().filter(|k| k.starts_with(&prefix)) {
                    errors.push(FieldError::duplicate(
                        &item_at,
                        FieldError::string_value(name),
                    ));
                }
            }
            names.insert(key);
        }
        if !pod_claims.contains(name) {
            let mut detail = "must be one of the names in pod.spec.resourceClaims".to_string();
            if pod_claims.is_empty() {
                detail.push_str(" which is empty");
            } else {
                let listed: Vec<&str> = pod_claims.iter().map(String::as_str).collect();
                detail.push_str(": ");
                detail.push_str(&listed.join(", "));
            }
            errors.push(FieldError::new(
                ErrorType::NotFound,
                &item_at,
                FieldError::string_value(name),
                detail,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn spec_messages(spec: &str, minor: u8) -> Vec<String> {
        messages_of(spec, minor, |s, v, errors| {
            pod_claims(s, "spec", v, errors);
        })
    }

    #[test]
    fn pod_claims_are_named_once_and_point_at_one_source() {
        let spec = r#"{"resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"gpu-tpl"},
            {"name":"gpu","resourceClaimName":"a","resourceClaimTemplateName":"b"},{"name":"Bad"}]}"#;
        assert_eq!(
            spec_messages(spec, 37),
            [
                "spec.resourceClaims[1].name: Duplicate value: \"gpu\"",
                "spec.resourceClaims[1]: Invalid value: {\"name\":\"gpu\",\"resourceClaimName\":\"a\",\"resourceClaimTemplateName\":\"b\"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
                "spec.resourceClaims[2].name: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.resourceClaims[2]: Invalid value: {\"name\":\"Bad\"}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            ]
        );
        // Dropped while DynamicResourceAllocation is off by default.
        assert!(spec_messages(spec, 33).is_empty());
    }

    fn reference_messages(claims: &str, pod: &[&str]) -> Vec<String> {
        let pod: BTreeSet<String> = pod.iter().map(|s| s.to_string()).collect();
        messages_of(claims, 37, |c, _, errors| {
            references(Some(c), "spec.containers[0].resources.claims", &pod, errors)
        })
    }

    #[test]
    fn container_claims_refer_to_pod_claims_once() {
        assert_eq!(
            reference_messages(r#"[{"name":"gpu"},{"name":"gpu"},{"name":""}]"#, &["gpu"]),
            [
                "spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\"",
                "spec.containers[0].resources.claims[2]: Required value",
            ]
        );
        assert_eq!(
            reference_messages(r#"[{"name":"gpu","request":"a"},{"name":"gpu"}]"#, &["gpu"]),
            ["spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""]
        );
        assert_eq!(
            reference_messages(r#"[{"name":"tpu"}]"#, &[]),
            ["spec.containers[0].resources.claims[0]: Not found: \"tpu\": must be one of the names in pod.spec.resourceClaims which is empty"]
        );
        assert_eq!(
            reference_messages(r#"[{"name":"tpu"}]"#, &["gpu", "fpga"]),
            ["spec.containers[0].resources.claims[0]: Not found: \"tpu\": must be one of the names in pod.spec.resourceClaims: fpga, gpu"]
        );
    }
}
