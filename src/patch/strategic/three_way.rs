//! The client's side of strategic merge patch: the three-way patch `kubectl apply` sends
//! (apimachinery `strategicpatch.CreateThreeWayMergePatch`, pkg/util/strategicpatch/patch.go):
//! the additions and changes from the live object to the new configuration, plus the deletions
//! from the last applied configuration to the new one, combined into one patch.
//!
//! The diff rules follow `diffMaps`, `handleMapDiff`, `handleSliceDiff`, `diffLists`,
//! `diffListsOfScalars` and `diffListsOfMaps`; the conflict check of `--overwrite=false`
//! follows `MergingMapsHaveConflicts`.

mod conflicts;
mod lists;

use super::order::go_deep_eq;
use super::{
    merge_map, FieldPatchMeta, MergeMode, PatchMetaLookup, DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE,
    MERGE, REPLACE, RETAIN_KEYS, RETAIN_KEYS_STRATEGY, SET_ELEMENT_ORDER,
};
use crate::patch::{PatchError, StrategicError};
use crate::value::{Map, Value};
use conflicts::maps_conflict;
use lists::diff_lists;

/// Why no three-way patch could be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ThreeWayError {
    /// One of the three documents, the patch metadata or the patch library failed; the text is
    /// the library's.
    #[error("{0}")]
    Strategic(StrategicError),
    /// `--overwrite=false`: the patch changes something that changed in the live object since
    /// the last apply. Both sides are YAML, as the library prints them.
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{changed}\n")]
    Conflict { patch: String, changed: String },
}

impl From<StrategicError> for ThreeWayError {
    fn from(e: StrategicError) -> Self {
        ThreeWayError::Strategic(e)
    }
}

type Result<T, E = StrategicError> = std::result::Result<T, E>;

/// What a diff keeps (`DiffOptions`).
#[derive(Debug, Clone, Copy, Default)]
struct DiffOptions {
    set_element_order: bool,
    ignore_changes_and_additions: bool,
    ignore_deletions: bool,
    build_retain_keys: bool,
}

