//! `autoscaling/v1` ↔ `autoscaling/v2` HorizontalPodAutoscaler, transcribed from kubernetes
//! pkg/apis/autoscaling/v1/conversion.go (v1 ↔ the internal type, which has v2's shape) and
//! pkg/apis/autoscaling/v2/conversion.go (v2 ↔ internal drops the round-trip annotations,
//! `DropRoundTripHorizontalPodAutoscalerAnnotations` in pkg/apis/autoscaling/annotations.go).
//!
//! v1 keeps one CPU utilization target; everything else v2 holds travels in annotations:
//! other metrics (`autoscaling.alpha.kubernetes.io/metrics`), the current metrics
//! (`…/current-metrics`) and the conditions (`…/conditions`), as JSON of the v1 metric types.
//! v2's `behavior` has no v1 form and is lost, as on the server.

use crate::merge::ConversionError;
use crate::value::{from_json_str, to_json_string, Map, Value};

/// `autoscaling.MetricSpecsAnnotation`.
pub const METRIC_SPECS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/metrics";
/// `autoscaling.MetricStatusesAnnotation`.
pub const METRIC_STATUSES_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
/// `autoscaling.HorizontalPodAutoscalerConditionsAnnotation`.
pub const CONDITIONS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// `autoscaling.BehaviorSpecsAnnotation`.
pub const BEHAVIOR_SPECS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/behavior";
/// The annotations only conversions write; v2 never keeps them.
const ROUND_TRIP_ANNOTATIONS: [&str; 4] = [
    METRIC_SPECS_ANNOTATION,
    BEHAVIOR_SPECS_ANNOTATION,
    METRIC_STATUSES_ANNOTATION,
    CONDITIONS_ANNOTATION,
];
/// `autoscaling.DefaultCPUUtilization`: v1's implicit target, made explicit in v2.
const DEFAULT_CPU_UTILIZATION: i64 = 80;

/// A Go zero `resource.Quantity`, as v1's non-pointer quantities serialize it.
fn zero_quantity() -> Value {
    Value::from("0")
}

fn get<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    v.get_path(path)
}

/// A map from (name, value) pairs, leaving out absent values.
fn fields(pairs: Vec<(&str, Option<Value>)>) -> Value {
    Value::Map(
        pairs
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
            .collect(),
    )
}

fn cloned(v: &Value, path: &[&str]) -> Option<Value> {
    get(v, path).cloned()
}

fn is_cpu_resource(metric: &Value) -> bool {
    metric.get("type").and_then(Value::as_str) == Some("Resource")
        && get(metric, &["resource", "name"]).and_then(Value::as_str) == Some("cpu")
}

fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_list).map_or(&[], Vec::as_slice)
}

fn annotations_of(object: &Value) -> Map {
    get(object, &["metadata", "annotations"])
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default()
}

/// Sets (or, when empty, removes) `metadata.annotations`.
fn set_annotations(object: &mut Map, annotations: Map) {
    let meta = object
        .entry("metadata".to_string())
        .or_insert_with(|| Value::Map(Map::default()));
    if let Value::Map(meta) = meta {
        if annotations.is_empty() {
            meta.shift_remove("annotations");
        } else {
            meta.insert("annotations".into(), Value::Map(annotations));
        }
    }
}

fn decode_annotation(text: &Value, name: &str) -> Result<Vec<Value>, ConversionError> {
    let text = text.as_str().unwrap_or_default();
    match from_json_str(text) {
        Ok(Value::List(items)) => Ok(items.into_vec()),
        Ok(Value::Null) => Ok(Vec::new()),
        _ => Err(ConversionError::Failed(format!(
            "annotation {name} is not a JSON list: {text:?}"
        ))),
    }
}

fn head(object: &Value, api_version: &str) -> Map {
    let mut out = super::type_meta(object, api_version, "HorizontalPodAutoscaler");
    if let Some(v) = object.get("metadata") {
        out.insert("metadata".into(), v.clone());
    }
    out
}

// ---- v2 → v1 (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler) ----

