//! Nodes, as k8s.io/kubernetes pkg/apis/core/validation checks them (`ValidateNode`,
//! `ValidateNodeUpdate`, `validateNodeTaints`, `ValidateNodeResources`) after the registry's
//! preparation (pkg/registry/core/node/strategy.go: status kept on update, `configSource`
//! dropped unless the stored node has one): what a user applying a Node manifest can hit.
//! The taints annotation is checked as `ValidateNodeSpecificAnnotations` does (read in a copy
//! of about 1.27–1.28 and at the 2017 split of the file; unchanged between them).

use super::super::formats;
use super::super::{BadValue, ErrorType, FieldError, Write};
use super::fields::{items, spec, text};
use super::ip_strict;
use super::netaddr::parse_cidr;
use super::resources::{quantity_value, Amount};
use super::service_ip::family_of;
use super::toleration::EFFECTS;
use crate::kube::KubeVersion;
use crate::validate::field::typed_value;
use crate::validate::field::{indexed, join};
use crate::validate::goprint::{go_quote, GoType};
use crate::value::{Map, Value};
use std::collections::HashSet;

/// The message of apimachinery's `IsValidCIDR` (lenient parse; StrictIPCIDRValidation is off
/// by default in every release that has it).
const CIDR_CHANGED: &str = "node updates may not change podCIDR except from \"\" to valid";
const PROVIDER_CHANGED: &str = "node updates may not change providerID except from \"\" to valid";

/// The strategy's `ValidateUpdate` runs `ValidateNode` then `ValidateNodeUpdate`; `Validate`
/// only the first. The status validated is the stored one on update (`PrepareForUpdate`),
/// except through the status subresource, whose strategy (`nodeStatusStrategy`) keeps the new
/// status and validates the same way.
pub fn node(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let with_status = match w.live {
        Some(live) if w.subresource != "status" => live,
        _ => object,
    };
    let status = with_status.get("status");
    let spec = spec(object);
    validate_node(object, spec, status, version, errors);
    let Some(old) = w.live else { return };
    let old_spec = self::spec(old);
    annotations(object, version, errors);
    resources(status, version, errors);
    duplicate_addresses(status, errors);
    let (cidrs, old_cidrs) = (pod_cidrs(spec), pod_cidrs(old_spec));
    if !old_cidrs.is_empty() {
        if cidrs.len() != old_cidrs.len() {
            errors.push(FieldError::forbidden("spec.podCIDRs", CIDR_CHANGED));
        } else {
            for (new, old) in cidrs.iter().zip(&old_cidrs) {
                if new != old {
                    errors.push(FieldError::forbidden("spec.podCIDRs", CIDR_CHANGED));
                }
            }
        }
    }
    let old_provider = text(old_spec, "providerID");
    if !old_provider.is_empty() && old_provider != text(spec, "providerID") {
        errors.push(FieldError::forbidden("spec.providerID", PROVIDER_CHANGED));
    }
    super::node_config_source::check(object, old, status, version, errors);
    taints(
        items(spec.get("taints")),
        "metadata.taints",
        version,
        errors,
    );
    if text(spec, "externalID") != text(old_spec, "externalID") {
        errors.push(FieldError::forbidden(
            "spec.externalID",
            "may not be updated",
        ));
    }
}

