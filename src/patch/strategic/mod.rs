//! Strategic merge patch, as apimachinery's `StrategicMergeMapPatchUsingLookupPatchMeta`
//! applies it on the server: objects merge, `null` deletes, lists merge by merge key or by
//! value when their field has the `merge` strategy and are replaced otherwise, and the
//! `$patch`, `$retainKeys`, `$setElementOrder/…` and `$deleteFromPrimitiveList/…` directives
//! apply. Patch metadata comes from a [`PatchMetaLookup`].

mod meta;
mod order;
mod three_way;

pub use meta::{FieldPatchMeta, NoPatchMeta, PatchMetaLookup, SchemaPatchMeta};
pub(crate) use order::go_deep_eq;
pub use three_way::{three_way_merge_patch, ThreeWayError};

use super::{PatchError, StrategicError};
use crate::value::{Map, Value};
use order::{dedup_scalars, element_kind, go_eq, normalize_element_order, partition, ItemKind};

type Result<T, E = PatchError> = std::result::Result<T, E>;

const DIRECTIVE: &str = "$patch";
const DELETE: &str = "delete";
const REPLACE: &str = "replace";
const MERGE: &str = "merge";
const RETAIN_KEYS: &str = "$retainKeys";
const RETAIN_KEYS_STRATEGY: &str = "retainKeys";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER: &str = "$setElementOrder";

/// What [`merge_map`] merges the patch into (apimachinery's `MergeOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MergeMode {
    /// An object, as the server applies a patch: the parallel lists take effect and a `null`
    /// only deletes (`MergeParallelList` and `IgnoreUnmatchedNulls` set).
    Apply,
    /// Another patch, as the client combines its deletions with its changes: directives and
    /// `null`s are carried into the result (both options unset).
    Combine,
}

/// Applies the strategic merge `patch` to `original` with the patch metadata of the object's
/// type. A `null` original or patch counts as an empty object; anything else that is not an
/// object is an error.
pub fn strategic_merge_patch<L: PatchMetaLookup>(
    original: &Value,
    patch: &Value,
    meta: &L,
) -> Result<Value> {
    let as_map = |v: &Value| match v {
        Value::Map(m) => Ok(m.clone()),
        Value::Null => Ok(Map::default()),
        _ => Err(PatchError::Strategic {
            path: String::new(),
            error: StrategicError::NotAnObject,
        }),
    };
    let (original, patch) = (as_map(original)?, as_map(patch)?);
    merge_map(original, patch, Some(meta), "", MergeMode::Apply).map(Value::Map)
}

fn fail(path: &str, error: StrategicError) -> PatchError {
    PatchError::Strategic {
        path: path.to_string(),
        error,
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The field's strategy other than `retainKeys` (which [`merge_map`] handles through the
/// `$retainKeys` directive the client sends).
fn strategy(meta: &FieldPatchMeta) -> Result<&str, StrategicError> {
    let s = &meta.strategies;
    match s.as_slice() {
        [] => Ok(""),
        [one] if one == RETAIN_KEYS_STRATEGY => Ok(""),
        [one] => Ok(one),
        [a, b] if a == RETAIN_KEYS_STRATEGY => Ok(b),
        [a, b] if b == RETAIN_KEYS_STRATEGY => Ok(a),
        _ => Err(StrategicError::BadStrategy(s.clone())),
    }
}

/// The list field named after a directive prefix (`$setElementOrder/containers`).
fn directive_target<'k>(
    key: &'k str,
    prefix: &str,
    err: StrategicError,
) -> Result<&'k str, StrategicError> {
    match key.split_once('/') {
        Some((p, rest)) if p == prefix => Ok(rest),
        _ => Err(err),
    }
}

fn lookup<L: PatchMetaLookup>(
    schema: Option<&L>,
    key: &str,
    list: bool,
    path: &str,
) -> Result<(Option<L>, FieldPatchMeta)> {
    let Some(s) = schema else {
        return Ok((None, FieldPatchMeta::default()));
    };
    let found = if list {
        s.lookup_list_field(key)
    } else {
        s.lookup_map_field(key)
    };
    found.map_err(|e| fail(path, StrategicError::Lookup(e)))
}

