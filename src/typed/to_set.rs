//! The set of fields a value sets. Leaves, atomic containers, null and empty maps, map entries
//! that are not struct fields, and list items are members; repeated list items are owned as a
//! whole.

use super::*;
use crate::fieldpath::Set;

pub(crate) fn to_field_set(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
) -> Result<Set, ValidationErrors> {
    let mut errs = ValidationErrors::default();
    let (_, set) = node(schema, tr, value, &mut errs);
    errs.into_result().map(|_| set)
}

/// Returns whether the node itself is a member, and the set below it.
fn node(schema: &Schema, tr: &TypeRef, value: &Value, errs: &mut ValidationErrors) -> (bool, Set) {
    let r = match resolve(schema, tr) {
        Ok(r) => r,
        Err(e) => {
            errs.extend(e);
            return (false, Set::new());
        }
    };
    match handler_for(deduce_shape(&r, Some(value)), tr) {
        Err(e) => {
            errs.extend(e);
            (false, Set::new())
        }
        Ok(Handler::Scalar) => (true, Set::new()),
        Ok(Handler::List) => {
            if is_atomic(r.list_relationship()) {
                return (true, Set::new());
            }
            match value {
                Value::List(items) => (
                    false,
                    list_items(schema, r.list.expect("list shape"), items, errs),
                ),
                _ => (false, Set::new()),
            }
        }
        Ok(Handler::Map) => {
            if is_atomic(r.map_relationship()) {
                return (true, Set::new());
            }
            let map = r.map.expect("map shape");
            match value {
                Value::Map(m) => {
                    let mut members = Vec::new();
                    let mut children = Vec::new();
                    for (key, v) in m {
                        let field = map.field(key);
                        let tr = field.map(|f| &f.type_ref).unwrap_or(&map.element_type);
                        let (is_member, below) = node(schema, tr, v, errs);
                        let pe = PathElement::Field(key.clone());
                        let empty_map = matches!(v, Value::Map(x) if x.is_empty());
                        if is_member || v.is_null() || empty_map || field.is_none() {
                            members.push(pe.clone());
                        }
                        if !below.is_empty() {
                            children.push((pe, below));
                        }
                    }
                    (false, Set::from_parts(members, children))
                }
                _ => (false, Set::new()),
            }
        }
    }
}

fn list_items(
    schema: &Schema,
    list: &ListType,
    items: &[Value],
    errs: &mut ValidationErrors,
) -> Set {
    let elements: Vec<Option<PathElement>> = items
        .iter()
        .map(|item| list_item_element(schema, list, item).ok())
        .collect();
    let mut sorted: Vec<&PathElement> = elements.iter().flatten().collect();
    sorted.sort();
    let duplicated = |pe: &PathElement| {
        sorted.binary_search(&pe).is_ok_and(|i| {
            (i > 0 && sorted[i - 1] == pe) || sorted.get(i + 1).is_some_and(|n| *n == pe)
        })
    };
    let mut members = Vec::with_capacity(items.len());
    let mut children = Vec::new();
    for (item, pe) in items.iter().zip(&elements) {
        let Some(pe) = pe.clone() else { continue };
        if duplicated(&pe) {
            members.push(pe);
            continue;
        }
        let (_, below) = node(schema, &list.element_type, item, errs);
        if !below.is_empty() {
            children.push((pe.clone(), below));
        }
        members.push(pe);
    }
    Set::from_parts(members, children)
}
