//! ResourceQuotas, as k8s.io/kubernetes pkg/apis/core/validation checks them
//! (`ValidateResourceQuota`, `ValidateResourceQuotaSpec`, `ValidateResourceQuotaResourceName`,
//! `ValidateResourceQuantityValue`, `validateResourceQuotaScopes`, `validateScopeSelector`,
//! `ValidateResourceQuotaUpdate`), with the scope helpers of pkg/apis/core/helper
//! (`IsStandardResourceQuotaScope`, `IsResourceQuotaScopeValidForResource`,
//! `IsStandardQuotaResourceName`). The strategy clears `status` on create and keeps the stored
//! one on update, so only the spec is checked.

use super::super::goprint::{go_quote, GoType};
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::resources::{self, is_hugepages, Amount, INTEGER, STANDARD};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{keyed, typed_value};
use crate::value::{Map, Value};
use std::collections::BTreeSet;

const IMMUTABLE: &str = "field is immutable";
const CONFLICTING: &str = "conflicting scopes";
const UNSUPPORTED: &str = "unsupported scope";
const UNSUPPORTED_FOR_RESOURCE: &str = "unsupported scope applied to resource";
/// The presence scopes' operator rule; 1.30 spells the operator `'Exist'` (fixed in 1.31).
const MUST_BE_EXISTS: &[(VersionRange, &str)] = &[
    (VersionRange::until(30), "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"),
    (VersionRange::since(31), "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"),
];

/// `standardResourceQuotaScopes` and the scopes `IsStandardResourceQuotaScope` adds
/// (`CrossNamespacePodAffinity`), with the release each joined: `VolumeAttributesClass` is
/// standard from 1.33 (kubernetes#124360), whatever the VolumeAttributesClass gate.
const SCOPES: &[(&str, VersionRange)] = &[
    ("Terminating", VersionRange::ALWAYS),
    ("NotTerminating", VersionRange::ALWAYS),
    ("BestEffort", VersionRange::ALWAYS),
    ("NotBestEffort", VersionRange::ALWAYS),
    ("PriorityClass", VersionRange::ALWAYS),
    ("CrossNamespacePodAffinity", VersionRange::ALWAYS),
    ("VolumeAttributesClass", VersionRange::since(33)),
];

/// `IsStandardResourceQuotaScope` in `version`.
fn is_standard_scope(scope: &str, version: KubeVersion) -> bool {
    SCOPES
        .iter()
        .any(|(name, range)| *name == scope && range.contains(version))
}

/// The scopes that only tell pods apart by whether they are set (`Exists` only).
const PRESENCE_SCOPES: &[&str] = &[
    "BestEffort",
    "NotBestEffort",
    "Terminating",
    "NotTerminating",
    "CrossNamespacePodAffinity",
];

/// `invalidScopePairs`: scopes that cannot be combined.
const CONFLICTING_PAIRS: &[(&str, &str)] = &[
    ("BestEffort", "NotBestEffort"),
    ("Terminating", "NotTerminating"),
];

/// `podObjectCountQuotaResources`, `podComputeQuotaResources`, `pvcObjectCountQuotaResources`
/// and `pvcStorageQuotaResources`.
const POD_COUNT: &[&str] = &["pods"];
const PVC_QUOTA: &[&str] = &["persistentvolumeclaims", "requests.storage"];
const POD_COMPUTE: &[&str] = &[
    "cpu",
    "memory",
    "limits.cpu",
    "limits.memory",
    "requests.cpu",
    "requests.memory",
];

/// `IsResourceQuotaScopeValidForResource`.
fn scope_valid_for(scope: &str, resource: &str) -> bool {
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => {
            POD_COUNT.contains(&resource) || POD_COMPUTE.contains(&resource)
        }
        "BestEffort" => POD_COUNT.contains(&resource),
        "VolumeAttributesClass" => PVC_QUOTA.contains(&resource),
        _ => true,
    }
}

/// `IsStandardQuotaResourceName`: `standardQuotaResources` (the standard resources less
/// `storage`) and the quota huge page names.
fn is_standard_quota_resource(name: &str) -> bool {
    (STANDARD.contains(&name) && name != "storage")
        || INTEGER.contains(&name)
        || is_hugepages(name)
        || name.starts_with("requests.hugepages-")
}

/// `ValidateResourceQuotaResourceName`.
fn quota_resource_name(name: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    resources::resource_name(name, at, version, errors);
    if !name.contains('/') && !is_standard_quota_resource(name) {
        errors.push(FieldError::invalid(
            at,
            FieldError::stringer_value(name),
            "must be a standard resource for quota",
        ));
    }
}

