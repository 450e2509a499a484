//! The API server's write path around the engine (k8s.io/apiserver's field manager stack):
//! one [`write`] per apply or update, returning the stored object with its managedFields.
//!
//! Rules, in the order the server's managers wrap each other:
//! - apply: the object's group/version/kind must be the endpoint's (`invalid object type`);
//! - apply as `kubectl` to an object with a last-applied annotation: conflicts on fields whose
//!   live value still equals the last-applied one are forced, and the annotation is rewritten
//!   from the applied configuration ([`super::last_applied`]);
//! - nothing tracked yet: an apply first attributes every stored field to `before-first-apply`
//!   (an Update); an update of a stored object (one with `metadata.uid`) stays untracked;
//! - more than 10 Update entries: the oldest are merged into `ancient-changes` per version;
//! - managers are keyed by (manager, operation, apiVersion for updates, subresource), see
//!   [`ManagerId`]; a manager's time moves to `now` (whole seconds) only when its write changed
//!   the object (apply) or took fields (update);
//! - `apiVersion`, `kind` and server-set metadata are never owned;
//! - an update body's managedFields replace the stored ones when they decode to something,
//!   `[]` or `[{}]` stop tracking; an applied object must carry none (`must be nil`);
//! - with `reset_fields`, `status` through the main resource (or `spec` through `status`) is
//!   neither owned nor changed ([`super::reset`]);
//! - entries are sorted Apply first, then by time, manager, apiVersion, subresource.
//!
//! With `defaulting`, the merged object is stored as the API server would store it (typed round
//! trip and defaults, [`crate::defaults`]); managedFields are computed before, from the merge.

use super::entry::{decode_managed_fields, encode_managed_fields, ManagedFieldsEntry, Operation};
use super::last_applied::{self, KUBECTL_MANAGER};
use super::manager::ManagerId;
use super::reset;
use super::time::Time;
use crate::fieldpath::{ManagedFields, Path, Set, VersionedSet};
use crate::kube::{GroupVersionKind, ObjectRef, ResolvedKind};
use crate::merge::{ApplyOutcome, Conflicts, SingleVersion, UpdateError, Updater};
use crate::typed::Typed;
use crate::value::{Map, Value};
use std::collections::BTreeMap;

/// Update entries kept before the oldest are merged (`DefaultMaxUpdateManagers`).
pub const MAX_UPDATE_MANAGERS: usize = 10;
/// The entry old updates are merged into.
pub const ANCIENT_CHANGES_MANAGER: &str = "ancient-changes";
/// The entry an object's untracked fields are given on its first apply.
pub const BEFORE_FIRST_APPLY_MANAGER: &str = "before-first-apply";
const CURRENT_OPERATION: &str = "current-operation";

/// One write: who, how, through which endpoint, and when.
#[derive(Debug, Clone, Copy)]
pub struct WriteRequest<'a> {
    pub operation: Operation,
    pub manager: &'a str,
    /// Apply only: take conflicting fields instead of failing.
    pub force: bool,
    /// "" for the main resource, else e.g. "status".
    pub subresource: &'a str,
    /// The clock, RFC 3339; stored to the second.
    pub now: &'a str,
    /// Apply the registry strategies' reset fields (the server always does).
    pub reset_fields: bool,
    /// Normalize unions (KEP-1027) on this write; the server never does (docs/unions.md).
    pub normalize_unions: bool,
    /// Store the merged object round-tripped and defaulted, as the API server does.
    pub defaulting: bool,
}

/// What a successful write stored.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteOutcome {
    /// The full stored object, `metadata.managedFields` included.
    pub object: Value,
    /// The object apart from managedFields differs from the stored one (always, on create).
    pub changed: bool,
    /// `metadata.managedFields` differ from the stored ones.
    pub managed_fields_changed: bool,
}