/// An `autoscaling/v2` object as `autoscaling/v1` serves it.
pub fn v2_to_v1(object: &Value) -> Result<Value, ConversionError> {
    let mut out = head(object, "autoscaling/v1");
    let mut annotations = annotations_of(object);
    // v2 → internal drops round-trip annotations before v1 writes its own.
    for a in ROUND_TRIP_ANNOTATIONS {
        annotations.shift_remove(a);
    }
    let metrics = list(get(object, &["spec", "metrics"]));
    if let Some(spec) = object.get("spec") {
        // Convert_autoscaling_HorizontalPodAutoscalerSpec_To_v1_HorizontalPodAutoscalerSpec:
        // the first CPU resource metric gives the target, if it is a utilization.
        let target_cpu = metrics
            .iter()
            .find(|m| is_cpu_resource(m))
            .and_then(|m| cloned(m, &["resource", "target", "averageUtilization"]));
        out.insert(
            "spec".into(),
            fields(vec![
                ("scaleTargetRef", cloned(spec, &["scaleTargetRef"])),
                ("minReplicas", cloned(spec, &["minReplicas"])),
                ("maxReplicas", cloned(spec, &["maxReplicas"])),
                ("targetCPUUtilizationPercentage", target_cpu),
            ]),
        );
    }
    let current = list(get(object, &["status", "currentMetrics"]));
    let conditions = list(get(object, &["status", "conditions"]));
    if let Some(status) = object.get("status") {
        // The last CPU resource metric with a utilization gives the current value.
        let current_cpu = current
            .iter()
            .filter(|m| is_cpu_resource(m))
            .filter_map(|m| cloned(m, &["resource", "current", "averageUtilization"]))
            .next_back();
        out.insert(
            "status".into(),
            fields(vec![
                (
                    "observedGeneration",
                    cloned(status, &["observedGeneration"]),
                ),
                ("lastScaleTime", cloned(status, &["lastScaleTime"])),
                ("currentReplicas", cloned(status, &["currentReplicas"])),
                ("desiredReplicas", cloned(status, &["desiredReplicas"])),
                ("currentCPUUtilizationPercentage", current_cpu),
            ]),
        );
    }
    let other: Vec<Value> = metrics
        .iter()
        .filter(|m| {
            !(is_cpu_resource(m) && get(m, &["resource", "target", "averageUtilization"]).is_some())
        })
        .map(metric_spec_to_v1)
        .collect();
    if !other.is_empty() {
        annotations.insert(
            METRIC_SPECS_ANNOTATION.into(),
            Value::String(to_json_string(&Value::List(other.into()))),
        );
    }
    if !current.is_empty() {
        let statuses = current.iter().map(metric_status_to_v1).collect();
        annotations.insert(
            METRIC_STATUSES_ANNOTATION.into(),
            Value::String(to_json_string(&Value::List(statuses))),
        );
    }
    if !conditions.is_empty() {
        annotations.insert(
            CONDITIONS_ANNOTATION.into(),
            Value::String(to_json_string(&Value::List(conditions.to_vec().into()))),
        );
    }
    set_annotations(&mut out, annotations);
    Ok(Value::Map(out))
}

fn described_to_v1_target(v: &Value, path: &[&str]) -> Option<Value> {
    get(v, path).map(|d| {
        fields(vec![
            ("kind", cloned(d, &["kind"])),
            ("name", cloned(d, &["name"])),
            ("apiVersion", cloned(d, &["apiVersion"])),
        ])
    })
}

/// `Convert_autoscaling_MetricSpec_To_v1_MetricSpec` and its per-source functions.
fn metric_spec_to_v1(m: &Value) -> Value {
    let source = |name: &str| m.get(name);
    fields(vec![
        ("type", cloned(m, &["type"])),
        (
            "object",
            source("object").map(|o| {
                fields(vec![
                    (
                        "target",
                        described_to_v1_target(o, &["describedObject"])
                            .or_else(|| Some(fields(vec![]))),
                    ),
                    ("metricName", cloned(o, &["metric", "name"])),
                    (
                        "targetValue",
                        cloned(o, &["target", "value"]).or_else(|| Some(zero_quantity())),
                    ),
                    ("selector", cloned(o, &["metric", "selector"])),
                    ("averageValue", cloned(o, &["target", "averageValue"])),
                ])
            }),
        ),
        (
            "pods",
            source("pods").map(|p| {
                fields(vec![
                    ("metricName", cloned(p, &["metric", "name"])),
                    (
                        "targetAverageValue",
                        cloned(p, &["target", "averageValue"]).or_else(|| Some(zero_quantity())),
                    ),
                    ("selector", cloned(p, &["metric", "selector"])),
                ])
            }),
        ),
        (
            "resource",
            source("resource").map(|r| resource_source_to_v1(r, false)),
        ),
        (
            "containerResource",
            source("containerResource").map(|r| resource_source_to_v1(r, true)),
        ),
        (
            "external",
            source("external").map(|e| {
                fields(vec![
                    ("metricName", cloned(e, &["metric", "name"])),
                    ("metricSelector", cloned(e, &["metric", "selector"])),
                    ("targetValue", cloned(e, &["target", "value"])),
                    ("targetAverageValue", cloned(e, &["target", "averageValue"])),
                ])
            }),
        ),
    ])
}

