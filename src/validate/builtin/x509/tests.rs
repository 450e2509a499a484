//! Certificates and keys made for these tests with openssl (throwaway keys): RSA 1024 in
//! PKCS #1 and PKCS #8, EC P-224, P-256 and P-521 in SEC 1, P-384 in PKCS #8, Ed25519, and an
//! X25519 key.

use super::super::certificates::pem_decode;
use super::keys::key_pair_error;
use super::{parse_certificate, PublicKey};
use crate::kube::KubeVersion;

fn der(pem: &str) -> Vec<u8> {
    pem_decode(pem.as_bytes()).expect("a PEM block").bytes
}

fn v(minor: u8) -> KubeVersion {
    KubeVersion::new(minor).expect("embedded")
}

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("testdata/", $name))
    };
}

const PAIRS: &[(&str, &str)] = &[
    (fixture!("rsa.crt"), fixture!("rsa.key")),
    (fixture!("p224.crt"), fixture!("p224.key")),
    (fixture!("p256.crt"), fixture!("p256.key")),
    (fixture!("p384-pkcs8.crt"), fixture!("p384-pkcs8.key")),
    (fixture!("p521.crt"), fixture!("p521.key")),
    (fixture!("ed25519.crt"), fixture!("ed25519.key")),
];

#[test]
fn each_key_matches_its_certificate_only() {
    for (i, (crt, _)) in PAIRS.iter().enumerate() {
        for (j, (_, key)) in PAIRS.iter().enumerate() {
            let error = key_pair_error(&der(crt), &der(key), v(36));
            let expected = match (i, j) {
                _ if i == j => None,
                // Two EC keys, or two RSA keys: the same type, another key.
                (1..=4, 1..=4) => Some("tls: private key does not match public key"),
                _ => Some("tls: private key type does not match public key type"),
            };
            assert_eq!(error.as_deref(), expected, "certificate {i}, key {j}");
        }
    }
    let rsa_crt = der(PAIRS[0].0);
    assert_eq!(
        key_pair_error(&rsa_crt, &der(fixture!("rsa-pkcs8.key")), v(36)).as_deref(),
        Some("tls: private key does not match public key")
    );
    assert_eq!(
        key_pair_error(&rsa_crt, &der(fixture!("x25519.key")), v(36)).as_deref(),
        Some("tls: found unknown private key type in PKCS#8 wrapping")
    );
    assert_eq!(
        key_pair_error(&rsa_crt, b"not a key", v(36)).as_deref(),
        Some("tls: failed to parse private key")
    );
}

#[test]
fn certificates_parse_with_their_keys() {
    for (crt, _) in PAIRS {
        let cert = parse_certificate(&der(crt), v(36)).expect("parses");
        assert_ne!(cert.public_key, PublicKey::Other);
        // openssl's self-signed certificates carry `CA:TRUE`.
        assert!(cert.is_ca);
    }
}

#[test]
fn malformed_certificates_get_go_errors() {
    let good = der(PAIRS[2].0);
    let parse = |bytes: &[u8], minor| parse_certificate(bytes, v(minor)).unwrap_err();
    assert_eq!(
        parse(&good[..good.len() - 1], 36),
        "x509: malformed certificate"
    );
    let mut trailing = good.clone();
    trailing.push(0);
    assert_eq!(parse(&trailing, 36), "x509: trailing data");
    // The outer signature algorithm (the last SEQUENCE before the signature) changed.
    let mut outer = good.clone();
    let at = outer
        .windows(10)
        .rposition(|w| w == [0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04])
        .expect("ecdsa-with-SHA256");
    outer[at + 11] ^= 1;
    assert_eq!(
        parse(&outer, 36),
        "x509: inner and outer signature algorithm identifiers don't match"
    );
    // The public point moved off the curve.
    let mut point = good.clone();
    let at = point
        .windows(3)
        .position(|w| w == [0x03, 0x42, 0x00])
        .expect("the subjectPublicKey BIT STRING");
    point[at + 40] ^= 1;
    assert_eq!(
        parse(&point, 36),
        "x509: failed to unmarshal elliptic curve point"
    );
}

/// Flipped bytes and cut ends never make the parsers panic (a deterministic sweep: every
/// fixture, each byte position with a few values, and every length).
#[test]
fn damaged_input_is_an_error_not_a_panic() {
    let mut ders: Vec<Vec<u8>> = PAIRS
        .iter()
        .flat_map(|(crt, key)| [der(crt), der(key)])
        .collect();
    ders.push(der(fixture!("x25519.key")));
    ders.push(der(fixture!("rsa-pkcs8.key")));
    let cert = der(PAIRS[2].0);
    for input in &ders {
        for cut in 0..input.len() {
            let _ = parse_certificate(&input[..cut], v(36));
            let _ = key_pair_error(&cert, &input[..cut], v(36));
        }
        for at in 0..input.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut damaged = input.clone();
                damaged[at] ^= flip;
                let _ = parse_certificate(&damaged, v(30));
                let _ = key_pair_error(&damaged, &damaged, v(36));
            }
        }
    }
}