/// One field another manager owns that the apply would change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictDetail {
    pub path: Path,
    pub manager: String,
    pub operation: Operation,
    /// Empty for appliers.
    pub api_version: String,
    pub subresource: String,
    pub time: Option<String>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WriteError {
    /// The apply would change fields others own; `message` is the server's text.
    #[error("{message}")]
    Conflicts {
        conflicts: Vec<ConflictDetail>,
        message: String,
    },
    /// An object does not fit its schema; the message names the object and the path.
    #[error("{message}")]
    Invalid { message: String },
    /// The request itself is wrong (managedFields in an apply, another kind, a bad clock).
    #[error("{message}")]
    BadRequest { message: String },
    /// The stored managedFields cannot be decoded (apply).
    #[error("{message}")]
    ManagedFields { message: String },
    /// The engine failed.
    #[error("{message}")]
    Internal { message: String },
}

/// Applies or updates `object` over the stored object `live` (`None`: the write creates it).
pub fn write(
    live: Option<&Value>,
    object: &Value,
    kind: &ResolvedKind,
    req: &WriteRequest,
) -> Result<WriteOutcome, WriteError> {
    let now = Time::parse(req.now).map_err(|e| WriteError::BadRequest {
        message: e.to_string(),
    })?;
    let stored = live.cloned().unwrap_or_else(|| Value::Map(Map::new()));
    let ctx = Context::new(kind, req, now);
    let mut result = match req.operation {
        Operation::Apply => ctx.apply(&stored, object)?,
        Operation::Update => ctx.update(live.is_some_and(has_uid), &stored, object)?,
    };
    if req.defaulting {
        crate::defaults::store_over(&mut result, &stored, kind);
    }
    keep_times_of_noop(&stored, &mut result);
    let changed =
        live.is_none() || without_managed_fields(&stored) != without_managed_fields(&result);
    let managed_fields_changed = stored.get_path(&["metadata", "managedFields"])
        != result.get_path(&["metadata", "managedFields"]);
    Ok(WriteOutcome {
        object: result,
        changed,
        managed_fields_changed,
    })
}

/// The managers' sets keyed by [`ManagerId::key`], and their times.
#[derive(Debug, Clone, Default)]
struct Managed {
    fields: ManagedFields,
    times: BTreeMap<String, Option<Time>>,
}

