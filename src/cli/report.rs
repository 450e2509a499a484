//! `-o sarif` and `-o junit` on `diff`, `conflicts` and `apply`: what a run found, as findings
//! with rule ids and file:line:column, for code scanning and CI test reports. The exit code is
//! the command's own, whatever the format.

use super::apply::{Outcome, Predicted};
use super::inputs::{resolve_now, ApplyArgs, InputErrors};
use kssa::io::Anchor;
use kssa::io::{InputError, Origin, Position, Source};
use kssa::render::{
    object_file_name, render_conflicts_text, render_junit, render_sarif, CheckedObject,
    ConflictReport, Diagnostic, Diagnostics, Level, Location, Rule, Style,
};
use kssa::validate::{Reason, StatusError};
use kssa::value::Value;
use std::io::Write as _;
use std::path::Path;

/// The CI report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Sarif,
    Junit,
}

/// A file as SARIF and JUnit name it: relative to the working directory when it is below it (as
/// GitHub code scanning resolves paths from the repository root, where CI runs). `None` for
/// stdin, which has no file to point at.
pub fn artifact_file(source: &Source) -> Option<String> {
    let Source::File(path) = source else {
        return None;
    };
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf));
    let shown = relative.as_deref().unwrap_or(path);
    Some(shown.to_string_lossy().trim_start_matches("./").to_string())
}

/// Where a field path of an object is in its manifest: the key of the deepest node of the path
/// that the manifest has. Conflict paths are kssa's (`.spec.replicas`), the server's field
/// errors have no leading dot (`spec.replicas`, `<nil>` for the whole object).
pub fn field_position(origin: &Origin, path: &str) -> Position {
    origin.position(&object_path(path), Anchor::Key)
}

/// [`field_position`] as text: `file:line:column: document N`.
pub fn field_at(origin: &Origin, path: &str) -> String {
    origin.at(&object_path(path), Anchor::Key)
}

/// A field path in kssa's form (`.spec.replicas`; empty for the whole object).
fn object_path(path: &str) -> String {
    match path {
        "" | "<nil>" => String::new(),
        p if p.starts_with('.') => p.to_string(),
        p => format!(".{p}"),
    }
}

/// [`field_position`] as a report location (none for standard input).
pub fn locate(origin: &Origin, path: &str) -> Option<Location> {
    let at = field_position(origin, path);
    Some(Location {
        file: artifact_file(&origin.source)?,
        line: at.line,
        column: at.column,
    })
}

/// One input error, located as precisely as it says.
fn input_diagnostic(input: Option<&InputError>, message: String) -> Diagnostic {
    let file = |f: &str| Location {
        file: artifact_file(&Source::File(f.into())).unwrap_or_else(|| f.to_string()),
        line: 1,
        column: 1,
    };
    let location = match input {
        Some(InputError::Invalid { origin, path, .. }) => locate(origin, path),
        Some(InputError::Yaml { file: f, error }) => Some(Location {
            line: error.line.max(1),
            ..file(f)
        }),
        Some(InputError::Read { path, .. }) => Some(file(path)),
        Some(InputError::Binary { file: f, .. }) => Some(file(f)),
        Some(InputError::Other(_)) | None => None,
    };
    Diagnostic {
        rule: Rule::InvalidInput,
        level: Level::Error,
        message,
        object: None,
        location: location.filter(|l| l.file != "<stdin>"),
    }
}

/// An error that stopped the run (files that do not read, documents that do not parse, objects
/// that are not manifests): one diagnostic per input error it carries.
pub fn input_errors(error: &anyhow::Error) -> Vec<Diagnostic> {
    for cause in error.chain() {
        if let Some(InputErrors(all)) = cause.downcast_ref::<InputErrors>() {
            return all
                .iter()
                .map(|e| input_diagnostic(Some(e), e.to_string()))
                .collect();
        }
        if let Some(e) = cause.downcast_ref::<InputError>() {
            return vec![input_diagnostic(Some(e), format!("{error:#}"))];
        }
    }
    vec![input_diagnostic(None, format!("{error:#}"))]
}

