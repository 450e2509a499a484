//! Findings for CI tools: a problem at `file:line:column` under a rule id (a conflict, invalid
//! input, and the validation work's field errors), rendered as SARIF 2.1.0 for code scanning.

use super::conflicts::ConflictReport;
use super::report::{ChangeKind, ObjectChange};
use serde_sarif::sarif;

/// What a finding is about; each is one SARIF rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Applying a field another manager owns.
    Conflict,
    /// A manifest or snapshot kubectl or the API server would refuse to read.
    InvalidInput,
    /// A field the API server's validation rejects (reserved for `src/validate/`).
    Validation,
}

impl Rule {
    pub const ALL: [Rule; 3] = [Rule::Conflict, Rule::InvalidInput, Rule::Validation];

    pub fn id(self) -> &'static str {
        match self {
            Rule::Conflict => "kssa/conflict",
            Rule::InvalidInput => "kssa/invalid-input",
            Rule::Validation => "kssa/validation",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Rule::Conflict => "Server-side apply would fail: the manifest sets a field another field manager owns with a different value",
            Rule::InvalidInput => "The manifest or live snapshot cannot be read as a Kubernetes object",
            Rule::Validation => "The API server's validation would reject a field of the object",
        }
    }
}

/// One problem, located at a node of an input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedFinding {
    pub rule: Rule,
    pub file: String,
    /// 1-based; 0 when the problem has no position in the file.
    pub line: usize,
    /// 1-based, in characters; 0 when unknown.
    pub column: usize,
    pub message: String,
}

/// One finding per conflicting field of each object, and per refusal of an invalid object (at
/// the object's first line: the server's field paths are not located in the manifest yet).
pub fn conflict_findings(changes: &[ObjectChange]) -> Vec<LocatedFinding> {
    let mut out = Vec::new();
    for c in changes.iter().filter(|c| c.change == ChangeKind::Invalid) {
        for f in &c.invalid {
            out.push(LocatedFinding {
                rule: Rule::Validation,
                file: c.file.clone(),
                line: c.line,
                column: 0,
                message: format!("{} is invalid: {}", c.name, f.message),
            });
        }
    }
    for c in changes.iter().filter(|c| c.change == ChangeKind::Conflicts) {
        for fc in &c.conflicts {
            out.push(LocatedFinding {
                rule: Rule::Conflict,
                file: c.file.clone(),
                line: fc.line,
                column: fc.column,
                message: format!(
                    "{}: applying {} conflicts with {}",
                    c.name,
                    fc.path,
                    fc.managers.join(", ")
                ),
            });
        }
    }
    out
}

/// One finding per conflicting field of each report of `kssa conflicts`.
pub fn conflict_report_findings(reports: &[ConflictReport]) -> Vec<LocatedFinding> {
    let mut out = Vec::new();
    for r in reports {
        for item in &r.items {
            let owners: Vec<&str> = item.owners.iter().map(|o| o.manager.as_str()).collect();
            out.push(LocatedFinding {
                rule: Rule::Conflict,
                file: r.file.clone(),
                line: item.line,
                column: item.column,
                message: format!(
                    "{}: applying {} conflicts with {}",
                    r.name,
                    item.path,
                    owners.join(", ")
                ),
            });
        }
    }
    out
}

/// A SARIF 2.1.0 log with one run of kssa, every rule declared, one result per finding.
pub fn render_sarif(findings: &[LocatedFinding]) -> String {
    let rules: Vec<sarif::ReportingDescriptor> = Rule::ALL
        .iter()
        .map(|r| {
            sarif::ReportingDescriptor::builder()
                .id(r.id())
                .short_description(
                    sarif::MultiformatMessageString::builder()
                        .text(r.description())
                        .build(),
                )
                .build()
        })
        .collect();
    let results: Vec<sarif::Result> = findings
        .iter()
        .map(|f| {
            let region = sarif::Region::builder().start_line(f.line.max(1) as i64);
            let region = match f.column {
                0 => region.build(),
                c => region.start_column(c as i64).build(),
            };
            let location = sarif::Location::builder()
                .physical_location(
                    sarif::PhysicalLocation::builder()
                        .artifact_location(sarif::ArtifactLocation::builder().uri(&f.file).build())
                        .region(region)
                        .build(),
                )
                .build();
            let index = Rule::ALL.iter().position(|r| *r == f.rule).unwrap_or(0);
            sarif::Result::builder()
                .rule_id(f.rule.id())
                .rule_index(index as i64)
                .level(sarif::ResultLevel::Error)
                .message(sarif::Message::builder().text(&f.message).build())
                .locations(vec![location])
                .build()
        })
        .collect();
    let tool = sarif::Tool::builder()
        .driver(
            sarif::ToolComponent::builder()
                .name("kssa")
                .information_uri("https://github.com/kssa/kssa")
                .rules(rules)
                .build(),
        )
        .build();
    let run = sarif::Run::builder().tool(tool).results(results).build();
    let log = sarif::Sarif::builder()
        .version(sarif::Version::V2_1_0.to_string())
        .schema(sarif::SCHEMA_URL)
        .runs(vec![run])
        .build();
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}
