//! Validation: every value has a shape its type allows, scalars have the right kind, keyed
//! list items carry their keys, and (unless tolerated) no list key repeats.

use super::*;
use crate::schema::{MapType, Scalar};
use rustc_hash::FxHashSet;

/// structured-merge-diff's message for a field the schema does not have.
pub const FIELD_NOT_DECLARED: &str = "field not declared in schema";

pub(crate) fn validate(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
    allow_duplicates: bool,
) -> ValidationErrors {
    let r = match resolve(schema, tr) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let shape = deduce_shape(&r, Some(value));
    match handler_for(shape, tr) {
        Err(e) => e,
        Ok(Handler::Scalar) => validate_scalar(r.scalar.unwrap_or(Scalar::Untyped), value, ""),
        Ok(Handler::List) => match value {
            Value::Null => ValidationErrors::default(),
            Value::List(items) => validate_list(
                schema,
                r.list.expect("list shape"),
                r.list_relationship(),
                items,
                allow_duplicates,
            ),
            other => ValidationErrors::one(format!("expected list, got {}", go_value(other))),
        },
        Ok(Handler::Map) => match value {
            Value::Null => ValidationErrors::default(),
            Value::Map(m) => validate_map(schema, r.map.expect("map shape"), m, allow_duplicates),
            other => ValidationErrors::one(format!("expected map, got {}", go_value(other))),
        },
    }
}

/// The value a type error names, as the API server prints it: the applied object's values are
/// SMD `*value.valueUnstructured`s, which have no `String` method, so `%v` gives `&{true}`
/// and `&{map[a:b]}` (structured-merge-diff `typed/helpers.go` `listValue`, `mapValue`,
/// `typed/validate.go` `validateScalar`).
pub(crate) fn go_value(v: &Value) -> String {
    format!("&{{{}}}", crate::value::gofmt::go_value(v))
}

/// `%#v` of the same value: `&value.valueUnstructured{Value:[]interface {}{"a"}}`.
fn go_syntax(v: &Value) -> String {
    let inner = crate::value::gofmt::go_syntax_value(v);
    format!("&value.valueUnstructured{{Value:{inner}}}")
}

pub(crate) fn validate_scalar(t: Scalar, v: &Value, prefix: &str) -> ValidationErrors {
    let ok = matches!(
        (t, v),
        (_, Value::Null)
            | (Scalar::Numeric, Value::Int(_) | Value::Float(_))
            | (Scalar::String, Value::String(_))
            | (Scalar::Boolean, Value::Bool(_))
            | (Scalar::Untyped, _)
    );
    if ok {
        return ValidationErrors::default();
    }
    let message = match t {
        Scalar::Numeric => format!(
            "{prefix}expected numeric (int or float), got {}",
            v.go_type_name()
        ),
        Scalar::String => format!("{prefix}expected string, got {}", go_syntax(v)),
        Scalar::Boolean => format!("{prefix}expected boolean, got {}", go_value(v)),
        Scalar::Untyped => unreachable!("untyped scalars accept everything"),
    };
    ValidationErrors::one(message)
}

fn validate_list(
    schema: &Schema,
    list: &ListType,
    relationship: Option<ElementRelationship>,
    items: &[Value],
    allow_duplicates: bool,
) -> ValidationErrors {
    let mut errs = ValidationErrors::default();
    // Keys repeat when equal as path elements (numbers compare by value, as the reference's
    // `PathElementSet` does), so the set holds elements, not their printed form.
    let mut seen: FxHashSet<PathElement> = FxHashSet::default();
    for (i, item) in items.iter().enumerate() {
        let pe = match list_element(schema, list, relationship, i, item) {
            Ok(pe) => pe,
            Err(msg) => {
                errs.0.push(ValidationError {
                    path: String::new(),
                    message: format!("element {i}: {msg}"),
                });
                return errs;
            }
        };
        let keyed = !matches!(pe, PathElement::Index(_));
        if keyed && seen.contains(&pe) && !allow_duplicates {
            errs.0.push(ValidationError {
                path: String::new(),
                message: format!("duplicate entries for key {pe}"),
            });
        }
        // Paths are printed only for errors: most values are valid.
        let item_errs = validate(schema, &list.element_type, item, allow_duplicates);
        if !item_errs.0.is_empty() {
            errs.extend(item_errs.with_prefix(&pe.to_string()));
        }
        if keyed {
            seen.insert(pe);
        }
    }
    errs
}

fn validate_map(
    schema: &Schema,
    map: &MapType,
    m: &crate::value::Map,
    allow_duplicates: bool,
) -> ValidationErrors {
    let mut errs = ValidationErrors::default();
    for (key, v) in m {
        let tr = match map.field(key) {
            Some(f) => &f.type_ref,
            None if is_empty_ref(&map.element_type) => {
                errs.0.push(ValidationError {
                    path: format!(".{key}"),
                    message: FIELD_NOT_DECLARED.into(),
                });
                return errs;
            }
            None => &map.element_type,
        };
        let field_errs = validate(schema, tr, v, allow_duplicates);
        if !field_errs.0.is_empty() {
            errs.extend(field_errs.with_prefix(&format!(".{key}")));
        }
    }
    errs
}

/// A reference to nothing: the reference's `TypeRef{}`, an undeclared element type.
pub(crate) fn is_empty_ref(tr: &TypeRef) -> bool {
    tr.named.is_none()
        && tr.element_relationship.is_none()
        && tr.inlined.scalar.is_none()
        && tr.inlined.list.is_none()
        && tr.inlined.map.is_none()
}
