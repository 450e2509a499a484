//! CertificateSigningRequests, as k8s.io/kubernetes pkg/apis/certificates/validation checks them
//! on create (`ValidateCertificateSigningRequestCreate`: the PEM request, usages, signer name,
//! expiration), with Go's `encoding/pem` block decoding for the request. On update the strategy
//! (pkg/registry/certificates/certificates/strategy.go `PrepareForUpdate`) puts back the stored
//! spec and status, so only the metadata rules apply; `status` is cleared on create.

use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::trust_bundle::signer_name;
use crate::validate::field::indexed;
use crate::value::Value;
use base64::Engine;
use std::collections::HashSet;

/// `allValidUsages` (certificates.KeyUsage constants).
const USAGES: &[&str] = &[
    "signing",
    "digital signature",
    "content commitment",
    "key encipherment",
    "key agreement",
    "data encipherment",
    "cert sign",
    "crl sign",
    "encipher only",
    "decipher only",
    "any",
    "server auth",
    "client auth",
    "code signing",
    "email protection",
    "s/mime",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "timestamping",
    "ocsp signing",
    "microsoft sgc",
    "netscape sgc",
];

/// `certificates.LegacyUnknownSignerName`, refused in certificates.k8s.io/v1.
const LEGACY_UNKNOWN_SIGNER: &str = "kubernetes.io/legacy-unknown";
/// The least `expirationSeconds` (ten minutes).
const MIN_EXPIRATION: i64 = 600;

/// The bytes of a `[]byte` field as Go's `base64.StdEncoding` decodes it (line breaks skipped);
/// `None` when it is not base64 (the decoding stage refuses that earlier).
pub(super) fn decode_bytes(text: &str) -> Option<Vec<u8>> {
    let compact: String = text.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .ok()
}

/// The CSR strategy's `Validate` (create); nothing beyond metadata on update.
pub fn certificate_signing_request(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    if w.is_update() {
        return;
    }
    // `ValidateCertificateRequestName` accepts any name; the generic store checks it as a path
    // segment (`rest.BeforeCreate`) only once the strategy's validation passed.
    let is_name = |e: &FieldError| e.field == "metadata.name" || e.field == "metadata.generateName";
    let name_errors: Vec<FieldError> = errors.iter().filter(|e| is_name(e)).cloned().collect();
    errors.retain(|e| !is_name(e));
    request_rules(w, object, errors);
    if errors.is_empty() {
        *errors = name_errors;
    }
}

fn request_rules(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let request = present(spec, "request").and_then(Value::as_str);
    let bytes = request.and_then(decode_bytes);
    if let Some(err) = csr_error(bytes.as_deref().unwrap_or(&[])) {
        errors.push(FieldError::invalid(
            "spec.request",
            bytes_value(request, bytes.as_deref()),
            err,
        ));
    }
    let usages = items(spec.get("usages"));
    if usages.is_empty() {
        errors.push(FieldError::required("spec.usages", ""));
    }
    let mut supported = USAGES.to_vec();
    supported.sort_unstable();
    for (i, usage) in usages.iter().enumerate() {
        let usage = usage.as_str().unwrap_or("");
        if !USAGES.contains(&usage) {
            errors.push(FieldError::not_supported(
                indexed("spec.usages", i),
                FieldError::string_value(usage),
                &supported,
            ));
        }
    }
    let mut seen = HashSet::new();
    for (i, usage) in usages.iter().enumerate() {
        let usage = usage.as_str().unwrap_or("");
        if !seen.insert(usage) {
            errors.push(FieldError::duplicate(
                indexed("spec.usages", i),
                FieldError::string_value(usage),
            ));
        }
    }
    let signer = text(spec, "signerName");
    if signer == LEGACY_UNKNOWN_SIGNER {
        errors.push(FieldError::invalid(
            "spec.signerName",
            FieldError::string_value(signer),
            "the legacy signerName is not allowed via this API version",
        ));
    } else {
        signer_name(signer, "spec.signerName", w.version(), errors);
    }
    if let Some(seconds) = present(spec, "expirationSeconds").and_then(Value::as_i64) {
        if seconds < MIN_EXPIRATION {
            errors.push(FieldError::invalid(
                "spec.expirationSeconds",
                BadValue::Value(Value::Int(seconds)),
                "may not specify a duration less than 600 seconds (10 minutes)",
            ));
        }
    }
}

