//! The Kubernetes 1.36 defaulters (`SetDefaults_*` in pkg/apis/*/v1/defaults.go and the
//! generated walks that call them), as rules over the round-tripped object: one function per
//! kind and per shared sub-structure (pod spec, container, probe, volume, service port...).
//!
//! Constant defaults are tables of `(field, value)` applied where the field is unset; rules that
//! depend on other fields are written out next to them.

use super::quantity::Quantity;
use crate::value::{Map, Value};

/// A constant default.
#[derive(Clone, Copy)]
pub(super) enum Lit {
    Str(&'static str),
    Int(i64),
    Bool(bool),
    EmptyMap,
}

impl Lit {
    pub(super) fn value(self) -> Value {
        match self {
            Lit::Str(s) => Value::String(s.into()),
            Lit::Int(i) => Value::Int(i),
            Lit::Bool(b) => Value::Bool(b),
            Lit::EmptyMap => Value::Map(Map::default()),
        }
    }
}

pub(super) use Lit::{Bool, EmptyMap, Int, Str};

const POD_SPEC: &[(&str, Lit)] = &[
    ("dnsPolicy", Str("ClusterFirst")),
    ("restartPolicy", Str("Always")),
    ("terminationGracePeriodSeconds", Int(30)),
    ("securityContext", EmptyMap),
    ("schedulerName", Str("default-scheduler")),
];
const CONTAINER: &[(&str, Lit)] = &[
    ("terminationMessagePath", Str("/dev/termination-log")),
    ("terminationMessagePolicy", Str("File")),
];
/// Non-pointer integers in Go: zero counts as unset.
const PROBE: &[(&str, Lit)] = &[
    ("timeoutSeconds", Int(1)),
    ("periodSeconds", Int(10)),
    ("successThreshold", Int(1)),
    ("failureThreshold", Int(3)),
];
const HTTP_GET: &[(&str, Lit)] = &[("path", Str("/")), ("scheme", Str("HTTP"))];
const PROTOCOL: &[(&str, Lit)] = &[("protocol", Str("TCP"))];
const FIELD_REF: &[(&str, Lit)] = &[("apiVersion", Str("v1"))];
const DEFAULT_MODE: &[(&str, Lit)] = &[("defaultMode", Int(0o644))];
pub(super) const VOLUME_SOURCES: &[(&str, &[(&str, Lit)])] = &[
    ("secret", DEFAULT_MODE),
    ("configMap", DEFAULT_MODE),
    ("downwardAPI", DEFAULT_MODE),
    ("projected", DEFAULT_MODE),
    ("hostPath", &[("type", Str(""))]),
    ("iscsi", &[("iscsiInterface", Str("default"))]),
    (
        "rbd",
        &[
            ("pool", Str("rbd")),
            ("user", Str("admin")),
            ("keyring", Str("/etc/ceph/keyring")),
        ],
    ),
    (
        "azureDisk",
        &[
            ("cachingMode", Str("ReadWrite")),
            ("fsType", Str("ext4")),
            ("readOnly", Bool(false)),
            ("kind", Str("Shared")),
        ],
    ),
    (
        "scaleIO",
        &[
            ("storageMode", Str("ThinProvisioned")),
            ("fsType", Str("xfs")),
        ],
    ),
];
const PVC_SPEC: &[(&str, Lit)] = &[("volumeMode", Str("Filesystem"))];
pub(super) const PENDING: &[(&str, Lit)] = &[("phase", Str("Pending"))];

const DEPLOYMENT: &[(&str, Lit)] = &[
    ("replicas", Int(1)),
    ("revisionHistoryLimit", Int(10)),
    ("progressDeadlineSeconds", Int(600)),
];
const STATEFUL_SET: &[(&str, Lit)] = &[
    ("replicas", Int(1)),
    ("revisionHistoryLimit", Int(10)),
    ("podManagementPolicy", Str("OrderedReady")),
];
const PVC_RETENTION: &[(&str, Lit)] = &[
    ("whenDeleted", Str("Retain")),
    ("whenScaled", Str("Retain")),
];
const CRON_JOB: &[(&str, Lit)] = &[
    ("concurrencyPolicy", Str("Allow")),
    ("suspend", Bool(false)),
    ("successfulJobsHistoryLimit", Int(3)),
    ("failedJobsHistoryLimit", Int(1)),
];
const SERVICE: &[(&str, Lit)] = &[("sessionAffinity", Str("None")), ("type", Str("ClusterIP"))];
const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// Defaults a round-tripped object of the OpenAPI definition `type_name`.
/// The OpenAPI names of apiextensions/v1 CustomResourceDefinition and apiregistration/v1
/// APIService.
const CRD_TYPE: &str =
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition";
const API_SERVICE_TYPE: &str = "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService";

pub(crate) fn default_object(type_name: &str, object: &mut Value) {
    let Some(obj) = object.as_map_mut() else {
        return;
    };
    match type_name {
        CRD_TYPE => return super::extension_kinds::custom_resource_definition(obj),
        API_SERVICE_TYPE => return super::extension_kinds::api_service(obj),
        _ => {}
    }
    let kind = type_name.rsplit('.').next().unwrap_or("");
    let group = type_name
        .strip_prefix("io.k8s.api.")
        .and_then(|rest| rest.split('.').next())
        .unwrap_or("");
    match (group, kind) {
        ("core", "Pod") => pod(obj),
        ("core", "PodTemplate") => pod_template(child(obj, "template")),
        ("core", "ReplicationController") => replication_controller(obj),
        ("core", "Service") => service(obj),
        ("core", "Secret") => set_defaults(Some(obj), &[("type", Str("Opaque"))]),
        ("core", "Namespace") => namespace(obj),
        ("core", "PersistentVolumeClaim") => pvc(obj),
        ("core", "PersistentVolume") => super::storage::persistent_volume(obj),
        ("core", "LimitRange") => super::cluster::limit_range(obj),
        ("core", "ResourceQuota") => super::cluster::resource_quota(obj),
        ("core", "Node") => super::cluster::node(obj),
        ("storage", "StorageClass") => super::storage::storage_class(obj),
        ("storage", "CSIDriver") => super::storage::csi_driver(child(obj, "spec")),
        ("storage", "VolumeAttachment") => super::storage::volume_attachment(obj),
        ("admissionregistration", "ValidatingWebhookConfiguration") => {
            super::admission::webhooks(obj, false)
        }
        ("admissionregistration", "MutatingWebhookConfiguration") => {
            super::admission::webhooks(obj, true)
        }
        ("admissionregistration", "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy") => {
            super::admission::policy(child(obj, "spec"))
        }
        (
            "admissionregistration",
            "ValidatingAdmissionPolicyBinding" | "MutatingAdmissionPolicyBinding",
        ) => super::admission::binding(child(obj, "spec"), type_name.contains(".v1alpha1.")),
        ("scheduling", "PriorityClass") => set_defaults(
            Some(obj),
            &[("preemptionPolicy", Str("PreemptLowerPriority"))],
        ),
        ("networking", "IngressClass") => super::cluster::ingress_class(child(obj, "spec")),
        ("flowcontrol", "FlowSchema") if type_name.contains(".v1.") => {
            set_defaults_nonzero(child(obj, "spec"), &[("matchingPrecedence", Int(1000))])
        }
        ("flowcontrol", "PriorityLevelConfiguration") if type_name.contains(".v1.") => {
            super::cluster::priority_level(child(obj, "spec"))
        }
        ("core", "Endpoints") => each(obj.get_mut("subsets"), |s| {
            each(s.get_mut("ports"), |p| set_defaults(Some(p), PROTOCOL))
        }),
        // discovery/v1 `SetDefaults_EndpointPort`: an unnamed port gets "", TCP by default.
        ("discovery", "EndpointSlice") => each(obj.get_mut("ports"), |p| {
            set_defaults(Some(p), &[("name", Str("")), ("protocol", Str("TCP"))])
        }),
        ("apps", "Deployment") => deployment(child(obj, "spec")),
        ("apps", "StatefulSet") => stateful_set(child(obj, "spec")),
        ("apps", "DaemonSet") => daemon_set(child(obj, "spec")),
        ("apps", "ReplicaSet") => {
            let spec = child(obj, "spec");
            set_defaults(spec, &[("replicas", Int(1))]);
            pod_template(child(obj, "spec").and_then(|s| child(s, "template")));
        }
        ("batch", "Job") => job(obj),
        ("batch", "CronJob") => cron_job(child(obj, "spec")),
        ("networking", "NetworkPolicy") => network_policy(child(obj, "spec")),
        ("rbac", "RoleBinding" | "ClusterRoleBinding") => role_binding(obj),
        ("autoscaling", "HorizontalPodAutoscaler") if type_name.contains(".v2.") => {
            hpa(child(obj, "spec"))
        }
        // pkg/apis/autoscaling/v1/defaults.go `SetDefaults_HorizontalPodAutoscaler` (the CPU
        // target is left to conversion).
        ("autoscaling", "HorizontalPodAutoscaler") if type_name.contains(".v1.") => {
            set_defaults(child(obj, "spec"), &[("minReplicas", Int(1))])
        }
        ("resource", "ResourceClaim") if type_name.contains(".v1.") => {
            super::dra::claim_spec(child(obj, "spec"))
        }
        ("resource", "ResourceClaimTemplate") if type_name.contains(".v1.") => {
            super::dra::claim_spec(child(obj, "spec").and_then(|s| child(s, "spec")))
        }
        _ => {}
    }
}

// ---- helpers ----

pub(super) fn child<'a>(m: &'a mut Map, key: &str) -> Option<&'a mut Map> {
    m.get_mut(key)?.as_map_mut()
}

