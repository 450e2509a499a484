//! A custom resource's structural schema at write time, as the API server applies it: fields the
//! schema does not declare are pruned (unless `x-kubernetes-preserve-unknown-fields`), then the
//! schema's `default`s fill in missing fields, recursively.

use crate::schema::{MapType, Schema, TypeRef};
use crate::value::Value;

const ROOT_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// Drops the fields the schema does not know. `root`: keep `apiVersion`, `kind`, `metadata`.
pub(crate) fn prune(schema: &Schema, tr: &TypeRef, v: &mut Value, root: bool) {
    let Some(resolved) = schema.resolve(tr) else {
        return;
    };
    match v {
        Value::Map(m) => {
            let Some(mt) = resolved.map else { return };
            let open = !pruning(mt);
            m.retain(|name, child| {
                if root && name == "metadata" {
                    return true;
                }
                match mt.field(name) {
                    Some(f) => {
                        prune(schema, &f.type_ref, child, false);
                        true
                    }
                    None if open => {
                        prune(schema, &mt.element_type, child, false);
                        true
                    }
                    None => root && ROOT_FIELDS.contains(&name.as_str()),
                }
            });
        }
        Value::List(items) => {
            if let Some(lt) = resolved.list {
                for item in items {
                    prune(schema, &lt.element_type, item, false);
                }
            }
        }
        _ => {}
    }
}

/// Whether a map type drops undeclared fields: a struct with no element type.
fn pruning(mt: &MapType) -> bool {
    let e = &mt.element_type;
    !mt.fields.is_empty()
        && e.named.is_none()
        && e.inlined.scalar.is_none()
        && e.inlined.list.is_none()
        && e.inlined.map.is_none()
}

/// Fills in missing (or null) fields that declare a `default`, then descends.
pub(crate) fn default(schema: &Schema, tr: &TypeRef, v: &mut Value) {
    let Some(resolved) = schema.resolve(tr) else {
        return;
    };
    match v {
        Value::Map(m) => {
            let Some(mt) = resolved.map else { return };
            for f in &mt.fields {
                if let Some(d) = &f.default {
                    if m.get(&f.name).is_none_or(Value::is_null) {
                        m.insert(f.name.clone(), d.clone());
                    }
                }
            }
            for (name, child) in m.iter_mut() {
                if name == "metadata" {
                    continue;
                }
                default(schema, mt.type_of(name), child);
            }
        }
        Value::List(items) => {
            if let Some(lt) = resolved.list {
                for item in items {
                    default(schema, &lt.element_type, item);
                }
            }
        }
        _ => {}
    }
}
