//! StatefulSets, as k8s.io/kubernetes pkg/apis/apps/validation checks them
//! (`ValidateStatefulSet`, `ValidateStatefulSetSpec`, `ValidatePodTemplateSpecForStatefulSet`,
//! `ValidateStatefulSetUpdate`), release by release: 1.33 requires a DNS-label `serviceName`
//! on create, and 1.34 ended the long-standing "TODO: Add validation for PodSpec" by validating
//! the pod template and the volume claim templates (`StatefulSetValidationOptions`, read in
//! the 1.30, 1.33, 1.34 and 1.36 sources).

use super::super::{formats, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::pvc_spec::{self, SpecOptions};
use super::selector::{quoted, semantic_eq};
use super::workloads::{
    active_deadline_forbidden, non_negative, required_selector, template_labels_match,
    template_restart_policy,
};
use super::{pod, strategy};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::{List, Map, Value};

/// The StatefulSet spec fields an update may change (`ValidateStatefulSetUpdate`), with the
/// releases that allow each: 1.33 made `revisionHistoryLimit` mutable (read in the 1.32 and
/// 1.33 sources), and the message for any other change names it from then on.
const STATEFULSET_MUTABLE: &[(&str, VersionRange)] = &[
    ("replicas", VersionRange::ALWAYS),
    ("template", VersionRange::ALWAYS),
    ("updateStrategy", VersionRange::ALWAYS),
    ("minReadySeconds", VersionRange::ALWAYS),
    ("ordinals", VersionRange::ALWAYS),
    ("revisionHistoryLimit", VersionRange::since(33)),
    ("persistentVolumeClaimRetentionPolicy", VersionRange::ALWAYS),
];
const STATEFULSET_FORBIDDEN: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(32),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
    (
        VersionRange::since(33),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
];

/// `AllowInvalidServiceName: false` on create exists from 1.33.
const SERVICE_NAME_CHECKED: VersionRange = VersionRange::since(33);
/// The pod template (`ValidatePodTemplateSpec`) and the volume claim templates
/// (`validateVolumeClaimTemplates`) are validated from 1.34; before, only the template's
/// labels and annotations were.
const TEMPLATES_CHECKED: VersionRange = VersionRange::since(34);

/// `StatefulSetValidationOptions`, plus whether the release validates templates at all.
#[derive(Clone, Copy)]
struct SpecChecks {
    service_name: bool,
    claim_templates: bool,
    pod_template: bool,
}

/// `ValidateStatefulSet` / `ValidateStatefulSetUpdate`.
pub fn stateful_set(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let templates = TEMPLATES_CHECKED.contains(version);
    let Some(old) = w.live else {
        let checks = SpecChecks {
            service_name: SERVICE_NAME_CHECKED.contains(version),
            claim_templates: templates,
            pod_template: templates,
        };
        stateful_set_spec(w, spec(object), checks, errors);
        return;
    };
    // The update tolerates what was stored: the service name and claim templates are
    // immutable, and a stored spec that fails validation skips the pod template's.
    let mut checks = SpecChecks {
        service_name: false,
        claim_templates: false,
        pod_template: templates,
    };
    if templates {
        let mut old_errors = Vec::new();
        stateful_set_spec(w, spec(old), checks, &mut old_errors);
        checks.pod_template = old_errors.is_empty();
    }
    stateful_set_spec(w, spec(object), checks, errors);
    let new = compared(spec(object), version);
    let old = compared(spec(old), version);
    if !semantic_eq(Some(&new), Some(&old)) {
        errors.push(FieldError::forbidden(
            "spec",
            version.pick(STATEFULSET_FORBIDDEN),
        ));
    }
}

/// `ValidateStatefulSetSpec`, in its order.
fn stateful_set_spec(w: &Write, spec: &Value, checks: SpecChecks, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let policy = text(spec, "podManagementPolicy");
    match policy {
        "" => errors.push(FieldError::required("spec.podManagementPolicy", "")),
        "OrderedReady" | "Parallel" => {}
        other => errors.push(FieldError::invalid(
            "spec.podManagementPolicy",
            FieldError::string_value(other),
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    strategy::stateful_set(w, spec, errors);
    if checks.claim_templates {
        claim_templates(spec, version, errors);
    }
    non_negative(spec.get("replicas"), "spec.replicas", errors);
    non_negative(spec.get("minReadySeconds"), "spec.minReadySeconds", errors);
    strategy::ordinals(spec, errors);
    let service = text(spec, "serviceName");
    if checks.service_name && !service.is_empty() {
        for msg in formats::dns1123_label(service) {
            errors.push(FieldError::invalid(
                "spec.serviceName",
                FieldError::string_value(service),
                msg,
            ));
        }
    }
    let (sel, converted) = required_selector(w, spec, "statefulset", errors);
    if converted.converts() {
        template_labels_match(&converted, spec, errors);
        let empty = Value::Null;
        let template = spec.get("template").unwrap_or(&empty);
        if checks.pod_template {
            pod::template(
                &template_as_validated(spec),
                pod::stored(w.live, "spec.template"),
                "spec.template",
                version,
                errors,
            );
        }
        let meta = template.get("metadata").unwrap_or(&empty);
        super::meta::labels(meta.get("labels"), "spec.template.labels", version, errors);
        super::meta::annotations(
            meta.get("annotations"),
            "spec.template.annotations",
            version,
            errors,
        );
        let stored = w
            .live
            .and_then(|l| l.get_path(&["spec", "template", "metadata", "annotations"]));
        super::pod_annotations::check(
            meta.get("annotations"),
            template.get("spec").unwrap_or(&empty),
            "spec.template.annotations",
            super::pod_annotations::stored_invalid_cost(stored),
            errors,
        );
    } else {
        errors.push(FieldError::invalid("spec.selector", quoted(sel), ""));
    }
    template_restart_policy(spec, &["Always"], errors);
    active_deadline_forbidden(spec, "StatefulSet", errors);
}

/// `validateVolumeClaimTemplates`: each claim template's spec as a new claim's
/// (`ValidationOptionsForPersistentVolumeClaimCreate`; the apps strategy does not normalize
/// data sources).
fn claim_templates(spec: &Value, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let opts = SpecOptions {
        version,
        old_spec: None,
        normalize_sources: false,
    };
    let empty = Value::Null;
    for (i, claim) in items(spec.get("volumeClaimTemplates")).iter().enumerate() {
        pvc_spec::validate_spec(
            claim.get("spec").unwrap_or(&empty),
            &format!("spec.volumeClaimTemplates[{i}].spec"),
            &opts,
            errors,
        );
    }
}

/// The template `ValidateStatefulSetSpec` hands to the pod template validation: without
/// `hostname` and `subdomain` (the controller sets both for each pod), and with a claim volume
/// for each volume claim template ahead of the template's own volumes, replacing one of the
/// same name. Upstream collects the claim volumes in a Go map, so their order among themselves
/// is random; kssa keeps the claim templates' order.
fn template_as_validated(spec: &Value) -> Value {
    let template = spec.get("template").cloned().unwrap_or(Value::Null);
    let claims = items(spec.get("volumeClaimTemplates"));
    let Value::Map(mut template) = template else {
        return template;
    };
    let Some(Value::Map(pod)) = template.get_mut("spec") else {
        return Value::Map(template);
    };
    pod.shift_remove("hostname");
    pod.shift_remove("subdomain");
    if claims.is_empty() {
        return Value::Map(template);
    }
    let mut names: Vec<&str> = Vec::new();
    for claim in claims {
        let name = claim
            .get_path(&["metadata", "name"])
            .and_then(Value::as_str)
            .unwrap_or("");
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut volumes: Vec<Value> = names.iter().map(|name| claim_volume(name)).collect();
    volumes.extend(
        items(present(&Value::Map(pod.clone()), "volumes"))
            .iter()
            .filter(|v| !names.contains(&text(v, "name")))
            .cloned(),
    );
    pod.insert("volumes".into(), Value::List(List::from(volumes)));
    Value::Map(template)
}

/// `volumesToAddForTemplates`' volume for the claim template `name`.
fn claim_volume(name: &str) -> Value {
    let mut source = Map::default();
    source.insert("claimName".into(), Value::from(name));
    let mut volume = Map::default();
    volume.insert("name".into(), Value::from(name));
    volume.insert("persistentVolumeClaim".into(), Value::Map(source));
    Value::Map(volume)
}

/// The spec as `ValidateStatefulSetUpdate` compares it: without the mutable fields, and with
/// each volume claim template's `apiVersion` and `kind` blanked, as the v1 conversion
/// (`Convert_v1_StatefulSetSpec_To_apps_StatefulSetSpec`) blanks them in the internal object.
fn compared(spec: &Value, version: KubeVersion) -> Value {
    let mutable = |key: &str| {
        STATEFULSET_MUTABLE
            .iter()
            .any(|(field, range)| *field == key && range.contains(version))
    };
    let Some(m) = spec.as_map() else {
        return Value::Map(Map::default());
    };
    let mut out: Map = m
        .iter()
        .filter(|(k, _)| !mutable(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(Value::List(templates)) = out.get("volumeClaimTemplates") {
        let blanked: Vec<Value> = templates
            .iter()
            .map(|t| match t.as_map() {
                Some(t) => {
                    let mut t = t.clone();
                    t.shift_remove("apiVersion");
                    t.shift_remove("kind");
                    Value::Map(t)
                }
                None => t.clone(),
            })
            .collect();
        out.insert("volumeClaimTemplates".into(), Value::List(blanked.into()));
    }
    Value::Map(out)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes, refusal_over_stored};

    const STS: &str = r#"{"apiVersion":"apps/v1","kind":"StatefulSet",
      "metadata":{"name":"web","namespace":"default"},
      "spec":{"serviceName":"SERVICE","selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{POD"containers":[{"name":"web","image":"nginx:1.27",PORTS
            "volumeMounts":[{"name":"data","mountPath":"/data"}]}]}},
        "volumeClaimTemplates":[{"metadata":{"name":"data"},
          "spec":{ACCESS"resources":{"requests":{"storage":"1Gi"}}}}]}}"#;

    fn sts(service: &str, pod: &str, ports: &str, access: &str) -> String {
        STS.replace("SERVICE", service)
            .replace("POD", pod)
            .replace("PORTS", ports)
            .replace("ACCESS", access)
    }

    const VALID_ACCESS: &str = r#""accessModes":["ReadWriteOnce"],"#;
    const BAD_PORT: &str = r#""ports":[{"containerPort":70000}],"#;
    const PORT_ERROR: &str = "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive";
    const ACCESS_ERROR: &str = "spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required";

    #[test]
    fn the_pod_and_claim_templates_are_validated_from_1_34() {
        let bad = sts("web", "", BAD_PORT, "");
        assert_eq!(refusal(&bad, None, 33), None);
        assert_eq!(refusal_causes(&bad, None, 34), [ACCESS_ERROR, PORT_ERROR]);
        // A claim template's volume is what the containers mount; a valid set passes.
        assert_eq!(refusal(&sts("web", "", "", VALID_ACCESS), None, 34), None);
    }

    #[test]
    fn the_controller_owned_pod_fields_are_not_validated() {
        // `hostname` and `subdomain` are blanked, a template volume named as a claim template
        // is replaced by the claim volume.
        let pod = r#""hostname":"Not_A_Label","subdomain":"x_y","volumes":[{"name":"data","hostPath":{"path":""}}],"#;
        assert_eq!(refusal(&sts("web", pod, "", VALID_ACCESS), None, 36), None);
        // The template's own volumes come after the claim volumes.
        let pod = r#""volumes":[{"name":"Bad","emptyDir":{}}],"#;
        let causes = refusal_causes(&sts("web", pod, "", VALID_ACCESS), None, 36);
        assert_eq!(causes.len(), 1);
        assert!(
            causes[0].starts_with("spec.template.spec.volumes[1].name: Invalid value: \"Bad\": a lowercase RFC 1123 label"),
            "{causes:?}"
        );
    }

    #[test]
    fn the_service_name_is_a_dns_label_on_create_from_1_33() {
        let bad = sts("My_Svc", "", "", VALID_ACCESS);
        assert_eq!(refusal(&bad, None, 32), None);
        assert!(refusal(&bad, None, 33)
            .unwrap()
            .ends_with("spec.serviceName: Invalid value: \"My_Svc\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
        // Stored names and claim templates are tolerated on update.
        let stored = sts("My_Svc", "", "", "");
        assert_eq!(refusal_over_stored(&stored, Some(&stored), 36), None);
    }

    #[test]
    fn an_update_validates_the_template_unless_the_stored_spec_is_invalid() {
        let valid = sts("web", "", "", VALID_ACCESS);
        let bad = sts("web", "", BAD_PORT, VALID_ACCESS);
        assert_eq!(
            refusal_over_stored(&bad, Some(&valid), 34).unwrap(),
            format!("The StatefulSet \"web\" is invalid: {PORT_ERROR}")
        );
        // Stored before 1.34 with an invalid template: the update is not held to it.
        let changed = sts(
            "web",
            r#""terminationGracePeriodSeconds":5,"#,
            BAD_PORT,
            VALID_ACCESS,
        );
        assert_eq!(refusal_over_stored(&changed, Some(&bad), 34), None);
        assert!(refusal_over_stored(&changed, Some(&valid), 34).is_some());
    }
}
