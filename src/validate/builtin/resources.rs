//! A container's resource requirements, as k8s.io/kubernetes pkg/apis/core/validation checks
//! them (`ValidateContainerResourceRequirements` → `validateResourceRequirements`,
//! `validateContainerResourceName`, `validateResourceName`, `ValidateResourceQuantityValue`),
//! with the resource name helpers of pkg/apis/core/helper (`IsStandardResourceName`,
//! `IsStandardContainerResourceName`, `IsExtendedResourceName`, `IsNativeResource`,
//! `IsOvercommitAllowed`, `IsIntegerResourceName`). Go ranges over the two maps; kssa sorts
//! the names.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::fields::quantity_text;
use super::{hugepages, resource_claims};
use crate::defaults::quantity::{canonicalize, Quantity};
use crate::kube::KubeVersion;
use crate::validate::field::{join, keyed};
use crate::value::Value;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// `standardResources` less the [`INTEGER`] ones, which it holds too, and the hugepages
/// prefixes, tested apart.
pub(super) const STANDARD: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "storage",
    "requests.storage",
];
/// `standardContainerResources`.
const CONTAINER: &[&str] = &["cpu", "memory", "ephemeral-storage"];
/// `integerResources`.
pub(super) const INTEGER: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];
const HUGEPAGES: &str = "hugepages-";

pub(super) fn is_hugepages(name: &str) -> bool {
    name.starts_with(HUGEPAGES)
}

/// `IsNativeResource`: unprefixed, or in the kubernetes.io namespace.
pub(super) fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsOvercommitAllowed`: native and not hugepages (a request may stay below its limit).
pub(super) fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// `IsExtendedResourceName`.
pub(super) fn is_extended(name: &str, version: KubeVersion) -> bool {
    !is_native(name)
        && !name.starts_with("requests.")
        && formats::label_key(&format!("requests.{name}"), version).is_empty()
}

/// `validateResourceName`: a qualified name, standard unless prefixed.
pub(super) fn resource_name(
    name: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let msgs = formats::label_key(name, version);
    if !msgs.is_empty() {
        for msg in msgs {
            errors.push(FieldError::invalid(
                at,
                FieldError::stringer_value(name),
                msg,
            ));
        }
        return;
    }
    let standard = STANDARD.contains(&name)
        || INTEGER.contains(&name)
        || is_hugepages(name)
        || name.starts_with("requests.hugepages-");
    if !name.contains('/') && !standard {
        errors.push(FieldError::invalid(
            at,
            FieldError::stringer_value(name),
            "must be a standard resource type or fully qualified",
        ));
    }
}

/// `validateContainerResourceName`.
pub(super) fn container_resource_name(
    name: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    // The names nearly every container uses pass every check.
    if CONTAINER.contains(&name) {
        return;
    }
    resource_name(name, at, version, errors);
    let detail = if !name.contains('/') {
        if CONTAINER.contains(&name) || is_hugepages(name) {
            return;
        }
        "must be a standard resource for containers"
    } else if !is_native(name) && !is_extended(name, version) {
        "doesn't follow extended resource name standard"
    } else {
        return;
    };
    errors.push(FieldError::invalid(
        at,
        FieldError::stringer_value(name),
        detail,
    ));
}

/// A parsed quantity and its text.
pub(super) struct Amount {
    pub(super) quantity: Option<Quantity>,
    text: String,
}

impl Amount {
    pub(super) fn of(v: &Value) -> Option<Amount> {
        let text = quantity_text(v)?;
        Some(Amount {
            quantity: Quantity::parse(&text),
            text,
        })
    }

    /// The canonical text (`Quantity.String()`), which only an error shows.
    pub(super) fn shown(&self) -> String {
        canonicalize(&self.text).unwrap_or_else(|| self.text.clone())
    }

    /// The quantity as a bad value: JSON (its canonical string) from 1.34; before, Go's `%#v`
    /// of the struct, shortened to `resource.Quantity{…}` where its internals cannot be known
    /// (an `inf.Dec` pointer). `in_resource_list`: it sits in a `ResourceList` (rounded to
    /// milli by defaulting).
    pub(super) fn go_value(&self, in_resource_list: bool) -> BadValue {
        BadValue::GoValue {
            value: Value::String(self.shown()),
            go_syntax: crate::defaults::quantity::go_syntax(&self.text, in_resource_list)
                .unwrap_or_else(|| "resource.Quantity{…}".into()),
        }
    }

    /// `ValidateNonnegativeQuantity` of the quantity `v` at `path`, quoting the canonical text.
    pub(super) fn non_negative(v: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
        let Some(amount) = v.filter(|v| !v.is_null()).and_then(Amount::of) else {
            return;
        };
        if amount.quantity.is_some_and(|q| q.is_negative()) {
            errors.push(FieldError::invalid(
                path,
                FieldError::string_value(&amount.shown()),
                "must be greater than or equal to 0",
            ));
        }
    }

    pub(super) fn compare(&self, other: &Amount) -> Option<Ordering> {
        self.quantity?.compare(&other.quantity?)
    }

    /// `MilliValue() % 1000 == 0`.
    fn is_integer(&self) -> bool {
        let Some(mut milli) = self.quantity else {
            return true;
        };
        if milli.round_up(-3).is_none() {
            return true;
        }
        let mut whole = milli;
        whole.round_up(0).is_none() || whole.compare(&milli) == Some(Ordering::Equal)
    }
}

