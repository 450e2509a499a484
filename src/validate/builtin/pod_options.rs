//! What a pod spec's validation allows because of the stored object: k8s.io/kubernetes
//! pkg/api/pod/util.go `GetValidationOptionsFromPodSpecAndMeta` (and
//! `GetValidationOptionsFromPodTemplate`, which hands it the stored template's spec). An update
//! may keep an invalid value the stored pod already had, so that objects stored under older
//! rules stay writable ("ratcheting"); a create (no stored spec) gets the release's defaults.
//!
//! Only the options that change an answer of kssa in some release 1.30–1.37 are modelled.
//! `AllowIndivisibleHugePagesValues` and `AllowOnlyRecursiveSELinuxChangePolicy` are computed
//! here or in [`super::pod_os`] from the same stored spec; options for rules kssa does not check
//! (the pod deletion cost annotation, user namespaces with volume devices, Lt/Gt tolerations,
//! file env sources, restart rules) are left out.

use super::dns;
use super::env::{self, EnvRules};
use super::fields::{items, present, text};
use super::sysctl::{sysctl_namespace, SysctlNamespace};
use super::volume_source::local_non_reserved;
use super::{hugepages, pod_misc, selector, topology_spread};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;
use std::collections::HashSet;

/// A rule for names that a feature gate relaxes from some release on, and that an update keeps
/// relaxed where the stored object already relied on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    Strict,
    Relaxed,
}

impl Strictness {
    /// `Relaxed` in the releases of `range` (the gate on by default), else `Strict`.
    pub fn relaxed_in(range: VersionRange, version: KubeVersion) -> Strictness {
        if range.contains(version) {
            Strictness::Relaxed
        } else {
            Strictness::Strict
        }
    }
}

/// `PodValidationOptions`, each as the server computes it for this write.
#[derive(Debug, Clone, Copy)]
pub struct PodOptions {
    /// `AllowInvalidLabelValueInSelector`: pod (anti-)affinity term selectors.
    pub affinity_selector_values: selector::Values,
    /// `AllowInvalidLabelValueInRequiredNodeAffinity` (values are checked from 1.33).
    pub invalid_required_node_affinity_values: bool,
    /// `AllowInvalidTopologySpreadConstraintLabelSelector`.
    pub spread_selector_values: selector::Values,
    /// `OldPodViolatesMatchLabelKeysValidation` (from 1.34, the merged-selector rules).
    pub old_violates_match_label_keys: bool,
    /// `AllowNonLocalProjectedTokenPath`.
    pub non_local_token_path: bool,
    /// `AllowNamespacedSysctlsForHostNetAndHostIPC`.
    pub host_namespace_sysctls: bool,
    /// `AllowPodLifecycleSleepActionZeroValue`.
    pub zero_sleep: bool,
    /// `AllowRelaxedEnvironmentVariableValidation` and `AllowEnvFilesValidation`.
    pub env: EnvRules,
    /// `AllowRelaxedDNSSearchValidation`.
    pub dns_search: Strictness,
    /// `AllowIndivisibleHugePagesValues`.
    pub indivisible_hugepages: bool,
    /// `AllowExistingRestartContainerForNonSidecarInitContainer` (1.36–).
    pub init_restart_container: bool,
}

impl PodOptions {
    /// The options for writing `spec` over the stored pod spec `old` (`None` on create).
    pub fn of(spec: &Value, old: Option<&Value>, version: KubeVersion) -> PodOptions {
        let stored =
            |check: fn(&Value, KubeVersion) -> bool| old.is_some_and(|o| check(o, version));
        PodOptions {
            affinity_selector_values: selector::Values::allowing_invalid_if(stored(
                invalid_label_value_in_affinity_selector,
            )),
            invalid_required_node_affinity_values: stored(
                invalid_label_value_in_required_node_affinity,
            ),
            spread_selector_values: selector::Values::allowing_invalid_if(stored(
                invalid_topology_spread_label_selector,
            )),
            old_violates_match_label_keys: stored(topology_spread::violates_match_label_keys),
            non_local_token_path: old.is_some_and(non_local_projected_token_path),
            host_namespace_sysctls: old.is_some_and(namespaced_sysctl_with_host_namespace),
            zero_sleep: pod_misc::zero_sleep_allowed(version, old.is_some_and(zero_sleep_in_use)),
            env: EnvRules {
                names: relaxed_env_names(spec, old, version),
                files: env::files_allowed(old, version),
            },
            dns_search: relaxed_dns_search(old, version),
            indivisible_hugepages: old.is_some_and(hugepages::uses_indivisible),
            init_restart_container: old.is_some_and(pod_misc::has_init_restart_container),
        }
    }
}

/// `hasInvalidLabelValueInAffinitySelector`: a required or preferred pod (anti-)affinity term
/// whose label or namespace selector the strict `ValidatePodAffinityTermSelector` refuses.
fn invalid_label_value_in_affinity_selector(spec: &Value, version: KubeVersion) -> bool {
    let Some(affinity) = present(spec, "affinity") else {
        return false;
    };
    let terms = ["podAffinity", "podAntiAffinity"]
        .into_iter()
        .filter_map(|key| present(affinity, key))
        .flat_map(|a| {
            let required = items(a.get("requiredDuringSchedulingIgnoredDuringExecution")).iter();
            let preferred = items(a.get("preferredDuringSchedulingIgnoredDuringExecution"))
                .iter()
                .filter_map(|w| present(w, "podAffinityTerm"));
            required.chain(preferred)
        });
    terms.into_iter().any(|term| {
        ["labelSelector", "namespaceSelector"]
            .into_iter()
            .filter_map(|key| present(term, key))
            .any(|s| selector::is_invalid(s, version))
    })
}

