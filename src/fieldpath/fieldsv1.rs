//! FieldsV1: the JSON form of a field set stored in `metadata.managedFields`, byte-identical to
//! the API server's (`f:`/`k:`/`v:`/`i:` keys in set order, `.` for a member with children).

use super::element::{KeyFields, PathElement};
use super::set::Set;
use crate::value::{from_json_str, write_json, Map, Value};
use std::cmp::Ordering;

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum FieldsV1Error {
    #[error("parsing FieldsV1: {0}")]
    Json(String),
    #[error("FieldsV1 must be a JSON object, got {0}")]
    NotAnObject(&'static str),
    #[error("unknown FieldsV1 path element {0:?}")]
    UnknownElement(String),
    #[error("invalid FieldsV1 path element {key:?}: {reason}")]
    InvalidElement { key: String, reason: String },
}

/// The key string of one path element.
pub fn element_key(pe: &PathElement) -> String {
    let mut out = String::with_capacity(16);
    match pe {
        PathElement::Field(name) => {
            out.reserve_exact(2 + name.len());
            out.push_str("f:");
            out.push_str(name);
        }
        PathElement::Key(fields) => {
            out.push_str("k:");
            let map: Map = fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            write_json(&mut out, &Value::Map(map));
        }
        PathElement::Value(v) => {
            out.push_str("v:");
            write_json(&mut out, v);
        }
        PathElement::Index(i) => {
            out.push_str("i:");
            out.push_str(&i.to_string());
        }
    }
    out
}

/// Parses one path element key. A key of two or more bytes whose second is `:` but whose
/// qualifier is not `f`, `v`, `i` or `k` is [`FieldsV1Error::UnknownElement`]; shorter keys and
/// keys without the colon are invalid (structured-merge-diff `DeserializePathElement`).
pub fn parse_element_key(key: &str) -> Result<PathElement, FieldsV1Error> {
    let invalid = |reason: String| FieldsV1Error::InvalidElement {
        key: key.to_string(),
        reason,
    };
    let b = key.as_bytes();
    if b.len() < 2 {
        return Err(invalid("key must be 2 characters long".into()));
    }
    if b[1] != b':' {
        return Err(invalid("missing colon".into()));
    }
    // The first two bytes are ASCII up to the colon, or the qualifier is unknown anyway.
    let (prefix, rest) = match (key.get(..2), key.get(2..)) {
        (Some(p), Some(r)) => (p, r),
        _ => return Err(FieldsV1Error::UnknownElement(key.to_string())),
    };
    match prefix {
        "f:" => Ok(PathElement::Field(rest.to_string())),
        "v:" => from_json_str(rest)
            .map(PathElement::Value)
            .map_err(|e| invalid(e.to_string())),
        "i:" => rest
            .parse::<usize>()
            .map(PathElement::Index)
            .map_err(|e| invalid(e.to_string())),
        "k:" => match from_json_str(rest).map_err(|e| invalid(e.to_string()))? {
            Value::Map(m) => {
                let fields: KeyFields = m.into_iter().collect();
                Ok(PathElement::key(fields))
            }
            other => Err(invalid(format!(
                "key must be an object, got {}",
                other.kind_name()
            ))),
        },
        _ => Err(FieldsV1Error::UnknownElement(key.to_string())),
    }
}

/// Encodes a set as FieldsV1 JSON text.
pub fn to_fields_v1_string(set: &Set) -> String {
    crate::value::to_json_string(&to_fields_v1(set))
}

/// Encodes a set as a FieldsV1 value (a JSON object): members and children merged in set order,
/// a member that also has children marked by its `.` entry.
pub fn to_fields_v1(set: &Set) -> Value {
    Value::Map(node_value(set, false))
}

fn node_value(set: &Set, include_self: bool) -> Map {
    let members = set.members();
    let children: Vec<(&PathElement, &Set)> = set.children().collect();
    let mut out = Map::with_capacity(members.len() + children.len() + usize::from(include_self));
    let leaf = || Value::Map(Map::default());
    if include_self {
        out.insert(".".into(), leaf());
    }
    let (mut mi, mut ci) = (0, 0);
    while mi < members.len() || ci < children.len() {
        let order = match (members.get(mi), children.get(ci)) {
            (Some(m), Some((c, _))) => m.cmp(c),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                out.insert(element_key(&members[mi]), leaf());
                mi += 1;
            }
            Ordering::Greater | Ordering::Equal => {
                let (pe, child) = children[ci];
                let member = order == Ordering::Equal;
                out.insert(element_key(pe), Value::Map(node_value(child, member)));
                mi += usize::from(member);
                ci += 1;
            }
        }
    }
    out
}