/// `ValidateResourceQuantityValue`: not negative; whole for integer resources. (The bad value
/// of `must be an integer` is the quantity itself, which 1.34+ print as its JSON string and
/// earlier releases as a Go struct; kssa prints the string.)
pub(super) fn quantity_value(
    name: &str,
    amount: &Amount,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if amount.quantity.is_some_and(|q| q.is_negative()) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&amount.shown()),
            "must be greater than or equal to 0",
        ));
    }
    let integer_resource = INTEGER.contains(&name) || is_extended(name, version);
    if integer_resource && !amount.is_integer() {
        errors.push(FieldError::invalid(
            at,
            amount.go_value(true),
            "must be an integer",
        ));
    }
}

/// The entries of `resources.<key>`, sorted by name, with their quantities.
fn entries<'v>(resources: Option<&'v Value>, key: &str) -> Vec<(&'v str, Amount)> {
    let mut list: Vec<(&str, Amount)> = resources
        .and_then(|r| r.get(key))
        .and_then(Value::as_map)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str(), Amount::of(v)?)))
        .collect();
    list.sort_by(|a, b| a.0.cmp(b.0));
    list
}

/// Which names a resource list may hold: a container's (`validateContainerResourceName`) or
/// the pod-level ones (`validatePodResourceName`, [`super::pod_resources`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Container,
    Pod,
}

/// What `validateResourceRequirements` needs from the pod around one list.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The names of `spec.resourceClaims` that `claims` may refer to; `None` where the strategy
    /// drops claims (DynamicResourceAllocation off), so they are not checked.
    pub pod_claims: Option<&'a BTreeSet<String>>,
    /// `AllowIndivisibleHugePagesValues`: the stored pod already had such a quantity.
    pub indivisible_hugepages: bool,
}

/// `ValidateContainerResourceRequirements` for the container `c` at `path`.
pub fn container(
    c: &Value,
    path: &str,
    context: Context,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    requirements(
        c.get("resources"),
        &join(path, ".resources"),
        Level::Container,
        context,
        version,
        errors,
    );
}

