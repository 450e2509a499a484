//! Diagnostics for CI reports: each problem kssa finds (a conflict, an input it cannot read, and
//! later an invalid object) as a rule id, a level, the message the human output prints, the
//! object and where it is, so `-o sarif` and `-o junit` render the same facts.

use serde_sarif::sarif;

/// What kind of problem a finding is; each has a stable id, documented in the README.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// Server-side apply stops on a field another manager owns (HTTP 409 Conflict).
    Conflict,
    /// A file or document kssa cannot read, or an object that is not a valid manifest.
    InvalidInput,
    /// The API server rejects the object (HTTP 422 Unprocessable Entity): validation.
    InvalidObject,
    /// A precondition does not hold (HTTP 409, e.g. a resourceVersion or UID mismatch).
    Precondition,
    /// The API server accepts the object with a warning (kubectl's `Warning: …`).
    ServerWarning,
}

impl Rule {
    /// Every rule, in the order SARIF lists them (a result's `ruleIndex` points into it).
    pub const ALL: [Rule; 5] = [
        Rule::Conflict,
        Rule::InvalidInput,
        Rule::InvalidObject,
        Rule::Precondition,
        Rule::ServerWarning,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Rule::Conflict => "kssa/conflict",
            Rule::InvalidInput => "kssa/invalid-input",
            Rule::InvalidObject => "kssa/invalid-object",
            Rule::Precondition => "kssa/precondition",
            Rule::ServerWarning => "kssa/server-warning",
        }
    }

    /// The rule's name in SARIF (PascalCase, as the format suggests).
    fn name(self) -> &'static str {
        match self {
            Rule::Conflict => "ApplyConflict",
            Rule::InvalidInput => "InvalidInput",
            Rule::InvalidObject => "InvalidObject",
            Rule::Precondition => "PreconditionFailed",
            Rule::ServerWarning => "ServerWarning",
        }
    }

    fn short_description(self) -> &'static str {
        match self {
            Rule::Conflict => "Server-side apply would stop on a field another manager owns",
            Rule::InvalidInput => "An input file, document or manifest cannot be read",
            Rule::InvalidObject => "The API server would reject the object as invalid",
            Rule::Precondition => "A precondition of the write does not hold",
            Rule::ServerWarning => "The API server would accept the object with a warning",
        }
    }

    /// The README section that explains the rule.
    fn help_anchor(self) -> &'static str {
        match self {
            Rule::Conflict => "rule-kssaconflict",
            Rule::InvalidInput => "rule-kssainvalid-input",
            Rule::InvalidObject => "rule-kssainvalid-object",
            Rule::Precondition => "rule-kssaprecondition",
            Rule::ServerWarning => "rule-kssaserver-warning",
        }
    }

    pub fn help_uri(self) -> String {
        format!("{}#{}", env!("CARGO_PKG_REPOSITORY"), self.help_anchor())
    }

    fn index(self) -> usize {
        Rule::ALL.iter().position(|r| *r == self).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// A 1-based place in a file, as given on the command line (relative to the working directory
/// when it is below it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// One problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub rule: Rule,
    pub level: Level,
    /// The text the human output prints for it.
    pub message: String,
    /// `[group.]version.Kind.namespace.name`, when the finding is about an object.
    pub object: Option<String>,
    /// `None` for input without a file (stdin) or a problem with no place.
    pub location: Option<Location>,
}

/// One object a command looked at, with what it found there (nothing: it passed).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedObject {
    pub object: String,
    /// The manifest's file, as in [`Location::file`].
    pub file: String,
    pub findings: Vec<Diagnostic>,
}

/// Everything one run reports: the objects it checked and the inputs it could not read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diagnostics {
    /// `diff`, `conflicts` or `apply`.
    pub command: String,
    pub objects: Vec<CheckedObject>,
    /// Problems with no object to pin them on: a file or document that does not read.
    pub input_errors: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Every finding, objects' first.
    pub fn all(&self) -> impl Iterator<Item = &Diagnostic> {
        self.objects
            .iter()
            .flat_map(|o| &o.findings)
            .chain(&self.input_errors)
    }
}

