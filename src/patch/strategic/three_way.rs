//! The client's side of strategic merge patch: the three-way patch `kubectl apply` sends
//! (apimachinery `strategicpatch.CreateThreeWayMergePatch`, pkg/util/strategicpatch/patch.go):
//! the additions and changes from the live object to the new configuration, plus the deletions
//! from the last applied configuration to the new one, combined into one patch.
//!
//! The diff rules follow `diffMaps`, `handleMapDiff`, `handleSliceDiff`, `diffLists`,
//! `diffListsOfScalars` and `diffListsOfMaps`; the conflict check of `--overwrite=false`
//! follows `MergingMapsHaveConflicts`.

use super::order::{
    dedup_scalars, element_kind, go_deep_eq, go_eq, normalize_slice_order, ItemKind,
};
use super::{
    merge_map, FieldPatchMeta, MergeMode, PatchMetaLookup, DELETE, DELETE_FROM_PRIMITIVE_LIST,
    DIRECTIVE, MERGE, REPLACE, RETAIN_KEYS, RETAIN_KEYS_STRATEGY, SET_ELEMENT_ORDER,
};
use crate::patch::gofmt::go_value;
use crate::patch::{PatchError, StrategicError};
use crate::value::{Map, Value};

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
        return Ok(Map::new());
    }
    match crate::value::from_json_str(text) {
        Ok(Value::Map(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::new()),
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
    let mut patch = Map::new();
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
            &Value::List(original.to_vec()),
            &Value::List(modified.to_vec()),
            patch,
            opts,
        );
        return Ok(());
    }
    opts.build_retain_keys = retain;
    let merge_key = meta.merge_key.as_deref().unwrap_or("");
    let lists = diff_lists(original, modified, sub.as_ref(), merge_key, opts)?;
    if !lists.patch.is_empty() {
        patch.insert(key.to_string(), Value::List(lists.patch));
    }
    if !lists.deletions.is_empty() {
        patch.insert(
            format!("{DELETE_FROM_PRIMITIVE_LIST}/{key}"),
            Value::List(lists.deletions),
        );
    }
    if !lists.order.is_empty() {
        patch.insert(
            format!("{SET_ELEMENT_ORDER}/{key}"),
            Value::List(lists.order),
        );
    }
    Ok(())
}

/// The three parts of a merging list's diff.
#[derive(Default)]
struct ListDiff {
    /// Added and changed items (then `$patch: delete` items, for lists of objects).
    patch: Vec<Value>,
    /// Scalars to delete: the `$deleteFromPrimitiveList` parallel list.
    deletions: Vec<Value>,
    /// The new order: the `$setElementOrder` parallel list.
    order: Vec<Value>,
}

