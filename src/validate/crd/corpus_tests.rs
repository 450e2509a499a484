//! Proof over the real CRDs with `x-kubernetes-validations` (kube-prometheus, cert-manager) and
//! a CRD with transition rules: one valid and at least one invalid custom resource each, with
//! the server's errors.

use super::*;
use crate::schema::crd::load_schema_document;
use std::path::Path;

/// The served version's schema of the one CRD in `testdata/crds/<file>`.
fn crd_schema(file: &str, version: &str) -> std::sync::Arc<LazySchema> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/crds")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: Value = serde_yaml::from_str(&text).unwrap();
    let loaded = load_schema_document(&doc).unwrap();
    loaded
        .validation
        .iter()
        .find(|(v, _)| v == version)
        .map(|(_, s)| s.clone())
        .unwrap_or_else(|| panic!("{file}: no schema for {version}"))
}

/// An error as apimachinery 1.34+ prints it (`field.Error.Error`).
fn render(e: &FieldError) -> String {
    let value = match (&e.error_type, &e.bad_value) {
        (ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong, _)
        | (_, crate::validate::field::BadValue::Omitted) => String::new(),
        (_, crate::validate::field::BadValue::Value(v))
        | (_, crate::validate::field::BadValue::GoValue { value: v, .. }) => {
            format!(": {}", crate::value::to_json_string(v))
        }
    };
    let detail = match e.detail.is_empty() {
        true => String::new(),
        false => format!(": {}", e.detail),
    };
    format!("{}: {}{value}{detail}", e.field, e.error_type.as_str())
}

fn check(file: &str, version: &str, object: &str, old: Option<&str>) -> Vec<String> {
    let schema = crd_schema(file, version);
    let object: Value = serde_yaml::from_str(object).unwrap();
    let old: Option<Value> = old.map(|o| serde_yaml::from_str(o).unwrap());
    let verdict = validate_custom_resource(
        schema.node(),
        &object,
        old.as_ref(),
        &[],
        KubeVersion::NEWEST,
    );
    assert!(verdict.skipped.is_empty(), "{:?}", verdict.skipped);
    verdict.errors.iter().map(render).collect()
}

const PROMETHEUS: &str = "0prometheusCustomResourceDefinition.yaml";

#[test]
fn prometheus() {
    let meta = "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s}\n";
    let valid = format!(
        "{meta}spec: {{shards: 2, shardingStrategy: {{mode: Topology, topology: {{values: [a, b]}}}},
          updateStrategy: {{type: RollingUpdate, rollingUpdate: {{maxUnavailable: 1}}}},
          remoteWrite: [{{url: 'http://x', sigv4: {{roleArn: r, externalId: e}}}}]}}"
    );
    assert!(check(PROMETHEUS, "v1", &valid, None).is_empty());
    let invalid = format!(
        "{meta}spec: {{shards: 2, shardingStrategy: {{mode: Topology, topology: {{values: [a, b, c]}}}},
          updateStrategy: {{type: OnDelete, rollingUpdate: {{maxUnavailable: 1}}}},
          remoteWrite: [{{url: 'http://x', sigv4: {{externalId: e}}}}]}}"
    );
    assert_eq!(
        check(PROMETHEUS, "v1", &invalid, None),
        [
            r#"spec: Invalid value: "object": shards must be greater than or equal to the number of topology values when sharding strategy mode is Topology"#,
            r#"spec.updateStrategy: Invalid value: "object": rollingUpdate requires type to be RollingUpdate"#,
            r#"spec.remoteWrite[0].sigv4: Invalid value: "object": externalId can only be used when roleArn is specified"#,
        ]
    );
    let topology =
        format!("{meta}spec: {{shardingStrategy: {{mode: Address, topology: {{values: [a]}}}}}}");
    assert_eq!(
        check(PROMETHEUS, "v1", &topology, None),
        [
            r#"spec.shardingStrategy: Invalid value: "object": topology can only be defined when mode is set to 'Topology'"#
        ]
    );
}

#[test]
fn prometheus_schema_failures_block_the_rules() {
    let meta = "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s}\n";
    let object = format!(
        "{meta}spec: {{logLevel: verbose, scrapeInterval: 30 seconds, replicas: two,
          updateStrategy: {{rollingUpdate: {{}}}}}}"
    );
    assert_eq!(
        check(PROMETHEUS, "v1", &object, None),
        [
            r#"spec.logLevel: Unsupported value: "verbose": supported values: "", "debug", "info", "warn", "error""#,
            r#"spec.scrapeInterval: Invalid value: "30 seconds": spec.scrapeInterval in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'"#,
            r#"spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string""#,
            "spec.updateStrategy.type: Required value",
            r#"<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"#,
        ]
    );
}

