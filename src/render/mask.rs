//! Secret masking for diffs, as kubectl diff's masker does, extended to `stringData` and the
//! copies inside the `last-applied-configuration` annotation.

use crate::value::{from_json_str, to_json_string, Map, Value};

const MASK: &str = "***";
const MASK_BEFORE: &str = "*** (before)";
const MASK_AFTER: &str = "*** (after)";
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Whether the value at `path` of `object` is secret material: a Secret's `data` or
/// `stringData`, or its last-applied annotation (which repeats them).
pub fn is_secret_path(object: &Value, path: &crate::fieldpath::Path) -> bool {
    use crate::fieldpath::PathElement::Field;
    if !is_secret(Some(object)) {
        return false;
    }
    match path.elements() {
        [Field(f), ..] if f == "data" || f == "stringData" => true,
        [Field(m), Field(a), Field(k), ..] => {
            m == "metadata" && a == "annotations" && k == LAST_APPLIED
        }
        _ => false,
    }
}

/// A masked stand-in for a secret value.
pub fn masked() -> Value {
    Value::String(MASK.to_string())
}

fn is_secret(v: Option<&Value>) -> bool {
    v.and_then(|v| v.get("kind")).and_then(Value::as_str) == Some("Secret")
}

/// Masks the values of a Secret's `data` and `stringData` in the two sides of a diff: equal
/// values become `***`, changed ones `*** (before)` and `*** (after)`. Other kinds are left alone.
pub fn mask_secrets(before: Option<&mut Value>, after: Option<&mut Value>) {
    if !is_secret(before.as_deref()) && !is_secret(after.as_deref()) {
        return;
    }
    let (mut before, mut after) = (before, after);
    mask_object(before.as_deref_mut(), after.as_deref_mut());
    let mut docs: [Option<Value>; 2] = [None, None];
    let mut raw: [Option<String>; 2] = [None, None];
    for (i, side) in [before.as_deref(), after.as_deref()]
        .into_iter()
        .enumerate()
    {
        if let Some(text) = side
            .and_then(|v| v.get_path(&["metadata", "annotations", LAST_APPLIED]))
            .and_then(Value::as_str)
        {
            raw[i] = Some(text.to_string());
            docs[i] = from_json_str(text).ok();
        }
    }
    if raw.iter().all(Option::is_none) {
        return;
    }
    let [d0, d1] = &mut docs;
    mask_object(d0.as_mut(), d1.as_mut());
    let masked: Vec<Option<String>> = (0..2)
        .map(|i| match (&docs[i], &raw[i]) {
            (Some(doc), _) => Some(to_json_string(doc)),
            // Not JSON: the whole annotation is treated as one secret value.
            (None, Some(r)) => Some(match &raw[1 - i] {
                Some(other) if other != r => {
                    (if i == 0 { MASK_BEFORE } else { MASK_AFTER }).to_string()
                }
                _ => MASK.to_string(),
            }),
            (None, None) => None,
        })
        .collect();
    for (side, text) in [before, after].into_iter().zip(masked) {
        if let (Some(v), Some(text)) = (side, text) {
            if let Some(Value::Map(a)) = v
                .as_map_mut()
                .and_then(|m| m.get_mut("metadata"))
                .and_then(|m| m.as_map_mut())
                .and_then(|m| m.get_mut("annotations"))
            {
                a.insert(LAST_APPLIED.into(), Value::String(text));
            }
        }
    }
}

fn mask_object(before: Option<&mut Value>, after: Option<&mut Value>) {
    let (mut before, mut after) = (before, after);
    for field in ["data", "stringData"] {
        let b = before
            .as_deref_mut()
            .and_then(|v| v.as_map_mut())
            .and_then(|m| m.get_mut(field))
            .and_then(Value::as_map_mut);
        let a = after
            .as_deref_mut()
            .and_then(|v| v.as_map_mut())
            .and_then(|m| m.get_mut(field))
            .and_then(Value::as_map_mut);
        mask_maps(b, a);
    }
}

fn mask_maps(from: Option<&mut Map>, to: Option<&mut Map>) {
    let mut empty_from = Map::default();
    let mut empty_to = Map::default();
    let from = from.unwrap_or(&mut empty_from);
    let to = to.unwrap_or(&mut empty_to);
    for (k, fv) in from.iter_mut() {
        match to.get_mut(k) {
            Some(tv) if tv != fv => {
                *fv = Value::from(MASK_BEFORE);
                *tv = Value::from(MASK_AFTER);
            }
            Some(tv) => {
                *fv = Value::from(MASK);
                *tv = Value::from(MASK);
            }
            None => *fv = Value::from(MASK),
        }
    }
    for (k, tv) in to.iter_mut() {
        if !from.contains_key(k) {
            *tv = Value::from(MASK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        from_json_str(s).unwrap()
    }

    #[test]
    fn equal_changed_and_new_values() {
        let mut a = v(r#"{"kind":"Secret","data":{"same":"YQ==","changed":"Yg==","gone":"Yw=="}}"#);
        let mut b = v(
            r#"{"kind":"Secret","data":{"same":"YQ==","changed":"Zg==","new":"ZA=="},"stringData":{"s":"x"}}"#,
        );
        mask_secrets(Some(&mut a), Some(&mut b));
        assert_eq!(
            a,
            v(r#"{"kind":"Secret","data":{"same":"***","changed":"*** (before)","gone":"***"}}"#)
        );
        assert_eq!(
            b,
            v(
                r#"{"kind":"Secret","data":{"same":"***","changed":"*** (after)","new":"***"},"stringData":{"s":"***"}}"#
            )
        );
    }

    #[test]
    fn last_applied_copies_are_masked() {
        let ann = r#"{\"kind\":\"Secret\",\"data\":{\"k\":\"YQ==\"}}"#;
        let mut a = v(&format!(
            r#"{{"kind":"Secret","metadata":{{"annotations":{{"{LAST_APPLIED}":"{ann}"}}}},"data":{{"k":"YQ=="}}}}"#
        ));
        mask_secrets(Some(&mut a), None);
        let text = a
            .get_path(&["metadata", "annotations", LAST_APPLIED])
            .unwrap()
            .as_str()
            .unwrap();
        assert_eq!(text, r#"{"kind":"Secret","data":{"k":"***"}}"#);
        assert_eq!(a.get_path(&["data", "k"]).unwrap().as_str(), Some("***"));
    }

    #[test]
    fn other_kinds_are_untouched() {
        let mut a = v(r#"{"kind":"ConfigMap","data":{"k":"v"}}"#);
        mask_secrets(Some(&mut a), None);
        assert_eq!(a.get_path(&["data", "k"]).unwrap().as_str(), Some("v"));
    }
}
