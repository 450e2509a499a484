//! A HorizontalPodAutoscaler's `spec.metrics`, as k8s.io/kubernetes
//! pkg/apis/autoscaling/validation checks them (`validateMetrics`, `validateMetricSpec` and the
//! per-source functions): one populated source matching the type, its metric and its target.

use super::super::formats;
use super::super::{BadValue, FieldError};
use super::autoscaling::{cross_version_reference, ApiVersionRule};
use super::fields::{items, present, text};
use super::resources::Amount;
use crate::defaults::quantity::Quantity;
use crate::kube::KubeVersion;
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::cmp::Ordering;

/// `validMetricSourceTypesList`: sorted, as `sets.String.List` returns them.
const SOURCE_TYPES: &[&str] = &[
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];

/// The source fields in the order `validateMetricSpec` looks at them, with the type each
/// belongs to.
const SOURCES: &[(&str, &str)] = &[
    ("object", "Object"),
    ("external", "External"),
    ("pods", "Pods"),
    ("resource", "Resource"),
    ("containerResource", "ContainerResource"),
];

/// `validateMetrics`: each entry in turn, then `minReplicas: 0` (refused by its own lower bound
/// too while HPAScaleToZero is off) needs an Object or External metric. An autoscaling/v1
/// object's `targetCPUUtilizationPercentage` becomes the first metric, a CPU Resource metric
/// (`Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler`), so only its
/// lower bound can fail.
/// `described` is how the object metrics' `describedObject.apiVersion` is checked.
pub fn metrics(
    object: &Value,
    spec: &Value,
    described: Option<ApiVersionRule>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if text(object, "apiVersion") == "autoscaling/v1" {
        if let Some(n) = spec
            .get("targetCPUUtilizationPercentage")
            .and_then(Value::as_i64)
            .filter(|n| *n < 1)
        {
            errors.push(FieldError::invalid(
                "spec.metrics[0].resource.target.averageUtilization",
                BadValue::Value(Value::Int(n)),
                "must be greater than 0",
            ));
        }
    } else {
        for (i, metric) in items(spec.get("metrics")).iter().enumerate() {
            metric_spec(
                metric,
                &indexed("spec.metrics", i),
                described,
                version,
                errors,
            );
        }
    }
    let v2_metrics = match text(object, "apiVersion") {
        "autoscaling/v1" => &[][..],
        _ => items(spec.get("metrics")),
    };
    let scales_on_objects = v2_metrics
        .iter()
        .any(|m| matches!(text(m, "type"), "Object" | "External"));
    if spec.get("minReplicas").and_then(Value::as_i64) == Some(0) && !scales_on_objects {
        errors.push(FieldError::forbidden(
            "spec.metrics",
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
}

/// `validateMetricSpec`. An unknown type is reported twice (the set check and the switch's
/// default); the server's aggregate prints it once.
fn metric_spec(
    m: &Value,
    path: &str,
    described: Option<ApiVersionRule>,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let kind = text(m, "type");
    let type_path = join(path, ".type");
    if kind.is_empty() {
        errors.push(FieldError::required(
            &type_path,
            "must specify a metric source type",
        ));
    }
    if !SOURCE_TYPES.contains(&kind) {
        errors.push(FieldError::not_supported(
            &type_path,
            FieldError::string_value(kind),
            SOURCE_TYPES,
        ));
    }
    let present_sources: Vec<&str> = SOURCES
        .iter()
        .map(|(field, _)| *field)
        .filter(|field| present(m, field).is_some())
        .collect();
    if let Some(first) = present_sources.first() {
        let src = m.get(first).unwrap_or(&Value::Null);
        let at = format!("{path}.{first}");
        match *first {
            "object" => object_source(src, &at, described, errors),
            "external" => external_source(src, &at, errors),
            "pods" => pods_source(src, &at, errors),
            "resource" => resource_source(src, &at, None, errors),
            _ => resource_source(src, &at, Some(version), errors),
        }
    }
    let expected = SOURCES.iter().find(|(_, t)| *t == kind).map(|(f, _)| *f);
    match expected {
        Some(field) if !present_sources.contains(&field) => errors.push(FieldError::required(
            format!("{path}.{field}"),
            "must populate information for the given metric source",
        )),
        Some(_) => {}
        None => errors.push(FieldError::not_supported(
            &type_path,
            FieldError::string_value(kind),
            SOURCE_TYPES,
        )),
    }
    // Upstream walks a Go set here (random order); kssa keeps the source order.
    if present_sources.len() != 1 {
        for field in present_sources.iter().filter(|f| Some(**f) != expected) {
            errors.push(FieldError::forbidden(
                format!("{path}.{field}"),
                "must populate the given metric source only",
            ));
        }
    }
}

/// `validateObjectSource`.
fn object_source(
    src: &Value,
    path: &str,
    described: Option<ApiVersionRule>,
    errors: &mut Vec<FieldError>,
) {
    cross_version_reference(
        src.get("describedObject").unwrap_or(&Value::Null),
        &join(path, ".describedObject"),
        described,
        errors,
    );
    metric_identifier(src, path, errors);
    let target = metric_target(src, path, errors);
    if present(target, "value").is_none() && present(target, "averageValue").is_none() {
        errors.push(FieldError::required(
            join(path, ".target.averageValue"),
            "must set either a target value or averageValue",
        ));
    }
}

/// `validateExternalSource`.
fn external_source(src: &Value, path: &str, errors: &mut Vec<FieldError>) {
    metric_identifier(src, path, errors);
    let target = metric_target(src, path, errors);
    let value = present(target, "value").is_some();
    let average = present(target, "averageValue").is_some();
    if !value && !average {
        errors.push(FieldError::required(
            join(path, ".target.averageValue"),
            "must set either a target value for metric or a per-pod target",
        ));
    }
    if value && average {
        errors.push(FieldError::forbidden(
            join(path, ".target.value"),
            "may not set both a target value for metric and a per-pod target",
        ));
    }
}

/// `validatePodsSource`.
fn pods_source(src: &Value, path: &str, errors: &mut Vec<FieldError>) {
    metric_identifier(src, path, errors);
    let target = metric_target(src, path, errors);
    if present(target, "averageValue").is_none() {
        errors.push(FieldError::required(
            join(path, ".target.averageValue"),
            "must specify a positive target averageValue",
        ));
    }
}

/// `validateResourceSource` and, given the version (`container`),
/// `validateContainerResourceSource`, which also checks the resource name as a container's
/// (pkg/apis/core/validation `ValidateContainerResourceName`, shared with pod resources).
fn resource_source(
    src: &Value,
    path: &str,
    container: Option<KubeVersion>,
    errors: &mut Vec<FieldError>,
) {
    let name = text(src, "name");
    if name.is_empty() {
        errors.push(FieldError::required(
            join(path, ".name"),
            "must specify a resource name",
        ));
    } else if let Some(version) = container {
        super::resources::container_resource_name(name, &join(path, ".name"), version, errors);
    }
    if container.is_some() {
        let c = text(src, "container");
        let at = join(path, ".container");
        if c.is_empty() {
            errors.push(FieldError::required(&at, "must specify a container"));
        }
        for msg in formats::dns1123_label(c)
            .into_iter()
            .filter(|_| !c.is_empty())
        {
            errors.push(FieldError::invalid(&at, FieldError::string_value(c), msg));
        }
    }
    let target = metric_target(src, path, errors);
    let utilization = present(target, "averageUtilization").is_some();
    let average = present(target, "averageValue").is_some();
    if !utilization && !average {
        errors.push(FieldError::required(
            join(path, ".target.averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if utilization && average {
        errors.push(FieldError::forbidden(
            join(path, ".target.averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
}

/// `validateMetricTarget` on `src.target`, which it returns.
fn metric_target<'v>(src: &'v Value, path: &str, errors: &mut Vec<FieldError>) -> &'v Value {
    static NULL: Value = Value::Null;
    let target = present(src, "target").unwrap_or(&NULL);
    let path = join(path, ".target");
    let kind = text(target, "type");
    if kind.is_empty() {
        errors.push(FieldError::required(
            join(&path, ".type"),
            "must specify a metric target type",
        ));
    }
    if !["Utilization", "Value", "AverageValue"].contains(&kind) {
        errors.push(FieldError::invalid(
            join(&path, ".type"),
            FieldError::string_value(kind),
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for key in ["value", "averageValue"] {
        if let Some(amount) = present(target, key).and_then(not_positive) {
            errors.push(FieldError::invalid(
                format!("{path}.{key}"),
                amount.go_value(false),
                "must be positive",
            ));
        }
    }
    if let Some(n) = target
        .get("averageUtilization")
        .and_then(Value::as_i64)
        .filter(|n| *n < 1)
    {
        errors.push(FieldError::invalid(
            join(&path, ".averageUtilization"),
            BadValue::Value(Value::Int(n)),
            "must be greater than 0",
        ));
    }
    target
}

/// A quantity that is zero or negative (`Sign() != 1`).
fn not_positive(v: &Value) -> Option<Amount> {
    let amount = Amount::of(v)?;
    let zero = Quantity::parse("0")?;
    let q = amount.quantity?;
    (q.compare(&zero) != Some(Ordering::Greater)).then_some(amount)
}

/// `validateMetricIdentifier` on `src.metric`: a name, and a valid path segment.
fn metric_identifier(src: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let name = src.get("metric").map_or("", |m| text(m, "name"));
    let at = join(path, ".metric.name");
    if name.is_empty() {
        errors.push(FieldError::required(&at, "must specify a metric name"));
    }
    for msg in formats::path_segment_name(name) {
        errors.push(FieldError::invalid(
            &at,
            FieldError::string_value(name),
            msg,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const HPA: &str = r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
      "metadata":{"name":"web","namespace":"ns"},"spec":{"maxReplicas":3,
      "scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
      "metrics":[METRIC]}}"#;

    fn hpa(metric: &str, minor: u8) -> Option<String> {
        refusal(&HPA.replace("METRIC", metric), None, minor)
    }

    const PREFIX: &str = "The HorizontalPodAutoscaler \"web\" is invalid: ";

    #[test]
    fn valid_sources_pass() {
        for m in [
            r#"{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}"#,
            r#"{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"1k"}}}"#,
            r#"{"type":"Object","object":{"describedObject":{"kind":"Service","name":"s"},"metric":{"name":"rps"},"target":{"type":"Value","value":"10"}}}"#,
            r#"{"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"a"}}},"target":{"type":"AverageValue","averageValue":30}}}"#,
            r#"{"type":"ContainerResource","containerResource":{"name":"memory","container":"app","target":{"type":"AverageValue","averageValue":"500Mi"}}}"#,
        ] {
            assert_eq!(hpa(m, 37), None, "{m}");
        }
    }

    #[test]
    fn type_and_sources() {
        assert_eq!(
            hpa(r#"{"type":"Resource"}"#, 37).unwrap(),
            format!("{PREFIX}spec.metrics[0].resource: Required value: must populate information for the given metric source")
        );
        assert_eq!(
            hpa(r#"{"type":"Pods","pods":{"metric":{"name":"a"},"target":{"type":"AverageValue","averageValue":1}},"resource":{"name":"cpu"}}"#, 37).unwrap(),
            format!("{PREFIX}spec.metrics[0].resource: Forbidden: must populate the given metric source only")
        );
        let unknown = hpa(r#"{"type":"Cpu"}"#, 37).unwrap();
        assert_eq!(unknown, format!("{PREFIX}spec.metrics[0].type: Unsupported value: \"Cpu\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\""));
    }

    #[test]
    fn targets_and_identifiers() {
        assert_eq!(
            hpa(r#"{"type":"Resource","resource":{"name":"cpu","target":{"type":"Percent","averageUtilization":0}}}"#, 37).unwrap(),
            format!("{PREFIX}\n* spec.metrics[0].resource.target.type: Invalid value: \"Percent\": must be either Utilization, Value, or AverageValue\n* spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0")
        );
        let pods = r#"{"type":"Pods","pods":{"metric":{"name":"a/b"},"target":{"type":"AverageValue","averageValue":"-1"}}}"#;
        assert_eq!(
            hpa(pods, 37).unwrap(),
            format!("{PREFIX}\n* spec.metrics[0].pods.metric.name: Invalid value: \"a/b\": may not contain '/'\n* spec.metrics[0].pods.target.averageValue: Invalid value: \"-1\": must be positive")
        );
        assert!(hpa(pods, 33)
            .unwrap()
            .contains("Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"-1\", Format:\"DecimalSI\"}: must be positive"));
        assert_eq!(
            hpa(r#"{"type":"External","external":{"metric":{},"target":{"type":"Value","value":1,"averageValue":1}}}"#, 37).unwrap(),
            format!("{PREFIX}\n* spec.metrics[0].external.metric.name: Required value: must specify a metric name\n* spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target")
        );
    }

    #[test]
    fn container_resource_names_are_checked_as_containers_are() {
        let metric = |name: &str| {
            format!(
                r#"{{"type":"ContainerResource","containerResource":{{"name":"{name}","container":"app","target":{{"type":"Utilization","averageUtilization":60}}}}}}"#
            )
        };
        assert_eq!(hpa(&metric("nvidia.com/gpu"), 37), None);
        assert_eq!(
            hpa(&metric("gpu"), 37).unwrap(),
            format!("{PREFIX}\n* spec.metrics[0].containerResource.name: Invalid value: \"gpu\": must be a standard resource type or fully qualified\n* spec.metrics[0].containerResource.name: Invalid value: \"gpu\": must be a standard resource for containers")
        );
        assert_eq!(
            hpa(&metric("pods"), 30).unwrap(),
            format!("{PREFIX}spec.metrics[0].containerResource.name: Invalid value: pods: must be a standard resource for containers")
        );
    }

    #[test]
    fn v1_target_cpu() {
        let v1 = r#"{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
          "metadata":{"name":"web","namespace":"ns"},"spec":{"maxReplicas":3,"targetCPUUtilizationPercentage":0,
          "scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}}}"#;
        assert_eq!(
            refusal(v1, None, 37).unwrap(),
            format!("{PREFIX}spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0")
        );
    }
}
