//! The managers' sets and times between decoding and encoding `metadata.managedFields`, keyed
//! as the server keys them, with the rules that act on the whole list: meta stripping, the
//! cap on Update entries, and the server's entry order.

use super::entry::{decode_managed_fields, ManagedFieldsEntry, ManagedFieldsError, Operation};
use super::manager::ManagerId;
use super::time::Time;
use crate::fieldpath::{ManagedFields, Path, Set, VersionedSet};
use crate::value::Value;
use std::collections::BTreeMap;

/// Update entries kept before the oldest are merged (`DefaultMaxUpdateManagers`).
pub const MAX_UPDATE_MANAGERS: usize = 10;
/// The entry old updates are merged into.
pub const ANCIENT_CHANGES_MANAGER: &str = "ancient-changes";

/// The managers' sets keyed by [`ManagerId::key`], and their times.
#[derive(Debug, Clone, Default)]
pub(super) struct Managed {
    pub fields: ManagedFields,
    pub times: BTreeMap<String, Option<Time>>,
}

impl Managed {
    pub fn decode(object: &Value) -> Result<Managed, ManagedFieldsError> {
        let mut m = Managed::default();
        for e in decode_managed_fields(object)? {
            let id = ManagerId::new(&e.manager, e.operation, &e.api_version, &e.subresource).key();
            let applied = e.operation == Operation::Apply;
            m.fields.insert(
                id.clone(),
                VersionedSet::new(e.fields, e.api_version, applied),
            );
            m.times
                .insert(id, e.time.as_deref().and_then(|t| Time::parse(t).ok()));
        }
        Ok(m)
    }

    pub fn time(&self, key: &str) -> Option<Time> {
        self.times.get(key).copied().flatten()
    }

    /// Entries as the server encodes and sorts them (the field sets move into them).
    pub fn encode(self) -> Vec<ManagedFieldsEntry> {
        let times = self.times;
        let mut entries: Vec<(Option<Time>, ManagedFieldsEntry)> = self
            .fields
            .into_iter()
            .filter_map(|(key, vs)| {
                let id = ManagerId::from_key(&key)?;
                let time = times.get(&key).copied().flatten();
                Some((
                    time,
                    ManagedFieldsEntry {
                        manager: id.manager,
                        operation: if vs.applied {
                            Operation::Apply
                        } else {
                            id.operation
                        },
                        api_version: vs.api_version,
                        time: time.map(|t| t.to_string()),
                        fields: vs.set,
                        subresource: id.subresource,
                    },
                ))
            })
            .collect();
        entries.sort_by(|(ta, a), (tb, b)| {
            let secs = |t: &Option<Time>| t.map_or(0, |t| t.0);
            (
                a.operation,
                secs(ta),
                &a.manager,
                &a.api_version,
                &a.subresource,
            )
                .cmp(&(
                    b.operation,
                    secs(tb),
                    &b.manager,
                    &b.api_version,
                    &b.subresource,
                ))
        });
        entries.into_iter().map(|(_, e)| e).collect()
    }

    /// Merges the oldest Update entries into `ancient-changes` until at most the cap remain.
    pub fn cap_update_managers(&mut self) {
        let mut updaters: Vec<String> = self
            .fields
            .iter()
            .filter(|(_, vs)| !vs.applied)
            .map(|(k, _)| k.clone())
            .collect();
        if updaters.len() <= MAX_UPDATE_MANAGERS {
            return;
        }
        updaters.sort_by_key(|k| (self.time(k).map_or(0, |t| t.0), k.clone()));
        let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
        let mut count = updaters.len();
        for manager in updaters {
            if count <= MAX_UPDATE_MANAGERS {
                break;
            }
            let vs = self.fields[&manager].clone();
            let time = self.time(&manager);
            let bucket = ManagerId::new(
                ANCIENT_CHANGES_MANAGER,
                Operation::Update,
                &vs.api_version,
                "",
            )
            .key();
            match first_of_version.get(&vs.api_version) {
                Some(first) => {
                    if !self.fields.contains_key(&bucket) {
                        let s = self
                            .fields
                            .remove(first)
                            .expect("the first manager is present");
                        self.fields.insert(bucket.clone(), s);
                    }
                    let merged = vs.set.union(&self.fields[&bucket].set);
                    self.fields.insert(
                        bucket.clone(),
                        VersionedSet::new(merged, vs.api_version.clone(), vs.applied),
                    );
                    self.fields.remove(&manager);
                    count -= 1;
                    self.times.insert(bucket, time);
                }
                None => {
                    first_of_version.insert(vs.api_version.clone(), manager);
                }
            }
        }
    }
}

/// Fields no manager owns: identity and server-set metadata (`stripMetaManager`).
fn strip_set() -> &'static Set {
    static STRIP: std::sync::OnceLock<Set> = std::sync::OnceLock::new();
    let meta = |f: &str| Path::fields(&["metadata", f]);
    STRIP.get_or_init(|| {
        Set::from_paths([
            Path::fields(&["apiVersion"]),
            Path::fields(&["kind"]),
            Path::fields(&["metadata"]),
            meta("name"),
            meta("namespace"),
            meta("creationTimestamp"),
            meta("selfLink"),
            meta("uid"),
            meta("clusterName"),
            meta("generation"),
            meta("managedFields"),
            meta("resourceVersion"),
        ])
    })
}

pub(super) fn strip_meta(managed: &mut Managed, key: &str) {
    if let Some(vs) = managed.fields.get_mut(key) {
        vs.set.subtract(strip_set());
        if vs.set.is_empty() {
            managed.fields.remove(key);
        }
    }
}
