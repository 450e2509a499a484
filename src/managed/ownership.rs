//! Reading ownership out of managedFields: one summary row per entry, a manager's field set,
//! and client-go's "extract" (the fields a manager applied, as an applyable manifest).

use super::age::{human_duration, parse_rfc3339};
use super::{ManagedFieldsEntry, Operation};
use crate::fieldpath::Set;
use crate::typed::Typed;
use crate::value::{Map, Value};

/// One managedFields entry, summarised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagerRow {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    pub subresource: String,
    /// As stored (RFC 3339).
    pub time: Option<String>,
    /// Relative to the reference time, as kubectl prints ages.
    pub age: Option<String>,
    /// Fields owned: the leaves of the entry's set.
    pub fields: usize,
}

/// Summarises entries; `now` (Unix seconds) gives the ages.
pub fn manager_rows(entries: &[ManagedFieldsEntry], now: Option<i64>) -> Vec<ManagerRow> {
    entries
        .iter()
        .map(|e| ManagerRow {
            manager: e.manager.clone(),
            operation: e.operation,
            api_version: e.api_version.clone(),
            subresource: e.subresource.clone(),
            time: e.time.clone(),
            age: match (now, e.time.as_deref().and_then(parse_rfc3339)) {
                (Some(now), Some(t)) => Some(human_duration(now - t)),
                _ => None,
            },
            fields: e.fields.leaves().size(),
        })
        .collect()
}

/// The rows as a table, columns padded to their widest cell.
pub fn render_table(rows: &[ManagerRow]) -> String {
    let mut cells = vec![[
        "MANAGER",
        "OPERATION",
        "APIVERSION",
        "SUBRESOURCE",
        "AGE",
        "TIME",
        "FIELDS",
    ]
    .map(String::from)];
    for r in rows {
        cells.push([
            r.manager.clone(),
            r.operation.to_string(),
            r.api_version.clone(),
            r.subresource.clone(),
            r.age.clone().unwrap_or_else(|| "<unknown>".into()),
            r.time.clone().unwrap_or_else(|| "<unknown>".into()),
            r.fields.to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &cells {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', widths[c] - cell.chars().count()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The entries of `manager` for `subresource`: its Apply entries when it has any (as client-go
/// extracts), else its Update entries.
pub fn manager_entries<'e>(
    entries: &'e [ManagedFieldsEntry],
    manager: &str,
    subresource: &str,
) -> Vec<&'e ManagedFieldsEntry> {
    let mine: Vec<&ManagedFieldsEntry> = entries
        .iter()
        .filter(|e| e.manager == manager && e.subresource == subresource)
        .collect();
    if mine.iter().any(|e| e.operation == Operation::Apply) {
        mine.into_iter()
            .filter(|e| e.operation == Operation::Apply)
            .collect()
    } else {
        mine
    }
}

/// The union of the given entries' sets.
pub fn owned_set(entries: &[&ManagedFieldsEntry]) -> Set {
    entries
        .iter()
        .fold(Set::new(), |acc, e| acc.union(&e.fields))
}

/// The fields of `set` from `object`, list keys included, with apiVersion, kind, name and
/// namespace kept: what client-go's `Extract<Kind>` returns, ready to be applied.
pub fn extract(object: &Value, typed: &Typed<'_>, set: &Set) -> Value {
    let mut out = match typed.extract_items_with_keys(object, &set.leaves()) {
        Value::Map(m) => m,
        _ => Map::default(),
    };
    let mut head = Map::default();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = object.get(key) {
            head.insert(key.into(), v.clone());
        }
    }
    let mut meta = Map::default();
    for key in ["name", "namespace"] {
        if let Some(v) = object.get_path(&["metadata", key]) {
            meta.insert(key.into(), v.clone());
        }
    }
    if let Some(Value::Map(extracted)) = out.shift_remove("metadata") {
        for (k, v) in extracted {
            meta.entry(k).or_insert(v);
        }
    }
    head.insert("metadata".into(), Value::Map(meta));
    out.shift_remove("apiVersion");
    out.shift_remove("kind");
    head.extend(out);
    Value::Map(head)
}