/// `ValidateNode` after the metadata: the node annotations, taints (reported under
/// `metadata.taints`, as upstream builds the path from the metadata's), status quantities, pod
/// CIDRs.
fn validate_node(
    object: &Value,
    spec: &Value,
    status: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    annotations(object, version, errors);
    taints(
        items(spec.get("taints")),
        "metadata.taints",
        version,
        errors,
    );
    resources(status, version, errors);
    let cidrs = pod_cidrs(spec);
    for (i, cidr) in cidrs.iter().enumerate() {
        if let Some(message) = ip_strict::legacy_cidr(cidr, version, &[]) {
            errors.push(FieldError::invalid(
                indexed("spec.podCIDRs", i),
                FieldError::string_value(cidr),
                message,
            ));
        }
    }
    if cidrs.len() > 1 {
        // `IsDualStackCIDRStrings`; when a CIDR does not parse the server adds an internal
        // error kssa does not reproduce.
        let families: Option<Vec<&str>> = cidrs
            .iter()
            .map(|c| c.split_once('/').map(|(ip, _)| family_of(ip)))
            .collect();
        if let Some(families) = families.filter(|_| cidrs.iter().all(|c| parse_cidr(c).is_some())) {
            let dual = cidrs.len() == 2 && families[0] != families[1];
            if !dual {
                let list = Value::List(cidrs.iter().map(|c| Value::from(c.as_str())).collect());
                errors.push(FieldError::invalid(
                    "spec.podCIDRs",
                    typed_value(list, &GoType::StringList),
                    "may specify no more than one CIDR for each IP family",
                ));
            }
        }
        let mut seen = HashSet::new();
        for (i, cidr) in cidrs.iter().enumerate() {
            if !seen.insert(cidr) {
                errors.push(FieldError::duplicate(
                    indexed("spec.podCIDRs", i),
                    FieldError::string_value(cidr),
                ));
            }
        }
    }
}

/// The internal `PodCIDRs` the v1 conversion makes (pkg/apis/core/v1/conversion.go,
/// `Convert_v1_NodeSpec_To_core_NodeSpec`): `podCIDR` wins when it differs from the list's
/// first entry.
fn pod_cidrs(spec: &Value) -> Vec<String> {
    let single = text(spec, "podCIDR");
    let list: Vec<String> = items(spec.get("podCIDRs"))
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect();
    if !single.is_empty() && list.first().map(String::as_str) != Some(single) {
        return vec![single.to_string()];
    }
    list
}

/// `ValidateNodeResources`: every `status.capacity` and `status.allocatable` quantity
/// (`ValidateResourceQuantityValue`), at `status.capacity.<name>`; names sorted (Go ranges
/// over the map).
fn resources(status: Option<&Value>, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let Some(status) = status else { return };
    for key in ["capacity", "allocatable"] {
        let Some(Value::Map(list)) = status.get(key) else {
            continue;
        };
        let mut names: Vec<&String> = list.keys().collect();
        names.sort();
        for name in names {
            if let Some(amount) = Amount::of(&list[name.as_str()]) {
                let at = format!("status.{key}.{name}");
                quantity_value(name, &amount, &at, version, errors);
            }
        }
    }
}

/// The annotation holding taints as JSON (`core.TaintsAnnotationKey`).
const TAINTS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/taints";
/// The fields of the internal `core.Taint`, as its JSON tags spell them.
const TAINT_FIELDS: &[&str] = &["key", "value", "effect", "timeAdded"];

/// `ValidateNodeSpecificAnnotations`, the taints half (`ValidateTaintsInNodeAnnotations`): a
/// non-empty taints annotation is decoded (`helper.GetTaintsFromNodeAnnotations`,
/// `json.Unmarshal` into `[]core.Taint`) and its taints validated as the spec's, at
/// `metadata.annotations.scheduler.alpha.kubernetes.io/taints[i]`. Only a well-formed list of
/// taints whose fields are strings is checked: Go's decoding errors (`metadata.annotations:
/// Invalid value: "scheduler.alpha.kubernetes.io/taints": <json error>`) are not reproduced,
/// nor is the prefer-avoid-pods annotation checked.
fn annotations(object: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let Some(Value::String(raw)) = object
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(TAINTS_ANNOTATION))
    else {
        return;
    };
    if raw.is_empty() {
        return;
    }
    let Ok(Value::List(list)) = crate::value::from_json_str(raw) else {
        return;
    };
    if !list.iter().all(decodes_as_taint) {
        return;
    }
    let at = format!("metadata.annotations.{TAINTS_ANNOTATION}");
    taints(&list, &at, version, errors);
}

