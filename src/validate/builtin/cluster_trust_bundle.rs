//! ClusterTrustBundles (certificates.k8s.io, served by default from 1.37 as v1), as
//! k8s.io/kubernetes pkg/apis/certificates/validation checks them (`ValidateClusterTrustBundle`,
//! `ValidateClusterTrustBundleUpdate`, `validateTrustBundle`, and pkg/apis/core/validation
//! `ValidateClusterTrustBundleName`): the name prefix its signer implies, the signer name,
//! and a bundle of PEM `CERTIFICATE` blocks holding distinct CA certificates.

use super::super::{FieldError, Write};
use super::certificates::pem_decode;
use super::fields::{spec, text};
use super::meta::NameRule;
use super::trust_bundle::signer_name;
use super::x509;
use crate::value::Value;

/// `certificates.MaxTrustBundleSize` (1 MiB).
const MAX_TRUST_BUNDLE_SIZE: usize = 1024 * 1024;
const BUNDLE: &str = "spec.trustBundle";
/// The bad value `validateTrustBundle` quotes instead of the bundle.
const OMITTED: &str = "<value omitted>";

/// `ValidateClusterTrustBundleName(signerName)`: with a signer, the name starts with the
/// signer (`/` as `:`) and `:`, and the rest is a DNS subdomain; without one, a DNS subdomain
/// with no `:`.
pub fn name_messages(signer: &str, name: &str, prefix: bool) -> Vec<String> {
    if signer.is_empty() {
        if name.contains(':') {
            return vec![
                "ClusterTrustBundle without signer name must not have \":\" in its name".into(),
            ];
        }
        return NameRule::Subdomain.messages(name, prefix);
    }
    let required = format!("{}:", signer.replace('/', ":"));
    match name.strip_prefix(&required) {
        Some(rest) => NameRule::Subdomain.messages(rest, prefix),
        None => vec![format!(
            "ClusterTrustBundle for signerName {signer} must be named with prefix {required}"
        )],
    }
}

/// The strategy's `Validate` (`ValidateClusterTrustBundle`), or on update
/// `ValidateClusterTrustBundleUpdate`: the same rules, the bundle parsed only when it changed,
/// then the signer name's immutability.
pub fn cluster_trust_bundle(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let signer = text(spec, "signerName");
    // On update the metadata rules skip the name; `ValidateClusterTrustBundle` checks it
    // against the new signer name again.
    if w.is_update() {
        let name = object
            .get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("");
        for msg in name_messages(signer, name, false) {
            errors.push(FieldError::invalid(
                "metadata.name",
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    if !signer.is_empty() {
        signer_name(signer, "spec.signerName", w.version(), errors);
    }
    let bundle = text(spec, "trustBundle");
    let old_spec = w.live.map(self::spec);
    if old_spec.is_none_or(|old| text(old, "trustBundle") != bundle) {
        trust_bundle(bundle, w, errors);
    }
    if let Some(old) = old_spec {
        if text(old, "signerName") != signer {
            errors.push(FieldError::invalid(
                "spec.signerName",
                FieldError::string_value(signer),
                "field is immutable",
            ));
        }
    }
}

/// `validateTrustBundle`: at most 1 MiB; every PEM block a `CERTIFICATE` without headers
/// holding an X.509 CA certificate; then, when no block was refused, at least one and no
/// duplicates.
fn trust_bundle(bundle: &str, w: &Write, errors: &mut Vec<FieldError>) {
    if bundle.len() > MAX_TRUST_BUNDLE_SIZE {
        errors.push(FieldError::too_long(
            BUNDLE,
            MAX_TRUST_BUNDLE_SIZE,
            w.version(),
        ));
        return;
    }
    let before = errors.len();
    let invalid =
        |detail: String| FieldError::invalid(BUNDLE, FieldError::string_value(OMITTED), detail);
    // Distinct certificates by their DER bytes, with the entries that hold each, in order
    // of first appearance (Go ranges over a map: kssa keeps the bundle's order).
    let mut anchors: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    let mut rest = bundle.as_bytes();
    let mut i = 0usize;
    while let Some(block) = pem_decode(rest) {
        rest = block.rest;
        let entry = i;
        i += 1;
        if block.kind != b"CERTIFICATE" {
            let kind = String::from_utf8_lossy(block.kind);
            errors.push(invalid(format!("entry {entry} has bad block type: {kind}")));
            continue;
        }
        if block.headers != 0 {
            errors.push(invalid(format!("entry {entry} has PEM block headers")));
            continue;
        }
        match x509::parse_certificate(&block.bytes, w.version()) {
            Err(_) => {
                errors.push(invalid(format!("entry {entry} does not parse as X.509")));
                continue;
            }
            Ok(cert) if cert.is_ca => {}
            // No basicConstraints extension, or one without the CA bit: `IsCA` is false.
            Ok(_) => {
                errors.push(invalid(format!(
                    "entry {entry} does not have the CA bit set"
                )));
                continue;
            }
        }
        match anchors.iter_mut().find(|(der, _)| *der == block.bytes) {
            Some((_, entries)) => entries.push(entry),
            None => anchors.push((block.bytes, vec![entry])),
        }
    }
    if errors.len() != before {
        return;
    }
    if anchors.is_empty() {
        errors.push(invalid("at least one trust anchor must be provided".into()));
    }
    for (_, entries) in &anchors {
        if entries.len() > 1 {
            let list: Vec<String> = entries.iter().map(usize::to_string).collect();
            errors.push(invalid(format!(
                "duplicate trust anchor (indices [{}])",
                list.join(" ")
            )));
        }
    }
}

#[cfg(test)]
mod tests;
