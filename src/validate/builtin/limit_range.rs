//! LimitRanges, as k8s.io/kubernetes pkg/apis/core/validation checks them (`ValidateLimitRange`,
//! `validateLimitRangeTypeName`, `validateLimitRangeResourceName`) on the object the v1
//! defaulter (pkg/apis/core/v1/defaults.go `SetDefaults_LimitRangeItem`) has filled in.
//! Create and update run the same rules.

use super::super::{FieldError, Write};
use super::fields::{items, spec, text};
use super::resources::{self, overcommit_allowed, Amount};
use crate::defaults::quantity::Quantity;
use crate::kube::KubeVersion;
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// `standardLimitRangeTypes`.
const LIMIT_TYPES: &[&str] = &["Pod", "Container", "PersistentVolumeClaim"];
const POD_FORBIDDEN: &str = "may not be specified when `type` is 'Pod'";
/// `resource.MaxMilliValue`: above it the ratio is compared in whole units.
const MAX_MILLI_VALUE: i128 = (i64::MAX / 1000) as i128;

/// One resource list of a limit, by name (sorted: Go ranges over the maps in random order).
type Quantities = BTreeMap<String, Amount>;

fn quantities(limit: &Value, key: &str) -> Quantities {
    limit
        .get(key)
        .and_then(Value::as_map)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), Amount::of(v)?)))
        .collect()
}

/// `ValidateLimitRange`.
pub fn limit_range(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let mut types = HashSet::new();
    let limits: Vec<Value> = items(spec(object).get("limits"))
        .iter()
        .map(defaulted)
        .collect();
    for (i, limit) in limits.iter().enumerate() {
        let at = indexed("spec.limits", i);
        let kind = text(limit, "type");
        type_name(kind, &join(&at, ".type"), version, errors);
        if !types.insert(kind) {
            errors.push(FieldError::duplicate(
                join(&at, ".type"),
                FieldError::string_value(kind),
            ));
        }
        let mut keys = BTreeSet::new();
        let mut names = |list: &str, errors: &mut Vec<FieldError>| -> Quantities {
            let q = quantities(limit, list);
            for name in q.keys() {
                let key_at = keyed(&join(&at, &[".", list].concat()), name);
                resource_name(kind, name, &key_at, version, errors);
                keys.insert(name.clone());
            }
            q
        };
        let max = names("max", errors);
        let min = names("min", errors);
        let (default, default_request) = if kind == "Pod" {
            for list in ["default", "defaultRequest"] {
                if limit
                    .get(list)
                    .and_then(Value::as_map)
                    .is_some_and(|m| !m.is_empty())
                {
                    errors.push(FieldError::forbidden(
                        join(&at, &[".", list].concat()),
                        POD_FORBIDDEN,
                    ));
                }
            }
            (Quantities::new(), Quantities::new())
        } else {
            let default = names("default", errors);
            (default, names("defaultRequest", errors))
        };
        if kind == "PersistentVolumeClaim"
            && !min.contains_key("storage")
            && !max.contains_key("storage")
        {
            errors.push(FieldError::required(
                join(&at, ".limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
        let ratios = names("maxLimitRequestRatio", errors);
        let lists = Lists {
            min: &min,
            max: &max,
            default: &default,
            default_request: &default_request,
            ratio: &ratios,
        };
        for k in &keys {
            lists.compare(k, &at, errors);
        }
    }
}

/// `validateLimitRangeTypeName`: a qualified name, standard unless prefixed.
fn type_name(kind: &str, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let msgs = crate::validate::formats::label_key(kind, version);
    if !msgs.is_empty() {
        for msg in msgs {
            errors.push(FieldError::invalid(at, FieldError::string_value(kind), msg));
        }
        return;
    }
    if !kind.contains('/') && !LIMIT_TYPES.contains(&kind) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(kind),
            "must be a standard limit type or fully qualified",
        ));
    }
}

/// `validateLimitRangeResourceName`: container resource names for `Pod` and `Container`
/// limits, any resource name for the others (`storage` for claims).
fn resource_name(
    kind: &str,
    name: &str,
    at: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    match kind {
        "Pod" | "Container" => resources::container_resource_name(name, at, version, errors),
        _ => resources::resource_name(name, at, version, errors),
    }
}

/// The limit as the v1 defaulter completes it (the defaults module's rule, applied again here
/// for callers that validate an object that was not defaulted).
fn defaulted(limit: &Value) -> Value {
    let mut out = limit.clone();
    if let Some(m) = out.as_map_mut() {
        crate::defaults::limit_range_item(m);
    }
    out
}

/// The five lists of one limit, compared resource by resource.
struct Lists<'a> {
    min: &'a Quantities,
    max: &'a Quantities,
    default: &'a Quantities,
    default_request: &'a Quantities,
    ratio: &'a Quantities,
}

