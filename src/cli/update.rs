//! `kssa update`: records a non-apply write (an `Update`, as a controller, `kubectl edit`,
//! `patch` or `scale` makes it) by a field manager: a full object (PUT) or a patch.

use super::apply::Output;
use super::inputs::{resolve_now, StoreArgs};
use super::managers::{read_live, registry, text, title};
use super::Status;
use anyhow::Context as _;
use kssa::io::{read_document, Stdin};
use kssa::kube::ObjectRef;
use kssa::managed::{write, Operation, WriteError, WriteRequest};
use kssa::patch::{json_patch, merge_patch, strategic_merge_patch, SchemaPatchMeta};
use kssa::render::{render_objects, OutputFormat};
use kssa::validate::{Patch, PatchType};
use kssa::value::Value;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PatchKind {
    /// Strategic merge patch (built-in kinds only).
    Strategic,
    /// JSON merge patch (RFC 7386).
    Merge,
    /// JSON patch (RFC 6902).
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The live snapshot holding the object (file, or `-` for stdin).
    #[arg(long, value_name = "PATH")]
    pub live: Vec<PathBuf>,
    /// The full new object (a PUT).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "patch",
        required_unless_present = "patch"
    )]
    pub object: Option<PathBuf>,
    /// A patch to the live object (a PATCH), JSON or YAML.
    #[arg(long, value_name = "FILE", requires = "live")]
    pub patch: Option<PathBuf>,
    /// The patch type.
    #[arg(long = "type", value_enum, default_value = "strategic")]
    pub patch_type: PatchKind,
    /// Name of the field manager the update is recorded under.
    #[arg(long, value_name = "NAME", default_value = "kubectl-edit")]
    pub field_manager: String,
    /// Write to this subresource (e.g. `status`, `scale`).
    #[arg(long, value_name = "NAME", default_value = "")]
    pub subresource: String,
    /// CRD, OpenAPI or SMD schema YAML. Repeatable.
    #[arg(long, value_name = "FILE|DIR")]
    pub schema: Vec<PathBuf>,
    /// Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "yaml")]
    pub output: Output,
    #[command(flatten)]
    pub kube: super::version::KubeVersionArgs,
    #[command(flatten)]
    pub validate: super::inputs::ValidateArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let now = resolve_now(args.now.as_deref())?;
    let registry = registry(&args.schema, args.kube.kube_version)?;
    let live: Vec<Value> = if args.live.is_empty() {
        Vec::new()
    } else {
        // A patch applies to the object as the server reads it, decoded and defaulted.
        read_live(&args.live, false, false, &registry, !args.store.no_defaults)?
    };
    let patch_document: Option<Value>;
    let (stored, new) = match (&args.object, &args.patch) {
        (Some(path), _) => {
            patch_document = None;
            let new = read_one(path)?;
            let me = ObjectRef::from_value(&new).with_context(|| path.display().to_string())?;
            let stored = live
                .iter()
                .find(|l| ObjectRef::from_value(l).is_ok_and(|r| r.same_object(&me)));
            (stored, new)
        }
        (None, Some(path)) => {
            anyhow::ensure!(
                live.len() == 1,
                "--patch needs exactly one live object, got {}",
                live.len()
            );
            let stored = &live[0];
            let patch = read_one(path)?;
            let new = apply_patch(stored, &patch, args.patch_type, &registry)
                .with_context(|| format!("{}: cannot apply the patch", title(stored)))?;
            patch_document = Some(patch);
            (Some(stored), new)
        }
        (None, None) => anyhow::bail!("give --object or --patch"),
    };
    let kind = registry.resolve(text(&new, &["apiVersion"]), text(&new, &["kind"]))?;
    let req = WriteRequest {
        operation: Operation::Update,
        manager: &args.field_manager,
        force: false,
        subresource: &args.subresource,
        now: &now,
        reset_fields: true,
        normalize_unions: args.store.normalize_unions,
        defaulting: !args.store.no_defaults,
        validation: Some(args.validate.mode),
        managed_fields: true,
        patch: patch_document.as_ref().map(|document| Patch {
            patch_type: match args.patch_type {
                PatchKind::Strategic => PatchType::Strategic,
                PatchKind::Merge => PatchType::Merge,
                PatchKind::Json => PatchType::Json,
            },
            document,
        }),
    };
    let outcome = match write(stored, &new, &kind, &req) {
        Err(WriteError::Refused(error, warnings)) => {
            for w in &warnings {
                eprintln!("{w}");
            }
            eprint!("{}", super::refused::error_line_at(&title(&new), &error));
            return Ok(Status::Found);
        }
        other => other.with_context(|| title(&new))?,
    };
    for w in &outcome.warnings {
        eprintln!("{w}");
    }
    let format = match args.output {
        Output::Yaml => OutputFormat::Yaml,
        Output::Json => OutputFormat::Json,
        Output::Name => OutputFormat::Name,
    };
    print!("{}", render_objects(&[&outcome.object], format));
    Ok(Status::Clean)
}

/// The object or patch in a file, through `io` (a patch need not be an object).
fn read_one(path: &std::path::Path) -> anyhow::Result<Value> {
    Ok(read_document(path, &mut Stdin::default())?)
}

/// The patched object, as the API server's patch handler computes it.
fn apply_patch(
    stored: &Value,
    patch: &Value,
    kind: PatchKind,
    registry: &kssa::kube::SchemaRegistry,
) -> anyhow::Result<Value> {
    Ok(match kind {
        PatchKind::Merge => merge_patch(stored, patch)?,
        PatchKind::Json => json_patch(stored, patch)?,
        PatchKind::Strategic => {
            let resolved =
                registry.resolve(text(stored, &["apiVersion"]), text(stored, &["kind"]))?;
            let builtin =
                resolved.info.is_some() && !resolved.deduced && is_builtin(&resolved.gvk.group);
            anyhow::ensure!(
                builtin,
                "strategic merge patch is not supported for {} {} (the API server answers 415 \
                 Unsupported Media Type for custom resources); use --type merge or --type json",
                text(stored, &["apiVersion"]),
                text(stored, &["kind"])
            );
            strategic_merge_patch(
                stored,
                patch,
                &SchemaPatchMeta::new(&resolved.schema, &resolved.type_ref),
            )?
        }
    })
}

/// Whether a group is served by the built-in API (custom resources are not).
fn is_builtin(group: &str) -> bool {
    let g = &kssa::schema::builtin::builtin();
    g.has_group(group)
}
