//! A pod's names and name resolution, as k8s.io/kubernetes pkg/apis/core/validation checks
//! them: `validatePodDNSConfig` (with `dnsPolicy: None`), `ValidateHostAliases`, and the
//! `hostname`/`subdomain` DNS labels of `ValidatePodSpec`.

use super::super::field::typed_value;
use super::super::formats;
use super::super::goprint::GoType;
use super::super::FieldError;
use super::fields::{items, present, text};
use super::ip_strict;
use super::pod_options::Strictness;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// `MaxDNSNameservers`, `MaxDNSSearchPaths`, `MaxDNSSearchListChars`.
const MAX_NAMESERVERS: usize = 3;
const MAX_SEARCH_PATHS: usize = 32;
const MAX_SEARCH_LIST_CHARS: usize = 2048;

/// RelaxedDNSSearchValidation (beta and on by default from 1.33): search domains may be `.`
/// and hold underscores.
const RELAXED_SEARCH: VersionRange = VersionRange::since(33);

/// The search domain rule of `version` when no stored object relaxes it.
pub fn search_by_default(version: KubeVersion) -> Strictness {
    Strictness::relaxed_in(RELAXED_SEARCH, version)
}

/// `IsValidIPForLegacyField` with no stored addresses.
fn ip(value: &str, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    if let Some(message) = ip_strict::legacy_ip(value, version, &[]) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            message,
        ));
    }
}

/// `validatePodDNSConfig` of the pod spec at `path`, search domains checked by `search_rule`
/// (relaxed: `.`, or DNS subdomains that may hold underscores).
pub fn config(
    spec: &Value,
    path: &str,
    search_rule: Strictness,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let at = join(path, ".dnsConfig");
    let dns_config = present(spec, "dnsConfig");
    if text(spec, "dnsPolicy") == "None" {
        let Some(c) = dns_config else {
            errors.push(FieldError::required(
                at,
                "must provide `dnsConfig` when `dnsPolicy` is None",
            ));
            return;
        };
        if items(c.get("nameservers")).is_empty() {
            errors.push(FieldError::required(
                join(&at, ".nameservers"),
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            ));
            return;
        }
    }
    let Some(c) = dns_config else {
        return;
    };
    let nameservers = items(c.get("nameservers"));
    if nameservers.len() > MAX_NAMESERVERS {
        errors.push(FieldError::invalid(
            join(&at, ".nameservers"),
            typed_value(
                Value::List(nameservers.to_vec().into()),
                &GoType::StringList,
            ),
            format!("must not have more than {MAX_NAMESERVERS} nameservers"),
        ));
    }
    for (i, ns) in nameservers.iter().enumerate() {
        ip(
            ns.as_str().unwrap_or(""),
            &format!("{at}.nameservers[{i}]"),
            version,
            errors,
        );
    }
    let searches: Vec<&str> = items(c.get("searches"))
        .iter()
        .map(|s| s.as_str().unwrap_or(""))
        .collect();
    let quoted = || {
        let list: Vec<Value> = searches.iter().map(|s| Value::from(*s)).collect();
        typed_value(Value::List(list.into()), &GoType::StringList)
    };
    if searches.len() > MAX_SEARCH_PATHS {
        errors.push(FieldError::invalid(
            join(&at, ".searches"),
            quoted(),
            format!("must not have more than {MAX_SEARCH_PATHS} search paths"),
        ));
    }
    if searches.join(" ").len() > MAX_SEARCH_LIST_CHARS {
        errors.push(FieldError::invalid(
            join(&at, ".searches"),
            quoted(),
            format!(
                "must not have more than {MAX_SEARCH_LIST_CHARS} characters (including spaces) in the search list"
            ),
        ));
    }
    let relaxed = search_rule == Strictness::Relaxed;
    for (i, search) in searches.iter().enumerate() {
        if relaxed && *search == "." {
            continue;
        }
        // The trailing dot of a fully qualified name is cut before the check and the quote.
        let search = search.strip_suffix('.').unwrap_or(search);
        let msgs = if relaxed {
            formats::dns1123_subdomain_with_underscore(search, version)
        } else {
            formats::dns1123_subdomain(search)
        };
        for msg in msgs {
            errors.push(FieldError::invalid(
                format!("{at}.searches[{i}]"),
                FieldError::string_value(search),
                msg,
            ));
        }
    }
    for (i, option) in items(c.get("options")).iter().enumerate() {
        if text(option, "name").is_empty() {
            errors.push(FieldError::required(
                format!("{at}.options[{i}]"),
                "must not be empty",
            ));
        }
    }
}

