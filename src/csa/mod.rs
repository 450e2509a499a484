//! Client-side apply → server-side apply migration, as client-go's `util/csaupgrade` performs
//! it for `kubectl apply --server-side`, and a report of what the migration leaves behind.
//!
//! The upgrade works on the raw `metadata.managedFields` entries: only the entries it folds
//! together are decoded, so an unrelated entry with a broken field set passes through untouched,
//! as it does in the reference.

mod report;

pub use report::{analyse, MigrationReport};

use crate::fieldpath::{from_fields_v1, to_fields_v1, FieldsV1Error, Path, PathElement, Set};
use crate::value::{Map, Value};

/// The annotation client-side apply keeps its last applied configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// The manager name `kubectl apply` (client-side) records its Update writes under.
pub const CSA_MANAGER: &str = "kubectl-client-side-apply";
/// The manager name `kubectl apply --server-side` applies as.
pub const SSA_MANAGER: &str = "kubectl";

/// Which managers to fold into which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    /// The client-side `Update` managers to migrate, in the order they are folded in.
    pub from: Vec<String>,
    /// The server-side `Apply` manager that takes their fields over.
    pub to: String,
    /// Only entries of this subresource take part (empty: the main resource).
    pub subresource: String,
}

impl Migration {
    /// Builds a migration; duplicate `from` names are folded once.
    pub fn new(from: Vec<String>, to: impl Into<String>, subresource: impl Into<String>) -> Self {
        let mut unique: Vec<String> = Vec::with_capacity(from.len());
        for name in from {
            if !unique.contains(&name) {
                unique.push(name);
            }
        }
        Migration {
            from: unique,
            to: to.into(),
            subresource: subresource.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CsaError {
    #[error("metadata.managedFields must be a list of entries")]
    NotAList,
    #[error("metadata.managedFields[{index}]: {field} must be a string")]
    BadEntry { index: usize, field: &'static str },
    /// The reference's own wording, followed by why the field set does not decode.
    #[error("failed to convert fields to set: {0}")]
    FieldSet(#[source] FieldsV1Error),
}

/// The result of an upgrade.
#[derive(Debug, Clone, PartialEq)]
pub struct Upgraded {
    /// The new `metadata.managedFields`; `None` when the field is absent afterwards.
    pub managed_fields: Option<Vec<Value>>,
    /// Whether the entries changed: the reference sends a patch only then.
    pub changed: bool,
}

impl Upgraded {
    /// The JSON patch kubectl sends: replace the entries, and replace `resourceVersion` with
    /// the current one so a concurrent write makes it fail. `None` when nothing changed.
    pub fn patch(&self, object: &Value) -> Option<Value> {
        if !self.changed {
            return None;
        }
        let rv = object
            .get_path(&["metadata", "resourceVersion"])
            .and_then(Value::as_str)
            .unwrap_or("");
        let op = |path: &str, value: Value| {
            let mut m = Map::default();
            m.insert("op".into(), "replace".into());
            m.insert("path".into(), path.into());
            m.insert("value".into(), value);
            Value::Map(m)
        };
        let entries = self.managed_fields.clone().map_or(Value::Null, Value::from);
        Some(Value::List(
            vec![
                op("/metadata/managedFields", entries),
                op("/metadata/resourceVersion", rv.into()),
            ]
            .into(),
        ))
    }

    /// Writes the new entries into `object`.
    pub fn write_into(&self, object: &mut Value) {
        let Some(meta) = object.as_map_mut().and_then(|o| o.get_mut("metadata")) else {
            return;
        };
        let Some(meta) = meta.as_map_mut() else {
            return;
        };
        match &self.managed_fields {
            Some(entries) => {
                meta.insert("managedFields".into(), Value::List(entries.clone().into()));
            }
            None => {
                meta.shift_remove("managedFields");
            }
        }
    }
}

/// One raw entry, normalised as the reference's typed round trip leaves it.
#[derive(Debug, Clone, PartialEq)]
struct Entry(Map);

const ENTRY_FIELDS: [&str; 7] = [
    "manager",
    "operation",
    "apiVersion",
    "time",
    "fieldsType",
    "fieldsV1",
    "subresource",
];

impl Entry {
    fn read(index: usize, v: &Value) -> Result<Entry, CsaError> {
        let map = v.as_map().ok_or(CsaError::NotAList)?;
        let mut out = Map::default();
        for (k, v) in map {
            let Some(field) = ENTRY_FIELDS.iter().find(|f| **f == k) else {
                continue;
            };
            match v {
                Value::Null => {}
                Value::String(s) if s.is_empty() => {}
                Value::String(_) => {
                    out.insert(k.clone(), v.clone());
                }
                _ if *field == "fieldsV1" => {
                    out.insert(k.clone(), v.clone());
                }
                _ => return Err(CsaError::BadEntry { index, field }),
            }
        }
        Ok(Entry(out))
    }

    fn text(&self, key: &str) -> &str {
        self.0.get(key).and_then(Value::as_str).unwrap_or("")
    }

    fn is(&self, manager: &str, operation: &str, subresource: &str) -> bool {
        self.text("manager") == manager
            && self.text("operation") == operation
            && self.text("subresource") == subresource
    }

    fn fields(&self) -> Result<Set, CsaError> {
        match self.0.get("fieldsV1") {
            None => Ok(Set::new()),
            Some(v) => from_fields_v1(v).map_err(CsaError::FieldSet),
        }
    }
}

/// The entries of `metadata.managedFields`; `None` when absent.
fn read_entries(object: &Value) -> Result<Option<Vec<Entry>>, CsaError> {
    match object.get_path(&["metadata", "managedFields"]) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::List(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| Entry::read(i, v))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(CsaError::NotAList),
    }
}

/// Folds the `from` managers' `Update` entries into `to`'s `Apply` entry, one name at a time:
/// the existing Apply entry of `to` (or else the first Update entry of the name, renamed and
/// turned into Apply) takes the union with the first Update entry of the name at the same
/// apiVersion, and every Update entry of the name is then dropped.
pub fn upgrade(object: &Value, migration: &Migration) -> Result<Upgraded, CsaError> {
    let before = read_entries(object)?;
    let mut entries = before.clone();
    for name in &migration.from {
        entries = match entries {
            None => None,
            Some(list) => upgrade_one(list, name, migration)?,
        };
    }
    Ok(Upgraded {
        changed: entries != before,
        managed_fields: entries.map(|l| l.into_iter().map(|e| Value::Map(e.0)).collect()),
    })
}

fn upgrade_one(
    mut entries: Vec<Entry>,
    csa: &str,
    m: &Migration,
) -> Result<Option<Vec<Entry>>, CsaError> {
    let sub = m.subresource.as_str();
    let target = match entries.iter().position(|e| e.is(&m.to, "Apply", sub)) {
        Some(i) => i,
        None => match entries.iter().position(|e| e.is(csa, "Update", sub)) {
            Some(i) => {
                entries[i].0.insert("manager".into(), m.to.as_str().into());
                entries[i].0.insert("operation".into(), "Apply".into());
                i
            }
            None => return Ok(Some(entries)),
        },
    };
    let version = entries[target].text("apiVersion").to_string();
    let partner = entries
        .iter()
        .position(|e| e.is(csa, "Update", sub) && e.text("apiVersion") == version);
    let mut set = entries[target].fields()?;
    if let Some(p) = partner {
        set = set.union(&entries[p].fields()?);
    }
    let encoded = to_fields_v1(&set);
    if entries[target].0.get("fieldsV1") != Some(&encoded) {
        entries[target].0.insert("fieldsV1".into(), encoded);
    }
    entries.retain(|e| !e.is(csa, "Update", sub));
    Ok((!entries.is_empty()).then_some(entries))
}

/// The path of the last-applied annotation.
pub fn last_applied_path() -> Path {
    Path(vec![
        PathElement::field("metadata"),
        PathElement::field("annotations"),
        PathElement::field(LAST_APPLIED),
    ])
}

/// The `Update` managers whose field set covers the last-applied annotation, in entry order:
/// the managers `kubectl apply --server-side` migrates. Entries that do not decode are skipped.
pub fn last_applied_owners(object: &Value) -> Vec<String> {
    field_owners(object, "Update", &last_applied_path())
}

/// The managers of `operation` entries whose field set holds `path` (client-go csaupgrade
/// `FindFieldsOwners`); entries whose field set does not decode are skipped.
pub fn field_owners(object: &Value, operation: &str, path: &Path) -> Vec<String> {
    let wanted = Set::from_paths([path.clone()]);
    let Ok(Some(entries)) = read_entries(object) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| e.text("operation") == operation)
        .filter(|e| e.fields().is_ok_and(|s| wanted.difference(&s).is_empty()))
        .map(|e| e.text("manager").to_string())
        .collect()
}

/// The managers kubectl migrates by default: `kubectl-client-side-apply` and every other
/// Update manager owning the last-applied annotation.
pub fn default_from(object: &Value) -> Vec<String> {
    let mut from = vec![CSA_MANAGER.to_string()];
    for name in last_applied_owners(object) {
        if !from.contains(&name) {
            from.push(name);
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn object(entries: &str) -> Value {
        from_json_str(&format!(
            r#"{{"metadata":{{"resourceVersion":"7","managedFields":{entries}}}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn converts_the_csa_entry_in_place() {
        let obj = object(
            r#"[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}}}]"#,
        );
        let up = upgrade(
            &obj,
            &Migration::new(vec![CSA_MANAGER.into()], "kubectl", ""),
        )
        .unwrap();
        assert!(up.changed);
        let e = &up.managed_fields.as_ref().unwrap()[0];
        assert_eq!(e.get("manager").unwrap(), &Value::from("kubectl"));
        assert_eq!(e.get("operation").unwrap(), &Value::from("Apply"));
        let patch = up.patch(&obj).unwrap();
        assert_eq!(
            patch.as_list().unwrap()[1].get("value"),
            Some(&Value::from("7"))
        );
    }

    #[test]
    fn version_mismatch_drops_the_csa_entry_without_union() {
        let obj = object(
            r#"[{"manager":"kubectl","operation":"Apply","apiVersion":"v2","fieldsType":"FieldsV1","fieldsV1":{"f:b":{}}},
                {"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}}}]"#,
        );
        let up = upgrade(
            &obj,
            &Migration::new(vec![CSA_MANAGER.into()], "kubectl", ""),
        )
        .unwrap();
        let entries = up.managed_fields.unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(
            Some(&to_fields_v1(&Set::from_paths([Path::fields(&["b"])]))),
            entries[0].get("fieldsV1")
        );
    }

    #[test]
    fn nothing_to_do_is_unchanged() {
        let obj = object(r#"[{"manager":"x","operation":"Update","apiVersion":"v1","time":null}]"#);
        let up = upgrade(
            &obj,
            &Migration::new(vec![CSA_MANAGER.into()], "kubectl", ""),
        )
        .unwrap();
        assert!(!up.changed);
        assert_eq!(up.patch(&obj), None);
    }
}
