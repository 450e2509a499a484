//! `kssa diff --compare-modes`: per object, what changes between `kubectl apply` (client-side)
//! and `kubectl apply --server-side` of the same manifest, as text or JSON.

use crate::client_apply::{DifferenceKind, FieldDifference};
use crate::value::{to_json_string, to_json_string_pretty, Map, Value};

/// A field server-side apply stops on because another manager owns it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeConflict {
    pub path: String,
    pub managers: Vec<String>,
    pub live: Option<Value>,
    /// What client-side apply leaves there (it overwrites silently).
    pub client_side: Option<Value>,
}

/// One object's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeComparison {
    /// `apps/v1 Deployment ns/name`.
    pub object: String,
    /// Where the manifest is.
    pub source: String,
    /// Client-side apply fails (kubectl's error); nothing is compared then.
    pub client_side_error: Option<String>,
    /// Server-side apply stops on these; the fields below compare with its forced result.
    pub conflicts: Vec<ModeConflict>,
    pub fields: Vec<FieldDifference>,
}

impl ModeComparison {
    pub fn differs(&self) -> bool {
        self.client_side_error.is_some() || !self.conflicts.is_empty() || !self.fields.is_empty()
    }
}

fn show(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".into(),
        Some(v) => {
            let text = to_json_string(v);
            if text.len() > 120 {
                format!(
                    "{}…",
                    &text[..text.char_indices().nth(117).map_or(text.len(), |(i, _)| i)]
                )
            } else {
                text
            }
        }
    }
}

fn describe(d: &FieldDifference) -> String {
    let (live, csa, ssa) = (show(&d.live), show(&d.client_side), show(&d.server_side));
    let what = match d.kind() {
        DifferenceKind::PrunedByClientSide => {
            format!("removed by client-side apply; server-side apply keeps {ssa}")
        }
        DifferenceKind::PrunedByServerSide => {
            format!("removed by server-side apply; client-side apply keeps {csa}")
        }
        DifferenceKind::ChangedByClientSide if d.live.is_none() => {
            format!("set by client-side apply only, to {csa}")
        }
        DifferenceKind::ChangedByServerSide if d.live.is_none() => {
            format!("set by server-side apply only, to {ssa}")
        }
        DifferenceKind::ChangedByClientSide => {
            format!("client-side apply changes it ({live} -> {csa}); server-side apply keeps it")
        }
        DifferenceKind::ChangedByServerSide => {
            format!("server-side apply changes it ({live} -> {ssa}); client-side apply keeps it")
        }
        DifferenceKind::ChangedDifferently => {
            format!("client-side apply leaves {csa}, server-side apply leaves {ssa} (live {live})")
        }
    };
    let mut line = format!("  {}: {what}\n", d.path);
    if let Some((only_csa, only_ssa)) = d.list_items() {
        line.push_str("    list replaced by one mode, merged by the other:");
        line.push_str(&format!(
            " only after client-side apply: {}; only after server-side apply: {}\n",
            to_json_string(&Value::List(only_csa.into())),
            to_json_string(&Value::List(only_ssa.into()))
        ));
    }
    line
}

/// The comparisons as text; objects that end the same are summed up in the last line.
pub fn render_modes_text(comparisons: &[ModeComparison]) -> String {
    let mut out = String::new();
    let mut same = 0;
    for c in comparisons {
        if !c.differs() {
            same += 1;
            continue;
        }
        out.push_str(&format!("{} ({})\n", c.object, c.source));
        if let Some(e) = &c.client_side_error {
            out.push_str(&format!(
                "  client-side apply fails, server-side apply does not need a patch:\n    {}\n",
                e.replace('\n', "\n    ")
            ));
        }
        for k in &c.conflicts {
            out.push_str(&format!(
                "  {}: server-side apply stops on a conflict with {}; client-side apply \
                 overwrites it silently ({} -> {})\n",
                k.path,
                k.managers.join(", "),
                show(&k.live),
                show(&k.client_side)
            ));
        }
        if !c.conflicts.is_empty() && !c.fields.is_empty() {
            out.push_str("  (compared with server-side apply --force-conflicts)\n");
        }
        for d in &c.fields {
            out.push_str(&describe(d));
        }
    }
    let differ = comparisons.len() - same;
    out.push_str(&format!(
        "{differ} object(s) end differently under client-side and server-side apply, {same} the same\n"
    ));
    out
}

fn opt(v: &Option<Value>) -> Value {
    v.clone().unwrap_or(Value::Null)
}

/// The comparisons as one JSON document.
pub fn render_modes_json(comparisons: &[ModeComparison]) -> String {
    let items = comparisons
        .iter()
        .map(|c| {
            let mut m = Map::default();
            m.insert("object".into(), Value::from(c.object.clone()));
            m.insert("source".into(), Value::from(c.source.clone()));
            m.insert("differs".into(), Value::Bool(c.differs()));
            if let Some(e) = &c.client_side_error {
                m.insert("clientSideError".into(), Value::from(e.clone()));
            }
            let conflicts = c.conflicts.iter().map(|k| {
                let mut e = Map::default();
                e.insert("path".into(), Value::from(k.path.clone()));
                e.insert(
                    "managers".into(),
                    Value::List(k.managers.iter().cloned().map(Value::from).collect()),
                );
                e.insert("live".into(), opt(&k.live));
                e.insert("clientSide".into(), opt(&k.client_side));
                Value::Map(e)
            });
            m.insert("conflicts".into(), Value::List(conflicts.collect()));
            let fields = c.fields.iter().map(|d| {
                let mut e = Map::default();
                e.insert("path".into(), Value::from(d.path.clone()));
                e.insert("kind".into(), Value::from(format!("{:?}", d.kind())));
                e.insert("live".into(), opt(&d.live));
                e.insert("clientSide".into(), opt(&d.client_side));
                e.insert("serverSide".into(), opt(&d.server_side));
                Value::Map(e)
            });
            m.insert("fields".into(), Value::List(fields.collect()));
            Value::Map(m)
        })
        .collect();
    let mut doc = Map::default();
    doc.insert("items".into(), Value::List(items));
    to_json_string_pretty(&Value::Map(doc)) + "\n"
}
