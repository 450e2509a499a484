//! What `kubectl apply --server-side` does around the server's answer, so that predicting it
//! takes more than the server's part (kubectl pkg/cmd/apply/apply.go `applyOneObject`):
//!
//! 1. the apply patch (the server: [`write`]);
//! 2. `saveLastApplyAnnotationIfNecessary`: with the default field manager `kubectl`, an object
//!    that has a last-applied annotation no Apply entry owns gets a second apply, as
//!    `kubectl-last-applied`, of just that annotation, so later server-side applies do not
//!    orphan it;
//! 3. `migrateToSSAIfNecessary`: the Update managers owning the annotation (client-side apply)
//!    are folded into the applier's entry (client-go csaupgrade, [`crate::csa`]) by a JSON
//!    patch of `metadata.managedFields`;
//! 4. after a migration, the same apply patch once more, so fields the configuration dropped
//!    are finally removed.
//!
//! kubectl reports a failed step 2–4 as a warning and keeps the object it has; so does this.
//! Steps 2–4 run only for the field manager `kubectl` on the main resource: kssa's
//! `--field-manager` also stands for controllers that are not kubectl.

use super::entry::Operation;
use super::last_applied::{KUBECTL_MANAGER, LAST_APPLIED_ANNOTATION};
use super::server::{write, WriteError, WriteOutcome, WriteRequest};
use crate::csa::{field_owners, last_applied_owners, last_applied_path, upgrade, Migration};
use crate::kube::ResolvedKind;
use crate::value::{Map, Value};

/// The field manager kubectl saves the annotation under (`fieldManagerLastAppliedAnnotation`).
pub const LAST_APPLIED_MANAGER: &str = "kubectl-last-applied";

/// A kubectl apply's result and the warnings kubectl would print on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct KubectlOutcome {
    pub outcome: WriteOutcome,
    pub warnings: Vec<String>,
}

/// One `kubectl apply --server-side` of `config` onto `live`: the server's apply, then, for
/// the manager `kubectl`, kubectl's own follow-up requests.
pub fn apply(
    live: Option<&Value>,
    config: &Value,
    kind: &ResolvedKind,
    req: &WriteRequest,
) -> Result<KubectlOutcome, WriteError> {
    let follows_up = req.manager == KUBECTL_MANAGER
        && req.operation == Operation::Apply
        && req.subresource.is_empty();
    // Steps 2 and 3 read the managedFields of what the server returned. They can act only on
    // an object that exists already or is created carrying the annotation; a create without it
    // leaves them nothing to do, and its managedFields may go unencoded when unread.
    let steps_read_managed = follows_up
        && (live.is_some()
            || config
                .get_path(&["metadata", "annotations", LAST_APPLIED_ANNOTATION])
                .is_some());
    let encoding = WriteRequest {
        managed_fields: req.managed_fields || steps_read_managed,
        patch: None,
        ..*req
    };
    let req = &encoding;
    let first = write(live, config, kind, req)?;
    let mut warnings = Vec::new();
    if !follows_up {
        return Ok(KubectlOutcome {
            outcome: first,
            warnings,
        });
    }
    let mut object = first.object;
    match save_last_applied(&object, config, kind, req) {
        Err(e) => warnings.push(format!(
            "failed to preserve last-applied-configuration annotation: {e}"
        )),
        Ok(saved) => {
            if let Some(saved) = saved {
                object = saved;
            }
            match migrate(&object, kind, req) {
                Err(e) => warnings.push(format!("failed to migrate managedFields: {e}")),
                Ok(None) => {}
                Ok(Some(migrated)) => match write(Some(&migrated), config, kind, req) {
                    Ok(again) => object = again.object,
                    Err(e) => {
                        object = migrated;
                        warnings.push(format!(
                            "failed to re-apply configuration after performing migration: {e}"
                        ));
                    }
                },
            }
        }
    }
    Ok(KubectlOutcome {
        outcome: outcome_against(live, object, first.warnings),
        warnings,
    })
}

