//! Unit tests of the parent module.
use super::*;
use crate::value::from_json_str;

fn v(s: &str) -> Value {
    from_json_str(s).unwrap()
}

/// Patch metadata from a tiny table: field name → (strategy, merge key); every field's
/// value is described by the same table.
#[derive(Clone, Copy)]
struct Table(&'static [(&'static str, &'static str, &'static str)]);

impl PatchMetaLookup for Table {
    fn lookup_map_field(&self, f: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        let meta = self.0.iter().find(|(n, _, _)| *n == f).map(|(_, s, k)| {
            FieldPatchMeta::new(
                Some(s).filter(|s| !s.is_empty()).copied(),
                Some(k).filter(|k| !k.is_empty()).copied(),
            )
        });
        Ok((Some(*self), meta.unwrap_or_default()))
    }
    fn lookup_list_field(&self, f: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        self.lookup_map_field(f)
    }
    fn name(&self) -> String {
        "table".into()
    }
}

const META: Table = Table(&[
    ("items", "merge", "name"),
    ("tags", "merge", ""),
    ("plain", "", ""),
    ("strategy", "retainKeys", ""),
    ("whole", "replace", ""),
]);

fn smp(original: &str, patch: &str) -> Result<Value, String> {
    strategic_merge_patch(&v(original), &v(patch), &META).map_err(|e| e.to_string())
}