pub(super) fn child_or_insert<'a>(m: &'a mut Map, key: &str) -> Option<&'a mut Map> {
    let v = m.entry(key.to_string()).or_insert(Value::Null);
    if v.is_null() {
        *v = Value::Map(Map::default());
    }
    v.as_map_mut()
}

/// Runs `f` on every map item of a list.
pub(super) fn each(list: Option<&mut Value>, mut f: impl FnMut(&mut Map)) {
    if let Some(Value::List(items)) = list {
        for item in items.iter_mut().filter_map(Value::as_map_mut) {
            f(item);
        }
    }
}

/// Whether a field counts as unset: missing, null, or the zero value of a non-pointer field
/// (the round trip has dropped the zero values it can tell apart, the rest are checked here).
pub(super) fn unset(m: &Map, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        _ => false,
    }
}

pub(super) fn set_defaults(m: Option<&mut Map>, table: &[(&str, Lit)]) {
    let Some(m) = m else { return };
    for (key, lit) in table {
        if unset(m, key) {
            m.insert(key.to_string(), lit.value());
        }
    }
}

/// [`set_defaults`] on every map item of the list `parent[key]`. A list none of whose items
/// lacks a field of `table` (container ports with their protocol) stays shared with the
/// configuration: it is copied only to be changed.
fn set_item_defaults(parent: &mut Map, key: &str, table: &[(&str, Lit)]) {
    let needed = parent
        .get(key)
        .and_then(Value::as_list)
        .is_some_and(|items| {
            items
                .iter()
                .filter_map(Value::as_map)
                .any(|m| table.iter().any(|(k, _)| unset(m, k)))
        });
    if needed {
        each(parent.get_mut(key), |m| set_defaults(Some(m), table));
    }
}