/// `ValidateResourceQuota` / `ValidateResourceQuotaUpdate`.
pub fn resource_quota(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let hard = hard_names(spec);
    for name in &hard {
        let at = keyed("spec.hard", name);
        quota_resource_name(name, &at, w.version(), errors);
        if let Some(amount) = spec
            .get("hard")
            .and_then(|h| h.get(name))
            .and_then(Amount::of)
        {
            resources::quantity_value(name, &amount, &at, w.version(), errors);
        }
    }
    scopes(spec, &hard, w.version(), errors);
    if let Some(selector) = present(spec, "scopeSelector") {
        scope_selector(spec, selector, &hard, w.version(), errors);
    }
    if let Some(old) = w.live {
        let set = |s: &Value| -> BTreeSet<String> {
            items(s.get("scopes"))
                .iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        };
        if set(spec) != set(self::spec(old)) {
            errors.push(FieldError::invalid(
                "spec.scopes",
                quoted_scopes(spec),
                IMMUTABLE,
            ));
        }
    }
}

/// The names under `spec.hard`, sorted (Go ranges over the map; `sets.List` sorts).
fn hard_names(spec: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = spec
        .get("hard")
        .and_then(Value::as_map)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    names.sort_unstable();
    names
}

/// `validateResourceQuotaScopes`: each errors quotes the whole `spec.scopes` list.
fn scopes(spec: &Value, hard: &[&str], version: KubeVersion, errors: &mut Vec<FieldError>) {
    let list = items(spec.get("scopes"));
    if list.is_empty() {
        return;
    }
    let mut seen = BTreeSet::new();
    for scope in list {
        let scope = scope.as_str().unwrap_or("");
        if !is_standard_scope(scope, version) {
            errors.push(FieldError::invalid(
                "spec.scopes",
                quoted_scopes(spec),
                UNSUPPORTED,
            ));
        }
        for k in hard {
            if is_standard_quota_resource(k) && !scope_valid_for(scope, k) {
                errors.push(FieldError::invalid(
                    "spec.scopes",
                    quoted_scopes(spec),
                    UNSUPPORTED_FOR_RESOURCE,
                ));
            }
        }
        seen.insert(scope);
    }
    conflicts(&seen, "spec.scopes", spec, errors);
}

fn conflicts(seen: &BTreeSet<&str>, at: &str, spec: &Value, errors: &mut Vec<FieldError>) {
    for (a, b) in CONFLICTING_PAIRS {
        if seen.contains(a) && seen.contains(b) {
            errors.push(FieldError::invalid(at, quoted_scopes(spec), CONFLICTING));
        }
    }
}

