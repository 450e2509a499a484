//! Reconciling a manager's field set with a schema that changed since it was recorded: a
//! container that became atomic is owned whole; one that became granular is owned field by
//! field.

use super::validate::is_empty_ref;
use super::*;
use crate::fieldpath::Set;

/// The reconciled set, or `None` when nothing needed to change. Only granular → atomic changes
/// rewrite a set: the reference (v6) leaves sets recorded under an atomic type as they are when
/// the type becomes granular (its owner keeps the whole container).
pub fn reconcile_field_set_with_schema(
    set: &Set,
    schema: &Schema,
    tr: &TypeRef,
) -> Result<Option<Set>, ValidationErrors> {
    let mut r = Reconciler {
        schema,
        path: Vec::new(),
        to_remove: Set::new(),
        to_add: Set::new(),
    };
    let mut errs = ValidationErrors::default();
    r.node(tr, Some(set), false, &mut errs);
    if !errs.is_empty() {
        return Err(ValidationErrors::one(format!(
            "errors reconciling field set with schema: {errs}"
        )));
    }
    if r.to_add.is_empty() && r.to_remove.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        set.recursive_difference(&r.to_remove).union(&r.to_add),
    ))
}

struct Reconciler<'a> {
    schema: &'a Schema,
    path: Vec<PathElement>,
    to_remove: Set,
    to_add: Set,
}

impl<'a> Reconciler<'a> {
    fn node(
        &mut self,
        tr: &TypeRef,
        set: Option<&Set>,
        is_atomic_member: bool,
        errs: &mut ValidationErrors,
    ) {
        let Some(r) = self.schema.resolve(tr) else {
            errs.0.push(ValidationError {
                path: String::new(),
                message: "could not resolve type".into(),
            });
            return;
        };
        // No value here: the handler is chosen from the type alone (map, then scalar, then list).
        if let Some(map) = r.map {
            let rel = r.map_relationship();
            if !is_atomic_member && is_atomic(rel) {
                if set.is_some_and(|s| s.size() > 0) {
                    self.own_whole();
                }
                return;
            }
            if let Some(set) = set {
                self.visit(set, errs, |pe| match pe {
                    PathElement::Field(name) => map.type_of(name),
                    _ => &map.element_type,
                });
            }
        } else if r.scalar.is_some() {
        } else if let Some(list) = r.list {
            let rel = r.list_relationship();
            if !is_atomic_member && is_atomic(rel) {
                self.own_whole();
                return;
            }
            if let Some(set) = set {
                self.visit(set, errs, |_| &list.element_type);
            }
        }
    }

    fn visit<'t>(
        &mut self,
        set: &Set,
        errs: &mut ValidationErrors,
        type_of: impl Fn(&PathElement) -> &'t TypeRef,
    ) {
        let children: Vec<&PathElement> = set
            .children()
            .map(|(pe, _)| pe)
            .filter(|pe| !set.has_member(pe))
            .collect();
        let order = children
            .into_iter()
            .map(|pe| (pe, false))
            .chain(set.members().iter().map(|pe| (pe, true)));
        for (pe, is_member) in order {
            let tr = type_of(pe);
            if is_empty_ref(tr) {
                errs.0.push(ValidationError {
                    path: pe.to_string(),
                    message: "field not declared in schema".into(),
                });
            }
            let child = set.child(pe);
            self.path.push(pe.clone());
            self.node(tr, child, is_member && child.is_none(), errs);
            self.path.pop();
        }
    }

    fn own_whole(&mut self) {
        self.to_remove.insert_elements(&self.path);
        self.to_add.insert_elements(&self.path);
    }
}
