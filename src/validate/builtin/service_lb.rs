//! A Service's load-balancer fields and traffic distribution, as k8s.io/kubernetes
//! pkg/apis/core/validation `ValidateService` checks them: `loadBalancerSourceRanges` (or the
//! legacy annotation) as CIDRs (apimachinery `IsValidCIDR`), `loadBalancerClass`
//! (`validateLoadBalancerClassField`, also run by `ValidateServiceUpdate` with the old
//! Service), and `trafficDistribution` (`validateServiceTrafficDistribution`) per release.

use super::super::FieldError;
use super::fields::{items, present, text};
use super::ip_strict;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::formats;
use crate::value::Value;

/// `core.AnnotationLoadBalancerSourceRangesKey`.
const SOURCE_RANGES_ANNOTATION: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";
const ONLY_LOAD_BALANCER: &str = "may only be used when `type` is 'LoadBalancer'";

/// The values `trafficDistribution` may take: until 1.33 `PreferClose` only (in 1.30, where
/// ServiceTrafficDistribution is alpha and off, the strategy drops a new value first, see
/// [`crate::kube::strategy_prepare`], so only a stored one is validated), from 1.34
/// (PreferSameTrafficDistribution beta, then GA in 1.35) also `PreferSameZone` and
/// `PreferSameNode`, listed unsorted.
const TRAFFIC_DISTRIBUTIONS: &[(VersionRange, &[&str])] = &[
    (VersionRange::until(33), &["PreferClose"]),
    (
        VersionRange::since(34),
        &["PreferClose", "PreferSameZone", "PreferSameNode"],
    ),
];

fn cidr(value: &str, path: &str, ctx: &RangeContext, errors: &mut Vec<FieldError>) {
    if let Some(message) = ip_strict::legacy_cidr(value, ctx.version, &ctx.stored) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(value),
            message,
        ));
    }
}

/// What the source range check knows of the write: the release and the update's stored
/// ranges (trimmed, as `existingSourceRanges`).
struct RangeContext<'v> {
    version: KubeVersion,
    stored: Vec<&'v str>,
}

/// `loadBalancerSourceRanges` (the server's path keeps the Go field's capital), else the
/// legacy annotation: only for LoadBalancer services, each value a CIDR once trimmed
/// (`IsValidCIDRForLegacyField`). `old` is the stored Service on update: from 1.33 its ranges
/// are accepted as they are, and an unchanged annotation is not checked again.
pub fn source_ranges(
    object: &Value,
    spec: &Value,
    old: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let load_balancer = text(spec, "type") == "LoadBalancer";
    let ranges = items(spec.get("loadBalancerSourceRanges"));
    if !ranges.is_empty() {
        let path = "spec.LoadBalancerSourceRanges";
        if !load_balancer {
            errors.push(FieldError::forbidden(path, ONLY_LOAD_BALANCER));
        }
        let stored = old
            .map(|o| items(o.get_path(&["spec", "loadBalancerSourceRanges"])))
            .unwrap_or_default();
        let ctx = RangeContext {
            version,
            stored: stored
                .iter()
                .map(|r| r.as_str().unwrap_or("").trim())
                .collect(),
        };
        for (i, range) in ranges.iter().enumerate() {
            cidr(
                range.as_str().unwrap_or("").trim(),
                &format!("{path}[{i}]"),
                &ctx,
                errors,
            );
        }
        return;
    }
    let annotation = |o: &'_ Value| -> Option<String> {
        o.get_path(&["metadata", "annotations", SOURCE_RANGES_ANNOTATION])
            .map(|v| v.as_str().unwrap_or("").to_string())
    };
    let Some(value) = annotation(object) else {
        return;
    };
    let path = format!("metadata.annotations[{SOURCE_RANGES_ANNOTATION}]");
    if !load_balancer {
        errors.push(FieldError::forbidden(&path, ONLY_LOAD_BALANCER));
    }
    let unchanged = old.is_some_and(|o| annotation(o).as_deref() == Some(&value));
    if unchanged && STORED_ANNOTATION_KEPT.contains(version) {
        return;
    }
    let ctx = RangeContext {
        version,
        stored: Vec::new(),
    };
    let value = value.trim();
    if !value.is_empty() {
        for range in value.split(',') {
            cidr(range.trim(), &path, &ctx, errors);
        }
    }
}

/// From 1.33 an update that keeps the source-ranges annotation as stored is not checked.
const STORED_ANNOTATION_KEPT: VersionRange = VersionRange::since(33);