/// `validateResourceRequirements` of the list `resources` at `at` (`….resources`).
pub fn requirements(
    resources: Option<&Value>,
    at: &str,
    level: Level,
    context: Context,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let (limits_at, requests_at) = (join(at, ".limits"), join(at, ".requests"));
    let name_check = |name: &str, key_at: &str, errors: &mut Vec<FieldError>| match level {
        Level::Container => container_resource_name(name, key_at, version, errors),
        Level::Pod => pod_resource_name(name, key_at, version, errors),
    };
    let limits = entries(resources, "limits");
    let requests = entries(resources, "requests");
    let cpu_or_memory = |name: &str| name == "cpu" || name == "memory";
    let mut has_cpu_or_memory = false;
    let mut has_hugepages = false;
    for (name, amount) in &limits {
        let key_at = keyed(&limits_at, name);
        name_check(name, &key_at, errors);
        quantity_value(name, amount, &key_at, version, errors);
        if is_hugepages(name) && !context.indivisible_hugepages {
            hugepages::divisible(name, amount.quantity, &amount.shown(), &key_at, errors);
        }
        has_hugepages |= is_hugepages(name);
        has_cpu_or_memory |= cpu_or_memory(name);
    }
    for (name, amount) in &requests {
        let key_at = keyed(&requests_at, name);
        name_check(name, &key_at, errors);
        quantity_value(name, amount, &key_at, version, errors);
        match limits.iter().find(|(n, _)| n == name) {
            Some((_, limit)) => {
                let cmp = amount.compare(limit);
                let detail = if cmp.is_some_and(Ordering::is_ne) && !overcommit_allowed(name) {
                    format!("must be equal to {name} limit of {}", limit.shown())
                } else if cmp == Some(Ordering::Greater) {
                    format!(
                        "must be less than or equal to {name} limit of {}",
                        limit.shown()
                    )
                } else {
                    String::new()
                };
                if !detail.is_empty() {
                    errors.push(FieldError::invalid(
                        &requests_at,
                        FieldError::string_value(&amount.shown()),
                        detail,
                    ));
                }
            }
            None if !overcommit_allowed(name) => errors.push(FieldError::required(
                &limits_at,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
        if is_hugepages(name) && !context.indivisible_hugepages {
            hugepages::divisible(name, amount.quantity, &amount.shown(), &key_at, errors);
        }
        has_hugepages |= is_hugepages(name);
        has_cpu_or_memory |= cpu_or_memory(name);
    }
    if has_hugepages && !has_cpu_or_memory {
        errors.push(FieldError::forbidden(at, "HugePages require cpu or memory"));
    }
    if let Some(pod_claims) = context.pod_claims {
        let claims = resources.and_then(|r| r.get("claims"));
        resource_claims::references(claims, &join(at, ".claims"), pod_claims, errors);
    }
}

/// `validatePodResourceName`: a valid resource name, then one of the pod-level resources.
fn pod_resource_name(name: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let before = errors.len();
    resource_name(name, at, version, errors);
    if errors.len() == before && !(name == "cpu" || name == "memory" || is_hugepages(name)) {
        errors.push(FieldError::not_supported(
            at,
            FieldError::stringer_value(name),
            POD_LEVEL_SUPPORTED,
        ));
    }
}

/// `sets.List(SupportedPodLevelResources())` from 1.34, when pod-level resources are first
/// checked (the hugepages prefix joined cpu and memory in that release).
const POD_LEVEL_SUPPORTED: &[&str] = &["cpu", "hugepages-", "memory"];

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(resources: &str, minor: u8) -> Vec<String> {
        let c = format!(r#"{{"resources":{resources}}}"#);
        messages_of(&c, minor, |c, v, errors| {
            container(c, "spec.containers[0]", Context::default(), v, errors)
        })
    }

    #[test]
    fn unknown_names_are_refused_twice() {
        assert_eq!(
            messages(r#"{"limits":{"gpu":"1"}}"#, 37),
            [
                "spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
                "spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
            ]
        );
        assert_eq!(
            messages(r#"{"requests":{"pods":"1"}}"#, 30),
            // Before 1.34 a `core.ResourceName` prints bare (its `String()`).
            ["spec.containers[0].resources.requests[pods]: Invalid value: pods: must be a standard resource for containers"]
        );
    }

    #[test]
    fn extended_resources_are_whole_and_requested_at_their_limit() {
        assert_eq!(
            messages(r#"{"limits":{"nvidia.com/gpu":"2"},"requests":{"nvidia.com/gpu":"1"}}"#, 37),
            ["spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2"]
        );
        assert_eq!(
            messages(r#"{"requests":{"nvidia.com/gpu":"500m"}}"#, 37),
            [
                "spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
                "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources",
            ]
        );
        assert!(messages(
            r#"{"limits":{"nvidia.com/gpu":1},"requests":{"nvidia.com/gpu":"1"}}"#,
            37
        )
        .is_empty());
    }

    #[test]
    fn hugepages_need_cpu_or_memory_and_native_requests_stay_below_limits() {
        assert_eq!(
            messages(
                r#"{"limits":{"hugepages-2Mi":"100Mi"},"requests":{"hugepages-2Mi":"100Mi"}}"#,
                37
            ),
            ["spec.containers[0].resources: Forbidden: HugePages require cpu or memory"]
        );
        assert_eq!(
            messages(r#"{"limits":{"cpu":"500m"},"requests":{"cpu":"1"}}"#, 37),
            ["spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m"]
        );
        assert!(messages(
            r#"{"limits":{"example.com/foo":"1","kubernetes.io/bar":"1"}}"#,
            37
        )
        .is_empty());
    }
}
