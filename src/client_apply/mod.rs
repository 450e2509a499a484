//! `kubectl apply` without `--server-side` (client-side apply), predicted offline: what kubectl
//! computes and sends ([`plan`]), then what the API server stores ([`store`]).
//!
//! kubectl (k8s.io/kubectl v0.36 pkg/cmd/apply/apply.go `applyOneObject`, patcher.go
//! `patchSimple`, pkg/util/apply.go) keeps the last applied configuration in an annotation. On
//! a create it posts the manifest with that annotation; otherwise it sends a three-way patch
//! between the annotation (original), the manifest (modified) and the live object (current):
//! a strategic merge patch for the kinds it knows, a JSON merge patch for the others.
//! [`compare_results`] sets the outcome beside server-side apply's.

mod compare;
mod encode;
mod patch_meta;
mod server;

pub use compare::{compare_results, DifferenceKind, FieldDifference};
pub use encode::{go_encode, modified_configuration};
pub use patch_meta::{KubectlPatchMeta, MetaSource};
pub use server::{store, StoreError, Stored};

use crate::kube::ResolvedKind;
use crate::patch::{
    three_way_json_merge_patch, three_way_merge_patch, Precondition, ThreeWayError,
};
use crate::schema::builtin::builtin_for;
use crate::value::{to_json_string, Value};

/// The annotation client-side apply keeps the last applied configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// The field manager kubectl's client-side apply writes as (`FieldManagerClientSideApply`).
pub const CLIENT_SIDE_MANAGER: &str = "kubectl-client-side-apply";

/// Definition-name prefixes of the types kubectl's scheme registers (client-go
/// `kubernetes/scheme` as kubectl v0.36 builds it: every group of k8s.io/api). Kinds served
/// by the API server but not registered (apiextensions, apiregistration) fall back to a JSON
/// merge patch when the OpenAPI lookups fail.
const KUBECTL_SCHEME_TYPES: &[&str] = &["io.k8s.api."];

/// kubectl's preconditions on a JSON merge patch (patcher.go `buildMergePatch`).
const MERGE_PATCH_PRECONDITIONS: &[Precondition] = &[
    Precondition::KeyUnchanged("apiVersion"),
    Precondition::KeyUnchanged("kind"),
    Precondition::MetadataKeyUnchanged("name"),
];

/// The flags of `kubectl apply` that change what it sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientOptions {
    /// `--overwrite` (default true): the manifest wins over live changes to the fields it
    /// sets; false makes such a patch a conflict.
    pub overwrite: bool,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions { overwrite: true }
    }
}

/// How a patch is encoded (its content type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// `application/strategic-merge-patch+json`
    Strategic,
    /// `application/merge-patch+json`
    Merge,
}

impl PatchType {
    pub fn as_str(self) -> &'static str {
        match self {
            PatchType::Strategic => "strategic",
            PatchType::Merge => "merge",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            PatchType::Strategic => "application/strategic-merge-patch+json",
            PatchType::Merge => "application/merge-patch+json",
        }
    }
}

/// What kubectl sends for one object.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// The object does not exist: a POST of the manifest with its annotation, nulls pruned.
    Create { object: Value },
    /// A PATCH; `text` is the body byte for byte.
    Patch {
        patch_type: PatchType,
        patch: Value,
        text: String,
    },
    /// The patch is empty (`{}`): kubectl sends nothing.
    Nothing { patch_type: PatchType },
}

impl Request {
    /// The patch type as the conformance vectors name it (`create` for a POST).
    pub fn type_name(&self) -> &'static str {
        match self {
            Request::Create { .. } => "create",
            Request::Patch { patch_type, .. } | Request::Nothing { patch_type } => {
                patch_type.as_str()
            }
        }
    }

    /// The patch body, if a patch was computed (`{}` when nothing is sent).
    pub fn patch_text(&self) -> Option<&str> {
        match self {
            Request::Create { .. } => None,
            Request::Patch { text, .. } => Some(text),
            Request::Nothing { .. } => Some("{}"),
        }
    }
}

/// kubectl's part of one apply: the request, or the error it stops with, and what it printed
/// to stderr on the way (each warning ends with a newline).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub outcome: Result<Request, Failure>,
    pub warnings: Vec<String>,
}