fn greater(a: &Amount, b: &Amount) -> bool {
    a.compare(b) == Some(std::cmp::Ordering::Greater)
}

impl Lists<'_> {
    /// The checks of one resource `k`, in the server's order.
    fn compare(&self, k: &str, at: &str, errors: &mut Vec<FieldError>) {
        let (min, max) = (self.min.get(k), self.max.get(k));
        let (default, request) = (self.default.get(k), self.default_request.get(k));
        let ratio = self.ratio.get(k);
        let mut push = |list: &str, value: &Amount, detail: String| {
            errors.push(FieldError::invalid(
                keyed(&join(at, &[".", list].concat()), k),
                value.go_value(true),
                detail,
            ));
        };
        if let (Some(min), Some(max)) = (min, max) {
            if greater(min, max) {
                let detail = format!(
                    "min value {} is greater than max value {}",
                    min.shown(),
                    max.shown()
                );
                push("min", min, detail);
            }
        }
        if let (Some(request), Some(min)) = (request, min) {
            if greater(min, request) {
                let detail = format!(
                    "min value {} is greater than default request value {}",
                    min.shown(),
                    request.shown()
                );
                push("defaultRequest", request, detail);
            }
        }
        if let (Some(request), Some(max)) = (request, max) {
            if greater(request, max) {
                let detail = format!(
                    "default request value {} is greater than max value {}",
                    request.shown(),
                    max.shown()
                );
                push("defaultRequest", request, detail);
            }
        }
        if let (Some(request), Some(default)) = (request, default) {
            if greater(request, default) {
                let detail = format!(
                    "default request value {} is greater than default limit value {}",
                    request.shown(),
                    default.shown()
                );
                push("defaultRequest", request, detail);
            }
        }
        if let (Some(default), Some(min)) = (default, min) {
            if greater(min, default) {
                let detail = format!(
                    "min value {} is greater than default value {}",
                    min.shown(),
                    default.shown()
                );
                // The server quotes the minimum here.
                push("default", min, detail);
            }
        }
        if let (Some(default), Some(max)) = (default, max) {
            if greater(default, max) {
                let detail = format!(
                    "default value {} is greater than max value {}",
                    default.shown(),
                    max.shown()
                );
                // And the maximum here.
                push("default", max, detail);
            }
        }
        if let Some(ratio) = ratio {
            let one = Quantity::parse("1").expect("1 is a quantity");
            if ratio.quantity.and_then(|r| r.compare(&one)) == Some(std::cmp::Ordering::Less) {
                push(
                    "maxLimitRequestRatio",
                    ratio,
                    format!("ratio {} is less than 1", ratio.shown()),
                );
            }
            if let (Some(min), Some(max)) = (min, max) {
                if let Some(limit) = ratio_limit(ratio, min, max) {
                    let detail = format!(
                        "ratio {} is greater than max/min = {limit:.6}",
                        ratio.shown()
                    );
                    push("maxLimitRequestRatio", ratio, detail);
                }
            }
        }
        if let (Some(default), Some(request)) = (default, request) {
            let differ = default.compare(request).is_some_and(|o| o.is_ne());
            if !overcommit_allowed(k) && differ {
                let detail = format!(
                    "default value {} must equal to defaultRequest value {} in {k}",
                    default.shown(),
                    request.shown()
                );
                push("defaultRequest", request, detail);
            }
        }
    }
}