#[test]
fn maps_merge_and_null_deletes() {
    let out = smp(
        r#"{"a":{"b":1,"c":2}}"#,
        r#"{"a":{"b":null,"d":3},"x":null}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"a":{"c":2,"d":3}}"#));
}

#[test]
fn keyed_lists_merge_by_key_in_patch_order() {
    let out = smp(
        r#"{"items":[{"name":"a","v":1},{"name":"b","v":2}]}"#,
        r#"{"items":[{"name":"c","v":3},{"name":"b","v":4}]}"#,
    );
    assert_eq!(
        out.unwrap(),
        v(r#"{"items":[{"name":"c","v":3},{"name":"a","v":1},{"name":"b","v":4}]}"#)
    );
}

#[test]
fn lists_without_merge_strategy_are_replaced_verbatim() {
    let out = smp(r#"{"plain":[1,2]}"#, r#"{"plain":[{"$patch":"delete"}]}"#);
    assert_eq!(out.unwrap(), v(r#"{"plain":[{"$patch":"delete"}]}"#));
}

#[test]
fn patch_directive_on_maps_and_list_items() {
    assert_eq!(
        smp(r#"{"a":{"b":1}}"#, r#"{"a":{"$patch":"delete"}}"#).unwrap(),
        v(r#"{"a":{}}"#)
    );
    assert_eq!(
        smp(r#"{"a":{"b":1}}"#, r#"{"a":{"$patch":"replace","c":2}}"#).unwrap(),
        v(r#"{"a":{"c":2}}"#)
    );
    let out = smp(
        r#"{"items":[{"name":"a"},{"name":"b"}]}"#,
        r#"{"items":[{"$patch":"delete","name":"a"}]}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"items":[{"name":"b"}]}"#));
    let out = smp(
        r#"{"items":[{"name":"a"},{"name":"b"}]}"#,
        r#"{"items":[{"name":"z"},{"$patch":"replace"}]}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"items":[{"name":"z"}]}"#));
    let err = smp(r#"{"a":{}}"#, r#"{"a":{"$patch":"frob"}}"#).unwrap_err();
    assert_eq!(err, "a: unknown patch type: frob in map: map[$patch:frob]");
}

#[test]
fn primitive_lists_union_and_delete_from() {
    let out = smp(r#"{"tags":["a","b"]}"#, r#"{"tags":["c","a"]}"#);
    assert_eq!(out.unwrap(), v(r#"{"tags":["c","a","b"]}"#));
    let out = smp(
        r#"{"plain":["a","b","a"]}"#,
        r#"{"$deleteFromPrimitiveList/plain":["a"]}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"plain":["b"]}"#));
    let err = smp(r#"{}"#, r#"{"$deleteFromPrimitiveList":["a"]}"#).unwrap_err();
    assert_eq!(err, "invalid patch format of primitive list");
}

#[test]
fn set_element_order() {
    let out = smp(
        r#"{"tags":["a","b","c"]}"#,
        r#"{"$setElementOrder/tags":["c","a","b"]}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"tags":["c","a","b"]}"#));
    let out = smp(
        r#"{"items":[{"name":"a"},{"name":"b"}]}"#,
        r#"{"$setElementOrder/items":[{"name":"b"},{"name":"n"},{"name":"a"}],"items":[{"name":"n"}]}"#,
    );
    assert_eq!(
        out.unwrap(),
        v(r#"{"items":[{"name":"b"},{"name":"n"},{"name":"a"}]}"#)
    );
    let err = smp(
        r#"{"items":[]}"#,
        r#"{"$setElementOrder/items":[{"name":"b"}],"items":[{"name":"a"}]}"#,
    )
    .unwrap_err();
    assert!(
        err.starts_with("items: The order in patch list:\n[map[name:a]]"),
        "{err}"
    );
}

#[test]
fn retain_keys() {
    let out = smp(
        r#"{"strategy":{"type":"Rolling","rolling":{"max":1}}}"#,
        r#"{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}"#,
    );
    assert_eq!(out.unwrap(), v(r#"{"strategy":{"type":"Recreate"}}"#));
    let err = smp(
        r#"{"strategy":{}}"#,
        r#"{"strategy":{"$retainKeys":["type"],"x":1}}"#,
    );
    assert_eq!(
        err.unwrap_err(),
        "strategy: invalid patch format of retainKeys"
    );
}

#[test]
fn replace_strategy_and_merge_key_errors() {
    let out = smp(r#"{"whole":{"a":1}}"#, r#"{"whole":{"b":2}}"#);
    assert_eq!(out.unwrap(), v(r#"{"whole":{"b":2}}"#));
    let err = smp(r#"{"items":[{"name":"a"}]}"#, r#"{"items":[{"v":1}]}"#).unwrap_err();
    assert_eq!(
        err,
        "items: map: map[v:1] does not contain declared merge key: name"
    );
}

#[test]
fn new_values_lose_nulls_and_patch_maps() {
    let out = smp(r#"{}"#, r#"{"a":{"b":null,"c":{"$patch":"delete"},"d":1}}"#);
    assert_eq!(out.unwrap(), v(r#"{"a":{"d":1}}"#));
}

#[test]
fn no_metadata_replaces_lists() {
    let out = strategic_merge_patch(&v(r#"{"l":[1,2]}"#), &v(r#"{"l":[3]}"#), &NoPatchMeta);
    assert_eq!(out.unwrap(), v(r#"{"l":[3]}"#));
}

#[test]
fn schema_model_metadata() {
    use crate::schema::{
        Atom, ElementRelationship, ListType, MapType, PatchMeta, Schema, StructField, TypeDef,
        TypeRef,
    };
    let list_of = |elem: &str| {
        TypeRef::inline(Atom {
            list: Some(Box::new(ListType {
                element_type: TypeRef::named(elem),
                element_relationship: ElementRelationship::Atomic,
                keys: vec![],
            })),
            ..Atom::default()
        })
    };
    let field = |name: &str, tr: TypeRef, patch: Option<PatchMeta>| StructField {
        name: name.into(),
        type_ref: tr,
        default: None,
        patch,
    };
    let map = |fields| Atom {
        map: Some(Box::new(MapType::new(
            fields,
            vec![],
            TypeRef::named(crate::schema::UNTYPED_DEDUCED),
            ElementRelationship::Separable,
        ))),
        ..Atom::default()
    };
    let mut types = crate::schema::untyped_types();
    types.push(TypeDef {
        name: "item".into(),
        atom: map(vec![field(
            "name",
            TypeRef::named(crate::schema::UNTYPED_ATOMIC),
            None,
        )]),
    });
    types.push(TypeDef {
        name: "root".into(),
        atom: map(vec![field(
            "items",
            list_of("item"),
            Some(PatchMeta {
                strategy: "merge".into(),
                merge_key: Some("name".into()),
            }),
        )]),
    });
    let schema = Schema::new(types);
    let root = schema.type_ref("root").unwrap();
    let meta = SchemaPatchMeta::new(&schema, &root);
    let out = strategic_merge_patch(
        &v(r#"{"items":[{"name":"a","x":1}]}"#),
        &v(r#"{"items":[{"name":"a","y":2}]}"#),
        &meta,
    );
    assert_eq!(out.unwrap(), v(r#"{"items":[{"name":"a","x":1,"y":2}]}"#));
    let err = strategic_merge_patch(&v(r#"{"other":{}}"#), &v(r#"{"other":{"a":1}}"#), &meta);
    assert_eq!(
        err.unwrap_err().to_string(),
        "other: unable to find api field \"other\" in root"
    );
}