/// A relative path as a URI reference: `/` separators, and the characters a URI reserves
/// percent-encoded. Absolute paths become `file://` URIs.
fn uri_of(file: &str) -> String {
    let slashed = file.replace('\\', "/");
    let mut out = String::with_capacity(slashed.len());
    for b in slashed.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    let out = out.trim_start_matches("./").to_string();
    if slashed.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

fn sarif_level(level: Level) -> sarif::ResultLevel {
    match level {
        Level::Error => sarif::ResultLevel::Error,
        Level::Warning => sarif::ResultLevel::Warning,
        Level::Note => sarif::ResultLevel::Note,
    }
}

fn sarif_result(f: &Diagnostic) -> sarif::Result {
    let physical = f.location.as_ref().map(|l| {
        sarif::PhysicalLocation::builder()
            .artifact_location(
                sarif::ArtifactLocation::builder()
                    .uri(uri_of(&l.file))
                    .build(),
            )
            .region(
                sarif::Region::builder()
                    .start_line(l.line.max(1) as i64)
                    .start_column(l.column.max(1) as i64)
                    .build(),
            )
            .build()
    });
    let logical = f.object.as_ref().map(|o| {
        vec![sarif::LogicalLocation::builder()
            .fully_qualified_name(o.clone())
            .kind("object".to_string())
            .build()]
    });
    let location = match (physical, logical) {
        (None, None) => None,
        (Some(p), Some(l)) => Some(
            sarif::Location::builder()
                .physical_location(p)
                .logical_locations(l)
                .build(),
        ),
        (Some(p), None) => Some(sarif::Location::builder().physical_location(p).build()),
        (None, Some(l)) => Some(sarif::Location::builder().logical_locations(l).build()),
    };
    let message = sarif::Message::builder()
        .text(f.message.trim_end().to_string())
        .build();
    let result = sarif::Result::builder()
        .rule_id(f.rule.id().to_string())
        .rule_index(f.rule.index() as i64)
        .level(sarif_level(f.level))
        .message(message);
    match location {
        Some(l) => result.locations(vec![l]).build(),
        None => result.build(),
    }
}

fn sarif_rule(rule: Rule) -> sarif::ReportingDescriptor {
    sarif::ReportingDescriptor::builder()
        .id(rule.id().to_string())
        .name(rule.name().to_string())
        .short_description(
            sarif::MultiformatMessageString::builder()
                .text(rule.short_description().to_string())
                .build(),
        )
        .help_uri(rule.help_uri())
        .build()
}

/// The findings as a SARIF 2.1.0 log with one run; every rule is listed, found or not.
pub fn render_sarif(findings: &Diagnostics) -> String {
    let driver = sarif::ToolComponent::builder()
        .name("kssa".to_string())
        .version(env!("CARGO_PKG_VERSION").to_string())
        .semantic_version(env!("CARGO_PKG_VERSION").to_string())
        .information_uri(env!("CARGO_PKG_REPOSITORY").to_string())
        .rules(Rule::ALL.iter().map(|r| sarif_rule(*r)).collect::<Vec<_>>())
        .build();
    let invocation = sarif::Invocation::builder()
        .execution_successful(findings.input_errors.is_empty())
        .command_line(format!("kssa {}", findings.command))
        .build();
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .invocations(vec![invocation])
        .results(findings.all().map(sarif_result).collect::<Vec<_>>())
        .build();
    let log = sarif::Sarif::builder()
        .schema(sarif::SCHEMA_URL.to_string())
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conflict() -> Diagnostics {
        Diagnostics {
            command: "diff".into(),
            objects: vec![CheckedObject {
                object: "apps.v1.Deployment.default.web".into(),
                file: "deploy/web app.yaml".into(),
                findings: vec![Diagnostic {
                    rule: Rule::Conflict,
                    level: Level::Error,
                    message: "conflict with \"hpa\"\n".into(),
                    object: Some("apps.v1.Deployment.default.web".into()),
                    location: Some(Location {
                        file: "deploy/web app.yaml".into(),
                        line: 7,
                        column: 3,
                    }),
                }],
            }],
            input_errors: Vec::new(),
        }
    }

    #[test]
    fn results_carry_rule_level_and_region() {
        let log: serde_json::Value = serde_json::from_str(&render_sarif(&conflict())).unwrap();
        let result = &log["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "kssa/conflict");
        assert_eq!(result["ruleIndex"], 0);
        assert_eq!(result["level"], "error");
        assert_eq!(result["message"]["text"], "conflict with \"hpa\"");
        let physical = &result["locations"][0]["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], "deploy/web%20app.yaml");
        assert_eq!(physical["region"]["startLine"], 7);
        assert_eq!(physical["region"]["startColumn"], 3);
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), Rule::ALL.len());
        assert_eq!(rules[1]["id"], "kssa/invalid-input");
    }

    #[test]
    fn uris_are_relative_references() {
        assert_eq!(uri_of("./a/b.yaml"), "a/b.yaml");
        assert_eq!(uri_of("a\\b#1.yaml"), "a/b%231.yaml");
        assert_eq!(uri_of("/abs/x.yaml"), "file:///abs/x.yaml");
    }
}
