//! Go's `crypto/x509.ParseCertificate` (crypto/x509/parser.go `parseCertificate`), as far as
//! the server's checks need it: the ClusterTrustBundle rules (does it parse, is it a CA) and
//! the `kubernetes.io/tls` Secret warning (crypto/tls `X509KeyPair`: the public key, compared
//! with the private key's). The envelope, version, serial number, algorithm identifiers,
//! names, validity, public key and extension list are read with Go's errors, in Go's order;
//! of the extensions' contents only basicConstraints is parsed (Go also refuses malformed
//! key usages, alternative names, name constraints, policies…).

pub mod curves;
mod der;
pub mod keys;
mod names;

use self::der::{context, dotted, Der};
use crate::kube::{KubeVersion, VersionRange};
use num_bigint::BigUint;

/// Go 1.23 (Kubernetes 1.32) refuses negative serial numbers (GODEBUG `x509negativeserial`)
/// and names the OID of a duplicate extension.
const GO_1_23: VersionRange = VersionRange::since(32);

const RSA: &[u64] = &[1, 2, 840, 113549, 1, 1, 1];
const DSA: &[u64] = &[1, 2, 840, 10040, 4, 1];
const ECDSA: &[u64] = &[1, 2, 840, 10045, 2, 1];
const ED25519: &[u64] = &[1, 3, 101, 112];
const X25519: &[u64] = &[1, 3, 101, 110];
const BASIC_CONSTRAINTS: &[u64] = &[2, 5, 29, 19];

/// A certificate's public key, as far as `X509KeyPair` compares it.
#[derive(Debug, PartialEq)]
pub enum PublicKey {
    Rsa {
        n: BigUint,
    },
    Ecdsa {
        x: BigUint,
        y: BigUint,
    },
    Ed25519(Vec<u8>),
    /// DSA, X25519 or an algorithm Go does not know.
    Other,
}

/// What kssa reads of a parsed certificate.
#[derive(Debug)]
pub struct Certificate {
    pub public_key: PublicKey,
    /// basicConstraints' `cA` flag (`Certificate.IsCA`).
    pub is_ca: bool,
}

type Parsed<T> = Result<T, String>;

fn fail<T>(message: &str) -> Parsed<T> {
    Err(message.to_string())
}

/// `x509.ParseCertificate`: the certificate, or Go's error text.
pub fn parse_certificate(der: &[u8], version: KubeVersion) -> Parsed<Certificate> {
    // Go reads each SEQUENCE whole first (to keep its raw bytes), then its contents: the same
    // success as reading the contents at once.
    let mut outer = Der(der);
    let mut input = Der(outer
        .read(der::SEQUENCE)
        .ok_or("x509: malformed certificate")?);
    let trailing = !outer.is_empty();
    let tbs = input
        .read(der::SEQUENCE)
        .ok_or("x509: malformed tbs certificate")?;
    let mut tbs = Der(tbs);
    let cert_version = match tbs.optional(context(0, true)) {
        None => return fail("x509: malformed version"),
        Some(None) => 0,
        Some(Some(inner)) => {
            let mut inner = Der(inner);
            match inner.small_integer() {
                Some(v) if inner.is_empty() && v >= 0 => v,
                _ => return fail("x509: malformed version"),
            }
        }
    } + 1;
    if cert_version > 3 {
        return fail("x509: invalid version");
    }
    let serial = tbs.integer().ok_or("x509: malformed serial number")?;
    if serial[0] & 0x80 != 0 && GO_1_23.contains(version) {
        return fail("x509: negative serial number");
    }
    let signature_ai = tbs
        .read(der::SEQUENCE)
        .ok_or("x509: malformed signature algorithm identifier")?;
    let outer_ai = input
        .read(der::SEQUENCE)
        .ok_or("x509: malformed algorithm identifier")?;
    if outer_ai != signature_ai {
        return fail("x509: inner and outer signature algorithm identifiers don't match");
    }
    algorithm_identifier(signature_ai)?;
    let issuer = tbs
        .read_element(der::SEQUENCE)
        .ok_or("x509: malformed issuer")?;
    names::parse_name(issuer)?;
    let validity = tbs.read(der::SEQUENCE).ok_or("x509: malformed validity")?;
    names::parse_validity(validity)?;
    // Go's message for the subject says "issuer" too.
    let subject = tbs
        .read_element(der::SEQUENCE)
        .ok_or("x509: malformed issuer")?;
    names::parse_name(subject)?;
    let public_key = subject_public_key(&mut tbs)?;
    let mut is_ca = false;
    if cert_version > 1 {
        skip_optional(
            &mut tbs,
            context(1, false),
            "x509: malformed issuerUniqueID",
        )?;
        skip_optional(
            &mut tbs,
            context(2, false),
            "x509: malformed subjectUniqueID",
        )?;
        if cert_version == 3 {
            is_ca = extensions(&mut tbs, version)?;
        }
    }
    input.bit_string().ok_or("x509: malformed signature")?;
    if trailing {
        return fail("x509: trailing data");
    }
    Ok(Certificate { public_key, is_ca })
}

