//! crypto/tls `X509KeyPair` past its PEM stage: the first certificate parsed
//! (`x509.ParseCertificate`), the private key parsed (tls.go `parsePrivateKey`: PKCS #1, then
//! PKCS #8, then SEC 1), and the certificate's public key compared with the private key's,
//! each with Go's error text.

use super::curves::{curve_for, ed25519_public};
use super::der::{self, context, Der};
use super::{parse_certificate, PublicKey, ED25519, RSA, X25519};
use crate::kube::KubeVersion;
use num_bigint::BigUint;

const EC_PUBLIC_KEY: &[u64] = &[1, 2, 840, 10045, 2, 1];

/// A parsed private key, as far as it is compared with a public key.
enum PrivateKey {
    Rsa {
        n: BigUint,
    },
    Ecdsa {
        x: BigUint,
        y: BigUint,
    },
    Ed25519([u8; 32]),
    /// A key `parsePrivateKey` finds in a PKCS #8 wrapping but does not accept (X25519).
    Unknown,
}

/// The error `X509KeyPair` returns for a certificate and a key block it found, if any.
pub fn key_pair_error(cert: &[u8], key: &[u8], version: KubeVersion) -> Option<String> {
    let certificate = match parse_certificate(cert, version) {
        Ok(c) => c,
        Err(error) => return Some(error),
    };
    let private = match parse_private_key(key) {
        Some(PrivateKey::Unknown) => {
            return Some("tls: found unknown private key type in PKCS#8 wrapping".into())
        }
        Some(key) => key,
        None => return Some("tls: failed to parse private key".into()),
    };
    let matches = match (&certificate.public_key, &private) {
        (PublicKey::Rsa { n }, PrivateKey::Rsa { n: private }) => n == private,
        (PublicKey::Ecdsa { x, y }, PrivateKey::Ecdsa { x: px, y: py }) => x == px && y == py,
        (PublicKey::Ed25519(public), PrivateKey::Ed25519(private)) => public == private,
        (PublicKey::Other, _) => return Some("tls: unknown public key algorithm".into()),
        _ => {
            return Some("tls: private key type does not match public key type".into());
        }
    };
    (!matches).then(|| "tls: private key does not match public key".into())
}

/// tls.go `parsePrivateKey`: the first of the three forms that parses.
fn parse_private_key(der: &[u8]) -> Option<PrivateKey> {
    pkcs1(der)
        .or_else(|| pkcs8(der))
        .or_else(|| sec1(der, None))
}

fn unsigned(bytes: &[u8]) -> Option<BigUint> {
    (bytes[0] & 0x80 == 0).then(|| BigUint::from_bytes_be(bytes))
}

/// `x509.ParsePKCS1PrivateKey`: the RSAPrivateKey SEQUENCE, nothing after it, version 0 or
/// 1, positive values, and `rsa.PrivateKey.Validate` (e ≥ 2, n the product of the primes,
/// d·e ≡ 1 modulo each prime less one).
fn pkcs1(input: &[u8]) -> Option<PrivateKey> {
    let mut outer = Der(input);
    let mut seq = Der(outer.read(der::SEQUENCE)?);
    if !outer.is_empty() || !matches!(seq.small_integer()?, 0 | 1) {
        return None;
    }
    let n = unsigned(seq.integer()?)?;
    let e = seq.small_integer()?;
    let mut values = Vec::new();
    for _ in 0..6 {
        values.push(unsigned(seq.integer()?)?);
    }
    let (d, mut primes) = (
        values[0].clone(),
        vec![values[1].clone(), values[2].clone()],
    );
    if let Some(additional) = seq.optional(der::SEQUENCE)? {
        let mut list = Der(additional);
        while !list.is_empty() {
            let mut prime = Der(list.read(der::SEQUENCE)?);
            primes.push(unsigned(prime.integer()?)?);
        }
    }
    let one = BigUint::from(1u32);
    if !(2..=i64::from(i32::MAX)).contains(&e) || n == BigUint::ZERO || d == BigUint::ZERO {
        return None;
    }
    let e = BigUint::from(e as u64);
    let product = primes.iter().fold(one.clone(), |acc, p| acc * p);
    let consistent = product == n
        && primes
            .iter()
            .all(|p| *p > one && (&d * &e) % (p - &one) == one);
    consistent.then_some(PrivateKey::Rsa { n })
}

/// `x509.ParsePKCS8PrivateKey`: an RSA, EC or Ed25519 key in a PrivateKeyInfo; X25519
/// parses but is not a key `X509KeyPair` takes.
fn pkcs8(input: &[u8]) -> Option<PrivateKey> {
    let mut seq = Der(Der(input).read(der::SEQUENCE)?);
    seq.small_integer()?;
    let mut algorithm = Der(seq.read(der::SEQUENCE)?);
    let oid = algorithm.oid()?;
    let params = if algorithm.is_empty() {
        &[][..]
    } else {
        algorithm.any_element()?.1
    };
    let key = seq.read(der::OCTET_STRING)?;
    match oid.as_slice() {
        RSA => pkcs1(key),
        EC_PUBLIC_KEY => sec1(key, Der(params).oid()),
        ED25519 | X25519 => {
            let seed = Der(key).read(der::OCTET_STRING)?;
            if !params.is_empty() || seed.len() != 32 {
                return None;
            }
            Some(if oid.as_slice() == X25519 {
                PrivateKey::Unknown
            } else {
                PrivateKey::Ed25519(ed25519_public(seed))
            })
        }
        _ => None,
    }
}

/// `x509.parseECPrivateKey`: an ECPrivateKey of version 1 on the curve the wrapping names, or
/// else its own; a scalar below the order, leading zero octets beyond the field size
/// dropped; the public point computed from it (an embedded one is not read).
fn sec1(input: &[u8], wrapping_curve: Option<Vec<u64>>) -> Option<PrivateKey> {
    let mut seq = Der(Der(input).read(der::SEQUENCE)?);
    if seq.small_integer()? != 1 {
        return None;
    }
    let mut scalar = seq.read(der::OCTET_STRING)?;
    let own_curve = match seq.optional(context(0, true))? {
        Some(inner) => Some(Der(inner).oid()?),
        None => None,
    };
    let curve = curve_for(&wrapping_curve.or(own_curve)?)?;
    let k = BigUint::from_bytes_be(scalar);
    if k >= curve.order() {
        return None;
    }
    let size = curve.order().bits().div_ceil(8) as usize;
    while scalar.len() > size {
        if scalar[0] != 0 {
            return None;
        }
        scalar = &scalar[1..];
    }
    let (x, y) = curve.scalar_base_mult(&k)?;
    Some(PrivateKey::Ecdsa { x, y })
}
