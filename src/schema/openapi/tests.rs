//! Unit tests of the parent module.
use super::*;

fn convert(json: &str) -> Schema {
    let doc = crate::value::from_json_str(json).unwrap();
    let defs = document_definitions(&doc).unwrap();
    Schema::new(convert_definitions(defs, ConvertOptions::default()).unwrap())
        .with_types_added(untyped_types())
}

fn field<'a>(s: &'a Schema, ty: &str, name: &str) -> Resolved<'a> {
    let id = s.find(ty).unwrap();
    let map = s.type_def(id).atom.map.as_deref().unwrap();
    s.resolve(map.type_of(name)).unwrap()
}

#[test]
fn lists_follow_list_type_then_patch_strategy() {
    let s = convert(
        r##"{"definitions": {"T": {"type": "object", "properties": {
          "m": {"type": "array", "items": {"$ref": "#/definitions/I"},
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"]},
          "p": {"type": "array", "items": {"$ref": "#/definitions/I"},
                "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "a"},
          "s": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
          "r": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "retainKeys"},
          "plain": {"type": "array", "items": {"type": "string"}}}},
         "I": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}}}"##,
    );
    let m = field(&s, "T", "m");
    assert_eq!(
        m.list_relationship(),
        Some(ElementRelationship::Associative)
    );
    assert_eq!(m.list.unwrap().keys, ["a", "b"]);
    let p = field(&s, "T", "p");
    assert_eq!(p.list.unwrap().keys, ["a"]);
    let t = s
        .type_def(s.find("T").unwrap())
        .atom
        .map
        .as_deref()
        .unwrap();
    assert_eq!(
        t.field("p").unwrap().patch,
        Some(PatchMeta {
            strategy: "merge".into(),
            merge_key: Some("a".into())
        })
    );
    assert_eq!(
        field(&s, "T", "s").list_relationship(),
        Some(ElementRelationship::Associative)
    );
    assert_eq!(
        field(&s, "T", "r").list_relationship(),
        Some(ElementRelationship::Atomic)
    );
    assert_eq!(
        field(&s, "T", "plain").list_relationship(),
        Some(ElementRelationship::Atomic)
    );
}

#[test]
fn scalars_maps_and_untyped() {
    let s = convert(
        r##"{"components": {"schemas": {"T": {"type": "object", "properties": {
          "i": {"type": "integer", "format": "int32"},
          "ios": {"type": "string", "format": "int-or-string"},
          "b64": {"type": "string", "format": "byte"},
          "labels": {"type": "object", "additionalProperties": {"type": "string"}},
          "atomicRef": {"allOf": [{"$ref": "#/components/schemas/S"}], "x-kubernetes-map-type": "atomic"},
          "free": {"type": "object"},
          "any": {"x-kubernetes-preserve-unknown-fields": true}},
          "x-kubernetes-map-type": "atomic"},
         "S": {"type": "object", "properties": {"x": {"type": "boolean"}}},
         "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"}}}}"##,
    );
    assert_eq!(field(&s, "T", "i").scalar, Some(Scalar::Numeric));
    assert_eq!(field(&s, "T", "ios").scalar, Some(Scalar::Untyped));
    assert_eq!(field(&s, "T", "b64").scalar, Some(Scalar::String));
    let labels = field(&s, "T", "labels");
    assert_eq!(
        labels.map_relationship(),
        Some(ElementRelationship::Separable)
    );
    let elem = s.resolve(&labels.map.unwrap().element_type).unwrap();
    assert_eq!(elem.scalar, Some(Scalar::String));
    assert_eq!(
        field(&s, "T", "atomicRef").map_relationship(),
        Some(ElementRelationship::Atomic)
    );
    let free = field(&s, "T", "free").map.unwrap();
    assert_eq!(free.element_type.named.as_deref(), Some(UNTYPED_DEDUCED));
    let any = field(&s, "T", "any");
    assert_eq!(any.scalar, Some(Scalar::Untyped));
    assert!(any.list.is_some() && any.map.is_some());
    let t = s.type_def(s.find("T").unwrap());
    assert_eq!(
        t.atom.map.as_ref().unwrap().element_relationship,
        ElementRelationship::Atomic
    );
    let q = s.type_def(s.find(QUANTITY).unwrap());
    assert_eq!(q.atom.scalar, Some(Scalar::Untyped));
}

#[test]
fn unions_sorted_and_errors_reported() {
    let s = convert(
        r##"{"definitions": {"U": {"type": "object", "properties": {"type": {"type": "string"}},
          "x-kubernetes-unions": [{"discriminator": "type",
            "fields-to-discriminateBy": {"z": "Z", "a": "A"}}]}}}"##,
    );
    let u = &s
        .type_def(s.find("U").unwrap())
        .atom
        .map
        .as_ref()
        .unwrap()
        .unions[0];
    assert_eq!(u.discriminator.as_deref(), Some("type"));
    let names: Vec<_> = u.fields.iter().map(|f| f.field_name.as_str()).collect();
    assert_eq!(names, ["a", "z"]);

    let doc = crate::value::from_json_str(
        r##"{"definitions": {"B": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-list-type": "map"}}}"##,
    )
    .unwrap();
    let err = convert_definitions(
        document_definitions(&doc).unwrap(),
        ConvertOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err, SchemaError::Invalid("B: missing map keys".into()));
}
