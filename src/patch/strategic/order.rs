//! Where merged list items end up: the reference's partition into patch items and live-only
//! items, each sorted by its own order, then interleaved by live position. Go's equality of
//! decoded JSON values and Go's stable sort are reproduced, since the results depend on them.

use super::{Result, StrategicError, DELETE, DIRECTIVE};
use crate::value::Value;

/// Go's `==` on decoded JSON values: an int64 never equals a float64.
pub(super) fn go_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        _ => a == b,
    }
}

/// Go's `reflect.DeepEqual` on decoded JSON values: like [`go_eq`] at every depth.
pub(crate) fn go_deep_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| go_deep_eq(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| go_deep_eq(v, w)))
        }
        _ => go_eq(a, b),
    }
}

fn opt_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => go_eq(x, y),
        _ => false,
    }
}

/// Whether the items being ordered are objects (identified by merge key) or scalars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemKind {
    Map,
    Scalar,
}

/// What identifies an item: its merge key's value for objects, itself otherwise.
fn identity<'a>(item: &'a Value, merge_key: &str, kind: ItemKind) -> Option<&'a Value> {
    match kind {
        ItemKind::Map => item.get(merge_key),
        ItemKind::Scalar => Some(item),
    }
}

/// Position of `item` in `list`, compared by identity.
fn index(list: &[Value], item: &Value, merge_key: &str, kind: ItemKind) -> Option<usize> {
    let id = identity(item, merge_key, kind);
    list.iter()
        .position(|v| opt_eq(id, identity(v, merge_key, kind)))
}

/// The kind of the items of all `lists`, which must agree (Go compares dynamic types).
pub(super) fn element_kind(lists: &[&[Value]]) -> Result<ItemKind, StrategicError> {
    let mut first: Option<&Value> = None;
    for item in lists.iter().flat_map(|l| l.iter()) {
        match first {
            None => {
                if matches!(item, Value::List(_)) {
                    return Err(StrategicError::ListOfLists);
                }
                first = Some(item);
            }
            Some(f) if std::mem::discriminant(f) != std::mem::discriminant(item) => {
                return Err(StrategicError::MixedElementTypes {
                    lists: lists.iter().map(|l| l.to_vec()).collect(),
                })
            }
            Some(_) => {}
        }
    }
    match first {
        None => Err(StrategicError::NoElements),
        Some(Value::Map(_)) => Ok(ItemKind::Map),
        Some(_) => Ok(ItemKind::Scalar),
    }
}

/// Removes repeated scalars the way the reference does (a later duplicate is overwritten by
/// the last item, so the order changes; it is normalised afterwards).
pub(super) fn dedup_scalars(mut s: Vec<Value>) -> Vec<Value> {
    let mut length = s.len() as isize - 1;
    let mut i = 0isize;
    while i < length {
        let mut j = i + 1;
        while j <= length {
            if go_eq(&s[i as usize], &s[j as usize]) {
                s.swap(j as usize, length as usize);
                s.truncate(length as usize);
                length -= 1;
                j -= 1;
            }
            j += 1;
        }
        i += 1;
    }
    s
}

/// Splits `items` into those present in `by` and the rest, keeping their order.
pub(super) fn partition(
    items: Vec<Value>,
    by: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), StrategicError> {
    let mut present = Vec::new();
    let mut absent = Vec::new();
    for item in items {
        let found = if merge_key.is_empty() {
            by.iter().any(|b| go_eq(b, &item))
        } else {
            let Value::Map(m) = &item else {
                return Err(StrategicError::BadArgType {
                    expected: "map[string]interface {}",
                    actual: Box::new(item),
                });
            };
            let Some(key) = m.get(merge_key) else {
                return Err(StrategicError::NoMergeKey {
                    map: Box::new(m.clone()),
                    key: merge_key.to_string(),
                });
            };
            by.iter().any(|b| match b {
                Value::Map(bm) => bm.get(merge_key).is_some_and(|v| go_eq(v, key)),
                _ => false,
            })
        };
        if found {
            present.push(item);
        } else {
            absent.push(item);
        }
    }
    Ok((present, absent))
}