/// One finding per conflicting field, each with the whole explanation `kssa conflicts` prints
/// for it: the owners, why they own it, and the ways out.
pub fn conflict_findings(report: &ConflictReport, origin: &Origin) -> Vec<Diagnostic> {
    report
        .items
        .iter()
        .map(|item| {
            let single = ConflictReport {
                items: vec![item.clone()],
                ..report.clone()
            };
            Diagnostic {
                rule: Rule::Conflict,
                level: Level::Error,
                message: render_conflicts_text(&[single], Style::default()),
                object: Some(report.name.clone()),
                location: locate(origin, &item.path),
            }
        })
        .collect()
}

/// A refusal by the API server, one diagnostic per field error (the whole message when there is
/// one), under the rule of its HTTP status: 422 invalid object, 409 precondition.
fn refusal_diagnostics(error: &StatusError, origin: &Origin, object: &str) -> Vec<Diagnostic> {
    let rule = match error.reason {
        Reason::Conflict => Rule::Precondition,
        Reason::BadRequest => Rule::InvalidInput,
        Reason::Invalid
        | Reason::NotFound
        | Reason::MethodNotAllowed
        | Reason::Unknown
        | Reason::RequestEntityTooLarge => Rule::InvalidObject,
    };
    let causes = error.findings();
    let single = causes.len() == 1;
    causes
        .into_iter()
        .map(|(path, message)| Diagnostic {
            rule,
            level: Level::Error,
            message: if single {
                error.kubectl_message()
            } else {
                message
            },
            object: Some(object.to_string()),
            location: locate(origin, &path),
        })
        .collect()
}

/// The findings of a run's predictions: every object checked, its conflicts explained.
pub fn findings_of(
    command: &str,
    results: &[Predicted],
    apply: &ApplyArgs,
    show_secrets: bool,
) -> Diagnostics {
    let objects = results
        .iter()
        .map(|r| {
            let m = &r.pair.manifest;
            let namespace = m
                .value
                .get_path(&["metadata", "namespace"])
                .and_then(Value::as_str)
                .unwrap_or("");
            let object = object_file_name(m.group(), m.version(), m.kind(), namespace, m.name());
            let findings = match &r.outcome {
                Outcome::Conflicts { .. } => super::conflicts::report_of(r, apply, show_secrets)
                    .map(|report| conflict_findings(&report, &m.origin))
                    .unwrap_or_default(),
                Outcome::Invalid { error } => refusal_diagnostics(error, &m.origin, &object),
                Outcome::Applied { .. } => r
                    .warnings
                    .iter()
                    .map(|w| Diagnostic {
                        rule: Rule::ServerWarning,
                        level: Level::Warning,
                        message: format!("Warning: {w}"),
                        object: Some(object.clone()),
                        location: locate(&m.origin, super::refused::warning_path(w)),
                    })
                    .collect(),
            };
            CheckedObject {
                object,
                file: artifact_file(&m.origin.source).unwrap_or_else(|| "<stdin>".into()),
                findings,
            }
        })
        .collect();
    Diagnostics {
        command: command.into(),
        objects,
        input_errors: Vec::new(),
    }
}

/// The findings in `format`.
pub fn report_text(
    findings: &Diagnostics,
    format: ReportFormat,
    apply: &ApplyArgs,
) -> anyhow::Result<String> {
    Ok(match format {
        ReportFormat::Sarif => render_sarif(findings),
        ReportFormat::Junit => {
            let now = resolve_now(apply.now.as_deref())?;
            // RFC 3339 without the zone and fraction, as the JUnit schema's timestamp wants it.
            render_junit(findings, now.get(..19).unwrap_or(&now))
        }
    })
}

/// Prints the findings in `format` on stdout.
pub fn emit(findings: &Diagnostics, format: ReportFormat, apply: &ApplyArgs) -> anyhow::Result<()> {
    let text = report_text(findings, format, apply)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Runs a command's work; when it fails and a report was asked for, the report still comes out
/// (with the error as a finding) before the error ends the run with exit code 2.
pub fn guarded<T>(
    command: &str,
    format: Option<ReportFormat>,
    apply: &ApplyArgs,
    work: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let outcome = work();
    if let (Err(e), Some(format)) = (&outcome, format) {
        let findings = Diagnostics {
            command: command.into(),
            objects: Vec::new(),
            input_errors: input_errors(e),
        };
        emit(&findings, format, apply)?;
    }
    outcome
}