/// Whether `json.Unmarshal` takes `t` as a `core.Taint` without error, as far as kssa can tell:
/// an object whose taint fields are strings (or null), spelled exactly as the tags (Go matches
/// other casings too, which kssa leaves alone), without `timeAdded`.
fn decodes_as_taint(t: &Value) -> bool {
    let Value::Map(map) = t else { return false };
    map.iter().all(|(k, v)| {
        let exact = TAINT_FIELDS.contains(&k.as_str());
        let other_casing = !exact && TAINT_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(k));
        !other_casing && (!exact || v.is_null() || (k != "timeAdded" && v.as_str().is_some()))
    })
}

/// `validateNodeTaints` at `path` (`metadata.taints` for the spec's): key a qualified name,
/// value a label value, effect required and known, `{key, effect}` unique.
fn taints(list: &[Value], path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    for (i, t) in list.iter().enumerate() {
        let at = indexed(path, i);
        let (key, value, effect) = (text(t, "key"), text(t, "value"), text(t, "effect"));
        for msg in formats::label_key(key, version) {
            errors.push(FieldError::invalid(
                join(&at, ".key"),
                FieldError::string_value(key),
                msg,
            ));
        }
        let msgs = formats::label_value(value, version);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                join(&at, ".value"),
                FieldError::string_value(value),
                msgs.join(";"),
            ));
        }
        if effect.is_empty() {
            errors.push(FieldError::required(join(&at, ".effect"), ""));
        } else if !EFFECTS.contains(&effect) {
            errors.push(FieldError::not_supported(
                join(&at, ".effect"),
                FieldError::string_value(effect),
                EFFECTS,
            ));
        }
        if !seen.insert((effect, key)) {
            errors.push(FieldError::new(
                ErrorType::Duplicate,
                at,
                taint_value(t),
                "taints must be unique by key and effect pair",
            ));
        }
    }
}

/// `time.Time.GoString` of a decoded `metav1.Time`, which `UnmarshalJSON` converts to the
/// server's local zone (taken to be UTC): `time.Date(2024, time.May, 1, 10, 0, 0, 0, time.Local)`.
fn go_time_literal(text: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let utc = crate::managed::Time::parse(text).ok()?.rfc3339_bytes()?;
    let utc = std::str::from_utf8(&utc).ok()?;
    let field = |r: std::ops::Range<usize>| utc[r].parse::<u32>().ok();
    let month = MONTHS.get(usize::try_from(field(5..7)?).ok()?.checked_sub(1)?)?;
    Some(format!(
        "time.Date({}, time.{month}, {}, {}, {}, {}, 0, time.Local)",
        field(0..4)?,
        field(8..10)?,
        field(11..13)?,
        field(14..16)?,
        field(17..19)?
    ))
}

/// `ValidateNodeUpdate`: no `status.addresses` entry twice (same type and address), quoting
/// the internal `core.NodeAddress` (JSON of Go's field names from 1.34, `%#v` before).
fn duplicate_addresses(status: Option<&Value>, errors: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    for (i, address) in items(status.and_then(|s| s.get("addresses")))
        .iter()
        .enumerate()
    {
        let (kind, at) = (text(address, "type"), text(address, "address"));
        if seen.insert((kind, at)) {
            continue;
        }
        let mut json = Map::default();
        json.insert("Type".into(), Value::from(kind));
        json.insert("Address".into(), Value::from(at));
        errors.push(FieldError::duplicate(
            format!("status.addresses[{i}]"),
            BadValue::GoValue {
                value: Value::Map(json),
                go_syntax: format!(
                    "core.NodeAddress{{Type:{}, Address:{}}}",
                    go_quote(kind),
                    go_quote(at)
                ),
            },
        ));
    }
}

