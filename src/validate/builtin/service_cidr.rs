//! ServiceCIDRs and IPAddresses (networking.k8s.io, served by default from 1.33 as v1), as
//! k8s.io/kubernetes pkg/apis/networking/validation checks them through their registry
//! strategies (pkg/registry/networking/servicecidr, ipaddress): the CIDRs, the parent
//! reference, and what an update may change.

use super::super::goprint::{go_quote, GoType};
use super::super::{formats, BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::ip_strict::{cidr_is_v4, cidr_messages, ip_messages};
use crate::validate::field::{indexed, join, typed_value};
use crate::value::{Map, Value};

const CIDRS: &str = "spec.cidrs";
const IMMUTABLE: &str = "field is immutable";

/// `ValidateIPAddressName`: the name is an IP address in canonical form (`IsValidIP`'s
/// details; generated names are not supported, so a prefix is checked the same way).
pub fn ip_address_name(name: &str) -> Vec<String> {
    ip_messages(name)
}

/// The IPAddress strategy: `ValidateIPAddress` (the parent reference), then on update
/// `ValidateIPAddressUpdate` (the parent reference may not change).
pub fn ip_address(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let parent = present(spec(object), "parentRef");
    match parent {
        None => errors.push(FieldError::required("spec.parentRef", "")),
        Some(p) => parent_reference(p, errors),
    }
    let Some(old) = w.live else {
        return;
    };
    let old_parent = present(spec(old), "parentRef");
    if parent_fields(parent) != parent_fields(old_parent) {
        errors.push(FieldError::invalid(
            "spec.parentRef",
            parent_value(parent),
            IMMUTABLE,
        ));
    }
}

/// `validateIPAddressParentReference`: the group a DNS subdomain when set (the core group is
/// empty), resource and name required path segments, the namespace a path segment.
fn parent_reference(parent: &Value, errors: &mut Vec<FieldError>) {
    const AT: &str = "spec.parentRef";
    let group = text(parent, "group");
    if !group.is_empty() {
        for msg in formats::dns1123_subdomain(group) {
            errors.push(FieldError::invalid(
                join(AT, ".group"),
                FieldError::string_value(group),
                msg,
            ));
        }
    }
    for key in ["resource", "name", "namespace"] {
        let value = text(parent, key);
        let at = join(AT, &[".", key].concat());
        if value.is_empty() {
            if key != "namespace" {
                errors.push(FieldError::required(at, ""));
            }
            continue;
        }
        for msg in formats::path_segment_name(value) {
            errors.push(FieldError::invalid(
                &at,
                FieldError::string_value(value),
                msg,
            ));
        }
    }
}

/// The internal `networking.ParentReference`'s fields in declaration order.
const PARENT_FIELDS: [(&str, &str); 4] = [
    ("group", "Group"),
    ("resource", "Resource"),
    ("namespace", "Namespace"),
    ("name", "Name"),
];

fn parent_fields(parent: Option<&Value>) -> Option<[&str; 4]> {
    parent.map(|p| PARENT_FIELDS.map(|(key, _)| text(p, key)))
}

/// `*networking.ParentReference` as the server quotes it: JSON of the internal struct from
/// 1.34, `%#v` of the dereferenced struct before; a nil pointer is `null` (`"null"` before).
fn parent_value(parent: Option<&Value>) -> BadValue {
    let Some(p) = parent else {
        return BadValue::Value(Value::Null);
    };
    let mut json = Map::default();
    let mut go = Vec::new();
    for (key, go_name) in PARENT_FIELDS {
        json.insert(go_name.into(), Value::from(text(p, key)));
        go.push(format!("{go_name}:{}", go_quote(text(p, key))));
    }
    BadValue::GoValue {
        value: Value::Map(json),
        go_syntax: format!("networking.ParentReference{{{}}}", go.join(", ")),
    }
}

/// The ServiceCIDR strategy: `ValidateServiceCIDR` on create; on update only
/// `ValidateServiceCIDRUpdate`, which lets a single-stack range gain a second family
/// (kubernetes#131263, in 1.33) and otherwise keeps the CIDRs as they were.
pub fn service_cidr(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let cidrs: Vec<&str> = items(spec(object).get("cidrs"))
        .iter()
        .map(|c| c.as_str().unwrap_or(""))
        .collect();
    let Some(old) = w.live else {
        cidrs_spec(&cidrs, errors);
        return;
    };
    let old_cidrs: Vec<&str> = items(spec(old).get("cidrs"))
        .iter()
        .map(|c| c.as_str().unwrap_or(""))
        .collect();
    match (old_cidrs.len(), cidrs.len()) {
        (a, b) if a == b => {
            for (i, (old, new)) in old_cidrs.iter().zip(&cidrs).enumerate() {
                if old != new {
                    errors.push(FieldError::invalid(
                        indexed(CIDRS, i),
                        FieldError::string_value(new),
                        IMMUTABLE,
                    ));
                }
            }
        }
        (1, 2) => {
            if cidrs[0] != old_cidrs[0] {
                errors.push(FieldError::invalid(
                    indexed(CIDRS, 0),
                    FieldError::string_value(cidrs[0]),
                    IMMUTABLE,
                ));
            }
            cidrs_spec(&cidrs, errors);
        }
        _ => errors.push(FieldError::invalid(CIDRS, string_list(&cidrs), IMMUTABLE)),
    }
}

/// `validateServiceCIDRSpec`: one or two CIDRs, each valid and canonical, of two families.
fn cidrs_spec(cidrs: &[&str], errors: &mut Vec<FieldError>) {
    if cidrs.is_empty() {
        errors.push(FieldError::required(CIDRS, "at least one CIDR required"));
        return;
    }
    if cidrs.len() > 2 {
        errors.push(FieldError::invalid(
            CIDRS,
            spec_value(cidrs),
            "may only hold up to 2 values",
        ));
        return;
    }
    for (i, cidr) in cidrs.iter().enumerate() {
        for msg in cidr_messages(cidr) {
            errors.push(FieldError::invalid(
                indexed(CIDRS, i),
                FieldError::string_value(cidr),
                msg,
            ));
        }
    }
    if let [a, b] = cidrs {
        let (fa, fb) = (cidr_is_v4(a), cidr_is_v4(b));
        if fa.is_some() && fa == fb {
            errors.push(FieldError::invalid(
                CIDRS,
                string_list(cidrs),
                "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
            ));
        }
    }
}

fn string_list(cidrs: &[&str]) -> BadValue {
    let list = Value::List(cidrs.iter().map(|c| Value::from(*c)).collect());
    typed_value(list, &GoType::StringList)
}

/// `*networking.ServiceCIDRSpec`: `{"CIDRs":[…]}` from 1.34, `%#v` of the struct before.
fn spec_value(cidrs: &[&str]) -> BadValue {
    let list = Value::List(cidrs.iter().map(|c| Value::from(*c)).collect());
    let go = super::super::goprint::go_syntax(&list, &GoType::StringList);
    let mut json = Map::default();
    json.insert("CIDRs".into(), list);
    BadValue::GoValue {
        value: Value::Map(json),
        go_syntax: format!("networking.ServiceCIDRSpec{{CIDRs:{go}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const CIDR: &str = r#"{"apiVersion":"networking.k8s.io/v1","kind":"ServiceCIDR",
      "metadata":{"name":"newcidr1"},"spec":{"cidrs":["10.96.0.0/24"]}}"#;

    #[test]
    fn a_valid_range_passes() {
        assert!(refusal_causes(CIDR, None, 33).is_empty());
        let dual = CIDR.replace(r#""10.96.0.0/24""#, r#""10.96.0.0/24","fd00:10:96::/112""#);
        assert!(refusal_causes(&dual, None, 37).is_empty());
        assert!(refusal_causes(&dual, Some(CIDR), 37).is_empty());
    }

    #[test]
    fn cidrs_are_one_or_two_valid_ranges_of_two_families() {
        let none = CIDR.replace(r#""10.96.0.0/24""#, "");
        assert_eq!(
            refusal_causes(&none, None, 37),
            ["spec.cidrs: Required value: at least one CIDR required"]
        );
        let three = CIDR.replace(
            r#""10.96.0.0/24""#,
            r#""10.96.0.0/24","10.97.0.0/24","fd00::/112""#,
        );
        assert_eq!(
            refusal_causes(&three, None, 37),
            [
                r#"spec.cidrs: Invalid value: {"CIDRs":["10.96.0.0/24","10.97.0.0/24","fd00::/112"]}: may only hold up to 2 values"#
            ]
        );
        assert_eq!(
            refusal_causes(&three, None, 33),
            [
                r#"spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{"10.96.0.0/24", "10.97.0.0/24", "fd00::/112"}}: may only hold up to 2 values"#
            ]
        );
        let same = CIDR.replace(r#""10.96.0.0/24""#, r#""10.96.0.1/24","10.97.0.0/24""#);
        assert_eq!(
            refusal_causes(&same, None, 37),
            [
                "spec.cidrs[0]: Invalid value: \"10.96.0.1/24\": must not have bits set beyond the prefix length",
                r#"spec.cidrs: Invalid value: ["10.96.0.1/24","10.97.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"#,
            ]
        );
    }

    #[test]
    fn updates_keep_the_ranges_or_add_a_family() {
        let moved = CIDR.replace("10.96.0.0/24", "10.97.0.0/24");
        assert_eq!(
            refusal_causes(&moved, Some(CIDR), 37),
            ["spec.cidrs[0]: Invalid value: \"10.97.0.0/24\": field is immutable"]
        );
        let grown = CIDR.replace(r#""10.96.0.0/24""#, r#""10.97.0.0/24","10.98.0.0/24""#);
        assert_eq!(
            refusal_causes(&grown, Some(CIDR), 37),
            [
                "spec.cidrs[0]: Invalid value: \"10.97.0.0/24\": field is immutable",
                r#"spec.cidrs: Invalid value: ["10.97.0.0/24","10.98.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"#,
            ]
        );
        let dual = CIDR.replace(r#""10.96.0.0/24""#, r#""10.96.0.0/24","fd00::/112""#);
        assert_eq!(
            refusal_causes(CIDR, Some(&dual), 33),
            [r#"spec.cidrs: Invalid value: []string{"10.96.0.0/24"}: field is immutable"#]
        );
    }

    const ADDRESS: &str = r#"{"apiVersion":"networking.k8s.io/v1","kind":"IPAddress",
      "metadata":{"name":"10.96.0.1"},
      "spec":{"parentRef":{"group":"","resource":"services","namespace":"default","name":"kubernetes"}}}"#;

    #[test]
    fn a_valid_address_passes() {
        assert!(refusal_causes(ADDRESS, None, 33).is_empty());
        assert!(refusal_causes(ADDRESS, Some(ADDRESS), 37).is_empty());
    }

    #[test]
    fn the_name_is_a_canonical_address() {
        let padded = ADDRESS.replace(r#""10.96.0.1""#, r#""10.96.0.01""#);
        assert_eq!(
            refusal_causes(&padded, None, 37),
            ["metadata.name: Invalid value: \"10.96.0.01\": must not have leading 0s"]
        );
        let upper = ADDRESS.replace(r#""10.96.0.1""#, r#""FD00::1""#);
        assert_eq!(
            refusal_causes(&upper, None, 37),
            ["metadata.name: Invalid value: \"FD00::1\": must be in canonical form (\"fd00::1\")"]
        );
    }

    #[test]
    fn the_parent_reference() {
        let bad = ADDRESS
            .replace(r#""group":"""#, r#""group":"Apps""#)
            .replace(r#""resource":"services""#, r#""resource":"""#)
            .replace(r#""namespace":"default""#, r#""namespace":"a/b""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.parentRef.group: Invalid value: \"Apps\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.parentRef.resource: Required value",
                "spec.parentRef.namespace: Invalid value: \"a/b\": may not contain '/'",
            ]
        );
        let orphan = r#"{"apiVersion":"networking.k8s.io/v1","kind":"IPAddress",
          "metadata":{"name":"10.96.0.1"},"spec":{}}"#;
        assert_eq!(
            refusal_causes(orphan, None, 37),
            ["spec.parentRef: Required value"]
        );
        let moved = ADDRESS.replace("kubernetes", "web");
        assert_eq!(
            refusal_causes(&moved, Some(ADDRESS), 36),
            [
                r#"spec.parentRef: Invalid value: {"Group":"","Resource":"services","Namespace":"default","Name":"web"}: field is immutable"#
            ]
        );
        assert_eq!(
            refusal_causes(&moved, Some(ADDRESS), 33),
            [
                r#"spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"web"}: field is immutable"#
            ]
        );
    }
}
