//! The three-way JSON merge patch `kubectl apply` sends for kinds without patch metadata
//! (custom resources): apimachinery `jsonmergepatch.CreateThreeWayJSONMergePatch`
//! (pkg/util/jsonmergepatch/patch.go) over evanphx/json-patch v4 `CreateMergePatch` (merge.go,
//! `getDiff`). Lists are replaced whole and `null` deletes.

use super::merge_patch;
use crate::value::gofmt::go_map;
use crate::value::{from_json_str, to_json_string, Map, Value};

/// A check on the finished patch (`mergepatch.PreconditionFunc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precondition {
    /// The patch must not set this top-level key (`RequireKeyUnchanged`).
    KeyUnchanged(&'static str),
    /// The patch must not set this key of `metadata` (`RequireMetadataKeyUnchanged`).
    MetadataKeyUnchanged(&'static str),
}

impl Precondition {
    fn holds(self, patch: &Map) -> bool {
        match self {
            Precondition::KeyUnchanged(key) => !patch.contains_key(key),
            Precondition::MetadataKeyUnchanged(key) => match patch.get("metadata") {
                Some(Value::Map(meta)) => !meta.contains_key(key),
                _ => true,
            },
        }
    }
}

/// Why no three-way JSON merge patch could be made; texts are the libraries'.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JsonMergeError {
    #[error("Invalid JSON Document")]
    InvalidDocument,
    #[error("Mismatched JSON Documents")]
    MismatchedDocuments,
    /// The additions set something the deletions delete; both sides as YAML.
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{changed}\n")]
    Conflict { patch: String, changed: String },
    /// A precondition does not hold for the patch.
    #[error("precondition failed for: {}", go_map(.0))]
    PreconditionFailed(Map),
}

/// The patch that adds and changes what `modified` has over `current` and deletes what
/// `original` had and `modified` dropped. Empty texts count as `{}`.
pub fn three_way_json_merge_patch(
    original: &str,
    modified: &str,
    current: &str,
    preconditions: &[Precondition],
) -> Result<Value, JsonMergeError> {
    let or_empty = |t: &'static str, s: &str| {
        if s.is_empty() {
            t.to_string()
        } else {
            s.to_string()
        }
    };
    let (original, modified, current) = (
        or_empty("{}", original),
        or_empty("{}", modified),
        or_empty("{}", current),
    );
    let additions = keep_or_drop_nulls(&create_merge_patch(&current, &modified)?, false);
    let deletions = keep_or_drop_nulls(&create_merge_patch(&original, &modified)?, true);
    if conflicts(
        &Value::Map(additions.clone()),
        &Value::Map(deletions.clone()),
    ) {
        let yaml = |m: &Map| crate::yaml::to_yaml_string(&Value::Map(m.clone()).with_sorted_keys());
        return Err(JsonMergeError::Conflict {
            patch: yaml(&additions),
            changed: yaml(&deletions),
        });
    }
    let patch = merge_patch(&Value::Map(deletions), &Value::Map(additions))
        .map_err(|_| JsonMergeError::InvalidDocument)?;
    let patch = go_round_trip(&patch);
    let Value::Map(patch) = patch else {
        return Err(JsonMergeError::InvalidDocument);
    };
    if preconditions.iter().any(|p| !p.holds(&patch)) {
        return Err(JsonMergeError::PreconditionFailed(patch));
    }
    Ok(Value::Map(patch))
}

/// What a value becomes when the library encodes it and apimachinery decodes it again:
/// whole numbers become integers.
fn go_round_trip(v: &Value) -> Value {
    from_json_str(&to_json_string(v)).unwrap_or(Value::Null)
}

fn resembles_array(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

/// evanphx `CreateMergePatch` for two objects: a patch that turns `original` into `modified`.
fn create_merge_patch(original: &str, modified: &str) -> Result<Value, JsonMergeError> {
    match (resembles_array(original), resembles_array(modified)) {
        (false, false) => {}
        (true, true) => return Err(JsonMergeError::InvalidDocument),
        _ => return Err(JsonMergeError::MismatchedDocuments),
    }
    let parse = |t: &str| match from_json_str(t) {
        Ok(Value::Map(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::default()),
        _ => Err(JsonMergeError::InvalidDocument),
    };
    let diff = get_diff(&parse(original)?, &parse(modified)?);
    Ok(go_round_trip(&Value::Map(diff)))
}

/// The JSON kind as Go's `encoding/json` decodes it: every number is a float64.
fn json_kind(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Int(_) | Value::Float(_) => 2,
        Value::String(_) => 3,
        Value::List(_) => 4,
        Value::Map(_) => 5,
    }
}

fn number(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// `matchesValue`: deep equality with numbers compared as float64.
fn matches(a: &Value, b: &Value) -> bool {
    if json_kind(a) != json_kind(b) {
        return false;
    }
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && y.iter()
                    .all(|(k, bv)| x.get(k).is_some_and(|av| matches(av, bv)))
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| matches(a, b))
        }
        (Value::Int(_) | Value::Float(_), _) => number(a) == number(b),
        _ => a == b,
    }
}