fn merge_map<L: PatchMetaLookup>(
    mut original: Map,
    mut patch: Map,
    schema: Option<&L>,
    path: &str,
    mode: MergeMode,
) -> Result<Map> {
    if let Some(directive) = patch.get(DIRECTIVE) {
        return match directive.as_str() {
            Some(REPLACE) => {
                patch.shift_remove(DIRECTIVE);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::default()),
            _ => Err(fail(
                path,
                StrategicError::UnknownPatchType {
                    directive: Box::new(directive.clone()),
                    map: Box::new(patch.clone()),
                },
            )),
        };
    }
    apply_retain_keys(&mut original, &mut patch, mode).map_err(|e| fail(path, e))?;
    apply_set_element_order(&mut original, &mut patch, schema, path, mode)?;

    for (key, patch_v) in patch {
        let (key, is_delete_list) = if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            if mode == MergeMode::Combine {
                original.insert(key, patch_v);
                continue;
            }
            let target = directive_target(
                &key,
                DELETE_FROM_PRIMITIVE_LIST,
                StrategicError::BadPrimitiveListFormat,
            )
            .map_err(|e| fail(path, e))?;
            (target.to_string(), true)
        } else {
            (key, false)
        };
        let field_path = child(path, &key);
        if patch_v.is_null() {
            original.shift_remove(&key);
            if mode == MergeMode::Combine {
                original.insert(key, Value::Null);
            }
            continue;
        }
        let same_kind = match original.get(&key) {
            None => false,
            Some(o) => std::mem::discriminant(o) == std::mem::discriminant(&patch_v),
        };
        if !same_kind {
            // Absent live, or a different type: the patch value is taken, cleaned of nulls
            // and `$patch` maps. A deletion list never adds anything.
            if !is_delete_list {
                let patch_v = match mode {
                    MergeMode::Apply => discard_nulls(patch_v),
                    MergeMode::Combine => patch_v,
                };
                match remove_directives(patch_v) {
                    Some(v) => {
                        original.insert(key, v);
                    }
                    None => {
                        original.shift_remove(&key);
                    }
                }
            }
            continue;
        }
        let orig_v = original.get_mut(&key).expect("checked above");
        let merged = match (std::mem::take(orig_v), patch_v) {
            (Value::Map(o), Value::Map(p)) => {
                let (sub, meta) = lookup(schema, &key, false, &field_path)?;
                if strategy(&meta).map_err(|e| fail(&field_path, e))? == REPLACE {
                    Value::Map(p)
                } else {
                    Value::Map(merge_map(o, p, sub.as_ref(), &field_path, mode)?)
                }
            }
            (Value::List(o), Value::List(p)) => {
                let (sub, meta) = lookup(schema, &key, true, &field_path)?;
                let strategy = strategy(&meta).map_err(|e| fail(&field_path, e))?;
                if strategy == MERGE || is_delete_list {
                    let merge_key = meta.merge_key.as_deref().unwrap_or("");
                    let list = merge_list(
                        o.into_vec(),
                        p.into_vec(),
                        sub.as_ref(),
                        merge_key,
                        is_delete_list,
                        &field_path,
                        mode,
                    )?;
                    Value::List(list.into())
                } else {
                    Value::List(p)
                }
            }
            (_, p) => match remove_directives(p) {
                Some(v) => v,
                None => {
                    original.shift_remove(&key);
                    continue;
                }
            },
        };
        *original.get_mut(&key).expect("checked above") = merged;
    }
    Ok(original)
}

/// `$retainKeys`: drops live keys not listed, after checking every patched key is listed.
/// Combining patches, the directive is carried over instead (both patches must agree).
fn apply_retain_keys(
    original: &mut Map,
    patch: &mut Map,
    mode: MergeMode,
) -> Result<(), StrategicError> {
    let Some(retain) = patch.shift_remove(RETAIN_KEYS) else {
        return Ok(());
    };
    if mode == MergeMode::Combine {
        match original.get(RETAIN_KEYS) {
            Some(theirs) if theirs != &retain => {
                return Err(StrategicError::RetainKeysDiffer {
                    left: Box::new(theirs.clone()),
                    right: Box::new(retain),
                })
            }
            Some(_) => {}
            None => {
                original.insert(RETAIN_KEYS.to_string(), retain);
            }
        }
        return Ok(());
    }
    let Value::List(retain) = retain else {
        return Err(StrategicError::BadRetainKeysFormat);
    };
    let listed = |k: &str| retain.iter().any(|r| r.as_str() == Some(k));
    for (k, v) in patch.iter() {
        if v.is_null()
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || k.starts_with(SET_ELEMENT_ORDER)
        {
            continue;
        }
        if !listed(k) {
            return Err(StrategicError::BadRetainKeysFormat);
        }
    }
    original.retain(|k, _| listed(k));
    Ok(())
}

