//! The merging walk shared by merge and compare: both sides are walked together by the schema;
//! leaves (scalars, atomic and empty containers) go to a rule, maps zip by field, associative
//! lists zip by key with the order of the right side winning for shared items.

use super::compare::Comparison;
use super::validate::validate_scalar;
use super::*;
use crate::schema::{MapType, Scalar};
use crate::value::Map;
use std::collections::HashMap;

pub(crate) fn merge(
    schema: &Schema,
    tr: &TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Value, ValidationErrors> {
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
        compare: Some(Comparison::default()),
        path: Vec::new(),
    };
    let (_, errs) = w.node(tr, Some(lhs), Some(rhs));
    errs.into_result()
        .map(|_| w.compare.take().unwrap_or_default())
}

fn lookup<'v>(
    index: &HashMap<String, Option<usize>>,
    items: &'v [Value],
    pe: &PathElement,
) -> Option<&'v Value> {
    index
        .get(&crate::fieldpath::element_key(pe))
        .copied()
        .flatten()
        .map(|i| &items[i])
}

type Indexed<'v> = (&'v HashMap<String, Option<usize>>, &'v [Value]);

struct Walker<'s> {
    schema: &'s Schema,
    /// Set when comparing; merging builds the output instead.
    compare: Option<Comparison>,
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
        if left != right {
            // The left side is walked on its own first; only its side effects (recorded
            // differences) matter, the right side decides the output.
            let mut left_leaf = false;
            let (_, e) = self.handle(&r, tr, left, lhs, rhs, &mut left_leaf);
            errs.extend(e);
        }
        let (out, e) = self.handle(&r, tr, right, lhs, rhs, &mut in_leaf);
        errs.extend(e);
        if !in_leaf {
            if let Some(c) = &mut self.compare {
                if lhs.is_none() {
                    c.added.insert_elements(&self.path);
                } else if rhs.is_none() {
                    c.removed.insert_elements(&self.path);
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
                let empty = l.map_or(true, |x| x.is_empty()) && rl.map_or(true, |x| x.is_empty());
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
                let empty = l.map_or(true, |x| x.is_empty()) && rm.map_or(true, |x| x.is_empty());
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
                    (None, _) => c.added.insert_elements(&self.path),
                    (_, None) => c.removed.insert_elements(&self.path),
                    (Some(l), Some(r)) if l != r => c.modified.insert_elements(&self.path),
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
        self.path.push(pe);
        let (out, errs) = self.node(tr, lhs, rhs);
        let pe = self.path.pop().expect("pushed above");
        (out, errs.with_prefix(&pe.to_string()))
    }

    fn map_items(&mut self, map: &MapType, lhs: Option<&Map>, rhs: Option<&Map>) -> Out {
        let mut out = Map::new();
        let mut errs = ValidationErrors::default();
        let empty = Map::new();
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
        // Comparing tolerates repeated items on both sides; merging only on the live side.
        let (r_pes, r_index) = self.index_items(list, rhs, self.compare.is_some(), &mut errs);
        let (l_pes, l_index) = self.index_items(list, lhs, true, &mut errs);
        if !errs.is_empty() {
            return (None, errs);
        }
        let key = crate::fieldpath::element_key;
        let mut shared = r_pes.iter().filter(|pe| l_index.contains_key(&key(pe)));
        let mut next_shared = shared.next();
        let mut merged_rhs: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(lhs.len().max(rhs.len()));
        let (mut li, mut ri) = (0, 0);
        while li < l_pes.len() || ri < r_pes.len() {
            if li < l_pes.len() && ri < r_pes.len() {
                let pe = &l_pes[li];
                if *pe == r_pes[ri] {
                    merged_rhs.insert(key(pe));
                    let o = self.list_item(list, pe, (&l_index, lhs), (&r_index, rhs));
                    out.extend(o);
                    li += 1;
                    ri += 1;
                    next_shared = shared.next();
                    continue;
                }
                if r_index.contains_key(&key(pe)) && next_shared.is_some_and(|n| n != pe) {
                    li += 1;
                    continue;
                }
            }
            if li < l_pes.len() {
                let pe = &l_pes[li];
                let k = key(pe);
                if !r_index.contains_key(&k) {
                    let (o, _dropped) =
                        self.child(pe.clone(), &list.element_type, Some(&lhs[li]), None);
                    out.extend(o);
                    li += 1;
                    continue;
                } else if merged_rhs.contains(&k) {
                    li += 1;
                    continue;
                }
            }
            if ri < r_pes.len() {
                let pe = &r_pes[ri];
                merged_rhs.insert(key(pe));
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
            Some(Value::List(out))
        };
        (out, errs)
    }

    /// Merges or compares one item. When comparing, an item repeated on either side is one
    /// value made of all its occurrences, as its owners hold it whole.
    fn list_item(
        &mut self,
        list: &ListType,
        pe: &PathElement,
        lhs: Indexed<'_>,
        rhs: Indexed<'_>,
    ) -> Option<Value> {
        let k = crate::fieldpath::element_key(pe);
        let repeated = |(index, _): Indexed<'_>| matches!(index.get(&k), Some(None));
        if self.compare.is_some() && (repeated(lhs) || repeated(rhs)) {
            let occurrences = |(_, items): Indexed<'_>| -> Vec<Value> {
                items
                    .iter()
                    .filter(|item| {
                        list_item_element(self.schema, list, item).is_ok_and(|p| p == *pe)
                    })
                    .cloned()
                    .collect()
            };
            let (l, r) = (occurrences(lhs), occurrences(rhs));
            // The fields of an item that was single on one side are gone from (or new on) the
            // other side, where the item is now held whole.
            self.path.push(pe.clone());
            for (side, single) in [(&l, repeated(lhs)), (&r, repeated(rhs))]
                .iter()
                .enumerate()
                .map(|(i, (v, rep))| (i, v.first().filter(|_| !rep)))
            {
                if let Some(item) = single {
                    if let Ok(below) =
                        super::to_set::to_field_set(self.schema, &list.element_type, item)
                    {
                        let c = self.compare.as_mut().expect("comparing");
                        let target = if side == 0 {
                            &mut c.removed
                        } else {
                            &mut c.added
                        };
                        let prefix = self.path.clone();
                        below.iterate(|p| {
                            let mut full = prefix.clone();
                            full.extend(p.elements().iter().cloned());
                            target.insert_elements(&full);
                        });
                    }
                }
            }
            self.path.pop();
            let l = (!l.is_empty()).then_some(Value::List(l));
            let r = (!r.is_empty()).then_some(Value::List(r));
            self.path.push(pe.clone());
            let mut in_leaf = false;
            self.leaf(l.as_ref(), r.as_ref(), &mut in_leaf);
            self.path.pop();
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

    /// Path elements of a list's items in order, and where each first appears. A repeated item
    /// (tolerated only on the live side) maps to `None`: it is never merged with the new value.
    fn index_items(
        &self,
        list: &ListType,
        items: &[Value],
        allow_duplicates: bool,
        errs: &mut ValidationErrors,
    ) -> (Vec<PathElement>, HashMap<String, Option<usize>>) {
        let mut pes = Vec::with_capacity(items.len());
        let mut index: HashMap<String, Option<usize>> = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let pe = match list_item_element(self.schema, list, item) {
                Ok(pe) => pe,
                Err(msg) => {
                    errs.0.push(ValidationError {
                        path: String::new(),
                        message: format!("element {i}: {msg}"),
                    });
                    continue;
                }
            };
            let k = crate::fieldpath::element_key(&pe);
            match index.get(&k) {
                Some(_) if !allow_duplicates => {
                    errs.0.push(ValidationError {
                        path: String::new(),
                        message: format!("duplicate entries for key {pe}"),
                    });
                    continue;
                }
                Some(_) => {
                    index.insert(k, None);
                }
                None => {
                    index.insert(k, Some(i));
                }
            }
            pes.push(pe);
        }
        (pes, index)
    }
}