/// `getDiff`: what changes from `a` to `b`, deletions as `null`.
fn get_diff(a: &Map, b: &Map) -> Map {
    let mut into = Map::default();
    for (key, bv) in b {
        let Some(av) = a.get(key) else {
            into.insert(key.clone(), bv.clone());
            continue;
        };
        if json_kind(av) != json_kind(bv) {
            into.insert(key.clone(), bv.clone());
            continue;
        }
        match (av, bv) {
            (Value::Map(am), Value::Map(bm)) => {
                let sub = get_diff(am, bm);
                if !sub.is_empty() {
                    into.insert(key.clone(), Value::Map(sub));
                }
            }
            (Value::Null, Value::Null) => {}
            _ if !matches(av, bv) => {
                into.insert(key.clone(), bv.clone());
            }
            _ => {}
        }
    }
    for key in a.keys() {
        if !b.contains_key(key) {
            into.insert(key.clone(), Value::Null);
        }
    }
    into
}

/// `keepOrDeleteNullInObj`: only the `null`s (deletions) or everything but them (changes).
/// An explicitly empty object is a value, kept with the changes.
fn keep_or_drop_nulls(patch: &Value, keep_null: bool) -> Map {
    let mut out = Map::default();
    let Value::Map(m) = patch else {
        return out;
    };
    for (key, v) in m {
        match v {
            Value::Null if keep_null => {
                out.insert(key.clone(), Value::Null);
            }
            Value::Null => {}
            Value::Map(sub) if sub.is_empty() && !keep_null => {
                out.insert(key.clone(), v.clone());
            }
            Value::Map(sub) if sub.is_empty() => {}
            Value::Map(_) => {
                let sub = keep_or_drop_nulls(v, keep_null);
                if !sub.is_empty() {
                    out.insert(key.clone(), Value::Map(sub));
                }
            }
            _ if !keep_null => {
                out.insert(key.clone(), v.clone());
            }
            _ => {}
        }
    }
    out
}

/// `mergepatch.HasConflicts`: whether two patches overlap with different values.
fn conflicts(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Map(l), Value::Map(r)) => l
            .iter()
            .any(|(k, lv)| r.get(k).is_some_and(|rv| conflicts(lv, rv))),
        (Value::Map(_), _) | (Value::List(_), _) if json_kind(left) != json_kind(right) => true,
        (Value::List(l), Value::List(r)) => {
            l.len() != r.len() || l.iter().zip(r).any(|(a, b)| conflicts(a, b))
        }
        _ => !super::strategic::go_deep_eq(left, right),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUBECTL: &[Precondition] = &[
        Precondition::KeyUnchanged("apiVersion"),
        Precondition::KeyUnchanged("kind"),
        Precondition::MetadataKeyUnchanged("name"),
    ];

    fn patch(o: &str, m: &str, c: &str) -> Result<String, String> {
        three_way_json_merge_patch(o, m, c, KUBECTL)
            .map(|v| to_json_string(&v.with_sorted_keys()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn lists_are_replaced_and_dropped_fields_deleted() {
        assert_eq!(
            patch(
                r#"{"kind":"A","spec":{"l":[1,2],"x":1}}"#,
                r#"{"kind":"A","spec":{"l":[2]}}"#,
                r#"{"kind":"A","spec":{"l":[1,2],"x":1,"y":3}}"#
            )
            .unwrap(),
            r#"{"spec":{"l":[2],"x":null}}"#
        );
    }

    #[test]
    fn numbers_compare_by_value_and_renames_fail() {
        assert_eq!(
            patch(r#"{"a":1}"#, r#"{"a":1.0}"#, r#"{"a":1}"#).unwrap(),
            "{}"
        );
        assert_eq!(
            patch(r#"{"kind":"A"}"#, r#"{"kind":"B"}"#, r#"{"kind":"A"}"#).unwrap_err(),
            "precondition failed for: map[kind:B]"
        );
        assert_eq!(patch("{", "{}", "{}").unwrap_err(), "Invalid JSON Document");
    }
}
