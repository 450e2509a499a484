//! Conversion between the versions one object is served at, plugged into the engine's
//! [`Converter`]: the API server's field manager compares objects at the version each manager
//! wrote in (k8s.io/apiserver managedfields `versionConverter`: to the internal hub, then out).
//! Built-ins convert with rules transcribed from the Kubernetes sources ([`hpa`], [`event`]) or
//! as the identity where both versions have the same schema; CRDs with strategy `None` rewrite
//! `apiVersion`; `Webhook` conversion cannot run offline and fails naming the CRD.

mod event;
mod hpa;

use super::object::GroupVersionKind;
use super::registry::{KindVersions, ResolvedKind};
use super::served::{same_resource, served_versions, Minor};
use crate::merge::{ConversionError, Converter};
use crate::schema::builtin::builtin_for;
use crate::schema::crd::CrdConversion;
use crate::schema::{Schema, SchemaError, TypeRef};
use crate::value::{Map, Value};
use std::sync::Arc;

/// Pairs of versions of one built-in resource whose schemas are the same, so converting
/// between them only rewrites `apiVersion` (checked against the 1.36 OpenAPI document).
const IDENTICAL_VERSIONS: &[(&str, &str, &str)] = &[
    (
        "certificates.k8s.io",
        "ClusterTrustBundle",
        "v1alpha1|v1beta1",
    ),
    ("coordination.k8s.io", "LeaseCandidate", "v1alpha2|v1beta1"),
    ("networking.k8s.io", "IPAddress", "v1beta1|v1"),
    ("networking.k8s.io", "ServiceCIDR", "v1beta1|v1"),
    ("storage.k8s.io", "VolumeAttributesClass", "v1beta1|v1"),
    // Checked against the 1.31 definitions (the last release serving v1beta3). Not
    // PriorityLevelConfiguration: its v1beta3 conversion treats a zero nominalConcurrencyShares
    // specially (pkg/apis/flowcontrol/v1beta3/conversion.go).
    ("flowcontrol.apiserver.k8s.io", "FlowSchema", "v1beta3|v1"),
];

/// How values move between two versions of a built-in resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BuiltinRule {
    /// `autoscaling/v1` ↔ `autoscaling/v2` HorizontalPodAutoscaler.
    Hpa,
    /// core/v1 Event ↔ `events.k8s.io/v1` Event.
    Event,
    /// Same schema: only `apiVersion` changes.
    Identity,
}

fn builtin_rule(from: &GroupVersionKind, to: &GroupVersionKind) -> Option<BuiltinRule> {
    if from.group == "autoscaling" && from.kind == "HorizontalPodAutoscaler" {
        let versions = [from.version.as_str(), to.version.as_str()];
        if versions.contains(&"v1") && versions.contains(&"v2") {
            return Some(BuiltinRule::Hpa);
        }
    }
    if same_resource((&from.group, &from.kind), ("", "Event")) && from.group != to.group {
        return Some(BuiltinRule::Event);
    }
    IDENTICAL_VERSIONS
        .iter()
        .any(|&(group, kind, pair)| {
            let (a, b) = pair.split_once('|').unwrap_or((pair, pair));
            group == from.group
                && kind == from.kind
                && ((a == from.version && b == to.version)
                    || (b == from.version && a == to.version))
        })
        .then_some(BuiltinRule::Identity)
}

/// How one object's versions convert.
#[derive(Debug, Clone)]
enum Rules {
    /// One type for every version; values are never changed (SMD YAML, OpenAPI documents, the
    /// deduced schema): what the engine did before it knew versions.
    Single,
    Builtin,
    Crd(CrdConversion),
}

/// The versions one object is served at, their types in one schema, and the rules between
/// them.
#[derive(Debug, Clone)]
pub struct VersionConverter {
    schema: Arc<Schema>,
    /// `apiVersion` and root type of every served version.
    versions: Vec<(String, TypeRef)>,
    rules: Rules,
    /// The kind, for values that do not say (a typed zero object, a partial value).
    kind: String,
}

impl VersionConverter {
    /// The converter for objects of `kind`, for a server of the kind's Kubernetes version.
    /// Built once per resolution and shared by its clones.
    pub fn for_kind(kind: &ResolvedKind) -> Result<Arc<VersionConverter>, SchemaError> {
        kind.converter
            .get_or_init(|| {
                VersionConverter::for_release(kind, Minor::of(kind.kube_version)).map(Arc::new)
            })
            .clone()
    }

