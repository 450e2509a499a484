//! `--prune` with `-l` or `--applyset` on `diff` and `apply`: which live snapshots no manifest
//! applies any more and kubectl would delete (see `kssa::kube::prune`), and, for an ApplySet, the
//! `applyset.kubernetes.io/part-of` label kubectl adds to every applied object.

use super::inputs::Loaded;
use anyhow::Context as _;
use kssa::kube::applyset::{ApplySet, ParentRef, PART_OF_LABEL};
use kssa::kube::prune::{parse_allowlist_entry, plan, PruneScope, Spared, DEFAULT_ALLOWLIST};
use kssa::kube::selector::LabelSelector;
use kssa::value::{Map, Value};

#[derive(Debug, Clone, clap::Args)]
pub struct PruneArgs {
    /// Also delete live objects that no manifest applies any more (kubectl's `--prune`); needs
    /// -l or --applyset.
    #[arg(long)]
    pub prune: bool,
    /// With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope.
    #[arg(
        short = 'l',
        long = "selector",
        value_name = "SELECTOR",
        requires = "prune"
    )]
    pub selector: Option<String>,
    /// With --prune: the ApplySet parent, `[RESOURCE][.GROUP]/NAME` (a Secret by default) in
    /// the -n namespace; its members are in scope and applied objects join it.
    #[arg(
        long,
        value_name = "PARENT",
        requires = "prune",
        conflicts_with = "selector"
    )]
    pub applyset: Option<String>,
    /// With -l: the kinds in scope, as `group/version/kind` (`core/v1/ConfigMap`); repeatable.
    /// Default: kubectl's list.
    #[arg(long, value_name = "GVK", requires = "selector")]
    pub prune_allowlist: Vec<String>,
}

/// The live objects (indexes into [`Loaded::live`]) to delete.
pub struct Pruned {
    pub live: Vec<usize>,
}

/// The live object `--applyset` names, its kind and namespace.
fn find_parent<'l>(
    loaded: &'l Loaded,
    reference: &ParentRef,
    namespace: &str,
) -> Option<(&'l Value, String, String)> {
    loaded.live.iter().map(|l| &l.object).find_map(|o| {
        let fits = reference.names_kind(o.group(), o.kind())
            && o.name() == reference.name
            && (o.namespace() == namespace || o.namespace().is_empty());
        fits.then(|| (&o.value, o.kind().to_string(), o.namespace().to_string()))
    })
}

/// Adds the set's label to every manifest, refusing one that sets it already (as kubectl does).
fn label_members(loaded: &mut Loaded, id: &str) -> anyhow::Result<()> {
    for pair in &mut loaded.pairs {
        // Cloned (cheap), printed only on error: printing locates the object in its file.
        let origin = pair.manifest.origin.clone();
        let meta = pair
            .manifest
            .value
            .as_map_mut()
            .and_then(|m| m.get_mut("metadata"))
            .and_then(Value::as_map_mut)
            .with_context(|| format!("{origin}: no metadata"))?;
        let labels = meta
            .entry("labels".to_string())
            .or_insert_with(|| Value::Map(Map::default()));
        if let Value::Null = labels {
            *labels = Value::Map(Map::default());
        }
        let labels = labels
            .as_map_mut()
            .with_context(|| format!("{origin}: .metadata.labels is not a map"))?;
        anyhow::ensure!(
            !labels.contains_key(PART_OF_LABEL),
            "{origin}: .metadata.labels: ApplySet label {PART_OF_LABEL:?} already set in input data"
        );
        labels.insert(PART_OF_LABEL.to_string(), Value::from(id));
    }
    Ok(())
}

impl PruneArgs {
    /// Decides what to prune; with an ApplySet, also labels the manifests. Notes for stderr are
    /// returned with the plan.
    pub fn prepare(
        &self,
        loaded: &mut Loaded,
        namespace: &str,
    ) -> anyhow::Result<(Pruned, Vec<String>)> {
        let mut notes = Vec::new();
        if !self.prune {
            return Ok((Pruned { live: Vec::new() }, notes));
        }
        let scope = match (&self.selector, &self.applyset) {
            (Some(s), _) => PruneScope::Selector {
                selector: LabelSelector::parse(s)?,
                allowlist: if self.prune_allowlist.is_empty() {
                    DEFAULT_ALLOWLIST
                        .iter()
                        .map(|(g, k)| (g.to_string(), k.to_string()))
                        .collect()
                } else {
                    self.prune_allowlist
                        .iter()
                        .map(|e| parse_allowlist_entry(e))
                        .collect::<Result<_, _>>()?
                },
            },
            (None, Some(a)) => {
                let reference = ParentRef::parse(a)?;
                match find_parent(loaded, &reference, namespace) {
                    Some((parent, kind, ns)) => {
                        let set = ApplySet::from_parent(&reference, parent, &kind, &ns, |gr| {
                            let (resource, group) = gr.split_once('.').unwrap_or((gr, ""));
                            let r = ParentRef {
                                resource: resource.to_string(),
                                group: group.to_string(),
                                name: String::new(),
                            };
                            loaded.live.iter().find_map(|l| {
                                let o = &l.object;
                                r.names_kind(o.group(), o.kind()).then(|| {
                                    if group.is_empty() {
                                        o.kind().to_string()
                                    } else {
                                        format!("{}.{group}", o.kind())
                                    }
                                })
                            })
                        })?;
                        label_members(loaded, &set.id)?;
                        PruneScope::ApplySet(set)
                    }
                    None => {
                        anyhow::ensure!(
                            matches!(reference.resource.as_str(), "secrets" | "configmaps")
                                && reference.group.is_empty(),
                            "ApplySet parent {reference}: not among the live snapshots, and \
                             custom resource parents cannot be created automatically"
                        );
                        let kind = if reference.resource == "secrets" {
                            "Secret"
                        } else {
                            "ConfigMap"
                        };
                        let id =
                            kssa::kube::applyset::applyset_id(&reference.name, namespace, kind, "");
                        notes.push(format!(
                            "note: ApplySet parent {reference} is not among the live snapshots: \
                             kubectl creates it, and the set has no members to prune yet"
                        ));
                        label_members(loaded, &id)?;
                        PruneScope::NewApplySet
                    }
                }
            }
            (None, None) => anyhow::bail!(
                "--prune needs -l/--selector or --applyset to say which objects are in scope"
            ),
        };
        let live: Vec<&Value> = loaded.live.iter().map(|l| &l.object.value).collect();
        let applied: Vec<&Value> = loaded.pairs.iter().map(|p| &p.manifest.value).collect();
        let p = plan(&live, &applied, &scope);
        for (i, why) in &p.spared {
            let o = &loaded.live[*i].object;
            match why {
                Spared::NoLastApplied => notes.push(format!(
                    "note: {}: {} {} matches the selector but is not pruned: kubectl only prunes \
                     objects created by client-side `kubectl apply` (with the \
                     kubectl.kubernetes.io/last-applied-configuration annotation); use --applyset \
                     for server-side apply",
                    o.origin,
                    o.kind(),
                    o.name()
                )),
            }
        }
        Ok((Pruned { live: p.pruned }, notes))
    }
}
