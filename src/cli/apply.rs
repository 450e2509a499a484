//! `kssa apply`: applies manifests to live snapshots, prints the resulting objects, and with
//! `--write` updates the snapshot files. Also the apply pipeline `diff` and `conflicts` share.

use super::inputs::{resolve_now, ApplyArgs, InputArgs, LiveObject, Loaded, Pair};
use super::pipeline::{for_each_predicted, without_managed_fields_in_place, Held};
use super::report::{emit, findings_of, guarded, ReportFormat};
use super::{refused, Status};
use anyhow::Context as _;
use kssa::io::{new_object_path, rewrite_documents, validation_node, write_atomic, Anchor, Object};
use kssa::kube::ResolvedKind;
use kssa::managed::{ConflictDetail, Operation, WriteError, WriteRequest};
use kssa::render::{render_objects, OutputFormat};
use kssa::typed::Typed;
use kssa::validate::StatusError;
use kssa::value::{to_json_string_pretty, Value};
use kssa::yaml::to_yaml_string;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    Yaml,
    Json,
    Name,
}

/// `apply`'s formats: the objects, or a CI report of what applying them finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ApplyOutput {
    Yaml,
    Json,
    Name,
    /// SARIF 2.1.0 findings instead of the objects, for code scanning.
    Sarif,
    /// JUnit XML, a test case per object, instead of the objects.
    Junit,
}

impl ApplyOutput {
    pub(super) fn report(self) -> Option<ReportFormat> {
        match self {
            ApplyOutput::Sarif => Some(ReportFormat::Sarif),
            ApplyOutput::Junit => Some(ReportFormat::Junit),
            ApplyOutput::Yaml | ApplyOutput::Json | ApplyOutput::Name => None,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub apply: ApplyArgs,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "yaml")]
    pub output: ApplyOutput,
    /// Keep metadata.managedFields in the printed objects.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub show_managed_fields: bool,
    /// Update the live snapshot files in place; new objects go into the first --live directory.
    #[arg(long)]
    pub write: bool,
    #[command(flatten)]
    pub mode: super::client_side::ModeArgs,
}

/// What the API server would do with one apply request.
pub enum Outcome {
    Applied {
        object: Value,
        changed: bool,
    },
    /// The object is left as it was.
    Conflicts {
        conflicts: Vec<ConflictDetail>,
        message: String,
    },
    /// The server refuses the object (validation, decoding, preconditions); it is left as it
    /// was.
    Invalid {
        error: StatusError,
    },
}

/// Where to point a conflict message: the manifest's first conflicting field.
pub fn conflict_origin(manifest: &Object, conflicts: &[ConflictDetail]) -> String {
    let path = conflicts
        .first()
        .map(|c| c.path.to_string())
        .unwrap_or_default();
    manifest.origin.at(&path, Anchor::Key)
}

/// One manifest's predicted result.
pub struct Predicted<'a> {
    pub pair: &'a Pair,
    pub live: Option<&'a Value>,
    /// Fields of the live snapshot that the server's decoding drops.
    pub dropped: &'a [String],
    pub outcome: Outcome,
    /// The server's warnings (`Warning: <text>` on stderr), their texts.
    pub warnings: Vec<String>,
}

/// The texts of the server's `Warning: …` lines among printed warnings.
pub fn server_warnings(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("Warning: "))
        .map(str::to_string)
        .collect()
}

/// Runs every apply request, with a progress bar on a terminal for large inputs.
pub fn predict<'a>(loaded: &'a Loaded, args: &ApplyArgs) -> anyhow::Result<Vec<Predicted<'a>>> {
    let now = resolve_now(args.now.as_deref())?;
    let bar = (loaded.pairs.len() > 300 && std::io::stderr().is_terminal())
        .then(|| indicatif::ProgressBar::new(loaded.pairs.len() as u64));
    let mut out = Vec::with_capacity(loaded.pairs.len());
    let mut errors = Vec::new();
    for pair in &loaded.pairs {
        let mut warnings = Vec::new();
        let predicted = predict_one(pair, &loaded.live, args, &now, &mut warnings);
        for w in warnings {
            eprintln!("{w}");
        }
        match predicted {
            Ok(p) => out.push(p),
            Err(e) => errors.push(e),
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    anyhow::ensure!(errors.is_empty(), "{}", errors.join("\nerror: "));
    Ok(out)
}

/// One apply request; an error names the input to blame. The server's and kubectl's warnings
/// go to `warnings`, as printed lines.
pub fn predict_one<'a>(
    pair: &'a Pair,
    live_objects: &'a [LiveObject],
    args: &ApplyArgs,
    now: &str,
    warnings: &mut Vec<String>,
) -> Result<Predicted<'a>, String> {
    let live = pair.live.map(|i| &live_objects[i].object.value);
    match server_apply(
        live,
        &pair.manifest.value,
        &pair.resolved,
        args,
        now,
        warnings,
    ) {
        Ok(outcome) => Ok(Predicted {
            pair,
            live,
            dropped: pair.live.map_or(&[][..], |i| &live_objects[i].dropped),
            outcome,
            warnings: server_warnings(warnings),
        }),
        Err(e) => {
            // Blame the live snapshot, at its first bad node, when it is the object that
            // does not fit its schema.
            let typed = Typed::new(&pair.resolved.schema, &pair.resolved.type_ref);
            let blamed = pair.live.and_then(|i| {
                let o = &live_objects[i].object;
                let errs = typed.validate(&o.value, true).err()?;
                let (node, anchor) = errs.0.first().map(validation_node)?;
                Some(o.origin.at(&node, anchor))
            });
            let at = blamed.unwrap_or_else(|| pair.manifest.origin.to_string());
            Err(format!("{at}: {e}"))
        }
    }
}

