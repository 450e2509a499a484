//! Apply and update, as structured-merge-diff's `merge.Updater` performs them.

use super::conflict::Conflicts;
use super::converter::{ConversionError, Converter};
use crate::fieldpath::{ManagedFields, Set, VersionedSet};
use crate::schema::{Schema, TypeRef};
use crate::typed::{
    ensure_named_fields_are_members, reconcile_field_set_with_schema, Comparison, Normalization,
    Typed, UnionErrors,
};
use crate::value::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UpdateError {
    #[error("{0}")]
    Conflicts(Conflicts),
    /// Union normalization rejected the object (only with [`Updater::normalize_unions`]).
    #[error("{0}")]
    Unions(UnionErrors),
    #[error("{context}: {message}")]
    Failed {
        context: &'static str,
        message: String,
    },
}

impl UpdateError {
    fn failed(context: &'static str, e: impl std::fmt::Display) -> UpdateError {
        UpdateError::Failed {
            context,
            message: e.to_string(),
        }
    }
}

/// What an apply did.
#[derive(Debug, Clone, PartialEq)]
pub enum ApplyOutcome {
    /// The object changed (or no-op detection is off).
    Changed {
        object: Value,
        managers: ManagedFields,
    },
    /// The object is exactly as it was; ownership may still have changed.
    Unchanged { managers: ManagedFields },
}

impl ApplyOutcome {
    pub fn managers(&self) -> &ManagedFields {
        match self {
            ApplyOutcome::Changed { managers, .. } | ApplyOutcome::Unchanged { managers } => {
                managers
            }
        }
    }
}

/// What an update stores: the new object (normalized when unions are) and the owners.
#[derive(Debug, Clone, PartialEq)]
pub struct Updated<'v> {
    pub object: Cow<'v, Value>,
    pub managers: ManagedFields,
}

/// Computes new objects and ownership for apply and update operations.
pub struct Updater<'a> {
    pub schema: &'a Schema,
    pub converter: &'a dyn Converter,
    /// Per API version, fields no manager may own.
    pub ignored: BTreeMap<String, Set>,
    /// Return the object even when an apply changed nothing.
    pub return_input_on_noop: bool,
    /// The schema is the deduced one: ownership is never reconciled with schema changes.
    pub deduced: bool,
    /// Normalize unions (KEP-1027) as structured-merge-diff v4.3.0 did; the API server never
    /// does, so this is off by default.
    pub normalize_unions: bool,
    /// The caller checked every applied configuration against the schema, duplicates refused
    /// (as the API server's field manager does before it merges): a create then merges to the
    /// configuration without a second check.
    pub config_validated: bool,
}

/// A value and the API version it is expressed in.
struct At<'v> {
    value: Cow<'v, Value>,
    version: String,
}