fn skip_optional(tbs: &mut Der, tag: u8, message: &str) -> Parsed<()> {
    match tbs.optional(tag) {
        Some(_) => Ok(()),
        None => fail(message),
    }
}

/// `parseAI`: the algorithm OID and the parameters' whole element (empty when absent).
fn algorithm_identifier(ai: &[u8]) -> Parsed<(Vec<u64>, &[u8])> {
    let mut ai = Der(ai);
    let oid = ai.oid().ok_or("x509: malformed OID")?;
    if ai.is_empty() {
        return Ok((oid, &[]));
    }
    let (_, params) = ai.any_element().ok_or("x509: malformed parameters")?;
    Ok((oid, params))
}

/// The subjectPublicKeyInfo and `parsePublicKey`.
fn subject_public_key(tbs: &mut Der) -> Parsed<PublicKey> {
    let mut spki = Der(tbs.read(der::SEQUENCE).ok_or("x509: malformed spki")?);
    let ai = spki
        .read(der::SEQUENCE)
        .ok_or("x509: malformed public key algorithm identifier")?;
    let (oid, params) = algorithm_identifier(ai)?;
    let key = spki
        .bit_string()
        .ok_or("x509: malformed subjectPublicKey")?;
    match oid.as_slice() {
        RSA => {
            if params != [der::NULL, 0] {
                return fail("x509: RSA key missing NULL parameters");
            }
            let mut seq = Der(Der(&key)
                .read(der::SEQUENCE)
                .ok_or("x509: invalid RSA public key")?);
            let n = seq.integer().ok_or("x509: invalid RSA modulus")?;
            let e = seq
                .small_integer()
                .ok_or("x509: invalid RSA public exponent")?;
            if n[0] & 0x80 != 0 || n.iter().all(|b| *b == 0) {
                return fail("x509: RSA modulus is not a positive number");
            }
            if e <= 0 {
                return fail("x509: RSA public exponent is not a positive number");
            }
            Ok(PublicKey::Rsa {
                n: BigUint::from_bytes_be(n),
            })
        }
        ECDSA => {
            let curve = Der(params).oid().ok_or("x509: invalid ECDSA parameters")?;
            let curve = curves::curve_for(&curve).ok_or("x509: unsupported elliptic curve")?;
            let len = curve.byte_len();
            // `elliptic.Unmarshal`: the uncompressed form, on the curve.
            if key.len() != 1 + 2 * len || key[0] != 4 {
                return fail("x509: failed to unmarshal elliptic curve point");
            }
            let x = BigUint::from_bytes_be(&key[1..=len]);
            let y = BigUint::from_bytes_be(&key[1 + len..]);
            if !curve.contains(&x, &y) {
                return fail("x509: failed to unmarshal elliptic curve point");
            }
            Ok(PublicKey::Ecdsa { x, y })
        }
        ED25519 => {
            if !params.is_empty() {
                return fail("x509: Ed25519 key encoded with illegal parameters");
            }
            if key.len() != 32 {
                return fail("x509: wrong Ed25519 public key size");
            }
            Ok(PublicKey::Ed25519(key))
        }
        X25519 => {
            if !params.is_empty() {
                return fail("x509: X25519 key encoded with illegal parameters");
            }
            if key.len() != 32 {
                return fail("crypto/ecdh: invalid public key");
            }
            Ok(PublicKey::Other)
        }
        DSA => {
            if Der(&key).integer().is_none() {
                return fail("x509: invalid DSA public key");
            }
            let mut params = Der(params);
            let seq = params.read(der::SEQUENCE);
            let mut seq = Der(seq.unwrap_or_default());
            let parts = [seq.integer(), seq.integer(), seq.integer()];
            if parts.iter().any(Option::is_none) {
                return fail("x509: invalid DSA parameters");
            }
            let y = Der(&key).integer().unwrap_or_default();
            let positive = |b: &[u8]| b[0] & 0x80 == 0 && b.iter().any(|x| *x != 0);
            if !positive(y) || !parts.iter().flatten().all(|b| positive(b)) {
                return fail("x509: zero or negative DSA parameter");
            }
            Ok(PublicKey::Other)
        }
        _ => Ok(PublicKey::Other),
    }
}