/// `validateCSR` as far as kssa follows it: `certificates.ParseCSR` needs a first PEM block of
/// type `CERTIFICATE REQUEST`. The DER inside and its signature are not checked.
fn csr_error(data: &[u8]) -> Option<&'static str> {
    match pem_decode(data) {
        Some(block) if block.kind == b"CERTIFICATE REQUEST" => None,
        _ => Some("PEM block type must be CERTIFICATE REQUEST"),
    }
}

/// A `[]byte` bad value: Go's `%#v` (`[]byte{0x2d, …}`) before 1.34, its JSON (base64) after.
pub(super) fn bytes_value(text: Option<&str>, bytes: Option<&[u8]>) -> BadValue {
    let (value, go_syntax) = match (text, bytes) {
        (None, _) | (_, None) => (Value::Null, "[]byte(nil)".to_string()),
        (Some(_), Some(b)) => {
            let hex: Vec<String> = b.iter().map(|x| format!("0x{x:x}")).collect();
            (
                Value::from(base64::engine::general_purpose::STANDARD.encode(b).as_str()),
                format!("[]byte{{{}}}", hex.join(", ")),
            )
        }
    };
    BadValue::GoValue { value, go_syntax }
}

/// One decoded PEM block: its type, how many headers it has, its bytes, and the input after
/// it (for the next `pem.Decode`).
pub(super) struct PemBlock<'a> {
    pub kind: &'a [u8],
    pub headers: usize,
    pub bytes: Vec<u8>,
    pub rest: &'a [u8],
}

const PEM_START: &[u8] = b"\n-----BEGIN ";
const PEM_END: &[u8] = b"\n-----END ";
const PEM_END_OF_LINE: &[u8] = b"-----";

/// Go's `pem.Decode`: the first well-formed block (a `BEGIN` line, optional headers, base64
/// data, the matching `END` line); a malformed candidate is skipped for the next `BEGIN`.
pub(super) fn pem_decode(data: &[u8]) -> Option<PemBlock<'_>> {
    let mut rest = data;
    loop {
        if rest.starts_with(&PEM_START[1..]) {
            rest = &rest[PEM_START.len() - 1..];
        } else {
            let i = find(rest, PEM_START)?;
            rest = &rest[i + PEM_START.len()..];
        }
        let (type_line, after) = get_line(rest);
        rest = after;
        let Some(kind) = type_line.strip_suffix(PEM_END_OF_LINE) else {
            continue;
        };
        let mut headers = 0;
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next) = get_line(rest);
            if !line.contains(&b':') {
                break;
            }
            headers += 1;
            rest = next;
        }
        let (end, trailer) = if headers == 0 && rest.starts_with(&PEM_END[1..]) {
            (0, PEM_END.len() - 1)
        } else {
            match find(rest, PEM_END) {
                Some(i) => (i, i + PEM_END.len()),
                None => continue,
            }
        };
        let trailer_len = kind.len() + PEM_END_OF_LINE.len();
        let end_trailer = &rest[trailer..];
        if end_trailer.len() < trailer_len {
            continue;
        }
        let (end_line, rest_of_line) = end_trailer.split_at(trailer_len);
        if !end_line.starts_with(kind) || !end_line.ends_with(PEM_END_OF_LINE) {
            continue;
        }
        if !get_line(rest_of_line).0.is_empty() {
            continue;
        }
        let body: Vec<u8> = rest[..end]
            .iter()
            .copied()
            .filter(|c| *c != b' ' && *c != b'\t')
            .collect();
        let body = String::from_utf8_lossy(&body);
        let Some(bytes) = decode_bytes(&body) else {
            continue;
        };
        // `rest` after the END line: `getLine` of what follows the trailer.
        let after = get_line(rest_of_line).1;
        return Some(PemBlock {
            kind,
            headers,
            bytes,
            rest: after,
        });
    }
}

/// Go's `getLine`: up to the next `\n`, trailing spaces, tabs and `\r` cut; and what follows.
fn get_line(data: &[u8]) -> (&[u8], &[u8]) {
    let (line, rest) = match data.iter().position(|c| *c == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[data.len()..]),
    };
    let trimmed = line.len()
        - line
            .iter()
            .rev()
            .take_while(|c| matches!(c, b' ' | b'\t' | b'\r'))
            .count();
    (&line[..trimmed], rest)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The supported usages as `field.NotSupported` lists them (sorted), for tests and docs.