fn resource_source_to_v1(r: &Value, container: bool) -> Value {
    fields(vec![
        ("name", cloned(r, &["name"])),
        (
            "targetAverageUtilization",
            cloned(r, &["target", "averageUtilization"]),
        ),
        ("targetAverageValue", cloned(r, &["target", "averageValue"])),
        (
            "container",
            if container {
                cloned(r, &["container"])
            } else {
                None
            },
        ),
    ])
}

/// `Convert_autoscaling_MetricStatus_To_v1_MetricStatus` and its per-source functions.
fn metric_status_to_v1(m: &Value) -> Value {
    let source = |name: &str| m.get(name);
    fields(vec![
        ("type", cloned(m, &["type"])),
        (
            "object",
            source("object").map(|o| {
                fields(vec![
                    (
                        "target",
                        described_to_v1_target(o, &["describedObject"])
                            .or_else(|| Some(fields(vec![]))),
                    ),
                    ("metricName", cloned(o, &["metric", "name"])),
                    (
                        "currentValue",
                        cloned(o, &["current", "value"]).or_else(|| Some(zero_quantity())),
                    ),
                    ("selector", cloned(o, &["metric", "selector"])),
                    ("averageValue", cloned(o, &["current", "averageValue"])),
                ])
            }),
        ),
        (
            "pods",
            source("pods").map(|p| {
                fields(vec![
                    ("metricName", cloned(p, &["metric", "name"])),
                    (
                        "currentAverageValue",
                        cloned(p, &["current", "averageValue"]).or_else(|| Some(zero_quantity())),
                    ),
                    ("selector", cloned(p, &["metric", "selector"])),
                ])
            }),
        ),
        (
            "resource",
            source("resource").map(|r| resource_status_to_v1(r, false)),
        ),
        (
            "containerResource",
            source("containerResource").map(|r| resource_status_to_v1(r, true)),
        ),
        (
            "external",
            source("external").map(|e| {
                fields(vec![
                    ("metricName", cloned(e, &["metric", "name"])),
                    ("metricSelector", cloned(e, &["metric", "selector"])),
                    (
                        "currentValue",
                        cloned(e, &["current", "value"]).or_else(|| Some(zero_quantity())),
                    ),
                    (
                        "currentAverageValue",
                        cloned(e, &["current", "averageValue"]),
                    ),
                ])
            }),
        ),
    ])
}

fn resource_status_to_v1(r: &Value, container: bool) -> Value {
    fields(vec![
        ("name", cloned(r, &["name"])),
        (
            "currentAverageUtilization",
            cloned(r, &["current", "averageUtilization"]),
        ),
        (
            "currentAverageValue",
            cloned(r, &["current", "averageValue"]).or_else(|| Some(zero_quantity())),
        ),
        (
            "container",
            if container {
                cloned(r, &["container"])
            } else {
                None
            },
        ),
    ])
}

// ---- v1 → v2 (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler) ----

fn cpu_utilization_metric(utilization: Value, status: bool) -> Value {
    let (field, target) = if status {
        (
            "current",
            fields(vec![("averageUtilization", Some(utilization))]),
        )
    } else {
        (
            "target",
            fields(vec![
                ("type", Some(Value::from("Utilization"))),
                ("averageUtilization", Some(utilization)),
            ]),
        )
    };
    fields(vec![
        ("type", Some(Value::from("Resource"))),
        (
            "resource",
            Some(fields(vec![
                ("name", Some(Value::from("cpu"))),
                (field, Some(target)),
            ])),
        ),
    ])
}

