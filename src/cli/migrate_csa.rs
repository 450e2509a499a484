//! `kssa migrate-csa`: hands client-side-apply ownership over to a server-side-apply manager
//! as `kubectl apply --server-side` does (client-go csaupgrade), reports what that leaves to
//! prune or stuck, shows the first server-side apply after it (`-f`), and with `--write`
//! updates the snapshots.

use super::inputs::resolve_now;
use super::managers::{read_objects, read_options, read_sources, registry, text, title};
use super::Status;
use anyhow::Context as _;
use kssa::csa::{analyse, default_from, last_applied_path, upgrade, Migration, LAST_APPLIED};
use kssa::fieldpath::Set;
use kssa::io::{rewrite_documents, write_atomic, ReadOptions, Source};
use kssa::kube::{ObjectRef, SchemaRegistry};
use kssa::managed::{decode_managed_fields, write, Operation, WriteRequest};
use kssa::render::{unified_diff, Style};
use kssa::typed::Typed;
use kssa::value::{from_json_str, to_json_string_pretty, Value};
use kssa::yaml::to_yaml_string;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// What the migration changes.
    Report,
    /// The migrated objects as YAML.
    Yaml,
    /// The migrated objects as JSON.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Live snapshots: files, directories, `-` for stdin (the default).
    #[arg(value_name = "LIVE")]
    pub paths: Vec<PathBuf>,
    /// More live snapshots (same as the positional arguments).
    #[arg(long, value_name = "PATH")]
    pub live: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// Skip documents that are not Kubernetes objects (neither apiVersion nor kind).
    #[arg(long)]
    pub skip_non_objects: bool,
    /// Update managers to migrate. Repeatable; `--from=` migrates none. Default:
    /// kubectl-client-side-apply and every Update manager owning the last-applied annotation.
    #[arg(long, value_name = "NAME")]
    pub from: Vec<String>,
    /// The Apply manager taking the fields over.
    #[arg(long, value_name = "NAME", default_value = "kubectl")]
    pub to: String,
    /// Migrate the entries of this subresource (default: the main resource).
    #[arg(long, value_name = "NAME", default_value = "")]
    pub subresource: String,
    /// Manifests the next server-side apply sends: show its diff after the migration.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub filenames: Vec<PathBuf>,
    /// CRD, OpenAPI or SMD schema YAML. Repeatable.
    #[arg(long, value_name = "FILE|DIR")]
    pub schema: Vec<PathBuf>,
    /// Time recorded by the apply after migration (RFC 3339).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// Update the snapshot files in place (atomically).
    #[arg(long)]
    pub write: bool,
    /// Output: the report, or the migrated objects.
    #[arg(short = 'o', long, value_enum, default_value = "report")]
    pub output: Output,
    #[command(flatten)]
    pub kube: super::version::KubeVersionArgs,
}