/// `$setElementOrder/<list>`: merges the list (if patched) and orders the result by the
/// order list, then the patch, then the live list. The patched list is consumed. Combining
/// patches, the order list is also carried over (both patches must agree).
fn apply_set_element_order<L: PatchMetaLookup>(
    original: &mut Map,
    patch: &mut Map,
    schema: Option<&L>,
    path: &str,
    mode: MergeMode,
) -> Result<()> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .cloned()
        .collect();
    for key in keys {
        let order_v = patch.shift_remove(&key).expect("listed above");
        if mode == MergeMode::Combine {
            match original.get(&key) {
                Some(theirs) if theirs != &order_v => {
                    return Err(fail(path, StrategicError::BadSetElementOrderFormat))
                }
                Some(_) => {}
                None => {
                    original.insert(key.clone(), order_v.clone());
                }
            }
        }
        let Value::List(order) = order_v else {
            return Err(fail(
                path,
                StrategicError::BadArgType {
                    expected: "[]interface {}",
                    actual: Box::new(order_v),
                },
            ));
        };
        let target = directive_target(
            &key,
            SET_ELEMENT_ORDER,
            StrategicError::BadSetElementOrderFormat,
        )
        .map_err(|e| fail(path, e))?
        .to_string();
        let field_path = child(path, &target);
        let as_list = |v: Option<&Value>| -> Result<Option<Vec<Value>>> {
            match v {
                None => Ok(None),
                Some(Value::List(l)) => Ok(Some(l.clone().into_vec())),
                Some(other) => Err(fail(
                    &field_path,
                    StrategicError::BadArgType {
                        expected: "[]interface {}",
                        actual: Box::new(other.clone()),
                    },
                )),
            }
        };
        let live = as_list(original.get(&target))?;
        let patched = as_list(patch.get(&target))?;
        let (sub, meta) = lookup(schema, &target, true, &field_path)?;
        let strategy = strategy(&meta).map_err(|e| fail(&field_path, e))?;
        let merge_key = meta.merge_key.as_deref().unwrap_or("");
        validate_order(patched.as_deref().unwrap_or(&[]), &order, merge_key)
            .map_err(|e| fail(&field_path, e))?;

        let merged = match (&live, &patched) {
            (Some(l), None) => l.clone(),
            (None, Some(p)) => match remove_directives(Value::List(p.clone().into())) {
                Some(Value::List(v)) => v.into_vec(),
                _ => continue,
            },
            (Some(l), Some(p)) => {
                if strategy == MERGE {
                    merge_list(
                        l.clone(),
                        p.clone(),
                        sub.as_ref(),
                        merge_key,
                        false,
                        &field_path,
                        mode,
                    )?
                } else {
                    p.clone()
                }
            }
            (None, None) => continue,
        };
        let live = live.unwrap_or_default();
        let (in_order, server_only) =
            partition(merged, &order, merge_key).map_err(|e| fail(&field_path, e))?;
        let kind = element_kind(&[&live, patched.as_deref().unwrap_or(&[])])
            .map_err(|e| fail(&field_path, e))?;
        let ordered =
            normalize_element_order(in_order, server_only, &order, &live, merge_key, kind)
                .map_err(|e| fail(&field_path, e))?;
        original.insert(target.clone(), Value::List(ordered.into()));
        patch.shift_remove(&target);
    }
    Ok(())
}

/// Checks the patch list's items appear in the order list, in the same relative order
/// (deletions and other directive items aside).
fn validate_order(patch: &[Value], order: &[Value], merge_key: &str) -> Result<(), StrategicError> {
    if order.is_empty() || patch.is_empty() {
        return Ok(());
    }
    let items: Vec<&Value> = if merge_key.is_empty() {
        patch.iter().collect()
    } else {
        let mut kept = Vec::new();
        for v in patch {
            if !matches!(v, Value::Map(_)) {
                return Err(StrategicError::BadArgType {
                    expected: "map[string]interface {}",
                    actual: Box::new(v.clone()),
                });
            }
            if v.get(DIRECTIVE).and_then(Value::as_str) != Some(DELETE) {
                kept.push(v);
            }
        }
        kept
    };
    let (mut p, mut o) = (0, 0);
    while p < items.len() && o < order.len() {
        if items[p].get(DIRECTIVE).is_some() {
            p += 1;
            continue;
        }
        if merge_key_equal(items[p], &order[o], merge_key)? {
            p += 1;
        }
        o += 1;
    }
    if p < items.len() && o >= order.len() {
        return Err(StrategicError::OrderMismatch {
            patch: patch.to_vec(),
            order: order.to_vec(),
        });
    }
    Ok(())
}

fn merge_key_equal(a: &Value, b: &Value, merge_key: &str) -> Result<bool, StrategicError> {
    if merge_key.is_empty() {
        return Ok(go_eq(a, b));
    }
    let key_of = |v: &Value| -> Result<Value, StrategicError> {
        let Value::Map(m) = v else {
            return Err(StrategicError::BadArgType {
                expected: "map[string]interface {}",
                actual: Box::new(v.clone()),
            });
        };
        m.get(merge_key)
            .cloned()
            .ok_or_else(|| StrategicError::NoMergeKey {
                map: Box::new(m.clone()),
                key: merge_key.to_string(),
            })
    };
    Ok(go_eq(&key_of(a)?, &key_of(b)?))
}

