//! The change set of a diff: per-object outcome, the closing summary line, a JSON document for
//! machines and GitHub workflow annotations.

use super::changes::{field_changes_value, ignored_changes_value};
use crate::changes::FieldChange;
use crate::ignore::IgnoredChange;
use crate::value::{to_json_string_pretty, Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Created,
    Changed,
    Unchanged,
    /// The apply would fail on conflicts; the object would not change.
    Conflicts,
    /// The server would refuse the object (validation, decoding, preconditions); it would
    /// not change.
    Invalid,
    /// A live object `--prune` would delete.
    Deleted,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Created => "created",
            ChangeKind::Changed => "changed",
            ChangeKind::Unchanged => "unchanged",
            ChangeKind::Conflicts => "conflicts",
            ChangeKind::Invalid => "invalid",
            ChangeKind::Deleted => "deleted",
        }
    }
}

/// One object's outcome.
#[derive(Debug, Clone)]
pub struct ObjectChange {
    /// `[group.]version.Kind.namespace.name`.
    pub name: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    pub namespace: String,
    pub object_name: String,
    /// The manifest's file and 1-based line.
    pub file: String,
    pub line: usize,
    pub change: ChangeKind,
    /// The unified diff (uncoloured, masked as shown).
    pub diff: String,
    /// Conflicting fields, with the managers that own them.
    pub conflicts: Vec<FieldConflict>,
    /// The changed fields (masked as shown), without those ignore rules left out.
    pub fields: Vec<FieldChange>,
    /// The changes ignore rules left out.
    pub ignored: Vec<IgnoredChange>,
    /// Why the server refuses an invalid object: one finding per field.
    pub invalid: Vec<Finding>,
    /// The warnings the server sends back for a valid write, on the fields they name.
    pub warnings: Vec<Finding>,
}

/// One refusal of a field of an object, renderer-neutral: the field path as the server prints
/// it (empty for the whole request), the message as kubectl prints it, and where the manifest
/// sets the field (1-based; the object's start when the manifest does not have it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: String,
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// One conflicting field: its path, its owners, and where the manifest sets it.
#[derive(Debug, Clone)]
pub struct FieldConflict {
    pub path: String,
    pub managers: Vec<String>,
    /// 1-based line and column of the field's key in the manifest.
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub created: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub conflicts: usize,
    pub invalid: usize,
    pub deleted: usize,
}

impl Summary {
    pub fn of(changes: &[ObjectChange]) -> Summary {
        let mut s = Summary::default();
        for c in changes {
            s.count(c.change);
        }
        s
    }

    /// Counts one more object.
    pub fn count(&mut self, change: ChangeKind) {
        match change {
            ChangeKind::Created => self.created += 1,
            ChangeKind::Changed => self.changed += 1,
            ChangeKind::Unchanged => self.unchanged += 1,
            ChangeKind::Conflicts => self.conflicts += 1,
            ChangeKind::Invalid => self.invalid += 1,
            ChangeKind::Deleted => self.deleted += 1,
        }
    }

    /// Anything `kubectl diff` would exit 1 for.
    pub fn has_differences(&self) -> bool {
        self.created + self.changed + self.conflicts + self.deleted + self.invalid > 0
    }
}

/// `N created, N changed, N unchanged, N with conflicts`, then `, N deleted` when a prune
/// deletes anything and `, N invalid` when the server would refuse objects.
pub fn summary_line(s: &Summary) -> String {
    let deleted = if s.deleted > 0 {
        format!(", {} deleted", s.deleted)
    } else {
        String::new()
    };
    let invalid = if s.invalid > 0 {
        format!(", {} invalid", s.invalid)
    } else {
        String::new()
    };
    format!(
        "{} created, {} changed, {} unchanged, {} with conflicts{deleted}{invalid}\n",
        s.created, s.changed, s.unchanged, s.conflicts
    )
}

