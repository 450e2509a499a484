//! The string formats of k8s.io/apimachinery/pkg/util/validation (and, from 1.35, its
//! `api/validate/content` package): DNS-1123 labels and subdomains, DNS-1035 labels, label
//! keys ("qualified names") and values, port names, path segments. Each returns the server's
//! messages, none when the value is valid.

use crate::kube::{KubeVersion, VersionRange};

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

pub const DNS1123_LABEL_MAX: usize = 63;
pub const DNS1123_SUBDOMAIN_MAX: usize = 253;
const LABEL_KEY_NAME_MAX: usize = 63;
const LABEL_VALUE_MAX: usize = 63;

/// Label keys and values moved to apimachinery's `content` package in 1.35, whose length
/// message counts bytes and whose malformed-key message names a "label key".
const LABEL_CONTENT_PACKAGE: VersionRange = VersionRange::since(35);

/// `MaxLenError` of util/validation.
fn max_len_characters(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// The length message label keys and values get in `version`.
fn label_max_len(n: usize, version: KubeVersion) -> String {
    if LABEL_CONTENT_PACKAGE.contains(version) {
        format!("must be no more than {n} bytes")
    } else {
        max_len_characters(n)
    }
}

/// `RegexError`: the message, examples, and the regular expression.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    // Each example is followed by "', " and joined by " or ": the server's double space.
    let shown: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        shown.join(" or ")
    )
}

/// apimachinery meta/v1/validation `isValidConditionReason`: `[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`
/// (the length is checked apart).
pub fn condition_reason(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b',' | b':');
    let valid = match b {
        [] => false,
        [first] => first.is_ascii_alphabetic(),
        [first, middle @ .., last] => {
            first.is_ascii_alphabetic()
                && middle.iter().all(inner)
                && (last.is_ascii_alphanumeric() || *last == b'_')
        }
    };
    if valid {
        return Vec::new();
    }
    vec![regex_error(
        "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
        "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
        &["my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"],
    )]
}

fn is_alnum_lower(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && is_alnum_lower(b[0])
        && is_alnum_lower(b[b.len() - 1])
        && b.iter().all(|&c| is_alnum_lower(c) || c == b'-')
}

fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