impl Managed {
    fn decode(object: &Value) -> Result<Managed, super::entry::ManagedFieldsError> {
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

    fn time(&self, key: &str) -> Option<Time> {
        self.times.get(key).copied().flatten()
    }

    /// Entries as the server encodes and sorts them.
    fn encode(&self) -> Vec<ManagedFieldsEntry> {
        let mut entries: Vec<(Option<Time>, ManagedFieldsEntry)> = self
            .fields
            .iter()
            .filter_map(|(key, vs)| {
                let id = ManagerId::from_key(key)?;
                let time = self.time(key);
                Some((
                    time,
                    ManagedFieldsEntry {
                        manager: id.manager,
                        operation: if vs.applied {
                            Operation::Apply
                        } else {
                            id.operation
                        },
                        api_version: vs.api_version.clone(),
                        time: time.map(|t| t.to_string()),
                        fields: vs.set.clone(),
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
    fn cap_update_managers(&mut self) {
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
fn strip_set() -> Set {
    let meta = |f: &str| Path::fields(&["metadata", f]);
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
}

fn strip_meta(managed: &mut Managed, key: &str) {
    if let Some(vs) = managed.fields.get_mut(key) {
        vs.set = vs.set.difference(&strip_set());
        if vs.set.is_empty() {
            managed.fields.remove(key);
        }
    }
}

/// Why one attempt failed: conflicts are kept raw for the last-applied allowance.
enum Failure {
    Conflicts(Conflicts, Managed),
    Error(WriteError),
}

impl From<WriteError> for Failure {
    fn from(e: WriteError) -> Failure {
        Failure::Error(e)
    }
}

struct Context<'a> {
    kind: &'a ResolvedKind,
    req: &'a WriteRequest<'a>,
    now: Time,
    api_version: String,
    converter: SingleVersion,
    reset: Set,
}

impl<'a> Context<'a> {
    fn new(kind: &'a ResolvedKind, req: &'a WriteRequest<'a>, now: Time) -> Context<'a> {
        let reset = if req.reset_fields {
            reset::reset_fields(kind, req.subresource)
        } else {
            Set::new()
        };
        Context {
            kind,
            req,
            now,
            api_version: kind.gvk.api_version(),
            converter: SingleVersion(kind.type_ref.clone()),
            reset,
        }
    }

    fn updater(&self) -> Updater<'_> {
        let mut u = Updater::new(&self.kind.schema, &self.converter);
        u.deduced = self.kind.deduced;
        u.normalize_unions = self.req.normalize_unions;
        if !self.reset.is_empty() {
            u.ignored
                .insert(self.api_version.clone(), self.reset.clone());
        }
        u
    }

    fn typed(&self) -> Typed<'_> {
        Typed::new(&self.kind.schema, &self.kind.type_ref)
    }

    fn id(&self, manager: &str, operation: Operation) -> String {
        let manager = if manager.is_empty() {
            "unknown"
        } else {
            manager
        };
        ManagerId::new(manager, operation, &self.api_version, self.req.subresource).key()
    }

    fn name(object: &Value, kind: &ResolvedKind) -> String {
        match ObjectRef::from_value(object) {
            Ok(r) => r.to_string(),
            Err(_) => format!("/; {}", kind.gvk),
        }
    }

    // ---- update ----

    fn update(
        &self,
        stored_has_uid: bool,
        live: &Value,
        body: &Value,
    ) -> Result<Value, WriteError> {
        let subresource = !self.req.subresource.is_empty();
        if !subresource && resets_tracking(body) {
            return Ok(without_managed_fields(body));
        }
        let from_body = if subresource {
            None
        } else {
            Managed::decode(body).ok()
        };
        let mut managed = match from_body {
            Some(m) if !m.fields.is_empty() => m,
            _ => Managed::decode(live).unwrap_or_default(),
        };
        let new = without_managed_fields(body);
        let restored = |mut object: Value| {
            if !self.reset.is_empty() {
                reset::restore(&mut object, live, &self.reset);
            }
            object
        };
        if managed.fields.is_empty() && stored_has_uid {
            return Ok(restored(new));
        }
        let stored = self.record_update(
            &without_managed_fields(live),
            &new,
            &mut managed,
            &self.id(self.req.manager, Operation::Update),
            "new",
            true,
        )?;
        let mut object = restored(stored);
        set_managed_fields(&mut object, &managed);
        Ok(object)
    }

    /// The update part of the stack: the changed fields go to `id` (timed now), then the cap.
    /// Returns the object to store (`new`, with unions normalized if asked).
    fn record_update(
        &self,
        live: &Value,
        new: &Value,
        managed: &mut Managed,
        id: &str,
        what: &str,
        normalize: bool,
    ) -> Result<Value, WriteError> {
        let typed = self.typed();
        typed.validate(new, true).map_err(|e| WriteError::Invalid {
            message: format!(
                "failed to create typed {what} object ({}): {e}",
                Self::name(new, self.kind)
            ),
        })?;
        typed
            .validate(live, true)
            .map_err(|e| WriteError::Invalid {
                message: format!(
                    "failed to create typed live object ({}): {e}",
                    Self::name(live, self.kind)
                ),
            })?;
        let mut updater = self.updater();
        updater.normalize_unions &= normalize;
        let updated = updater
            .update(
                live,
                new,
                &self.api_version,
                &managed.fields,
                CURRENT_OPERATION,
            )
            .map_err(|e| match e {
                UpdateError::Unions(e) => WriteError::Invalid {
                    message: format!("{} is invalid: {e}", Self::name(new, self.kind)),
                },
                e => WriteError::Internal {
                    message: format!(
                        "failed to update ManagedFields ({}): {e}",
                        Self::name(new, self.kind)
                    ),
                },
            })?;
        let stored = updated.object.into_owned();
        managed.fields = updated.managers;
        strip_meta(managed, CURRENT_OPERATION);
        if let Some(vs) = managed.fields.remove(CURRENT_OPERATION) {
            let set = match managed.fields.get(id) {
                Some(previous) => vs.set.union(&previous.set),
                None => vs.set,
            };
            managed.fields.insert(
                id.to_string(),
                VersionedSet::new(set, vs.api_version, false),
            );
            managed.times.insert(id.to_string(), Some(self.now));
        }
        managed.cap_update_managers();
        Ok(stored)
    }

    // ---- apply ----

    fn apply(&self, live: &Value, config: &Value) -> Result<Value, WriteError> {
        let text = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or_default();
        let gvk = GroupVersionKind::new(text("apiVersion"), text("kind"));
        if gvk != self.kind.gvk {
            return Err(WriteError::BadRequest {
                message: format!("invalid object type: {gvk}"),
            });
        }
        let managed = Managed::decode(live).map_err(|e| WriteError::ManagedFields {
            message: format!("failed to decode managed fields: {e}"),
        })?;
        let is_kubectl = self.req.manager == KUBECTL_MANAGER;
        let (mut object, managed) =
            match self.apply_once(live, config, managed.clone(), self.req.force) {
                Ok(done) => done,
                Err(Failure::Error(e)) => return Err(e),
                Err(Failure::Conflicts(conflicts, seen)) => {
                    let allowed = if is_kubectl {
                        last_applied::allowed_conflicts(
                            live,
                            &self.api_version,
                            &self.kind.schema,
                            &self.kind.type_ref,
                        )
                    } else {
                        None
                    };
                    let Some(allowed) = allowed else {
                        return Err(conflict_error(&conflicts, &seen));
                    };
                    let remaining: Vec<_> = conflicts
                        .0
                        .iter()
                        .filter(|c| !allowed.has(&c.path))
                        .cloned()
                        .collect();
                    if !remaining.is_empty() {
                        return Err(conflict_error(&Conflicts(remaining), &seen));
                    }
                    match self.apply_once(live, config, managed, true) {
                        Ok(done) => done,
                        Err(Failure::Error(e)) => return Err(e),
                        Err(Failure::Conflicts(c, seen)) => return Err(conflict_error(&c, &seen)),
                    }
                }
            };
        if !self.reset.is_empty() {
            reset::restore(&mut object, live, &self.reset);
        }
        if is_kubectl {
            last_applied::update_annotation(&mut object, config);
        }
        set_managed_fields(&mut object, &managed);
        Ok(object)
    }

    /// One apply through the inner stack: before-first-apply, the engine, meta stripping, time.
    fn apply_once(
        &self,
        live: &Value,
        config: &Value,
        mut managed: Managed,
        force: bool,
    ) -> Result<(Value, Managed), Failure> {
        let live = without_managed_fields(live);
        if managed.fields.is_empty() {
            let empty = Value::Map(Map::new());
            let id = self.id(BEFORE_FIRST_APPLY_MANAGER, Operation::Update);
            // Attributing the existing fields is not a write: never normalized.
            self.record_update(&empty, &live, &mut managed, &id, "new", false)
                .map_err(|e| WriteError::Internal {
                    message: format!("failed to create manager for existing fields: {e}"),
                })?;
        }
        if config
            .get_path(&["metadata", "managedFields"])
            .is_some_and(|v| !v.is_null())
        {
            return Err(WriteError::BadRequest {
                message: "metadata.managedFields must be nil".into(),
            }
            .into());
        }
        let typed = self.typed();
        typed
            .validate(config, false)
            .map_err(|e| WriteError::Invalid {
                message: format!(
                    "failed to create typed patch object ({}): {e}",
                    Self::name(config, self.kind)
                ),
            })?;
        typed
            .validate(&live, true)
            .map_err(|e| WriteError::Invalid {
                message: format!(
                    "failed to create typed live object ({}): {e}",
                    Self::name(&live, self.kind)
                ),
            })?;
        let id = self.id(self.req.manager, Operation::Apply);
        let outcome = match self.updater().apply(
            &live,
            config,
            &self.api_version,
            &managed.fields,
            &id,
            force,
        ) {
            Ok(o) => o,
            Err(UpdateError::Conflicts(c)) => return Err(Failure::Conflicts(c, managed)),
            Err(UpdateError::Unions(e)) => {
                return Err(WriteError::Invalid {
                    message: format!("{} is invalid: {e}", Self::name(config, self.kind)),
                }
                .into())
            }
            Err(e) => {
                return Err(WriteError::Internal {
                    message: e.to_string(),
                }
                .into())
            }
        };
        let object = match outcome {
            ApplyOutcome::Changed { object, managers } => {
                managed.fields = managers;
                managed.times.insert(id.clone(), Some(self.now));
                object
            }
            ApplyOutcome::Unchanged { managers } => {
                managed.fields = managers;
                live
            }
        };
        strip_meta(&mut managed, &id);
        Ok((object, managed))
    }
}

/// The server's conflict error (`NewConflictError`): one line for one conflict, else the paths
/// grouped under each manager, managers in identifier order.
fn conflict_error(conflicts: &Conflicts, managed: &Managed) -> WriteError {
    let mut sorted: Vec<&crate::merge::Conflict> = conflicts.0.iter().collect();
    sorted.sort_by(|a, b| a.manager.cmp(&b.manager));
    let details: Vec<ConflictDetail> = sorted
        .iter()
        .map(|c| {
            let id = ManagerId::from_key(&c.manager)
                .unwrap_or_else(|| ManagerId::new(&c.manager, Operation::Update, "", ""));
            ConflictDetail {
                path: c.path.clone(),
                manager: id.manager,
                operation: id.operation,
                api_version: id.api_version,
                subresource: id.subresource,
                time: managed.time(&c.manager).map(|t| t.to_string()),
            }
        })
        .collect();
    let describe =
        |key: &str| ManagerId::from_key(key).map_or_else(|| format!("{key:?}"), |id| id.describe());
    let message = match sorted.as_slice() {
        [one] => format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            describe(&one.manager),
            one.path
        ),
        many => {
            let mut lines = Vec::new();
            let mut last: Option<&str> = None;
            for c in many {
                if last != Some(c.manager.as_str()) {
                    lines.push(format!("conflicts with {}:", describe(&c.manager)));
                    last = Some(&c.manager);
                }
                lines.push(format!("- {}", c.path));
            }
            format!(
                "Apply failed with {} conflicts: {}",
                many.len(),
                lines.join("\n")
            )
        }
    };
    WriteError::Conflicts {
        conflicts: details,
        message,
    }
}

fn has_uid(object: &Value) -> bool {
    object
        .get_path(&["metadata", "uid"])
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
}

/// An update body whose managedFields are `[]` or only empty entries stops tracking.
fn resets_tracking(body: &Value) -> bool {
    match body.get_path(&["metadata", "managedFields"]) {
        Some(Value::List(items)) => items.iter().all(|i| i.as_map().is_some_and(Map::is_empty)),
        _ => false,
    }
}

fn without_managed_fields(object: &Value) -> Value {
    let mut o = object.clone();
    if let Some(meta) = o
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    {
        meta.shift_remove("managedFields");
    }
    o
}

/// Stores the encoded entries; no entries means no `managedFields` key at all.
fn set_managed_fields(object: &mut Value, managed: &Managed) {
    let entries = managed.encode();
    let Some(map) = object.as_map_mut() else {
        return;
    };
    if entries.is_empty() {
        if let Some(Value::Map(meta)) = map.get_mut("metadata") {
            meta.shift_remove("managedFields");
        }
        return;
    }
    let meta = map
        .entry("metadata".to_string())
        .or_insert_with(|| Value::Map(Map::new()));
    if !matches!(meta, Value::Map(_)) {
        *meta = Value::Map(Map::new());
    }
    if let Value::Map(meta) = meta {
        meta.insert("managedFields".into(), encode_managed_fields(&entries));
    }
}

/// When a write changed nothing but times, the stored times stay
/// (`IgnoreManagedFieldsTimestampsTransformer`).
fn keep_times_of_noop(stored: &Value, result: &mut Value) {
    if without_managed_fields(stored) != without_managed_fields(result) {
        return;
    }
    let entries = |o: &Value| -> Option<Vec<Value>> {
        let list = o.get_path(&["metadata", "managedFields"])?.as_list()?;
        Some(
            list.iter()
                .map(|e| {
                    let mut e = e.clone();
                    if let Some(m) = e.as_map_mut() {
                        m.shift_remove("time");
                    }
                    e
                })
                .collect(),
        )
    };
    if let (Some(old), Some(new)) = (entries(stored), entries(result)) {
        if old == new {
            let stored_fields = stored.get_path(&["metadata", "managedFields"]).cloned();
            if let (Some(v), Some(Value::Map(meta))) = (
                stored_fields,
                result.as_map_mut().and_then(|m| m.get_mut("metadata")),
            ) {
                meta.insert("managedFields".into(), v);
            }
        }
    }
}