/// `validateScopedResourceSelectorRequirement`: the paths name no index, as upstream's do;
/// `conflicting scopes` quotes `spec.scopes`, not the selector.
fn scope_selector(
    spec: &Value,
    selector: &Value,
    hard: &[&str],
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    const AT: &str = "spec.scopeSelector.matchExpressions";
    let mut seen = BTreeSet::new();
    for req in items(selector.get("matchExpressions")) {
        let scope = text(req, "scopeName");
        if !is_standard_scope(scope, version) {
            errors.push(FieldError::invalid(
                "spec.scopeSelector.matchExpressions.scopeName",
                FieldError::string_value(scope),
                UNSUPPORTED,
            ));
        }
        for k in hard {
            if is_standard_quota_resource(k) && !scope_valid_for(scope, k) {
                errors.push(FieldError::invalid(
                    AT,
                    quoted_selector(selector),
                    UNSUPPORTED_FOR_RESOURCE,
                ));
            }
        }
        let operator = text(req, "operator");
        if PRESENCE_SCOPES.contains(&scope) && operator != "Exists" {
            errors.push(FieldError::invalid(
                "spec.scopeSelector.matchExpressions.operator",
                FieldError::string_value(operator),
                version.pick(MUST_BE_EXISTS),
            ));
        }
        let values = items(req.get("values"));
        match operator {
            "In" | "NotIn" if values.is_empty() => errors.push(FieldError::required(
                "spec.scopeSelector.matchExpressions.values",
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errors.push(FieldError::invalid(
                "spec.scopeSelector.matchExpressions.values",
                typed_value(strings(values), &GoType::StringList),
                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            _ => errors.push(FieldError::invalid(
                "spec.scopeSelector.matchExpressions.operator",
                FieldError::string_value(operator),
                "not a valid selector operator",
            )),
        }
        seen.insert(scope);
    }
    conflicts(&seen, AT, spec, errors);
}

fn strings(values: &[Value]) -> Value {
    Value::List(
        values
            .iter()
            .map(|v| Value::from(v.as_str().unwrap_or("")))
            .collect(),
    )
}

fn go_strings(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .map(|v| go_quote(v.as_str().unwrap_or("")))
        .collect()
}

/// `spec.scopes` as the server quotes it: a `[]core.ResourceQuotaScope`, Go syntax before
/// 1.34, JSON since (`null` when absent).
fn quoted_scopes(spec: &Value) -> BadValue {
    match spec.get("scopes") {
        Some(Value::List(list)) => BadValue::GoValue {
            value: strings(list),
            go_syntax: format!(
                "[]core.ResourceQuotaScope{{{}}}",
                go_strings(list).join(", ")
            ),
        },
        _ => BadValue::GoValue {
            value: Value::Null,
            go_syntax: "[]core.ResourceQuotaScope(nil)".into(),
        },
    }
}

/// The `*core.ScopeSelector` as the server quotes it: the internal struct (no JSON tags, so
/// Go's field names) as JSON since 1.34, `%#v` of the dereferenced struct before.
fn quoted_selector(selector: &Value) -> BadValue {
    let reqs = items(selector.get("matchExpressions"));
    let mut json = Vec::new();
    let mut go = Vec::new();
    for r in reqs {
        let values = items(r.get("values"));
        let mut m = Map::default();
        m.insert("ScopeName".into(), Value::from(text(r, "scopeName")));
        m.insert("Operator".into(), Value::from(text(r, "operator")));
        m.insert(
            "Values".into(),
            if r.get("values").is_some_and(|v| !v.is_null()) {
                strings(values)
            } else {
                Value::Null
            },
        );
        json.push(Value::Map(m));
        let go_values = match r.get("values") {
            Some(Value::List(_)) => format!("[]string{{{}}}", go_strings(values).join(", ")),
            _ => "[]string(nil)".into(),
        };
        go.push(format!(
            "core.ScopedResourceSelectorRequirement{{ScopeName:{}, Operator:{}, Values:{go_values}}}",
            go_quote(text(r, "scopeName")),
            go_quote(text(r, "operator")),
        ));
    }
    let expressions = match selector.get("matchExpressions") {
        Some(Value::List(_)) => format!(
            "[]core.ScopedResourceSelectorRequirement{{{}}}",
            go.join(", ")
        ),
        _ => "[]core.ScopedResourceSelectorRequirement(nil)".into(),
    };
    let mut m = Map::default();
    m.insert(
        "MatchExpressions".into(),
        match selector.get("matchExpressions") {
            Some(Value::List(_)) => Value::List(json.into()),
            _ => Value::Null,
        },
    );
    BadValue::GoValue {
        value: Value::Map(m),
        go_syntax: format!("core.ScopeSelector{{MatchExpressions:{expressions}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const QUOTA: &str = r#"{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"pods-high","namespace":"default"},"spec":SPEC}"#;

    /// The causes of the refusal of a quota with `spec` (over `live`'s), worded for 1.`minor`.
    fn messages(spec: &str, live: Option<&str>, minor: u8) -> Vec<String> {
        let object = QUOTA.replace("SPEC", spec);
        let live = live.map(|l| QUOTA.replace("SPEC", l));
        refusal_causes(&object, live.as_deref(), minor)
    }

    #[test]
    fn valid_quotas_pass() {
        let spec = r#"{"hard":{"cpu":"1000","memory":"200Gi","pods":"10"},"scopeSelector":{"matchExpressions":[{"operator":"In","scopeName":"PriorityClass","values":["high"]}]}}"#;
        assert!(messages(spec, None, 37).is_empty());
        let spec = r#"{"hard":{"requests.nvidia.com/gpu":"4","count/deployments.apps":"2","requests.cpu":"2"},"scopes":["NotTerminating"]}"#;
        assert!(messages(spec, None, 30).is_empty());
    }

    #[test]
    fn hard_names_and_quantities() {
        assert_eq!(
            messages(r#"{"hard":{"storage":"1Gi","gpu":"1","pods":"1.5","secrets":"-1"}}"#, None, 37),
            [
                "spec.hard[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
                "spec.hard[gpu]: Invalid value: \"gpu\": must be a standard resource for quota",
                "spec.hard[pods]: Invalid value: \"1500m\": must be an integer",
                "spec.hard[secrets]: Invalid value: \"-1\": must be greater than or equal to 0",
                "spec.hard[storage]: Invalid value: \"storage\": must be a standard resource for quota",
            ]
        );
    }

    #[test]
    fn scopes_must_suit_the_resources_and_not_conflict() {
        let spec = r#"{"hard":{"pods":"1","services":"2"},"scopes":["BestEffort","NotBestEffort","Weekend"]}"#;
        assert_eq!(
            messages(spec, None, 37),
            [
                "spec.scopes: Invalid value: [\"BestEffort\",\"NotBestEffort\",\"Weekend\"]: unsupported scope applied to resource",
                "spec.scopes: Invalid value: [\"BestEffort\",\"NotBestEffort\",\"Weekend\"]: unsupported scope",
                "spec.scopes: Invalid value: [\"BestEffort\",\"NotBestEffort\",\"Weekend\"]: conflicting scopes",
            ]
        );
        assert_eq!(
            messages(spec, None, 33)[0],
            "spec.scopes: Invalid value: []core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\", \"Weekend\"}: unsupported scope applied to resource"
        );
    }

    #[test]
    fn scope_selector_operators_and_values() {
        let spec = r#"{"hard":{"pods":"1","services":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"In","values":["x"]},{"scopeName":"PriorityClass","operator":"Exists","values":["high"]},{"scopeName":"PriorityClass","operator":"Equals","values":["a"]}]}}"#;
        let got = messages(spec, None, 37);
        assert_eq!(
            got,
            [
                "spec.scopeSelector.matchExpressions: Invalid value: {\"MatchExpressions\":[{\"ScopeName\":\"BestEffort\",\"Operator\":\"In\",\"Values\":[\"x\"]},{\"ScopeName\":\"PriorityClass\",\"Operator\":\"Exists\",\"Values\":[\"high\"]},{\"ScopeName\":\"PriorityClass\",\"Operator\":\"Equals\",\"Values\":[\"a\"]}]}: unsupported scope applied to resource",
                "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
                "spec.scopeSelector.matchExpressions.values: Invalid value: [\"high\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
                "spec.scopeSelector.matchExpressions.operator: Invalid value: \"Equals\": not a valid selector operator",
            ]
        );
        let pre = messages(spec, None, 33);
        assert_eq!(
            pre[0],
            "spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:\"BestEffort\", Operator:\"In\", Values:[]string{\"x\"}}, core.ScopedResourceSelectorRequirement{ScopeName:\"PriorityClass\", Operator:\"Exists\", Values:[]string{\"high\"}}, core.ScopedResourceSelectorRequirement{ScopeName:\"PriorityClass\", Operator:\"Equals\", Values:[]string{\"a\"}}}}: unsupported scope applied to resource"
        );
        assert_eq!(
            messages(
                r#"{"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"Exists"},{"scopeName":"NotTerminating","operator":"Exists"},{"scopeName":"PriorityClass","operator":"NotIn"}]}}"#,
                None,
                37
            ),
            [
                "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
                "spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes",
            ]
        );
    }

    /// kubernetes#124360 made `VolumeAttributesClass` a standard scope in 1.33, for claim
    /// counts and storage requests only; 1.30 spelled the presence scopes' operator `'Exist'`.
    #[test]
    fn volume_attributes_class_scope_and_the_1_30_operator_wording() {
        let spec = r#"{"hard":{"requests.storage":"10Gi","persistentvolumeclaims":"5","count/persistentvolumeclaims":"5"},"scopeSelector":{"matchExpressions":[{"scopeName":"VolumeAttributesClass","operator":"In","values":["gold"]}]}}"#;
        assert!(messages(spec, None, 33).is_empty());
        assert_eq!(
            messages(spec, None, 32),
            ["spec.scopeSelector.matchExpressions.scopeName: Invalid value: \"VolumeAttributesClass\": unsupported scope"]
        );
        let with_cpu = r#"{"hard":{"cpu":"1"},"scopes":["VolumeAttributesClass"]}"#;
        assert_eq!(
            messages(with_cpu, None, 36),
            ["spec.scopes: Invalid value: [\"VolumeAttributesClass\"]: unsupported scope applied to resource"]
        );
        let presence = r#"{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"In","values":["x"]}]}}"#;
        assert!(messages(presence, None, 30)[0].contains("must be 'Exist' when scope"));
        assert!(messages(presence, None, 31)[0].contains("must be 'Exists' when scope"));
    }

    #[test]
    fn scopes_are_immutable() {
        let old = r#"{"hard":{"pods":"10"},"scopes":["BestEffort"]}"#;
        assert_eq!(
            messages(
                r#"{"hard":{"pods":"10"},"scopes":["NotTerminating"]}"#,
                Some(old),
                37
            ),
            ["spec.scopes: Invalid value: [\"NotTerminating\"]: field is immutable"]
        );
        assert_eq!(
            messages(r#"{"hard":{"pods":"10"}}"#, Some(old), 31),
            ["spec.scopes: Invalid value: []core.ResourceQuotaScope(nil): field is immutable"]
        );
        assert!(messages(
            r#"{"hard":{"pods":"20"},"scopes":["BestEffort","BestEffort"]}"#,
            Some(old),
            37
        )
        .is_empty());
    }
}
