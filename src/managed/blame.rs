//! `kubectl-blame` for kssa: an object as YAML, each line annotated with the managers owning
//! it. Ownership is read from the entries' field sets alone (list items are matched to the
//! `k:`/`v:`/`i:` elements the sets name), so no schema is needed.

use super::age::{human_duration, parse_rfc3339};
use super::{ManagedFieldsEntry, Operation};
use crate::fieldpath::{PathElement, Set};
use crate::value::{Map, Value};
use crate::yaml::to_yaml_string;

/// The owners (entry indexes) of each line of `to_yaml_string(object)`.
pub fn line_owners(object: &Value, entries: &[ManagedFieldsEntry]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let nodes: Vec<Option<&Set>> = entries.iter().map(|e| Some(&e.fields)).collect();
    match object {
        Value::Map(m) if !m.is_empty() => walk_map(m, &nodes, &[], &mut out),
        Value::List(l) if !l.is_empty() => walk_list(l, &nodes, &[], &mut out),
        _ => out.push(Vec::new()),
    }
    out
}

/// Where one element leads: who owns it, who owns all below it, and each entry's set below it.
fn step<'s>(
    nodes: &[Option<&'s Set>],
    pe: &PathElement,
    inherited: &[usize],
) -> (Vec<usize>, Vec<usize>, Vec<Option<&'s Set>>) {
    let mut owners = inherited.to_vec();
    let mut pass = inherited.to_vec();
    let mut below = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let child = node.and_then(|n| n.child(pe));
        if node.is_some_and(|n| n.has_member(pe)) {
            if !owners.contains(&i) {
                owners.push(i);
            }
            // A leaf member of a container owns it whole (an atomic list or map).
            if child.is_none() && !pass.contains(&i) {
                pass.push(i);
            }
        }
        below.push(child);
    }
    owners.sort_unstable();
    pass.sort_unstable();
    (owners, pass, below)
}

fn walk_map(m: &Map, nodes: &[Option<&Set>], inherited: &[usize], out: &mut Vec<Vec<usize>>) {
    for (k, v) in m {
        let (owners, pass, below) = step(nodes, &PathElement::Field(k.clone()), inherited);
        let single = |v: Value| {
            let mut one = Map::new();
            one.insert(k.clone(), v);
            to_yaml_string(&Value::Map(one)).lines().count()
        };
        match v {
            Value::Map(child) if !child.is_empty() => {
                push(out, &owners, single(Value::Null));
                walk_map(child, &below, &pass, out);
            }
            Value::List(items) if !items.is_empty() => {
                push(out, &owners, single(Value::Null));
                walk_list(items, &below, &pass, out);
            }
            _ => push(out, &owners, single(v.clone())),
        }
    }
}

fn walk_list(
    items: &[Value],
    nodes: &[Option<&Set>],
    inherited: &[usize],
    out: &mut Vec<Vec<usize>>,
) {
    for (index, item) in items.iter().enumerate() {
        let pe = item_element(nodes, index, item);
        let (owners, pass, below) = step(nodes, &pe, inherited);
        match item {
            Value::Map(m) if !m.is_empty() => {
                let first = out.len();
                walk_map(m, &below, &pass, out);
                // The `- ` line also stands for the item itself.
                for i in &owners {
                    if !out[first].contains(i) {
                        out[first].push(*i);
                    }
                }
                out[first].sort_unstable();
            }
            Value::List(l) if !l.is_empty() => walk_list(l, &below, &pass, out),
            _ => {
                let n = to_yaml_string(&Value::List(vec![item.clone()]))
                    .lines()
                    .count();
                push(out, &owners, n);
            }
        }
    }
}

fn push(out: &mut Vec<Vec<usize>>, owners: &[usize], lines: usize) {
    for _ in 0..lines {
        out.push(owners.to_vec());
    }
}

/// The element the sets use for a list item: a key whose fields the item has, the item's
/// value, or its index.
fn item_element(nodes: &[Option<&Set>], index: usize, item: &Value) -> PathElement {
    let candidates = nodes
        .iter()
        .flatten()
        .flat_map(|n| n.members().iter().chain(n.children().map(|(pe, _)| pe)));
    for pe in candidates {
        let hit = match pe {
            PathElement::Key(fields) => fields.iter().all(|(k, v)| item.get(k) == Some(v)),
            PathElement::Value(v) => v == item,
            PathElement::Index(i) => *i == index,
            PathElement::Field(_) => false,
        };
        if hit {
            return pe.clone();
        }
    }
    PathElement::Index(index)
}

/// How one entry is named on a blame line: `manager (Update 3d)`, `/status` for subresources.
pub fn owner_label(entry: &ManagedFieldsEntry, now: Option<i64>) -> String {
    let op = match entry.operation {
        Operation::Apply => "Apply",
        Operation::Update => "Update",
    };
    let sub = if entry.subresource.is_empty() {
        String::new()
    } else {
        format!(" /{}", entry.subresource)
    };
    let age = match (now, entry.time.as_deref().and_then(parse_rfc3339)) {
        (Some(now), Some(t)) => format!(" {}", human_duration(now - t)),
        _ => String::new(),
    };
    format!("{} ({op}{sub}{age})", entry.manager)
}

/// The object (without `metadata.managedFields`) as YAML, every line prefixed by its owners.
pub fn blame(object: &Value, entries: &[ManagedFieldsEntry], now: Option<i64>) -> String {
    let mut shown = object.clone();
    if let Some(meta) = shown
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    {
        meta.shift_remove("managedFields");
    }
    let text = to_yaml_string(&shown);
    let owners = line_owners(&shown, entries);
    let labels: Vec<String> = owners
        .iter()
        .map(|o| {
            o.iter()
                .map(|&i| owner_label(&entries[i], now))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = String::with_capacity(text.len() * 2);
    for (i, line) in text.lines().enumerate() {
        let label = labels.get(i).map_or("", String::as_str);
        let pad = width - label.chars().count();
        out.push_str(label);
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str(" | ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fieldpath::from_fields_v1_str;
    use crate::value::from_json_str;

    fn entry(manager: &str, fields: &str) -> ManagedFieldsEntry {
        ManagedFieldsEntry {
            manager: manager.into(),
            operation: Operation::Update,
            api_version: "v1".into(),
            time: Some("2020-01-01T00:00:00Z".into()),
            fields: from_fields_v1_str(fields).unwrap(),
            subresource: String::new(),
        }
    }

    #[test]
    fn keyed_items_and_atomic_lists() {
        let obj = from_json_str(
            r#"{"spec":{"containers":[{"name":"a","image":"x","args":["1","2"]}],"replicas":1}}"#,
        )
        .unwrap();
        let entries = vec![
            entry(
                "one",
                r#"{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:name":{},"f:image":{},"f:args":{}}}}}"#,
            ),
            entry("two", r#"{"f:spec":{"f:replicas":{}}}"#),
        ];
        let now = parse_rfc3339("2020-01-03T00:00:00Z");
        let text = blame(&obj, &entries, now);
        let want = concat!(
            "                | spec:\n",
            "                |   containers:\n",
            "one (Update 2d) |   - name: a\n",
            "one (Update 2d) |     image: x\n",
            "one (Update 2d) |     args:\n",
            "one (Update 2d) |     - \"1\"\n",
            "one (Update 2d) |     - \"2\"\n",
            "two (Update 2d) |   replicas: 1\n",
        );
        assert_eq!(text, want);
    }
}
