//! The warnings a registry strategy returns for a valid write (`WarningsOnCreate`,
//! `WarningsOnUpdate` in k8s.io/kubernetes pkg/registry/*/strategy.go, with the helpers of
//! pkg/api/*), which `rest.BeforeCreate` / `rest.BeforeUpdate` hand to the request's warning
//! recorder once validation has passed, and kubectl prints as `Warning: …`.
//!
//! Kinds are dispatched by group and kind in [`KIND_WARNINGS`]; each function appends the
//! warnings' texts (without kubectl's `Warning: ` prefix) in the strategy's order. Go's map
//! iteration order is random; where upstream ranges over a map, the keys are taken sorted.

pub mod claims;
pub mod ip;
mod misc;
mod network;
mod node_labels;
mod pod;
mod pod_containers;
mod pod_paths;
mod status;
mod storage;
mod workloads;

use super::super::Write;
use crate::value::Value;

type KindWarnings = fn(&Write, &Value, &mut Vec<String>);

/// The built-in kinds whose strategies warn, by group and kind.
const KIND_WARNINGS: &[(&str, &str, KindWarnings)] = &[
    ("", "Pod", workloads::pod),
    ("", "PodTemplate", workloads::pod_template),
    (
        "",
        "ReplicationController",
        workloads::replication_controller,
    ),
    ("apps", "Deployment", workloads::deployment),
    ("apps", "ReplicaSet", workloads::deployment),
    ("apps", "DaemonSet", workloads::daemon_set),
    ("apps", "StatefulSet", workloads::stateful_set),
    ("batch", "Job", workloads::job),
    ("batch", "CronJob", workloads::cron_job),
    ("node.k8s.io", "RuntimeClass", node_labels::runtime_class),
    ("", "PersistentVolumeClaim", claims::claim),
    ("", "PersistentVolume", claims::volume),
    ("storage.k8s.io", "StorageClass", storage::storage_class),
    (
        "storage.k8s.io",
        "CSIStorageCapacity",
        storage::csi_storage_capacity,
    ),
    ("storage.k8s.io", "CSIDriver", storage::csi_driver),
    ("", "Service", network::service),
    ("", "Endpoints", network::endpoints),
    ("networking.k8s.io", "Ingress", network::ingress),
    (
        "networking.k8s.io",
        "NetworkPolicy",
        network::network_policy,
    ),
    ("", "Node", misc::node),
    ("", "Secret", misc::secret),
    (
        ADMISSION,
        "ValidatingWebhookConfiguration",
        misc::static_suffix,
    ),
    (
        ADMISSION,
        "MutatingWebhookConfiguration",
        misc::static_suffix,
    ),
    (ADMISSION, "ValidatingAdmissionPolicy", misc::static_suffix),
    (
        ADMISSION,
        "ValidatingAdmissionPolicyBinding",
        misc::static_suffix,
    ),
    (ADMISSION, "MutatingAdmissionPolicy", misc::static_suffix),
    (
        ADMISSION,
        "MutatingAdmissionPolicyBinding",
        misc::static_suffix,
    ),
];

const ADMISSION: &str = "admissionregistration.k8s.io";

/// The status strategies that warn, by group and kind.
const STATUS_WARNINGS: &[(&str, &str, KindWarnings)] = &[
    ("", "Pod", status::pod),
    ("", "Service", status::load_balancer),
    ("networking.k8s.io", "Ingress", status::load_balancer),
];

/// The strategy's warnings for a valid write of `object` (the main resource's, or the status
/// strategy's for a `status` write; other subresources have none modelled), as `Warning: …`
/// lines.
pub fn check(w: &Write, object: &Value) -> Vec<String> {
    let gvk = &w.kind.gvk;
    let table = match w.subresource {
        "" => KIND_WARNINGS,
        "status" => STATUS_WARNINGS,
        _ => return Vec::new(),
    };
    if !w.kind.is_builtin() {
        return Vec::new();
    }
    let mut texts = Vec::new();
    for (group, kind, warnings) in table {
        if *group == gvk.group && *kind == gvk.kind {
            warnings(w, object, &mut texts);
        }
    }
    texts.into_iter().map(|t| format!("Warning: {t}")).collect()
}