#[test]
fn alertmanager_config() {
    let file = "0alertmanagerConfigCustomResourceDefinition.yaml";
    let object = |sigv4: &str| {
        format!(
            "apiVersion: monitoring.coreos.com/v1alpha1\nkind: AlertmanagerConfig\nmetadata: {{name: sns}}
spec: {{receivers: [{{name: ops, snsConfigs: [{{topicARN: arn, sigv4: {sigv4}}}]}}]}}"
        )
    };
    assert!(check(
        file,
        "v1alpha1",
        &object("{roleArn: r, externalId: e}"),
        None
    )
    .is_empty());
    assert_eq!(
        check(file, "v1alpha1", &object("{externalId: e}"), None),
        [
            r#"spec.receivers[0].snsConfigs[0].sigv4: Invalid value: "object": externalId can only be used when roleArn is specified"#
        ]
    );
    // A duplicate key of a map list is reported, and does not keep the rules from running.
    let duplicate = "apiVersion: monitoring.coreos.com/v1alpha1\nkind: AlertmanagerConfig\nmetadata: {name: sns}
spec: {receivers: [{name: ops}, {name: ops, snsConfigs: [{sigv4: {externalId: e}}]}]}";
    assert_eq!(
        check(file, "v1alpha1", duplicate, None),
        [
            r#"spec.receivers[1]: Duplicate value: {"name":"ops"}"#,
            r#"spec.receivers[1].snsConfigs[0].sigv4: Invalid value: "object": externalId can only be used when roleArn is specified"#,
        ]
    );
}

#[test]
fn prometheus_agent() {
    let file = "0prometheusagentCustomResourceDefinition.yaml";
    let object = |spec: &str| {
        format!("apiVersion: monitoring.coreos.com/v1alpha1\nkind: PrometheusAgent\nmetadata: {{name: a}}\nspec: {spec}")
    };
    assert!(check(file, "v1alpha1", &object("{mode: DaemonSet}"), None).is_empty());
    assert!(check(
        file,
        "v1alpha1",
        &object("{mode: StatefulSet, replicas: 2, shards: 2}"),
        None
    )
    .is_empty());
    assert_eq!(
        check(
            file,
            "v1alpha1",
            &object("{mode: DaemonSet, replicas: 2, shards: 3}"),
            None
        ),
        [
            r#"spec: Invalid value: "object": replicas cannot be set when mode is DaemonSet"#,
            r#"spec: Invalid value: "object": shards cannot be greater than 1 when mode is DaemonSet"#,
        ]
    );
}

#[test]
fn scrape_config() {
    let file = "0scrapeconfigCustomResourceDefinition.yaml";
    let object = |spec: &str| {
        format!("apiVersion: monitoring.coreos.com/v1alpha1\nkind: ScrapeConfig\nmetadata: {{name: s}}\nspec: {spec}")
    };
    assert!(check(
        file,
        "v1alpha1",
        &object("{basicAuth: {username: {key: u}}}"),
        None
    )
    .is_empty());
    assert_eq!(
        check(
            file,
            "v1alpha1",
            &object("{basicAuth: {username: {key: u}}, authorization: {type: Bearer}}"),
            None
        ),
        [
            r#"spec: Invalid value: "object": at most one of basicAuth, authorization, or oauth2 can be configured"#
        ]
    );
}

#[test]
fn alertmanager_and_thanos_ruler_update_strategy() {
    for (file, kind) in [
        ("0alertmanagerCustomResourceDefinition.yaml", "Alertmanager"),
        ("0thanosrulerCustomResourceDefinition.yaml", "ThanosRuler"),
    ] {
        let object = |strategy: &str| {
            format!("apiVersion: monitoring.coreos.com/v1\nkind: {kind}\nmetadata: {{name: main}}\nspec: {{updateStrategy: {strategy}}}")
        };
        assert!(check(
            file,
            "v1",
            &object("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%}}"),
            None
        )
        .is_empty());
        assert_eq!(
            check(
                file,
                "v1",
                &object("{type: OnDelete, rollingUpdate: {maxUnavailable: 1}}"),
                None
            ),
            [
                r#"spec.updateStrategy: Invalid value: "object": rollingUpdate requires type to be RollingUpdate"#
            ],
            "{kind}"
        );
    }
}

