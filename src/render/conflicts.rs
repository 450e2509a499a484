//! Explaining conflicts: each field, both values, every owner and how it came to own the field,
//! the API server's message, and the three ways out the server-side apply documentation gives.

use super::Style;
use crate::fieldpath::{Path, PathElement};
use crate::value::{to_json_string, to_json_string_pretty, Map, Value};

/// The value a field path names in an object, if it is there.
pub fn value_at<'v>(v: &'v Value, path: &Path) -> Option<&'v Value> {
    path.elements().iter().try_fold(v, |v, pe| match pe {
        PathElement::Field(name) => v.get(name),
        PathElement::Index(i) => v.as_list()?.get(*i),
        PathElement::Value(x) => v.as_list()?.iter().find(|item| *item == x),
        PathElement::Key(fields) => v
            .as_list()?
            .iter()
            .find(|item| fields.iter().all(|(k, kv)| item.get(k) == Some(kv))),
    })
}

/// A manager owning a conflicting field.
#[derive(Debug, Clone, PartialEq)]
pub struct Owner {
    pub manager: String,
    /// `Apply` or `Update`.
    pub operation: String,
    pub api_version: String,
    /// Empty for the main resource.
    pub subresource: String,
    pub time: Option<String>,
}

/// One conflicting field.
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictItem {
    /// As the API server prints it, e.g. `.spec.replicas`.
    pub path: String,
    /// The value in the manifest, when the path names a value.
    pub mine: Option<Value>,
    /// The value in the live object.
    pub live: Option<Value>,
    pub owners: Vec<Owner>,
    /// 1-based line and column of the field's key in the manifest.
    pub line: usize,
    pub column: usize,
}

/// The conflicts of one object's apply.
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictReport {
    /// `[group.]version.Kind.namespace.name`.
    pub name: String,
    pub file: String,
    /// 1-based line and column where the object starts in the manifest.
    pub line: usize,
    pub column: usize,
    pub field_manager: String,
    /// The API server's message, verbatim.
    pub message: String,
    pub items: Vec<ConflictItem>,
    /// The command that was run, rebuilt for the `--force-conflicts` way out.
    pub force_command: String,
}

fn show(v: &Option<Value>) -> String {
    match v {
        Some(v) => to_json_string(v),
        None => "(not set)".into(),
    }
}

/// How an owner came to own a field, in words.
fn why(owner: &Owner) -> String {
    let when = owner
        .time
        .as_deref()
        .map(|t| format!(" at {t}"))
        .unwrap_or_default();
    let via = match owner.subresource.as_str() {
        "" => String::new(),
        "scale" => {
            " through the scale subresource (as a HorizontalPodAutoscaler or `kubectl scale` does)"
                .into()
        }
        s => format!(" through the {s} subresource"),
    };
    match owner.operation.as_str() {
        "Apply" => format!(
            "{:?} applied this field (server-side apply, {}){via}{when} and still has it in its configuration",
            owner.manager, owner.api_version
        ),
        _ => format!(
            "{:?} wrote this field with an Update (a PUT or PATCH, {}; a controller or an imperative command such as `kubectl edit`){via}{when}",
            owner.manager, owner.api_version
        ),
    }
}

/// The human-readable explanation.
pub fn render_conflicts_text(reports: &[ConflictReport], style: Style) -> String {
    let mut out = String::new();
    for (n, r) in reports.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&style.bold(&r.name));
        out.push_str(&format!(" ({}:{}:{})\n", r.file, r.line, r.column));
        out.push_str("  API server: ");
        out.push_str(&style.red(&r.message.replace('\n', "\n    ")));
        out.push('\n');
        for item in &r.items {
            out.push('\n');
            out.push_str(&format!(
                "  {} ({}:{}:{})\n",
                style.yellow(&item.path),
                r.file,
                item.line,
                item.column
            ));
            out.push_str(&format!(
                "    your value ({}): {}\n",
                r.field_manager,
                show(&item.mine)
            ));
            out.push_str(&format!("    live value: {}\n", show(&item.live)));
            out.push_str("    owned by:\n");
            for o in &item.owners {
                let sub = if o.subresource.is_empty() {
                    "main resource"
                } else {
                    &o.subresource
                };
                let time = o.time.as_deref().unwrap_or("no time recorded");
                out.push_str(&format!(
                    "      - {} ({} {}, {}, {})\n        why: {}\n",
                    o.manager,
                    o.operation,
                    o.api_version,
                    sub,
                    time,
                    why(o)
                ));
            }
        }
        out.push_str("\n  Ways out:\n");
        out.push_str("    1. Overwrite the value and become the sole manager (the other managers lose these fields):\n");
        out.push_str(&format!("         {}\n", r.force_command));
        out.push_str(&format!(
            "    2. Keep the live value and give up your claim: remove from {} the field{}\n",
            r.file,
            if r.items.len() == 1 { "" } else { "s" }
        ));
        for item in &r.items {
            out.push_str(&format!("         {}\n", item.path));
        }
        out.push_str(&format!(
            "    3. Keep the live value and share ownership: set in {}\n",
            r.file
        ));
        for item in &r.items {
            out.push_str(&format!("         {}: {}\n", item.path, show(&item.live)));
        }
    }
    out
}

