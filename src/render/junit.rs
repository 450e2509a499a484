//! Diagnostics as a JUnit XML report (the Apache Ant format CI systems read): a `testsuite` per
//! input file, a `testcase` per object, a `failure` for each object with findings and an
//! `error` for an input that cannot be read.

use super::findings::{Diagnostic, Diagnostics, Level};

/// Text for XML 1.0: markup characters escaped; control characters XML cannot carry (colour
/// codes, say) dropped. In attributes, line breaks and tabs are kept as character references.
fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' if attribute => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' | '\r' | '\t' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// The first line of a message, for the `message` attribute; the whole text goes in the body.
fn headline(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

/// One `<failure>` or `<error>` element holding a run of findings.
fn problem(element: &str, findings: &[&Diagnostic]) -> String {
    let Some(first) = findings.first() else {
        return String::new();
    };
    let body: Vec<String> = findings
        .iter()
        .map(|f| {
            let at = f
                .location
                .as_ref()
                .map(|l| format!("{}:{}:{}: ", l.file, l.line, l.column))
                .unwrap_or_default();
            format!("{at}{}", f.message.trim_end())
        })
        .collect();
    format!(
        "      <{element} message=\"{}\" type=\"{}\">{}</{element}>\n",
        escape(headline(&first.message), true),
        escape(first.rule.id(), true),
        escape(&body.join("\n\n"), false)
    )
}

struct Case {
    name: String,
    classname: String,
    failure: Vec<Diagnostic>,
    error: Vec<Diagnostic>,
}

struct Suite {
    file: String,
    cases: Vec<Case>,
}

fn suites(findings: &Diagnostics) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    let mut suite_of = |file: &str| -> usize {
        match suites.iter().position(|s| s.file == file) {
            Some(i) => i,
            None => {
                suites.push(Suite {
                    file: file.to_string(),
                    cases: Vec::new(),
                });
                suites.len() - 1
            }
        }
    };
    let mut placed: Vec<(usize, Case)> = Vec::new();
    for o in &findings.objects {
        let i = suite_of(&o.file);
        placed.push((
            i,
            Case {
                name: o.object.clone(),
                classname: format!("kssa.{}", findings.command),
                // A warning does not fail the object's test case.
                failure: o
                    .findings
                    .iter()
                    .filter(|f| f.level != Level::Warning)
                    .cloned()
                    .collect(),
                error: Vec::new(),
            },
        ));
    }
    for e in &findings.input_errors {
        let file = e.location.as_ref().map_or("kssa", |l| l.file.as_str());
        let i = suite_of(file);
        placed.push((
            i,
            Case {
                name: format!("read {file}"),
                classname: format!("kssa.{}", findings.command),
                failure: Vec::new(),
                error: vec![e.clone()],
            },
        ));
    }
    for (i, case) in placed {
        suites[i].cases.push(case);
    }
    suites
}

/// The report. `timestamp` is when the run happened (`YYYY-MM-DDTHH:MM:SS`, as the schema
/// wants it: no zone). kssa does not time objects one by one, so every `time` is 0.
pub fn render_junit(findings: &Diagnostics, timestamp: &str) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for (id, suite) in suites(findings).iter().enumerate() {
        let failures = suite.cases.iter().filter(|c| !c.failure.is_empty()).count();
        let errors = suite.cases.iter().filter(|c| !c.error.is_empty()).count();
        out.push_str(&format!(
            "  <testsuite name=\"{name}\" package=\"kssa.{command}\" id=\"{id}\" timestamp=\"{timestamp}\" \
             hostname=\"localhost\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" \
             skipped=\"0\" time=\"0\">\n    <properties/>\n",
            name = escape(&suite.file, true),
            command = escape(&findings.command, true),
            tests = suite.cases.len(),
        ));
        for case in &suite.cases {
            let open = format!(
                "    <testcase name=\"{}\" classname=\"{}\" time=\"0\"",
                escape(&case.name, true),
                escape(&case.classname, true)
            );
            if case.failure.is_empty() && case.error.is_empty() {
                out.push_str(&open);
                out.push_str("/>\n");
                continue;
            }
            out.push_str(&open);
            out.push_str(">\n");
            // The schema allows one child per testcase: an error outranks failures.
            if case.error.is_empty() {
                out.push_str(&problem(
                    "failure",
                    &case.failure.iter().collect::<Vec<_>>(),
                ));
            } else {
                out.push_str(&problem("error", &case.error.iter().collect::<Vec<_>>()));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("    <system-out/>\n    <system-err/>\n  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::findings::{CheckedObject, Level, Location, Rule};
    use super::*;

    fn finding(rule: Rule, file: &str) -> Diagnostic {
        Diagnostic {
            rule,
            level: Level::Error,
            message: "first <line>\nsecond & \u{1b}[31mred\u{1b}[0m".into(),
            object: None,
            location: Some(Location {
                file: file.into(),
                line: 4,
                column: 5,
            }),
        }
    }

    #[test]
    fn suite_per_file_case_per_object() {
        let report = Diagnostics {
            command: "diff".into(),
            objects: vec![
                CheckedObject {
                    object: "v1.ConfigMap.default.a".into(),
                    file: "a.yaml".into(),
                    findings: vec![finding(Rule::Conflict, "a.yaml")],
                },
                CheckedObject {
                    object: "v1.ConfigMap.default.b".into(),
                    file: "a.yaml".into(),
                    findings: Vec::new(),
                },
            ],
            input_errors: vec![finding(Rule::InvalidInput, "b.yaml")],
        };
        let xml = render_junit(&report, "2024-01-01T00:00:00");
        assert!(xml.contains("<testsuite name=\"a.yaml\" package=\"kssa.diff\" id=\"0\""));
        assert!(xml.contains("tests=\"2\" failures=\"1\" errors=\"0\""));
        assert!(xml.contains("<testsuite name=\"b.yaml\" package=\"kssa.diff\" id=\"1\""));
        assert!(xml.contains(
            "<failure message=\"first &lt;line&gt;\" type=\"kssa/conflict\">a.yaml:4:5: first &lt;line&gt;\nsecond &amp; [31mred[0m</failure>"
        ));
        assert!(xml.contains("<error message=\"first &lt;line&gt;\" type=\"kssa/invalid-input\">"));
        assert!(!xml.contains('\u{1b}'));
    }
}