/// Merges two lists of a field with the `merge` strategy (or a deletion list).
fn merge_list<L: PatchMetaLookup>(
    original: Vec<Value>,
    patch: Vec<Value>,
    schema: Option<&L>,
    merge_key: &str,
    is_delete_list: bool,
    path: &str,
    mode: MergeMode,
) -> Result<Vec<Value>> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let kind = element_kind(&[&original, &patch]).map_err(|e| fail(path, e))?;
    let (merged, patch, original) = if kind == ItemKind::Scalar {
        if is_delete_list && mode == MergeMode::Apply {
            return Ok(original
                .into_iter()
                .filter(|v| !patch.iter().any(|d| go_eq(d, v)))
                .collect());
        }
        let mut both = original.clone();
        both.extend(patch.iter().cloned());
        (dedup_scalars(both), patch, original)
    } else {
        if merge_key.is_empty() {
            let name = schema
                .map(|s| s.name())
                .unwrap_or_else(|| "<no schema>".into());
            return Err(fail(path, StrategicError::NoMergeKeyForList(name)));
        }
        let (original, patch) =
            apply_list_directives(original, patch, merge_key).map_err(|e| fail(path, e))?;
        let mut merged = original.clone();
        for item in &patch {
            let Value::Map(p) = item else {
                unreachable!("element kinds checked")
            };
            let key = p.get(merge_key).ok_or_else(|| {
                fail(
                    path,
                    StrategicError::NoMergeKey {
                        map: Box::new(p.clone()),
                        key: merge_key.to_string(),
                    },
                )
            })?;
            let found = merged
                .iter()
                .position(|o| o.get(merge_key).is_some_and(|v| go_eq(v, key)));
            match found {
                Some(i) => {
                    let Value::Map(o) = std::mem::take(&mut merged[i]) else {
                        unreachable!("element kinds checked")
                    };
                    let item_path =
                        format!("{path}[{merge_key}={}]", crate::value::gofmt::go_value(key));
                    merged[i] = Value::Map(merge_map(o, p.clone(), schema, &item_path, mode)?);
                }
                None => merged.push(item.clone()),
            }
        }
        (merged, patch, original)
    };
    let merge_key = if kind == ItemKind::Scalar {
        ""
    } else {
        merge_key
    };
    let (in_patch, server_only) =
        partition(merged, &patch, merge_key).map_err(|e| fail(path, e))?;
    normalize_element_order(in_patch, server_only, &patch, &original, merge_key, kind)
        .map_err(|e| fail(path, e))
}

/// Applies the `$patch` items of a merging list of objects: `delete` removes every live item
/// with that merge key, `replace` makes the other patch items the whole list. Returns the
/// live list and the remaining patch items.
fn apply_list_directives(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), StrategicError> {
    let mut plain = Vec::new();
    let mut replace = false;
    for item in patch {
        let Value::Map(m) = &item else {
            unreachable!("element kinds checked")
        };
        let Some(directive) = m.get(DIRECTIVE) else {
            plain.push(item);
            continue;
        };
        match directive.as_str() {
            Some(DELETE) => {
                let Some(key) = m.get(merge_key) else {
                    return Err(StrategicError::NoMergeKey {
                        map: Box::new(m.clone()),
                        key: merge_key.to_string(),
                    });
                };
                original.retain(|o| !o.get(merge_key).is_some_and(|v| go_eq(v, key)));
            }
            Some(REPLACE) => replace = true,
            Some(MERGE) => return Err(StrategicError::MergeDirectiveInList),
            _ => {
                return Err(StrategicError::UnknownPatchType {
                    directive: Box::new(directive.clone()),
                    map: Box::new(m.clone()),
                })
            }
        }
    }
    if replace {
        Ok((plain, Vec::new()))
    } else {
        Ok((original, plain))
    }
}

/// Drops `null` members of objects at any depth.
fn discard_nulls(v: Value) -> Value {
    match v {
        Value::Map(m) => Value::Map(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, discard_nulls(v)))
                .collect(),
        ),
        Value::List(l) => Value::List(l.into_iter().map(discard_nulls).collect()),
        other => other,
    }
}

/// Drops every object holding `$patch` (and the member or item it is); `None` when `v`
/// itself is one.
fn remove_directives(v: Value) -> Option<Value> {
    match v {
        Value::Map(m) if m.contains_key(DIRECTIVE) => None,
        Value::Map(m) => Some(Value::Map(
            m.into_iter()
                .filter_map(|(k, v)| remove_directives(v).map(|v| (k, v)))
                .collect(),
        )),
        Value::List(l) => Some(Value::List(
            l.into_iter().filter_map(remove_directives).collect(),
        )),
        other => Some(other),
    }
}

#[cfg(test)]
mod tests;