/// For non-pointer integers, where `0` means unset too.
pub(super) fn set_defaults_nonzero(m: Option<&mut Map>, table: &[(&str, Lit)]) {
    let Some(m) = m else { return };
    for (key, lit) in table {
        if unset(m, key) || m.get(key).and_then(Value::as_i64) == Some(0) {
            m.insert(key.to_string(), lit.value());
        }
    }
}

fn is_empty_list(v: Option<&Value>) -> bool {
    v.and_then(Value::as_list).is_none_or(Vec::is_empty)
}

// ---- pods ----

fn pod(obj: &mut Map) {
    let Some(spec) = child(obj, "spec") else {
        return;
    };
    set_defaults(Some(spec), &[("enableServiceLinks", Bool(true))]);
    let host_network = spec.get("hostNetwork").and_then(Value::as_bool) == Some(true);
    for list in ["initContainers", "containers"] {
        each(spec.get_mut(list), |c| {
            requests_from_limits(c);
            if host_network {
                each(c.get_mut("ports"), |p| {
                    if p.get("hostPort").and_then(Value::as_i64).unwrap_or(0) == 0 {
                        if let Some(port) = p.get("containerPort").cloned() {
                            p.insert("hostPort".into(), port);
                        }
                    }
                });
            }
        });
    }
    pod_spec(spec);
}

