//! ApplySets (KEP-3659) as kubectl implements them in k8s.io/kubectl/pkg/cmd/apply/applyset.go:
//! the parent reference `[RESOURCE][.GROUP]/NAME` (a Secret by default), the set's ID label
//! value (`ApplySet.ID`), and the members a parent's annotations put in scope (`fetchParent`,
//! `parseKindAnnotation`, `parseNamespacesAnnotation`).

use crate::value::Value;
use sha2::{Digest, Sha256};

/// The label that makes an object a member of an ApplySet (`ApplysetPartOfLabel`).
pub const PART_OF_LABEL: &str = "applyset.kubernetes.io/part-of";
/// The label carrying the parent's own ID (`ApplySetParentIDLabel`).
pub const PARENT_ID_LABEL: &str = "applyset.kubernetes.io/id";
/// The tool managing the set (`ApplySetToolingAnnotation`).
pub const TOOLING_ANNOTATION: &str = "applyset.kubernetes.io/tooling";
/// The group-kinds the set contains (`ApplySetGKsAnnotation`).
pub const GROUP_KINDS_ANNOTATION: &str = "applyset.kubernetes.io/contains-group-kinds";
/// The deprecated group-resources form (`DeprecatedApplySetGRsAnnotation`).
pub const GROUP_RESOURCES_ANNOTATION: &str = "applyset.kubernetes.io/contains-group-resources";
/// Namespaces beyond the parent's own (`ApplySetAdditionalNamespacesAnnotation`).
pub const NAMESPACES_ANNOTATION: &str = "applyset.kubernetes.io/additional-namespaces";

/// Why an ApplySet cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplySetError {
    #[error("--applyset {0:?}: the name cannot be blank")]
    BlankName(String),
    #[error("ApplySet parent {parent}: {message}")]
    Parent { parent: String, message: String },
}

/// `--applyset`: the parent's resource (plural, lower case), group and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParentRef {
    pub resource: String,
    pub group: String,
    pub name: String,
}

impl ParentRef {
    /// Reads `[RESOURCE][.GROUP]/NAME` as `ParseApplySetParentRef` does; a bare name is a Secret.
    pub fn parse(text: &str) -> Result<ParentRef, ApplySetError> {
        let (resource, group, name) = match text.split_once('/') {
            Some((gr, name)) => {
                let (resource, group) = gr.split_once('.').unwrap_or((gr, ""));
                (resource.to_lowercase(), group.to_string(), name)
            }
            None => ("secrets".to_string(), String::new(), text),
        };
        if name.is_empty() {
            return Err(ApplySetError::BlankName(text.to_string()));
        }
        Ok(ParentRef {
            resource,
            group,
            name: name.to_string(),
        })
    }

    /// Whether a kind is the one the resource names: its lower-case name, or that name's
    /// plural as the API's resource names form it (`Secret` → `secrets`, `Policy` → `policies`).
    pub fn names_kind(&self, group: &str, kind: &str) -> bool {
        let k = kind.to_lowercase();
        let plural = if let Some(stem) = k.strip_suffix('y') {
            format!("{stem}ies")
        } else if k.ends_with('s') || k.ends_with('x') || k.ends_with("ch") || k.ends_with("sh") {
            format!("{k}es")
        } else {
            format!("{k}s")
        };
        group == self.group && (self.resource == k || self.resource == plural)
    }
}

impl std::fmt::Display for ParentRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}/{}", self.resource, self.group, self.name)
    }
}

/// RFC 4648 URL-safe base64 without padding (Go's `base64.RawURLEncoding`).
fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The set's ID: `applyset-<base64url(sha256(name.namespace.kind.group))>-v1`.
pub fn applyset_id(name: &str, namespace: &str, kind: &str, group: &str) -> String {
    let digest = Sha256::digest(format!("{name}.{namespace}.{kind}.{group}").as_bytes());
    format!("applyset-{}-v1", base64_url(&digest))
}

/// A parent found among the live objects, with what its metadata says about the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplySet {
    pub id: String,
    /// `Kind.group` (or `Kind` for the core group), as the annotation lists them.
    pub group_kinds: Vec<String>,
    /// The parent's namespace and the additional ones.
    pub namespaces: Vec<String>,
}

fn annotation<'v>(parent: &'v Value, key: &str) -> Option<&'v str> {
    parent
        .get_path(&["metadata", "annotations", key])
        .and_then(Value::as_str)
}