/// Sorts the patch items by `patch_order` and the live-only items by `server_order`, then
/// interleaves them: precedence is the order list, then the patch, then the live list.
pub(super) fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Result<Vec<Value>, StrategicError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    Ok(merge_sorted(
        server_only,
        patch,
        server_order,
        merge_key,
        kind,
    ))
}

pub(super) fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Result<Vec<Value>, StrategicError> {
    let (mut to_sort, to_delete) = if kind == ItemKind::Map {
        for item in to_sort.iter().chain(order) {
            let Value::Map(m) = item else {
                return Err(StrategicError::BadArgType {
                    expected: "map[string]interface {}",
                    actual: Box::new(item.clone()),
                });
            };
            if !m.contains_key(merge_key) {
                return Err(StrategicError::NoMergeKey {
                    map: Box::new(m.clone()),
                    key: merge_key.to_string(),
                });
            }
        }
        to_sort
            .into_iter()
            .partition(|v| v.get(DIRECTIVE).is_none_or(|d| d.as_str() != Some(DELETE)))
    } else {
        (to_sort, Vec::new())
    };
    // The reference's comparator: by position in `order` when both are in it, else "less".
    go_stable_sort(&mut to_sort, |a, b| {
        match (
            index(order, a, merge_key, kind),
            index(order, b, merge_key, kind),
        ) {
            (Some(i), Some(j)) => i < j,
            _ => true,
        }
    });
    to_sort.extend(to_delete);
    Ok(to_sort)
}

/// Inserts the live-only items (`left`) among the patch items (`right`): a live-only item
/// goes first only when both are in the live list and it comes earlier there.
fn merge_sorted(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Vec<Value> {
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => matches!(
                (
                    index(server_order, l, merge_key, kind),
                    index(server_order, r, merge_key, kind),
                ),
                (Some(i), Some(j)) if i < j
            ),
        };
        out.extend(if take_left { left.next() } else { right.next() });
    }
    out
}

/// Go's `sort.SliceStable` (insertion sort in blocks of 20, then in-place symmerge). The
/// reference's comparator is not a strict order, so the exact algorithm matters.
pub(super) fn go_stable_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    let lt = |v: &[T], i: usize, j: usize| less(&v[i], &v[j]);
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(v, a, b, &lt);
        a = b;
        b += block;
    }
    insertion_sort(v, a, n, &lt);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(v, a, a + block, b, &lt);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(v, a, m, n, &lt);
        }
        block *= 2;
    }
}

type Less<'a, T> = &'a dyn Fn(&[T], usize, usize) -> bool;

fn insertion_sort<T>(v: &mut [T], a: usize, b: usize, less: Less<T>) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(v, j, j - 1) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sym_merge<T>(v: &mut [T], a: usize, m: usize, b: usize, less: Less<T>) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(v, h, a) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            v.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(v, m, h) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            v.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(v, p - c, c) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(v, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(v, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(v, mid, end, b, less);
    }
}

fn rotate<T>(v: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(v, m - i, m, j);
            i -= j;
        } else {
            swap_range(v, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(v, m - i, m, i);
}

fn swap_range<T>(v: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        v.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_sort_matches_a_true_sort_for_strict_orders() {
        let mut v: Vec<(u32, u32)> = (0..100).map(|i| ((i * 37) % 11, i)).collect();
        let mut expected = v.clone();
        expected.sort_by_key(|p| p.0);
        go_stable_sort(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, expected);
    }

    #[test]
    fn dedup_moves_the_last_item_into_a_duplicate() {
        let s = |x: &str| Value::String(x.into());
        let out = dedup_scalars(vec![s("a"), s("b"), s("a"), s("c")]);
        assert_eq!(out, vec![s("a"), s("b"), s("c")]);
        let out = dedup_scalars(vec![s("a"), s("a"), s("b"), s("c")]);
        assert_eq!(out, vec![s("a"), s("c"), s("b")]);
    }

    #[test]
    fn ints_and_floats_are_different_items() {
        assert!(!go_eq(&Value::Int(80), &Value::Float(80.0)));
        assert!(go_eq(&Value::Float(80.5), &Value::Float(80.5)));
    }
}
