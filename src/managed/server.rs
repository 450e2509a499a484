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
//! - with `reset_fields`, the endpoint's reset fields (`status` through the main resource,
//!   `spec` through `status`, and the per-kind extras of [`super::reset`]) are neither owned
//!   nor changed (a create only clears `status`);
//! - entries are sorted Apply first, then by time, manager, apiVersion, subresource.
//!
//! With `defaulting`, the stored object is first decoded as the server reads it
//! ([`crate::defaults::decode_stored`]), and the merged object is stored as the API server would
//! store it (typed round trip and defaults, [`crate::defaults`]); managedFields are computed
//! before, from the merge.

use super::conflict::conflict_error;
use super::entry::{encode_managed_fields, Operation};
use super::last_applied::{self, KUBECTL_MANAGER};
use super::manager::ManagerId;
use super::reset;
use super::state::{strip_meta, Managed};
use super::time::Time;
use crate::fieldpath::{Path, Set, VersionedSet};
use crate::kube::{storage, GroupVersionKind, ObjectRef, ResolvedKind, VersionConverter};
use crate::merge::{ApplyOutcome, Conflicts, Converter, UpdateError, Updater};
use crate::typed::Typed;
use crate::validate::{
    self, ErrorType, FieldValidation, Reason, StatusCause, StatusDetails, StatusError,
};
use crate::value::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

pub use super::state::{ANCIENT_CHANGES_MANAGER, MAX_UPDATE_MANAGERS};
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
    /// Store the merged object as the API server does: converted to the internal type (Secret
    /// `stringData` folded into `data`, [`crate::kube::storage`]), round-tripped, defaulted,
    /// and without a namespace when the kind is cluster-scoped. Off: the raw merge.
    pub defaulting: bool,
    /// Check the write as the server does ([`crate::validate`]) with this field validation
    /// (`--validate`); `None`: the engine only (vectors, replays, library uses).
    pub validation: Option<FieldValidation>,
    /// Encode the managers' field sets into the result's `metadata.managedFields`. Off for a
    /// caller that never reads them (a diff that hides them), which spares their encoding: the
    /// result may then lack managedFields, and `managed_fields_changed` tells nothing.
    pub managed_fields: bool,
    /// An update made by a PATCH: its type and document, which the server's refusals quote.
    pub patch: Option<validate::Patch<'a>>,
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
    /// The server's warnings, as kubectl prints them (`Warning: …`).
    pub warnings: Vec<String>,
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
    /// The server refuses the write (400, 404, 409, 422), as [`crate::validate`] predicts,
    /// with the warnings sent along with the refusal (`Warning: …` lines; the decoder's, when
    /// validation refuses the object).
    #[error("{0}")]
    Refused(StatusError, Vec<String>),
}

