//! Where client-side and server-side apply of the same manifest end differently: a walk over
//! the two predicted objects (and the live one), field by field. Lists are compared whole,
//! since replacing a list and merging into it are exactly what differs between the modes.
//!
//! The bookkeeping both modes touch anyway (`metadata.managedFields`, the last-applied
//! annotation, `resourceVersion`, `generation`) is left out.

use super::LAST_APPLIED;
use crate::value::{Map, Value};

/// One field whose value differs between the two predictions.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDifference {
    /// Dotted path from the object's root (`.spec.replicas`).
    pub path: String,
    pub live: Option<Value>,
    pub client_side: Option<Value>,
    pub server_side: Option<Value>,
}

/// What the difference means for the live value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DifferenceKind {
    /// Client-side apply removes the field; server-side apply keeps it.
    PrunedByClientSide,
    /// Server-side apply removes the field; client-side apply keeps it.
    PrunedByServerSide,
    /// Client-side apply changes (or sets) it; server-side apply leaves the live value.
    ChangedByClientSide,
    /// Server-side apply changes (or sets) it; client-side apply leaves the live value.
    ChangedByServerSide,
    /// Both change it, to different values.
    ChangedDifferently,
}

impl FieldDifference {
    pub fn kind(&self) -> DifferenceKind {
        let live = self.live.as_ref();
        match (&self.client_side, &self.server_side) {
            (None, Some(_)) if live.is_some() => DifferenceKind::PrunedByClientSide,
            (Some(_), None) if live.is_some() => DifferenceKind::PrunedByServerSide,
            (c, _) if c.as_ref() == live => DifferenceKind::ChangedByServerSide,
            (_, s) if s.as_ref() == live => DifferenceKind::ChangedByClientSide,
            _ => DifferenceKind::ChangedDifferently,
        }
    }

    /// For list values: the items only the client-side result has, and those only the
    /// server-side result has (compared by value).
    pub fn list_items(&self) -> Option<(Vec<Value>, Vec<Value>)> {
        let (Some(Value::List(c)), Some(Value::List(s))) = (&self.client_side, &self.server_side)
        else {
            return None;
        };
        let only = |a: &[Value], b: &[Value]| -> Vec<Value> {
            a.iter().filter(|x| !b.contains(x)).cloned().collect()
        };
        Some((only(c, s), only(s, c)))
    }
}

/// The object without what both modes rewrite regardless of the manifest.
fn comparable(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        for k in ["managedFields", "resourceVersion", "generation"] {
            meta.shift_remove(k);
        }
        if let Some(Value::Map(a)) = meta.get_mut("annotations") {
            a.shift_remove(LAST_APPLIED);
            if a.is_empty() {
                meta.shift_remove("annotations");
            }
        }
    }
    v
}

/// The fields where the two predicted objects differ, in document order.
pub fn compare_results(
    live: Option<&Value>,
    client_side: &Value,
    server_side: &Value,
) -> Vec<FieldDifference> {
    let live = live.map(comparable);
    let mut out = Vec::new();
    walk(
        "",
        live.as_ref(),
        Some(&comparable(client_side)),
        Some(&comparable(server_side)),
        &mut out,
    );
    out
}

fn walk(
    path: &str,
    live: Option<&Value>,
    client: Option<&Value>,
    server: Option<&Value>,
    out: &mut Vec<FieldDifference>,
) {
    if let (Some(Value::Map(c)), Some(Value::Map(s))) = (client, server) {
        let live_map = match live {
            Some(Value::Map(l)) => Some(l),
            _ => None,
        };
        let mut keys: Vec<&String> = c.keys().collect();
        keys.extend(s.keys().filter(|k| !c.contains_key(k)));
        for key in keys {
            walk(
                &format!("{path}.{key}"),
                live_map.and_then(|l: &Map| l.get(key)),
                c.get(key),
                s.get(key),
                out,
            );
        }
        return;
    }
    if client != server {
        out.push(FieldDifference {
            path: if path.is_empty() {
                ".".into()
            } else {
                path.into()
            },
            live: live.cloned(),
            client_side: client.cloned(),
            server_side: server.cloned(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn v(s: &str) -> Value {
        from_json_str(s).unwrap()
    }

    #[test]
    fn differences_are_classified_against_the_live_value() {
        let live = v(r#"{"spec":{"replicas":5,"a":1,"b":2,"l":[1,2]}}"#);
        let client = v(r#"{"spec":{"replicas":3,"b":2,"l":[1]}}"#);
        let server = v(r#"{"spec":{"replicas":5,"a":1,"l":[1,2]}}"#);
        let diffs = compare_results(Some(&live), &client, &server);
        let kinds: Vec<(String, DifferenceKind)> =
            diffs.iter().map(|d| (d.path.clone(), d.kind())).collect();
        assert_eq!(
            kinds,
            vec![
                (".spec.replicas".into(), DifferenceKind::ChangedByClientSide),
                (".spec.b".into(), DifferenceKind::PrunedByServerSide),
                (".spec.l".into(), DifferenceKind::ChangedByClientSide),
                (".spec.a".into(), DifferenceKind::PrunedByClientSide),
            ]
        );
        assert_eq!(diffs[2].list_items(), Some((vec![], vec![Value::Int(2)])));
    }

    #[test]
    fn bookkeeping_is_not_a_difference() {
        let a = v(
            r#"{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"x"},"managedFields":[1]}}"#,
        );
        let b = v(r#"{"metadata":{"managedFields":[2]}}"#);
        assert!(compare_results(None, &a, &b).is_empty());
    }
}