/// What the whole sequence changed, measured against the object before the first request.
fn outcome_against(live: Option<&Value>, object: Value, warnings: Vec<String>) -> WriteOutcome {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(Value::Map(meta)) = v.as_map_mut().and_then(|m| m.get_mut("metadata")) {
            meta.shift_remove("managedFields");
        }
        v
    };
    let managed = |v: &Value| v.get_path(&["metadata", "managedFields"]).cloned();
    let (changed, managed_fields_changed) = match live {
        None => (true, true),
        Some(l) => (strip(l) != strip(&object), managed(l) != managed(&object)),
    };
    WriteOutcome {
        object,
        changed,
        managed_fields_changed,
        warnings,
    }
}

/// Step 2: the annotation applied on its own by `kubectl-last-applied`, when no Apply entry
/// owns it yet. `None`: nothing to do.
fn save_last_applied(
    object: &Value,
    config: &Value,
    kind: &ResolvedKind,
    req: &WriteRequest,
) -> Result<Option<Value>, WriteError> {
    let Some(annotation) = object
        .get_path(&["metadata", "annotations", LAST_APPLIED_ANNOTATION])
        .cloned()
    else {
        return Ok(None);
    };
    if !field_owners(object, "Apply", &last_applied_path()).is_empty() {
        return Ok(None);
    }
    let text =
        |v: &Value, path: &[&str]| v.get_path(path).and_then(Value::as_str).map(str::to_string);
    let mut meta = Map::default();
    if let Some(name) = text(object, &["metadata", "name"]) {
        meta.insert("name".into(), Value::from(name.as_str()));
    }
    if let Some(ns) = text(object, &["metadata", "namespace"]).filter(|n| !n.is_empty()) {
        meta.insert("namespace".into(), Value::from(ns.as_str()));
    }
    let mut annotations = Map::default();
    annotations.insert(LAST_APPLIED_ANNOTATION.into(), annotation);
    meta.insert("annotations".into(), Value::Map(annotations));
    let mut just_annotation = Map::default();
    // The mapping's group/version/kind: the one the configuration was sent as.
    for key in ["apiVersion", "kind"] {
        if let Some(v) = config.get(key) {
            just_annotation.insert(key.into(), v.clone());
        }
    }
    just_annotation.insert("metadata".into(), Value::Map(meta));
    let req = WriteRequest {
        manager: LAST_APPLIED_MANAGER,
        force: false,
        ..*req
    };
    write(Some(object), &Value::Map(just_annotation), kind, &req).map(|o| Some(o.object))
}

/// Step 3: the client-side managers owning the annotation folded into the applier; the JSON
/// patch reaches the server as an update whose managedFields replace the stored ones.
/// `None`: nothing to migrate.
fn migrate(
    object: &Value,
    kind: &ResolvedKind,
    req: &WriteRequest,
) -> Result<Option<Value>, WriteError> {
    // Only Update entries are folded into the Apply entry: without one there is nothing to
    // migrate (the entries are the server's own encoding, so each of them reads).
    if !has_update_entry(object) {
        return Ok(None);
    }
    let owners = last_applied_owners(object);
    let migration = Migration::new(owners, req.manager, "");
    let upgraded = upgrade(object, &migration).map_err(|e| WriteError::ManagedFields {
        message: e.to_string(),
    })?;
    if !upgraded.changed {
        return Ok(None);
    }
    let mut body = object.clone();
    upgraded.write_into(&mut body);
    // kubectl sends the migration as a JSON patch of metadata.managedFields alone: the body
    // checks of a PUT (crate::validate) have nothing to see in it.
    let req = WriteRequest {
        operation: Operation::Update,
        force: false,
        validation: None,
        ..*req
    };
    write(Some(object), &body, kind, &req).map(|o| Some(o.object))
}

fn has_update_entry(object: &Value) -> bool {
    let Some(Value::List(entries)) = object.get_path(&["metadata", "managedFields"]) else {
        return false;
    };
    entries
        .iter()
        .any(|e| e.get("operation").and_then(Value::as_str) == Some("Update"))
}

#[cfg(test)]
mod tests;