impl<'a> Updater<'a> {
    pub fn new(schema: &'a Schema, converter: &'a dyn Converter) -> Updater<'a> {
        Updater {
            schema,
            converter,
            ignored: BTreeMap::new(),
            return_input_on_noop: false,
            deduced: false,
            normalize_unions: false,
            config_validated: false,
        }
    }

    fn type_ref(&self, version: &str) -> Result<TypeRef, ConversionError> {
        self.converter.type_ref(version)
    }

    fn convert<'v>(
        &self,
        value: &'v Value,
        from: &str,
        to: &str,
    ) -> Result<Cow<'v, Value>, ConversionError> {
        if from == to {
            return Ok(Cow::Borrowed(value));
        }
        self.converter.convert(value, from, to).map(Cow::Owned)
    }

    fn ignored_at(&self, version: &str) -> Option<&Set> {
        self.ignored.get(version)
    }

    /// Normalizes the unions of `new` against `old` when enabled (else returns `new`).
    fn normalize<'v>(
        &self,
        old: &Value,
        new: &'v Value,
        version: &str,
        mode: Normalization,
    ) -> Result<Cow<'v, Value>, UpdateError> {
        if !self.normalize_unions {
            return Ok(Cow::Borrowed(new));
        }
        let tr = self
            .type_ref(version)
            .map_err(|e| UpdateError::failed("failed to normalize unions", e))?;
        Typed::new(self.schema, &tr)
            .normalize_unions(old, new, mode)
            .map(Cow::Owned)
            .map_err(UpdateError::Unions)
    }

    /// Records a non-apply write of `new` (the whole new object) by `manager`. With unions
    /// normalized, the object to store may differ from `new`.
    pub fn update<'v>(
        &self,
        live: &Value,
        new: &'v Value,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
    ) -> Result<Updated<'v>, UpdateError> {
        let mut managers = self.reconcile_with_schema(live, version, managers)?;
        let new = self.normalize(live, new, version, Normalization::Update)?;
        let compare = self.update_owners(live, &new, version, &mut managers, manager, true)?;
        let own = managers
            .remove(manager)
            .map(|vs| vs.set)
            .unwrap_or_default();
        let mut set = own.union(&compare.modified).union(&compare.added);
        set.subtract(&compare.removed);
        if let Some(ignored) = self.ignored_at(version) {
            set.recursive_subtract(ignored);
        }
        if !set.is_empty() {
            managers.insert(manager.to_string(), VersionedSet::new(set, version, false));
        }
        Ok(Updated {
            object: new,
            managers,
        })
    }

    /// Applies `config` (the manager's full intent) to `live`; both are at `version`.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<ApplyOutcome, UpdateError> {
        let mut managers = self.reconcile_with_schema(live, version, managers)?;
        let tr = self
            .type_ref(version)
            .map_err(|e| UpdateError::failed("failed to merge config", e))?;
        let typed = Typed::new(self.schema, &tr);
        // With unions, the configuration is first checked (and its discriminators deduced)
        // on its own, then the merged object is normalized against it.
        let config = self.normalize(config, config, version, Normalization::Apply)?;
        let config = config.as_ref();
        let into_empty = live.as_map().is_some_and(|m| m.is_empty());
        let merged = if into_empty && self.config_validated && config.as_map().is_some() {
            config.clone()
        } else {
            typed
                .merge(live, config)
                .map_err(|e| UpdateError::failed("failed to merge config", e))?
        };
        let merged = match self.normalize(config, &merged, version, Normalization::Apply)? {
            Cow::Owned(normalized) => normalized,
            Cow::Borrowed(_) => merged,
        };
        let last = managers.get(manager).cloned();
        let mut set = typed
            .to_field_set(config)
            .map_err(|e| UpdateError::failed("failed to get field set", e))?;
        if let Some(ignored) = self.ignored_at(version) {
            set.recursive_subtract(ignored);
        }
        managers.insert(manager.to_string(), VersionedSet::new(set, version, true));
        let merged = self
            .prune(merged, version, &managers, manager, last.as_ref())
            .map_err(|e| UpdateError::failed("failed to prune fields", e))?;
        // Only other managers' fields can conflict or be taken away: without any (a create,
        // or the applier alone), the comparison would decide nothing.
        if managers.keys().any(|m| m != manager) {
            self.update_owners(live, &merged, version, &mut managers, manager, force)?;
        } else {
            managers.retain(|_, vs| !vs.set.is_empty());
        }
        if !self.return_input_on_noop && *live == merged {
            return Ok(ApplyOutcome::Unchanged { managers });
        }
        Ok(ApplyOutcome::Changed {
            object: merged,
            managers,
        })
    }

    /// Takes changed fields away from other managers (or reports them as conflicts) and drops
    /// removed fields from every owner. Returns the comparison at `version`.
    fn update_owners(
        &self,
        old: &Value,
        new: &Value,
        version: &str,
        managers: &mut ManagedFields,
        workflow: &str,
        force: bool,
    ) -> Result<Comparison, UpdateError> {
        let compare_at = |v: &str, old: &Value, new: &Value| -> Result<Comparison, UpdateError> {
            let tr = self
                .type_ref(v)
                .map_err(|e| UpdateError::failed("failed to compare objects", e))?;
            Typed::new(self.schema, &tr)
                .compare(old, new)
                .map_err(|e| UpdateError::failed("failed to compare objects", e))
        };
        let compare = compare_at(version, old, new)?;
        let filter = |c: &Comparison, v: &str| match self.ignored_at(v) {
            Some(ignored) => c.excluding(ignored),
            None => c.clone(),
        };
        let mut versions: BTreeMap<String, Comparison> = BTreeMap::new();
        versions.insert(version.to_string(), filter(&compare, version));
        let mut conflicts = ManagedFields::new();
        let mut removed: BTreeMap<String, Set> = BTreeMap::new();
        let mut dropped = Vec::new();
        for (manager, owned) in managers.iter() {
            if manager == workflow {
                continue;
            }
            if !versions.contains_key(&owned.api_version) {
                let to = &owned.api_version;
                let converted = self
                    .convert(old, version, to)
                    .and_then(|o| self.convert(new, version, to).map(|n| (o, n)));
                match converted {
                    Err(ConversionError::MissingVersion(_)) => {
                        dropped.push(manager.clone());
                        continue;
                    }
                    Err(e) => return Err(UpdateError::failed("failed to convert old object", e)),
                    Ok((o, n)) => {
                        let c = compare_at(to, &o, &n)?;
                        versions.insert(to.clone(), filter(&c, to));
                    }
                }
            }
            let c = &versions[&owned.api_version];
            let conflict = owned.set.intersection(&c.modified.union(&c.added));
            if !conflict.is_empty() {
                conflicts.insert(
                    manager.clone(),
                    VersionedSet::new(conflict, owned.api_version.clone(), false),
                );
            }
            if !c.removed.is_empty() {
                removed.insert(manager.clone(), c.removed.clone());
            }
        }
        for m in dropped {
            managers.remove(&m);
        }
        if !force && !conflicts.is_empty() {
            return Err(UpdateError::Conflicts(Conflicts::from_managers(&conflicts)));
        }
        for (manager, conflict) in &conflicts {
            if let Some(owned) = managers.get_mut(manager) {
                owned.set.subtract(&conflict.set);
            }
        }
        for (manager, gone) in &removed {
            if let Some(owned) = managers.get_mut(manager) {
                owned.set.subtract(gone);
            }
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        Ok(compare)
    }

    /// Removes what the applier applied last time but not this time, unless another manager
    /// (or the applier's new intent) owns it, and never anything the applier did not own.
    fn prune(
        &self,
        merged: Value,
        version: &str,
        managers: &ManagedFields,
        applier: &str,
        last: Option<&VersionedSet>,
    ) -> Result<Value, ConversionError> {
        let Some(last) = last.filter(|l| !l.set.is_empty()) else {
            return Ok(merged);
        };
        // Conversions are usually the identity: borrow then, copy only what they produce.
        let converted = match self.convert(&merged, version, &last.api_version) {
            Ok(v) => v,
            Err(ConversionError::MissingVersion(_)) => return Ok(merged),
            Err(e) => return Err(e),
        };
        let tr = self.type_ref(&last.api_version)?;
        let typed = Typed::new(self.schema, &tr);
        let pruned = typed.remove_items(
            &converted,
            &ensure_named_fields_are_members(&last.set, self.schema, &tr),
        );
        let merged_at = At {
            value: Cow::Borrowed(converted.as_ref()),
            version: last.api_version.clone(),
        };
        let pruned_at = At {
            value: Cow::Owned(pruned),
            version: last.api_version.clone(),
        };
        let pruned_at = self.add_back_owned(merged_at, pruned_at, managers)?;
        let pruned = self.add_back_dangling(&converted, pruned_at, last)?;
        let applier_version = managers
            .get(applier)
            .map(|m| m.api_version.as_str())
            .unwrap_or(version);
        Ok(
            match self.convert(&pruned, &last.api_version, applier_version)? {
                Cow::Owned(v) => v,
                Cow::Borrowed(_) => pruned,
            },
        )
    }

    fn add_back_owned<'v>(
        &self,
        mut merged: At<'v>,
        mut pruned: At<'v>,
        managers: &ManagedFields,
    ) -> Result<At<'v>, ConversionError> {
        let mut managed_at: BTreeMap<&str, Set> = BTreeMap::new();
        for vs in managers.values() {
            let entry = managed_at.entry(vs.api_version.as_str()).or_default();
            *entry = entry.union(&vs.set);
        }
        // The pruned version first: conversion may need fields that pruning removed.
        let first = pruned.version.clone();
        let mut order: Vec<(&str, Set)> = Vec::new();
        if let Some(set) = managed_at.remove(first.as_str()) {
            order.push((first.as_str(), set));
        }
        order.extend(managed_at);
        for (version, managed) in order {
            let m = match self.convert(&merged.value, &merged.version, version) {
                Ok(v) => v,
                Err(ConversionError::MissingVersion(_)) => continue,
                Err(e) => return Err(e),
            };
            let p = match self.convert(&pruned.value, &pruned.version, version) {
                Ok(v) => v,
                Err(ConversionError::MissingVersion(_)) => continue,
                Err(e) => return Err(e),
            };
            let tr = self.type_ref(version)?;
            let typed = Typed::new(self.schema, &tr);
            let ensure = |s: &Set| ensure_named_fields_are_members(s, self.schema, &tr);
            let merged_set = typed
                .to_field_set(&m)
                .map_err(|e| ConversionError::Failed(e.to_string()))?;
            let pruned_set = typed
                .to_field_set(&p)
                .map_err(|e| ConversionError::Failed(e.to_string()))?;
            let restore =
                ensure(&merged_set).difference(&ensure(&pruned_set).union(&ensure(&managed)));
            let new_pruned = typed.remove_items(&m, &restore);
            // An identity conversion leaves `merged` as it is: no copy.
            let converted = match m {
                Cow::Owned(m) => Some(m),
                Cow::Borrowed(_) => None,
            };
            drop(p);
            merged = At {
                value: match converted {
                    Some(m) => Cow::Owned(m),
                    None => merged.value,
                },
                version: version.to_string(),
            };
            pruned = At {
                value: Cow::Owned(new_pruned),
                version: version.to_string(),
            };
        }
        Ok(pruned)
    }

    fn add_back_dangling(
        &self,
        merged: &Value,
        pruned: At<'_>,
        last: &VersionedSet,
    ) -> Result<Value, ConversionError> {
        let converted = match self.convert(&pruned.value, &pruned.version, &last.api_version) {
            Ok(v) => v,
            Err(ConversionError::MissingVersion(_)) => return Ok(merged.clone()),
            Err(e) => return Err(e),
        };
        let tr = self.type_ref(&last.api_version)?;
        let typed = Typed::new(self.schema, &tr);
        let ensure = |s: &Set| ensure_named_fields_are_members(s, self.schema, &tr);
        let pruned_set = typed
            .to_field_set(&converted)
            .map_err(|e| ConversionError::Failed(e.to_string()))?;
        let merged_set = typed
            .to_field_set(merged)
            .map_err(|e| ConversionError::Failed(e.to_string()))?;
        let remove = ensure(&merged_set)
            .difference(&ensure(&pruned_set))
            .intersection(&ensure(&last.set));
        Ok(typed.remove_items(merged, &remove))
    }

    /// Brings every manager's set in line with schema changes (atomic ↔ granular).
    fn reconcile_with_schema(
        &self,
        live: &Value,
        version: &str,
        managers: &ManagedFields,
    ) -> Result<ManagedFields, UpdateError> {
        let mut result = ManagedFields::new();
        for (manager, vs) in managers {
            // Managers at versions no longer served are dropped.
            match self.convert(live, version, &vs.api_version) {
                Ok(_) => {}
                Err(ConversionError::MissingVersion(_)) => continue,
                Err(e) => return Err(UpdateError::failed("failed to reconcile managed fields", e)),
            };
            if self.deduced {
                result.insert(manager.clone(), vs.clone());
                continue;
            }
            let tr = self
                .type_ref(&vs.api_version)
                .map_err(|e| UpdateError::failed("failed to reconcile managed fields", e))?;
            let reconciled = reconcile_field_set_with_schema(&vs.set, self.schema, &tr)
                .map_err(|e| UpdateError::failed("failed to reconcile managed fields", e))?;
            let vs = match reconciled {
                Some(set) => VersionedSet::new(set, vs.api_version.clone(), vs.applied),
                None => vs.clone(),
            };
            result.insert(manager.clone(), vs);
        }
        Ok(result)
    }
}