/// `SetDefaults_Pod`: a container's missing requests are its limits.
fn requests_from_limits(c: &mut Map) {
    let Some(resources) = child(c, "resources") else {
        return;
    };
    let Some(limits) = resources.get("limits").and_then(Value::as_map).cloned() else {
        return;
    };
    if limits.is_empty() {
        return;
    }
    let Some(requests) = child_or_insert(resources, "requests") else {
        return;
    };
    for (name, q) in limits {
        requests.entry(name).or_insert(q);
    }
}

fn pod_template(template: Option<&mut Map>) {
    if let Some(spec) = template.and_then(|t| child(t, "spec")) {
        pod_spec(spec);
    }
}

fn pod_spec(spec: &mut Map) {
    set_defaults(Some(spec), POD_SPEC);
    each(spec.get_mut("volumes"), volume);
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        each(spec.get_mut(list), container);
    }
    round_resource_list(spec, "overhead");
}

fn container(c: &mut Map) {
    set_defaults(Some(c), CONTAINER);
    if unset(c, "imagePullPolicy") {
        let policy = pull_policy(c.get("image").and_then(Value::as_str).unwrap_or(""));
        c.insert("imagePullPolicy".into(), policy.into());
    }
    set_item_defaults(c, "ports", PROTOCOL);
    for probe_name in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = child(c, probe_name) {
            set_defaults_nonzero(Some(&mut *p), PROBE);
            handler(p);
        }
    }
    if let Some(lifecycle) = child(c, "lifecycle") {
        for hook in ["postStart", "preStop"] {
            if let Some(h) = child(lifecycle, hook) {
                handler(h);
            }
        }
    }
    each(c.get_mut("env"), |e| {
        let field_ref = child(e, "valueFrom").and_then(|v| child(v, "fieldRef"));
        set_defaults(field_ref, FIELD_REF);
    });
    if let Some(r) = child(c, "resources") {
        round_resource_list(r, "limits");
        round_resource_list(r, "requests");
    }
}

/// A probe or lifecycle handler: `httpGet` path and scheme, `grpc.service`.
fn handler(h: &mut Map) {
    set_defaults(child(h, "httpGet"), HTTP_GET);
    if let Some(grpc) = child(h, "grpc") {
        grpc.entry("service".to_string())
            .or_insert_with(|| Value::String(String::new()));
    }
}

/// `IfNotPresent` unless the image's tag is `latest` (no tag and no digest counts as latest).
/// A reference that does not parse has no tag, hence `IfNotPresent`.
pub(crate) fn pull_policy(image: &str) -> &'static str {
    match super::image::image_tag(image) {
        Some("latest") => "Always",
        _ => "IfNotPresent",
    }
}

fn volume(v: &mut Map) {
    if v.keys().all(|k| k == "name") {
        v.insert("emptyDir".into(), Value::Map(Map::default()));
    }
    for (source, table) in VOLUME_SOURCES {
        set_defaults(child(v, source), table);
    }
    if let Some(d) = child(v, "downwardAPI") {
        downward_api_items(d);
    }
    if let Some(p) = child(v, "projected") {
        each(p.get_mut("sources"), |s| {
            if let Some(token) = child(s, "serviceAccountToken") {
                set_defaults(Some(token), &[("expirationSeconds", Int(3600))]);
            }
            if let Some(d) = child(s, "downwardAPI") {
                downward_api_items(d);
            }
        });
    }
    if let Some(image) = child(v, "image") {
        if unset(image, "pullPolicy") {
            let policy = pull_policy(image.get("reference").and_then(Value::as_str).unwrap_or(""));
            image.insert("pullPolicy".into(), policy.into());
        }
    }
    let claim = child(v, "ephemeral").and_then(|e| child(e, "volumeClaimTemplate"));
    if let Some(spec) = claim.and_then(|t| child(t, "spec")) {
        pvc_spec(spec);
    }
}

fn downward_api_items(d: &mut Map) {
    each(d.get_mut("items"), |item| {
        set_defaults(child(item, "fieldRef"), FIELD_REF)
    });
}

