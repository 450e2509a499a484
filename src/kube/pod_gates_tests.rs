use super::*;
use crate::value::{from_json_str, to_json_string};

fn dropped(spec: &str, old: Option<&str>, minor: u8) -> String {
    let mut spec = from_json_str(spec).unwrap();
    let old = old.map(|o| from_json_str(o).unwrap());
    drop_disabled(&mut spec, old.as_ref(), KubeVersion::new(minor).unwrap());
    to_json_string(&spec)
}

/// Dropped in `off`, kept in `on`, and kept in `off` when the stored spec already uses it.
fn gated(spec: &str, off: u8, on: Option<u8>, expected: &str) {
    assert_eq!(dropped(spec, None, off), expected, "1.{off}");
    let unchanged = to_json_string(&from_json_str(spec).unwrap());
    assert_eq!(dropped(spec, Some(spec), off), unchanged, "in use, 1.{off}");
    if let Some(on) = on {
        assert_eq!(dropped(spec, None, on), unchanged, "1.{on}");
    }
}

#[test]
fn pod_level_fields_are_dropped_while_their_gate_is_off() {
    gated(r#"{"hostUsers":false}"#, 32, Some(33), "{}");
    gated(
        r#"{"securityContext":{"supplementalGroupsPolicy":"Strict","runAsUser":1}}"#,
        31,
        Some(33),
        r#"{"securityContext":{"runAsUser":1}}"#,
    );
    gated(
        r#"{"securityContext":{"seLinuxChangePolicy":"Recursive"}}"#,
        32,
        Some(33),
        r#"{"securityContext":{}}"#,
    );
    gated(
        r#"{"resources":{"limits":{"cpu":"1"}}}"#,
        33,
        Some(34),
        "{}",
    );
    gated(r#"{"hostnameOverride":"h"}"#, 34, Some(35), "{}");
    gated(r#"{"workloadRef":{"name":"w"}}"#, 35, None, "{}");
    gated(
        r#"{"schedulingGroup":{"podGroupName":"g"}}"#,
        36,
        None,
        "{}",
    );
}

#[test]
fn pod_level_resources_without_requests_or_limits_are_not_in_use() {
    let empty = r#"{"resources":{}}"#;
    assert_eq!(dropped(empty, Some(empty), 33), "{}");
}

#[test]
fn a_proc_mount_becomes_default_unless_a_stored_one_is_not() {
    let spec = r#"{"containers":[{"name":"c","securityContext":{"procMount":"Unmasked"}}]}"#;
    let defaulted = r#"{"containers":[{"name":"c","securityContext":{"procMount":"Default"}}]}"#;
    gated(spec, 32, Some(33), defaulted);
    // A stored `Default` is no use of the feature.
    assert_eq!(dropped(spec, Some(defaulted), 30), defaulted);
}

#[test]
fn affinity_label_keys_are_dropped_in_1_30() {
    let spec = r#"{"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":1,"podAffinityTerm":{"topologyKey":"k","matchLabelKeys":["a"]}}]}}}"#;
    let expected = r#"{"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"k"}}]}}}"#;
    assert_eq!(dropped(spec, None, 30), expected);
    assert!(dropped(spec, Some(spec), 30).contains("matchLabelKeys"));
    assert!(dropped(spec, None, 31).contains("matchLabelKeys"));
}

#[test]
fn resource_claims_are_dropped_until_1_34() {
    let spec = r#"{"containers":[{"name":"c","resources":{"claims":[{"name":"gpu"}]}}],
        "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"t"}]}"#;
    assert_eq!(
        dropped(spec, None, 33),
        r#"{"containers":[{"name":"c","resources":{}}]}"#
    );
    assert!(dropped(spec, Some(spec), 30).contains("resourceClaims"));
    assert!(dropped(spec, None, 34).contains("resourceClaims"));
}

#[test]
fn projected_sources_of_gated_kinds_leave_an_empty_source() {
    let bundle = r#"{"volumes":[{"name":"v","projected":{"sources":[{"clusterTrustBundle":{"signerName":"a/b","path":"p"}}]}}]}"#;
    gated(
        bundle,
        36,
        Some(37),
        r#"{"volumes":[{"name":"v","projected":{"sources":[{}]}}]}"#,
    );
    let certificate = r#"{"volumes":[{"name":"v","projected":{"sources":[{"podCertificate":{"signerName":"a/b","keyType":"ED25519"}},{"configMap":{"name":"c"}}]}}]}"#;
    gated(
        certificate,
        34,
        None,
        r#"{"volumes":[{"name":"v","projected":{"sources":[{},{"configMap":{"name":"c"}}]}}]}"#,
    );
}

#[test]
fn container_fields_are_dropped_in_every_container_list() {
    let spec = r#"{"containers":[{"name":"c","resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}]}],
        "initContainers":[{"name":"i","resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}]}]}"#;
    gated(
        spec,
        32,
        Some(33),
        r#"{"containers":[{"name":"c"}],"initContainers":[{"name":"i"}]}"#,
    );
    // Until 1.32 only a regular container's resize policy counts as in use.
    let init_only = r#"{"initContainers":[{"name":"i","resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}]}]}"#;
    assert_eq!(
        dropped(init_only, Some(init_only), 32),
        r#"{"initContainers":[{"name":"i"}]}"#
    );
    gated(
        r#"{"containers":[{"name":"c","volumeMounts":[{"name":"v","mountPath":"/v","recursiveReadOnly":"Enabled"}]}]}"#,
        30,
        Some(31),
        r#"{"containers":[{"name":"c","volumeMounts":[{"name":"v","mountPath":"/v"}]}]}"#,
    );
}

#[test]
fn container_restart_rules_keep_a_sidecar_in_1_34() {
    let spec = r#"{"initContainers":[{"name":"s","restartPolicy":"Always"},{"name":"i","restartPolicy":"Never"}],
        "containers":[{"name":"c","restartPolicy":"Never","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}]}]}"#;
    gated(
        spec,
        34,
        Some(35),
        r#"{"initContainers":[{"name":"s","restartPolicy":"Always"},{"name":"i"}],"containers":[{"name":"c"}]}"#,
    );
    // A sidecar alone is no use of the feature.
    let sidecar = r#"{"initContainers":[{"name":"s","restartPolicy":"Always"}],"containers":[{"name":"c","restartPolicy":"Never"}]}"#;
    let stored =
        r#"{"initContainers":[{"name":"s","restartPolicy":"Always"}],"containers":[{"name":"c"}]}"#;
    assert_eq!(dropped(sidecar, Some(stored), 34), stored);
}

#[test]
fn a_stop_signal_takes_an_otherwise_empty_lifecycle_with_it() {
    let spec = r#"{"containers":[{"name":"a","lifecycle":{"stopSignal":"SIGUSR1"}},
        {"name":"b","lifecycle":{"stopSignal":"SIGUSR1","preStop":{"sleep":{"seconds":1}}}}]}"#;
    gated(
        spec,
        33,
        None,
        r#"{"containers":[{"name":"a"},{"name":"b","lifecycle":{"preStop":{"sleep":{"seconds":1}}}}]}"#,
    );
    let explicit_null = r#"{"containers":[{"name":"a","lifecycle":{"stopSignal":null}}]}"#;
    assert_eq!(
        dropped(explicit_null, None, 36),
        to_json_string(&from_json_str(explicit_null).unwrap())
    );
}

#[test]
fn image_volumes_and_file_key_refs_follow_their_gates() {
    let spec = r#"{"containers":[{"name":"c","volumeMounts":[{"name":"tools","mountPath":"/t"}],
        "env":[{"name":"A","valueFrom":{"fileKeyRef":{"key":"A","volumeName":"v","path":"a.env"}}}]}],
        "volumes":[{"name":"tools","image":{"reference":"tools:1"}}]}"#;
    assert_eq!(
        dropped(spec, None, 34),
        r#"{"containers":[{"name":"c","volumeMounts":[],"env":[{"name":"A","valueFrom":{}}]}],"volumes":[]}"#
    );
    assert_eq!(dropped(spec, None, 35), dropped(spec, Some(spec), 34));
}