pub(super) fn without_managed_fields(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.shift_remove("managedFields");
    }
    v
}

/// One apply request through the API server's write path.
fn server_apply(
    live: Option<&Value>,
    manifest: &Value,
    kind: &ResolvedKind,
    args: &ApplyArgs,
    now: &str,
    warnings: &mut Vec<String>,
) -> Result<Outcome, WriteError> {
    let req = WriteRequest {
        operation: Operation::Apply,
        manager: &args.field_manager,
        force: args.force_conflicts,
        subresource: args.subresource.as_deref().unwrap_or(""),
        now,
        reset_fields: true,
        normalize_unions: args.store.normalize_unions,
        defaulting: !args.store.no_defaults,
        validation: Some(args.validate.mode),
        managed_fields: args.managed_fields,
        patch: None,
    };
    // As `kubectl apply --server-side`: the server's apply, then kubectl's own follow-ups.
    match kssa::managed::kubectl::apply(live, manifest, kind, &req) {
        Ok(kubectl) => {
            let o = kubectl.outcome;
            warnings.extend(o.warnings);
            warnings.extend(kubectl.warnings.iter().map(|w| format!("warning: {w}")));
            Ok(Outcome::Applied {
                changed: o.changed || o.managed_fields_changed,
                object: o.object,
            })
        }
        Err(WriteError::Conflicts { conflicts, message }) => {
            Ok(Outcome::Conflicts { conflicts, message })
        }
        Err(WriteError::Refused(error, sent)) => {
            warnings.extend(sent);
            Ok(Outcome::Invalid { error })
        }
        Err(e) => Err(e),
    }
}

/// A new object for one document (and list item) of a live file.
type DocumentChange<'v> = (usize, Option<usize>, &'v Value);

