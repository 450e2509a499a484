//! Volume sources, mounts and devices on whole objects: which errors, at which (sometimes
//! surprising) paths, in the server's order.

use super::tests::refusal;

/// A pod with `volumes` and the container's extra fields `container` (JSON fragments).
fn pod(volumes: &str, container: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p","namespace":"default"}},
        "spec":{{"volumes":{volumes},"containers":[{{"name":"c","image":"busybox"{container}}}]}}}}"#
    )
}

#[track_caller]
fn refused(volumes: &str, container: &str, minor: u8) -> String {
    let message = refusal(&pod(volumes, container), None, minor).expect("refused");
    message
        .strip_prefix("The Pod \"p\" is invalid: ")
        .unwrap()
        .to_string()
}

#[test]
fn one_source_per_volume_and_a_name_only_volume_is_an_empty_dir() {
    assert_eq!(
        refused(
            r#"[{"name":"v","configMap":{"name":"a"},"secret":{"secretName":"b"}}]"#,
            "",
            37
        ),
        "spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type"
    );
    // Defaulting turns a volume with no source into an emptyDir, so no "must specify".
    assert_eq!(refusal(&pod(r#"[{"name":"v"}]"#, ""), None, 37), None);
}

#[test]
fn an_invalid_volume_is_not_mountable() {
    assert_eq!(
        refused(
            r#"[{"name":"v","configMap":{}}]"#,
            r#","volumeMounts":[{"name":"v","mountPath":"/v"}]"#,
            30
        ),
        "\n* spec.volumes[0].configMap.name: Required value\n* spec.containers[0].volumeMounts[0].name: Not found: \"v\""
    );
}

#[test]
fn item_paths_are_relative_without_backsteps_and_modes_octal() {
    assert_eq!(
        refused(
            r#"[{"name":"v","configMap":{"name":"a","defaultMode":1000,"items":[{"key":"k","path":"../x"},{"key":"","path":"/abs","mode":-1}]}}]"#,
            "",
            37
        ),
        "\n* spec.volumes[0].configMap.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive\n* spec.volumes[0].configMap.items[0].path: Invalid value: \"../x\": must not contain '..'\n* spec.volumes[0].configMap.items[1].key: Required value\n* spec.volumes[0].configMap.items[1].path: Invalid value: \"/abs\": must be a relative path\n* spec.volumes[0].configMap.items[1].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive"
    );
    assert_eq!(
        refused(
            r#"[{"name":"v","secret":{"secretName":"s","items":[{"key":"k","path":"..x"}]}}]"#,
            "",
            37
        ),
        "spec.volumes[0].secret.items[0].path: Invalid value: \"..x\": must not start with '..'"
    );
}

#[test]
fn host_paths_nfs_and_csi() {
    assert_eq!(
        refused(
            r#"[{"name":"a","hostPath":{"path":"/x","type":"Dir"}},{"name":"b","nfs":{"server":"s","path":"x"}},{"name":"c","csi":{"driver":""}}]"#,
            "",
            34
        ),
        "\n* spec.volumes[0].hostPath.type: Unsupported value: \"Dir\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"\n* spec.volumes[1].nfs.path: Invalid value: \"x\": must be an absolute path\n* spec.volumes[2].csi.driver: Required value\n* spec.volumes[2].csi.driver: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
}

#[test]
fn downward_api_files_report_at_the_source() {
    assert_eq!(
        refused(
            r#"[{"name":"v","downwardAPI":{"items":[{"path":"a","fieldRef":{"fieldPath":"spec.nodeName"}},{"path":"b"}]}}]"#,
            "",
            37
        ),
        "\n* spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: \"spec.nodeName\": supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", \"metadata.uid\"\n* spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required"
    );
    assert_eq!(
        refused(
            r#"[{"name":"v","downwardAPI":{"items":[{"path":"a","resourceFieldRef":{"containerName":"c","resource":"limits.cpu","divisor":"1Mi"}}]}}]"#,
            "",
            37
        ),
        "spec.volumes[0].downwardAPI.resourceFieldRef.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource"
    );
}

#[test]
fn projected_sources_have_one_type_unique_paths_and_long_lived_tokens() {
    let volumes = r#"[{"name":"v","projected":{"sources":[
        {"serviceAccountToken":{"path":"token","expirationSeconds":60}},
        {"configMap":{"name":"a","items":[{"key":"k","path":"p"}]},
         "secret":{"name":"b","items":[{"key":"k","path":"p"}]}}]}}]"#;
    assert_eq!(
        refused(volumes, "", 37),
        "\n* spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n* spec.volumes[0].projected: Invalid value: \"a\": conflicting duplicate paths\n* spec.volumes[0].projected.sources[1]: Forbidden: may not specify more than 1 volume type per source"
    );
}

