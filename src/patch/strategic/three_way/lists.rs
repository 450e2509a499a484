//! The diff of two lists with the `merge` strategy (apimachinery strategicpatch/patch.go
//! `diffLists`, `diffListsOfScalars`, `diffListsOfMaps`): items matched by merge key (or by
//! value), compared in the order of their `%v` texts, as the library sorts them.

use super::super::order::{
    dedup_scalars, element_kind, go_deep_eq, go_eq, normalize_slice_order, ItemKind,
};
use super::super::{DELETE, DIRECTIVE};
use super::{diff_maps, DiffOptions, Result};
use crate::patch::{PatchMetaLookup, StrategicError};
use crate::value::gofmt::go_value;
use crate::value::{Map, Value};

/// The three parts of a merging list's diff.
#[derive(Default)]
pub(super) struct ListDiff {
    /// Added and changed items (then `$patch: delete` items, for lists of objects).
    pub(super) patch: Vec<Value>,
    /// Scalars to delete: the `$deleteFromPrimitiveList` parallel list.
    pub(super) deletions: Vec<Value>,
    /// The new order: the `$setElementOrder` parallel list.
    pub(super) order: Vec<Value>,
}

pub(super) fn diff_lists<L: PatchMetaLookup>(
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
                        let mut only_key = Map::default();
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
pub(super) fn sort_by_text(items: &mut [Value], text: impl Fn(&Value) -> String) {
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
pub(super) fn diff_lists_of_scalars(
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
pub(super) fn diff_lists_of_maps<L: PatchMetaLookup>(
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
                    let mut directive = Map::default();
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
