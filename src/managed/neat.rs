//! `strip-managed --neat`: drops the values only the API server's defaulting put there and no
//! Apply manager owns, which is what kubectl-neat guesses at without ownership information. A
//! value is a default when removing it and running the defaulters (`crate::defaults`) brings
//! the same value back.

use super::{decode_managed_fields, Operation};
use crate::defaults::{store, Stage};
use crate::fieldpath::Set;
use crate::kube::ResolvedKind;
use crate::render::value_at;
use crate::typed::Typed;
use crate::value::Value;

/// The fields some Apply manager of `object` owns; read before managedFields are stripped.
pub fn applied_fields(object: &Value) -> Set {
    decode_managed_fields(object)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.operation == Operation::Apply)
        .fold(Set::new(), |acc, e| acc.union(&e.fields))
}

/// Removes from `object` (already stripped of managedFields and server fields) every leaf that
/// is not in `applied` and that defaulting would put back as it is. Returns the removed paths.
pub fn drop_defaults(object: &mut Value, kind: &ResolvedKind, applied: &Set) -> Vec<String> {
    let typed = Typed::new(&kind.schema, &kind.type_ref);
    let mut removed = Vec::new();
    // A container emptied by one pass is a leaf candidate in the next.
    for _ in 0..3 {
        let Ok(fields) = typed.to_field_set(object) else {
            break;
        };
        let before = removed.len();
        let mut leaves = fields.leaves().sorted_paths();
        leaves.reverse();
        for path in leaves {
            if applied.covers(path.elements()) || path.elements().len() < 2 {
                continue;
            }
            let single = Set::from_paths([path.clone()]);
            let candidate = typed.remove_items(object, &single);
            let mut defaulted = candidate.clone();
            store(&mut defaulted, kind, Stage::Defaulted);
            let original = value_at(object, &path);
            if original.is_some() && value_at(&defaulted, &path) == original {
                *object = candidate;
                removed.push(path.to_string());
            }
        }
        if removed.len() == before {
            break;
        }
    }
    removed.sort();
    removed
}