fn pvc_spec(spec: &mut Map) {
    set_defaults(Some(&mut *spec), PVC_SPEC);
    if let Some(r) = child(spec, "resources") {
        round_resource_list(r, "limits");
        round_resource_list(r, "requests");
    }
}

fn pvc(obj: &mut Map) {
    if let Some(spec) = child(obj, "spec") {
        pvc_spec(spec);
    }
    if let Some(status) = child(obj, "status") {
        round_resource_list(status, "capacity");
        round_resource_list(status, "allocatedResources");
    }
    set_defaults(child(obj, "status"), PENDING);
}

/// `SetDefaults_ResourceList`: every quantity of `parent[key]` rounded up to milli precision.
/// Lists rounded already (nearly all) stay as they are, shared with the configuration: they
/// are read first and written only where a quantity changes.
pub(super) fn round_resource_list(parent: &mut Map, key: &str) {
    let Some(Value::Map(list)) = parent.get(key) else {
        return;
    };
    let rounded: Vec<(usize, String)> = list
        .values()
        .enumerate()
        .filter_map(|(i, v)| {
            let text = v.as_str()?;
            let (mut q, kept) = Quantity::parse_keeping(text)?;
            let unrounded = q;
            q.round_up(-3)?;
            // `Quantity.RoundUp` keeps a text the parse kept when no rounding is needed.
            if kept && q == unrounded {
                return None;
            }
            let c = q.canonical()?;
            (c != text).then_some((i, c))
        })
        .collect();
    if rounded.is_empty() {
        return;
    }
    if let Some(Value::Map(m)) = parent.get_mut(key) {
        for (i, c) in rounded {
            if let Some((_, v)) = m.get_index_mut(i) {
                *v = Value::String(c);
            }
        }
    }
}

// ---- core ----

fn replication_controller(obj: &mut Map) {
    let labels = obj
        .get("spec")
        .and_then(|s| s.get_path(&["template", "metadata", "labels"]))
        .filter(|l| l.as_map().is_some_and(|m| !m.is_empty()))
        .cloned();
    if let Some(labels) = labels {
        if let Some(spec) = child(obj, "spec") {
            if spec
                .get("selector")
                .and_then(Value::as_map)
                .is_none_or(Map::is_empty)
            {
                spec.insert("selector".into(), labels.clone());
            }
        }
        copy_labels_if_none(obj, labels);
    }
    let spec = child(obj, "spec");
    set_defaults(spec, &[("replicas", Int(1))]);
    pod_template(child(obj, "spec").and_then(|s| child(s, "template")));
}

fn copy_labels_if_none(obj: &mut Map, labels: Value) {
    if let Some(meta) = child_or_insert(obj, "metadata") {
        if meta
            .get("labels")
            .and_then(Value::as_map)
            .is_none_or(Map::is_empty)
        {
            meta.insert("labels".into(), labels);
        }
    }
}

fn namespace(obj: &mut Map) {
    let name = obj
        .get_path_str(&["metadata", "name"])
        .unwrap_or_default()
        .to_string();
    if !name.is_empty() {
        if let Some(labels) =
            child_or_insert(obj, "metadata").and_then(|m| child_or_insert(m, "labels"))
        {
            labels.insert("kubernetes.io/metadata.name".into(), Value::String(name));
        }
    }
    set_defaults(child(obj, "status"), &[("phase", Str("Active"))]);
}

