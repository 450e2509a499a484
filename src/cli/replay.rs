//! `kssa replay FILE|DIR...`: runs scenario files and checks their expectations. Exit 0 when
//! every expectation holds, 1 on any mismatch, 2 on bad input.

use super::managers::registry;
use super::Status;
use anyhow::{bail, Context};
use kssa::io::{expand_paths, read_text, Source, Stdin};
use kssa::managed::Operation;
use kssa::replay::{
    self, line_diff, report_to_value, DiffLine, Scenario, ScenarioReport, StepResult,
};
use kssa::value::{to_json_string_pretty, Value};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario files (JSON or YAML), or directories of them (*.json, *.yaml, *.yml).
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Schema documents to add to the built-in kinds (CRDs, OpenAPI documents, SMD schema YAML).
    #[arg(long = "schema", value_name = "FILE")]
    pub schemas: Vec<PathBuf>,
    /// Print one JSON report per run instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub kube: super::version::KubeVersionArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let registry = registry(&args.schemas, args.kube.kube_version)?;
    let files = scenario_files(&args.paths)?;
    let mut reports = Vec::new();
    let mut stdin = Stdin::default();
    for file in &files {
        let text = read_text(file, &mut stdin)?;
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("scenario");
        let scenario =
            Scenario::parse(&text, stem).with_context(|| format!("{}", file.display()))?;
        // A scenario's `options.kubeVersion` overrides `--kube-version`.
        let registry = match scenario.options.kube_version {
            Some(v) => registry.with_version(v),
            None => registry.clone(),
        };
        reports.push((
            file.display().to_string(),
            replay::run(&scenario, &registry),
        ));
    }
    if args.json {
        let list = reports.iter().map(|(f, r)| report_to_value(f, r)).collect();
        println!("{}", to_json_string_pretty(&Value::List(list)));
    } else {
        for (file, report) in &reports {
            print!("{}", render(file, report));
        }
        let failed = reports.iter().filter(|(_, r)| !r.passed()).count();
        println!(
            "{} scenarios, {} passed, {} failed",
            reports.len(),
            reports.len() - failed,
            failed
        );
    }
    Ok(if reports.iter().all(|(_, r)| r.passed()) {
        Status::Clean
    } else {
        Status::Found
    })
}

/// The files to run: files as given, directories' scenario files (`*.json`, `*.yaml`,
/// `*.yml`) sorted by name, through `io`'s path expansion.
fn scenario_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let (sources, errors) = expand_paths(std::slice::from_ref(p), false);
        if let Some(e) = errors.into_iter().next() {
            return Err(e.into());
        }
        let found: Vec<PathBuf> = sources
            .into_iter()
            .map(|s| match s {
                Source::File(f) => f,
                Source::Stdin => PathBuf::from("-"),
            })
            .collect();
        if found.is_empty() {
            bail!("{}: no scenario files (*.json, *.yaml, *.yml)", p.display());
        }
        out.extend(found);
    }
    Ok(out)
}

fn render(file: &str, report: &ScenarioReport) -> String {
    let mut out = String::new();
    let verdict = if report.passed() { "PASS" } else { "FAIL" };
    out.push_str(&format!("{verdict} {} ({file})\n", report.name));
    for s in &report.steps {
        let op = match s.op {
            Operation::Apply if s.force => "force-apply",
            Operation::Apply => "apply",
            Operation::Update => "update",
        };
        let sub = if s.subresource.is_empty() {
            String::new()
        } else {
            format!(" [{}]", s.subresource)
        };
        let what = match &s.result {
            StepResult::Written {
                changed,
                managed_fields_changed,
            } => match (changed, managed_fields_changed) {
                (true, _) => "changed".to_string(),
                (false, true) => "ownership changed".to_string(),
                (false, false) => "no change".to_string(),
            },
            StepResult::Conflicts { message, .. } => {
                format!("conflicts: {}", message.replace('\n', "\n      "))
            }
            StepResult::Failed { message } => format!("error: {message}"),
        };
        out.push_str(&format!(
            "  step {} {op} by {}{sub}: {what}\n",
            s.index + 1,
            s.manager
        ));
        if let Some(n) = &s.notice {
            out.push_str(&format!("    note: {n}\n"));
        }
        for m in &s.mismatches {
            out.push_str(&format!(
                "    {} mismatch (- expected, + actual):\n",
                m.what
            ));
            out.push_str(&render_diff(&m.expected, &m.actual));
        }
    }
    out
}

/// Changed lines with two lines of context.
fn render_diff(expected: &str, actual: &str) -> String {
    let lines = line_diff(expected, actual);
    let near_change = |i: usize| {
        let lo = i.saturating_sub(2);
        let hi = (i + 3).min(lines.len());
        lines[lo..hi]
            .iter()
            .any(|l| !matches!(l, DiffLine::Same(_)))
    };
    let mut out = String::new();
    let mut skipped = false;
    for (i, l) in lines.iter().enumerate() {
        match l {
            DiffLine::Same(t) if near_change(i) => out.push_str(&format!("      {t}\n")),
            DiffLine::Same(_) => {
                if !skipped {
                    out.push_str("      ...\n");
                }
                skipped = true;
                continue;
            }
            DiffLine::Expected(t) => out.push_str(&format!("    - {t}\n")),
            DiffLine::Actual(t) => out.push_str(&format!("    + {t}\n")),
        }
        skipped = false;
    }
    out
}