fn matches_dns1035_label(s: &str) -> bool {
    matches_dns1123_label(s) && s.as_bytes()[0].is_ascii_lowercase()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Label`.
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_characters(DNS1123_LABEL_MAX));
    }
    if !matches_dns1123_label(s) {
        if matches_dns1123_subdomain(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_characters(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `content.IsDNS1123Subdomain` (apimachinery's `validate.LongName`, 1.35–): the same rule,
/// its length counted in bytes.
pub fn long_name(s: &str) -> Vec<String> {
    dns1123_subdomain(s)
        .into_iter()
        .map(|m| {
            if m == max_len_characters(DNS1123_SUBDOMAIN_MAX) {
                format!("must be no more than {DNS1123_SUBDOMAIN_MAX} bytes")
            } else {
                m
            }
        })
        .collect()
}

/// `IsDNS1123SubdomainWithUnderscore` (pod DNS search domains): labels may start with `_` and
/// hold `_`. Until 1.33 its message quotes the plain subdomain regex (apimachinery v0.34
/// fixed it).
pub fn dns1123_subdomain_with_underscore(s: &str, version: KubeVersion) -> Vec<String> {
    const FMT: &str = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*";
    const MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";
    let label = |l: &str| {
        let l = l.strip_prefix('_').unwrap_or(l);
        let b = l.as_bytes();
        !b.is_empty()
            && is_alnum_lower(b[0])
            && is_alnum_lower(b[b.len() - 1])
            && b.iter()
                .all(|&c| is_alnum_lower(c) || c == b'-' || c == b'_')
    };
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_characters(DNS1123_SUBDOMAIN_MAX));
    }
    if !s.split('.').all(label) {
        let fmt = if UNDERSCORE_REGEX_QUOTED.contains(version) {
            FMT
        } else {
            DNS1123_SUBDOMAIN_FMT
        };
        errs.push(regex_error(MSG, fmt, &["example.com"]));
    }
    errs
}

/// apimachinery v0.34 quotes the underscore subdomain's own regex.
const UNDERSCORE_REGEX_QUOTED: VersionRange = VersionRange::since(34);

/// `IsDNS1035Label`.
pub fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_characters(DNS1123_LABEL_MAX));
    }
    if !matches_dns1035_label(s) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsQualifiedName` / `content.IsLabelKey`: an optional DNS subdomain prefix and `/`, then a
/// name of at most 63 characters.
pub fn label_key(s: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            let what = if LABEL_CONTENT_PACKAGE.contains(version) {
                "a valid label key"
            } else {
                "a qualified name"
            };
            errs.push(format!(
                "{what} {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > LABEL_KEY_NAME_MAX {
        errs.push(format!(
            "name part {}",
            label_max_len(LABEL_KEY_NAME_MAX, version)
        ));
    }
    if !matches_label_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue` / `content.IsLabelValue`.
pub fn label_value(s: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > LABEL_VALUE_MAX {
        errs.push(label_max_len(LABEL_VALUE_MAX, version));
    }
    if !s.is_empty() && !matches_label_name(s) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortName`: an IANA service name.
pub fn port_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 15 {
        errs.push(max_len_characters(15));
    }
    if !s
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !s.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if s.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if s.starts_with('-') || s.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `IsValidPortNum`.
pub fn port_number(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![inclusive_range(1, 65535)]
    }
}

/// `InclusiveRangeError`.
pub fn inclusive_range(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

/// `IsConfigMapKey`: keys of ConfigMap and Secret data.
pub fn config_map_key(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_characters(DNS1123_SUBDOMAIN_MAX));
    }
    let valid = !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !valid {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(chdir_prefix(s).map(String::from));
    errs
}

/// apimachinery's `hasChDirPrefix`: names that would lead out of a directory.
pub fn chdir_prefix(s: &str) -> Option<&'static str> {
    match s {
        "." => Some("must not be '.'"),
        ".." => Some("must not be '..'"),
        _ if s.starts_with("..") => Some("must not start with '..'"),
        _ => None,
    }
}

/// `path.IsValidPathSegmentName`: what RBAC names must be.
pub fn path_segment_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s == "." || s == ".." {
        errs.push(format!("may not be '{s}'"));
    }
    for illegal in ["/", "%"] {
        if s.contains(illegal) {
            errs.push(format!("may not contain '{illegal}'"));
        }
    }
    errs
}

/// `IsCIdentifier` (apimachinery `content`): `[A-Za-z_][A-Za-z0-9_]*`.
pub fn c_identifier(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_');
    if ok {
        return Vec::new();
    }
    vec![regex_error(
        "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
        "[A-Za-z_][A-Za-z0-9_]*",
        &["my_name", "MY_NAME", "MyName"],
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    #[test]
    fn dns_names() {
        assert!(dns1123_subdomain("web.example-1").is_empty());
        assert_eq!(
            dns1123_subdomain("Web"),
            ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(dns1123_label("a.b"), ["must not contain dots"]);
        assert!(dns1123_label("a_b")[0].contains("(e.g. 'my-name',  or '123-abc', regex"));
        assert!(dns1035_label("1abc")[0].starts_with("a DNS-1035 label"));
        assert_eq!(
            dns1123_label(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
    }

    #[test]
    fn label_keys_and_values_per_version() {
        assert!(label_key("app.kubernetes.io/name", v(37)).is_empty());
        assert_eq!(
            label_key("a/b/c", v(34))[0].split(" must").next(),
            Some("a qualified name")
        );
        assert!(label_key("a/b/c", v(35))[0].starts_with("a valid label key must"));
        assert_eq!(
            label_value(&"x".repeat(64), v(34))[0],
            "must be no more than 63 characters"
        );
        assert_eq!(
            label_value(&"x".repeat(64), v(35))[0],
            "must be no more than 63 bytes"
        );
        assert!(label_value("", v(37)).is_empty());
        assert_eq!(label_key("/x", v(37)), ["prefix part must be non-empty"]);
    }

    #[test]
    fn port_names() {
        assert!(port_name("http-metrics").is_empty());
        assert_eq!(
            port_name("HTTP"),
            [
                "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                "must contain at least one letter (a-z)"
            ]
        );
    }
}