/// `max/min` when the ratio exceeds it (compared in milli-units unless a value is too large
/// for them, as upstream does in float64), else `None`.
fn ratio_limit(ratio: &Amount, min: &Amount, max: &Amount) -> Option<f64> {
    let (r, lo, hi) = (ratio.quantity?, min.quantity?, max.quantity?);
    let (rv, lov, hiv) = (r.whole()?, lo.whole()?, hi.whole()?);
    let small = rv < MAX_MILLI_VALUE && lov < MAX_MILLI_VALUE && hiv < MAX_MILLI_VALUE;
    let (ratio_value, lo, hi) = if small {
        (r.milli()? as f64 / 1000.0, lo.milli()?, hi.milli()?)
    } else {
        (rv as f64, lov, hiv)
    };
    let limit = hi as f64 / lo as f64;
    (ratio_value > limit).then_some(limit)
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    /// The causes of the refusal of a LimitRange with `limits`, worded for 1.`minor`.
    fn messages(limits: &str, minor: u8) -> Vec<String> {
        let object = format!(
            r#"{{"apiVersion":"v1","kind":"LimitRange","metadata":{{"name":"limits","namespace":"default"}},"spec":{{"limits":{limits}}}}}"#
        );
        refusal_causes(&object, None, minor)
    }

    #[test]
    fn valid_limit_ranges_pass() {
        let limits = r#"[{"type":"Container","max":{"cpu":"800m","memory":"1Gi"},"min":{"cpu":"100m","memory":"99Mi"},"default":{"cpu":"700m","memory":"900Mi"},"defaultRequest":{"cpu":"110m","memory":"111Mi"}},{"type":"Pod","maxLimitRequestRatio":{"memory":2}},{"type":"PersistentVolumeClaim","max":{"storage":"2Gi"},"min":{"storage":"1Gi"}}]"#;
        assert!(messages(limits, 37).is_empty());
        assert!(messages(r#"[{"type":"Container","min":{"cpu":"100m"},"max":{"cpu":"2"},"maxLimitRequestRatio":{"cpu":"20"}}]"#, 30).is_empty());
    }

    #[test]
    fn min_default_and_max_are_ordered() {
        assert_eq!(
            messages(r#"[{"type":"Container","min":{"cpu":"2"},"max":{"cpu":"1"},"default":{"cpu":"1500m"},"defaultRequest":{"cpu":"500m"}}]"#, 37),
            [
                "spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1",
                "spec.limits[0].defaultRequest[cpu]: Invalid value: \"500m\": min value 2 is greater than default request value 500m",
                "spec.limits[0].default[cpu]: Invalid value: \"2\": min value 2 is greater than default value 1500m",
                "spec.limits[0].default[cpu]: Invalid value: \"1\": default value 1500m is greater than max value 1",
            ]
        );
        assert_eq!(
            messages(r#"[{"type":"Container","default":{"memory":"512Mi"},"defaultRequest":{"memory":"1Gi"}}]"#, 33),
            ["spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"1Gi\", Format:\"BinarySI\"}: default request value 1Gi is greater than default limit value 512Mi"]
        );
    }

    #[test]
    fn defaults_come_from_max_for_containers() {
        // `default` is filled in from `max`, `defaultRequest` from `default`: both 2.
        assert_eq!(
            messages(r#"[{"type":"Container","max":{"cpu":"2"},"min":{"cpu":"3"}}]"#, 37),
            [
                "spec.limits[0].min[cpu]: Invalid value: \"3\": min value 3 is greater than max value 2",
                "spec.limits[0].defaultRequest[cpu]: Invalid value: \"2\": min value 3 is greater than default request value 2",
                "spec.limits[0].default[cpu]: Invalid value: \"3\": min value 3 is greater than default value 2",
            ]
        );
    }

    #[test]
    fn types_names_and_pod_defaults() {
        assert_eq!(
            messages(r#"[{"type":"Pod","default":{"cpu":"1"},"max":{"storage":"1Gi"}},{"type":"Pod"},{"type":"Node"},{"type":"PersistentVolumeClaim","max":{"cpu":"1"}}]"#, 37),
            [
                "spec.limits[0].max[storage]: Invalid value: \"storage\": must be a standard resource for containers",
                "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
                "spec.limits[1].type: Duplicate value: \"Pod\"",
                "spec.limits[2].type: Invalid value: \"Node\": must be a standard limit type or fully qualified",
                "spec.limits[3].limits: Required value: either minimum or maximum storage value is required, but neither was provided",
            ]
        );
    }

    #[test]
    fn ratios() {
        assert_eq!(
            messages(r#"[{"type":"Pod","maxLimitRequestRatio":{"memory":"500m"},"min":{"cpu":"1"},"max":{"cpu":"3"}},{"type":"Container","min":{"cpu":"100m"},"max":{"cpu":"300m"},"maxLimitRequestRatio":{"cpu":"4"}}]"#, 37),
            [
                "spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: \"500m\": ratio 500m is less than 1",
                "spec.limits[1].maxLimitRequestRatio[cpu]: Invalid value: \"4\": ratio 4 is greater than max/min = 3.000000",
            ]
        );
    }

    #[test]
    fn extended_resources_default_to_their_request() {
        assert_eq!(
            messages(r#"[{"type":"Container","default":{"nvidia.com/gpu":"2"},"defaultRequest":{"nvidia.com/gpu":"1"}}]"#, 37),
            ["spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: \"1\": default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu"]
        );
    }
}
