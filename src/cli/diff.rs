//! `kssa diff`: a unified diff per object from the live object to the predicted result, as
//! `kubectl diff --server-side` shows it, or an external program over LIVE/MERGED directories.

use super::apply::{conflict_origin, predict, Outcome, Predicted};
use super::exit::ExitArgs;
use super::ignore::IgnoreArgs;
use super::inputs::{ApplyArgs, InputArgs, Loaded};
use super::pipeline::{for_each_predicted, without_managed_fields_in_place, Held};
use super::prune::PruneArgs;
use super::report::{findings_of, guarded, report_text, ReportFormat};
use super::{refused, Status};
use anyhow::Context as _;
use kssa::changes::{entries_of, field_changes, FieldChange};
use kssa::ignore::{IgnoredChange, RuleSet};
use kssa::io::Anchor;
use kssa::render::{
    ignored_lines, mask_secrets, object_file_name, render_changes_json, render_github,
    summary_line, unified_diff, ChangeKind, FieldConflict, ObjectChange, Style, Summary,
};
use kssa::typed::Typed;
use kssa::value::Value;
use kssa::yaml::to_yaml_string;
use std::io::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffOutput {
    /// Unified diffs, then a summary line on stderr.
    Unified,
    /// A machine-readable change set.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// SARIF 2.1.0, for code scanning (GitHub shows each conflict at its field).
    Sarif,
    /// JUnit XML, a test case per object, for CI test reports.
    Junit,
}