/// Whether an applied configuration sets `metadata.managedFields` (even `[]`), which the field
/// manager refuses before anything else (managedfields structuredmerge.go `Apply`).
pub(crate) fn carries_managed_fields(config: &Value) -> bool {
    config
        .get_path(&["metadata", "managedFields"])
        .is_some_and(|v| !v.is_null())
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
    let converter = VersionConverter::for_kind(kind).map_err(|e| WriteError::Internal {
        message: e.to_string(),
    })?;
    // The handler decodes the stored object at the request's version and the field manager
    // works there (k8s.io/apiserver endpoints/handlers/patch.go, managedfields
    // structuredMergeManager): a live snapshot at another served version is converted first,
    // and the result converted back for display at the snapshot's version.
    let original = live;
    let request_version = kind.gvk.api_version();
    let live_version = live
        .and_then(|l| l.get("apiVersion"))
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty() && *v != request_version);
    let converted;
    let live = match (live, live_version) {
        (Some(l), Some(v)) => {
            converted =
                converter
                    .convert(l, v, &request_version)
                    .map_err(|e| WriteError::BadRequest {
                        message: format!(
                            "the live object at {v} cannot be read at {request_version}: {e}"
                        ),
                    })?;
            Some(&converted)
        }
        _ => live,
    };
    let stored = read_stored(live, kind, req);
    let stored = stored.as_ref();
    // The server always reads the stored object decoded: without defaulting the write keeps
    // the raw snapshot, but the checks (immutability above all) compare with what it reads.
    let read_for_check = match (req.validation, req.defaulting) {
        (Some(_), false) => read_stored(
            live,
            kind,
            &WriteRequest {
                defaulting: true,
                ..*req
            },
        ),
        _ => Cow::Borrowed(stored),
    };
    // The request and its body are checked before the field manager, the object it would
    // store after defaulting (crate::validate: the handlers' order).
    let check = req.validation.map(|field_validation| validate::Write {
        kind,
        operation: req.operation,
        manager: req.manager,
        subresource: req.subresource,
        field_validation,
        body: object,
        patch: req.patch,
        live: live.map(|_| read_for_check.as_ref()),
    });
    let mut warnings = match &check {
        Some(check) => check
            .before()
            .map_err(|e| WriteError::Refused(e, Vec::new()))?,
        None => Vec::new(),
    };
    // An update body is decoded into the typed object before the field manager sees it, and
    // decoding defaults it: unknown fields are dropped and the updater owns what defaulting
    // filled in. An apply configuration is never defaulted (only the merged result is).
    let decoded;
    let object = if req.operation == Operation::Update && req.defaulting {
        let mut body = object.clone();
        storage::fold_secret_string_data(&mut body);
        crate::defaults::store(&mut body, kind, crate::defaults::Stage::Defaulted);
        crate::kube::pod_prepare::convert_pod_fields(&mut body);
        decoded = body;
        &decoded
    } else {
        object
    };
    let ctx = Context::new(kind, req, now, live.is_none(), converter);
    let mut result = match req.operation {
        Operation::Apply => ctx.apply(stored, object)?,
        Operation::Update => {
            let empty;
            let base = match live {
                Some(_) => stored,
                None => {
                    empty = ctx.empty();
                    &empty
                }
            };
            ctx.update(live.is_some_and(has_uid), base, object)?
        }
    };
    if req.defaulting {
        // The merged apply reaches the internal type only now (after the field manager).
        storage::fold_secret_string_data(&mut result);
        crate::defaults::store_over(&mut result, stored, kind);
        crate::kube::pod_prepare::convert_pod_fields(&mut result);
        storage::type_claim_templates(&mut result);
        if live.is_some() {
            crate::kube::update_meta::restore(&mut result, stored);
        }
        crate::kube::strategy_prepare::prepare(
            &mut result,
            live.map(|_| stored),
            kind.kube_version,
            req.subresource,
        );
        if live.is_none() && req.subresource.is_empty() {
            let now = ctx.now.rfc3339_bytes();
            let now = now.as_ref().and_then(|b| std::str::from_utf8(b).ok());
            let now = now.unwrap_or_default();
            crate::kube::created_status::set(&mut result, object, kind.kube_version, now);
        }
    }
    if let Some(check) = &check {
        let more = check.after(&result, req.defaulting).map_err(|e| {
            let mut sent = std::mem::take(&mut warnings);
            sent.extend(crate::validate::builtin::warnings::before_validation(check));
            WriteError::Refused(e, sent)
        })?;
        warnings.extend(more);
        warnings = crate::validate::builtin::warnings::recorded(warnings);
    }
    // Validation prepared its own copy of a Service (the allocator answers between filling in
    // and wiping); the object kept gets the part of that preparation the cluster does not decide.
    if req.defaulting && req.subresource.is_empty() && live.is_some() {
        crate::kube::service_prepare::settle_update(&mut result, stored);
    }
    // Compared with the object as stored: at the snapshot's own version, read again only when
    // the write worked on a converted copy.
    let stored_original;
    let stored = match live_version {
        Some(_) => {
            stored_original = read_stored(original, kind, req);
            stored_original.as_ref()
        }
        None => stored,
    };
    if let (Some(v), Some(original)) = (live_version, original) {
        result = ctx
            .converter
            .convert(&result, &request_version, v)
            .map_err(|e| WriteError::Internal {
                message: format!("failed to convert the result back to {v}: {e}"),
            })?;
        // The strategies' PrepareForUpdate keeps the stored reset fields on the internal
        // object, which the request's version may not hold in full (v1 HPA conditions).
        if !ctx.restore.is_empty() {
            ctx.restore.put_back(&mut result, original);
        }
    }
    if same_apart_from_managed_fields(stored, &result) {
        keep_times_of_noop(stored, &mut result);
    }
    // BeforeCreate/BeforeUpdate run after the timestamp check: a stray namespace still counts
    // as a change there.
    if req.defaulting && kind.info.as_ref().is_some_and(|i| !i.namespaced) {
        storage::clear_namespace(&mut result);
    }
    keep_managed_fields_place(stored, &mut result);
    let changed = original.is_none() || !same_apart_from_managed_fields(stored, &result);
    let managed_fields_changed = stored.get_path(&["metadata", "managedFields"])
        != result.get_path(&["metadata", "managedFields"]);
    Ok(WriteOutcome {
        object: result,
        changed,
        managed_fields_changed,
        warnings,
    })
}

