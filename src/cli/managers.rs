//! `kssa managers`: who owns what in live objects (or in the predicted result of applying
//! manifests to them): a table of entries, blame-annotated YAML, a manager's fields as an
//! applyable manifest, or its field paths. Also the live-object reading the managedFields
//! subcommands share.

use super::apply::{predict, Outcome};
use super::inputs::{resolve_now, ApplyArgs, InputArgs, Loaded};
use super::Status;
use anyhow::Context as _;
use kssa::io::{expand_paths, objects_of, read_source, Object, Source};
use kssa::kube::SchemaRegistry;
use kssa::managed::age::parse_rfc3339;
use kssa::managed::blame::blame;
use kssa::managed::ownership::{extract, manager_entries, manager_rows, owned_set, render_table};
use kssa::managed::{decode_managed_fields, ManagedFieldsEntry};
use kssa::typed::Typed;
use kssa::value::Value;
use kssa::yaml::to_yaml_string;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Live objects (`kubectl get -o yaml --show-managed-fields`): files, directories, `-` for
    /// stdin (the default).
    #[arg(value_name = "LIVE")]
    pub paths: Vec<PathBuf>,
    /// Manifests to apply to the live objects first: show the predicted result's managers.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub filenames: Vec<PathBuf>,
    /// More live objects (same as the positional arguments).
    #[arg(long, value_name = "PATH")]
    pub live: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// CRD, OpenAPI or SMD schema YAML (for --extract and -f). Repeatable.
    #[arg(long, value_name = "FILE|DIR")]
    pub schema: Vec<PathBuf>,
    /// Namespace for namespaced manifests that name none (default: `default`).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    #[command(flatten)]
    pub apply: ApplyArgs,
    /// Print the object as YAML with each line's owners.
    #[arg(long, conflicts_with_all = ["extract", "fields"])]
    pub blame: bool,
    /// Only this manager (for --extract and --fields).
    #[arg(long, value_name = "NAME")]
    pub manager: Option<String>,
    /// The fields --manager owns, as an applyable manifest (client-go's Extract).
    #[arg(long, requires = "manager", conflicts_with = "fields")]
    pub extract: bool,
    /// The owned field paths, one per line.
    #[arg(long)]
    pub fields: bool,
    #[command(flatten)]
    pub kube: super::version::KubeVersionArgs,
}

/// What to print per object, validated once.
enum View<'a> {
    Table,
    Blame,
    Extract(&'a str),
    Fields(Option<&'a str>),
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let view = match (&args.manager, args.blame, args.extract, args.fields) {
        (_, true, _, _) => View::Blame,
        (Some(m), _, true, _) => View::Extract(m),
        (m, _, _, true) => View::Fields(m.as_deref()),
        (Some(_), false, false, false) => {
            anyhow::bail!("--manager needs --extract or --fields")
        }
        _ => View::Table,
    };
    let now_text = resolve_now(args.apply.now.as_deref())?;
    let now = parse_rfc3339(&now_text);
    let mut status = Status::Clean;
    let objects: Vec<Value> = if args.filenames.is_empty() {
        let mut paths = args.paths.clone();
        paths.extend(args.live.iter().cloned());
        let decode = !args.apply.store.no_defaults;
        read_live(
            &paths,
            args.recursive,
            &registry(&args.schema, args.kube.kube_version)?,
            decode,
        )?
    } else {
        let mut live = args.paths.clone();
        live.extend(args.live.iter().cloned());
        let inputs = InputArgs {
            filenames: args.filenames.clone(),
            recursive: args.recursive,
            live,
            schema: args.schema.clone(),
            namespace: args.namespace.clone(),
            kube: args.kube.clone(),
            strict_schemas: false,
        };
        let loaded = Loaded::load_with(&inputs, true, !args.apply.store.no_defaults)?;
        for n in &loaded.notices {
            eprintln!("{n}");
        }
        let mut out = Vec::new();
        for p in predict(&loaded, &args.apply)? {
            match p.outcome {
                Outcome::Applied { object, .. } => out.push(object),
                Outcome::Conflicts { message, .. } => {
                    eprintln!("error: {}: {message}", p.pair.manifest.origin);
                    status = Status::Found;
                }
                Outcome::Invalid { error } => {
                    eprint!(
                        "{}",
                        super::refused::error_line(&p.pair.manifest.origin, &error)
                    );
                    status = Status::Found;
                }
            }
        }
        out
    };
    let registry = match view {
        View::Extract(_) => Some(registry(&args.schema, args.kube.kube_version)?),
        _ => None,
    };
    let subresource = args.apply.subresource.as_deref().unwrap_or("");
    let many = objects.len() > 1;
    let mut out = String::new();
    for (i, object) in objects.iter().enumerate() {
        let entries = decode_managed_fields(object)
            .with_context(|| format!("{}: metadata.managedFields", title(object)))?;
        match view {
            View::Table => {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&title(object));
                out.push('\n');
                if entries.is_empty() {
                    out.push_str("no managedFields\n");
                } else {
                    out.push_str(&render_table(&manager_rows(&entries, now)));
                }
            }
            View::Blame => {
                if many {
                    out.push_str(&format!("# {}\n", title(object)));
                }
                out.push_str(&blame(object, &entries, now));
            }
            View::Extract(manager) => {
                let set = owned_set(&manager_entries(&entries, manager, subresource));
                if set.is_empty() {
                    eprintln!(
                        "note: {}: {manager:?} owns no fields{}",
                        title(object),
                        if subresource.is_empty() {
                            String::new()
                        } else {
                            format!(" of the {subresource} subresource")
                        }
                    );
                }
                let reg = registry.as_ref().expect("resolved for --extract");
                let kind = reg
                    .resolve(text(object, &["apiVersion"]), text(object, &["kind"]))
                    .with_context(|| title(object))?;
                let typed = Typed::new(&kind.schema, &kind.type_ref);
                if i > 0 {
                    out.push_str("---\n");
                }
                out.push_str(&to_yaml_string(&extract(object, &typed, &set)));
            }
            View::Fields(manager) => {
                if many {
                    out.push_str(&format!("# {}\n", title(object)));
                }
                out.push_str(&field_lines(&entries, manager, subresource));
            }
        }
    }
    print!("{out}");
    Ok(status)
}

