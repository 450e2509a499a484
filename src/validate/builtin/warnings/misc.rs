//! The warnings of the Node and Secret strategies, and of the admissionregistration kinds'
//! reserved name suffix.

use super::super::certificates::{decode_bytes, pem_decode};
use super::super::fields::{items, present, spec, text};
use super::super::x509::keys::key_pair_error;
use super::ip;
use crate::kube::VersionRange;
use crate::validate::field::indexed;
use crate::validate::Write;
use crate::value::Value;

/// pkg/registry/core/node/strategy.go `nodeWarnings` (`fieldIsDeprecatedWarnings` before
/// 1.33, without the pod CIDRs).
pub fn node(w: &Write, object: &Value, out: &mut Vec<String>) {
    let spec = spec(object);
    // `dropDisabledFields` clears `configSource` on create, and on update unless the stored
    // node has one: only then is it still there to warn of.
    let stored_config = w
        .live
        .and_then(|live| present(super::super::fields::spec(live), "configSource"));
    if stored_config.is_some() && present(spec, "configSource").is_some() {
        out.push("spec.configSource: the feature is removed".into());
    }
    if !text(spec, "externalID").is_empty() {
        out.push("spec.externalID: this field is deprecated, and is unused by Kubernetes".into());
    }
    for (i, value) in internal_pod_cidrs(spec).iter().enumerate() {
        let at = indexed("spec.podCIDRs", i);
        ip::cidr(&at, value, w.version(), out);
    }
}

/// The internal node's `podCIDRs` (pkg/apis/core/v1/conversion.go
/// `Convert_v1_NodeSpec_To_core_NodeSpec`): `podCIDR` alone when the list is empty or does not
/// start with it (the singular field is authoritative), else the list.
fn internal_pod_cidrs(spec: &Value) -> Vec<&str> {
    let single = text(spec, "podCIDR");
    let list: Vec<&str> = items(spec.get("podCIDRs"))
        .iter()
        .map(|v| v.as_str().unwrap_or(""))
        .collect();
    if !single.is_empty() && list.first() != Some(&single) {
        return vec![single];
    }
    list
}

/// pkg/registry/core/secret/strategy.go `warningsForSecret`: a `kubernetes.io/tls` secret
/// whose `tls.crt` and `tls.key` `tls.X509KeyPair` refuses: no certificate or key block where
/// one is needed, then a certificate or key that does not parse, or a key that is not the
/// certificate's (`x509::keys`).
pub fn secret(w: &Write, object: &Value, out: &mut Vec<String>) {
    if text(object, "type") != "kubernetes.io/tls" {
        return;
    }
    let data = |key: &str| {
        object
            .get_path(&["data", key])
            .and_then(Value::as_str)
            .and_then(decode_bytes)
            .unwrap_or_default()
    };
    let (cert, key) = (data("tls.crt"), data("tls.key"));
    let error = match key_pair_blocks(&cert, &key) {
        Err(error) => Some(error),
        Ok((cert, key)) => key_pair_error(&cert, &key, w.version()),
    };
    out.extend(error);
}

/// The PEM blocks `pem.Decode` finds in turn in `input` up to the first wanted one: the
/// types of those skipped, and the wanted block's bytes.
fn skipped_until(
    mut input: &[u8],
    wanted: impl Fn(&str) -> bool,
) -> (Vec<String>, Option<Vec<u8>>) {
    let mut skipped = Vec::new();
    while let Some(block) = pem_decode(input) {
        let kind = String::from_utf8_lossy(block.kind).into_owned();
        if wanted(&kind) {
            return (skipped, Some(block.bytes));
        }
        skipped.push(kind);
        input = block.rest;
    }
    (skipped, None)
}

/// crypto/tls `X509KeyPair`'s PEM stage: the first `CERTIFICATE` block and the first `PRIVATE
/// KEY` block, or its errors for an input without one (Go's `%v` of the skipped types is
/// `[A B]`).
fn key_pair_blocks(cert: &[u8], key: &[u8]) -> Result<(Vec<u8>, Vec<u8>), String> {
    let (skipped, found) = skipped_until(cert, |t| t == "CERTIFICATE");
    let Some(cert) = found else {
        return Err(match skipped.as_slice() {
            [] => "tls: failed to find any PEM data in certificate input".into(),
            [only] if only.ends_with("PRIVATE KEY") => "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched".into(),
            _ => format!(
                "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [{}]",
                skipped.join(" ")
            ),
        });
    };
    let (skipped, found) =
        skipped_until(key, |t| t == "PRIVATE KEY" || t.ends_with(" PRIVATE KEY"));
    if let Some(key) = found {
        return Ok((cert, key));
    }
    Err(match skipped.as_slice() {
        [] => "tls: failed to find any PEM data in key input".into(),
        [only] if only == "CERTIFICATE" => {
            "tls: found a certificate rather than a key in the PEM for the private key".into()
        }
        _ => format!(
            "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [{}]",
            skipped.join(" ")
        ),
    })
}