/// Parses one of the three documents as the library does: empty text is an empty object,
/// `null` too, anything else that is not an object is a bad document.
fn parse_document(text: &str) -> Result<Map> {
    if text.is_empty() {
        return Ok(Map::default());
    }
    match crate::value::from_json_str(text) {
        Ok(Value::Map(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::default()),
        _ => Err(StrategicError::NotAnObject),
    }
}

/// The patch that takes `current` to `modified` while deleting what `original` had and
/// `modified` dropped; JSON texts in, the patch as a value out. With `overwrite` false, a
/// patch touching anything changed from `original` to `current` is a conflict.
pub fn three_way_merge_patch<L: PatchMetaLookup>(
    original: &str,
    modified: &str,
    current: &str,
    meta: &L,
    overwrite: bool,
) -> std::result::Result<Value, ThreeWayError> {
    let original = parse_document(original)?;
    let modified = parse_document(modified)?;
    let current = parse_document(current)?;
    let delta = diff_maps(
        &current,
        &modified,
        Some(meta),
        DiffOptions {
            ignore_deletions: true,
            set_element_order: true,
            ..DiffOptions::default()
        },
    )?;
    let deletions = diff_maps(
        &original,
        &modified,
        Some(meta),
        DiffOptions {
            set_element_order: true,
            ignore_changes_and_additions: true,
            ..DiffOptions::default()
        },
    )?;
    let patch =
        merge_map(deletions, delta, Some(meta), "", MergeMode::Combine).map_err(|e| match e {
            PatchError::Strategic { error, .. } => error,
            other => StrategicError::Lookup(other.to_string()),
        })?;
    if !overwrite {
        let changed = diff_maps(&original, &current, Some(meta), DiffOptions::default())?;
        if maps_conflict(&patch, &changed, Some(meta))? {
            let yaml =
                |m: &Map| crate::yaml::to_yaml_string(&Value::Map(m.clone()).with_sorted_keys());
            return Err(ThreeWayError::Conflict {
                patch: yaml(&patch),
                changed: yaml(&changed),
            });
        }
    }
    Ok(Value::Map(patch))
}

fn lookup<L: PatchMetaLookup>(
    schema: Option<&L>,
    key: &str,
    list: bool,
) -> std::result::Result<(Option<L>, FieldPatchMeta), String> {
    match schema {
        None => Ok((None, FieldPatchMeta::default())),
        Some(s) if list => s.lookup_list_field(key),
        Some(s) => s.lookup_map_field(key),
    }
}

/// `extractRetainKeysPatchStrategy`: whether `retainKeys` is among the strategies, and the
/// other one.
fn retain_keys_and_strategy(meta: &FieldPatchMeta) -> Result<(bool, &str)> {
    match meta.strategies.as_slice() {
        [] => Ok((false, "")),
        [one] if one == RETAIN_KEYS_STRATEGY => Ok((true, "")),
        [one] => Ok((false, one)),
        [a, b] if a == RETAIN_KEYS_STRATEGY => Ok((true, b)),
        [a, b] if b == RETAIN_KEYS_STRATEGY => Ok((true, a)),
        s => Err(StrategicError::BadStrategy(s.to_vec())),
    }
}

/// Go's `reflect.TypeOf` equality for decoded JSON values.
fn same_type(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

fn diff_maps<L: PatchMetaLookup>(
    original: &Map,
    modified: &Map,
    schema: Option<&L>,
    opts: DiffOptions,
) -> Result<Map> {
    let mut patch = Map::default();
    let mut retain_keys = Vec::new();
    for (key, modified_value) in modified {
        if opts.build_retain_keys && !modified_value.is_null() {
            retain_keys.push(key.clone());
        }
        let Some(original_value) = original.get(key) else {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        };
        if key == DIRECTIVE {
            let (Some(o), Some(m)) = (original_value.as_str(), modified_value.as_str()) else {
                return Err(StrategicError::BadDirectiveValue);
            };
            if o != m {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        if !same_type(original_value, modified_value) {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        match (original_value, modified_value) {
            (Value::Map(o), Value::Map(m)) => map_diff(key, o, m, &mut patch, schema, opts)?,
            (Value::List(o), Value::List(m)) => list_diff(key, o, m, &mut patch, schema, opts)?,
            _ => replace_if_changed(key, original_value, modified_value, &mut patch, opts),
        }
    }
    if !opts.ignore_deletions {
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
    }
    // The directive goes out when something changed here or a live field must be cleared.
    let clears_fields = original
        .iter()
        .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
    if !retain_keys.is_empty() && (!patch.is_empty() || clears_fields) {
        retain_keys.sort();
        patch.insert(
            RETAIN_KEYS.to_string(),
            Value::List(retain_keys.into_iter().map(Value::from).collect()),
        );
    }
    Ok(patch)
}

fn replace_if_changed(
    key: &str,
    original: &Value,
    modified: &Value,
    patch: &mut Map,
    opts: DiffOptions,
) {
    if !opts.ignore_changes_and_additions && !go_deep_eq(original, modified) {
        patch.insert(key.to_string(), modified.clone());
    }
}

fn map_diff<L: PatchMetaLookup>(
    key: &str,
    original: &Map,
    modified: &Map,
    patch: &mut Map,
    schema: Option<&L>,
    mut opts: DiffOptions,
) -> Result<()> {
    let (sub, meta) = match lookup(schema, key, false) {
        Ok(found) => found,
        // Without metadata an unchanged value still needs no patch.
        Err(_) if go_deep_eq(&Value::Map(original.clone()), &Value::Map(modified.clone())) => {
            return Ok(())
        }
        Err(e) => return Err(StrategicError::Lookup(e)),
    };
    let (retain, strategy) = retain_keys_and_strategy(&meta)?;
    opts.build_retain_keys = retain;
    if strategy == REPLACE {
        if !opts.ignore_changes_and_additions {
            patch.insert(key.to_string(), Value::Map(modified.clone()));
        }
        return Ok(());
    }
    let value = diff_maps(original, modified, sub.as_ref(), opts)?;
    if !value.is_empty() {
        patch.insert(key.to_string(), Value::Map(value));
    }
    Ok(())
}

fn list_diff<L: PatchMetaLookup>(
    key: &str,
    original: &[Value],
    modified: &[Value],
    patch: &mut Map,
    schema: Option<&L>,
    mut opts: DiffOptions,
) -> Result<()> {
    let (sub, meta) = match lookup(schema, key, true) {
        Ok(found) => found,
        Err(_)
            if original.len() == modified.len()
                && original.iter().zip(modified).all(|(a, b)| go_deep_eq(a, b)) =>
        {
            return Ok(())
        }
        Err(e) => return Err(StrategicError::Lookup(e)),
    };
    let (retain, strategy) = retain_keys_and_strategy(&meta)?;
    if strategy != MERGE {
        replace_if_changed(
            key,
            &Value::List(original.to_vec().into()),
            &Value::List(modified.to_vec().into()),
            patch,
            opts,
        );
        return Ok(());
    }
    opts.build_retain_keys = retain;
    let merge_key = meta.merge_key.as_deref().unwrap_or("");
    let lists = diff_lists(original, modified, sub.as_ref(), merge_key, opts)?;
    if !lists.patch.is_empty() {
        patch.insert(key.to_string(), Value::List(lists.patch.into()));
    }
    if !lists.deletions.is_empty() {
        patch.insert(
            format!("{DELETE_FROM_PRIMITIVE_LIST}/{key}"),
            Value::List(lists.deletions.into()),
        );
    }
    if !lists.order.is_empty() {
        patch.insert(
            format!("{SET_ELEMENT_ORDER}/{key}"),
            Value::List(lists.order.into()),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests;
