//! `kssa conflicts`: the conflicts an apply would hit, who owns each field and how, the API
//! server's message, and the three ways out from the server-side apply documentation.

use super::apply::{predict, Outcome, Predicted};
use super::exit::ExitArgs;
use super::inputs::{ApplyArgs, InputArgs, Loaded};
use super::report::{findings_of, guarded, report_text, ReportFormat};
use super::{refused, Status};
use kssa::io::Anchor;
use kssa::kube::VersionConverter;
use kssa::merge::Converter;
use kssa::render::{
    is_secret_path, masked, object_file_name, render_conflicts_json, render_conflicts_text,
    value_at, ConflictItem, ConflictReport, Owner, Style,
};
use kssa::value::Value;
use std::io::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code scanning (GitHub shows each conflict at its field).
    Sarif,
    /// JUnit XML, a test case per object, for CI test reports.
    Junit,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub apply: ApplyArgs,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "text")]
    pub output: Format,
    /// Show Secret `data`/`stringData` values instead of `***`.
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub exit: ExitArgs,
}

fn force_command(file: &str, args: &ApplyArgs) -> String {
    let mut cmd = format!(
        "kubectl apply --server-side --field-manager={} --force-conflicts",
        args.field_manager
    );
    if let Some(s) = &args.subresource {
        cmd.push_str(&format!(" --subresource={s}"));
    }
    cmd.push_str(&format!(" -f {file}"));
    cmd
}

/// The explanation of one prediction's conflicts, if it has any.
pub(super) fn report_of(
    r: &Predicted,
    apply: &ApplyArgs,
    show_secrets: bool,
) -> Option<ConflictReport> {
    let Outcome::Conflicts { conflicts, message } = &r.outcome else {
        return None;
    };
    let m = &r.pair.manifest;
    // A conflict's path is in its owner's version: show both values at that version.
    let converter = VersionConverter::for_kind(&r.pair.resolved).ok();
    let at_version = |v: &Value, to: &str| -> Option<Value> {
        let from = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match &converter {
            Some(c) if !to.is_empty() && from != to => c.convert(v, from, to).ok(),
            _ => Some(v.clone()),
        }
    };
    let mut items: Vec<ConflictItem> = Vec::new();
    for c in conflicts {
        let mine_at = at_version(&m.value, &c.api_version);
        let live_at = r.live.and_then(|l| at_version(l, &c.api_version));
        let owner = Owner {
            manager: c.manager.clone(),
            operation: c.operation.to_string(),
            api_version: c.api_version.clone(),
            subresource: c.subresource.clone(),
            time: c.time.clone(),
        };
        let path = c.path.to_string();
        let hide = !show_secrets && is_secret_path(&m.value, &c.path);
        let shown = |v: Option<&Value>| v.map(|v| if hide { masked() } else { v.clone() });
        match items.iter_mut().find(|i| i.path == path) {
            Some(i) => i.owners.push(owner),
            None => {
                let at = m.origin.position(&path, Anchor::Key);
                items.push(ConflictItem {
                    path,
                    mine: shown(mine_at.as_ref().and_then(|v| value_at(v, &c.path))),
                    live: shown(live_at.as_ref().and_then(|l| value_at(l, &c.path))),
                    owners: vec![owner],
                    line: at.line,
                    column: at.column,
                })
            }
        }
    }
    let file = m.origin.source.to_string();
    let start = m.origin.position("", Anchor::Value);
    Some(ConflictReport {
        name: object_file_name(
            m.group(),
            m.version(),
            m.kind(),
            m.value
                .get_path(&["metadata", "namespace"])
                .and_then(Value::as_str)
                .unwrap_or(""),
            m.name(),
        ),
        force_command: force_command(&file, apply),
        file,
        line: start.line,
        column: start.column,
        field_manager: apply.field_manager.clone(),
        message: message.clone(),
        items,
    })
}

pub fn run(args: Args, color: bool) -> anyhow::Result<Status> {
    let report = match args.output {
        Format::Sarif => Some(ReportFormat::Sarif),
        Format::Junit => Some(ReportFormat::Junit),
        Format::Text | Format::Json => None,
    };
    let loaded = guarded("conflicts", report, &args.apply, || {
        Loaded::load_with(&args.inputs, false, !args.apply.store.no_defaults)
    })?;
    for n in &loaded.notices {
        eprintln!("{n}");
    }
    let results = guarded("conflicts", report, &args.apply, || {
        predict(&loaded, &args.apply)
    })?;
    let mut reports = Vec::new();
    let mut invalid = 0;
    for r in &results {
        if let Outcome::Invalid { error } = &r.outcome {
            // Refused before any conflict could arise: reported as `apply` reports it.
            invalid += 1;
            eprint!("{}", refused::error_line(&r.pair.manifest.origin, error));
            continue;
        }
        reports.extend(report_of(r, &args.apply, args.show_secrets));
    }
    let ci_report = |format| {
        let findings = findings_of("conflicts", &results, &args.apply, args.show_secrets);
        report_text(&findings, format, &args.apply)
    };
    let text = match args.output {
        Format::Json => render_conflicts_json(&reports),
        Format::Text if reports.is_empty() && invalid == 0 => format!(
            "No conflicts: {} object(s) apply cleanly as {:?}.\n",
            results.len(),
            args.apply.field_manager
        ),
        Format::Text if reports.is_empty() => format!(
            "No conflicts; {invalid} of {} object(s) are invalid.\n",
            results.len()
        ),
        Format::Text => render_conflicts_text(&reports, Style { color }),
        Format::Sarif => ci_report(ReportFormat::Sarif)?,
        Format::Junit => ci_report(ReportFormat::Junit)?,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(args.exit.status(!reports.is_empty() || invalid > 0))
}
