//! Managers at versions the converter no longer knows are dropped, not failed: ported from
//! structured-merge-diff merge/obsolete_versions_test.go (`TestObsoleteVersions`,
//! `TestApplyObsoleteVersion`).

use super::*;
use crate::fieldpath::{ManagedFields, Path, Set, VersionedSet};
use crate::schema::{parse_smd_schema, Schema, TypeRef, UNTYPED_DEDUCED};
use crate::value::from_json_str;
use std::cell::RefCell;

/// Returns values unchanged, but only for the versions it lists (`specificVersionConverter`).
struct SpecificVersions {
    accepted: RefCell<Vec<&'static str>>,
    type_ref: TypeRef,
}

impl SpecificVersions {
    fn check(&self, version: &str) -> Result<(), ConversionError> {
        if self.accepted.borrow().contains(&version) {
            Ok(())
        } else {
            Err(ConversionError::MissingVersion(version.to_string()))
        }
    }
}

impl Converter for SpecificVersions {
    fn type_ref(&self, version: &str) -> Result<TypeRef, ConversionError> {
        self.check(version)?;
        Ok(self.type_ref.clone())
    }

    fn convert(&self, value: &Value, _from: &str, to: &str) -> Result<Value, ConversionError> {
        self.check(to)?;
        Ok(value.clone())
    }
}

fn json(text: &str) -> Value {
    from_json_str(text).unwrap()
}

fn field_set(names: &[&str]) -> Set {
    Set::from_paths(names.iter().map(|n| Path::fields(&[n])))
}

#[test]
fn managers_of_removed_versions_are_dropped() {
    let schema = Schema::deduced();
    let converter = SpecificVersions {
        accepted: RefCell::new(vec!["v1", "v2"]),
        type_ref: schema.type_ref(UNTYPED_DEDUCED).unwrap(),
    };
    let mut updater = Updater::new(&schema, &converter);
    updater.deduced = true;
    let mut live = Value::Null;
    let mut managers = ManagedFields::new();
    for (object, version) in [
        (r#"{"v1": 0}"#, "v1"),
        (r#"{"v1": 0, "v2": 0}"#, "v2"),
        (r#"{"v1": 0, "v2": 0, "v3": 0}"#, "v3"),
    ] {
        if version == "v3" {
            // v1 is removed, v3 added.
            *converter.accepted.borrow_mut() = vec!["v2", "v3"];
        }
        let new = json(object);
        let updated = updater
            .update(&live, &new, version, &managers, version)
            .unwrap();
        live = updated.object.into_owned();
        managers = updated.managers;
    }
    let mut want = ManagedFields::new();
    want.insert(
        "v2".into(),
        VersionedSet::new(field_set(&["v2"]), "v2", false),
    );
    want.insert(
        "v3".into(),
        VersionedSet::new(field_set(&["v3"]), "v3", false),
    );
    assert_eq!(managers, want);
}

#[test]
fn an_apply_at_a_new_version_does_not_prune_what_an_obsolete_one_applied() {
    let schema = parse_smd_schema(
        "types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative
",
    )
    .unwrap();
    let converter = SpecificVersions {
        accepted: RefCell::new(vec!["v1"]),
        type_ref: schema.type_ref("sets").unwrap(),
    };
    let updater = Updater::new(&schema, &converter);
    let first = json(r#"{"list": ["a", "b", "c", "d"]}"#);
    let ApplyOutcome::Changed { object, managers } = updater
        .apply(
            &Value::Null,
            &first,
            "v1",
            &ManagedFields::new(),
            "apply",
            false,
        )
        .unwrap()
    else {
        panic!("the first apply creates the object");
    };
    // v1 is removed, v2 added.
    *converter.accepted.borrow_mut() = vec!["v2"];
    let outcome = updater
        .apply(
            &object,
            &json(r#"{"list": ["a"]}"#),
            "v2",
            &managers,
            "apply",
            false,
        )
        .unwrap();
    let live = match outcome {
        ApplyOutcome::Changed { object, .. } => object,
        ApplyOutcome::Unchanged { .. } => object,
    };
    assert_eq!(live, first);
}
