//! The merging walk shared by merge and compare: both sides are walked together by the schema;
//! leaves (scalars, atomic and empty containers) go to a rule, maps zip by field, associative
//! lists zip by key with the order of the right side winning for shared items.

use super::compare::Comparison;
use super::validate::validate_scalar;
use super::*;
use crate::fieldpath::Set;
use crate::schema::{MapType, Scalar};
use crate::value::Map;
use rustc_hash::{FxHashMap, FxHashSet};

pub(crate) fn merge(
    schema: &Schema,
    tr: &TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Value, ValidationErrors> {
    // Into an empty object (a create), a valid right side merges to itself: every leaf is the
    // right side's and every list keeps its order, so the walk would only rebuild it. Only
    // an invalid one needs the walk, for its errors.
    let into_empty = lhs.as_map().is_some_and(|m| m.is_empty()) && matches!(rhs, Value::Map(_));
    if into_empty && super::validate::validate(schema, tr, rhs, false).is_empty() {
        return Ok(rhs.clone());
    }
    let mut w = Walker {
        schema,
        compare: None,
        path: Vec::new(),
    };
    let (out, errs) = w.node(tr, Some(lhs), Some(rhs));
    errs.into_result().map(|_| out.unwrap_or(Value::Null))
}

pub(crate) fn walk_compare(
    schema: &Schema,
    tr: &TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Comparison, ValidationErrors> {
    let mut w = Walker {
        schema,
        compare: Some(Recorder::default()),
        path: Vec::new(),
    };
    let (_, errs) = w.node(tr, Some(lhs), Some(rhs));
    errs.into_result()
        .map(|_| w.compare.take().unwrap_or_default().finish())
}

/// Which set of a [`Comparison`] a path goes to.
#[derive(Debug, Clone, Copy)]
enum Change {
    Added = 0,
    Modified = 1,
    Removed = 2,
}

/// The differences below one node of the walk, gathered bottom-up so that every set is built
/// once from sorted parts instead of by inserting whole paths from the root.
#[derive(Debug, Default)]
struct Frame {
    members: [Vec<PathElement>; 3],
    children: [Vec<(PathElement, Set)>; 3],
    /// Whole sets recorded below this node at once.
    below: [Set; 3],
}

/// Records a comparison: one frame per node on the current path, the root's first.
#[derive(Debug)]
struct Recorder {
    frames: Vec<Frame>,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder {
            frames: vec![Frame::default()],
        }
    }
}

impl Recorder {
    /// Records the node at `path` itself.
    fn record(&mut self, change: Change, path: &[PathElement]) {
        let (Some(last), Some(parent)) = (path.last(), self.frames.len().checked_sub(2)) else {
            return;
        };
        self.frames[parent].members[change as usize].push(last.clone());
    }

    fn enter(&mut self) {
        self.frames.push(Frame::default());
    }

    fn leave(&mut self, pe: &PathElement) {
        let frame = self.frames.pop().expect("entered before");
        let parent = self.frames.last_mut().expect("the root frame stays");
        for (k, set) in frame.into_sets().into_iter().enumerate() {
            if !set.is_empty() {
                parent.children[k].push((pe.clone(), set));
            }
        }
    }

    fn finish(mut self) -> Comparison {
        let [added, modified, removed] = self.frames.swap_remove(0).into_sets();
        Comparison {
            added,
            modified,
            removed,
        }
    }
}

impl Frame {
    fn into_sets(self) -> [Set; 3] {
        let Frame {
            members,
            children,
            below,
        } = self;
        let mut sets = members
            .into_iter()
            .zip(children)
            .map(|(m, c)| Set::from_parts(m, c));
        let mut next = |k: usize| {
            let set = sets.next().unwrap_or_default();
            if below[k].is_empty() {
                set
            } else {
                set.union(&below[k])
            }
        };
        [next(0), next(1), next(2)]
    }
}

/// Where each list item first appears; `None` for an item that repeats.
type Positions<'p> = FxHashMap<&'p PathElement, Option<usize>>;

fn lookup<'v>(index: &Positions<'_>, items: &'v [Value], pe: &PathElement) -> Option<&'v Value> {
    index.get(pe).copied().flatten().map(|i| &items[i])
}

type Indexed<'v, 'p> = (&'v Positions<'p>, &'v [Value]);

struct Walker<'s> {
    schema: &'s Schema,
    /// Set when comparing; merging builds the output instead.
    compare: Option<Recorder>,
    path: Vec<PathElement>,
}

type Out = (Option<Value>, ValidationErrors);

impl<'s> Walker<'s> {
    fn node(&mut self, tr: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) -> Out {
        if lhs.is_none() && rhs.is_none() {
            return (
                None,
                ValidationErrors::one("at least one of lhs and rhs must be provided"),
            );
        }
        let r = match resolve(self.schema, tr) {
            Ok(r) => r,
            Err(e) => return (None, e),
        };
        let left = deduce_shape(&r, lhs);
        let right = deduce_shape(&r, rhs);
        let mut errs = ValidationErrors::default();
        let mut in_leaf = false;
        // When the sides deduce to different shapes the reference walks the left shape first,
        // for its side effects only (recorded differences, errors); the right decides the
        // output. When both shapes dispatch to the same handler that walk would repeat the
        // right one exactly (recording is idempotent), and skipping it keeps deeply nested
        // untyped values linear instead of exponential.
        if left != right && handler_for(left, tr).ok() != handler_for(right, tr).ok() {
            let mut left_leaf = false;
            let (_, e) = self.handle(&r, tr, left, lhs, rhs, &mut left_leaf);
            errs.extend(e);
        }
        let (out, e) = self.handle(&r, tr, right, lhs, rhs, &mut in_leaf);
        errs.extend(e);
        if !in_leaf {
            if let Some(c) = &mut self.compare {
                if lhs.is_none() {
                    c.record(Change::Added, &self.path);
                } else if rhs.is_none() {
                    c.record(Change::Removed, &self.path);
                }
            }
        }
        (out, errs)
    }

    fn handle(
        &mut self,
        r: &Resolved<'_>,
        tr: &TypeRef,
        shape: Shape,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        in_leaf: &mut bool,
    ) -> Out {
        match handler_for(shape, tr) {
            Err(e) => (None, e),
            Ok(Handler::Scalar) => {
                let t = r.scalar.unwrap_or(Scalar::Untyped);
                let mut errs = ValidationErrors::default();
                if let Some(l) = lhs {
                    errs.extend(validate_scalar(t, l, "lhs: "));
                }
                if let Some(rv) = rhs {
                    errs.extend(validate_scalar(t, rv, "rhs: "));
                }
                if !errs.is_empty() {
                    return (None, errs);
                }
                (self.leaf(lhs, rhs, in_leaf), errs)
            }
            Ok(Handler::List) => {
                let list = r.list.expect("list shape");
                let l = lhs.and_then(Value::as_list);
                let rl = rhs.and_then(Value::as_list);
                let empty = l.is_none_or(|x| x.is_empty()) && rl.is_none_or(|x| x.is_empty());
                if is_atomic(r.list_relationship()) || empty {
                    return (self.leaf(lhs, rhs, in_leaf), ValidationErrors::default());
                }
                self.list_items(
                    list,
                    l.map(Vec::as_slice).unwrap_or(&[]),
                    rl.map(Vec::as_slice).unwrap_or(&[]),
                )
            }
            Ok(Handler::Map) => {
                let map = r.map.expect("map shape");
                let l = lhs.and_then(Value::as_map);
                let rm = rhs.and_then(Value::as_map);
                let empty = l.is_none_or(|x| x.is_empty()) && rm.is_none_or(|x| x.is_empty());
                if is_atomic(r.map_relationship()) || empty {
                    return (self.leaf(lhs, rhs, in_leaf), ValidationErrors::default());
                }
                self.map_items(map, l, rm)
            }
        }
    }

    fn leaf(
        &mut self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        in_leaf: &mut bool,
    ) -> Option<Value> {
        if *in_leaf {
            return None;
        }
        *in_leaf = true;
        match &mut self.compare {
            None => rhs.or(lhs).cloned(),
            Some(c) => {
                match (lhs, rhs) {
                    (None, _) => c.record(Change::Added, &self.path),
                    (_, None) => c.record(Change::Removed, &self.path),
                    (Some(l), Some(r)) if l != r => c.record(Change::Modified, &self.path),
                    _ => {}
                }
                None
            }
        }
    }

    fn child(
        &mut self,
        pe: PathElement,
        tr: &TypeRef,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Out {
        self.enter(pe);
        let (out, errs) = self.node(tr, lhs, rhs);
        let pe = self.leave();
        if errs.is_empty() {
            return (out, errs);
        }
        (out, errs.with_prefix(&pe.to_string()))
    }

    fn map_items(&mut self, map: &MapType, lhs: Option<&Map>, rhs: Option<&Map>) -> Out {
        let mut out = Map::default();
        let mut errs = ValidationErrors::default();
        let empty = Map::default();
        let (lhs, rhs) = (lhs.unwrap_or(&empty), rhs.unwrap_or(&empty));
        for (key, lv) in lhs {
            let (o, e) = self.child(
                PathElement::Field(key.clone()),
                map.type_of(key),
                Some(lv),
                rhs.get(key),
            );
            errs.extend(e);
            if let Some(o) = o {
                out.insert(key.clone(), o);
            }
        }
        for (key, rv) in rhs {
            if lhs.contains_key(key) {
                continue;
            }
            let (o, e) = self.child(
                PathElement::Field(key.clone()),
                map.type_of(key),
                None,
                Some(rv),
            );
            errs.extend(e);
            if let Some(o) = o {
                out.insert(key.clone(), o);
            }
        }
        let out = if out.is_empty() || self.compare.is_some() {
            None
        } else {
            Some(Value::Map(out))
        };
        (out, errs)
    }

    fn list_items(&mut self, list: &ListType, lhs: &[Value], rhs: &[Value]) -> Out {
        let mut errs = ValidationErrors::default();
        let r_pes = self.index_items(list, rhs, &mut errs);
        let l_pes = self.index_items(list, lhs, &mut errs);
        // Comparing tolerates repeated items on both sides; merging only on the live side.
        let r_index = positions(&r_pes, self.compare.is_some(), &mut errs);
        let l_index = positions(&l_pes, true, &mut errs);
        if !errs.is_empty() {
            return (None, errs);
        }
        let mut shared = r_pes.iter().filter(|pe| l_index.contains_key(pe));
        let mut next_shared = shared.next();
        let mut merged_rhs: FxHashSet<&PathElement> = FxHashSet::default();
        let mut out = Vec::with_capacity(lhs.len().max(rhs.len()));
        let (mut li, mut ri) = (0, 0);
        while li < l_pes.len() || ri < r_pes.len() {
            if li < l_pes.len() && ri < r_pes.len() {
                let pe = &l_pes[li];
                if *pe == r_pes[ri] {
                    merged_rhs.insert(pe);
                    let o = self.list_item(list, pe, (&l_index, lhs), (&r_index, rhs));
                    out.extend(o);
                    li += 1;
                    ri += 1;
                    next_shared = shared.next();
                    continue;
                }
                if r_index.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                    li += 1;
                    continue;
                }
            }
            if li < l_pes.len() {
                let pe = &l_pes[li];
                if !r_index.contains_key(pe) {
                    let (o, _dropped) =
                        self.child(pe.clone(), &list.element_type, Some(&lhs[li]), None);
                    out.extend(o);
                    li += 1;
                    continue;
                } else if merged_rhs.contains(pe) {
                    li += 1;
                    continue;
                }
            }
            if ri < r_pes.len() {
                let pe = &r_pes[ri];
                merged_rhs.insert(pe);
                let o = self.list_item(list, pe, (&l_index, lhs), (&r_index, rhs));
                out.extend(o);
                ri += 1;
                if next_shared.is_some_and(|n| n == pe) {
                    next_shared = shared.next();
                }
            }
        }
        // The reference drops errors from list items (a shadowed variable); so do we, to match.
        let out = if out.is_empty() || self.compare.is_some() {
            None
        } else {
            Some(Value::List(out.into()))
        };
        (out, errs)
    }

    /// Merges or compares one item. When comparing, an item repeated on either side is one
    /// value made of all its occurrences, as its owners hold it whole.
    fn list_item(
        &mut self,
        list: &ListType,
        pe: &PathElement,
        lhs: Indexed<'_, '_>,
        rhs: Indexed<'_, '_>,
    ) -> Option<Value> {
        let repeated = |(index, _): Indexed<'_, '_>| matches!(index.get(pe), Some(None));
        if self.compare.is_some() && (repeated(lhs) || repeated(rhs)) {
            self.compare_repeated_item(list, pe, lhs, rhs, repeated(lhs), repeated(rhs));
            return None;
        }
        let (o, _dropped) = self.child(
            pe.clone(),
            &list.element_type,
            lookup(lhs.0, lhs.1, pe),
            lookup(rhs.0, rhs.1, pe),
        );
        o
    }

    /// Compares an item that repeats on at least one side: its owners hold it whole, so the
    /// item is one leaf made of all its occurrences, and the fields of a side where it was
    /// single are gone from (or new on) the other side.
    fn compare_repeated_item(
        &mut self,
        list: &ListType,
        pe: &PathElement,
        lhs: Indexed<'_, '_>,
        rhs: Indexed<'_, '_>,
        lhs_repeated: bool,
        rhs_repeated: bool,
    ) {
        let occurrences = |(_, items): Indexed<'_, '_>| -> Vec<Value> {
            items
                .iter()
                .filter(|item| list_item_element(self.schema, list, item).is_ok_and(|p| p == *pe))
                .cloned()
                .collect()
        };
        let (l, r) = (occurrences(lhs), occurrences(rhs));
        self.enter(pe.clone());
        if let (Some(single), false) = (l.first(), lhs_repeated) {
            self.record_fields_below(list, single, false);
        }
        if let (Some(single), false) = (r.first(), rhs_repeated) {
            self.record_fields_below(list, single, true);
        }
        let l = (!l.is_empty()).then_some(Value::List(l.into()));
        let r = (!r.is_empty()).then_some(Value::List(r.into()));
        let mut in_leaf = false;
        self.leaf(l.as_ref(), r.as_ref(), &mut in_leaf);
        self.leave();
    }

    fn enter(&mut self, pe: PathElement) {
        self.path.push(pe);
        if let Some(c) = &mut self.compare {
            c.enter();
        }
    }

    fn leave(&mut self) -> PathElement {
        let pe = self.path.pop().expect("entered before");
        if let Some(c) = &mut self.compare {
            c.leave(&pe);
        }
        pe
    }

    /// Records every field of `item` (at the current path) as added or removed.
    fn record_fields_below(&mut self, list: &ListType, item: &Value, added: bool) {
        let Ok(below) = super::to_set::to_field_set(self.schema, &list.element_type, item) else {
            return;
        };
        let change = if added {
            Change::Added
        } else {
            Change::Removed
        };
        if let Some(frame) = self.compare.as_mut().and_then(|c| c.frames.last_mut()) {
            let slot = &mut frame.below[change as usize];
            *slot = slot.union(&below);
        }
    }

    /// Path elements of a list's items, in order.
    fn index_items(
        &self,
        list: &ListType,
        items: &[Value],
        errs: &mut ValidationErrors,
    ) -> Vec<PathElement> {
        let mut pes = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match list_item_element(self.schema, list, item) {
                Ok(pe) => pes.push(pe),
                Err(msg) => errs.0.push(ValidationError {
                    path: String::new(),
                    message: format!("element {i}: {msg}"),
                }),
            }
        }
        pes
    }
}