/// `--write`: changed live objects replace their documents; new ones go to the first
/// directory given with --live. Everything is prepared before the first write.
pub(super) fn write_back(
    loaded: &Loaded,
    results: &[Predicted],
    args: &InputArgs,
) -> anyhow::Result<()> {
    let mut per_file: BTreeMap<usize, Vec<DocumentChange>> = BTreeMap::new();
    let mut new_files: Vec<(PathBuf, String)> = Vec::new();
    let new_dir = args.live.iter().find(|p| p.is_dir());
    for r in results {
        let Outcome::Applied {
            object,
            changed: true,
        } = &r.outcome
        else {
            continue;
        };
        match r.pair.live {
            Some(i) => {
                let lo = &loaded.live[i];
                let file = lo
                    .file
                    .context("a live object read from stdin cannot be written back")?;
                per_file.entry(file).or_default().push((
                    lo.object.origin.document,
                    lo.object.origin.item,
                    object,
                ));
            }
            None => {
                let dir =
                    new_dir.context("--write needs a --live directory to put new objects in")?;
                let m = &r.pair.manifest;
                let path = new_object_path(
                    dir,
                    m.group(),
                    m.kind(),
                    object
                        .get_path(&["metadata", "namespace"])
                        .and_then(Value::as_str)
                        .unwrap_or(""),
                    m.name(),
                );
                anyhow::ensure!(
                    !path.exists(),
                    "{}: already exists; not overwriting it with a new object",
                    path.display()
                );
                new_files.push((path, to_yaml_string(object)));
            }
        }
    }
    let mut writes = new_files;
    for (file, changes) in per_file {
        let lf = &loaded.live_files[file];
        let docs = kssa::yaml::parse_stream(lf.text.as_bytes())?;
        let mut values: Vec<Value> = docs.into_iter().map(|d| d.value).collect();
        let mut touched = Vec::new();
        for (doc, item, object) in changes {
            let slot = match item {
                Some(i) => values[doc]
                    .as_map_mut()
                    .and_then(|m| m.get_mut("items"))
                    .and_then(|v| match v {
                        Value::List(l) => l.get_mut(i),
                        _ => None,
                    }),
                None => values.get_mut(doc),
            }
            .context("live document moved while applying")?;
            *slot = object.clone();
            if !touched.contains(&doc) {
                touched.push(doc);
            }
        }
        let replacements: Vec<(usize, String)> = touched
            .iter()
            .map(|&d| (d, to_yaml_string(&values[d])))
            .collect();
        let text = match rewrite_documents(&lf.text, &replacements) {
            Some(t) => t,
            None if lf.text.trim_start().starts_with('{') && values.len() == 1 => {
                to_json_string_pretty(&values[0]) + "\n"
            }
            None => values
                .iter()
                .map(to_yaml_string)
                .collect::<Vec<_>>()
                .join("---\n"),
        };
        writes.push((lf.path.clone(), text));
    }
    for (path, text) in writes {
        write_atomic(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Without `--write`, and for output that needs no count of the objects, each object is
/// printed as it comes through the pipeline, so memory does not grow with the input.
fn run_streaming(args: Args) -> anyhow::Result<Status> {
    let mut loaded = Loaded::load_streaming(&args.inputs, false, !args.apply.store.no_defaults)?;
    let format = match args.output {
        ApplyOutput::Name => OutputFormat::Name,
        _ => OutputFormat::Yaml,
    };
    let (mut out, mut err) = (Held::new(), Held::new());
    let (mut conflicts, mut invalid) = (0, 0);
    let mut printed = 0;
    for_each_predicted(
        &mut loaded,
        &args.apply,
        |r| match &mut r.outcome {
            Outcome::Applied { object, .. } if args.show_managed_fields => {
                Shown::Object(render_objects(&[object], format))
            }
            Outcome::Applied { object, .. } => {
                Shown::Object(without_managed_fields_in_place(object, |o| {
                    render_objects(&[o], format)
                }))
            }
            Outcome::Conflicts { message, .. } => {
                Shown::Conflict(format!("error: {}: {message}\n", r.pair.manifest.origin))
            }
            Outcome::Invalid { error } => {
                Shown::Invalid(refused::error_line(&r.pair.manifest.origin, error))
            }
        },
        |shown| {
            match shown {
                Shown::Object(text) => {
                    if printed > 0 && format == OutputFormat::Yaml {
                        out.push("---\n")?;
                    }
                    printed += 1;
                    out.push(&text)?;
                }
                Shown::Conflict(line) => {
                    conflicts += 1;
                    err.push(&line)?;
                }
                Shown::Invalid(line) => {
                    invalid += 1;
                    err.push(&line)?;
                }
            }
            Ok(())
        },
    )?;
    err.write_to(&mut std::io::stderr().lock())?;
    let mut stdout = std::io::stdout().lock();
    out.write_to(&mut stdout)?;
    stdout.flush()?;
    Ok(finish(conflicts, invalid))
}

/// One object's output in the streaming pipeline.
enum Shown {
    Object(String),
    Conflict(String),
    Invalid(String),
}

/// The closing lines and status of an apply.
fn finish(conflicts: usize, invalid: usize) -> Status {
    eprint!("{}", refused::not_applied(conflicts, invalid));
    if conflicts + invalid > 0 {
        Status::Found
    } else {
        Status::Clean
    }
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let client_side = args.mode.client_side()?;
    let report = args.output.report();
    if !client_side && !args.write && args.output != ApplyOutput::Json && report.is_none() {
        return run_streaming(args);
    }
    let loaded = guarded("apply", report, &args.apply, || {
        Loaded::load_with(&args.inputs, false, !args.apply.store.no_defaults)
    })?;
    for n in &loaded.notices {
        eprintln!("{n}");
    }
    if client_side {
        return super::client_side::run_apply(&args, &loaded);
    }
    let results = guarded("apply", report, &args.apply, || {
        predict(&loaded, &args.apply)
    })?;
    let mut shown = Vec::new();
    let (mut conflicts, mut invalid) = (0, 0);
    for r in &results {
        match &r.outcome {
            Outcome::Applied { object, .. } => shown.push(if args.show_managed_fields {
                object.clone()
            } else {
                without_managed_fields(object)
            }),
            Outcome::Conflicts {
                message,
                conflicts: details,
            } => {
                conflicts += 1;
                let at = conflict_origin(&r.pair.manifest, details);
                eprintln!("error: {at}: {message}");
            }
            Outcome::Invalid { error } => {
                invalid += 1;
                eprint!("{}", refused::error_line(&r.pair.manifest.origin, error));
            }
        }
    }
    let format = match args.output {
        ApplyOutput::Yaml => Some(OutputFormat::Yaml),
        ApplyOutput::Json => Some(OutputFormat::Json),
        ApplyOutput::Name => Some(OutputFormat::Name),
        ApplyOutput::Sarif | ApplyOutput::Junit => None,
    };
    if let Some(format) = format {
        let refs: Vec<&Value> = shown.iter().collect();
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(render_objects(&refs, format).as_bytes())?;
        stdout.flush()?;
    }
    if let Some(report) = report {
        emit(
            &findings_of("apply", &results, &args.apply, false),
            report,
            &args.apply,
        )?;
    }
    if args.write {
        write_back(&loaded, &results, &args.inputs)?;
    }
    Ok(finish(conflicts, invalid))
}
