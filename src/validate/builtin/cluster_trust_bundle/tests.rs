//! ClusterTrustBundle rules on small bundles (a CA certificate and a leaf one made for these
//! tests with openssl, EC P-256, throwaway keys).

use super::super::tests::refusal_causes;

const CA: &str = "-----BEGIN CERTIFICATE-----\nMIIBfjCCASWgAwIBAgIUWY/5l2ExQeRlKypUDS4aFXh/wmswCgYIKoZIzj0EAwIw\nFTETMBEGA1UEAwwKZXhhbXBsZS1jYTAeFw0yNjExMjcwMjU2MzVaFw0zNjExMjQw\nMjU2MzVaMBUxEzARBgNVBAMMCmV4YW1wbGUtY2EwWTATBgcqhkjOPQIBBggqhkjO\nPQMBBwNCAAROuz9Rt0hRwUPZ3auDPYXqwPjg718SRwVcef98VPlsAhCD0HdIZRqV\nD4rX3rW7Jn4h0Wx+tDZ+vSdDQ/KgBKiwo1MwUTAdBgNVHQ4EFgQUC2CD2p7bTfqM\n+drHmMjPE8IzQzEwHwYDVR0jBBgwFoAUC2CD2p7bTfqM+drHmMjPE8IzQzEwDwYD\nVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBpj39pjikH9prdcAL+yekd\nX5kzDVVKI+mvp0LyxCYW5AIgFHUlSS8B54AV5apnxCrIi7+hODc6NMEppXJG3ulu\nTlQ=\n-----END CERTIFICATE-----";
const LEAF: &str = "-----BEGIN CERTIFICATE-----\nMIIBcDCCARagAwIBAgIUBnBbTZoz8ynyklk1V/JxgZCdamAwCgYIKoZIzj0EAwIw\nDzENMAsGA1UEAwwEbGVhZjAeFw0yNjExMjcwMjU2MzVaFw0zNjExMjQwMjU2MzVa\nMA8xDTALBgNVBAMMBGxlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS6lJZq\n6W9f1DsCuuoGae/Mpo3ZssQY5k4FuVeNSFrxxQ0wEg92BExZV7/m6uQhXv32Xj1n\n8KICHD4J5oWDZLURo1AwTjAdBgNVHQ4EFgQUxfUF2zRJNEOhQlDl5/KnHBAEiBMw\nHwYDVR0jBBgwFoAUxfUF2zRJNEOhQlDl5/KnHBAEiBMwDAYDVR0TAQH/BAIwADAK\nBggqhkjOPQQDAgNIADBFAiBNfV6blrXcaSS29EqgXZ3BTe3+2M3IQQldjyKvhe7k\nhQIhAIPbRQZ1/nD0vL50h5bHWJbYvtLIMOpGUBZW4WXmCfR8\n-----END CERTIFICATE-----";

fn bundle(name: &str, signer: &str, pem: &str) -> String {
    let signer = if signer.is_empty() {
        String::new()
    } else {
        format!(r#""signerName":"{signer}","#)
    };
    format!(
        r#"{{"apiVersion":"certificates.k8s.io/v1","kind":"ClusterTrustBundle",
          "metadata":{{"name":"{name}"}},"spec":{{{signer}"trustBundle":"{}"}}}}"#,
        pem.replace('\n', "\\n")
    )
}

#[test]
fn a_valid_bundle_passes() {
    let b = bundle("example.com:mysigner:foo", "example.com/mysigner", CA);
    assert!(refusal_causes(&b, None, 37).is_empty());
    assert!(refusal_causes(&b, Some(&b), 37).is_empty());
    assert!(refusal_causes(&bundle("foo", "", CA), None, 37).is_empty());
}

#[test]
fn names_carry_the_signer_prefix() {
    assert_eq!(
        refusal_causes(&bundle("foo", "example.com/mysigner", CA), None, 37),
        ["metadata.name: Invalid value: \"foo\": ClusterTrustBundle for signerName example.com/mysigner must be named with prefix example.com:mysigner:"]
    );
    assert_eq!(
        refusal_causes(&bundle("example.com:foo", "", CA), None, 37),
        ["metadata.name: Invalid value: \"example.com:foo\": ClusterTrustBundle without signer name must not have \":\" in its name"]
    );
    assert_eq!(
        refusal_causes(&bundle("example:foo", "example/foo", CA), None, 37)[1],
        "spec.signerName: Invalid value: \"example\": should be a domain with at least two segments separated by dots"
    );
}

#[test]
fn the_bundle_holds_distinct_ca_certificates() {
    let two = format!("{CA}\n{LEAF}\n");
    assert_eq!(
        refusal_causes(&bundle("foo", "", &two), None, 37),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": entry 1 does not have the CA bit set"]
    );
    let key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
    assert_eq!(
        refusal_causes(&bundle("foo", "", key), None, 37),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": entry 0 has bad block type: PRIVATE KEY"]
    );
    let junk = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    assert_eq!(
        refusal_causes(&bundle("foo", "", junk), None, 37),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": entry 0 does not parse as X.509"]
    );
    assert_eq!(
        refusal_causes(&bundle("foo", "", "not pem"), None, 37),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": at least one trust anchor must be provided"]
    );
    let twice = format!("{CA}\n{CA}\n");
    assert_eq!(
        refusal_causes(&bundle("foo", "", &twice), None, 37),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": duplicate trust anchor (indices [0 1])"]
    );
}

#[test]
fn updates_keep_the_signer_and_parse_only_a_changed_bundle() {
    let old = bundle("example.com:mysigner:foo", "example.com/mysigner", LEAF);
    // The stored bundle is not parsed again when the write leaves it alone.
    assert!(refusal_causes(&old, Some(&old), 37).is_empty());
    let moved = bundle("example.com:mysigner:foo", "example.com/other", LEAF);
    assert_eq!(
        refusal_causes(&moved, Some(&old), 37),
        [
            "metadata.name: Invalid value: \"example.com:mysigner:foo\": ClusterTrustBundle for signerName example.com/other must be named with prefix example.com:other:",
            "spec.signerName: Invalid value: \"example.com/other\": field is immutable",
        ]
    );
}
