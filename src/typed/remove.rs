//! Removing the items of a field set from a value (pruning), or keeping only them (extraction).
//! A container emptied by removal becomes null, as in the reference.

use super::*;
use crate::fieldpath::Set;
use crate::value::Map;

pub(crate) fn remove_items(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
    set: &Set,
    extract: bool,
) -> Value {
    walk(schema, tr, value, set, extract).unwrap_or(Value::Null)
}

fn walk(schema: &Schema, tr: &TypeRef, value: &Value, set: &Set, extract: bool) -> Option<Value> {
    let r = schema.resolve(tr)?;
    match handler_for(deduce_shape(&r, Some(value)), tr).ok()? {
        Handler::Scalar => Some(value.clone()),
        Handler::List => {
            let Value::List(items) = value else {
                return None;
            };
            if items.is_empty() || is_atomic(r.list_relationship()) {
                return extract.then(|| value.clone());
            }
            let list = r.list?;
            let mut out = Vec::new();
            for item in items {
                let Ok(pe) = list_item_element(schema, list, item) else {
                    continue;
                };
                let exact = set.has_member(&pe);
                let below = set.child(&pe).filter(|s| !s.is_empty());
                if extract {
                    let item = match below {
                        Some(sub) => {
                            walk(schema, &list.element_type, item, sub, true).unwrap_or(Value::Null)
                        }
                        None => item.clone(),
                    };
                    if exact || below.is_some() {
                        out.push(item);
                    }
                } else if !exact {
                    match below {
                        Some(sub) => out.push(
                            walk(schema, &list.element_type, item, sub, false)
                                .unwrap_or(Value::Null),
                        ),
                        None => out.push(item.clone()),
                    }
                }
            }
            (!out.is_empty()).then_some(Value::List(out.into()))
        }
        Handler::Map => {
            let Value::Map(m) = value else { return None };
            if m.is_empty() || is_atomic(r.map_relationship()) {
                return extract.then(|| value.clone());
            }
            let map = r.map?;
            let mut out = Map::default();
            for (k, v) in m {
                let pe = PathElement::Field(k.clone());
                let tr = map.type_of(k);
                if set.has_member(&pe) {
                    if extract {
                        out.insert(
                            k.clone(),
                            walk(schema, tr, v, set, true).unwrap_or(Value::Null),
                        );
                    }
                    continue;
                }
                match set.child(&pe).filter(|s| !s.is_empty()) {
                    Some(sub) => {
                        out.insert(
                            k.clone(),
                            walk(schema, tr, v, sub, extract).unwrap_or(Value::Null),
                        );
                    }
                    None if extract => {}
                    None => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            (!out.is_empty()).then_some(Value::Map(out))
        }
    }
}
