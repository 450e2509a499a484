//! A Service's IP families, family policy, cluster IPs and external IPs: what the service
//! registry's allocator checks before validation (pkg/registry/core/service/storage `alloc.go`,
//! `initIPFamilyFields`, which runs pkg/apis/core/validation
//! `ValidateServiceClusterIPsRelatedFields`) and the external IPs `ValidateService` checks
//! (`IsValidIP`, `ValidateNonSpecialIP`).

use super::super::goprint::GoType;
use super::super::{field::typed_value, BadValue, FieldError};
use super::fields::{items, present, text};
use super::ip_strict;
use super::netaddr::{parse_ip, Ip};
use crate::kube::KubeVersion;
use crate::value::Value;

/// `supportedServiceIPFamily`, `supportedServiceIPFamilyPolicy` (`sets.List`: sorted).
const IP_FAMILIES: &[&str] = &["IPv4", "IPv6"];
const IP_FAMILY_POLICIES: &[&str] = &["PreferDualStack", "RequireDualStack", "SingleStack"];
/// Go's `net.IP.To4() != nil`: written as IPv4 or IPv4-mapped IPv6.
pub(super) fn is_v4(ip: &Ip) -> bool {
    ip.v4 || (ip.bytes[..10].iter().all(|b| *b == 0) && ip.bytes[10..12] == [0xff, 0xff])
}

fn strings(v: Option<&Value>) -> Vec<&str> {
    items(v).iter().map(|x| x.as_str().unwrap_or("")).collect()
}

fn string_list(list: &[&str]) -> BadValue {
    let value = Value::List(list.iter().map(|s| Value::from(*s)).collect());
    typed_value(value, &GoType::StringList)
}

/// `familyOf`: the family of a cluster IP already known to parse.
pub(super) fn family_of(ip: &str) -> &'static str {
    match parse_ip(ip) {
        Some(p) if is_v4(&p) => "IPv4",
        Some(_) => "IPv6",
        None => "unknown",
    }
}

fn has_selector(spec: &Value) -> bool {
    present(spec, "selector")
        .and_then(Value::as_map)
        .is_some_and(|m| !m.is_empty())
}

/// `initIPFamilyFields` up to where the cluster's own configuration matters: the errors the
/// allocator answers alone, before any validation (`BeginCreate` / `BeginUpdate`), on the spec
/// as the registry prepared it ([`crate::kube::service_prepare::prepare_spec`]). A stored Service whose IP
/// fields the write leaves as they are is not checked again.
pub fn ip_family_fields(
    spec: &Value,
    old: Option<&Value>,
    version: KubeVersion,
) -> Vec<FieldError> {
    if text(spec, "type") == "ExternalName" {
        return Vec::new();
    }
    let keys = ["ipFamilyPolicy", "ipFamilies", "clusterIP", "clusterIPs"];
    if let Some(old) = old {
        if keys.iter().all(|k| present(spec, k) == present(old, k)) {
            return Vec::new();
        }
    }
    let ips = strings(spec.get("clusterIPs"));
    let families = strings(spec.get("ipFamilies"));
    let policy = match present(spec, "ipFamilyPolicy").and_then(Value::as_str) {
        Some(p) => p,
        None => match old.and_then(|o| present(o, "ipFamilyPolicy")?.as_str()) {
            Some(p) => p,
            None if text(spec, "clusterIP") == "None" && !has_selector(spec) => "RequireDualStack",
            None => "SingleStack",
        },
    };
    let stored = old
        .map(|o| strings(o.get("clusterIPs")))
        .unwrap_or_default();
    let mut errors = related_fields(spec, &ips, &families, policy, (version, &stored));
    if !errors.is_empty() {
        return errors;
    }
    // Update: fewer addresses or families than stored need an explicit SingleStack.
    if let Some(old) = old.filter(|_| policy != "SingleStack") {
        let value = || FieldError::string_value(policy);
        let reduced = |key: &str, n: usize| n > 0 && n < strings(old.get(key)).len();
        if reduced("clusterIPs", ips.len()) {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                value(),
                "must be 'SingleStack' to release the secondary cluster IP",
            ));
        }
        if reduced("ipFamilies", families.len()) {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                value(),
                "must be 'SingleStack' to release the secondary IP family",
            ));
        }
    }
    if policy == "SingleStack" {
        let value = || FieldError::string_value(policy);
        let why = "must be 'RequireDualStack' or 'PreferDualStack' when multiple";
        if ips.len() == 2 {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                value(),
                format!("{why} cluster IPs are specified"),
            ));
        }
        if families.len() == 2 {
            errors.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                value(),
                format!("{why} IP families are specified"),
            ));
        }
    }
    errors
}