/// A machine-readable change set: `{"objects": [...], "summary": {...}}`.
pub fn render_changes_json(changes: &[ObjectChange]) -> String {
    let s = |t: &str| Value::from(t);
    let objects = changes
        .iter()
        .map(|c| {
            let mut m = Map::default();
            m.insert("name".into(), s(&c.name));
            m.insert("group".into(), s(&c.group));
            m.insert("version".into(), s(&c.version));
            m.insert("kind".into(), s(&c.kind));
            m.insert("namespace".into(), s(&c.namespace));
            m.insert("objectName".into(), s(&c.object_name));
            m.insert("file".into(), s(&c.file));
            m.insert("line".into(), Value::Int(c.line as i64));
            m.insert("change".into(), s(c.change.as_str()));
            m.insert("diff".into(), s(&c.diff));
            let conflicts = c
                .conflicts
                .iter()
                .map(|fc| {
                    let mut cm = Map::default();
                    cm.insert("path".into(), s(&fc.path));
                    cm.insert(
                        "managers".into(),
                        Value::List(fc.managers.iter().map(|m| s(m)).collect()),
                    );
                    cm.insert("line".into(), Value::Int(fc.line as i64));
                    cm.insert("column".into(), Value::Int(fc.column as i64));
                    Value::Map(cm)
                })
                .collect();
            m.insert("conflicts".into(), Value::List(conflicts));
            if !c.invalid.is_empty() {
                m.insert("invalid".into(), findings_value(&c.invalid));
            }
            if !c.warnings.is_empty() {
                m.insert("warnings".into(), findings_value(&c.warnings));
            }
            m.insert("changes".into(), field_changes_value(&c.fields));
            m.insert("ignored".into(), ignored_changes_value(&c.ignored));
            Value::Map(m)
        })
        .collect();
    let sum = Summary::of(changes);
    let mut sm = Map::default();
    for (k, n) in [
        ("created", sum.created),
        ("changed", sum.changed),
        ("unchanged", sum.unchanged),
        ("conflicts", sum.conflicts),
        ("deleted", sum.deleted),
    ] {
        sm.insert(k.into(), Value::Int(n as i64));
    }
    if sum.invalid > 0 {
        sm.insert("invalid".into(), Value::Int(sum.invalid as i64));
    }
    let mut top = Map::default();
    top.insert("objects".into(), Value::List(objects));
    top.insert("summary".into(), Value::Map(sm));
    to_json_string_pretty(&Value::Map(top)) + "\n"
}

/// Findings as JSON: `{path, message}` each.
fn findings_value(findings: &[Finding]) -> Value {
    let list = findings
        .iter()
        .map(|f| {
            let mut fm = Map::default();
            fm.insert("path".into(), Value::from(f.path.as_str()));
            fm.insert("message".into(), Value::from(f.message.as_str()));
            Value::Map(fm)
        })
        .collect();
    Value::List(list)
}