struct Plan {
    from: Option<Vec<String>>,
    to: String,
    subresource: String,
    registry: SchemaRegistry,
    manifests: Vec<Value>,
    now: String,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let explicit = !args.from.is_empty();
    let options = read_options(args.recursive, args.skip_non_objects);
    let plan = Plan {
        from: explicit.then(|| {
            args.from
                .iter()
                .filter(|f| !f.is_empty())
                .cloned()
                .collect()
        }),
        to: args.to.clone(),
        subresource: args.subresource.clone(),
        registry: registry(&args.schema, args.kube.kube_version)?,
        manifests: if args.filenames.is_empty() {
            Vec::new()
        } else {
            read_objects(&args.filenames, options)?
                .into_iter()
                .flat_map(|(_, _, o)| o.into_iter().map(|o| o.value))
                .collect()
        },
        now: resolve_now(args.now.as_deref())?,
    };
    let mut paths = args.paths.clone();
    paths.extend(args.live.iter().cloned());
    let mut report = String::new();
    let mut migrated = Vec::new();
    let mut pending = false;
    // client-go's csaupgrade reads only managedFields: snapshots that dropped apiVersion and
    // kind (support-bundle dumps) migrate too.
    let snapshots = ReadOptions {
        any_documents: true,
        ..options
    };
    for input in read_sources(&paths, snapshots)? {
        let (source, text_in) = (&input.source, &input.text);
        let mut replacements = Vec::new();
        for mut doc in input.documents.iter().cloned() {
            let mut changed = false;
            for object in objects_mut(&mut doc.value) {
                let (new, r) = migrate_one(object, &plan)
                    .with_context(|| format!("{}: {}", doc.origin, title(object)))?;
                report.push_str(&r);
                migrated.push(new.1);
                if let Some(new) = new.0 {
                    *object = new;
                    changed = true;
                }
            }
            if changed {
                pending = true;
                replacements.push((doc.origin.document, to_yaml_string(&doc.value)));
            }
        }
        if args.write && !replacements.is_empty() {
            let Source::File(path) = source else {
                anyhow::bail!("--write needs files, not stdin");
            };
            let new = rewrite_documents(text_in, &replacements).with_context(|| {
                format!(
                    "{}: cannot rewrite this file document by document",
                    path.display()
                )
            })?;
            write_atomic(path, new.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    match args.output {
        Output::Report => print!("{report}"),
        Output::Yaml => {
            let docs: Vec<String> = migrated.iter().map(to_yaml_string).collect();
            print!("{}", docs.join("---\n"));
        }
        Output::Json => {
            for o in &migrated {
                println!("{}", to_json_string_pretty(o));
            }
        }
    }
    Ok(if pending && !args.write {
        Status::Found
    } else {
        Status::Clean
    })
}

/// The objects of a document: the items of a List, or the document itself.
fn objects_mut(doc: &mut Value) -> Vec<&mut Value> {
    let is_list =
        text(doc, &["kind"]).ends_with("List") && matches!(doc.get("items"), Some(Value::List(_)));
    if !is_list {
        return vec![doc];
    }
    match doc.as_map_mut().and_then(|m| m.get_mut("items")) {
        Some(Value::List(items)) => items.iter_mut().collect(),
        _ => Vec::new(),
    }
}

type Migrated = (Option<Value>, Value);

/// Migrates one object: the new object when its managedFields change, the object as the
/// reference leaves it (entries re-serialised) either way, and the report text.
fn migrate_one(object: &Value, plan: &Plan) -> anyhow::Result<(Migrated, String)> {
    let from = plan.from.clone().unwrap_or_else(|| default_from(object));
    let migration = Migration::new(from, plan.to.clone(), plan.subresource.clone());
    let up = upgrade(object, &migration)?;
    let mut after = object.clone();
    up.write_into(&mut after);
    let name = title(object);
    let mut out = String::new();
    if up.changed {
        out.push_str(&format!(
            "{name}: {} (Update) -> {} (Apply)\n",
            migration.from.join(", "),
            migration.to
        ));
    } else {
        out.push_str(&format!("{name}: nothing to migrate\n"));
    }

    let kind = plan
        .registry
        .resolve(text(object, &["apiVersion"]), text(object, &["kind"]))?;
    let typed = Typed::new(&kind.schema, &kind.type_ref);
    let manifest = ObjectRef::from_value(object).ok().and_then(|me| {
        plan.manifests
            .iter()
            .find(|m| ObjectRef::from_value(m).is_ok_and(|r| r.same_object(&me)))
    });
    let (next, source) = match manifest {
        Some(m) => (typed.to_field_set(m).ok(), "the manifest"),
        None => (
            last_applied_set(object, &typed),
            "the last-applied configuration",
        ),
    };
    // The server keeps the annotation up to date for kubectl's applies: it is never pruned.
    let next = next.map(|s| s.union(&Set::from_paths([last_applied_path()])));
    let before = decode_managed_fields(object).unwrap_or_default();
    let after_entries = decode_managed_fields(&after)?;
    let r = analyse(&before, &after_entries, &migration, next.as_ref());
    if !r.pruned.is_empty() {
        out.push_str(&format!(
            "  the next apply of {source} removes {} field(s) only {} then owns (server defaults come back unowned):\n",
            r.pruned.len(),
            migration.to
        ));
        for p in &r.pruned {
            out.push_str(&format!("    {p}\n"));
        }
    }
    if !r.stuck.is_empty() {
        out.push_str(&format!(
            "  {} stuck field(s): owned by nobody who applies them, no apply will ever remove them (kubernetes/kubernetes#99003):\n",
            r.stuck.len()
        ));
        for p in &r.stuck {
            out.push_str(&format!("    {p}\n"));
        }
    }
    if let Some(m) = manifest {
        let req = WriteRequest {
            operation: Operation::Apply,
            manager: &migration.to,
            force: false,
            subresource: &migration.subresource,
            now: &plan.now,
            reset_fields: true,
            normalize_unions: false,
            defaulting: false,
            validation: None,
            managed_fields: true,
            patch: None,
        };
        match write(Some(&after), m, &kind, &req) {
            Ok(w) => {
                let diff = unified_diff(
                    &name.replace(['/', ' '], "."),
                    &to_yaml_string(&after),
                    &to_yaml_string(&w.object),
                    Style { color: false },
                );
                if diff.is_empty() {
                    out.push_str("  the first server-side apply after migration changes nothing\n");
                } else {
                    out.push_str("  the first server-side apply after migration:\n");
                    out.push_str(&diff);
                }
            }
            Err(e) => out.push_str(&format!(
                "  the first server-side apply after migration fails: {e}\n"
            )),
        }
    }
    Ok(((up.changed.then(|| after.clone()), after), out))
}

/// The field set of the configuration recorded in the last-applied annotation.
fn last_applied_set(object: &Value, typed: &Typed<'_>) -> Option<Set> {
    let text = object
        .get_path(&["metadata", "annotations", LAST_APPLIED])
        .and_then(Value::as_str)?;
    typed.to_field_set(&from_json_str(text).ok()?).ok()
}
