//! `kssa strip-managed`: removes managedFields (all, or some managers' entries) and optionally
//! server-set fields from objects in files or stdin, printing them or rewriting files in place.

use super::managers::{read_options, read_sources};
use super::Status;
use anyhow::Context as _;
use kssa::defaults::decode_document;
use kssa::io::{rewrite_documents, write_atomic, Source};
use kssa::kube::SchemaRegistry;
use kssa::managed::neat::{applied_fields, drop_defaults};
use kssa::managed::strip::{
    document_objects_mut, strip_document, ManagerSelection, StripOptions, StripOutcome,
};
use kssa::value::{to_json_string_pretty, Value};
use kssa::yaml::to_yaml_string;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories; `-` or nothing reads stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// Skip documents that are not Kubernetes objects (neither apiVersion nor kind).
    #[arg(long)]
    pub skip_non_objects: bool,
    /// Rewrite the files (atomically) instead of printing.
    #[arg(long)]
    pub in_place: bool,
    /// Also drop what the server fills in: resourceVersion, uid, creationTimestamp,
    /// generation, selfLink, status and the last-applied annotation. The object is first
    /// decoded as the API server reads it (typed round trip and defaults), so an old
    /// snapshot becomes what `kubectl get` shows today.
    #[arg(long)]
    pub server_fields: bool,
    /// Remove only this manager's entries. Repeatable.
    #[arg(long, value_name = "NAME")]
    pub manager: Vec<String>,
    /// Match --manager names as prefixes.
    #[arg(long, requires = "manager")]
    pub prefix: bool,
    /// Also drop values only the server's defaulting put there and no Apply manager owns, as
    /// kubectl-neat does (implies --server-fields; built-in kinds only).
    #[arg(long)]
    pub neat: bool,
}

/// Strips a document, dropping defaults first noted per object when `neat`.
fn strip(doc: &mut Value, options: &StripOptions, neat: Option<&SchemaRegistry>) -> StripOutcome {
    let Some(registry) = neat else {
        return strip_document(doc, options);
    };
    let applied: Vec<_> = document_objects_mut(doc)
        .into_iter()
        .map(|o| applied_fields(o))
        .collect();
    let mut outcome = strip_document(doc, options);
    for (object, applied) in document_objects_mut(doc).into_iter().zip(applied) {
        let text = |k: &str| {
            object
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        if let Ok(kind) = registry.resolve(&text("apiVersion"), &text("kind")) {
            outcome.changed |= !drop_defaults(object, &kind, &applied).is_empty();
        }
    }
    outcome
}

const RESET_NOTE: &str =
    "no managedFields entries remain, so they are written as `managedFields: [{}]`: \
the API server's reset form, which makes it drop every entry and stop tracking ownership \
until the next write (a plain `managedFields: []` would be ignored)";

pub fn run(args: Args) -> anyhow::Result<Status> {
    let options_strip = StripOptions {
        managers: match (args.manager.is_empty(), args.prefix) {
            (true, _) => ManagerSelection::All,
            (false, false) => ManagerSelection::Named(args.manager.clone()),
            (false, true) => ManagerSelection::Prefixed(args.manager.clone()),
        },
        server_fields: args.server_fields || args.neat,
    };
    let registry = SchemaRegistry::new();
    let mut out = String::new();
    let options = read_options(args.recursive, args.skip_non_objects);
    for input in read_sources(&args.paths, options)? {
        let (source, text) = (input.source, input.text);
        let json = text.trim_start().starts_with('{');
        let mut replacements = Vec::new();
        let mut rendered = Vec::new();
        for mut doc in input.documents {
            let decoded = options_strip.server_fields && decode_document(&mut doc.value, &registry);
            let mut outcome = strip(
                &mut doc.value,
                &options_strip,
                args.neat.then_some(&registry),
            );
            outcome.changed |= decoded;
            if outcome.reset > 0 {
                eprintln!("note: {}: {RESET_NOTE}", doc.origin);
            }
            let body = render(&doc.value, json);
            if outcome.changed {
                replacements.push((doc.origin.document, body.clone()));
            }
            rendered.push(body);
        }
        match (&source, args.in_place) {
            (Source::File(path), true) => {
                if replacements.is_empty() {
                    continue;
                }
                let new = rewrite_documents(&text, &replacements)
                    .unwrap_or_else(|| join(&rendered, json));
                write_atomic(path, new.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            (Source::Stdin, true) => anyhow::bail!("--in-place needs files, not stdin"),
            _ => {
                if !out.is_empty() && !rendered.is_empty() {
                    out.push_str("---\n");
                }
                out.push_str(&join(&rendered, json));
            }
        }
    }
    print!("{out}");
    Ok(Status::Clean)
}

fn render(v: &Value, json: bool) -> String {
    if json {
        to_json_string_pretty(v) + "\n"
    } else {
        to_yaml_string(v)
    }
}

fn join(docs: &[String], json: bool) -> String {
    docs.join(if json { "" } else { "---\n" })
}