/// kubectl could not compute a patch; `message` is `patchSimple`'s error, byte for byte.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    pub patch_type: PatchType,
    pub message: String,
}

/// The built-in kind's patch support: whether its PATCH accepts strategic merge patch (every
/// built-in resource's does) and whether kubectl's scheme registers its Go type.
fn builtin_support(kind: &ResolvedKind) -> Option<bool> {
    let g = &kind.gvk;
    let known = builtin_for(kind.kube_version).kind(&g.group, &g.version, &g.kind)?;
    let info = kind.info.as_ref()?;
    (info.type_name == known.type_name && known.plural.is_some()).then(|| {
        KUBECTL_SCHEME_TYPES
            .iter()
            .any(|p| known.type_name.starts_with(p))
    })
}

/// `info.ObjectName()`: `resource[.group]/name`.
fn object_name(live: &Value, kind: &ResolvedKind) -> String {
    let resource = kind
        .info
        .as_ref()
        .and_then(|i| i.plural.clone())
        .unwrap_or_else(|| kind.gvk.kind.to_lowercase());
    let name = live
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    if kind.gvk.group.is_empty() {
        format!("{resource}/{name}")
    } else {
        format!("{resource}.{}/{name}", kind.gvk.group)
    }
}

fn annotation(object: &Value) -> Option<&str> {
    object
        .get_path(&["metadata", "annotations", LAST_APPLIED])
        .and_then(Value::as_str)
}

/// What kubectl does for `manifest` (already namespaced as kubectl's builder does) given the
/// live object, or `None` when it does not exist.
pub fn plan(
    manifest: &Value,
    live: Option<&Value>,
    kind: &ResolvedKind,
    options: ClientOptions,
) -> Plan {
    let mut warnings = Vec::new();
    let Some(live) = live else {
        return Plan {
            outcome: Ok(Request::Create {
                object: encode::create_object(manifest),
            }),
            warnings,
        };
    };
    if annotation(live).is_none() {
        warnings.push(format!(
            "Warning: resource {} is missing the {LAST_APPLIED} annotation which is required by \
             kubectl apply. kubectl apply should only be used on resources created \
             declaratively by either kubectl create --save-config or kubectl apply. The \
             missing annotation will be patched automatically.\n",
            object_name(live, kind)
        ));
    }
    let (_, modified) = modified_configuration(manifest);
    let current = go_encode(live);
    let original = annotation(live).unwrap_or("");
    let failure = |patch_type, error: String| {
        Failure {
        patch_type,
        message: format!(
            "creating patch with:\noriginal:\n{original}\nmodified:\n{modified}\ncurrent:\n{current}\nfor: {error}"
        ),
    }
    };
    let strategic = |source| {
        let meta = KubectlPatchMeta::new(&kind.schema, &kind.type_ref, source);
        three_way_merge_patch(original, &modified, &current, &meta, options.overwrite)
    };
    let outcome = match builtin_support(kind) {
        Some(registered) => {
            let mut found = None;
            for (source, label) in [
                (MetaSource::OpenApiV3, "openapi v3 spec"),
                (MetaSource::OpenApiV2, "openapi spec"),
            ] {
                match strategic(source) {
                    Ok(p) => {
                        found = Some(p);
                        break;
                    }
                    Err(e) => warnings.push(format!(
                        "warning: error calculating patch from {label}: {e}\n"
                    )),
                }
            }
            match found {
                Some(p) => Ok((PatchType::Strategic, p)),
                None if registered => strategic(MetaSource::GoStruct)
                    .map(|p| (PatchType::Strategic, p))
                    .map_err(|e: ThreeWayError| failure(PatchType::Strategic, e.to_string())),
                None => {
                    merge(original, &modified, &current).map_err(|e| failure(PatchType::Merge, e))
                }
            }
        }
        None => merge(original, &modified, &current).map_err(|e| failure(PatchType::Merge, e)),
    };
    Plan {
        outcome: outcome.map(|(patch_type, patch)| {
            let text = to_json_string(&patch.with_sorted_keys());
            if text == "{}" {
                Request::Nothing { patch_type }
            } else {
                Request::Patch {
                    patch_type,
                    patch,
                    text,
                }
            }
        }),
        warnings,
    }
}