/// The stored object as the server reads it: with `defaulting`, decoded and defaulted before
/// the field manager compares anything with it (the read path, [`crate::defaults::decode_stored`]).
fn read_stored<'a>(
    live: Option<&'a Value>,
    kind: &ResolvedKind,
    req: &WriteRequest,
) -> Cow<'a, Value> {
    match live {
        None => Cow::Owned(Value::Map(Map::default())),
        Some(live) if !req.defaulting => Cow::Borrowed(live),
        Some(live) => {
            let mut stored = live.clone();
            crate::defaults::decode_stored(&mut stored, kind);
            Cow::Owned(stored)
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
    converter: Arc<VersionConverter>,
    reset: Set,
    /// What is put back from the stored object: the stored value (or absence) of all of
    /// `reset` on an update, only `status` on a create.
    restore: reset::Kept,
}

impl<'a> Context<'a> {
    fn new(
        kind: &'a ResolvedKind,
        req: &'a WriteRequest<'a>,
        now: Time,
        creating: bool,
        converter: Arc<VersionConverter>,
    ) -> Context<'a> {
        let reset = if req.reset_fields {
            reset::reset_fields(kind, req.subresource)
        } else {
            Set::new()
        };
        let fields = if creating {
            reset::cleared_on_create(kind, &reset)
        } else {
            reset.clone()
        };
        let restore = reset::Kept::new(kind, req.subresource, fields, creating);
        let reset = if reset::reset_fields_owned(kind) {
            Set::new()
        } else {
            reset
        };
        Context {
            kind,
            req,
            now,
            api_version: kind.gvk.api_version(),
            converter,
            reset,
            restore,
        }
    }

    /// What a create compares against: the kind's typed zero object when the typed model is
    /// in use, else `{}`. Built only for creates and first applies.
    fn empty(&self) -> Value {
        if self.req.defaulting {
            crate::defaults::zero_object(self.kind)
        } else {
            Value::Map(Map::default())
        }
    }

    fn updater(&self) -> Updater<'_> {
        let mut u = Updater::new(self.converter.schema(), &*self.converter);
        u.deduced = self.kind.deduced;
        u.normalize_unions = self.req.normalize_unions;
        // Every apply's configuration is validated first (`apply_once`).
        u.config_validated = true;
        if !self.reset.is_empty() {
            // The strategies reset the same fields at every served version.
            for version in self.converter.api_versions() {
                u.ignored.insert(version.to_string(), self.reset.clone());
            }
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
            if !self.restore.is_empty() {
                self.restore.put_back(&mut object, live);
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
        let stored = match stored {
            Cow::Owned(normalized) => normalized,
            Cow::Borrowed(_) => new,
        };
        let mut object = restored(stored);
        self.set_managed_fields(&mut object, managed);
        Ok(object)
    }

    /// The update part of the stack: the changed fields go to `id` (timed now), then the cap.
    /// Returns the object to store (`new`, with unions normalized if asked).
    fn record_update<'v>(
        &self,
        live: &Value,
        new: &'v Value,
        managed: &mut Managed,
        id: &str,
        what: &str,
        normalize: bool,
    ) -> Result<Cow<'v, Value>, WriteError> {
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
        let stored = updated.object;
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
        if !self.restore.is_empty() {
            self.restore.put_back(&mut object, live);
        }
        if is_kubectl {
            last_applied::update_annotation(&mut object, config);
        }
        self.set_managed_fields(&mut object, managed);
        Ok(object)
    }

    /// [`set_managed_fields`], or none at all when the request does not want them.
    fn set_managed_fields(&self, object: &mut Value, managed: Managed) {
        match self.req.managed_fields {
            true => set_managed_fields(object, managed),
            false => set_managed_fields(object, Managed::default()),
        }
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
        // An empty live object (a create) holds no field to attribute: the update from the
        // empty object to it adds and changes nothing, and only those are owned.
        let nothing_to_attribute = live.as_map().is_some_and(|m| m.is_empty());
        if managed.fields.is_empty() && !nothing_to_attribute {
            let empty = self.empty();
            let id = self.id(BEFORE_FIRST_APPLY_MANAGER, Operation::Update);
            // Attributing the existing fields is not a write: never normalized.
            self.record_update(&empty, &live, &mut managed, &id, "new", false)
                .map_err(|e| WriteError::Internal {
                    message: format!("failed to create manager for existing fields: {e}"),
                })?;
        }
        if carries_managed_fields(config) {
            // A refusal of the object, not of kssa's input: the manifest is often a copy of
            // `kubectl get -o yaml` (managedfields structuredmerge.go `Apply`).
            const MESSAGE: &str = "metadata.managedFields must be nil";
            let mut refusal = StatusError::plain(Reason::BadRequest, MESSAGE);
            // The cause lets reports point at the field; the server's Status has none.
            refusal.details = Some(Box::new(StatusDetails {
                group: self.kind.gvk.group.clone(),
                kind: self.kind.gvk.kind.clone(),
                name: config
                    .get_path(&["metadata", "name"])
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                causes: vec![StatusCause {
                    error_type: ErrorType::Invalid,
                    field: "metadata.managedFields".into(),
                    message: MESSAGE.into(),
                }],
            }));
            return Err(WriteError::Refused(refusal, Vec::new()).into());
        }
        let typed = self.typed();
        // The server answers a plain error (500): kubectl prints `Error from server: …`.
        typed.validate(config, false).map_err(|e| {
            let message = format!(
                "failed to create typed patch object ({}): {e}",
                Self::name(config, self.kind)
            );
            let fields = e.0.iter().map(|f| (f.path.clone(), f.message.clone()));
            WriteError::Refused(StatusError::unknown_at_fields(message, fields), Vec::new())
        })?;
        typed
            .validate(&live, true)
            .map_err(|e| WriteError::Invalid {
                message: format!(
                    "failed to create typed live object ({}): {e}",
                    Self::name(&live, self.kind)
                ),
            })?;
        if nothing_to_attribute && !self.req.managed_fields && !self.req.normalize_unions {
            // A create whose managedFields nobody reads: the engine would merge the validated
            // configuration into the empty object, which leaves it as it is (`typed::merge`),
            // and record its field set, which would never be encoded.
            return Ok((config.clone(), managed));
        }
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

/// A copy of the object without `metadata.managedFields`; the entries are never copied.
fn without_managed_fields(object: &Value) -> Value {
    let Value::Map(top) = object else {
        return object.clone();
    };
    let entries = top.iter().map(|(k, v)| {
        let v = match v {
            Value::Map(meta) if k == "metadata" => Value::Map(
                meta.iter()
                    .filter(|(k, _)| *k != "managedFields")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            _ => v.clone(),
        };
        (k.clone(), v)
    });
    Value::Map(entries.collect())
}

/// Stores the encoded entries; no entries means no `managedFields` key at all.
fn set_managed_fields(object: &mut Value, managed: Managed) {
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
        .or_insert_with(|| Value::Map(Map::default()));
    if !matches!(meta, Value::Map(_)) {
        *meta = Value::Map(Map::default());
    }
    if let Value::Map(meta) = meta {
        meta.insert("managedFields".into(), encode_managed_fields(&entries));
    }
}

/// `metadata.managedFields` stays where the stored object had it, so diffs of snapshots show
/// only real changes.
fn keep_managed_fields_place(stored: &Value, result: &mut Value) {
    let Some(Value::Map(old)) = stored.get("metadata") else {
        return;
    };
    let Some(Value::Map(meta)) = result.as_map_mut().and_then(|m| m.get_mut("metadata")) else {
        return;
    };
    if let (Some(want), Some(at)) = (
        old.get_index_of("managedFields"),
        meta.get_index_of("managedFields"),
    ) {
        let last = meta.len() - 1;
        meta.move_index(at, want.min(last));
    }
}

/// Whether two objects are equal once `metadata.managedFields` is left out of both, compared
/// in place: copying both objects only to decide this dominated the cost of a write.
fn same_apart_from_managed_fields(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Map(a), Value::Map(b)) => map_eq_except(a, b, None, |key, x, y| match (x, y) {
            (Value::Map(x), Value::Map(y)) if key == "metadata" => {
                map_eq_except(x, y, Some("managedFields"), |_, x, y| x == y)
            }
            _ => x == y,
        }),
        _ => a == b,
    }
}

