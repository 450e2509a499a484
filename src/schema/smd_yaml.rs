//! Reads structured-merge-diff's own YAML schema language (`types:` with `scalar`, `list`,
//! `map`, `namedType`, `elementType`, `elementRelationship`, `keys`, `fields`, `unions`).

use super::*;
use crate::value::Value;

/// Parses schema YAML text.
pub fn parse_smd_schema(text: &str) -> Result<Schema, SchemaError> {
    let value: Value =
        serde_yaml::from_str(text).map_err(|e| SchemaError::Invalid(e.to_string()))?;
    parse_smd_schema_value(&value)
}

/// Builds a schema from the parsed YAML document.
pub fn parse_smd_schema_value(doc: &Value) -> Result<Schema, SchemaError> {
    let types = match doc.get("types") {
        Some(Value::List(items)) => items,
        Some(Value::Null) | None => return Ok(Schema::new(Vec::new())),
        Some(_) => return Err(invalid("types must be a list")),
    };
    let defs = types
        .iter()
        .map(|t| {
            let name = t
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid("type without a name"))?;
            Ok(TypeDef {
                name: name.to_string(),
                atom: parse_atom(t, name)?,
            })
        })
        .collect::<Result<Vec<_>, SchemaError>>()?;
    Ok(Schema::new(defs))
}

fn invalid(msg: impl Into<String>) -> SchemaError {
    SchemaError::Invalid(msg.into())
}

fn parse_relationship(
    v: Option<&Value>,
    at: &str,
) -> Result<Option<ElementRelationship>, SchemaError> {
    match v.and_then(Value::as_str) {
        None => Ok(None),
        Some("atomic") => Ok(Some(ElementRelationship::Atomic)),
        Some("associative") => Ok(Some(ElementRelationship::Associative)),
        Some("separable") => Ok(Some(ElementRelationship::Separable)),
        Some(other) => Err(invalid(format!(
            "{at}: unknown elementRelationship {other:?}"
        ))),
    }
}

fn parse_type_ref(v: &Value, at: &str) -> Result<TypeRef, SchemaError> {
    let named = v
        .get("namedType")
        .and_then(Value::as_str)
        .map(str::to_string);
    let inlined = if named.is_some() {
        Atom::default()
    } else {
        parse_atom(v, at)?
    };
    Ok(TypeRef {
        named,
        named_id: None,
        inlined,
        element_relationship: parse_relationship(v.get("elementRelationship"), at)?,
    })
}

fn parse_atom(v: &Value, at: &str) -> Result<Atom, SchemaError> {
    let scalar = match v.get("scalar").and_then(Value::as_str) {
        None => None,
        Some("numeric") => Some(Scalar::Numeric),
        Some("string") => Some(Scalar::String),
        Some("boolean") => Some(Scalar::Boolean),
        Some("untyped") => Some(Scalar::Untyped),
        Some(other) => return Err(invalid(format!("{at}: unknown scalar {other:?}"))),
    };
    let list = match v.get("list") {
        Some(l @ Value::Map(_)) => Some(Box::new(parse_list(l, at)?)),
        _ => None,
    };
    let map = match v.get("map") {
        Some(m @ Value::Map(_)) => Some(Box::new(parse_map(m, at)?)),
        _ => None,
    };
    // `untyped: {}` is the reference's spelling of "any value, deduced".
    if v.get("untyped").is_some() && scalar.is_none() && list.is_none() && map.is_none() {
        let deduced = untyped_types().pop().map(|t| t.atom).unwrap_or_default();
        return Ok(deduced);
    }
    Ok(Atom { scalar, list, map })
}

fn parse_list(v: &Value, at: &str) -> Result<ListType, SchemaError> {
    let element_type = match v.get("elementType") {
        Some(e) => parse_type_ref(e, at)?,
        None => TypeRef::default(),
    };
    let keys = match v.get("keys") {
        Some(Value::List(keys)) => keys
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    Ok(ListType {
        element_type,
        element_relationship: parse_relationship(v.get("elementRelationship"), at)?
            .unwrap_or(ElementRelationship::Atomic),
        keys,
    })
}

fn parse_map(v: &Value, at: &str) -> Result<MapType, SchemaError> {
    let mut fields = Vec::new();
    if let Some(Value::List(items)) = v.get("fields") {
        for f in items {
            let name = f
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("{at}: field without a name")))?;
            let type_ref = match f.get("type") {
                Some(t) => parse_type_ref(t, name)?,
                None => TypeRef::default(),
            };
            fields.push(StructField {
                name: name.to_string(),
                type_ref,
                default: f.get("default").cloned(),
                patch: None,
            });
        }
    }
    let mut unions = Vec::new();
    if let Some(Value::List(items)) = v.get("unions") {
        for u in items {
            let fields = match u.get("fields") {
                Some(Value::List(fs)) => fs
                    .iter()
                    .map(|f| UnionField {
                        field_name: f
                            .get("fieldName")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        discriminator_value: f
                            .get("discriminatorValue")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            unions.push(Union {
                discriminator: u
                    .get("discriminator")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                deduce_invalid_discriminator: u
                    .get("deduceInvalidDiscriminator")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                fields,
            });
        }
    }
    let element_type = match v.get("elementType") {
        Some(e) => parse_type_ref(e, at)?,
        None => TypeRef::default(),
    };
    Ok(MapType::new(
        fields,
        unions,
        element_type,
        parse_relationship(v.get("elementRelationship"), at)?
            .unwrap_or(ElementRelationship::Separable),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_and_inline_types() {
        let s = parse_smd_schema(
            "types:\n- name: root\n  map:\n    fields:\n    - name: list\n      type:\n        list:\n          elementType:\n            namedType: item\n          elementRelationship: associative\n          keys: [name]\n- name: item\n  map:\n    fields:\n    - name: name\n      type:\n        scalar: string\n      default: x\n",
        )
        .unwrap();
        let root = s.type_ref("root").unwrap();
        let r = s.resolve(&root).unwrap();
        let list_ref = r.map.unwrap().type_of("list");
        let list = s.resolve(list_ref).unwrap();
        assert_eq!(
            list.list_relationship(),
            Some(ElementRelationship::Associative)
        );
        assert_eq!(list.list.unwrap().keys, vec!["name".to_string()]);
        let item = s.resolve(&list.list.unwrap().element_type).unwrap();
        assert_eq!(
            item.map.unwrap().field("name").unwrap().default,
            Some(Value::from("x"))
        );
    }
}