fn field_lines(entries: &[ManagedFieldsEntry], manager: Option<&str>, subresource: &str) -> String {
    let mut out = String::new();
    match manager {
        Some(m) => {
            for p in owned_set(&manager_entries(entries, m, subresource)).sorted_paths() {
                out.push_str(&format!("{p}\n"));
            }
        }
        None => {
            for e in entries {
                let sub = if e.subresource.is_empty() {
                    String::new()
                } else {
                    format!("/{}", e.subresource)
                };
                for p in e.fields.sorted_paths() {
                    out.push_str(&format!("{}{sub} ({}) {p}\n", e.manager, e.operation));
                }
            }
        }
    }
    out
}

pub(super) fn text<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    v.get_path(path).and_then(Value::as_str).unwrap_or("")
}

/// `Kind namespace/name`, for headers and messages.
pub(super) fn title(object: &Value) -> String {
    let ns = text(object, &["metadata", "namespace"]);
    let name = text(object, &["metadata", "name"]);
    let kind = text(object, &["kind"]);
    if ns.is_empty() {
        format!("{kind} {name}")
    } else {
        format!("{kind} {ns}/{name}")
    }
}

/// The built-in schemas of a Kubernetes version plus the given schema documents.
pub(super) fn registry(
    paths: &[PathBuf],
    version: kssa::kube::KubeVersion,
) -> anyhow::Result<SchemaRegistry> {
    let mut registry = SchemaRegistry::for_version(version);
    if paths.is_empty() {
        return Ok(registry);
    }
    for (_, _, objs) in read_objects(paths, true)? {
        for o in objs {
            registry
                .add_document(&o.value)
                .with_context(|| o.origin.to_string())?;
        }
    }
    Ok(registry)
}

/// The sources named by `paths` (stdin when there are none), directories expanded.
fn sources_of(paths: &[PathBuf], recursive: bool) -> anyhow::Result<Vec<Source>> {
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let (sources, errors) = expand_paths(paths, recursive);
    match errors.into_iter().next() {
        Some(e) => Err(e.into()),
        None => Ok(sources),
    }
}

/// The text of every source of the given paths (stdin when there are none), unvalidated.
pub(super) fn read_texts(
    paths: &[PathBuf],
    recursive: bool,
) -> anyhow::Result<Vec<(Source, String)>> {
    let mut out = Vec::new();
    for source in sources_of(paths, recursive)? {
        let text = read_source(&source, &mut std::io::stdin().lock())?;
        out.push((source, String::from_utf8_lossy(&text.bytes).into_owned()));
    }
    Ok(out)
}

/// Every object of the given paths (stdin when there are none); with `decode`, decoded as the
/// API server reads a stored object ([`kssa::defaults::decode_stored`]).
pub(super) fn read_live(
    paths: &[PathBuf],
    recursive: bool,
    registry: &SchemaRegistry,
    decode: bool,
) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    for (_, _, objs) in read_objects(paths, recursive)? {
        for mut o in objs {
            if decode {
                let kind = registry.resolve(o.api_version(), o.kind())?;
                kssa::defaults::decode_stored(&mut o.value, &kind);
            }
            out.push(o.value);
        }
    }
    Ok(out)
}

/// Every object of the given paths (stdin when there are none), with each source's text.
pub(super) fn read_objects(
    paths: &[PathBuf],
    recursive: bool,
) -> anyhow::Result<Vec<(Source, String, Vec<Object>)>> {
    let mut out = Vec::new();
    for source in sources_of(paths, recursive)? {
        let text = read_source(&source, &mut std::io::stdin().lock())?;
        let (objs, errors) = objects_of(&text);
        if let Some(e) = errors.into_iter().next() {
            return Err(e.into());
        }
        out.push((
            source,
            String::from_utf8_lossy(&text.bytes).into_owned(),
            objs,
        ));
    }
    Ok(out)
}
