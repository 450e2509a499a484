//! Operations over a value together with its schema type, as structured-merge-diff's `typed`
//! package defines them: validation, field sets, merge, compare, removal and extraction of
//! items, and reconciling an old field set with a changed schema.

mod compare;
mod merge;
mod reconcile;
mod remove;
mod to_set;
mod union;
mod validate;

use crate::fieldpath::{KeyFields, PathElement};
use crate::schema::{ElementRelationship, ListType, Resolved, Schema, TypeRef};
use crate::value::Value;
use std::fmt;

pub use compare::Comparison;
pub use reconcile::reconcile_field_set_with_schema;
pub use union::{Normalization, UnionError, UnionErrors, UnionProblem};
pub use validate::FIELD_NOT_DECLARED;

/// One problem found at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every problem found in one walk.
#[derive(Debug, Clone, PartialEq, Eq, Default, thiserror::Error)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_error_list(f, &self.0)
    }
}

/// The reference's way of listing errors: one alone, or `errors:` and one per indented line.
pub(crate) fn write_error_list<E: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    errors: &[E],
) -> fmt::Result {
    match errors {
        [one] => write!(f, "{one}"),
        many => {
            f.write_str("errors:")?;
            for e in many {
                write!(f, "\n  {e}")?;
            }
            Ok(())
        }
    }
}

impl ValidationErrors {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn one(message: impl Into<String>) -> ValidationErrors {
        ValidationErrors(vec![ValidationError {
            path: String::new(),
            message: message.into(),
        }])
    }

    fn extend(&mut self, other: ValidationErrors) {
        self.0.extend(other.0);
    }

    fn with_prefix(mut self, prefix: &str) -> ValidationErrors {
        for e in &mut self.0 {
            e.path.insert_str(0, prefix);
        }
        self
    }

    fn into_result(self) -> Result<(), ValidationErrors> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
}

/// A value paired with the schema type it is read as.
#[derive(Debug, Clone, Copy)]
pub struct Typed<'a> {
    pub schema: &'a Schema,
    pub type_ref: &'a TypeRef,
}

impl<'a> Typed<'a> {
    pub fn new(schema: &'a Schema, type_ref: &'a TypeRef) -> Typed<'a> {
        Typed { schema, type_ref }
    }

    /// Checks `value` against the type; `allow_duplicates` tolerates repeated list keys, as
    /// live objects may have them.
    pub fn validate(&self, value: &Value, allow_duplicates: bool) -> Result<(), ValidationErrors> {
        validate::validate(self.schema, self.type_ref, value, allow_duplicates).into_result()
    }

    /// The fields the value sets.
    pub fn to_field_set(&self, value: &Value) -> Result<crate::fieldpath::Set, ValidationErrors> {
        to_set::to_field_set(self.schema, self.type_ref, value)
    }

    /// Merges `rhs` into `lhs`: rhs wins on leaves, keyed lists merge by key.
    pub fn merge(&self, lhs: &Value, rhs: &Value) -> Result<Value, ValidationErrors> {
        merge::merge(self.schema, self.type_ref, lhs, rhs)
    }

    /// What changed from `lhs` to `rhs`.
    pub fn compare(&self, lhs: &Value, rhs: &Value) -> Result<Comparison, ValidationErrors> {
        compare::compare(self.schema, self.type_ref, lhs, rhs)
    }

    /// `new` with its unions normalized against `old` (KEP-1027; see [`Normalization`]).
    pub fn normalize_unions(
        &self,
        old: &Value,
        new: &Value,
        mode: Normalization,
    ) -> Result<Value, UnionErrors> {
        union::normalize(self.schema, self.type_ref, old, new, mode)
    }

    /// The value without the items in `set`.
    pub fn remove_items(&self, value: &Value, set: &crate::fieldpath::Set) -> Value {
        remove::remove_items(self.schema, self.type_ref, value, set, false)
    }

    /// Only the items of `set` from the value.
    pub fn extract_items(&self, value: &Value, set: &crate::fieldpath::Set) -> Value {
        remove::remove_items(self.schema, self.type_ref, value, set, true)
    }

    /// Like [`Typed::extract_items`], with the key fields of every extracted keyed item added
    /// (what client-go's extract functions do, so the result can be applied).
    pub fn extract_items_with_keys(&self, value: &Value, set: &crate::fieldpath::Set) -> Value {
        let items = match self.to_field_set(value) {
            Ok(all) => set.union(&key_field_paths(set, &all)),
            Err(_) => set.clone(),
        };
        self.extract_items(value, &items)
    }
}

fn key_field_paths(
    set: &crate::fieldpath::Set,
    all: &crate::fieldpath::Set,
) -> crate::fieldpath::Set {
    let mut keys = crate::fieldpath::Set::new();
    set.iterate(|path| {
        if !all.has(path) {
            return;
        }
        for (i, pe) in path.elements().iter().enumerate() {
            if let PathElement::Key(fields) = pe {
                for (name, _) in fields {
                    let mut p = path.elements()[..=i].to_vec();
                    p.push(PathElement::Field(name.clone()));
                    if all.has_elements(&p) {
                        keys.insert_elements(&p);
                    }
                }
            }
        }
    });
    keys
}