/// Where each item first appears. A repeated item (tolerated only where allowed) maps to
/// `None`: it is never merged with the new value.
fn positions<'p>(
    pes: &'p [PathElement],
    allow_duplicates: bool,
    errs: &mut ValidationErrors,
) -> Positions<'p> {
    let mut index: Positions<'p> =
        FxHashMap::with_capacity_and_hasher(pes.len(), Default::default());
    for (i, pe) in pes.iter().enumerate() {
        match index.get_mut(pe) {
            Some(_) if !allow_duplicates => errs.0.push(ValidationError {
                path: String::new(),
                message: format!("duplicate entries for key {pe}"),
            }),
            Some(slot) => *slot = None,
            None => {
                index.insert(pe, Some(i));
            }
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::parse_smd_schema;
    use crate::value::from_json_str;

    const SCHEMA: &str = "types:\n- name: root\n  map:\n    fields:\n    - name: name\n      type:\n        scalar: string\n    - name: ports\n      type:\n        list:\n          elementType:\n            namedType: port\n          elementRelationship: associative\n          keys:\n          - port\n    - name: tags\n      type:\n        list:\n          elementType:\n            scalar: string\n          elementRelationship: associative\n    - name: labels\n      type:\n        map:\n          elementType:\n            scalar: string\n    - name: blob\n      type:\n        map:\n          elementType:\n            scalar: string\n          elementRelationship: atomic\n- name: port\n  map:\n    fields:\n    - name: port\n      type:\n        scalar: numeric\n    - name: name\n      type:\n        scalar: string\n";

    /// The full walk, without the shortcut for an empty left side.
    fn walked(schema: &Schema, tr: &TypeRef, lhs: &Value, rhs: &Value) -> Result<Value, String> {
        let mut w = Walker {
            schema,
            compare: None,
            path: Vec::new(),
        };
        let (out, errs) = w.node(tr, Some(lhs), Some(rhs));
        errs.into_result()
            .map(|_| out.unwrap_or(Value::Null))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn merging_into_an_empty_object_gives_what_the_walk_gives() {
        let schema = parse_smd_schema(SCHEMA).unwrap();
        let tr = TypeRef::named("root");
        let empty = from_json_str("{}").unwrap();
        for rhs in [
            r#"{}"#,
            r#"{"name":"a","labels":{},"ports":[],"tags":null}"#,
            r#"{"ports":[{"port":2,"name":"b"},{"port":1}],"tags":["y","x"],"labels":{"k":"v"}}"#,
            r#"{"blob":{"z":"1","a":"2"},"name":null,"extra":{"deep":[1,2]}}"#,
            r#"{"ports":[{"port":1},{"port":1}]}"#,
            r#"{"tags":["x","x"]}"#,
            r#"{"ports":[{"name":"no key"}]}"#,
            r#"{"name":{"not":"a string"}}"#,
        ] {
            let rhs = from_json_str(rhs).unwrap();
            let fast = merge(&schema, &tr, &empty, &rhs).map_err(|e| e.to_string());
            assert_eq!(fast, walked(&schema, &tr, &empty, &rhs), "{rhs:?}");
        }
    }
}
