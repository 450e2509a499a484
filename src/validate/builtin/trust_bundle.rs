//! The projected volume source `clusterTrustBundle`, as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go `validateProjectionSources` checks it, with the
//! signer and bundle name rules of pkg/apis/certificates/validation (`ValidateSignerName`,
//! `ValidateClusterTrustBundleName`). The strategy drops the source while
//! ClusterTrustBundleProjection is off by default (alpha 1.29–1.32, beta off 1.33–1.36; GA and
//! on from 1.37: `dropDisabledClusterTrustBundleProjection`, pkg/api/pod/util.go).

use super::super::goprint::{go_quote, label_selector_json};
use super::super::{formats, BadValue, FieldError};
use super::fields::{present, text};
use super::volume_source::local_non_reserved;
use super::{meta::NameRule, selector};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::{Map, Value};
use std::collections::HashSet;

/// Releases whose strategy keeps (and so validates) `clusterTrustBundle` sources.
pub const KEPT: VersionRange = VersionRange::since(37);

/// `validation.DNS1123SubdomainMaxLength` and `DNS1123LabelMaxLength`.
const SUBDOMAIN_MAX: usize = 253;
const LABEL_MAX: usize = 63;

/// The `clusterTrustBundle` projection of the source at `src` (`…projected.sources[i]`) of the
/// projected volume at `at`: a name or a signer name (with a label selector), not both; the
/// path, which must be unique among the volume's `paths`.
pub fn check<'v>(
    bundle: &'v Value,
    src: &str,
    at: &str,
    paths: &mut HashSet<&'v str>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let proj = join(src, ".clusterTrustBundle");
    let name = present(bundle, "name").and_then(Value::as_str);
    let signer = present(bundle, "signerName").and_then(Value::as_str);
    match (name, signer) {
        (Some(_), Some(_)) => errors.push(FieldError::invalid(
            &proj,
            BadValue::Value(internal_json(bundle)),
            "only one of name and signerName may be used",
        )),
        (Some(name), None) => {
            let at_name = join(&proj, ".name");
            if name.is_empty() {
                errors.push(FieldError::required(
                    &at_name,
                    "must be a valid object name",
                ));
            }
            for msg in bundle_name(name) {
                errors.push(FieldError::invalid(
                    &at_name,
                    FieldError::string_value(name),
                    format!("not a valid clustertrustbundlename: {msg}"),
                ));
            }
            if let Some(s) = present(bundle, "labelSelector") {
                errors.push(FieldError::invalid(
                    join(&proj, ".labelSelector"),
                    selector::quoted(Some(s)),
                    "labelSelector must be unset if name is specified",
                ));
            }
        }
        (None, Some(signer)) => {
            let at_signer = join(&proj, ".signerName");
            if signer.is_empty() {
                errors.push(FieldError::required(
                    &at_signer,
                    "must be a valid signer name",
                ));
            }
            signer_name(signer, &at_signer, version, errors);
            if let Some(s) = present(bundle, "labelSelector") {
                selector::validate(s, &join(&proj, ".labelSelector"), version, errors);
            }
        }
        (None, None) => errors.push(FieldError::required(
            &proj,
            "either name or signerName must be specified",
        )),
    }
    let p = text(bundle, "path");
    if p.is_empty() {
        errors.push(FieldError::required(join(&proj, ".path"), ""));
    }
    local_non_reserved(p, &join(&proj, ".path"), errors);
    // Unlike the other sources', an empty path takes part in the duplicate check.
    if !paths.insert(p) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(p),
            "conflicting duplicate paths",
        ));
    }
}

/// `ValidateClusterTrustBundleName` for the signer the name implies
/// (`extractSignerNameFromClusterTrustBundleName`: what precedes the last `:`), which the
/// name then always starts with: the rest a DNS subdomain; without a signer no `:` at all.
fn bundle_name(name: &str) -> Vec<String> {
    match name.rfind(':') {
        Some(i) => NameRule::Subdomain.messages(&name[i + 1..], false),
        None => NameRule::Subdomain.messages(name, false),
    }
}

/// `ValidateSignerName`: `<domain>/<path>`, the domain dot-separated DNS labels (at least two)
/// of at most 253 bytes, the path dot-separated DNS subdomains, 571 bytes in all.
pub(super) fn signer_name(
    signer: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if signer.is_empty() {
        errors.push(FieldError::required(at, ""));
        return;
    }
    let segments: Vec<&str> = signer.split('/').collect();
    let [domain, path] = segments.as_slice() else {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(signer),
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        ));
        return;
    };
    if domain.len() > SUBDOMAIN_MAX {
        errors.push(FieldError::too_long(at, SUBDOMAIN_MAX, version));
    }
    let labels: Vec<&str> = domain.split('.').collect();
    segment_labels(domain, &labels, formats::dns1123_label, at, errors);
    if labels.len() < 2 {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(domain),
            "should be a domain with at least two segments separated by dots",
        ));
    }
    let path_labels: Vec<&str> = path.split('.').collect();
    segment_labels(path, &path_labels, formats::dns1123_subdomain, at, errors);
    let max = SUBDOMAIN_MAX + (SUBDOMAIN_MAX + LABEL_MAX + 1) + 1;
    if signer.len() > max {
        errors.push(FieldError::too_long(at, max, version));
    }
}