/// Decodes FieldsV1 JSON text.
pub fn from_fields_v1_str(text: &str) -> Result<Set, FieldsV1Error> {
    let v = from_json_str(text).map_err(|e| FieldsV1Error::Json(e.to_string()))?;
    from_fields_v1(&v)
}

/// Decodes a FieldsV1 value.
pub fn from_fields_v1(v: &Value) -> Result<Set, FieldsV1Error> {
    match v {
        Value::Map(m) => read_node(m),
        Value::Null => Ok(Set::new()),
        other => Err(FieldsV1Error::NotAnObject(other.kind_name())),
    }
}

fn read_node(m: &Map) -> Result<Set, FieldsV1Error> {
    let mut members = Vec::new();
    let mut children = Vec::new();
    for (key, v) in m {
        if key == "." {
            continue;
        }
        // Unknown qualifiers are ignored with everything below them, so that entries written
        // by a newer server still decode (SMD `readIterV1`; the Apply KEP: "path element
        // conversion will ignore unknown qualifiers").
        let pe = match parse_element_key(key) {
            Err(FieldsV1Error::UnknownElement(_)) => continue,
            other => other?,
        };
        match v {
            Value::Map(child) => {
                // A member when it says so (`.`) or when nothing below it is left.
                let sub = read_node(child)?;
                if sub.is_empty() || child.contains_key(".") {
                    members.push(pe.clone());
                }
                if !sub.is_empty() {
                    children.push((pe, sub));
                }
            }
            Value::Null => members.push(pe),
            other => return Err(FieldsV1Error::NotAnObject(other.kind_name())),
        }
    }
    Ok(Set::from_parts(members, children))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fieldpath::Path;

    #[test]
    fn encodes_in_reference_order() {
        let text = r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}},"f:finalizers":{"v:\"a\"":{}},"f:list":{"i:0":{}}}}"#;
        let set = from_fields_v1_str(text).unwrap();
        assert!(set.has(&Path::fields(&["metadata", "labels"])));
        assert_eq!(to_fields_v1_string(&set), text);
    }

    #[test]
    fn ignores_unknown_qualifiers_and_rejects_malformed_keys() {
        let set = from_fields_v1_str(r#"{"x:a":{"f:b":{}},"f:c":{"z:{}":{}}}"#).unwrap();
        assert_eq!(to_fields_v1_string(&set), r#"{"f:c":{}}"#);
        assert!(matches!(
            parse_element_key("x:a"),
            Err(FieldsV1Error::UnknownElement(_))
        ));
        assert!(from_fields_v1_str(r#"{"f":{}}"#).is_err());
        assert!(from_fields_v1_str(r#"{"fa":{}}"#).is_err());
        assert!(from_fields_v1_str(r#"{"é:":{}}"#).is_err());
    }

    #[test]
    fn rejects_a_multi_byte_character_where_the_prefix_ends() {
        for text in [r#"{"fƟ":{}}"#, r#"{"Ɵ":{}}"#, r#"{"f":{}}"#, r#"{"":{}}"#] {
            assert!(
                matches!(
                    from_fields_v1_str(text),
                    Err(FieldsV1Error::InvalidElement { .. })
                ),
                "{text}"
            );
        }
    }
}

#[cfg(test)]
pub(crate) mod properties_support {
    use super::*;
    use crate::fieldpath::{Path, PathElement};
    use proptest::prelude::*;

    pub(crate) fn element() -> impl Strategy<Value = PathElement> {
        let scalar = prop_oneof![
            any::<i64>().prop_map(Value::Int),
            "[a-z<&\"]{0,6}".prop_map(Value::String),
            any::<bool>().prop_map(Value::Bool),
        ];
        prop_oneof![
            "[a-zA-Z.:\"]{1,8}".prop_map(PathElement::Field),
            proptest::collection::btree_map("[a-z]{1,4}", scalar.clone(), 1..3)
                .prop_map(|m| PathElement::key(m.into_iter().collect())),
            scalar.prop_map(PathElement::Value),
            (0usize..50).prop_map(PathElement::Index),
        ]
    }

    pub(crate) fn set() -> impl Strategy<Value = Set> {
        proptest::collection::vec(proptest::collection::vec(element(), 1..5), 0..12)
            .prop_map(|paths| Set::from_paths(paths.into_iter().map(Path::from)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        #[test]
        fn fields_v1_round_trips(s in set()) {
            let text = to_fields_v1_string(&s);
            let back = from_fields_v1_str(&text).unwrap();
            prop_assert_eq!(&back, &s);
            prop_assert_eq!(to_fields_v1_string(&back), text.clone());
        }

    }
}