/// The shapes of an atom that apply to a value: narrowed to the value's own kind when the atom
/// allows it, as the reference's `deduceAtom` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    scalar: bool,
    list: bool,
    map: bool,
}

pub(crate) fn deduce_shape(r: &Resolved<'_>, v: Option<&Value>) -> Shape {
    let full = Shape {
        scalar: r.scalar.is_some(),
        list: r.list.is_some(),
        map: r.map.is_some(),
    };
    let none = Shape {
        scalar: false,
        list: false,
        map: false,
    };
    match v {
        Some(Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::String(_))
            if full.scalar =>
        {
            Shape {
                scalar: true,
                ..none
            }
        }
        Some(Value::List(_)) if full.list => Shape { list: true, ..none },
        Some(Value::Map(_)) if full.map => Shape { map: true, ..none },
        _ => full,
    }
}

/// Which handler a shape dispatches to: map first, then scalar, then list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handler {
    Map,
    Scalar,
    List,
}

pub(crate) fn handler_for(shape: Shape, tr: &TypeRef) -> Result<Handler, ValidationErrors> {
    if shape.map {
        Ok(Handler::Map)
    } else if shape.scalar {
        Ok(Handler::Scalar)
    } else if shape.list {
        Ok(Handler::List)
    } else {
        let name = match &tr.named {
            Some(n) => format!("named type: {n}"),
            None => "inlined".to_string(),
        };
        Err(ValidationErrors::one(format!(
            "schema error: invalid atom: {name}"
        )))
    }
}

pub(crate) fn resolve<'a>(
    schema: &'a Schema,
    tr: &'a TypeRef,
) -> Result<Resolved<'a>, ValidationErrors> {
    schema.resolve(tr).ok_or_else(|| {
        let name = tr
            .named
            .clone()
            .unwrap_or_else(|| "inlined type".to_string());
        ValidationErrors::one(format!("schema error: no type found matching: {name}"))
    })
}

pub(crate) fn is_atomic(rel: Option<ElementRelationship>) -> bool {
    rel == Some(ElementRelationship::Atomic)
}

/// The path element naming an item of an associative list.
pub(crate) fn list_item_element(
    schema: &Schema,
    list: &ListType,
    item: &Value,
) -> Result<PathElement, String> {
    if list.keys.is_empty() {
        return match item {
            Value::Map(_) => {
                Err("associative list without keys has an element that's a map type".into())
            }
            Value::List(_) => Err("not supported: associative list with lists as elements".into()),
            v => Ok(PathElement::Value(v.clone())),
        };
    }
    let map = match item {
        Value::Null => return Err("associative list with keys may not have a null element".into()),
        Value::Map(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".into()),
    };
    let mut fields: KeyFields = Vec::with_capacity(list.keys.len());
    for key in &list.keys {
        match map.get(key) {
            Some(v) => fields.push((key.clone(), v.clone())),
            // A key with neither a value nor a default is left out of the item's key.
            None => fields.extend(key_default(schema, list, key).map(|d| (key.clone(), d))),
        }
    }
    Ok(PathElement::key(fields))
}

fn key_default(schema: &Schema, list: &ListType, key: &str) -> Option<Value> {
    let elem = schema.resolve(&list.element_type)?;
    elem.map?.field(key)?.default.clone()
}

/// The element for an item of any list: its key or value when associative, else its index.
pub(crate) fn list_element(
    schema: &Schema,
    list: &ListType,
    relationship: Option<ElementRelationship>,
    index: usize,
    item: &Value,
) -> Result<PathElement, String> {
    if relationship == Some(ElementRelationship::Associative) {
        list_item_element(schema, list, item)
    } else {
        Ok(PathElement::Index(index))
    }
}

/// The set with every struct field that has owned fields below it made a member too, so that
/// pruning can remove the field itself (a map is not made a member, only named fields).
pub fn ensure_named_fields_are_members(
    set: &crate::fieldpath::Set,
    schema: &Schema,
    tr: &TypeRef,
) -> crate::fieldpath::Set {
    let r = schema.resolve(tr);
    let map = r.and_then(|r| r.map);
    let list = r.and_then(|r| r.list);
    let mut members: Vec<PathElement> = set.members().to_vec();
    let mut children = Vec::new();
    let empty = TypeRef::default();
    for (pe, child) in set.children() {
        let child_tr = match (pe, map, list) {
            (PathElement::Field(name), Some(m), _) => {
                if m.field(name).is_some() {
                    members.push(pe.clone());
                }
                m.type_of(name)
            }
            (PathElement::Key(_), _, Some(l)) => &l.element_type,
            _ => &empty,
        };
        children.push((
            pe.clone(),
            ensure_named_fields_are_members(child, schema, child_tr),
        ));
    }
    crate::fieldpath::Set::from_parts(members, children)
}
