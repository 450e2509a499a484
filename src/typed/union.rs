//! Union normalization (KEP-1027), opt-in, with structured-merge-diff v4.3.0's rules: keeps the
//! members of a "one of" group and its discriminator consistent on update (old → new) and on
//! apply (applied configuration → merged object). See docs/unions.md for what it does.

use super::{deduce_shape, handler_for, is_atomic, list_element, Handler};
use crate::fieldpath::PathElement;
use crate::schema::{ListType, MapType, Schema, TypeRef, Union};
use crate::value::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// Which write the normalization is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    /// An update or patch: `old` is the stored object, `new` the object to store.
    Update,
    /// An apply: `old` is the applied configuration, `new` the configuration merged into the
    /// live object. Only members the configuration sets count.
    Apply,
}

/// Why one union of one struct could not be normalized. The texts are the reference's, except
/// that a mismatching member is named (the reference prints a pointer there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnionProblem {
    /// Update: the discriminator changed and names another member than the one added.
    DiscriminatorMismatch {
        discriminator: String,
        field: String,
    },
    /// Update: the discriminator changed and several members were added.
    MultipleNewFields(Vec<String>),
    /// Update: several members are set and the discriminator did not change.
    MultipleFieldsSet(Vec<String>),
    /// Apply: the configuration sets several members.
    MultipleApplied(Vec<String>),
    /// Apply: the configuration's discriminator names another member than the one it sets.
    AppliedDiscriminatorMismatch {
        discriminator: String,
        field: String,
    },
}

impl fmt::Display for UnionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnionProblem::DiscriminatorMismatch {
                discriminator,
                field,
            } => write!(
                f,
                "discriminator ({discriminator}) and field changed ({field}) don't match"
            ),
            UnionProblem::MultipleNewFields(fields) => {
                write!(f, "multiple new fields added: {}", fields.join(", "))
            }
            UnionProblem::MultipleFieldsSet(fields) => write!(
                f,
                "multiple fields set without discriminator change: {}",
                fields.join(", ")
            ),
            UnionProblem::MultipleApplied(fields) => write!(
                f,
                "more than one field of union applied: {}",
                fields.join(", ")
            ),
            UnionProblem::AppliedDiscriminatorMismatch {
                discriminator,
                field,
            } => write!(
                f,
                "applied discriminator ({discriminator}) doesn't match applied field ({field})"
            ),
        }
    }
}

/// A problem and the struct it was found in (`""` for the object itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionError {
    pub path: String,
    pub problem: UnionProblem,
}

impl fmt::Display for UnionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "union: {}", self.problem)
        } else {
            write!(f, "union at {}: {}", self.path, self.problem)
        }
    }
}

/// Every struct whose unions failed, in walk order (children before their parent).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnionErrors(pub Vec<UnionError>);

impl fmt::Display for UnionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_error_list(f, &self.0)
    }
}

/// Normalizes the unions of `new` against `old` (`Null`: none). Structs are walked where both
/// sides are walked by merge: nested structs, map values and list items paired by key, never
/// the inside of atomic lists or structs. Returns `Null` when both objects are empty.
pub(crate) fn normalize(
    schema: &Schema,
    tr: &TypeRef,
    old: &Value,
    new: &Value,
    mode: Normalization,
) -> Result<Value, UnionErrors> {
    let old = (!old.is_null()).then_some(old);
    let empty = |v: Option<&Value>| match v {
        None | Some(Value::Null) => true,
        Some(Value::Map(m)) => m.is_empty(),
        Some(_) => false,
    };
    if empty(old) && empty(Some(new)) {
        return Ok(Value::Null);
    }
    let mut out = new.clone();
    let mut w = Walker {
        schema,
        mode,
        path: Vec::new(),
        errors: Vec::new(),
    };
    w.node(tr, old, &mut out);
    if w.errors.is_empty() {
        Ok(out)
    } else {
        Err(UnionErrors(w.errors))
    }
}

struct Walker<'s> {
    schema: &'s Schema,
    mode: Normalization,
    path: Vec<PathElement>,
    errors: Vec<UnionError>,
}