/// pkg/apis/admissionregistration/validation/static_suffix.go `WarningsForStaticSuffix`, new
/// in 1.36: the webhook configurations, policies and bindings warn of the suffix reserved for
/// manifest-based configurations on create while ManifestBasedAdmissionControlConfig is off
/// (alpha, off by default in 1.36; on, validation refuses the name), and on every update.
const STATIC_SUFFIX: VersionRange = VersionRange::since(36);

pub fn static_suffix(w: &Write, object: &Value, out: &mut Vec<String>) {
    if !STATIC_SUFFIX.contains(w.version()) {
        return;
    }
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.ends_with(".static.k8s.io") {
        out.push(r#"metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API"#.into());
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::warnings;

    fn node(spec: &str) -> String {
        format!(r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n1"}},"spec":{spec}}}"#)
    }

    const CONFIG: &str = r#""configSource":{"configMap":{"name":"c","namespace":"kube-system","kubeletConfigKey":"k"}}"#;

    // As the 1.30, 1.33 and 1.36 references print them.
    #[test]
    fn node_fields() {
        let created = node(&format!(
            r#"{{"externalID":"x","podCIDR":"10.0.0.1/24","podCIDRs":["10.0.0.1/24"],{CONFIG}}}"#
        ));
        let external_id =
            "Warning: spec.externalID: this field is deprecated, and is unused by Kubernetes";
        assert_eq!(warnings(&created, None, 32), [external_id]);
        assert_eq!(
            warnings(&created, None, 33),
            [
                external_id,
                r#"Warning: spec.podCIDRs[0]: CIDR value "10.0.0.1/24" is ambiguous in this context (should be "10.0.0.0/24" or "10.0.0.1/32"?)"#,
            ]
        );
        // `podCIDR` alone stands for the list, and wins over a list that differs.
        let single = node(r#"{"podCIDR":"10.0.0.1/24","podCIDRs":["10.0.0.0/24","fd00::1/64"]}"#);
        assert_eq!(
            warnings(&single, None, 35),
            [
                r#"Warning: spec.podCIDRs[0]: CIDR value "10.0.0.1/24" is ambiguous in this context (should be "10.0.0.0/24" or "10.0.0.1/32"?)"#
            ]
        );
        // The config source is kept (and warned of) only over a stored node that has one.
        let config = node(&format!("{{{CONFIG}}}"));
        assert!(warnings(&config, Some(&node("{}")), 30).is_empty());
        assert_eq!(
            warnings(&config, Some(&config), 30),
            ["Warning: spec.configSource: the feature is removed"]
        );
    }

    fn tls(crt: &str, key: &str) -> String {
        use base64::Engine;
        let b = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        format!(
            r#"{{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"s","namespace":"default"}},
            "type":"kubernetes.io/tls","data":{{"tls.crt":"{}","tls.key":"{}"}}}}"#,
            b(crt),
            b(key)
        )
    }

    fn block(kind: &str) -> String {
        format!("-----BEGIN {kind}-----\nAAAA\n-----END {kind}-----\n")
    }

    #[test]
    fn tls_secret_pem_blocks() {
        let (cert, key, public) = (
            block("CERTIFICATE"),
            block("PRIVATE KEY"),
            block("PUBLIC KEY"),
        );
        let cases = [
            (key.clone(), cert.clone(), "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched".to_string()),
            ("x".into(), "y".into(), "tls: failed to find any PEM data in certificate input".into()),
            (public.clone() + &key, key.clone(), r#"tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PUBLIC KEY PRIVATE KEY]"#.into()),
            (cert.clone(), cert.clone(), "tls: found a certificate rather than a key in the PEM for the private key".into()),
            (cert.clone(), "zz".into(), "tls: failed to find any PEM data in key input".into()),
            (cert.clone(), public + &cert, r#"tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [PUBLIC KEY CERTIFICATE]"#.into()),
        ];
        for (crt, k, expected) in cases {
            assert_eq!(
                warnings(&tls(&crt, &k), None, 33),
                [format!("Warning: {expected}")]
            );
        }
        // Both blocks found: the certificate, then the key, are parsed and compared.
        assert_eq!(
            warnings(&tls(&cert, &block("EC PRIVATE KEY")), None, 36),
            ["Warning: x509: malformed certificate"]
        );
        let crt = include_str!("../x509/testdata/p256.crt");
        let own = include_str!("../x509/testdata/p256.key");
        let other = include_str!("../x509/testdata/p521.key");
        assert!(warnings(&tls(crt, own), None, 36).is_empty());
        assert_eq!(
            warnings(&tls(crt, other), None, 30),
            ["Warning: tls: private key does not match public key"]
        );
        assert_eq!(
            warnings(&tls(crt, &block("PRIVATE KEY")), None, 30),
            ["Warning: tls: failed to parse private key"]
        );
    }

    #[test]
    fn reserved_static_suffix_from_1_36() {
        let webhook = r#"{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
            "metadata":{"name":"a.static.k8s.io"}}"#;
        assert!(warnings(webhook, None, 35).is_empty());
        let expected = [
            r#"Warning: metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API"#,
        ];
        assert_eq!(warnings(webhook, None, 36), expected);
        assert_eq!(warnings(webhook, Some(webhook), 36), expected);
    }
}