impl DiffOutput {
    fn report(self) -> Option<ReportFormat> {
        match self {
            DiffOutput::Sarif => Some(ReportFormat::Sarif),
            DiffOutput::Junit => Some(ReportFormat::Junit),
            DiffOutput::Unified | DiffOutput::Json | DiffOutput::Github => None,
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
    #[arg(short = 'o', long, value_enum, default_value = "unified")]
    pub output: DiffOutput,
    /// Include metadata.managedFields in the diff.
    #[arg(long)]
    pub show_managed_fields: bool,
    /// Show Secret values instead of masking them.
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub prune: PruneArgs,
    #[command(flatten)]
    pub ignore: IgnoreArgs,
    #[command(flatten)]
    pub exit: ExitArgs,
    #[command(flatten)]
    pub mode: super::client_side::ModeArgs,
    /// Show, per object, where client-side and server-side apply of the manifest end
    /// differently (pruned or kept fields, silent overwrites versus conflicts, lists).
    #[arg(long, conflicts_with_all = ["client_side", "server_side", "show_patch"])]
    pub compare_modes: bool,
}

/// The LIVE and MERGED texts of one object, masked and trimmed as shown, and its changed
/// fields, without (and with) what ignore rules leave out.
struct Sides {
    name: String,
    live: String,
    merged: String,
    fields: Vec<FieldChange>,
    ignored: Vec<IgnoredChange>,
}

fn shown(v: &Value, managed: bool) -> Value {
    let mut v = v.clone();
    if !managed {
        if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
            meta.shift_remove("managedFields");
        }
    }
    v
}

fn sides(r: &Predicted, args: &Args, rules: &RuleSet) -> Sides {
    let m = &r.pair.manifest;
    let mut live = r.live.map(|v| shown(v, args.show_managed_fields));
    let mut merged = match &r.outcome {
        Outcome::Applied { object, .. } => Some(shown(object, args.show_managed_fields)),
        Outcome::Conflicts { .. } | Outcome::Invalid { .. } => live.clone(),
    };
    if !args.show_secrets {
        mask_secrets(live.as_mut(), merged.as_mut());
    }
    // A refused create has no merged object: its name comes from the manifest.
    let refused_new = r.live.is_none() && matches!(r.outcome, Outcome::Invalid { .. });
    let namespace = merged
        .as_ref()
        .or(refused_new.then_some(&m.value))
        .and_then(|v| v.get_path(&["metadata", "namespace"]))
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = object_file_name(m.group(), m.version(), m.kind(), namespace, m.name());
    let (mut fields, mut ignored) = (Vec::new(), Vec::new());
    if let Outcome::Applied { object, .. } = &r.outcome {
        let typed = Typed::new(&r.pair.resolved.schema, &r.pair.resolved.type_ref);
        let owners = entries_of(Some(object));
        fields = field_changes(&typed, live.as_ref(), merged.as_ref(), &owners).unwrap_or_default();
        if let (Some(l), Some(mg), false) = (&live, &merged, rules.is_empty()) {
            let filtered = rules.filter(l, mg, &entries_of(r.live), fields);
            eprint!("{}", ignored_lines(&name, &filtered.ignored));
            (fields, ignored) = (filtered.kept, filtered.ignored);
            (live, merged) = (Some(filtered.before), Some(filtered.after));
        }
    }
    Sides {
        name,
        live: live.as_ref().map(to_yaml_string).unwrap_or_default(),
        merged: merged.as_ref().map(to_yaml_string).unwrap_or_default(),
        fields,
        ignored,
    }
}

/// The pruned live objects as deletions.
fn deletions(loaded: &Loaded, pruned: &[usize], args: &Args) -> Vec<(Sides, ObjectChange)> {
    pruned
        .iter()
        .map(|&i| {
            let o = &loaded.live[i].object;
            let mut live = shown(&o.value, args.show_managed_fields);
            if !args.show_secrets {
                mask_secrets(Some(&mut live), None);
            }
            let name = object_file_name(o.group(), o.version(), o.kind(), o.namespace(), o.name());
            let text = to_yaml_string(&live);
            let fields = vec![kssa::changes::whole(Some(&live), None)];
            let change = ObjectChange {
                name: name.clone(),
                group: o.group().into(),
                version: o.version().into(),
                kind: o.kind().into(),
                namespace: o.namespace().into(),
                object_name: o.name().into(),
                file: o.origin.source.to_string(),
                line: o.origin.line,
                change: ChangeKind::Deleted,
                diff: unified_diff(&name, &text, "", Style::default()),
                conflicts: Vec::new(),
                fields: fields.clone(),
                ignored: Vec::new(),
                invalid: Vec::new(),
                warnings: Vec::new(),
            };
            let sides = Sides {
                name,
                live: text,
                merged: String::new(),
                fields,
                ignored: Vec::new(),
            };
            (sides, change)
        })
        .collect()
}

/// [`sides`] without copying the merged object; Secrets, which are masked, and runs that need
/// the changed fields (ignore rules, JSON output), take the copying way.
fn sides_in_place(r: &mut Predicted, args: &Args, rules: &RuleSet) -> Sides {
    let is_secret = |v: &Value| v.get("kind").and_then(Value::as_str) == Some("Secret");
    let merged_secret = matches!(&r.outcome, Outcome::Applied { object, .. } if is_secret(object));
    let needs_fields = !rules.is_empty() || args.output == DiffOutput::Json;
    if needs_fields || (!args.show_secrets && (merged_secret || r.live.is_some_and(is_secret))) {
        return sides(r, args, rules);
    }
    let managed = args.show_managed_fields;
    // A refused create has no merged object: its name comes from the manifest.
    let refused_new = r.live.is_none() && matches!(r.outcome, Outcome::Invalid { .. });
    let live = r.live.map_or_else(String::new, |v| {
        if managed || v.get_path(&["metadata", "managedFields"]).is_none() {
            to_yaml_string(v)
        } else {
            to_yaml_string(&shown(v, managed))
        }
    });
    let (merged, merged_value) = match &mut r.outcome {
        Outcome::Applied { object, .. } if managed => (to_yaml_string(object), Some(&*object)),
        Outcome::Applied { object, .. } => (
            without_managed_fields_in_place(object, to_yaml_string),
            Some(&*object),
        ),
        Outcome::Conflicts { .. } | Outcome::Invalid { .. } => (live.clone(), r.live),
    };
    let m = &r.pair.manifest;
    let namespace = merged_value
        .or(refused_new.then_some(&m.value))
        .and_then(|v| v.get_path(&["metadata", "namespace"]))
        .and_then(Value::as_str)
        .unwrap_or("");
    Sides {
        name: object_file_name(m.group(), m.version(), m.kind(), namespace, m.name()),
        live,
        merged,
        fields: Vec::new(),
        ignored: Vec::new(),
    }
}

/// Runs `KSSA_EXTERNAL_DIFF` or `KUBECTL_EXTERNAL_DIFF` as kubectl does: the command line split
/// on spaces, then the LIVE and MERGED directories. Its exit status 0 or 1 is ours.
fn external(program: &str, all: &[Sides]) -> anyhow::Result<Status> {
    let tmp = tempfile::tempdir()?;
    let (live_dir, merged_dir) = (tmp.path().join("LIVE"), tmp.path().join("MERGED"));
    std::fs::create_dir(&live_dir)?;
    std::fs::create_dir(&merged_dir)?;
    for s in all {
        std::fs::write(live_dir.join(&s.name), &s.live)?;
        std::fs::write(merged_dir.join(&s.name), &s.merged)?;
    }
    let mut words = program.split_whitespace();
    let cmd = words.next().context("the external diff command is empty")?;
    let status = std::process::Command::new(cmd)
        .args(words)
        .arg(&live_dir)
        .arg(&merged_dir)
        .status()
        .with_context(|| format!("running external diff {cmd:?}"))?;
    match status.code() {
        Some(0) => Ok(Status::Clean),
        Some(1) => Ok(Status::Found),
        _ => anyhow::bail!("external diff {cmd:?} failed: {status}"),
    }
}

/// What the diff says of one object, and the conflicting paths with their managers.
fn change_of(r: &Predicted, s: &Sides) -> (ChangeKind, Vec<FieldConflict>) {
    let m = &r.pair.manifest;
    match &r.outcome {
        Outcome::Conflicts { conflicts, .. } => {
            let mut fields: Vec<FieldConflict> = Vec::new();
            for c in conflicts {
                let p = c.path.to_string();
                match fields.iter_mut().find(|f| f.path == p) {
                    Some(f) => f.managers.push(c.manager.clone()),
                    None => {
                        let at = m.origin.position(&p, Anchor::Key);
                        fields.push(FieldConflict {
                            path: p,
                            managers: vec![c.manager.clone()],
                            line: at.line,
                            column: at.column,
                        })
                    }
                }
            }
            (ChangeKind::Conflicts, fields)
        }
        Outcome::Invalid { .. } => (ChangeKind::Invalid, Vec::new()),
        Outcome::Applied { .. } if r.live.is_none() => (ChangeKind::Created, Vec::new()),
        Outcome::Applied { .. } if s.live == s.merged => (ChangeKind::Unchanged, Vec::new()),
        Outcome::Applied { .. } => (ChangeKind::Changed, Vec::new()),
    }
}

/// The lines on stderr that go with an object's diff, if any: the fields of the live snapshot
/// the server's decoding drops, then its conflicts or the fields the server fills in.
fn notice_of(r: &Predicted, s: &Sides, change: ChangeKind, args: &Args) -> Option<String> {
    let dropped = (!r.dropped.is_empty() && args.output == DiffOutput::Unified)
        .then(|| format!("# server-dropped: {}: {}\n", s.name, r.dropped.join(" ")));
    let rest = notice_after_decoding(r, s, change, args);
    match (dropped, rest) {
        (Some(d), Some(r)) => Some(d + &r),
        (d, r) => d.or(r),
    }
}

fn notice_after_decoding(
    r: &Predicted,
    s: &Sides,
    change: ChangeKind,
    args: &Args,
) -> Option<String> {
    let m = &r.pair.manifest;
    match (&r.outcome, args.apply.store.no_defaults, change) {
        (Outcome::Conflicts { conflicts, message }, _, _) => {
            let at = conflict_origin(m, conflicts);
            Some(format!("conflict: {at}: {message}\n"))
        }
        (Outcome::Invalid { error }, _, _) => Some(refused::error_line(&m.origin, error)),
        (Outcome::Applied { object, .. }, false, ChangeKind::Created | ChangeKind::Changed) => {
            let filled = kssa::defaults::server_filled(&m.value, r.live, object);
            (!filled.is_empty() && args.output == DiffOutput::Unified)
                .then(|| ["# server-filled: ", &s.name, ": ", &filled.join(" "), "\n"].concat())
        }
        _ => None,
    }
}

/// Unified output, object by object through the pipeline: memory does not grow with the input.
fn run_streaming(args: Args, rules: RuleSet, color: bool) -> anyhow::Result<Status> {
    let mut loaded = Loaded::load_streaming(&args.inputs, false, !args.apply.store.no_defaults)?;
    let style = Style { color };
    let (mut out, mut err) = (Held::new(), Held::new());
    let mut summary = Summary::default();
    // Only shown managedFields and ignore rules (which weigh owners) read them.
    let apply = ApplyArgs {
        managed_fields: args.show_managed_fields || !rules.is_empty(),
        ..args.apply.clone()
    };
    for_each_predicted(
        &mut loaded,
        &apply,
        |r| {
            let s = sides_in_place(r, &args, &rules);
            let (change, _) = change_of(r, &s);
            let notice = notice_of(r, &s, change, &args);
            (
                change,
                notice,
                unified_diff(&s.name, &s.live, &s.merged, style),
            )
        },
        |(change, notice, text)| {
            summary.count(change);
            if let Some(line) = notice {
                err.push(&line)?;
            }
            Ok(out.push(&text)?)
        },
    )?;
    err.write_to(&mut std::io::stderr().lock())?;
    let mut stdout = std::io::stdout().lock();
    out.write_to(&mut stdout)?;
    stdout.flush()?;
    eprint!("{}", summary_line(&summary));
    Ok(args.exit.status(summary.has_differences()))
}

pub fn run(args: Args, color: bool) -> anyhow::Result<Status> {
    if args.compare_modes {
        return super::client_side::run_compare(&args);
    }
    let client_side = args.mode.client_side()?;
    let program = ["KSSA_EXTERNAL_DIFF", "KUBECTL_EXTERNAL_DIFF"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()));
    let rules = args.ignore.load()?;
    // Prune and ignore rules need every object at once: they take the sequential way.
    if !client_side
        && program.is_none()
        && args.output == DiffOutput::Unified
        && !args.prune.prune
        && rules.is_empty()
    {
        return run_streaming(args, rules, color);
    }
    let report = args.output.report();
    let mut loaded = guarded("diff", report, &args.apply, || {
        Loaded::load_with(&args.inputs, false, !args.apply.store.no_defaults)
    })?;
    let (pruned, notes) = args.prune.prepare(&mut loaded, args.inputs.namespace())?;
    for n in loaded.notices.iter().chain(&notes) {
        eprintln!("{n}");
    }
    let results = guarded("diff", report, &args.apply, || {
        if client_side {
            super::client_side::predict_for_diff(&loaded, &args.apply, &args.mode)
        } else {
            predict(&loaded, &args.apply)
        }
    })?;
    let mut all: Vec<Sides> = results.iter().map(|r| sides(r, &args, &rules)).collect();
    let deleted = deletions(&loaded, &pruned.live, &args);
    all.extend(deleted.iter().map(|(s, _)| Sides {
        name: s.name.clone(),
        live: s.live.clone(),
        merged: String::new(),
        fields: Vec::new(),
        ignored: Vec::new(),
    }));
    if let (Some(program), DiffOutput::Unified) = (&program, args.output) {
        return external(program, &all).map(|s| args.exit.status(s == Status::Found));
    }
    let style = Style {
        color: color && args.output == DiffOutput::Unified,
    };
    let mut text = String::new();
    let mut changes = Vec::new();
    for (r, s) in results.iter().zip(&all) {
        let m = &r.pair.manifest;
        let (change, conflicts) = change_of(r, s);
        if args.output == DiffOutput::Unified {
            text.push_str(&unified_diff(&s.name, &s.live, &s.merged, style));
        }
        if let Some(line) = notice_of(r, s, change, &args) {
            eprint!("{line}");
        }
        changes.push(ObjectChange {
            name: s.name.clone(),
            group: m.group().into(),
            version: m.version().into(),
            kind: m.kind().into(),
            namespace: s.name.split('.').rev().nth(1).unwrap_or("").into(),
            object_name: m.name().into(),
            file: m.origin.source.to_string(),
            line: m.origin.line,
            change,
            diff: unified_diff(&s.name, &s.live, &s.merged, Style::default()),
            conflicts,
            fields: s.fields.clone(),
            ignored: s.ignored.clone(),
            invalid: match &r.outcome {
                Outcome::Invalid { error } => refused::findings(error, &m.origin),
                _ => Vec::new(),
            },
            warnings: refused::warning_findings(&r.warnings, &m.origin),
        });
    }
    for (s, change) in deleted {
        text.push_str(&unified_diff(&s.name, &s.live, "", style));
        changes.push(change);
    }
    let summary = Summary::of(&changes);
    let mut stdout = std::io::stdout().lock();
    match args.output {
        DiffOutput::Unified => {
            stdout.write_all(text.as_bytes())?;
            eprint!("{}", summary_line(&summary));
        }
        DiffOutput::Json => stdout.write_all(render_changes_json(&changes).as_bytes())?,
        DiffOutput::Github => {
            stdout.write_all(render_github(&changes).as_bytes())?;
            stdout.write_all(summary_line(&summary).as_bytes())?;
        }
        DiffOutput::Sarif | DiffOutput::Junit => {
            if let Some(format) = report {
                let findings = findings_of("diff", &results, &args.apply, args.show_secrets);
                stdout.write_all(report_text(&findings, format, &args.apply)?.as_bytes())?;
            }
            eprint!("{}", summary_line(&summary));
        }
    }
    stdout.flush()?;
    Ok(args.exit.status(summary.has_differences()))
}
