//! The `caBundle` of a CRD conversion webhook: k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go `validateCustomResourceConversion` runs
//! k8s.io/apiserver pkg/util/webhook `ValidateCABundle` (client-go transport `TLSConfigFor`,
//! `rootCertPool`, `createErrorParsingCAData`) unless `allowInvalidCABundle`: on create, while
//! the stored CRD is not Established, or when its bundle is already invalid. From 1.31.

use super::super::{FieldError, Write};
use super::certificates::{bytes_value, decode_bytes, pem_decode};
use super::fields::{items, text};
use super::x509::parse_certificate;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// apiextensions-apiserver v0.31 added the check.
const CHECKED: VersionRange = VersionRange::since(31);
const AT: &str = "spec.conversion.webhookClientConfig.caBundle";

/// Whether a bundle loads (holds a `CERTIFICATE` block that parses), or client-go's error.
#[derive(Debug, PartialEq)]
enum Bundle {
    Loads,
    Fails(String),
}

/// `ValidateCABundle` of the conversion webhook's `caBundle` (base64 in `client`).
pub(super) fn check(w: &Write, client: &Value, errors: &mut Vec<FieldError>) {
    if !CHECKED.contains(w.version()) || allow_invalid(w) {
        return;
    }
    let text = text(client, "caBundle");
    let Some(bytes) = decode_bytes(text).filter(|b| !b.is_empty()) else {
        return;
    };
    if let Bundle::Fails(e) = load(&bytes, w.version()) {
        errors.push(FieldError::invalid(
            AT,
            bytes_value(Some(text), Some(&bytes)),
            format!("unable to load root certificates: {e}"),
        ));
    }
}

/// `allowInvalidCABundle`: a create, a stored CRD not Established, or a stored bundle that
/// does not load; a stored CRD without a bundle does not allow it.
fn allow_invalid(w: &Write) -> bool {
    let Some(old) = w.live else {
        return true;
    };
    let established = items(old.get_path(&["status", "conditions"]))
        .iter()
        .any(|c| text(c, "type") == "Established" && text(c, "status") == "True");
    if !established {
        return true;
    }
    let old_bundle = old
        .get_path(&["spec", "conversion", "webhook", "clientConfig", "caBundle"])
        .and_then(Value::as_str)
        .and_then(decode_bytes)
        .unwrap_or_default();
    !old_bundle.is_empty() && load(&old_bundle, w.version()) != Bundle::Loads
}

/// `x509.CertPool.AppendCertsFromPEM`, then `createErrorParsingCAData` for its error.
fn load(data: &[u8], version: KubeVersion) -> Bundle {
    let parses = |der: &[u8]| parse_certificate(der, version);
    let mut rest = data;
    while !rest.is_empty() {
        let Some(block) = pem_decode(rest) else {
            break;
        };
        rest = block.rest;
        if block.kind == b"CERTIFICATE" && block.headers == 0 && parses(&block.bytes).is_ok() {
            return Bundle::Loads;
        }
    }
    let mut rest = data;
    while !rest.is_empty() {
        let Some(block) = pem_decode(rest) else {
            return Bundle::Fails("unable to parse bytes as PEM block".into());
        };
        rest = block.rest;
        if block.kind != b"CERTIFICATE" || block.headers != 0 {
            continue;
        }
        if let Err(error) = parses(&block.bytes) {
            return Bundle::Fails(format!("failed to parse certificate: {error}"));
        }
    }
    Bundle::Fails("no valid certificate authority data seen".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pem(kind: &str, body: &str) -> Vec<u8> {
        format!("-----BEGIN {kind}-----\n{body}\n-----END {kind}-----\n").into_bytes()
    }

    const CA: &str = include_str!("x509/testdata/p256.crt");

    fn load(data: &[u8]) -> Bundle {
        super::load(data, KubeVersion::new(36).expect("embedded"))
    }

    #[test]
    fn bundles_as_client_go_loads_them() {
        assert_eq!(load(CA.as_bytes()), Bundle::Loads);
        // MAMCAQE= is a SEQUENCE holding an INTEGER, not a to-be-signed certificate.
        assert_eq!(
            load(&pem("CERTIFICATE", "MAMCAQE=")),
            Bundle::Fails("failed to parse certificate: x509: malformed tbs certificate".into())
        );
        let fails = |e: &str| Bundle::Fails(e.to_string());
        assert_eq!(load(b"\n"), fails("unable to parse bytes as PEM block"));
        assert_eq!(
            load(b"not a pem"),
            fails("unable to parse bytes as PEM block")
        );
        assert_eq!(
            load(&pem("RSA PRIVATE KEY", "MAMCAQE=")),
            fails("no valid certificate authority data seen")
        );
        assert_eq!(
            load(&pem("CERTIFICATE", "aGVsbG8=")),
            fails("failed to parse certificate: x509: malformed certificate")
        );
        // A key first, then trailing text that is no PEM block.
        let mut key = pem("PRIVATE KEY", "MAMCAQE=");
        key.extend_from_slice(b"junk");
        assert_eq!(load(&key), fails("unable to parse bytes as PEM block"));
    }

    const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
      "metadata":{"name":"widgets.example.com"},
      "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
        "conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],
          "clientConfig":{"url":"https://conv.example.com/x","caBundle":"BUNDLE"}}},
        "versions":[{"name":"v1","served":true,"storage":true,
          "schema":{"openAPIV3Schema":{"type":"object"}}}]}STATUS}"#;

    fn crd(bundle: &str, established: bool) -> String {
        let status = if established {
            r#","status":{"storedVersions":["v1"],"conditions":[{"type":"Established","status":"True"}]}"#
        } else {
            ""
        };
        CRD.replace("BUNDLE", bundle).replace("STATUS", status)
    }

    #[test]
    fn checked_on_updates_of_established_definitions() {
        use super::super::tests::refusal_causes;
        let bad = crd("Cg==", false);
        let none: Vec<String> = Vec::new();
        assert_eq!(refusal_causes(&bad, None, 37), none);
        assert_eq!(refusal_causes(&bad, Some(&crd("Cg==", false)), 37), none);
        // The stored bundle is invalid too: allowed.
        assert_eq!(refusal_causes(&bad, Some(&crd("Cg==", true)), 37), none);
        let good = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, CA);
        let live = crd(&good, true);
        assert_eq!(refusal_causes(&crd(&good, false), Some(&live), 37), none);
        assert_eq!(
            refusal_causes(&bad, Some(&live), 37),
            ["spec.conversion.webhookClientConfig.caBundle: Invalid value: \"Cg==\": unable to load root certificates: unable to parse bytes as PEM block"]
        );
        assert_eq!(
            refusal_causes(&bad, Some(&live), 33),
            ["spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0xa}: unable to load root certificates: unable to parse bytes as PEM block"]
        );
        assert_eq!(refusal_causes(&bad, Some(&live), 30), none);
    }
}
