//! Path-level change sets: what an apply changes in one object, field by field (`before`,
//! `after`, and who owns the field afterwards), as dyff and Argo CD users script against. The
//! typed comparison decides what changed, so keyed list items are matched by key, not position.

mod locate;

pub use locate::{locate, pointer, Step};

use crate::fieldpath::{Path, Set};
use crate::managed::{decode_managed_fields, ManagedFieldsEntry};
use crate::render::value_at;
use crate::typed::{Typed, ValidationErrors};
use crate::value::Value;

/// How one field changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldChangeKind {
    Added,
    Modified,
    Removed,
}

impl FieldChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldChangeKind::Added => "added",
            FieldChangeKind::Modified => "modified",
            FieldChangeKind::Removed => "removed",
        }
    }
}

/// One changed field (or a whole subtree added or removed).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub kind: FieldChangeKind,
    /// The field path, keyed list items by key: `.spec.containers[name="web"].image`.
    pub path: Path,
    /// Where the field is in the object, list items by index: in the result, or for a removed
    /// field in the live object.
    pub steps: Vec<Step>,
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// The managers owning the field (or something below it) after the apply.
    pub owners: Vec<String>,
}

/// The object without `metadata.managedFields`, which a change set never reports.
fn without_managed_fields(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.shift_remove("managedFields");
    }
    v
}

/// Paths of `set` none of whose proper prefixes is also in it: a subtree added or removed whole
/// is one change.
fn topmost(set: &Set) -> Vec<Path> {
    let paths = set.sorted_paths();
    paths
        .iter()
        .filter(|p| (1..p.0.len()).all(|n| !set.has_elements(&p.0[..n])))
        .cloned()
        .collect()
}

/// The managers whose entries claim `path`, in entry order, each once.
pub fn owners_of(entries: &[ManagedFieldsEntry], path: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in entries.iter().filter(|e| e.fields.claims(path.elements())) {
        if !out.contains(&e.manager) {
            out.push(e.manager.clone());
        }
    }
    out
}

/// A whole object created (`before` is `None`) or deleted (`after` is `None`): one change at
/// the root.
pub fn whole(before: Option<&Value>, after: Option<&Value>) -> FieldChange {
    FieldChange {
        kind: if after.is_some() {
            FieldChangeKind::Added
        } else {
            FieldChangeKind::Removed
        },
        path: Path::root(),
        steps: Vec::new(),
        before: before.map(without_managed_fields),
        after: after.map(without_managed_fields),
        owners: Vec::new(),
    }
}

/// The managedFields entries of an object (none when they do not decode).
pub fn entries_of(object: Option<&Value>) -> Vec<ManagedFieldsEntry> {
    object
        .and_then(|o| decode_managed_fields(o).ok())
        .unwrap_or_default()
}

/// What applying changes from `before` (the live object; `None` for a create) to `after` (the
/// predicted object), owners taken from `entries` (the result's managedFields). A create or a
/// deletion is one change at the root.
pub fn field_changes(
    typed: &Typed<'_>,
    before: Option<&Value>,
    after: Option<&Value>,
    entries: &[ManagedFieldsEntry],
) -> Result<Vec<FieldChange>, ValidationErrors> {
    let (b, a) = match (before, after) {
        (Some(b), Some(a)) => (without_managed_fields(b), without_managed_fields(a)),
        (None, Some(a)) => {
            let mut created = whole(None, Some(a));
            for e in entries {
                if !created.owners.contains(&e.manager) {
                    created.owners.push(e.manager.clone());
                }
            }
            return Ok(vec![created]);
        }
        (Some(b), None) => return Ok(vec![whole(Some(b), None)]),
        (None, None) => return Ok(Vec::new()),
    };
    let comparison = typed.compare(&b, &a)?;
    let mut out = Vec::new();
    for (kind, set) in [
        (FieldChangeKind::Added, &comparison.added),
        (FieldChangeKind::Modified, &comparison.modified),
        (FieldChangeKind::Removed, &comparison.removed),
    ] {
        for path in topmost(set) {
            let (before, after) = (value_at(&b, &path).cloned(), value_at(&a, &path).cloned());
            let side = if kind == FieldChangeKind::Removed {
                &b
            } else {
                &a
            };
            out.push(FieldChange {
                kind,
                steps: locate(side, &path).unwrap_or_default(),
                owners: if kind == FieldChangeKind::Removed {
                    Vec::new()
                } else {
                    owners_of(entries, &path)
                },
                path,
                before,
                after,
            });
        }
    }
    // By where each field is (map keys sorted), so the output is stable.
    out.sort_by(|x, y| x.steps.cmp(&y.steps).then(x.path.cmp(&y.path)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    fn v(text: &str) -> Value {
        from_json_str(text).unwrap()
    }

    #[test]
    fn keyed_items_by_key_and_index() {
        let reg = SchemaRegistry::new();
        let kind = reg.resolve("apps/v1", "Deployment").unwrap();
        let typed = Typed::new(&kind.schema, &kind.type_ref);
        let before = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},
            "spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","image":"x:1"},{"name":"b","image":"y:1"}]}}}}"#,
        );
        let after = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d",
            "managedFields":[{"manager":"ci","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1",
            "fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"b\"}":{".":{},"f:name":{},"f:image":{}}}}}}}}]},
            "spec":{"template":{"spec":{"containers":[{"name":"a","image":"x:1"},{"name":"b","image":"y:2","args":["-v"]}]}}}}"#,
        );
        let changes = field_changes(
            &typed,
            Some(&before),
            Some(&after),
            &entries_of(Some(&after)),
        )
        .unwrap();
        let shown: Vec<String> = changes
            .iter()
            .map(|c| {
                format!(
                    "{} {} {} {:?}",
                    c.kind.as_str(),
                    c.path,
                    pointer(&c.steps),
                    c.owners
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "removed .spec.replicas /spec/replicas []",
                r#"added .spec.template.spec.containers[name="b"].args /spec/template/spec/containers/1/args []"#,
                r#"modified .spec.template.spec.containers[name="b"].image /spec/template/spec/containers/1/image ["ci"]"#,
            ]
        );
        assert_eq!(changes[2].before, Some(v(r#""y:1""#)));
        assert_eq!(changes[2].after, Some(v(r#""y:2""#)));
    }

    #[test]
    fn create_is_one_root_change() {
        let reg = SchemaRegistry::new();
        let kind = reg.resolve("v1", "ConfigMap").unwrap();
        let typed = Typed::new(&kind.schema, &kind.type_ref);
        let obj = v(r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#);
        let changes = field_changes(&typed, None, Some(&obj), &[]).unwrap();
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].kind, FieldChangeKind::Added);
        assert_eq!(changes[0].path, Path::root());
    }
}