fn service(obj: &mut Map) {
    let Some(spec) = child(obj, "spec") else {
        return;
    };
    set_defaults(Some(&mut *spec), SERVICE);
    let affinity = spec
        .get("sessionAffinity")
        .and_then(Value::as_str)
        .unwrap_or("");
    match affinity {
        "None" => {
            spec.shift_remove("sessionAffinityConfig");
        }
        "ClientIP" => {
            let client_ip = child_or_insert(spec, "sessionAffinityConfig")
                .and_then(|c| child_or_insert(c, "clientIP"));
            set_defaults(client_ip, &[("timeoutSeconds", Int(10800))]);
        }
        _ => {}
    }
    each(spec.get_mut("ports"), |p| {
        set_defaults(Some(&mut *p), PROTOCOL);
        let zero = match p.get("targetPort") {
            None | Some(Value::Null) => true,
            Some(Value::Int(0)) => true,
            Some(Value::String(s)) => s.is_empty(),
            _ => false,
        };
        if zero {
            if let Some(port) = p.get("port").cloned() {
                p.insert("targetPort".into(), port);
            }
        }
    });
    let kind = spec
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let external_ips = !is_empty_list(spec.get("externalIPs"));
    let external = matches!(kind.as_str(), "NodePort" | "LoadBalancer")
        || (kind == "ClusterIP" && external_ips);
    if external {
        set_defaults(
            Some(&mut *spec),
            &[("externalTrafficPolicy", Str("Cluster"))],
        );
    }
    if kind != "ExternalName" {
        set_defaults(
            Some(&mut *spec),
            &[("internalTrafficPolicy", Str("Cluster"))],
        );
    }
    if kind == "LoadBalancer" {
        set_defaults(Some(spec), &[("allocateLoadBalancerNodePorts", Bool(true))]);
        // LoadBalancerIPMode (beta and on from 1.30, GA in 1.32): an ingress point with an IP
        // is a virtual IP unless the controller says otherwise.
        let ingress = child(obj, "status")
            .and_then(|s| child(s, "loadBalancer"))
            .and_then(|lb| lb.get_mut("ingress"));
        each(ingress, |point| {
            if !unset(point, "ip") {
                set_defaults(Some(point), &[("ipMode", Str("VIP"))]);
            }
        });
    }
}

// ---- apps ----

fn deployment(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), DEPLOYMENT);
    if let Some(strategy) = child_or_insert(spec, "strategy") {
        set_defaults(Some(&mut *strategy), &[("type", Str("RollingUpdate"))]);
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            set_defaults(
                child_or_insert(strategy, "rollingUpdate"),
                &[("maxUnavailable", Str("25%")), ("maxSurge", Str("25%"))],
            );
        }
    }
    pod_template(child(spec, "template"));
}

fn stateful_set(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), STATEFUL_SET);
    if let Some(strategy) = child_or_insert(spec, "updateStrategy") {
        if unset(strategy, "type") {
            strategy.insert("type".into(), "RollingUpdate".into());
            child_or_insert(strategy, "rollingUpdate");
        }
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            set_defaults(child(strategy, "rollingUpdate"), &[("partition", Int(0))]);
        }
    }
    set_defaults(
        child_or_insert(spec, "persistentVolumeClaimRetentionPolicy"),
        PVC_RETENTION,
    );
    each(spec.get_mut("volumeClaimTemplates"), pvc);
    pod_template(child(spec, "template"));
}

fn daemon_set(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), &[("revisionHistoryLimit", Int(10))]);
    if let Some(strategy) = child_or_insert(spec, "updateStrategy") {
        set_defaults(Some(&mut *strategy), &[("type", Str("RollingUpdate"))]);
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            set_defaults(
                child_or_insert(strategy, "rollingUpdate"),
                &[("maxUnavailable", Int(1)), ("maxSurge", Int(0))],
            );
        }
    }
    pod_template(child(spec, "template"));
}

// ---- batch ----

fn job(obj: &mut Map) {
    let labels = obj
        .get_path_str_value(&["spec", "template", "metadata", "labels"])
        .filter(|l| l.as_map().is_some_and(|m| !m.is_empty()));
    if let Some(labels) = labels {
        copy_labels_if_none(obj, labels);
    }
    let Some(spec) = child(obj, "spec") else {
        return;
    };
    if unset(spec, "completions") && unset(spec, "parallelism") {
        spec.insert("completions".into(), Value::Int(1));
    }
    let backoff = if unset(spec, "backoffLimitPerIndex") {
        6
    } else {
        i64::from(i32::MAX)
    };
    let has_failure_policy = !unset(spec, "podFailurePolicy");
    let replacement = if has_failure_policy {
        "Failed"
    } else {
        "TerminatingOrFailed"
    };
    set_defaults(
        Some(&mut *spec),
        &[
            ("parallelism", Int(1)),
            ("backoffLimit", Int(backoff)),
            ("completionMode", Str("NonIndexed")),
            ("suspend", Bool(false)),
            ("podReplacementPolicy", Str(replacement)),
        ],
    );
    if let Some(policy) = child(spec, "podFailurePolicy") {
        each(policy.get_mut("rules"), |rule| {
            each(rule.get_mut("onPodConditions"), |c| {
                set_defaults(Some(c), &[("status", Str("True"))])
            })
        });
    }
    pod_template(child(spec, "template"));
}

