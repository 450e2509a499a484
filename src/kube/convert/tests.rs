use super::*;
use crate::kube::SchemaRegistry;
use crate::value::from_json_str;

fn json(text: &str) -> Value {
    from_json_str(text).unwrap()
}

fn converter(api_version: &str, kind: &str) -> std::sync::Arc<VersionConverter> {
    let k = SchemaRegistry::new().resolve(api_version, kind).unwrap();
    VersionConverter::for_kind(&k).unwrap()
}

const HPA_V2: &str = r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
 "metadata":{"name":"web","namespace":"default"},
 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
  "minReplicas":1,"maxReplicas":5,
  "metrics":[
   {"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}},
   {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}]},
 "status":{"currentReplicas":2,"desiredReplicas":2,
  "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"10m","averageUtilization":12}}}],
  "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"ReadyForNewScale"}]}}"#;

#[test]
fn hpa_v2_to_v1_keeps_the_cpu_target_and_moves_the_rest_to_annotations() {
    let c = converter("autoscaling/v2", "HorizontalPodAutoscaler");
    let v1 = c
        .convert(&json(HPA_V2), "autoscaling/v2", "autoscaling/v1")
        .unwrap();
    assert_eq!(
        v1.get_path(&["spec", "targetCPUUtilizationPercentage"]),
        Some(&Value::Int(60))
    );
    assert_eq!(
        v1.get_path(&["status", "currentCPUUtilizationPercentage"]),
        Some(&Value::Int(12))
    );
    assert_eq!(v1.get_path(&["spec", "metrics"]), None);
    let annotation = |name: &str| {
        v1.get_path(&["metadata", "annotations", name])
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        annotation(hpa::METRIC_SPECS_ANNOTATION),
        r#"[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]"#
    );
    assert_eq!(
        annotation(hpa::METRIC_STATUSES_ANNOTATION),
        r#"[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":12,"currentAverageValue":"10m"}}]"#
    );
    assert!(annotation(hpa::CONDITIONS_ANNOTATION).contains("ReadyForNewScale"));
}

#[test]
fn hpa_round_trips_through_v1() {
    let c = converter("autoscaling/v2", "HorizontalPodAutoscaler");
    let original = json(HPA_V2);
    let v1 = c
        .convert(&original, "autoscaling/v2", "autoscaling/v1")
        .unwrap();
    let back = c.convert(&v1, "autoscaling/v1", "autoscaling/v2").unwrap();
    assert_eq!(back.with_sorted_keys(), original.with_sorted_keys());
}

#[test]
fn a_v1_hpa_without_target_gets_the_default_cpu_metric() {
    let c = converter("autoscaling/v1", "HorizontalPodAutoscaler");
    let v1 = json(
        r#"{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"a"},
        "spec":{"scaleTargetRef":{"kind":"Deployment","name":"a"},"maxReplicas":3}}"#,
    );
    let v2 = c.convert(&v1, "autoscaling/v1", "autoscaling/v2").unwrap();
    assert_eq!(
        v2.get_path(&["spec", "metrics"]),
        Some(&json(
            r#"[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]"#
        ))
    );
}

#[test]
fn events_rename_their_fields_between_groups() {
    let c = converter("v1", "Event");
    let core = json(
        r#"{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},
        "involvedObject":{"kind":"Pod","name":"p"},"reason":"Scheduled","message":"ok",
        "source":{},"firstTimestamp":null,"count":2,"type":"Normal",
        "reportingComponent":"default-scheduler","reportingInstance":"i"}"#,
    );
    let events = c.convert(&core, "v1", "events.k8s.io/v1").unwrap();
    assert_eq!(
        events,
        json(
            r#"{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},
            "reportingController":"default-scheduler","reportingInstance":"i","reason":"Scheduled",
            "regarding":{"kind":"Pod","name":"p"},"note":"ok","type":"Normal",
            "deprecatedSource":{},"deprecatedFirstTimestamp":null,"deprecatedCount":2}"#
        )
    );
    let back = c.convert(&events, "events.k8s.io/v1", "v1").unwrap();
    assert_eq!(back.with_sorted_keys(), core.with_sorted_keys());
}

#[test]
fn versions_no_longer_served_are_missing() {
    let c = converter("autoscaling/v2", "HorizontalPodAutoscaler");
    let err = c
        .convert(&json(HPA_V2), "autoscaling/v2", "autoscaling/v2beta2")
        .unwrap_err();
    assert_eq!(
        err,
        ConversionError::MissingVersion("autoscaling/v2beta2".into())
    );
    assert!(matches!(
        c.type_ref("autoscaling/v2beta1"),
        Err(ConversionError::MissingVersion(_))
    ));
    assert!(c.type_ref("autoscaling/v1").is_ok());
}

fn crd(strategy: &str) -> Value {
    crd_with(strategy, "size")
}

/// A Widget CRD whose v1 has `spec.size` and whose v2 has `spec.<v2_field>`.
fn crd_with(strategy: &str, v2_field: &str) -> Value {
    json(&format!(
        r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "metadata":{{"name":"widgets.example.com"}},
        "spec":{{"group":"example.com","scope":"Namespaced",
         "names":{{"kind":"Widget","plural":"widgets"}},
         "conversion":{{"strategy":"{strategy}"}},
         "versions":[
          {{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"spec":{{"type":"object","properties":{{"size":{{"type":"integer"}}}}}}}}}}}}}},
          {{"name":"v2","served":true,"storage":false,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"spec":{{"type":"object","properties":{{"{v2_field}":{{"type":"integer"}}}}}}}}}}}}}},
          {{"name":"v0","served":false,"storage":false}}]}}}}"#
    ))
}

#[test]
fn crds_without_a_webhook_convert_by_rewriting_api_version() {
    let mut reg = SchemaRegistry::new();
    reg.add_document(&crd("None")).unwrap();
    let k = reg.resolve("example.com/v2", "Widget").unwrap();
    let c = VersionConverter::for_kind(&k).unwrap();
    let w = json(r#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":1}}"#);
    let v2 = c.convert(&w, "example.com/v1", "example.com/v2").unwrap();
    assert_eq!(
        v2.get("apiVersion").and_then(Value::as_str),
        Some("example.com/v2")
    );
    assert!(matches!(
        c.convert(&w, "example.com/v1", "example.com/v0"),
        Err(ConversionError::MissingVersion(_))
    ));
}

#[test]
fn reading_at_a_version_without_a_field_prunes_it() {
    let mut reg = SchemaRegistry::new();
    reg.add_document(&crd_with("None", "replicas")).unwrap();
    let k = reg.resolve("example.com/v2", "Widget").unwrap();
    let c = VersionConverter::for_kind(&k).unwrap();
    let w = json(r#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":1}}"#);
    let v2 = c.convert(&w, "example.com/v1", "example.com/v2").unwrap();
    assert_eq!(
        v2,
        json(r#"{"apiVersion":"example.com/v2","kind":"Widget","spec":{}}"#)
    );
}

#[test]
fn webhook_conversion_names_the_crd() {
    let mut reg = SchemaRegistry::new();
    reg.add_document(&crd("Webhook")).unwrap();
    let k = reg.resolve("example.com/v2", "Widget").unwrap();
    let c = VersionConverter::for_kind(&k).unwrap();
    let w = json(r#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":1}}"#);
    let err = c
        .convert(&w, "example.com/v1", "example.com/v2")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "converting Widget from example.com/v1 to example.com/v2 needs the conversion webhook of \
         CustomResourceDefinition widgets.example.com, which kssa cannot call offline"
    );
}