    /// The converter for objects of `kind` on a server of `release`. The kind's own version is
    /// always among the versions (the request names it).
    pub fn for_release(
        kind: &ResolvedKind,
        release: Minor,
    ) -> Result<VersionConverter, SchemaError> {
        let own = kind.gvk.api_version();
        match &kind.versions {
            KindVersions::Single => Ok(VersionConverter {
                schema: kind.schema.clone(),
                versions: vec![(own, kind.type_ref.clone())],
                rules: Rules::Single,
                kind: kind.gvk.kind.clone(),
            }),
            KindVersions::Builtin => {
                // The versions' types as the server of that release has them.
                let b = builtin_for(kind.kube_version);
                let mut names: Vec<(String, String)> = Vec::new();
                for row in served_versions(&kind.gvk, release) {
                    // A version the embedded schemas lack cannot be typed: as good as unserved.
                    if let Some(info) = b.kind(row.group, row.version, row.kind) {
                        names.push((row.api_version(), info.type_name.clone()));
                    }
                }
                if let Some(info) = &kind.info {
                    if !names.iter().any(|(v, _)| *v == own) {
                        names.push((own.clone(), info.type_name.clone()));
                    }
                }
                let type_names: Vec<&str> = names.iter().map(|(_, t)| t.as_str()).collect();
                let schema = b.schema_for_types(&type_names)?;
                let versions = names
                    .iter()
                    .map(|(v, t)| Ok((v.clone(), schema.type_ref(t)?)))
                    .collect::<Result<_, SchemaError>>()?;
                Ok(VersionConverter {
                    schema,
                    versions,
                    rules: Rules::Builtin,
                    kind: kind.gvk.kind.clone(),
                })
            }
            KindVersions::Crd {
                conversion,
                versions,
            } => Ok(VersionConverter {
                schema: kind.schema.clone(),
                versions: versions
                    .iter()
                    .map(|k| {
                        let gvk = GroupVersionKind {
                            group: k.group.clone(),
                            version: k.version.clone(),
                            kind: k.kind.clone(),
                        };
                        Ok((gvk.api_version(), kind.schema.type_ref(&k.type_name)?))
                    })
                    .collect::<Result<_, SchemaError>>()?,
                rules: Rules::Crd(conversion.clone()),
                kind: kind.gvk.kind.clone(),
            }),
        }
    }

    /// The schema holding every version's types (the updater works over it).
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The served `apiVersion`s, in table order.
    pub fn api_versions(&self) -> impl Iterator<Item = &str> {
        self.versions.iter().map(|(v, _)| v.as_str())
    }

    /// Whether objects are served at `api_version`.
    pub fn serves(&self, api_version: &str) -> bool {
        matches!(self.rules, Rules::Single) || self.versions.iter().any(|(v, _)| v == api_version)
    }

    fn kind_of<'v>(&'v self, value: &'v Value) -> &'v str {
        value
            .get("kind")
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty())
            .unwrap_or(&self.kind)
    }
}

impl Converter for VersionConverter {
    fn type_ref(&self, version: &str) -> Result<TypeRef, ConversionError> {
        if let Rules::Single = self.rules {
            return Ok(self.versions[0].1.clone());
        }
        self.versions
            .iter()
            .find(|(v, _)| v == version)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| ConversionError::MissingVersion(version.to_string()))
    }

    fn convert(&self, value: &Value, from: &str, to: &str) -> Result<Value, ConversionError> {
        if let Rules::Single = self.rules {
            return Ok(value.clone());
        }
        for v in [to, from] {
            if !self.serves(v) {
                return Err(ConversionError::MissingVersion(v.to_string()));
            }
        }
        if from == to {
            return Ok(value.clone());
        }
        let kind = self.kind_of(value);
        let (from_gvk, to_gvk) = (
            GroupVersionKind::new(from, kind),
            GroupVersionKind::new(to, kind),
        );
        match &self.rules {
            Rules::Single => Ok(value.clone()),
            Rules::Crd(crd) if crd.webhook => Err(ConversionError::Failed(format!(
                "converting {kind} from {from} to {to} needs the conversion webhook of \
                 CustomResourceDefinition {}, which kssa cannot call offline",
                crd.name
            ))),
            Rules::Crd(_) => {
                // The `None` converter only rewrites apiVersion; reading the object at the
                // target version then prunes what that version's schema does not declare
                // (apiextensions-apiserver's schema coercion on decode).
                let mut out = with_api_version(value, to);
                let tr = self.type_ref(to)?;
                crate::defaults::structural::prune(&self.schema, &tr, &mut out, true);
                Ok(out)
            }
            Rules::Builtin => match builtin_rule(&from_gvk, &to_gvk) {
                Some(BuiltinRule::Hpa) if to_gvk.version == "v1" => hpa::v2_to_v1(value),
                Some(BuiltinRule::Hpa) => hpa::v1_to_v2(value),
                Some(BuiltinRule::Event) if to_gvk.group.is_empty() => {
                    Ok(event::events_to_core(value))
                }
                Some(BuiltinRule::Event) => Ok(event::core_to_events(value)),
                Some(BuiltinRule::Identity) => Ok(with_api_version(value, to)),
                None => Err(ConversionError::Failed(format!(
                    "kssa has no conversion of {kind} from {from} to {to}"
                ))),
            },
        }
    }
}

/// A converted object's `apiVersion` and `kind`, in the order the original has them (a
/// snapshot printed `kind` first keeps it first, so a diff shows no reordering).
pub(crate) fn type_meta(original: &Value, api_version: &str, default_kind: &str) -> Map {
    let kind = original
        .get("kind")
        .cloned()
        .unwrap_or_else(|| Value::from(default_kind));
    let kind_first = original
        .as_map()
        .and_then(|m| Some(m.get_index_of("kind")? < m.get_index_of("apiVersion")?))
        .unwrap_or(false);
    let mut out = Map::default();
    if kind_first {
        out.insert("kind".into(), kind);
        out.insert("apiVersion".into(), Value::from(api_version));
    } else {
        out.insert("apiVersion".into(), Value::from(api_version));
        out.insert("kind".into(), kind);
    }
    out
}

/// The value with `apiVersion` set to `api_version` (kept in place when present).
pub(crate) fn with_api_version(value: &Value, api_version: &str) -> Value {
    let mut out = value.clone();
    if let Some(m) = out.as_map_mut() {
        m.insert("apiVersion".into(), Value::from(api_version));
    }
    out
}

#[cfg(test)]
mod tests;