/// The extensions' list (version 3 only): each read with `parseExtension`, no OID twice, and
/// basicConstraints parsed (`parseBasicConstraintsExtension`); whether it marks a CA.
fn extensions(tbs: &mut Der, version: KubeVersion) -> Parsed<bool> {
    let Some(list) = tbs
        .optional(context(3, true))
        .ok_or("x509: malformed extensions")?
    else {
        return Ok(false);
    };
    let mut list = Der(Der(list)
        .read(der::SEQUENCE)
        .ok_or("x509: malformed extensions")?);
    let mut seen: Vec<(Vec<u64>, &[u8])> = Vec::new();
    while !list.is_empty() {
        let mut ext = Der(list
            .read(der::SEQUENCE)
            .ok_or("x509: malformed extension")?);
        let oid = ext.oid().ok_or("x509: malformed extension OID field")?;
        if ext.peek_tag() == Some(der::BOOLEAN) && ext.boolean().is_none() {
            return fail("x509: malformed extension critical field");
        }
        let value = ext
            .read(der::OCTET_STRING)
            .ok_or("x509: malformed extension value field")?;
        if seen.iter().any(|(seen, _)| *seen == oid) {
            return Err(if GO_1_23.contains(version) {
                format!(
                    "x509: certificate contains duplicate extension with OID \"{}\"",
                    dotted(&oid)
                )
            } else {
                "x509: certificate contains duplicate extensions".into()
            });
        }
        seen.push((oid, value));
    }
    // `processExtensions` runs once every extension is read.
    match seen.iter().find(|(oid, _)| oid == BASIC_CONSTRAINTS) {
        Some((_, value)) => {
            basic_constraints(value).ok_or_else(|| "x509: invalid basic constraints".to_string())
        }
        None => Ok(false),
    }
}

/// `parseBasicConstraintsExtension`: a SEQUENCE of an optional `cA` BOOLEAN and an optional
/// non-negative path length.
fn basic_constraints(value: &[u8]) -> Option<bool> {
    let mut seq = Der(Der(value).read(der::SEQUENCE)?);
    let is_ca = if seq.peek_tag() == Some(der::BOOLEAN) {
        seq.boolean()?
    } else {
        false
    };
    if seq.peek_tag() == Some(der::INTEGER) {
        let len = seq.integer()?;
        // A `uint` no greater than `math.MaxInt`.
        if len[0] & 0x80 != 0 || len.len() > 8 {
            return None;
        }
    }
    Some(is_ca)
}

#[cfg(test)]
mod tests;