/// An `autoscaling/v1` object as `autoscaling/v2` serves it.
pub fn v1_to_v2(object: &Value) -> Result<Value, ConversionError> {
    let mut out = head(object, "autoscaling/v2");
    let mut annotations = annotations_of(object);
    let spec = object
        .get("spec")
        .cloned()
        .unwrap_or(Value::Map(Map::default()));
    let mut metrics: Vec<Value> = cloned(&spec, &["targetCPUUtilizationPercentage"])
        .map(|u| vec![cpu_utilization_metric(u, false)])
        .unwrap_or_default();
    let status = object.get("status");
    let mut current: Vec<Value> = status
        .and_then(|s| cloned(s, &["currentCPUUtilizationPercentage"]))
        .map(|u| vec![cpu_utilization_metric(u, true)])
        .unwrap_or_default();
    let mut conditions = Vec::new();
    if let Some(text) = annotations.shift_remove(METRIC_SPECS_ANNOTATION) {
        // The other metrics first, then the one CPU target of the spec.
        let mut all: Vec<Value> = decode_annotation(&text, METRIC_SPECS_ANNOTATION)?
            .iter()
            .map(metric_spec_to_v2)
            .collect();
        all.extend(metrics.into_iter().take(1));
        metrics = all;
    }
    if let Some(text) = annotations.shift_remove(METRIC_STATUSES_ANNOTATION) {
        current = decode_annotation(&text, METRIC_STATUSES_ANNOTATION)?
            .iter()
            .map(metric_status_to_v2)
            .collect();
    }
    if metrics.is_empty() {
        metrics.push(cpu_utilization_metric(
            Value::Int(DEFAULT_CPU_UTILIZATION),
            false,
        ));
    }
    if let Some(text) = annotations.shift_remove(CONDITIONS_ANNOTATION) {
        conditions = decode_annotation(&text, CONDITIONS_ANNOTATION)?;
    }
    // internal → v2 drops whatever round-trip annotations are left.
    for a in ROUND_TRIP_ANNOTATIONS {
        annotations.shift_remove(a);
    }
    out.insert(
        "spec".into(),
        fields(vec![
            ("scaleTargetRef", cloned(&spec, &["scaleTargetRef"])),
            ("minReplicas", cloned(&spec, &["minReplicas"])),
            ("maxReplicas", cloned(&spec, &["maxReplicas"])),
            ("metrics", Some(Value::List(metrics.into()))),
        ]),
    );
    if status.is_some() || !current.is_empty() || !conditions.is_empty() {
        let s = status.cloned().unwrap_or(Value::Map(Map::default()));
        out.insert(
            "status".into(),
            fields(vec![
                ("observedGeneration", cloned(&s, &["observedGeneration"])),
                ("lastScaleTime", cloned(&s, &["lastScaleTime"])),
                ("currentReplicas", cloned(&s, &["currentReplicas"])),
                ("desiredReplicas", cloned(&s, &["desiredReplicas"])),
                (
                    "currentMetrics",
                    (!current.is_empty()).then(|| Value::List(current.into())),
                ),
                (
                    "conditions",
                    (!conditions.is_empty()).then(|| Value::List(conditions.into())),
                ),
            ]),
        );
    }
    set_annotations(&mut out, annotations);
    Ok(Value::Map(out))
}

fn metric_identifier(name: Option<Value>, selector: Option<Value>) -> Option<Value> {
    Some(fields(vec![("name", name), ("selector", selector)]))
}

/// A v2 `MetricTarget`; its type follows the v1 fields that are set.
fn metric_target(
    kind: &str,
    value: Option<Value>,
    average_value: Option<Value>,
    utilization: Option<Value>,
) -> Option<Value> {
    Some(fields(vec![
        ("type", Some(Value::from(kind))),
        ("value", value),
        ("averageValue", average_value),
        ("averageUtilization", utilization),
    ]))
}

fn v1_target_to_described(o: &Value) -> Option<Value> {
    get(o, &["target"]).map(|t| {
        fields(vec![
            ("kind", cloned(t, &["kind"])),
            ("name", cloned(t, &["name"])),
            ("apiVersion", cloned(t, &["apiVersion"])),
        ])
    })
}