#[cfg(test)]
fn quoted_usages() -> String {
    let mut supported = USAGES.to_vec();
    supported.sort_unstable();
    supported
        .iter()
        .map(|u| super::super::goprint::go_quote(u))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};
    use super::*;

    /// An EC P-256 request for `CN=myuser` made with openssl.
    const REQUEST: &str = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITU1ITUNBUUF3RVRFUE1BMEdBMVVFQXd3R2JYbDFjMlZ5TUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowRApBUWNEUWdBRUJHSDZKMGt4VThyamZlOXZWN29PYzMwb3VUc3RVOFh5QUdQaFVQczFKTldEREpGY2NjbmlEUTVqClhid2NvK2Y0czhleTJiVUxLNEpncmtDN2NsZWZjcUFBTUFvR0NDcUdTTTQ5QkFNQ0Ewa0FNRVlDSVFEQ21ab0IKN2xjdDZ5SHBDZEdVQzNIUXY4WjFWOWowVkg4QjRWdWp6dmxGSmdJaEFQdnBnQ3p3NEZWL29oaTZybVlKbkZXdApUaW90SXpEWW1KNituNEtYY1hyUQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K";

    fn csr(request: &str, extra: &str) -> String {
        format!(
            r#"{{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest",
              "metadata":{{"name":"myuser"}},
              "spec":{{"request":"{request}","signerName":"kubernetes.io/kube-apiserver-client",
                "usages":["client auth"]{extra}}}}}"#
        )
    }

    #[test]
    fn a_valid_request_passes() {
        assert_eq!(refusal(&csr(REQUEST, ""), None, 37), None);
        assert_eq!(
            refusal(&csr(REQUEST, r#","expirationSeconds":86400"#), None, 30),
            None
        );
    }

    #[test]
    fn the_request_must_be_a_pem_csr() {
        let hello = csr("aGVsbG9YWAo=", "");
        assert_eq!(
            refusal(&hello, None, 37).unwrap(),
            "The CertificateSigningRequest \"myuser\" is invalid: spec.request: Invalid value: \"aGVsbG9YWAo=\": PEM block type must be CERTIFICATE REQUEST"
        );
        assert_eq!(
            refusal(&hello, None, 33).unwrap(),
            "The CertificateSigningRequest \"myuser\" is invalid: spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x58, 0x58, 0xa}: PEM block type must be CERTIFICATE REQUEST"
        );
        // A certificate is a PEM block of another type.
        let cert = base64::engine::general_purpose::STANDARD
            .encode("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assert!(refusal(&csr(&cert, ""), None, 37).is_some());
        // Text before the block and a malformed first block are skipped.
        let later = base64::engine::general_purpose::STANDARD.encode(
            "junk\n-----BEGIN X\n-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----",
        );
        assert_eq!(refusal(&csr(&later, ""), None, 37), None);
        // Updates keep the stored spec.
        assert_eq!(refusal(&hello, Some(&hello), 37), None);
    }

    #[test]
    fn usages_signer_and_expiration() {
        let bad = csr(REQUEST, r#","expirationSeconds":60"#)
            .replace(
                r#"["client auth"]"#,
                r#"["client auth","Client Auth","client auth"]"#,
            )
            .replace(
                "kubernetes.io/kube-apiserver-client",
                "kubernetes.io/legacy-unknown",
            );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                format!("spec.usages[1]: Unsupported value: \"Client Auth\": supported values: {}", quoted_usages()),
                "spec.usages[2]: Duplicate value: \"client auth\"".to_string(),
                "spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not allowed via this API version".to_string(),
                "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)".to_string(),
            ]
        );
        let none = csr(REQUEST, "")
            .replace(r#"["client auth"]"#, "[]")
            .replace(r#""signerName":"kubernetes.io/kube-apiserver-client","#, "");
        assert_eq!(
            refusal_causes(&none, None, 37),
            [
                "spec.usages: Required value",
                "spec.signerName: Required value"
            ]
        );
    }

    #[test]
    fn usages_are_listed_sorted() {
        assert!(quoted_usages().starts_with("\"any\", \"cert sign\", \"client auth\""));
        assert!(quoted_usages().ends_with("\"signing\", \"timestamping\""));
    }
}
