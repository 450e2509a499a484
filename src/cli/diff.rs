//! `kssa diff`: a unified diff per object from the live object to the predicted result, as
//! `kubectl diff --server-side` shows it, or an external program over LIVE/MERGED directories.

use super::apply::{predict, Outcome, Predicted};
use super::inputs::{ApplyArgs, InputArgs, Loaded};
use super::Status;
use anyhow::Context as _;
use kssa::render::{
    mask_secrets, object_file_name, render_changes_json, render_github, summary_line, unified_diff,
    ChangeKind, ObjectChange, Style, Summary,
};
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
    pub mode: super::client_side::ModeArgs,
    /// Show, per object, where client-side and server-side apply of the manifest end
    /// differently (pruned or kept fields, silent overwrites versus conflicts, lists).
    #[arg(long, conflicts_with_all = ["client_side", "server_side", "show_patch"])]
    pub compare_modes: bool,
}

/// The LIVE and MERGED texts of one object, masked and trimmed as shown.
struct Sides {
    name: String,
    live: String,
    merged: String,
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

fn sides(r: &Predicted, args: &Args) -> Sides {
    let m = &r.pair.manifest;
    let mut live = r.live.map(|v| shown(v, args.show_managed_fields));
    let mut merged = match &r.outcome {
        Outcome::Applied { object, .. } => Some(shown(object, args.show_managed_fields)),
        Outcome::Conflicts { .. } => live.clone(),
    };
    if !args.show_secrets {
        mask_secrets(live.as_mut(), merged.as_mut());
    }
    let namespace = merged
        .as_ref()
        .and_then(|v| v.get_path(&["metadata", "namespace"]))
        .and_then(Value::as_str)
        .unwrap_or("");
    Sides {
        name: object_file_name(m.group(), m.version(), m.kind(), namespace, m.name()),
        live: live.as_ref().map(to_yaml_string).unwrap_or_default(),
        merged: merged.as_ref().map(to_yaml_string).unwrap_or_default(),
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

pub fn run(args: Args, color: bool) -> anyhow::Result<Status> {
    if args.compare_modes {
        return super::client_side::run_compare(&args);
    }
    let client_side = args.mode.client_side()?;
    let loaded = Loaded::load_with(&args.inputs, !client_side, !args.apply.store.no_defaults)?;
    for n in &loaded.notices {
        eprintln!("{n}");
    }
    let results = if client_side {
        super::client_side::predict_for_diff(&loaded, &args.apply, &args.mode)?
    } else {
        predict(&loaded, &args.apply)?
    };
    let all: Vec<Sides> = results.iter().map(|r| sides(r, &args)).collect();
    let program = ["KSSA_EXTERNAL_DIFF", "KUBECTL_EXTERNAL_DIFF"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()));
    if let (Some(program), DiffOutput::Unified) = (&program, args.output) {
        return external(program, &all);
    }
    let style = Style {
        color: color && args.output == DiffOutput::Unified,
    };
    let mut text = String::new();
    let mut changes = Vec::new();
    for (r, s) in results.iter().zip(&all) {
        let m = &r.pair.manifest;
        let (change, conflicts) = match &r.outcome {
            Outcome::Conflicts { conflicts, message } => {
                eprintln!("conflict: {}: {message}", m.origin);
                let mut paths: Vec<(String, Vec<String>)> = Vec::new();
                for c in conflicts {
                    let p = c.path.to_string();
                    match paths.iter_mut().find(|(q, _)| *q == p) {
                        Some((_, ms)) => ms.push(c.manager.clone()),
                        None => paths.push((p, vec![c.manager.clone()])),
                    }
                }
                (ChangeKind::Conflicts, paths)
            }
            Outcome::Applied { .. } if r.live.is_none() => (ChangeKind::Created, Vec::new()),
            Outcome::Applied { .. } if s.live == s.merged => (ChangeKind::Unchanged, Vec::new()),
            Outcome::Applied { .. } => (ChangeKind::Changed, Vec::new()),
        };
        text.push_str(&unified_diff(&s.name, &s.live, &s.merged, style));
        let dropped = r.pair.live.map_or(&[][..], |i| &loaded.live[i].dropped);
        if !dropped.is_empty() && args.output == DiffOutput::Unified {
            eprintln!("# server-dropped: {}: {}", s.name, dropped.join(" "));
        }
        if let (Outcome::Applied { object, .. }, false, ChangeKind::Created | ChangeKind::Changed) =
            (&r.outcome, args.apply.store.no_defaults, &change)
        {
            let filled = kssa::defaults::server_filled(&m.value, r.live, object);
            if !filled.is_empty() && args.output == DiffOutput::Unified {
                eprintln!("# server-filled: {}: {}", s.name, filled.join(" "));
            }
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
        });
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
    }
    stdout.flush()?;
    Ok(if summary.has_differences() {
        Status::Found
    } else {
        Status::Clean
    })
}