#[cfg(test)]
#[path = "obsolete_versions_tests.rs"]
mod obsolete_versions_tests;

#[cfg(test)]
mod properties {
    use super::*;
    use crate::merge::SingleVersion;
    use crate::schema::parse_smd_schema;
    use crate::value::Map;
    use proptest::prelude::*;

    const SCHEMA: &str = r#"types:
- name: root
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: count
      type: {scalar: numeric}
    - name: labels
      type: {map: {elementType: {scalar: string}}}
    - name: tags
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: items
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [id]
    - name: blob
      type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}
- name: item
  map:
    fields:
    - name: id
      type: {scalar: string}
    - name: value
      type: {scalar: numeric}
"#;

    fn object() -> impl Strategy<Value = Value> {
        let word = "[a-e]{1,3}";
        (
            proptest::option::of(word.prop_map(Value::String)),
            proptest::option::of((0i64..5).prop_map(Value::Int)),
            proptest::collection::btree_map(word, word, 0..3),
            proptest::collection::btree_set(word, 0..3),
            proptest::collection::btree_map(word, 0i64..9, 0..3),
        )
            .prop_map(|(name, count, labels, tags, items)| {
                let mut m = Map::default();
                if let Some(n) = name {
                    m.insert("name".into(), n);
                }
                if let Some(c) = count {
                    m.insert("count".into(), c);
                }
                if !labels.is_empty() {
                    let l = labels
                        .into_iter()
                        .map(|(k, v)| (k, Value::String(v)))
                        .collect();
                    m.insert("labels".into(), Value::Map(l));
                }
                if !tags.is_empty() {
                    m.insert(
                        "tags".into(),
                        Value::List(tags.into_iter().map(Value::String).collect()),
                    );
                }
                if !items.is_empty() {
                    let list = items
                        .into_iter()
                        .map(|(id, v)| {
                            let mut item = Map::default();
                            item.insert("id".into(), Value::String(id));
                            item.insert("value".into(), Value::Int(v));
                            Value::Map(item)
                        })
                        .collect();
                    m.insert("items".into(), Value::List(list));
                }
                Value::Map(m)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn reapplying_the_same_object_is_a_no_op(first in object(), config in object()) {
            let schema = parse_smd_schema(SCHEMA).unwrap();
            let converter = SingleVersion(schema.type_ref("root").unwrap());
            let updater = Updater::new(&schema, &converter);
            // Another manager's state first, so the no-op holds over shared objects too.
            let managers = updater.update(&Value::Null, &first, "v1", &ManagedFields::new(), "other").unwrap();
            let (live, managers) = (managers.object.into_owned(), managers.managers);
            let after = match updater.apply(&live, &config, "v1", &managers, "applier", true).unwrap() {
                ApplyOutcome::Changed { object, managers } => (object, managers),
                ApplyOutcome::Unchanged { managers } => (live.clone(), managers),
            };
            let again = updater.apply(&after.0, &config, "v1", &after.1, "applier", false).unwrap();
            prop_assert_eq!(again, ApplyOutcome::Unchanged { managers: after.1.clone() });
        }
    }
}