/// Escapes a workflow-command message (`%`, CR, LF) or property (also `:` and `,`).
fn escape(text: &str, property: bool) -> String {
    let mut out = text
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

/// One workflow command.
fn annotation(
    level: &str,
    file: &str,
    line: usize,
    col: Option<usize>,
    title: &str,
    message: &str,
) -> String {
    let col = col.map(|c| format!(",col={c}")).unwrap_or_default();
    format!(
        "::{level} file={},line={line}{col},title={}::{}\n",
        escape(file, true),
        escape(title, true),
        escape(message.trim_end(), false)
    )
}

/// GitHub Actions workflow commands: a notice per created or changed object (with its diff), an
/// error per conflicting field, on the line of the manifest that sets it, and per refusal of an
/// invalid object, and a warning per warning the server sends back, on the field it names.
pub fn render_github(changes: &[ObjectChange]) -> String {
    let mut out = String::new();
    for c in changes {
        let on_fields = |out: &mut String, findings: &[Finding], level, title, what: &str| {
            for f in findings {
                let message = format!("{}{what}{}", c.name, f.message);
                let col = Some(f.column);
                out.push_str(&annotation(level, &c.file, f.line, col, title, &message));
            }
        };
        on_fields(
            &mut out,
            &c.warnings,
            "warning",
            "kssa warning",
            ": Warning: ",
        );
        if c.change == ChangeKind::Invalid {
            on_fields(
                &mut out,
                &c.invalid,
                "error",
                "kssa invalid",
                " is invalid: ",
            );
            continue;
        }
        let (title, message) = match c.change {
            ChangeKind::Unchanged | ChangeKind::Invalid => continue,
            ChangeKind::Created => (
                "kssa diff",
                format!("{} will be created\n{}", c.name, c.diff),
            ),
            ChangeKind::Changed => ("kssa diff", format!("{} will change\n{}", c.name, c.diff)),
            ChangeKind::Deleted => ("kssa diff", format!("{} will be deleted (pruned)", c.name)),
            ChangeKind::Conflicts => {
                for fc in &c.conflicts {
                    let message = format!(
                        "{}: applying {} conflicts with {}",
                        c.name,
                        fc.path,
                        fc.managers.join(", ")
                    );
                    out.push_str(&annotation(
                        "error",
                        &c.file,
                        fc.line,
                        Some(fc.column),
                        "kssa conflicts",
                        &message,
                    ));
                }
                continue;
            }
        };
        out.push_str(&annotation(
            "notice", &c.file, c.line, None, title, &message,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: ChangeKind) -> ObjectChange {
        ObjectChange {
            name: "v1.ConfigMap.default.c".into(),
            group: String::new(),
            version: "v1".into(),
            kind: "ConfigMap".into(),
            namespace: "default".into(),
            object_name: "c".into(),
            file: "m.yaml".into(),
            line: 3,
            change: kind,
            diff: "-a\n+b\n".into(),
            conflicts: vec![FieldConflict {
                path: ".data.k".into(),
                managers: vec!["other".into()],
                line: 7,
                column: 3,
            }],
            invalid: vec![Finding {
                path: "data".into(),
                message: "data: Too long: may not be more than 1048576 bytes".into(),
                line: 4,
                column: 1,
            }],
            fields: Vec::new(),
            ignored: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn summary_counts_each_kind() {
        let cs = [
            change(ChangeKind::Created),
            change(ChangeKind::Unchanged),
            change(ChangeKind::Unchanged),
        ];
        assert_eq!(
            summary_line(&Summary::of(&cs)),
            "1 created, 0 changed, 2 unchanged, 0 with conflicts\n"
        );
        assert!(Summary::of(&cs).has_differences());
    }

    #[test]
    fn invalid_objects_are_counted_and_annotated() {
        let cs = [change(ChangeKind::Invalid), change(ChangeKind::Unchanged)];
        assert_eq!(
            summary_line(&Summary::of(&cs)),
            "0 created, 0 changed, 1 unchanged, 0 with conflicts, 1 invalid\n"
        );
        assert_eq!(
            render_github(&cs[..1]),
            "::error file=m.yaml,line=4,col=1,title=kssa invalid::v1.ConfigMap.default.c is invalid: data: Too long: may not be more than 1048576 bytes\n"
        );
    }

    #[test]
    fn github_annotations_escape_newlines() {
        let out = render_github(&[change(ChangeKind::Changed), change(ChangeKind::Conflicts)]);
        assert_eq!(
            out,
            "::notice file=m.yaml,line=3,title=kssa diff::v1.ConfigMap.default.c will change%0A-a%0A+b\n\
             ::error file=m.yaml,line=7,col=3,title=kssa conflicts::v1.ConfigMap.default.c: applying .data.k conflicts with other\n"
        );
    }

    #[test]
    fn warnings_are_annotated_on_their_fields() {
        let mut c = change(ChangeKind::Unchanged);
        c.warnings = vec![Finding {
            path: "spec.x".into(),
            message: "spec.x: deprecated".into(),
            line: 9,
            column: 5,
        }];
        assert_eq!(
            render_github(&[c.clone()]),
            "::warning file=m.yaml,line=9,col=5,title=kssa warning::v1.ConfigMap.default.c: Warning: spec.x: deprecated\n"
        );
        assert!(render_changes_json(&[c]).contains("\"warnings\": ["));
    }
}