/// The warnings a write gets before validation runs, which it keeps when validation refuses
/// it: the Pod strategy's AppArmor warnings while it prepares a create (`PrepareForCreate`
/// runs before `Validate` in k8s.io/apiserver pkg/registry/rest/create.go `BeforeCreate`;
/// every other warning comes after a successful validation).
pub fn before_validation(w: &Write) -> Vec<String> {
    let mut texts = Vec::new();
    let gvk = &w.kind.gvk;
    if w.kind.is_builtin()
        && gvk.group.is_empty()
        && gvk.kind == "Pod"
        && w.subresource.is_empty()
        && !w.is_update()
    {
        pod_containers::pod_apparmor_skew(w.body, w.version(), &mut texts);
    }
    texts.into_iter().map(|t| format!("Warning: {t}")).collect()
}

/// What the request's warning recorder sends (k8s.io/apiserver pkg/endpoints/filters/warning.go
/// `recorder.AddWarning`): empty and repeated texts dropped; once the texts pass 4096 runes in
/// all, every text cut to 256 runes, and those that no longer fit left out. `lines` are kssa's
/// warnings in the order the server adds them; lines that are not `Warning: …` (kssa's own
/// notices) pass through.
pub fn recorded(lines: Vec<String>) -> Vec<String> {
    const TOTAL_RUNES: usize = 4 * 1024;
    const ITEM_RUNES: usize = 256;
    let mut texts: Vec<String> = Vec::new();
    let mut notices = Vec::new();
    for line in lines {
        match line.strip_prefix("Warning: ") {
            Some(text) if !text.is_empty() && !texts.iter().any(|t| t == text) => {
                texts.push(text.to_string());
            }
            Some(_) => {}
            None => notices.push(line),
        }
    }
    let runes = |t: &str| t.chars().count();
    let cut = |t: &str| -> String { t.chars().take(ITEM_RUNES).collect() };
    let mut out: Vec<String> = Vec::new();
    let mut ordered: Vec<&str> = Vec::new();
    let (mut written, mut truncating) = (0, false);
    for text in &texts {
        if truncating && written >= TOTAL_RUNES {
            break;
        }
        ordered.push(text);
        let sent = if truncating { cut(text) } else { text.clone() };
        if truncating || written + runes(&sent) <= TOTAL_RUNES {
            written += runes(&sent);
            out.push(sent);
            continue;
        }
        // The first text that does not fit: everything recorded so far is sent again, cut.
        truncating = true;
        out = ordered.iter().map(|t| cut(t)).collect();
        written = out.iter().map(|t| runes(t)).sum();
    }
    let mut out: Vec<String> = out.into_iter().map(|t| format!("Warning: {t}")).collect();
    out.extend(notices);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorder_drops_repeats_and_truncates_past_4096_runes() {
        let lines = vec![
            "Warning: a".to_string(),
            "note".to_string(),
            "Warning: a".to_string(),
            "Warning: ".to_string(),
            "Warning: b".to_string(),
        ];
        assert_eq!(recorded(lines), ["Warning: a", "Warning: b", "note"]);
        let long: Vec<String> = (0..20)
            .map(|i| format!("Warning: {i:02}{}", "x".repeat(298)))
            .collect();
        let out = recorded(long);
        // 13 texts of 300 runes fit; the 14th starts the truncation, which sends the 14
        // again cut to 256 runes (3584), and two more reach 4096.
        assert_eq!(out.len(), 16);
        assert!(out
            .iter()
            .all(|l| l.chars().count() == "Warning: ".len() + 256));
    }
}