/// `hasInvalidLabelValueInRequiredNodeAffinity` (pkg/apis/core/helper
/// `HasInvalidLabelValueInNodeSelectorTerms`): a value of a required node selector term's
/// expression that is no label value.
fn invalid_label_value_in_required_node_affinity(spec: &Value, version: KubeVersion) -> bool {
    let terms = spec.get_path(&[
        "affinity",
        "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution",
        "nodeSelectorTerms",
    ]);
    super::affinity::has_invalid_label_value(terms, version)
}

/// `hasInvalidTopologySpreadConstraintLabelSelector`: a constraint whose label selector the
/// strict `ValidateLabelSelector` refuses.
fn invalid_topology_spread_label_selector(spec: &Value, version: KubeVersion) -> bool {
    items(spec.get("topologySpreadConstraints"))
        .iter()
        .filter_map(|c| present(c, "labelSelector"))
        .any(|s| selector::is_invalid(s, version))
}

/// `hasNonLocalProjectedTokenPath`: a projected service account token whose path
/// `ValidateLocalNonReservedPath` refuses.
fn non_local_projected_token_path(spec: &Value) -> bool {
    items(spec.get("volumes"))
        .iter()
        .filter_map(|v| present(v, "projected"))
        .flat_map(|p| items(p.get("sources")))
        .filter_map(|s| present(s, "serviceAccountToken"))
        .any(|token| {
            let mut errors = Vec::new();
            local_non_reserved(text(token, "path"), "", &mut errors);
            !errors.is_empty()
        })
}

/// The sysctl part of `GetValidationOptionsFromPodSpecAndMeta`: a stored sysctl that
/// `ValidateHostSysctl` refuses (a network sysctl with `hostNetwork`, an IPC one with
/// `hostIPC`).
fn namespaced_sysctl_with_host_namespace(spec: &Value) -> bool {
    let Some(sc) = present(spec, "securityContext") else {
        return false;
    };
    let flag = |key: &str| spec.get(key).and_then(Value::as_bool) == Some(true);
    let (host_network, host_ipc) = (flag("hostNetwork"), flag("hostIPC"));
    items(sc.get("sysctls"))
        .iter()
        .any(|s| match sysctl_namespace(text(s, "name")) {
            SysctlNamespace::Net => host_network,
            SysctlNamespace::Ipc => host_ipc,
            SysctlNamespace::Unknown => false,
        })
}

/// Every container of a pod spec: init, regular and ephemeral (`VisitContainers` with
/// `AllContainers`).
fn all_containers(spec: &Value) -> impl Iterator<Item = &Value> {
    ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|key| items(spec.get(key)))
}

/// `podLifecycleSleepActionZeroValueInUse`: a `preStop` or `postStart` sleep of zero seconds.
fn zero_sleep_in_use(spec: &Value) -> bool {
    all_containers(spec)
        .filter_map(|c| present(c, "lifecycle"))
        .flat_map(|l| ["preStop", "postStart"].map(|hook| present(l, hook)))
        .flatten()
        .filter_map(|h| present(h, "sleep"))
        .any(|sleep| sleep.get("seconds").and_then(Value::as_i64).unwrap_or(0) == 0)
}

/// `gatherPodEnvVarNames`: every env var name and `envFrom` prefix of every container.
fn env_var_names(spec: &Value) -> HashSet<&str> {
    all_containers(spec)
        .flat_map(|c| {
            let names = items(c.get("env")).iter().map(|e| text(e, "name"));
            let prefixes = items(c.get("envFrom")).iter().map(|e| text(e, "prefix"));
            names.chain(prefixes)
        })
        .collect()
}

/// `useRelaxedEnvironmentVariableValidation`: the release's rule, or the relaxed one for the
/// whole pod when one of its names passes only the relaxed rule and the stored pod already had
/// it (`relaxedEnvVarUsed`).
fn relaxed_env_names(spec: &Value, old: Option<&Value>, version: KubeVersion) -> Strictness {
    let by_default = env::names_by_default(version);
    let Some(old) = old.filter(|_| by_default == Strictness::Strict) else {
        return by_default;
    };
    let stored = env_var_names(old);
    let relaxed_only = |name: &&str| {
        !env::name_messages(name, Strictness::Strict).is_empty()
            && env::name_messages(name, Strictness::Relaxed).is_empty()
    };
    let kept = env_var_names(spec)
        .into_iter()
        .filter(relaxed_only)
        .any(|name| stored.contains(name));
    if kept {
        Strictness::Relaxed
    } else {
        Strictness::Strict
    }
}

/// `useRelaxedDNSSearchValidation`: the release's rule, or the relaxed one when a stored
/// search domain is `.` or holds an underscore (`hasDotOrUnderscore`).
fn relaxed_dns_search(old: Option<&Value>, version: KubeVersion) -> Strictness {
    let stored_relaxed = old
        .and_then(|o| present(o, "dnsConfig"))
        .map(|c| items(c.get("searches")))
        .unwrap_or_default()
        .iter()
        .map(|s| s.as_str().unwrap_or(""))
        .any(|s| s == "." || s.contains('_'));
    if stored_relaxed {
        Strictness::Relaxed
    } else {
        dns::search_by_default(version)
    }
}

#[cfg(test)]
#[path = "pod_options_tests.rs"]
mod tests;