/// A taint as the server quotes the internal `core.Taint`: JSON since 1.34, `%#v` before.
fn taint_value(t: &Value) -> BadValue {
    // From 1.34 the internal `core.Taint` is quoted as JSON: no json tags, so Go's field
    // names, every field, a nil pointer as `null`.
    let (key, value, effect) = (text(t, "key"), text(t, "value"), text(t, "effect"));
    let mut json = Map::default();
    json.insert("Key".into(), Value::from(key));
    json.insert("Value".into(), Value::from(value));
    json.insert("Effect".into(), Value::from(effect));
    json.insert("TimeAdded".into(), Value::Null);
    // `*metav1.Time` is a `fmt.GoStringer` (time.Time's `GoString`, promoted): `%#v` prints a
    // nil one as `<nil>` (the call panics and fmt catches it) and a set one as `time.Date(…)`.
    let time_added = match t.get("timeAdded").filter(|v| !v.is_null()) {
        Some(added) => {
            json.insert("TimeAdded".into(), added.clone());
            added
                .as_str()
                .and_then(go_time_literal)
                .unwrap_or_else(|| "<nil>".into())
        }
        None => "<nil>".into(),
    };
    BadValue::GoValue {
        value: Value::Map(json),
        go_syntax: format!(
            "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:{time_added}}}",
            go_quote(key),
            go_quote(value),
            go_quote(effect)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const NODE: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},
      "spec":{"podCIDR":"10.0.0.0/24","providerID":"gce://p/z/n1",
        "taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]},
      "status":{"capacity":{"cpu":"4","pods":"110"}}}"#;

    #[test]
    fn a_valid_node_passes_create_and_update() {
        assert!(refusal_causes(NODE, None, 37).is_empty());
        assert!(refusal_causes(NODE, Some(NODE), 37).is_empty());
    }

    #[test]
    fn taints_are_reported_under_metadata() {
        let bad = NODE.replace(
            r#"{"key":"dedicated","value":"gpu","effect":"NoSchedule"}"#,
            r#"{"key":"a b","value":"gpu","effect":"NoRun"},{"key":"x","effect":""},
               {"key":"x","value":"1","effect":""}"#,
        );
        assert_eq!(
            refusal_causes(&bad, None, 34),
            [
                "metadata.taints[0].key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "metadata.taints[0].effect: Unsupported value: \"NoRun\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                "metadata.taints[1].effect: Required value",
                "metadata.taints[2].effect: Required value",
                "metadata.taints[2]: Duplicate value: {\"Key\":\"x\",\"Value\":\"1\",\"Effect\":\"\",\"TimeAdded\":null}: taints must be unique by key and effect pair",
            ]
        );
        assert_eq!(
            refusal_causes(&bad, None, 33)[4],
            "metadata.taints[2]: Duplicate value: core.Taint{Key:\"x\", Value:\"1\", Effect:\"\", TimeAdded:<nil>}: taints must be unique by key and effect pair"
        );
    }

    #[test]
    fn taints_in_the_annotation_are_validated_before_the_spec_ones() {
        let with = |json: &str| {
            NODE.replace(
                r#""metadata":{"name":"n1"}"#,
                &format!(
                    r#""metadata":{{"name":"n1","annotations":{{"scheduler.alpha.kubernetes.io/taints":{}}}}}"#,
                    serde_json::to_string(json).unwrap()
                ),
            )
        };
        let bad = with(r#"[{"key":"dedicated","effect":"Never"}]"#);
        let at = "metadata.annotations.scheduler.alpha.kubernetes.io/taints[0]";
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [format!("{at}.effect: Unsupported value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"")]
        );
        // On update `ValidateNode` and `ValidateNodeUpdate` both report it; the message
        // (`ToAggregate`) shows it once.
        assert_eq!(refusal_causes(&bad, Some(NODE), 37).len(), 1);
        // Well-formed taints pass; what Go's decoder refuses is not checked.
        assert!(
            refusal_causes(&with(r#"[{"key":"a","effect":"NoSchedule"}]"#), None, 37).is_empty()
        );
        assert!(refusal_causes(&with("not json"), None, 37).is_empty());
        assert!(refusal_causes(&with(r#"[{"Key":"a b"}]"#), None, 37).is_empty());
    }

    #[test]
    fn pod_cidrs_are_cidrs_one_per_family() {
        let bad = NODE.replace(
            r#""podCIDR":"10.0.0.0/24""#,
            r#""podCIDR":"10.0.0.0/24","podCIDRs":["10.0.0.0/24","10.1.0.0/24","10.0.0.0/24"]"#,
        );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "spec.podCIDRs: Invalid value: [\"10.0.0.0/24\",\"10.1.0.0/24\",\"10.0.0.0/24\"]: may specify no more than one CIDR for each IP family",
                "spec.podCIDRs[2]: Duplicate value: \"10.0.0.0/24\"",
            ]
        );
        // podCIDR differing from the list's first entry wins (the v1 conversion).
        let single = NODE.replace(
            r#""podCIDR":"10.0.0.0/24""#,
            r#""podCIDR":"10.0.0.0","podCIDRs":["10.0.0.0/24"]"#,
        );
        assert_eq!(
            refusal_causes(&single, None, 37),
            ["spec.podCIDRs[0]: Invalid value: \"10.0.0.0\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
        );
    }

    #[test]
    fn status_quantities_are_checked_on_create() {
        let bad = NODE.replace(r#""pods":"110""#, r#""pods":"1500m","memory":"-1Gi""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "status.capacity.memory: Invalid value: \"-1Gi\": must be greater than or equal to 0",
                "status.capacity.pods: Invalid value: \"1500m\": must be an integer",
                // `SetDefaults_NodeStatus` made the capacity the allocatable too.
                "status.allocatable.memory: Invalid value: \"-1Gi\": must be greater than or equal to 0",
                "status.allocatable.pods: Invalid value: \"1500m\": must be an integer",
            ]
        );
    }

    #[test]
    fn updates_keep_pod_cidrs_and_provider_id() {
        let changed = NODE
            .replace("10.0.0.0/24", "10.9.0.0/24")
            .replace("gce://p/z/n1", "gce://p/z/n2");
        assert_eq!(
            refusal_causes(&changed, Some(NODE), 37),
            [
                "spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid",
                "spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid",
            ]
        );
        let unset = NODE.replace(
            r#""podCIDR":"10.0.0.0/24","providerID":"gce://p/z/n1","#,
            "",
        );
        assert!(refusal_causes(NODE, Some(&unset), 37).is_empty());
    }

    #[test]
    fn a_status_write_lists_no_address_twice() {
        use super::super::status_tests::status_write;
        let live = NODE.replace(
            r#""status":{"#,
            r#""status":{"addresses":[{"type":"InternalIP","address":"10.0.0.5"}],"#,
        );
        let doubled = live.replace(
            r#""addresses":[{"type":"InternalIP","address":"10.0.0.5"}]"#,
            r#""addresses":[{"type":"InternalIP","address":"10.0.0.5"},{"type":"Hostname","address":"n1"},
               {"type":"InternalIP","address":"10.0.0.5"}]"#,
        );
        assert_eq!(
            status_write(36, &live, &doubled).unwrap(),
            "The Node \"n1\" is invalid: status.addresses[2]: Duplicate value: {\"Type\":\"InternalIP\",\"Address\":\"10.0.0.5\"}"
        );
        assert_eq!(
            status_write(33, &live, &doubled).unwrap(),
            "The Node \"n1\" is invalid: status.addresses[2]: Duplicate value: core.NodeAddress{Type:\"InternalIP\", Address:\"10.0.0.5\"}"
        );
    }
}