fn merge(original: &str, modified: &str, current: &str) -> Result<(PatchType, Value), String> {
    three_way_json_merge_patch(original, modified, current, MERGE_PATCH_PRECONDITIONS)
        .map(|p| (PatchType::Merge, p))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    fn kind(api_version: &str, kind: &str) -> ResolvedKind {
        SchemaRegistry::new().resolve(api_version, kind).unwrap()
    }

    fn deployment(replicas: i64, annotation: Option<&str>) -> Value {
        let mut v = from_json_str(&format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"ns"}},"spec":{{"replicas":{replicas}}}}}"#
        ))
        .unwrap();
        if let Some(a) = annotation {
            let meta = v.as_map_mut().unwrap().get_mut("metadata").unwrap();
            let mut annotations = crate::value::Map::default();
            annotations.insert(LAST_APPLIED.into(), Value::from(a));
            meta.as_map_mut()
                .unwrap()
                .insert("annotations".into(), Value::Map(annotations));
        }
        v
    }

    #[test]
    fn a_missing_object_is_created_with_its_annotation() {
        let plan = plan(
            &deployment(2, None),
            None,
            &kind("apps/v1", "Deployment"),
            ClientOptions::default(),
        );
        let Ok(Request::Create { object }) = plan.outcome else {
            panic!("{plan:?}")
        };
        assert!(annotation(&object).is_some_and(|a| a.ends_with("}}\n")));
        assert!(plan.warnings.is_empty());
    }

    #[test]
    fn drift_is_overwritten_and_a_missing_annotation_warned_about() {
        let k = kind("apps/v1", "Deployment");
        let plan = plan(
            &deployment(2, None),
            Some(&deployment(5, None)),
            &k,
            ClientOptions::default(),
        );
        assert_eq!(plan.warnings.len(), 1);
        assert!(plan.warnings[0].starts_with("Warning: resource deployments.apps/web is missing"));
        let Ok(Request::Patch {
            patch_type, patch, ..
        }) = plan.outcome
        else {
            panic!("{plan:?}")
        };
        assert_eq!(patch_type, PatchType::Strategic);
        assert_eq!(patch.get_path(&["spec", "replicas"]), Some(&Value::Int(2)));
    }

    #[test]
    fn an_unchanged_manifest_sends_nothing() {
        let k = kind("apps/v1", "Deployment");
        let manifest = deployment(2, None);
        let (annotation, _) = modified_configuration(&manifest);
        let live = deployment(2, Some(&annotation));
        let plan = plan(&manifest, Some(&live), &k, ClientOptions::default());
        assert_eq!(
            plan.outcome,
            Ok(Request::Nothing {
                patch_type: PatchType::Strategic
            })
        );
    }

    #[test]
    fn kinds_without_a_schema_get_a_json_merge_patch_and_an_invalid_annotation_fails() {
        let k = kind("example.com/v1", "Widget");
        let manifest = from_json_str(
            r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"l":[1]}}"#,
        )
        .unwrap();
        let mut live = manifest.clone();
        live.as_map_mut()
            .unwrap()
            .insert("spec".into(), from_json_str(r#"{"l":[1,2]}"#).unwrap());
        let plan1 = plan(&manifest, Some(&live), &k, ClientOptions::default());
        let Ok(Request::Patch {
            patch_type, text, ..
        }) = &plan1.outcome
        else {
            panic!("{plan1:?}")
        };
        assert_eq!(*patch_type, PatchType::Merge);
        assert!(text.contains(r#""spec":{"l":[1]}"#), "{text}");
        let bad = deployment(1, Some("{"));
        let plan2 = plan(
            &deployment(2, None),
            Some(&bad),
            &kind("apps/v1", "Deployment"),
            ClientOptions::default(),
        );
        let Err(f) = plan2.outcome else { panic!() };
        assert!(f
            .message
            .starts_with("creating patch with:\noriginal:\n{\nmodified:\n"));
        assert!(f.message.ends_with("\nfor: invalid JSON document"));
        assert_eq!(plan2.warnings.len(), 2);
    }
}