/// `validateLoadBalancerClassField`: with the old Service, a LoadBalancer keeps its class;
/// the class is a qualified name, and only for LoadBalancer services.
pub fn load_balancer_class(
    spec: &Value,
    old: Option<&Value>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    const PATH: &str = "spec.loadBalancerClass";
    let class = present(spec, "loadBalancerClass");
    let load_balancer = text(spec, "type") == "LoadBalancer";
    if let Some(old) = old {
        if load_balancer
            && text(old, "type") == "LoadBalancer"
            && class != present(old, "loadBalancerClass")
        {
            errors.push(FieldError::invalid(
                PATH,
                crate::validate::BadValue::Value(class.cloned().unwrap_or(Value::Null)),
                "may not change once set",
            ));
        }
    }
    let Some(class) = class else { return };
    if load_balancer {
        let name = class.as_str().unwrap_or("");
        for msg in formats::label_key(name, version) {
            errors.push(FieldError::invalid(
                PATH,
                FieldError::string_value(name),
                msg,
            ));
        }
    } else {
        errors.push(FieldError::forbidden(PATH, ONLY_LOAD_BALANCER));
    }
}

/// `validateServiceTrafficDistribution`, with the values of `version`.
pub fn traffic_distribution(spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let Some(value) = present(spec, "trafficDistribution").and_then(Value::as_str) else {
        return;
    };
    let supported = version.pick(TRAFFIC_DISTRIBUTIONS);
    if !supported.contains(&value) {
        errors.push(FieldError::not_supported(
            "spec.trafficDistribution",
            FieldError::string_value(value),
            supported,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{json, messages_of};
    use super::*;

    #[test]
    fn source_ranges_are_trimmed_cidrs_of_load_balancers() {
        let check = |spec: &str| {
            messages_of(spec, 37, |spec, v, errors| {
                source_ranges(spec, spec, None, v, errors)
            })
        };
        assert!(
            check(r#"{"type":"LoadBalancer","loadBalancerSourceRanges":[" 10.0.0.0/8 "]}"#)
                .is_empty()
        );
        assert_eq!(
            check(r#"{"type":"NodePort","loadBalancerSourceRanges":["10.0.0.0/8","10.0.0.1"]}"#),
            [
                "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
                "spec.LoadBalancerSourceRanges[1]: Invalid value: \"10.0.0.1\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
            ]
        );
        assert_eq!(
            check(r#"{"type":"LoadBalancer","metadata":{"annotations":{"service.beta.kubernetes.io/load-balancer-source-ranges":"10.0.0.0/8, x"}}}"#),
            ["metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: \"x\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
        );
    }

    #[test]
    fn load_balancer_class_is_a_qualified_name_kept_by_load_balancers() {
        let check = |spec: &str, old: Option<&str>| {
            let old = old.map(json);
            messages_of(spec, 37, |spec, v, errors| {
                load_balancer_class(spec, old.as_ref(), v, errors)
            })
        };
        assert_eq!(
            check(
                r#"{"type":"ClusterIP","loadBalancerClass":"example.com/lb"}"#,
                None
            ),
            ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]
        );
        assert_eq!(
            check(r#"{"type":"LoadBalancer","loadBalancerClass":"a/b/c"}"#, None)[0],
            "spec.loadBalancerClass: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        );
        assert_eq!(
            check(
                r#"{"type":"LoadBalancer"}"#,
                Some(r#"{"type":"LoadBalancer","loadBalancerClass":"example.com/lb"}"#)
            ),
            ["spec.loadBalancerClass: Invalid value: null: may not change once set"]
        );
    }

    #[test]
    fn traffic_distribution_values_follow_the_release() {
        let spec = r#"{"trafficDistribution":"PreferSameZone"}"#;
        let check = |minor| messages_of(spec, minor, traffic_distribution);
        assert_eq!(check(30), check(33));
        assert_eq!(
            check(33),
            ["spec.trafficDistribution: Unsupported value: \"PreferSameZone\": supported values: \"PreferClose\""]
        );
        assert!(check(34).is_empty());
        assert_eq!(
            messages_of(r#"{"trafficDistribution":"Nearby"}"#, 37, traffic_distribution),
            ["spec.trafficDistribution: Unsupported value: \"Nearby\": supported values: \"PreferClose\", \"PreferSameZone\", \"PreferSameNode\""]
        );
    }
}
