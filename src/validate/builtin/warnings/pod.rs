//! The warnings of a pod spec and its metadata (k8s.io/kubernetes pkg/api/pod/warnings.go
//! `warningsForPodSpecAndMeta`, through `GetWarningsForPod` and `GetWarningsForPodTemplate`),
//! and the AppArmor annotation warning the Pod strategy adds while preparing a create
//! (pkg/registry/core/pod/strategy.go `applyAppArmorVersionSkew`).

use super::super::super::goprint::go_quote;
use super::super::fields::{items, present, text};
use super::claims::fractional_bytes;
use super::node_labels;
use super::pod_containers;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join, keyed, PathText};
use crate::value::Value;

/// The overlapping `items` paths of configMap, secret, downwardAPI and projected volumes
/// (`warningsForOverlappingVirtualPaths`, 1.32–).
const OVERLAPPING_PATHS: VersionRange = VersionRange::since(32);
/// GitRepoVolumeDriver is off by default from 1.33, and the gitRepo warning says so.
const GIT_REPO_DISABLED: VersionRange = VersionRange::since(33);

const DEPRECATED_ANNOTATIONS: &[(&str, &str)] = &[
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

/// Volume plugins removed or deprecated, in the order upstream checks them (the ephemeral
/// claim template and gitRepo come in between, see [`volumes`]).
const DEPRECATED_VOLUMES: &[(&str, &str)] = &[
    (
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    ("gitRepo", ""),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageOS", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("ephemeral", ""),
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

/// The resources counted in bytes, which must be whole numbers.
pub(super) const BYTE_RESOURCES: &[&str] = &["memory", "ephemeral-storage"];

const SECCOMP_POD_ANNOTATION: &str = "seccomp.security.alpha.kubernetes.io/pod";
/// Where the pod spec sits: `""` for a Pod, `spec.template` / `template` for templates.
/// Paths are `<at>.spec.…` and `<at>.metadata.…` (upstream's nil path for a Pod).
pub struct Template<'a> {
    pub at: &'a str,
    pub spec: &'a Value,
    pub meta: &'a Value,
}

impl Template<'_> {
    pub(super) fn path(&self, rest: &str) -> PathText {
        if self.at.is_empty() {
            PathText::concat(&[rest])
        } else {
            PathText::concat(&[self.at, ".", rest])
        }
    }

    pub(super) fn is_template(&self) -> bool {
        !self.at.is_empty()
    }

    pub(super) fn annotation(&self, key: &str) -> Option<&Value> {
        self.meta.get_path(&["annotations", key])
    }
}

/// `warningsForPodSpecAndMeta`.
pub fn spec_and_meta(t: &Template, version: KubeVersion, out: &mut Vec<String>) {
    let spec = t.spec;
    node_labels::map_keys(
        spec.get("nodeSelector"),
        &t.path("spec.nodeSelector"),
        version,
        out,
    );
    node_affinity(t, version, out);
    let spread_at = t.path("spec.topologySpreadConstraints");
    for (i, c) in items(spec.get("topologySpreadConstraints"))
        .iter()
        .enumerate()
    {
        let at = indexed(&spread_at, i);
        let key = text(c, "topologyKey");
        if let Some(message) = node_labels::deprecated(key, version) {
            out.push(format!("{at}.topologyKey: {key} is {message}"));
        }
        if present(c, "labelSelector").is_none() {
            out.push(format!(
                "{at}.labelSelector: a null labelSelector results in matching no pod"
            ));
        }
    }
    for (key, message) in DEPRECATED_ANNOTATIONS {
        if t.annotation(key).is_some() {
            out.push(format!(
                "{}: {message}",
                keyed(&t.path("metadata.annotations"), key)
            ));
        }
    }
    volumes(t, version, out);
    if OVERLAPPING_PATHS.contains(version) {
        super::pod_paths::overlapping(items(spec.get("volumes")), version, out);
    }
    duplicates(
        items(spec.get("hostAliases")),
        "ip",
        &t.path("spec.hostAliases"),
        "duplicate ip",
        out,
    );
    let secrets = items(spec.get("imagePullSecrets"));
    duplicates(
        secrets,
        "name",
        &t.path("spec.imagePullSecrets"),
        "duplicate name",
        out,
    );
    for (i, s) in secrets.iter().enumerate() {
        if text(s, "name").is_empty() {
            out.push(format!(
                "{}.name: invalid empty name \"\"",
                indexed(&t.path("spec.imagePullSecrets"), i)
            ));
        }
    }
    let overhead = spec.get("overhead");
    fractional_bytes(overhead, BYTE_RESOURCES, &t.path("spec.overhead"), out);
    let pod_seccomp = spec.get_path(&["securityContext", "seccompProfile"]);
    if pod_seccomp.is_none_or(Value::is_null) && t.annotation(SECCOMP_POD_ANNOTATION).is_some() {
        out.push(format!(
            r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            keyed(&t.path("metadata.annotations"), SECCOMP_POD_ANNOTATION)
        ));
    }
    for (at, c) in pod_containers::containers(t) {
        pod_containers::container(t, &at, c, version, out);
    }
    pod_containers::ports(t, version, out);
    if spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
        .is_some_and(|s| s < 0)
    {
        out.push(format!(
            "{}: must be >= 0; negative values are invalid and will be treated as 1",
            t.path("spec.terminationGracePeriodSeconds")
        ));
    }
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(affinity) = spec.get_path(&["affinity", kind]) else {
            continue;
        };
        let at = t.path(&format!("spec.affinity.{kind}"));
        let required_at = join(&at, ".requiredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
            .iter()
            .enumerate()
        {
            if present(term, "labelSelector").is_none() {
                out.push(format!(
                    "{}.labelSelector: a null labelSelector results in matching no pod",
                    indexed(&required_at, i)
                ));
            }
        }
        let preferred_at = join(&at, ".preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(affinity.get("preferredDuringSchedulingIgnoredDuringExecution"))
            .iter()
            .enumerate()
        {
            let selector = term.get_path(&["podAffinityTerm", "labelSelector"]);
            if selector.is_none_or(Value::is_null) {
                out.push(format!(
                    "{}.podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
                    indexed(&preferred_at, i)
                ));
            }
        }
    }
    addresses(t, version, out);
}

/// Addresses not written the way the server prints them (`GetWarningsForIP`, 1.33–).
fn addresses(t: &Template, version: KubeVersion, out: &mut Vec<String>) {
    let nameservers_at = t.path("spec.dnsConfig.nameservers");
    let nameservers = t.spec.get_path(&["dnsConfig", "nameservers"]);
    for (i, ns) in items(nameservers).iter().enumerate() {
        let at = indexed(&nameservers_at, i);
        super::ip::ip(&at, ns.as_str().unwrap_or(""), version, out);
    }
    let aliases_at = t.path("spec.hostAliases");
    for (i, alias) in items(t.spec.get("hostAliases")).iter().enumerate() {
        let at = join(&indexed(&aliases_at, i), ".ip");
        super::ip::ip(&at, text(alias, "ip"), version, out);
    }
}

fn node_affinity(t: &Template, version: KubeVersion, out: &mut Vec<String>) {
    let Some(affinity) = t.spec.get_path(&["affinity", "nodeAffinity"]) else {
        return;
    };
    let at = t.path("spec.affinity.nodeAffinity");
    if let Some(required) = present(affinity, "requiredDuringSchedulingIgnoredDuringExecution") {
        let terms_at = join(
            &at,
            ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
        );
        for (i, term) in items(required.get("nodeSelectorTerms")).iter().enumerate() {
            node_labels::node_selector_term(term, false, &indexed(&terms_at, i), version, out);
        }
    }
    let preferred_at = join(&at, ".preferredDuringSchedulingIgnoredDuringExecution");
    for (i, term) in items(affinity.get("preferredDuringSchedulingIgnoredDuringExecution"))
        .iter()
        .enumerate()
    {
        let preference = term.get("preference").unwrap_or(&Value::Null);
        let term_at = join(&indexed(&preferred_at, i), ".preference");
        node_labels::node_selector_term(preference, true, &term_at, version, out);
    }
}

fn volumes(t: &Template, version: KubeVersion, out: &mut Vec<String>) {
    let volumes_at = t.path("spec.volumes");
    for (i, volume) in items(t.spec.get("volumes")).iter().enumerate() {
        let at = indexed(&volumes_at, i);
        for (source, message) in DEPRECATED_VOLUMES {
            if present(volume, source).is_none() {
                continue;
            }
            match *source {
                "gitRepo" if GIT_REPO_DISABLED.contains(version) => out.push(format!(
                    "{at}.gitRepo: deprecated in v1.11, and disabled by default in v1.33+"
                )),
                "gitRepo" => out.push(format!("{at}.gitRepo: deprecated in v1.11")),
                "ephemeral" => {
                    if let Some(template) = volume
                        .get_path(&["ephemeral", "volumeClaimTemplate"])
                        .filter(|t| !t.is_null())
                    {
                        let claim = template.get("spec").unwrap_or(&Value::Null);
                        let claim_at = join(&at, ".ephemeral.volumeClaimTemplate.spec");
                        super::claims::claim_spec(claim, &claim_at, version, out);
                    }
                }
                _ => out.push(format!("{at}.{source}: {message}")),
            }
        }
    }
}

/// Repeated values of `field` in a list of more than one item.
fn duplicates(list: &[Value], field: &str, at: &str, what: &str, out: &mut Vec<String>) {
    if list.len() < 2 {
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let value = text(item, field);
        if seen.contains(&value) {
            out.push(format!(
                "{}.{field}: {what} {}",
                indexed(at, i),
                go_quote(value)
            ));
        } else {
            seen.push(value);
        }
    }
}
