//! How the subcommands report objects the API server would refuse (issue 14): like conflicts —
//! not applied or diffed, one `error:` per object in kubectl's words, counted in the closing
//! summary, exit 1.

use kssa::io::Origin;
use kssa::render::Finding;
use kssa::validate::StatusError;
use std::fmt::Display;

/// `error: <position>: <kubectl's message>`, ending in a newline; the position is the first
/// refused field's in the manifest (the object's start when the refusal names no field).
pub fn error_line(origin: &Origin, error: &StatusError) -> String {
    let first = error.findings().into_iter().next().map(|(path, _)| path);
    let at = super::report::field_at(origin, first.as_deref().unwrap_or(""));
    error_line_at(&at, error)
}

/// `error: <place>: <kubectl's message>`, ending in a newline.
pub fn error_line_at(place: &impl Display, error: &StatusError) -> String {
    format!("error: {place}: {}\n", error.kubectl_message())
}

/// The refusal as renderer-neutral findings, one per field, at the field in the manifest.
pub fn findings(error: &StatusError, origin: &Origin) -> Vec<Finding> {
    error
        .findings()
        .into_iter()
        .map(|(path, message)| {
            let at = super::report::field_position(origin, &path);
            Finding {
                path,
                message,
                line: at.line,
                column: at.column,
            }
        })
        .collect()
}

/// The warnings the server sends back for an object, placed on the field each names when it
/// starts with a field path (`spec.template.spec.nodeSelector[…]: deprecated …`), else on the
/// object.
pub fn warning_findings(warnings: &[String], origin: &Origin) -> Vec<Finding> {
    warnings
        .iter()
        .map(|text| {
            let path = warning_path(text);
            let at = super::report::field_position(origin, path);
            Finding {
                path: path.to_string(),
                message: text.clone(),
                line: at.line,
                column: at.column,
            }
        })
        .collect()
}

/// The field path a warning starts with (the text before `: `, when it has no spaces), or "".
pub fn warning_path(text: &str) -> &str {
    text.split_once(": ")
        .map(|(head, _)| head)
        .filter(|head| !head.contains(' '))
        .unwrap_or("")
}

/// The closing lines of `apply` for objects that were not applied.
pub fn not_applied(conflicts: usize, invalid: usize) -> String {
    let mut out = String::new();
    if conflicts > 0 {
        out.push_str(&format!("{conflicts} object(s) had conflicts and were not changed; see `kssa conflicts` for the ways out\n"));
    }
    if invalid > 0 {
        out.push_str(&format!(
            "{invalid} object(s) are invalid and were not changed\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::warning_path;

    #[test]
    fn a_warning_names_its_field_when_it_starts_with_a_path() {
        assert_eq!(
            warning_path(
                "spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14"
            ),
            "spec.template.spec.nodeSelector[beta.kubernetes.io/os]"
        );
        assert_eq!(
            warning_path(
                "volume \"config\" (ConfigMap \"envoy\"): overlapping paths: \"a\" with \"a\""
            ),
            ""
        );
    }
}
