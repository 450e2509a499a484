//! Fields a write may not change through the endpoint it uses (the registry strategies'
//! `GetResetFields`): `status` through the main resource of kinds with a status subresource,
//! `spec` through the status subresource. Nobody owns them, and the stored value is kept.

use crate::fieldpath::{Path, PathElement, Set};
use crate::kube::ResolvedKind;
use crate::value::Value;

/// The fields reset for writes of `kind` through `subresource` ("" for the main resource).
///
/// Simplification: the API server's per-kind lists also name a few metadata fields for some
/// built-in status endpoints; only the top-level `status`/`spec` split is modelled here.
pub fn reset_fields(kind: &ResolvedKind, subresource: &str) -> Set {
    match subresource {
        "" if kind.has_status_subresource() => Set::from_paths([Path::fields(&["status"])]),
        "status" => Set::from_paths([Path::fields(&["spec"])]),
        _ => Set::new(),
    }
}

/// Puts back the stored value (or absence) of every field path in `reset` into `object`.
pub fn restore(object: &mut Value, live: &Value, reset: &Set) {
    for path in reset.paths() {
        let names: Option<Vec<&str>> = path.elements().iter().map(PathElement::as_field).collect();
        let Some(names) = names else { continue };
        let Some((last, parents)) = names.split_last() else {
            continue;
        };
        let stored = live.get_path(&names).cloned();
        let mut target = Some(&mut *object);
        for p in parents {
            target = target
                .and_then(Value::as_map_mut)
                .and_then(|m| m.get_mut(*p));
        }
        let Some(map) = target.and_then(Value::as_map_mut) else {
            continue;
        };
        match stored {
            Some(v) => {
                map.insert(last.to_string(), v);
            }
            None => {
                map.shift_remove(*last);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;
    use crate::value::from_json_str;

    #[test]
    fn main_resource_keeps_stored_status() {
        let kind = SchemaRegistry::new()
            .resolve("apps/v1", "Deployment")
            .unwrap();
        let reset = reset_fields(&kind, "");
        assert_eq!(reset, Set::from_paths([Path::fields(&["status"])]));
        let live = from_json_str(r#"{"spec":{"replicas":1},"status":{"replicas":1}}"#).unwrap();
        let mut new = from_json_str(r#"{"spec":{"replicas":2},"status":{"replicas":5}}"#).unwrap();
        restore(&mut new, &live, &reset);
        assert_eq!(
            new,
            from_json_str(r#"{"spec":{"replicas":2},"status":{"replicas":1}}"#).unwrap()
        );
        let cm = SchemaRegistry::new().resolve("v1", "ConfigMap").unwrap();
        assert!(reset_fields(&cm, "").is_empty());
    }
}