/// The same, as JSON: a list of objects with their conflicts and resolutions.
pub fn render_conflicts_json(reports: &[ConflictReport]) -> String {
    let s = |t: &str| Value::from(t);
    let list = reports
        .iter()
        .map(|r| {
            let mut m = Map::default();
            m.insert("name".into(), s(&r.name));
            m.insert("file".into(), s(&r.file));
            m.insert("line".into(), Value::Int(r.line as i64));
            m.insert("column".into(), Value::Int(r.column as i64));
            m.insert("fieldManager".into(), s(&r.field_manager));
            m.insert("message".into(), s(&r.message));
            let items = r
                .items
                .iter()
                .map(|i| {
                    let mut im = Map::default();
                    im.insert("path".into(), s(&i.path));
                    im.insert("line".into(), Value::Int(i.line as i64));
                    im.insert("column".into(), Value::Int(i.column as i64));
                    im.insert("yourValue".into(), i.mine.clone().unwrap_or_default());
                    im.insert("liveValue".into(), i.live.clone().unwrap_or_default());
                    let owners = i
                        .owners
                        .iter()
                        .map(|o| {
                            let mut om = Map::default();
                            om.insert("manager".into(), s(&o.manager));
                            om.insert("operation".into(), s(&o.operation));
                            om.insert("apiVersion".into(), s(&o.api_version));
                            om.insert("subresource".into(), s(&o.subresource));
                            om.insert("time".into(), o.time.as_deref().map_or(Value::Null, s));
                            om.insert("why".into(), s(&why(o)));
                            Value::Map(om)
                        })
                        .collect();
                    im.insert("owners".into(), Value::List(owners));
                    Value::Map(im)
                })
                .collect();
            m.insert("conflicts".into(), Value::List(items));
            let paths: Vec<Value> = r.items.iter().map(|i| s(&i.path)).collect();
            let mut force = Map::default();
            force.insert("action".into(), s("force"));
            force.insert("command".into(), s(&r.force_command));
            let mut drop = Map::default();
            drop.insert("action".into(), s("drop"));
            drop.insert("removeFields".into(), Value::List(paths.into()));
            let mut share = Map::default();
            share.insert("action".into(), s("share"));
            let mut set = Map::default();
            for i in &r.items {
                set.insert(i.path.clone(), i.live.clone().unwrap_or_default());
            }
            share.insert("setFields".into(), Value::Map(set));
            m.insert(
                "resolutions".into(),
                Value::List(vec![Value::Map(force), Value::Map(drop), Value::Map(share)].into()),
            );
            Value::Map(m)
        })
        .collect();
    to_json_string_pretty(&Value::List(list)) + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> ConflictReport {
        ConflictReport {
            name: "apps.v1.Deployment.default.web".into(),
            file: "web.yaml".into(),
            line: 1,
            column: 1,
            field_manager: "kubectl".into(),
            message:
                "Apply failed with 1 conflict: conflict with \"hpa\" using apps/v1: .spec.replicas"
                    .into(),
            items: vec![ConflictItem {
                path: ".spec.replicas".into(),
                mine: Some(Value::Int(3)),
                live: Some(Value::Int(5)),
                owners: vec![Owner {
                    manager: "hpa".into(),
                    operation: "Update".into(),
                    api_version: "apps/v1".into(),
                    subresource: "scale".into(),
                    time: Some("2024-01-01T00:00:00Z".into()),
                }],
                line: 9,
                column: 3,
            }],
            force_command: "kssa apply -f web.yaml --force-conflicts".into(),
        }
    }

    #[test]
    fn text_names_values_owners_and_ways_out() {
        let t = render_conflicts_text(&[report()], Style::default());
        assert!(
            t.contains("    your value (kubectl): 3\n    live value: 5\n"),
            "{t}"
        );
        assert!(
            t.contains("- hpa (Update apps/v1, scale, 2024-01-01T00:00:00Z)"),
            "{t}"
        );
        assert!(t.contains("through the scale subresource"), "{t}");
        assert!(
            t.contains("kssa apply -f web.yaml --force-conflicts"),
            "{t}"
        );
        assert!(t.contains("         .spec.replicas: 5\n"), "{t}");
    }

    #[test]
    fn json_lists_three_resolutions() {
        let j = render_conflicts_json(&[report()]);
        let v = crate::value::from_json_str(&j).unwrap();
        assert_eq!(
            v.as_list().unwrap()[0]
                .get("resolutions")
                .unwrap()
                .as_list()
                .unwrap()
                .len(),
            3
        );
    }
}