/// The first label of `segment` that `rule` refuses, each message `validating label "x": …`.
fn segment_labels(
    segment: &str,
    labels: &[&str],
    rule: fn(&str) -> Vec<String>,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    for label in labels {
        let msgs = rule(label);
        if msgs.is_empty() {
            continue;
        }
        for msg in msgs {
            errors.push(FieldError::invalid(
                at,
                FieldError::string_value(segment),
                format!("validating label {}: {msg}", go_quote(label)),
            ));
        }
        break;
    }
}

/// The internal `core.ClusterTrustBundleProjection` as `json.Marshal` writes it (no JSON tags:
/// Go's field names, pointers `null` when unset).
fn internal_json(bundle: &Value) -> Value {
    let mut out = Map::default();
    for (key, go) in [
        ("name", "Name"),
        ("signerName", "SignerName"),
        ("labelSelector", "LabelSelector"),
        ("optional", "Optional"),
    ] {
        let v = match present(bundle, key) {
            Some(s) if key == "labelSelector" => label_selector_json(s),
            Some(v) => v.clone(),
            None => Value::Null,
        };
        out.insert(go.into(), v);
    }
    out.insert("Path".into(), Value::String(text(bundle, "path").into()));
    Value::Map(out)
}

#[cfg(test)]
mod tests {
    use super::super::projected::projected_volume;
    use super::super::tests::messages_of;

    fn messages(volume: &str, minor: u8) -> Vec<String> {
        messages_of(volume, minor, |v, version, errors| {
            projected_volume(v, "spec.volumes[0].projected", version, errors)
        })
    }

    #[test]
    fn dropped_until_the_projection_is_ga() {
        let both = r#"{"sources":[{"clusterTrustBundle":{"name":"a","signerName":"b/c","path":"ca.pem"},
            "serviceAccountToken":{"path":"token"}}]}"#;
        assert!(messages(both, 36).is_empty());
        assert_eq!(
            messages(both, 37),
            [
                r#"spec.volumes[0].projected.sources[0].clusterTrustBundle: Invalid value: {"Name":"a","SignerName":"b/c","LabelSelector":null,"Optional":null,"Path":"ca.pem"}: only one of name and signerName may be used"#,
                "spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source",
            ]
        );
    }

    #[test]
    fn a_name_or_a_signer_name() {
        assert_eq!(
            messages(r#"{"sources":[{"clusterTrustBundle":{"path":"ca.pem"}}]}"#, 37),
            ["spec.volumes[0].projected.sources[0].clusterTrustBundle: Required value: either name or signerName must be specified"]
        );
        assert!(messages(
            r#"{"sources":[{"clusterTrustBundle":{"name":"example.com:signer:abc","path":"ca.pem"}}]}"#,
            37
        )
        .is_empty());
        assert_eq!(
            messages(
                r#"{"sources":[{"clusterTrustBundle":{"name":"My_Bundle","path":"ca.pem","labelSelector":{}}}]}"#,
                37
            ),
            [
                "spec.volumes[0].projected.sources[0].clusterTrustBundle.name: Invalid value: \"My_Bundle\": not a valid clustertrustbundlename: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.volumes[0].projected.sources[0].clusterTrustBundle.labelSelector: Invalid value: {}: labelSelector must be unset if name is specified",
            ]
        );
    }

    #[test]
    fn signer_names_are_domain_and_path() {
        assert!(messages(
            r#"{"sources":[{"clusterTrustBundle":{"signerName":"example.com/signer","path":"ca.pem"}}]}"#,
            37
        )
        .is_empty());
        assert_eq!(
            messages(
                r#"{"sources":[{"clusterTrustBundle":{"signerName":"example","path":"ca.pem"}}]}"#,
                37
            ),
            ["spec.volumes[0].projected.sources[0].clusterTrustBundle.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]
        );
        assert_eq!(
            messages(
                r#"{"sources":[{"clusterTrustBundle":{"signerName":"Example/signer","path":"/ca.pem"}}]}"#,
                37
            ),
            [
                "spec.volumes[0].projected.sources[0].clusterTrustBundle.signerName: Invalid value: \"Example\": validating label \"Example\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.volumes[0].projected.sources[0].clusterTrustBundle.signerName: Invalid value: \"Example\": should be a domain with at least two segments separated by dots",
                "spec.volumes[0].projected.sources[0].clusterTrustBundle.path: Invalid value: \"/ca.pem\": must be a relative path",
            ]
        );
    }

    #[test]
    fn paths_are_unique_in_the_volume() {
        let v = r#"{"sources":[{"configMap":{"name":"c","items":[{"key":"k","path":"ca.pem"}]}},
            {"clusterTrustBundle":{"signerName":"example.com/signer","path":"ca.pem"}}]}"#;
        assert_eq!(
            messages(v, 37),
            ["spec.volumes[0].projected: Invalid value: \"ca.pem\": conflicting duplicate paths"]
        );
    }
}