impl ApplySet {
    /// Reads an existing parent, checking what `fetchParent` checks: the tooling annotation
    /// names kubectl and the ID label matches. `kinds_of_resources` maps a deprecated
    /// `contains-group-resources` entry (`deployments.apps`) to its `Kind.group`.
    pub fn from_parent(
        reference: &ParentRef,
        parent: &Value,
        kind: &str,
        namespace: &str,
        kinds_of_resources: impl Fn(&str) -> Option<String>,
    ) -> Result<ApplySet, ApplySetError> {
        let fail = |message: String| ApplySetError::Parent {
            parent: reference.to_string(),
            message,
        };
        let id = applyset_id(&reference.name, namespace, kind, &reference.group);
        let tooling = annotation(parent, TOOLING_ANNOTATION).ok_or_else(|| {
            fail(format!(
                "exists and is missing the required annotation {TOOLING_ANNOTATION:?}"
            ))
        })?;
        let tool = tooling.rsplit_once('/').map_or(tooling, |(t, _)| t);
        if tool != "kubectl" {
            return Err(fail(format!(
                "is managed by tooling {tool:?} instead of \"kubectl\""
            )));
        }
        let label = parent
            .get_path(&["metadata", "labels", PARENT_ID_LABEL])
            .and_then(Value::as_str)
            .ok_or_else(|| {
                fail(format!(
                    "does not have the required label {PARENT_ID_LABEL}"
                ))
            })?;
        if label != id {
            return Err(fail(format!(
                "has a wrong value for label {PARENT_ID_LABEL:?} (got: {label}, want: {id})"
            )));
        }
        let list = |text: &str| -> Vec<String> {
            text.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let group_kinds = match (
            annotation(parent, GROUP_KINDS_ANNOTATION),
            annotation(parent, GROUP_RESOURCES_ANNOTATION),
        ) {
            (Some(gks), _) => list(gks),
            (None, Some(grs)) if !grs.is_empty() => list(grs)
                .iter()
                .map(|gr| {
                    kinds_of_resources(gr).ok_or_else(|| {
                        fail(format!(
                            "unknown resource {gr:?} in {GROUP_RESOURCES_ANNOTATION:?}"
                        ))
                    })
                })
                .collect::<Result<_, _>>()?,
            _ => {
                return Err(fail(format!(
                    "kubectl requires the {GROUP_KINDS_ANNOTATION:?} annotation on ApplySet parents"
                )))
            }
        };
        let mut namespaces = annotation(parent, NAMESPACES_ANNOTATION)
            .map(list)
            .unwrap_or_default();
        if !namespace.is_empty() {
            namespaces.push(namespace.to_string());
        }
        Ok(ApplySet {
            id,
            group_kinds,
            namespaces,
        })
    }

    /// Whether a live object is in the set: it carries the set's label, its kind is listed, and
    /// (when namespaced) it is in one of the set's namespaces.
    pub fn contains(&self, object: &Value) -> bool {
        let text = |path: &[&str]| object.get_path(path).and_then(Value::as_str).unwrap_or("");
        let api_version = text(&["apiVersion"]);
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        let kind = text(&["kind"]);
        let gk = if group.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}.{group}")
        };
        let namespace = text(&["metadata", "namespace"]);
        text(&["metadata", "labels", PART_OF_LABEL]) == self.id
            && self.group_kinds.contains(&gk)
            && (namespace.is_empty() || self.namespaces.iter().any(|n| n == namespace))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn base64_url_without_padding() {
        assert_eq!(base64_url(b""), "");
        assert_eq!(base64_url(b"f"), "Zg");
        assert_eq!(base64_url(b"fo"), "Zm8");
        assert_eq!(base64_url(b"foo"), "Zm9v");
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn id_hashes_name_namespace_kind_group() {
        // sha256("set.prod.Secret.") in URL-safe base64, as kubectl computes it.
        let id = applyset_id("set", "prod", "Secret", "");
        assert_eq!(
            id,
            "applyset-EhkoB9rHyht-qSnMznNaaUYFavVJPbfJ9qH1o3mLGAE-v1"
        );
        assert_ne!(id, applyset_id("set", "dev", "Secret", ""));
    }

    #[test]
    fn parent_refs() {
        let p = ParentRef::parse("web").unwrap();
        assert!(p.names_kind("", "Secret"));
        let p = ParentRef::parse("configmaps/web").unwrap();
        assert!(p.names_kind("", "ConfigMap") && !p.names_kind("", "Secret"));
        let p = ParentRef::parse("applysets.example.com/web").unwrap();
        assert!(p.names_kind("example.com", "ApplySet"));
        let p = ParentRef::parse("policies.example.com/x").unwrap();
        assert!(p.names_kind("example.com", "Policy"));
        assert!(ParentRef::parse("secrets/").is_err());
    }

    #[test]
    fn parent_checks_and_membership() {
        let id = applyset_id("set", "prod", "Secret", "");
        let parent = from_json_str(&format!(
            r#"{{"metadata":{{"labels":{{"{PARENT_ID_LABEL}":"{id}"}},"annotations":{{
            "{TOOLING_ANNOTATION}":"kubectl/v1.30","{GROUP_KINDS_ANNOTATION}":"ConfigMap,Deployment.apps",
            "{NAMESPACES_ANNOTATION}":"extra"}}}}}}"#
        ))
        .unwrap();
        let r = ParentRef::parse("set").unwrap();
        let set = ApplySet::from_parent(&r, &parent, "Secret", "prod", |_| None).unwrap();
        let member = |api: &str, kind: &str, ns: &str, label: &str| {
            from_json_str(&format!(
                r#"{{"apiVersion":"{api}","kind":"{kind}","metadata":{{"namespace":"{ns}","labels":{{"{PART_OF_LABEL}":"{label}"}}}}}}"#
            ))
            .unwrap()
        };
        assert!(set.contains(&member("v1", "ConfigMap", "prod", &id)));
        assert!(set.contains(&member("apps/v1", "Deployment", "extra", &id)));
        assert!(!set.contains(&member("apps/v1", "Deployment", "other", &id)));
        assert!(!set.contains(&member("v1", "Secret", "prod", &id)));
        assert!(!set.contains(&member("v1", "ConfigMap", "prod", "applyset-x-v1")));
        let wrong = ApplySet::from_parent(&r, &parent, "Secret", "dev", |_| None);
        assert!(matches!(wrong, Err(ApplySetError::Parent { .. })));
    }
}