fn diff_lists<L: PatchMetaLookup>(
    original: &[Value],
    modified: &[Value],
    schema: Option<&L>,
    merge_key: &str,
    opts: DiffOptions,
) -> Result<ListDiff> {
    if original.is_empty() {
        if modified.is_empty() || opts.ignore_changes_and_additions {
            return Ok(ListDiff::default());
        }
        return Ok(ListDiff {
            patch: modified.to_vec(),
            ..ListDiff::default()
        });
    }
    let kind = element_kind(&[original, modified])?;
    match kind {
        ItemKind::Map => {
            let (changes, deletions) =
                diff_lists_of_maps(original, modified, schema, merge_key, opts)?;
            let mut patch = normalize_slice_order(changes, modified, merge_key, kind)?;
            let order_same = order_same(original, modified, merge_key)?;
            patch.extend(deletions);
            let wants_order = (!opts.ignore_changes_and_additions
                && (!patch.is_empty() || !order_same))
                || (!opts.ignore_deletions && !patch.is_empty());
            let order = if opts.set_element_order && wants_order {
                modified
                    .iter()
                    .map(|v| {
                        let mut only_key = Map::new();
                        only_key.insert(
                            merge_key.to_string(),
                            v.get(merge_key).cloned().unwrap_or(Value::Null),
                        );
                        Value::Map(only_key)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Ok(ListDiff {
                patch,
                deletions: Vec::new(),
                order,
            })
        }
        ItemKind::Scalar => {
            let (additions, deletions) = diff_lists_of_scalars(original, modified, opts);
            let patch = normalize_slice_order(additions, modified, merge_key, kind)?;
            let changed = original.len() != modified.len()
                || !original.iter().zip(modified).all(|(a, b)| go_deep_eq(a, b));
            let wants_order = (!opts.ignore_deletions && !deletions.is_empty())
                || (!opts.ignore_changes_and_additions && changed);
            let order = if opts.set_element_order && wants_order {
                modified.to_vec()
            } else {
                Vec::new()
            };
            Ok(ListDiff {
                patch,
                deletions,
                order,
            })
        }
    }
}

/// `isOrderSame`: same length and the same merge key at every position.
fn order_same(original: &[Value], modified: &[Value], merge_key: &str) -> Result<bool> {
    if original.len() != modified.len() {
        return Ok(false);
    }
    for (o, m) in original.iter().zip(modified) {
        if !merge_key_equal(o, m, merge_key)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn merge_key_of<'a>(v: &'a Value, merge_key: &str) -> Result<&'a Value> {
    let Value::Map(m) = v else {
        return Err(StrategicError::BadArgType {
            expected: "map[string]interface {}",
            actual: Box::new(v.clone()),
        });
    };
    m.get(merge_key).ok_or_else(|| StrategicError::NoMergeKey {
        map: Box::new(m.clone()),
        key: merge_key.to_string(),
    })
}

fn merge_key_equal(a: &Value, b: &Value, merge_key: &str) -> Result<bool> {
    if merge_key.is_empty() {
        return Ok(go_eq(a, b));
    }
    Ok(go_eq(
        merge_key_of(a, merge_key)?,
        merge_key_of(b, merge_key)?,
    ))
}

/// Go's `sort.Sort` with the library's comparator (`%v` texts, "less or equal"): insertion
/// sort, exact for the short lists the library sees; equal keys end up reversed.
fn sort_by_text(items: &mut [Value], text: impl Fn(&Value) -> String) {
    let texts: Vec<String> = items.iter().map(&text).collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 && texts[order[j]] <= texts[order[j - 1]] {
            order.swap(j, j - 1);
            j -= 1;
        }
    }
    let sorted: Vec<Value> = order.iter().map(|&i| items[i].clone()).collect();
    items.clone_from_slice(&sorted);
}

/// Additions and deletions between two lists of scalars, compared as sorted `%v` texts.
fn diff_lists_of_scalars(
    original: &[Value],
    modified: &[Value],
    opts: DiffOptions,
) -> (Vec<Value>, Vec<Value>) {
    let mut original = original.to_vec();
    let mut modified = modified.to_vec();
    sort_by_text(&mut original, go_value);
    sort_by_text(&mut modified, go_value);
    let (mut oi, mut mi) = (0, 0);
    let mut additions = Vec::new();
    let mut deletions = Vec::new();
    loop {
        let (o, m) = (original.get(oi), modified.get(mi));
        let (o_text, m_text) = (o.map(go_value), m.map(go_value));
        match (o, m) {
            (None, None) => break,
            (Some(_), Some(_)) if o_text == m_text => {
                oi += 1;
                mi += 1;
            }
            (None, Some(m)) => {
                if !opts.ignore_changes_and_additions {
                    additions.push(m.clone());
                }
                mi += 1;
            }
            (Some(_), Some(m)) if o_text > m_text => {
                if !opts.ignore_changes_and_additions {
                    additions.push(m.clone());
                }
                mi += 1;
            }
            (Some(o), _) => {
                if !opts.ignore_deletions {
                    deletions.push(o.clone());
                }
                oi += 1;
            }
        }
    }
    (additions, dedup_scalars(deletions))
}

/// Changed, added and deleted items of two lists of objects, matched by merge key.
fn diff_lists_of_maps<L: PatchMetaLookup>(
    original: &[Value],
    modified: &[Value],
    schema: Option<&L>,
    merge_key: &str,
    opts: DiffOptions,
) -> Result<(Vec<Value>, Vec<Value>)> {
    let key_text = |v: &Value| go_value(v.get(merge_key).unwrap_or(&Value::Null));
    let mut original = original.to_vec();
    let mut modified = modified.to_vec();
    sort_by_text(&mut original, key_text);
    sort_by_text(&mut modified, key_text);
    let (mut oi, mut mi) = (0, 0);
    let mut patch = Vec::new();
    let mut deletions = Vec::new();
    loop {
        let o = original
            .get(oi)
            .map(|v| element(v, merge_key))
            .transpose()?;
        let m = modified
            .get(mi)
            .map(|v| element(v, merge_key))
            .transpose()?;
        let (o_text, m_text) = (o.map(|(_, k)| go_value(k)), m.map(|(_, k)| go_value(k)));
        match (o, m) {
            (None, None) => break,
            (Some((o_map, _)), Some((m_map, m_key))) if o_text == m_text => {
                let mut value = diff_maps(o_map, m_map, schema, opts)?;
                if !value.is_empty() {
                    value.insert(merge_key.to_string(), m_key.clone());
                    patch.push(Value::Map(value));
                }
                oi += 1;
                mi += 1;
            }
            (None, Some((m_map, _))) => {
                if !opts.ignore_changes_and_additions {
                    patch.push(Value::Map(m_map.clone()));
                }
                mi += 1;
            }
            (Some(_), Some((m_map, _))) if o_text > m_text => {
                if !opts.ignore_changes_and_additions {
                    patch.push(Value::Map(m_map.clone()));
                }
                mi += 1;
            }
            (Some((_, o_key)), _) => {
                if !opts.ignore_deletions {
                    let mut directive = Map::new();
                    directive.insert(merge_key.to_string(), o_key.clone());
                    directive.insert(DIRECTIVE.to_string(), Value::from(DELETE));
                    deletions.push(Value::Map(directive));
                }
                oi += 1;
            }
        }
    }
    Ok((patch, deletions))
}

/// An item of a list of objects and its merge key's value.
fn element<'a>(v: &'a Value, merge_key: &str) -> Result<(&'a Map, &'a Value)> {
    let key = merge_key_of(v, merge_key)?;
    let Value::Map(m) = v else {
        unreachable!("merge_key_of checked the item is an object")
    };
    Ok((m, key))
}

/// `MergingMapsHaveConflicts`: whether two patches set something differently.
fn maps_conflict<L: PatchMetaLookup>(left: &Map, right: &Map, schema: Option<&L>) -> Result<bool> {
    for (key, left_value) in left {
        if key == DIRECTIVE || key == RETAIN_KEYS {
            continue;
        }
        let Some(right_value) = right.get(key) else {
            continue;
        };
        let (sub, meta) = match left_value {
            Value::List(_) => lookup(schema, key, true).map_err(StrategicError::Lookup)?,
            Value::Map(_) => lookup(schema, key, false).map_err(StrategicError::Lookup)?,
            _ => (None, FieldPatchMeta::default()),
        };
        let (_, strategy) = retain_keys_and_strategy(&meta)?;
        let merge_key = meta.merge_key.as_deref().unwrap_or("");
        if fields_conflict(left_value, right_value, sub.as_ref(), strategy, merge_key)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn fields_conflict<L: PatchMetaLookup>(
    left: &Value,
    right: &Value,
    schema: Option<&L>,
    strategy: &str,
    merge_key: &str,
) -> Result<bool> {
    match (left, right) {
        (Value::Map(l), Value::Map(r)) => {
            match (l.get(DIRECTIVE), r.get(DIRECTIVE)) {
                (Some(a), Some(b)) if !go_eq(a, b) => return Ok(true),
                (Some(_), None) | (None, Some(_)) => return Ok(true),
                _ => {}
            }
            if strategy == REPLACE {
                return Ok(false);
            }
            maps_conflict(l, r, schema)
        }
        (Value::Map(_), _) | (Value::List(_), _) if !same_type(left, right) => Ok(true),
        (Value::List(l), Value::List(r)) => lists_conflict(l, r, schema, strategy, merge_key),
        _ => Ok(!go_deep_eq(left, right)),
    }
}

fn lists_conflict<L: PatchMetaLookup>(
    left: &[Value],
    right: &[Value],
    schema: Option<&L>,
    strategy: &str,
    merge_key: &str,
) -> Result<bool> {
    let kind = element_kind(&[left, right])?;
    if strategy == MERGE {
        if kind != ItemKind::Map {
            return Ok(false);
        }
        let by_key = |list: &[Value]| -> Result<Vec<(String, Value)>> {
            list.iter()
                .map(|v| match v {
                    Value::Map(m) => m
                        .get(merge_key)
                        .map(|k| (go_value(k), v.clone()))
                        .ok_or_else(|| {
                            StrategicError::Lookup(format!(
                                "cannot find merge key `{merge_key}` in merging list element:{}",
                                go_value(v)
                            ))
                        }),
                    _ => Err(StrategicError::Lookup(format!(
                        "invalid element type in merging list:{}",
                        go_value(&Value::List(list.to_vec()))
                    ))),
                })
                .collect()
        };
        let (l, r) = (by_key(left)?, by_key(right)?);
        for (key, lv) in &l {
            if let Some((_, rv)) = r.iter().rev().find(|(k, _)| k == key) {
                if fields_conflict(lv, rv, schema, "", "")? {
                    return Ok(true);
                }
            }
        }
        return Ok(false);
    }
    if left.len() != right.len() {
        return Ok(true);
    }
    let (mut left, mut right) = (left.to_vec(), right.to_vec());
    if kind != ItemKind::Map {
        left = dedup_scalars(left);
        right = dedup_scalars(right);
        sort_by_text(&mut left, go_value);
        sort_by_text(&mut right, go_value);
    }
    for (l, r) in left.iter().zip(&right) {
        if fields_conflict(l, r, schema, "", "")? {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests;