#[test]
fn thanos_ruler_remote_write_sigv4() {
    let file = "0thanosrulerCustomResourceDefinition.yaml";
    let object = "apiVersion: monitoring.coreos.com/v1\nkind: ThanosRuler\nmetadata: {name: t}
spec: {remoteWrite: [{url: 'http://r', sigv4: {externalId: e}}]}";
    assert_eq!(
        check(file, "v1", object, None),
        [
            r#"spec.remoteWrite[0].sigv4: Invalid value: "object": externalId can only be used when roleArn is specified"#
        ]
    );
}

#[test]
fn cert_manager_issuers() {
    for (file, kind) in [
        ("cert-manager.io_issuers.yaml", "Issuer"),
        ("cert-manager.io_clusterissuers.yaml", "ClusterIssuer"),
    ] {
        let object = |venafi: &str| {
            format!("apiVersion: cert-manager.io/v1\nkind: {kind}\nmetadata: {{name: v}}\nspec: {{venafi: {venafi}}}")
        };
        assert!(check(
            file,
            "v1",
            &object("{zone: z, cloud: {apiTokenSecretRef: {name: t}}}"),
            None
        )
        .is_empty());
        assert_eq!(
            check(file, "v1", &object("{zone: z}"), None),
            [
                r#"spec.venafi: Invalid value: "object": exactly one of tpp, cloud, or ngts must be configured"#
            ],
            "{kind}"
        );
        assert_eq!(
            check(
                file,
                "v1",
                &object("{zone: z, cloud: {apiTokenSecretRef: {name: t}}, tpp: {url: u, credentialsRef: {name: c}}}"),
                None
            ),
            [r#"spec.venafi: Invalid value: "object": exactly one of tpp, cloud, or ngts must be configured"#],
        );
        // A missing required field blocks the rule.
        assert_eq!(
            check(
                file,
                "v1",
                &object("{cloud: {apiTokenSecretRef: {}}}"),
                None
            ),
            [
                "spec.venafi.cloud.apiTokenSecretRef.name: Required value",
                "spec.venafi.zone: Required value",
                r#"<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"#,
            ]
        );
    }
}

const VOLUME: &str = "volumes.storage.example.com.yaml";

fn volume(spec: &str) -> String {
    format!(
        "apiVersion: storage.example.com/v1\nkind: Volume\nmetadata: {{name: data}}\nspec: {spec}"
    )
}

#[test]
fn transition_rules_against_the_live_object() {
    let live =
        volume("{storageClass: fast, size: 10, replicas: 1, encrypted: true, tier: premium}");
    // Create: transition rules do not run.
    assert!(check(VOLUME, "v1", &live, None).is_empty());
    // Growing is fine; shrinking, changing the class, dropping encryption and the tier are not.
    let grown =
        volume("{storageClass: fast, size: 20, replicas: 1, encrypted: true, tier: premium}");
    assert!(check(VOLUME, "v1", &grown, Some(&live)).is_empty());
    let changed =
        volume("{storageClass: slow, size: 5, replicas: 1, encrypted: false, tier: standard}");
    assert_eq!(
        check(VOLUME, "v1", &changed, Some(&live)),
        [
            "spec.encrypted: Forbidden: encryption cannot be changed once set",
            r#"spec.storageClass: Invalid value: "string": storageClass is immutable"#,
            r#"spec.size: Invalid value: "integer": size may only grow"#,
            r#"spec.tier: Invalid value: "string": a premium volume stays premium"#,
        ]
    );
}

#[test]
fn volume_message_expression_and_schema() {
    assert_eq!(
        check(
            VOLUME,
            "v1",
            &volume("{storageClass: fast, size: 2, replicas: 3}"),
            None
        ),
        [r#"spec: Invalid value: "object": replicas (3) may not exceed size (2)"#]
    );
    assert_eq!(
        check(
            VOLUME,
            "v1",
            &volume("{storageClass: Fast_SSD, size: 0, replicas: 1, accessModes: [ReadWriteOnce, ReadWriteOnce, ReadOnlyMany]}"),
            None
        ),
        [
            r#"spec.storageClass: Invalid value: "Fast_SSD": spec.storageClass in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"#,
            "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
            "spec.accessModes: Too many: 3: must have at most 2 items",
            r#"spec.accessModes[1]: Duplicate value: "ReadWriteOnce""#,
            r#"<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"#,
        ]
    );
    // Unchanged invalid values of the live object are tolerated on update (ratcheting).
    let live = volume("{storageClass: fast, size: 2000, replicas: 1}");
    assert!(check(VOLUME, "v1", &live, Some(&live)).is_empty());
}