fn cron_job(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), CRON_JOB);
    let job_spec = child(spec, "jobTemplate").and_then(|t| child(t, "spec"));
    pod_template(job_spec.and_then(|s| child(s, "template")));
}

// ---- networking, rbac, autoscaling ----

fn network_policy(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    for direction in ["ingress", "egress"] {
        each(spec.get_mut(direction), |rule| {
            each(rule.get_mut("ports"), |p| set_defaults(Some(p), PROTOCOL))
        });
    }
    if is_empty_list(spec.get("policyTypes")) {
        let mut types = vec![Value::from("Ingress")];
        if !is_empty_list(spec.get("egress")) {
            types.push(Value::from("Egress"));
        }
        spec.insert("policyTypes".into(), Value::List(types.into()));
    }
}

fn role_binding(obj: &mut Map) {
    set_defaults(child(obj, "roleRef"), &[("apiGroup", Str(RBAC_GROUP))]);
    each(obj.get_mut("subjects"), |s| {
        let kind = s.get("kind").and_then(Value::as_str).unwrap_or("");
        if matches!(kind, "User" | "Group") {
            set_defaults(Some(s), &[("apiGroup", Str(RBAC_GROUP))]);
        }
    });
}

fn hpa(spec: Option<&mut Map>) {
    let Some(spec) = spec else { return };
    set_defaults(Some(&mut *spec), &[("minReplicas", Int(1))]);
    if is_empty_list(spec.get("metrics")) {
        let metric = crate::value::from_json_str(
            r#"{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}"#,
        )
        .expect("a valid literal");
        spec.insert("metrics".into(), Value::List(vec![metric].into()));
    }
    let Some(behavior) = child(spec, "behavior") else {
        return;
    };
    scaling_rules(
        child_or_insert(behavior, "scaleUp"),
        Some(0),
        &[("Pods", 4), ("Percent", 100)],
    );
    scaling_rules(
        child_or_insert(behavior, "scaleDown"),
        None,
        &[("Percent", 100)],
    );
}

/// `GenerateHPAScaleUpRules`/`GenerateHPAScaleDownRules`: the user's values, the rest default.
fn scaling_rules(rules: Option<&mut Map>, window: Option<i64>, policies: &[(&str, i64)]) {
    let Some(rules) = rules else { return };
    if is_empty_list(rules.get("policies")) {
        let list = policies
            .iter()
            .map(|(kind, value)| {
                let mut p = Map::default();
                p.insert("type".into(), Value::from(*kind));
                p.insert("value".into(), Value::Int(*value));
                p.insert("periodSeconds".into(), Value::Int(15));
                Value::Map(p)
            })
            .collect();
        rules.insert("policies".into(), Value::List(list));
    }
    set_defaults(Some(&mut *rules), &[("selectPolicy", Str("Max"))]);
    if let Some(w) = window {
        set_defaults(Some(rules), &[("stabilizationWindowSeconds", Int(w))]);
    }
}

/// Small path readers over a map.
trait MapPath {
    fn get_path_str(&self, keys: &[&str]) -> Option<&str>;
    fn get_path_str_value(&self, keys: &[&str]) -> Option<Value>;
}

impl MapPath for Map {
    fn get_path_str(&self, keys: &[&str]) -> Option<&str> {
        let (first, rest) = keys.split_first()?;
        self.get(first)?.get_path(rest)?.as_str()
    }
    fn get_path_str_value(&self, keys: &[&str]) -> Option<Value> {
        let (first, rest) = keys.split_first()?;
        self.get(first)?.get_path(rest).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_policy_follows_the_tag() {
        for (image, want) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("nginx:1.25", "IfNotPresent"),
            ("localhost:5000/app", "Always"),
            ("registry.example.com:5000/team/app", "Always"),
            ("registry.example.com:5000/team/app:v1", "IfNotPresent"),
            (
                "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "IfNotPresent",
            ),
            ("Docker.io/Library/Nginx", "IfNotPresent"),
            ("quay.io/prometheus/node-exporter:v1.8.2", "IfNotPresent"),
            ("", "IfNotPresent"),
        ] {
            assert_eq!(pull_policy(image), want, "{image}");
        }
    }
}