impl Walker<'_> {
    fn node(&mut self, tr: &TypeRef, old: Option<&Value>, new: &mut Value) {
        let Some(r) = self.schema.resolve(tr) else {
            return;
        };
        let Ok(handler) = handler_for(deduce_shape(&r, Some(new)), tr) else {
            return;
        };
        match (handler, new) {
            (Handler::Map, Value::Map(m)) => {
                let map = r.map.expect("map shape");
                let old = old.and_then(Value::as_map);
                let leaf = m.is_empty() && old.is_none_or(Map::is_empty);
                if is_atomic(r.map_relationship()) || leaf {
                    return;
                }
                self.map(map, old, m);
            }
            (Handler::List, Value::List(items)) => {
                let list = r.list.expect("list shape");
                let old = old.and_then(Value::as_list).map(Vec::as_slice);
                let leaf = items.is_empty() && old.is_none_or(<[Value]>::is_empty);
                if is_atomic(r.list_relationship()) || leaf {
                    return;
                }
                self.list(list, r.list_relationship(), old.unwrap_or(&[]), items);
            }
            _ => {}
        }
    }

    fn map(&mut self, map: &MapType, old: Option<&Map>, new: &mut Map) {
        for (key, value) in new.iter_mut() {
            self.path.push(PathElement::Field(key.clone()));
            self.node(map.type_of(key), old.and_then(|o| o.get(key)), value);
            self.path.pop();
        }
        for union in &map.unions {
            let done = match self.mode {
                Normalization::Update => normalize_update(union, old, new),
                Normalization::Apply => normalize_apply(union, old, new),
            };
            if let Err(problem) = done {
                let path = self.path.iter().map(ToString::to_string).collect();
                self.errors.push(UnionError { path, problem });
                break;
            }
        }
    }

    fn list(
        &mut self,
        list: &ListType,
        relationship: Option<crate::schema::ElementRelationship>,
        old: &[Value],
        new: &mut [Value],
    ) {
        let schema = self.schema;
        let element = |i: usize, item: &Value| list_element(schema, list, relationship, i, item);
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, item) in old.iter().enumerate() {
            if let Ok(pe) = element(i, item) {
                index.entry(crate::fieldpath::element_key(&pe)).or_insert(i);
            }
        }
        for (i, item) in new.iter_mut().enumerate() {
            let Ok(pe) = element(i, item) else { continue };
            let before = index
                .get(&crate::fieldpath::element_key(&pe))
                .map(|&j| &old[j]);
            self.path.push(pe);
            self.node(&list.element_type, before, item);
            self.path.pop();
        }
    }
}

/// One union's members in schema order, and how they map to discriminator values.
struct Members<'u>(&'u Union);

