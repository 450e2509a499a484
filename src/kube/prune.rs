//! Prune preview: which live objects `kubectl apply --prune` (and `kubectl diff --prune`) would
//! delete because no manifest applies them any more. Two ways to say what is in scope, as in
//! k8s.io/kubectl/pkg/cmd/apply: a label selector over an allowlist of kinds (`prune.go`,
//! `pruner.prune`), or an ApplySet's members (`applyset_pruner.go`).

use super::applyset::ApplySet;
use super::selector::LabelSelector;
use crate::value::Value;

/// The annotation client-side apply records; selector pruning skips objects without it.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// kubectl's default prune allowlist (`getRESTMappings`): (group, kind).
pub const DEFAULT_ALLOWLIST: &[(&str, &str)] = &[
    ("", "ConfigMap"),
    ("", "Endpoints"),
    ("", "Namespace"),
    ("", "PersistentVolumeClaim"),
    ("", "PersistentVolume"),
    ("", "Pod"),
    ("", "ReplicationController"),
    ("", "Secret"),
    ("", "Service"),
    ("batch", "Job"),
    ("batch", "CronJob"),
    ("networking.k8s.io", "Ingress"),
    ("apps", "DaemonSet"),
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "StatefulSet"),
];

/// A `--prune-allowlist` entry that is not `group/version/kind`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--prune-allowlist {0:?}: expected <group/version/kind> (`core` for the core group)")]
pub struct AllowlistError(pub String);

/// Reads `group/version/kind` (`core/v1/ConfigMap`) as `parsePruneResources` does.
pub fn parse_allowlist_entry(text: &str) -> Result<(String, String), AllowlistError> {
    let parts: Vec<&str> = text.split('/').collect();
    match parts.as_slice() {
        [group, _version, kind] if !kind.is_empty() => {
            let group = if *group == "core" { "" } else { group };
            Ok((group.to_string(), kind.to_string()))
        }
        _ => Err(AllowlistError(text.to_string())),
    }
}

/// What is in scope for pruning.
#[derive(Debug, Clone)]
pub enum PruneScope {
    /// Objects matching the selector, of the allowlisted (group, kind)s, in the namespaces the
    /// applied objects are in (cluster-scoped ones anywhere), created by `kubectl apply`.
    Selector {
        selector: LabelSelector,
        allowlist: Vec<(String, String)>,
    },
    /// The members of an ApplySet.
    ApplySet(ApplySet),
    /// An ApplySet whose parent does not exist yet: it has no members.
    NewApplySet,
}

/// Why an object in scope is kept although no manifest applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spared {
    /// Selector pruning only deletes objects client-side apply created.
    NoLastApplied,
}

/// What pruning would do to the live objects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrunePlan {
    /// Indexes (into the live objects given) of the objects to delete.
    pub pruned: Vec<usize>,
    /// Objects kubectl would leave, with the reason.
    pub spared: Vec<(usize, Spared)>,
}

/// (group, kind, namespace, name) of an object.
fn identity(v: &Value) -> (&str, &str, &str, &str) {
    let text = |path: &[&str]| v.get_path(path).and_then(Value::as_str).unwrap_or("");
    let api_version = text(&["apiVersion"]);
    (
        api_version.rsplit_once('/').map_or("", |(g, _)| g),
        text(&["kind"]),
        text(&["metadata", "namespace"]),
        text(&["metadata", "name"]),
    )
}

/// Which of `live` the prune would delete, given the objects being applied. Namespaces are as
/// stored: empty for cluster-scoped objects.
pub fn plan(live: &[&Value], applied: &[&Value], scope: &PruneScope) -> PrunePlan {
    let applied_ids: Vec<_> = applied.iter().map(|v| identity(v)).collect();
    let visited_namespaces: Vec<&str> = applied_ids
        .iter()
        .map(|id| id.2)
        .filter(|ns| !ns.is_empty())
        .collect();
    let mut out = PrunePlan::default();
    for (i, object) in live.iter().enumerate() {
        let id = identity(object);
        if applied_ids.contains(&id) {
            continue;
        }
        match scope {
            PruneScope::Selector {
                selector,
                allowlist,
            } => {
                let (group, kind, namespace, _) = id;
                let listed = allowlist.iter().any(|(g, k)| g == group && k == kind);
                let in_namespace = namespace.is_empty() || visited_namespaces.contains(&namespace);
                if !(listed && in_namespace && selector.matches(object)) {
                    continue;
                }
                if object
                    .get_path(&["metadata", "annotations", LAST_APPLIED])
                    .is_none()
                {
                    out.spared.push((i, Spared::NoLastApplied));
                } else {
                    out.pruned.push(i);
                }
            }
            PruneScope::ApplySet(set) => {
                if set.contains(object) {
                    out.pruned.push(i);
                }
            }
            PruneScope::NewApplySet => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn obj(api: &str, kind: &str, ns: &str, name: &str, labels: &str, last_applied: bool) -> Value {
        let annotations = if last_applied {
            format!(r#","annotations":{{"{LAST_APPLIED}":"{{}}"}}"#)
        } else {
            String::new()
        };
        from_json_str(&format!(
            r#"{{"apiVersion":"{api}","kind":"{kind}","metadata":{{"name":"{name}","namespace":"{ns}","labels":{labels}{annotations}}}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn selector_pruning_follows_kubectl() {
        let scope = PruneScope::Selector {
            selector: LabelSelector::parse("app=web").unwrap(),
            allowlist: DEFAULT_ALLOWLIST
                .iter()
                .map(|(g, k)| (g.to_string(), k.to_string()))
                .collect(),
        };
        let applied = obj("v1", "ConfigMap", "prod", "keep", r#"{"app":"web"}"#, true);
        let live = [
            applied.clone(),
            obj("v1", "ConfigMap", "prod", "old", r#"{"app":"web"}"#, true),
            obj("v1", "ConfigMap", "prod", "ssa", r#"{"app":"web"}"#, false),
            obj("v1", "ConfigMap", "prod", "other", r#"{"app":"db"}"#, true),
            obj(
                "v1",
                "ConfigMap",
                "elsewhere",
                "old",
                r#"{"app":"web"}"#,
                true,
            ),
            obj(
                "rbac.authorization.k8s.io/v1",
                "Role",
                "prod",
                "r",
                r#"{"app":"web"}"#,
                true,
            ),
            obj("v1", "Namespace", "", "gone", r#"{"app":"web"}"#, true),
        ];
        let refs: Vec<&Value> = live.iter().collect();
        let p = plan(&refs, &[&applied], &scope);
        assert_eq!(p.pruned, vec![1, 6]);
        assert_eq!(p.spared, vec![(2, Spared::NoLastApplied)]);
    }

    #[test]
    fn allowlist_entries() {
        assert_eq!(
            parse_allowlist_entry("core/v1/ConfigMap").unwrap(),
            (String::new(), "ConfigMap".into())
        );
        assert!(parse_allowlist_entry("apps/Deployment").is_err());
    }
}
