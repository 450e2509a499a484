//! Removing managedFields from objects: all of them, or only some managers' entries (leaving
//! the API server's reset form `[{}]` when none remain), and optionally the fields the server
//! fills in, to turn a live snapshot back into a clean manifest.

use crate::value::{Map, Value};

/// The annotation client-side apply records its last applied configuration in.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Metadata fields the API server sets on every object.
pub const SERVER_METADATA: [&str; 5] = [
    "resourceVersion",
    "uid",
    "creationTimestamp",
    "generation",
    "selfLink",
];

/// Which managers' entries to remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManagerSelection {
    /// Every entry: `metadata.managedFields` goes away.
    All,
    /// Entries whose manager equals one of the names.
    Named(Vec<String>),
    /// Entries whose manager starts with one of the prefixes.
    Prefixed(Vec<String>),
}

impl ManagerSelection {
    fn matches(&self, manager: &str) -> bool {
        match self {
            ManagerSelection::All => true,
            ManagerSelection::Named(names) => names.iter().any(|n| n == manager),
            ManagerSelection::Prefixed(prefixes) => prefixes.iter().any(|p| manager.starts_with(p)),
        }
    }
}

/// What to strip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripOptions {
    pub managers: ManagerSelection,
    /// Also drop server-set metadata, `status` and the last-applied annotation.
    pub server_fields: bool,
}

/// What stripping did to one object (or to every item of a `List`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StripOutcome {
    /// managedFields entries removed.
    pub entries_removed: usize,
    /// Objects left with the reset form `managedFields: [{}]`.
    pub reset: usize,
    /// Whether anything changed.
    pub changed: bool,
}

impl StripOutcome {
    fn add(&mut self, other: StripOutcome) {
        self.entries_removed += other.entries_removed;
        self.reset += other.reset;
        self.changed |= other.changed;
    }
}

/// Whether a document is a `List` (`kind` ending in `List`, with `items`).
fn is_list(doc: &Value) -> bool {
    doc.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && matches!(doc.get("items"), Some(Value::List(_)))
}

/// The objects of a document: itself, or the items of a `List`.
pub fn document_objects_mut(doc: &mut Value) -> Vec<&mut Value> {
    if !is_list(doc) {
        return vec![doc];
    }
    match doc.as_map_mut().and_then(|m| m.get_mut("items")) {
        Some(Value::List(items)) => items.iter_mut().collect(),
        _ => Vec::new(),
    }
}

/// Strips one document: an object, or each item of a `List`.
pub fn strip_document(doc: &mut Value, options: &StripOptions) -> StripOutcome {
    if !is_list(doc) {
        return strip_object(doc, options);
    }
    let mut total = StripOutcome::default();
    for item in document_objects_mut(doc) {
        total.add(strip_object(item, options));
    }
    if options.server_fields {
        if let Some(meta) = doc.as_map_mut().and_then(|m| m.get_mut("metadata")) {
            total.changed |= remove_server_metadata(meta);
        }
    }
    total
}

/// Strips one object.
pub fn strip_object(object: &mut Value, options: &StripOptions) -> StripOutcome {
    let mut out = StripOutcome::default();
    let Some(root) = object.as_map_mut() else {
        return out;
    };
    if options.server_fields && root.shift_remove("status").is_some() {
        out.changed = true;
    }
    let Some(meta) = root.get_mut("metadata") else {
        return out;
    };
    if options.server_fields {
        out.changed |= remove_server_metadata(meta);
    }
    let Some(meta) = meta.as_map_mut() else {
        return out;
    };
    match (&options.managers, meta.get_mut("managedFields")) {
        (_, None) => {}
        (ManagerSelection::All, Some(_)) => {
            let removed = meta.shift_remove("managedFields");
            out.entries_removed = removed
                .as_ref()
                .and_then(Value::as_list)
                .map_or(0, Vec::len);
            out.changed = true;
        }
        (selection, Some(Value::List(entries))) => {
            let before = entries.len();
            entries.retain(|e| {
                let manager = e.get("manager").and_then(Value::as_str).unwrap_or("");
                !selection.matches(manager)
            });
            out.entries_removed = before - entries.len();
            if out.entries_removed > 0 {
                out.changed = true;
                if entries.is_empty() {
                    entries.push(Value::Map(Map::default()));
                    out.reset = 1;
                }
            }
        }
        (_, Some(_)) => {}
    }
    out
}

/// Removes server-set metadata and the last-applied annotation (and `annotations` when that
/// leaves it empty). Whether anything was removed.
fn remove_server_metadata(meta: &mut Value) -> bool {
    let Some(meta) = meta.as_map_mut() else {
        return false;
    };
    let mut changed = false;
    for key in SERVER_METADATA {
        changed |= meta.shift_remove(key).is_some();
    }
    if let Some(Value::Map(annotations)) = meta.get_mut("annotations") {
        changed |= annotations.shift_remove(LAST_APPLIED).is_some();
        if annotations.is_empty() {
            meta.shift_remove("annotations");
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn obj() -> Value {
        from_json_str(
            r#"{"metadata":{"name":"a","uid":"u","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"},
            "managedFields":[{"manager":"kubectl"},{"manager":"kube-controller-manager"}]},"status":{"x":1}}"#,
        )
        .unwrap()
    }

    #[test]
    fn all_entries() {
        let mut o = obj();
        let opts = StripOptions {
            managers: ManagerSelection::All,
            server_fields: false,
        };
        let r = strip_object(&mut o, &opts);
        assert_eq!(r.entries_removed, 2);
        assert!(o.get_path(&["metadata", "managedFields"]).is_none());
        assert!(o.get("status").is_some());
    }

    #[test]
    fn last_manager_removed_leaves_reset_form() {
        let mut o = obj();
        let opts = StripOptions {
            managers: ManagerSelection::Prefixed(vec!["kube".into()]),
            server_fields: false,
        };
        let r = strip_object(&mut o, &opts);
        assert_eq!((r.entries_removed, r.reset), (2, 1));
        assert_eq!(
            to_json_string(o.get_path(&["metadata", "managedFields"]).unwrap()),
            "[{}]"
        );
    }

    #[test]
    fn server_fields() {
        let mut o = obj();
        let opts = StripOptions {
            managers: ManagerSelection::All,
            server_fields: true,
        };
        strip_object(&mut o, &opts);
        assert_eq!(to_json_string(&o), r#"{"metadata":{"name":"a"}}"#);
    }
}