impl<'u> Members<'u> {
    /// The members set (present and not null) in `m`, in schema order.
    fn set_in(&self, m: Option<&Map>) -> Vec<&'u str> {
        let Some(m) = m else { return Vec::new() };
        self.0
            .fields
            .iter()
            .filter(|f| m.get(&f.field_name).is_some_and(|v| !v.is_null()))
            .map(|f| f.field_name.as_str())
            .collect()
    }

    /// The discriminator's value: empty when there is none, or it is absent or not a string.
    fn discriminator<'m>(&self, m: Option<&'m Map>) -> &'m str {
        match (&self.0.discriminator, m) {
            (Some(d), Some(m)) => m.get(d).and_then(Value::as_str).unwrap_or_default(),
            _ => "",
        }
    }

    fn set_discriminator(&self, m: &mut Map, member: &str) {
        if let Some(d) = &self.0.discriminator {
            m.insert(d.clone(), Value::from(self.value_of(member)));
        }
    }

    /// The discriminator value naming `member`.
    fn value_of(&self, member: &str) -> &'u str {
        self.0
            .fields
            .iter()
            .find(|f| f.field_name == member)
            .map_or("", |f| f.discriminator_value.as_str())
    }

    /// The member a discriminator value selects: by value, else by field name (which may
    /// name no member, so that all are cleared).
    fn selected<'a>(&self, value: &'a str) -> &'a str
    where
        'u: 'a,
    {
        self.0
            .fields
            .iter()
            .find(|f| f.discriminator_value == value)
            .map_or(value, |f| f.field_name.as_str())
    }

    /// Deletes every member but `keep`.
    fn clear_except(&self, m: &mut Map, keep: &str) {
        for f in &self.0.fields {
            if f.field_name != keep {
                m.shift_remove(&f.field_name);
            }
        }
    }
}

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The update rule: a discriminator change selects the member to keep; otherwise at most one
/// member may be set, and with deduction the discriminator follows it.
fn normalize_update(union: &Union, old: Option<&Map>, new: &mut Map) -> Result<(), UnionProblem> {
    let u = Members(union);
    let before = u.set_in(old);
    let now = u.set_in(Some(new));
    let added: Vec<&str> = now
        .iter()
        .copied()
        .filter(|f| !before.contains(f))
        .collect();
    let discriminator = u.discriminator(Some(new)).to_string();
    if !discriminator.is_empty() && discriminator != u.discriminator(old) {
        match added.as_slice() {
            [one] if discriminator != u.value_of(one) => {
                return Err(UnionProblem::DiscriminatorMismatch {
                    discriminator,
                    field: one.to_string(),
                })
            }
            [_, _, ..] => return Err(UnionProblem::MultipleNewFields(owned(&added))),
            _ => {}
        }
        u.clear_except(new, u.selected(&discriminator));
        return Ok(());
    }
    match now.as_slice() {
        [_, _, ..] => Err(UnionProblem::MultipleFieldsSet(owned(&now))),
        [one] if union.deduce_invalid_discriminator => {
            u.set_discriminator(new, one);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The apply rule: the configuration sets at most one member, its discriminator (if sent)
/// must name it, and every other member is deleted from the merged object.
fn normalize_apply(
    union: &Union,
    applied: Option<&Map>,
    merged: &mut Map,
) -> Result<(), UnionProblem> {
    let u = Members(union);
    let field = match u.set_in(applied).as_slice() {
        [] => return Ok(()),
        [one] => *one,
        many => return Err(UnionProblem::MultipleApplied(owned(many))),
    };
    let discriminator = u.discriminator(applied);
    if !discriminator.is_empty() && discriminator != u.value_of(field) {
        return Err(UnionProblem::AppliedDiscriminatorMismatch {
            discriminator: discriminator.to_string(),
            field: field.to_string(),
        });
    }
    if union.deduce_invalid_discriminator {
        u.set_discriminator(merged, field);
    }
    u.clear_except(merged, field);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::parse_smd_schema;
    use crate::value::from_json_str;

    const SCHEMA: &str = "types:\n- name: root\n  map:\n    fields:\n    - name: inner\n      type:\n        namedType: u\n- name: u\n  map:\n    fields:\n    - name: type\n      type:\n        scalar: string\n    - name: alpha\n      type:\n        scalar: numeric\n    - name: beta\n      type:\n        scalar: numeric\n    unions:\n    - discriminator: type\n      fields:\n      - fieldName: alpha\n        discriminatorValue: Alpha\n      - fieldName: beta\n        discriminatorValue: Beta\n";

    fn run(old: &str, new: &str, mode: Normalization) -> Result<Value, UnionErrors> {
        let schema = parse_smd_schema(SCHEMA).unwrap();
        let tr = TypeRef::named("root");
        let old = from_json_str(old).unwrap();
        let new = from_json_str(new).unwrap();
        normalize(&schema, &tr, &old, &new, mode)
    }

    #[test]
    fn discriminator_change_clears_the_other_member() {
        let out = run(
            r#"{"inner":{"type":"Alpha","alpha":1}}"#,
            r#"{"inner":{"type":"Beta","alpha":1,"beta":2}}"#,
            Normalization::Update,
        )
        .unwrap();
        assert_eq!(
            out,
            from_json_str(r#"{"inner":{"type":"Beta","beta":2}}"#).unwrap()
        );
    }

    #[test]
    fn errors_name_the_struct() {
        let err = run(
            "null",
            r#"{"inner":{"alpha":1,"beta":2}}"#,
            Normalization::Update,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "union at .inner: multiple fields set without discriminator change: alpha, beta"
        );
        let err = run(
            r#"{"inner":{"type":"Alpha","beta":1}}"#,
            r#"{"inner":{"type":"Alpha","beta":1}}"#,
            Normalization::Apply,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "union at .inner: applied discriminator (Alpha) doesn't match applied field (beta)"
        );
    }

    #[test]
    fn empty_on_both_sides_is_null() {
        assert_eq!(
            run("null", "{}", Normalization::Update).unwrap(),
            Value::Null
        );
    }
}
