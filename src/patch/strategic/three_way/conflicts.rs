//! `--overwrite=false`: whether the three-way patch touches what changed from the last applied
//! configuration to the live object (apimachinery strategicpatch/patch.go
//! `MergingMapsHaveConflicts`, `mergingMapFieldsHaveConflicts`, `slicesHaveConflicts`).

use super::super::order::{dedup_scalars, element_kind, go_deep_eq, go_eq, ItemKind};
use super::super::{DIRECTIVE, MERGE, REPLACE, RETAIN_KEYS};
use super::lists::sort_by_text;
use super::{lookup, retain_keys_and_strategy, same_type, Result};
use crate::patch::{FieldPatchMeta, PatchMetaLookup, StrategicError};
use crate::value::gofmt::go_value;
use crate::value::{Map, Value};

/// `MergingMapsHaveConflicts`: whether two patches set something differently.
pub(super) fn maps_conflict<L: PatchMetaLookup>(
    left: &Map,
    right: &Map,
    schema: Option<&L>,
) -> Result<bool> {
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
                        go_value(&Value::List(list.to_vec().into()))
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