#[test]
fn ephemeral_claims_need_an_access_mode_and_storage() {
    assert_eq!(
        refused(
            r#"[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"name":"x"},"spec":{}}}}]"#,
            "",
            37
        ),
        "\n* spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set\n* spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required\n* spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value"
    );
}

#[test]
fn an_ephemeral_claim_s_data_sources_must_agree_and_are_not_normalized() {
    let refused_with = |sources: &str| {
        let spec = format!(
            r#"{{"accessModes":["ReadWriteOnce"],"resources":{{"requests":{{"storage":"1Gi"}}}},{sources}}}"#
        );
        let volumes =
            format!(r#"[{{"name":"v","ephemeral":{{"volumeClaimTemplate":{{"spec":{spec}}}}}}}]"#);
        refused(&volumes, "", 37)
    };
    assert_eq!(
        refused_with(
            r#""dataSource":{"kind":"PersistentVolumeClaim","name":"a"},
            "dataSourceRef":{"kind":"PersistentVolumeClaim","name":"b"}"#
        ),
        "spec.volumes[0].ephemeral.volumeClaimTemplate.spec: Invalid value: {}: must match dataSourceRef"
    );
    // A reference given alone is not copied to the other (only a claim's create does that).
    assert_eq!(
        refused_with(r#""dataSource":{"kind":"VolumeSnapshot","name":"snap"}"#),
        "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"
    );
}

#[test]
fn mounts_sub_paths_propagation_and_devices() {
    let container = r#","volumeMounts":[{"name":"v","mountPath":"/v","subPath":"../x","subPathExpr":"y","mountPropagation":"Bidirectional"}],
        "volumeDevices":[{"name":"v","devicePath":"/dev/x"}]"#;
    assert_eq!(
        refused(r#"[{"name":"v","emptyDir":{}}]"#, container, 37),
        "\n* spec.containers[0].volumeMounts[0].name: Invalid value: \"v\": must not already exist in volumeDevices\n* spec.containers[0].volumeMounts.subPath: Invalid value: \"../x\": must not contain '..'\n* spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: \"y\": subPathExpr and subPath are mutually exclusive\n* spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers\n* spec.containers[0].volumeDevices[0].name: Invalid value: \"v\": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode\n* spec.containers[0].volumeDevices[0].name: Invalid value: \"v\": must not already exist in volumeMounts"
    );
}

#[test]
fn recursive_read_only_needs_read_only_from_1_31() {
    let container =
        r#","volumeMounts":[{"name":"v","mountPath":"/v","recursiveReadOnly":"Enabled"}]"#;
    assert_eq!(
        refused(r#"[{"name":"v","emptyDir":{}}]"#, container, 31),
        "spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true"
    );
    assert_eq!(
        refusal(&pod(r#"[{"name":"v","emptyDir":{}}]"#, container), None, 30),
        None
    );
}

/// From 1.35 `ValidateCSIDriverName` stops at a missing name.
#[test]
fn an_empty_csi_driver_name_is_only_required_from_1_35() {
    let volumes = r#"[{"name":"v","csi":{"driver":""}}]"#;
    assert_eq!(
        refused(volumes, "", 35),
        "spec.volumes[0].csi.driver: Required value"
    );
}