/// `Convert_v1_MetricSpec_To_autoscaling_MetricSpec` and its per-source functions.
fn metric_spec_to_v2(m: &Value) -> Value {
    let source = |name: &str| m.get(name);
    fields(vec![
        ("type", cloned(m, &["type"])),
        (
            "object",
            source("object").map(|o| {
                let average = cloned(o, &["averageValue"]);
                let kind = if average.is_none() {
                    "Value"
                } else {
                    "AverageValue"
                };
                let value = cloned(o, &["targetValue"]).or_else(|| Some(zero_quantity()));
                fields(vec![
                    ("describedObject", v1_target_to_described(o)),
                    ("target", metric_target(kind, value, average, None)),
                    (
                        "metric",
                        metric_identifier(cloned(o, &["metricName"]), cloned(o, &["selector"])),
                    ),
                ])
            }),
        ),
        (
            "pods",
            source("pods").map(|p| {
                let average = cloned(p, &["targetAverageValue"]).or_else(|| Some(zero_quantity()));
                fields(vec![
                    (
                        "metric",
                        metric_identifier(cloned(p, &["metricName"]), cloned(p, &["selector"])),
                    ),
                    ("target", metric_target("AverageValue", None, average, None)),
                ])
            }),
        ),
        (
            "resource",
            source("resource").map(|r| resource_source_to_v2(r, false)),
        ),
        (
            "containerResource",
            source("containerResource").map(|r| resource_source_to_v2(r, true)),
        ),
        (
            "external",
            source("external").map(|e| {
                let value = cloned(e, &["targetValue"]);
                let kind = if value.is_none() {
                    "AverageValue"
                } else {
                    "Value"
                };
                fields(vec![
                    (
                        "metric",
                        metric_identifier(
                            cloned(e, &["metricName"]),
                            cloned(e, &["metricSelector"]),
                        ),
                    ),
                    (
                        "target",
                        metric_target(kind, value, cloned(e, &["targetAverageValue"]), None),
                    ),
                ])
            }),
        ),
    ])
}

fn resource_source_to_v2(r: &Value, container: bool) -> Value {
    let utilization = cloned(r, &["targetAverageUtilization"]);
    let kind = if utilization.is_none() {
        "AverageValue"
    } else {
        "Utilization"
    };
    fields(vec![
        ("name", cloned(r, &["name"])),
        (
            "target",
            metric_target(kind, None, cloned(r, &["targetAverageValue"]), utilization),
        ),
        (
            "container",
            if container {
                cloned(r, &["container"])
            } else {
                None
            },
        ),
    ])
}

fn value_status(
    value: Option<Value>,
    average: Option<Value>,
    utilization: Option<Value>,
) -> Option<Value> {
    Some(fields(vec![
        ("value", value),
        ("averageValue", average),
        ("averageUtilization", utilization),
    ]))
}

/// `Convert_v1_MetricStatus_To_autoscaling_MetricStatus` and its per-source functions.
fn metric_status_to_v2(m: &Value) -> Value {
    let source = |name: &str| m.get(name);
    fields(vec![
        ("type", cloned(m, &["type"])),
        (
            "object",
            source("object").map(|o| {
                fields(vec![
                    (
                        "metric",
                        metric_identifier(cloned(o, &["metricName"]), cloned(o, &["selector"])),
                    ),
                    (
                        "current",
                        value_status(
                            cloned(o, &["currentValue"]).or_else(|| Some(zero_quantity())),
                            cloned(o, &["averageValue"]),
                            None,
                        ),
                    ),
                    ("describedObject", v1_target_to_described(o)),
                ])
            }),
        ),
        (
            "pods",
            source("pods").map(|p| {
                fields(vec![
                    (
                        "metric",
                        metric_identifier(cloned(p, &["metricName"]), cloned(p, &["selector"])),
                    ),
                    (
                        "current",
                        value_status(
                            None,
                            cloned(p, &["currentAverageValue"]).or_else(|| Some(zero_quantity())),
                            None,
                        ),
                    ),
                ])
            }),
        ),
        (
            "resource",
            source("resource").map(|r| resource_status_to_v2(r, false)),
        ),
        (
            "containerResource",
            source("containerResource").map(|r| resource_status_to_v2(r, true)),
        ),
        (
            "external",
            source("external").map(|e| {
                fields(vec![
                    (
                        "metric",
                        metric_identifier(
                            cloned(e, &["metricName"]),
                            cloned(e, &["metricSelector"]),
                        ),
                    ),
                    (
                        "current",
                        value_status(
                            cloned(e, &["currentValue"]).or_else(|| Some(zero_quantity())),
                            cloned(e, &["currentAverageValue"]),
                            None,
                        ),
                    ),
                ])
            }),
        ),
    ])
}

fn resource_status_to_v2(r: &Value, container: bool) -> Value {
    fields(vec![
        ("name", cloned(r, &["name"])),
        (
            "current",
            value_status(
                None,
                cloned(r, &["currentAverageValue"]).or_else(|| Some(zero_quantity())),
                cloned(r, &["currentAverageUtilization"]),
            ),
        ),
        (
            "container",
            if container {
                cloned(r, &["container"])
            } else {
                None
            },
        ),
    ])
}