/// The `hostname` and `subdomain` of the pod spec at `path`: DNS labels when set.
pub fn host_names(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    for key in ["hostname", "subdomain"] {
        let name = text(spec, key);
        if name.is_empty() {
            continue;
        }
        for msg in formats::dns1123_label(name) {
            errors.push(FieldError::invalid(
                format!("{path}.{key}"),
                FieldError::string_value(name),
                msg,
            ));
        }
    }
}

/// `ValidateHostAliases` of the pod spec at `path`: IPs, hostnames DNS subdomains.
pub fn host_aliases(spec: &Value, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    for (i, alias) in items(spec.get("hostAliases")).iter().enumerate() {
        let at = format!("{path}.hostAliases[{i}]");
        ip(text(alias, "ip"), &join(&at, ".ip"), version, errors);
        for (j, host) in items(alias.get("hostnames")).iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            for msg in formats::dns1123_subdomain(host) {
                errors.push(FieldError::invalid(
                    format!("{at}.hostnames[{j}]"),
                    FieldError::string_value(host),
                    msg,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(spec: &str, minor: u8) -> Vec<String> {
        messages_of(spec, minor, |spec, v, errors| {
            config(spec, "spec", search_by_default(v), v, errors);
            host_aliases(spec, "spec", v, errors);
        })
    }

    #[test]
    fn policy_none_needs_a_config_with_nameservers() {
        assert_eq!(
            messages(r#"{"dnsPolicy":"None"}"#, 37),
            ["spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
        );
        assert_eq!(
            messages(r#"{"dnsPolicy":"None","dnsConfig":{"searches":["x"]}}"#, 37),
            ["spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None"]
        );
    }

    #[test]
    fn nameservers_and_options() {
        let spec = r#"{"dnsConfig":{"nameservers":["1.1.1.1","8.8.8.8","9.9.9.9","dns.local"],
            "options":[{"name":"ndots","value":"2"},{"value":"1"}]}}"#;
        assert_eq!(
            messages(spec, 33),
            [
                "spec.dnsConfig.nameservers: Invalid value: []string{\"1.1.1.1\", \"8.8.8.8\", \"9.9.9.9\", \"dns.local\"}: must not have more than 3 nameservers",
                "spec.dnsConfig.nameservers[3]: Invalid value: \"dns.local\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "spec.dnsConfig.options[1]: Required value: must not be empty",
            ]
        );
        assert!(messages(spec, 34)[0].contains(
            "Invalid value: [\"1.1.1.1\",\"8.8.8.8\",\"9.9.9.9\",\"dns.local\"]: must not"
        ));
    }

    #[test]
    fn search_domains_relaxed_from_1_33() {
        let spec = r#"{"dnsConfig":{"searches":["_srv.example.com.",".","Bad"]}}"#;
        let old = messages(spec, 32);
        assert_eq!(old.len(), 3);
        assert!(old[0].starts_with("spec.dnsConfig.searches[0]: Invalid value: \"_srv.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'"));
        let new = messages(spec, 34);
        assert_eq!(
            new,
            ["spec.dnsConfig.searches[2]: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')"]
        );
        assert!(messages(spec, 33)[0].ends_with(
            "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ));
    }

    #[test]
    fn host_alias_ips_and_names() {
        let spec = r#"{"hostAliases":[{"ip":"10.0.0.300","hostnames":["ok.local","Not_OK"]}]}"#;
        let got = messages(spec, 37);
        assert_eq!(got.len(), 2);
        assert!(got[0].starts_with(
            "spec.hostAliases[0].ip: Invalid value: \"10.0.0.300\": must be a valid IP address"
        ));
        assert!(got[1].starts_with("spec.hostAliases[0].hostnames[1]: Invalid value: \"Not_OK\": a lowercase RFC 1123 subdomain"));
    }
}