/// Map equality (as `Value`'s: entry order does not matter) with the entry `skip` left out of
/// both sides and the values compared by `eq`.
fn map_eq_except(
    a: &Map,
    b: &Map,
    skip: Option<&str>,
    eq: impl Fn(&str, &Value, &Value) -> bool,
) -> bool {
    let skipped = |k: &str| skip == Some(k);
    let len = |m: &Map| m.len() - skip.map_or(0, |k| usize::from(m.contains_key(k)));
    len(a) == len(b)
        && a.iter()
            .filter(|(k, _)| !skipped(k))
            .all(|(k, x)| b.get(k).is_some_and(|y| eq(k, x, y)))
}

/// When a write changed nothing but times, the stored times stay
/// (`IgnoreManagedFieldsTimestampsTransformer`). Called only when the objects apart from
/// managedFields are equal.
fn keep_times_of_noop(stored: &Value, result: &mut Value) {
    fn entries(o: &Value) -> Option<&[Value]> {
        Some(
            o.get_path(&["metadata", "managedFields"])?
                .as_list()?
                .as_slice(),
        )
    }
    let same_but_times = |old: &[Value], new: &[Value]| {
        old.len() == new.len()
            && old.iter().zip(new).all(|(x, y)| match (x, y) {
                (Value::Map(x), Value::Map(y)) => {
                    map_eq_except(x, y, Some("time"), |_, x, y| x == y)
                }
                _ => x == y,
            })
    };
    if let (Some(old), Some(new)) = (entries(stored), entries(result)) {
        if same_but_times(old, new) {
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