/// `ValidateServiceClusterIPsRelatedFields` with the policy the allocator settled on: first
/// `clusterIP` and `clusterIPs` in step.
/// `ValidateServiceClusterIPsRelatedFields`; `stored` is the release and the stored Service's
/// cluster IPs (`existingClusterIPs`).
fn related_fields(
    spec: &Value,
    ips: &[&str],
    families: &[&str],
    policy: &str,
    stored: (KubeVersion, &[&str]),
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let cluster_ip = text(spec, "clusterIP");
    if !cluster_ip.is_empty() {
        match ips.first() {
            None => errors.push(FieldError::required("spec.clusterIPs", "")),
            Some(first) if *first != cluster_ip => errors.push(FieldError::invalid(
                "spec.clusterIPs",
                string_list(ips),
                "first value must match `clusterIP`",
            )),
            Some(_) => {}
        }
    } else if !ips.is_empty() {
        errors.push(FieldError::invalid(
            "spec.clusterIPs",
            string_list(ips),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let mut seen = Vec::new();
    for (i, family) in families.iter().enumerate() {
        let at = format!("spec.ipFamilies[{i}]");
        if !IP_FAMILIES.contains(family) {
            errors.push(FieldError::not_supported(
                &at,
                FieldError::string_value(family),
                IP_FAMILIES,
            ));
        }
        if seen.contains(family) {
            errors.push(FieldError::duplicate(at, FieldError::string_value(family)));
        }
        seen.push(*family);
    }
    if !IP_FAMILY_POLICIES.contains(&policy) {
        errors.push(FieldError::not_supported(
            "spec.ipFamilyPolicy",
            FieldError::string_value(policy),
            IP_FAMILY_POLICIES,
        ));
    }
    let mut invalid = false;
    let mut parsed = Vec::new();
    for (i, ip) in ips.iter().enumerate() {
        if i == 0 && *ip == "None" {
            if ips.len() > 1 {
                invalid = true;
                errors.push(FieldError::invalid(
                    "spec.clusterIPs",
                    string_list(ips),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        if let Some(message) = ip_strict::legacy_ip(ip, stored.0, stored.1) {
            invalid = true;
            errors.push(FieldError::invalid(
                format!("spec.clusterIPs[{i}]"),
                FieldError::string_value(ip),
                message,
            ));
        } else if let Some(p) = parse_ip(ip) {
            parsed.push((i, *ip, p));
        }
    }
    if ips.len() > 2 {
        errors.push(FieldError::invalid(
            "spec.clusterIPs",
            string_list(ips),
            "may only hold up to 2 values",
        ));
    }
    if invalid {
        return errors;
    }
    if ips.len() > 1 {
        let v4 = parsed.iter().filter(|(_, _, p)| is_v4(p)).count();
        if v4 == 0 || v4 == parsed.len() {
            errors.push(FieldError::invalid(
                "spec.clusterIPs",
                string_list(ips),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    let headless = ips.len() == 1 && ips[0] == "None";
    if !headless {
        for (i, ip, p) in &parsed {
            let expected = match families.get(*i) {
                Some(&"IPv4") if !is_v4(p) => "IPv4",
                Some(&"IPv6") if is_v4(p) => "IPv6",
                _ => continue,
            };
            errors.push(FieldError::invalid(
                format!("spec.clusterIPs[{i}]"),
                FieldError::string_value(ip),
                format!("expected an {expected} value as indicated by `ipFamilies[{i}]`"),
            ));
        }
    }
    errors
}

/// `ValidateService`'s external IPs: each a valid IP (`IsValidIPForLegacyField`, which from
/// 1.33 accepts the stored Service's as they are), then not a special one
/// (`ValidateEndpointIP`).
pub fn external_ips(
    spec: &Value,
    old: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let stored = old
        .map(|o| strings(o.get("externalIPs")))
        .unwrap_or_default();
    for (i, ip) in strings(spec.get("externalIPs")).into_iter().enumerate() {
        let at = format!("spec.externalIPs[{i}]");
        if let Some(message) = ip_strict::legacy_ip(ip, version, &stored) {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(ip),
                message,
            ));
            continue;
        }
        super::endpoints::endpoint_ip(ip, &at, errors);
    }
}

/// What `ValidateNonSpecialIP` refuses, in its order (Go's `net.IP` predicates).
pub(super) fn special(ip: &Ip) -> Vec<&'static str> {
    let b = &ip.bytes;
    let v4 = is_v4(ip);
    let mut out = Vec::new();
    let unspecified = if v4 {
        b[12..] == [0, 0, 0, 0]
    } else {
        b.iter().all(|x| *x == 0)
    };
    if unspecified {
        out.push("may not be unspecified ({ip})");
    }
    let loopback = if v4 {
        b[12] == 127
    } else {
        b[..15].iter().all(|x| *x == 0) && b[15] == 1
    };
    if loopback {
        out.push("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    }
    let link_local = if v4 {
        b[12] == 169 && b[13] == 254
    } else {
        b[0] == 0xfe && b[1] & 0xc0 == 0x80
    };
    if link_local {
        out.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    }
    let multicast = if v4 {
        b[12] == 224 && b[13] == 0 && b[14] == 0
    } else {
        b[0] == 0xff && b[1] & 0x0f == 0x02
    };
    if multicast {
        out.push("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;
    use crate::kube::KubeVersion;

    fn allocator(spec: &str, old: Option<&str>, minor: u8) -> Vec<String> {
        let v = KubeVersion::new(minor).unwrap();
        let old = old.map(json);
        let prepared = crate::kube::service_prepare::prepare_spec(&json(spec), old.as_ref());
        ip_family_fields(&prepared, old.as_ref(), KubeVersion::new(37).unwrap())
            .iter()
            .map(|e| e.message(v))
            .collect()
    }

    #[test]
    fn a_service_without_family_fields_is_single_stack_and_valid() {
        assert!(allocator(r#"{"type":"ClusterIP"}"#, None, 37).is_empty());
        assert!(allocator(
            r#"{"type":"ClusterIP","ipFamilyPolicy":"RequireDualStack","ipFamilies":["IPv6","IPv4"],"clusterIPs":["fd00::1","10.0.0.1"],"clusterIP":"fd00::1"}"#,
            None,
            37
        )
        .is_empty());
        // Headless and selectorless: the allocator defaults to dual-stack.
        assert!(allocator(
            r#"{"clusterIP":"None","ipFamilies":["IPv4","IPv6"]}"#,
            None,
            37
        )
        .is_empty());
    }

    #[test]
    fn family_values_and_policy_are_checked_before_the_policy_fits() {
        assert_eq!(
            allocator(r#"{"ipFamilyPolicy":"DualStack","ipFamilies":["IPv4","IPv4"]}"#, None, 37),
            [
                "spec.ipFamilies[1]: Duplicate value: \"IPv4\"",
                "spec.ipFamilyPolicy: Unsupported value: \"DualStack\": supported values: \"PreferDualStack\", \"RequireDualStack\", \"SingleStack\"",
            ]
        );
        assert_eq!(
            allocator(r#"{"ipFamilies":["IPv4","IPv6"]}"#, None, 37),
            ["spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"]
        );
    }

    #[test]
    fn cluster_ips_must_parse_and_match_their_families() {
        assert_eq!(
            allocator(
                r#"{"ipFamilyPolicy":"PreferDualStack","clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1","10.0.0.2"]}"#,
                None,
                33
            ),
            ["spec.clusterIPs: Invalid value: []string{\"10.0.0.1\", \"10.0.0.2\"}: may specify no more than one IP for each IP family"]
        );
        assert_eq!(
            allocator(r#"{"clusterIP":"10.0.0.1","ipFamilies":["IPv6"]}"#, None, 37),
            ["spec.clusterIPs[0]: Invalid value: \"10.0.0.1\": expected an IPv6 value as indicated by `ipFamilies[0]`"]
        );
        assert_eq!(
            allocator(r#"{"clusterIP":"10.0.0.300"}"#, None, 37),
            ["spec.clusterIPs[0]: Invalid value: \"10.0.0.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
        );
    }

    #[test]
    fn an_update_that_keeps_the_ip_fields_is_not_checked_again() {
        let old = r#"{"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"],"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"]}"#;
        assert!(allocator(old, Some(old), 37).is_empty());
        assert_eq!(
            allocator(
                r#"{"ipFamilies":["IPv4","IPv6"],"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"]}"#,
                Some(old),
                37
            ),
            ["spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"]
        );
    }

    #[test]
    fn external_ips_must_be_ordinary_addresses() {
        let mut errors = Vec::new();
        external_ips(
            &json(r#"{"externalIPs":["1.2.3.4","0.0.0.0","127.0.0.1","fe80::1","224.0.0.5","x"]}"#),
            None,
            KubeVersion::new(37).unwrap(),
            &mut errors,
        );
        let v = KubeVersion::new(37).unwrap();
        let got: Vec<String> = errors.iter().map(|e| e.message(v)).collect();
        assert_eq!(
            got,
            [
                "spec.externalIPs[1]: Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)",
                "spec.externalIPs[2]: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
                "spec.externalIPs[3]: Invalid value: \"fe80::1\": may not be in the link-local range (169.254.0.0/16, fe80::/10)",
                "spec.externalIPs[4]: Invalid value: \"224.0.0.5\": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
                "spec.externalIPs[5]: Invalid value: \"x\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ]
        );
    }
}
