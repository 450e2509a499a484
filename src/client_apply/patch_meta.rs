//! The three places `kubectl apply` looks patch metadata up in, in its order
//! (kubectl pkg/cmd/apply/patcher.go `patchSimple`): the server's OpenAPI v3 document
//! (`strategicpatch.PatchMetaFromOpenAPIV3`), its OpenAPI v2 document (`PatchMetaFromOpenAPI`,
//! strategicpatch/types.go `kindItem`/`sliceItem`), and kubectl's built-in Go types
//! (`PatchMetaFromStruct`, forked encoding/json `LookupPatchMetadataForStruct`).
//!
//! All three read the same `x-kubernetes-patch-strategy`/`-merge-key` values, so a patch they
//! all compute is the same; they differ in which shapes they refuse, and in the words they
//! refuse them with. Each is modelled over kssa's schema of the kind.

use crate::patch::{FieldPatchMeta, PatchMetaLookup};
use crate::schema::{Resolved, Scalar, Schema, TypeRef};

/// Where the metadata comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaSource {
    /// OpenAPI v3: a field is found only among a schema's `properties`.
    OpenApiV3,
    /// OpenAPI v2 (proto models): maps, arrays and primitives are told apart from kinds.
    OpenApiV2,
    /// kubectl's Go structs.
    GoStruct,
}

/// A position in the schema as one [`MetaSource`] sees it.
#[derive(Debug, Clone, Copy)]
pub struct KubectlPatchMeta<'a> {
    schema: &'a Schema,
    type_ref: &'a TypeRef,
    source: MetaSource,
}

/// The shape of a schema type, as the lookups distinguish them.
enum Shape<'a> {
    /// An object with named fields (a Go struct, an OpenAPI kind).
    Struct(&'a crate::schema::MapType),
    /// An object of arbitrary keys (`additionalProperties`, a Go map).
    Map,
    List(&'a TypeRef),
    /// A value of any shape (`x-kubernetes-preserve-unknown-fields`, `RawExtension`).
    Arbitrary,
    Primitive(Scalar),
}

impl<'a> KubectlPatchMeta<'a> {
    pub fn new(schema: &'a Schema, type_ref: &'a TypeRef, source: MetaSource) -> Self {
        KubectlPatchMeta {
            schema,
            type_ref,
            source,
        }
    }

    fn at(&self, type_ref: &'a TypeRef) -> Self {
        KubectlPatchMeta { type_ref, ..*self }
    }

    fn shape(&self) -> Shape<'a> {
        let Some(Resolved {
            scalar, list, map, ..
        }) = self.schema.resolve(self.type_ref)
        else {
            return Shape::Arbitrary;
        };
        match (map, list, scalar) {
            (Some(m), _, _) if !m.fields.is_empty() => Shape::Struct(m),
            (Some(_), _, _) => Shape::Map,
            (None, Some(l), _) => Shape::List(&l.element_type),
            (None, None, Some(Scalar::Untyped)) | (None, None, None) => Shape::Arbitrary,
            (None, None, Some(s)) => Shape::Primitive(s),
        }
    }

    /// The Go type name (`PodSpec`) or definition name, for messages.
    fn type_name(&self) -> String {
        self.type_ref
            .named
            .as_deref()
            .map(|n| n.rsplit('.').next().unwrap_or(n).to_string())
            .unwrap_or_default()
    }

    fn go_kind(shape: &Shape) -> &'static str {
        match shape {
            Shape::Struct(_) | Shape::Arbitrary => "struct",
            Shape::Map => "map",
            Shape::List(_) => "slice",
            Shape::Primitive(Scalar::Boolean) => "bool",
            Shape::Primitive(Scalar::Numeric) => "int64",
            Shape::Primitive(_) => "string",
        }
    }

    /// The field of a struct and its metadata, or the source's refusal.
    fn field(&self, field: &str) -> Result<Option<(&'a TypeRef, FieldPatchMeta)>, String> {
        let shape = self.shape();
        let found = |m: &'a crate::schema::MapType| {
            m.field(field).map(|f| {
                let meta = f
                    .patch
                    .as_ref()
                    .map(|p| {
                        FieldPatchMeta::new(
                            Some(p.strategy.as_str()).filter(|s| !s.is_empty()),
                            p.merge_key.as_deref(),
                        )
                    })
                    .unwrap_or_default();
                (&f.type_ref, meta)
            })
        };
        match (self.source, shape) {
            (_, Shape::Struct(m)) => match found(m) {
                Some(f) => Ok(Some(f)),
                None => Err(match self.source {
                    MetaSource::OpenApiV3 => format!("unable to find api field {field:?}"),
                    MetaSource::OpenApiV2 => {
                        format!(
                            "unable to find api field {field:?} in {}",
                            self.type_ref.named.as_deref().unwrap_or("")
                        )
                    }
                    MetaSource::GoStruct => format!(
                        "unable to find api field in struct {} for the json field {field:?}",
                        self.type_name()
                    ),
                }),
            },
            (MetaSource::OpenApiV3, _) => Err(format!("unable to find api field {field:?}")),
            (MetaSource::OpenApiV2, Shape::Arbitrary) => Ok(None),
            (MetaSource::OpenApiV2, Shape::Map) => Err("expected kind, but got map".into()),
            (MetaSource::OpenApiV2, Shape::List(_)) => Err("expected kind, but got slice".into()),
            (MetaSource::OpenApiV2, _) => Err("expected kind, but got primitive".into()),
            (MetaSource::GoStruct, shape) => Err(format!(
                "merging an object in json but data type is not struct, instead is: {}",
                Self::go_kind(&shape)
            )),
        }
    }
}

impl PatchMetaLookup for KubectlPatchMeta<'_> {
    fn lookup_map_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        Ok(match self.field(field)? {
            Some((tr, meta)) => (Some(self.at(tr)), meta),
            None => (None, FieldPatchMeta::default()),
        })
    }

    fn lookup_list_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        let Some((tr, meta)) = self.field(field)? else {
            return Ok((None, FieldPatchMeta::default()));
        };
        let field_type = self.at(tr);
        let element = match (self.source, field_type.shape()) {
            (_, Shape::List(element)) => element,
            // OpenAPI v3 keeps the field's own schema when it has no `items`.
            (MetaSource::OpenApiV3, _) => tr,
            (MetaSource::OpenApiV2, Shape::Struct(_) | Shape::Arbitrary) => tr,
            (MetaSource::OpenApiV2, Shape::Map) => return Err("expected slice, but got map".into()),
            (MetaSource::OpenApiV2, _) => return Err("expected slice, but got primitive".into()),
            (MetaSource::GoStruct, _) => {
                return Err("expected slice or array type, but got: struct".into())
            }
        };
        Ok((Some(self.at(element)), meta))
    }

    fn name(&self) -> String {
        match (self.source, self.shape()) {
            (MetaSource::OpenApiV3, Shape::List(_)) => "array".into(),
            (MetaSource::OpenApiV3, Shape::Primitive(Scalar::String)) => "string".into(),
            (MetaSource::OpenApiV3, _) => "object".into(),
            (MetaSource::OpenApiV2, _) => self.type_ref.named.clone().unwrap_or_default(),
            (MetaSource::GoStruct, shape) => Self::go_kind(&shape).into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::SchemaRegistry;

    /// CRD schemas nest `properties`, a map of schemas: a changed property can only be looked
    /// up through the map, which each source refuses in its own words.
    #[test]
    fn each_source_refuses_a_map_of_objects_in_its_own_words() {
        let k = SchemaRegistry::new()
            .resolve("apiextensions.k8s.io/v1", "CustomResourceDefinition")
            .unwrap();
        let refusal = |source| {
            let root = KubectlPatchMeta::new(&k.schema, &k.type_ref, source);
            let (spec, _) = root.lookup_map_field("spec").unwrap();
            let (version, meta) = spec.unwrap().lookup_list_field("versions").unwrap();
            assert_eq!(meta.merge_key, None);
            let (schema, _) = version.unwrap().lookup_map_field("schema").unwrap();
            let (v3, _) = schema.unwrap().lookup_map_field("openAPIV3Schema").unwrap();
            let (props, _) = v3.unwrap().lookup_map_field("properties").unwrap();
            props.unwrap().lookup_map_field("spec").unwrap_err()
        };
        assert_eq!(
            refusal(MetaSource::OpenApiV3),
            "unable to find api field \"spec\""
        );
        assert_eq!(refusal(MetaSource::OpenApiV2), "expected kind, but got map");
        assert_eq!(
            refusal(MetaSource::GoStruct),
            "merging an object in json but data type is not struct, instead is: map"
        );
    }

    #[test]
    fn merge_keys_come_from_the_schema() {
        let k = SchemaRegistry::new().resolve("v1", "Pod").unwrap();
        let root = KubectlPatchMeta::new(&k.schema, &k.type_ref, MetaSource::OpenApiV3);
        let (spec, _) = root.lookup_map_field("spec").unwrap();
        let (_, meta) = spec.unwrap().lookup_list_field("containers").unwrap();
        assert_eq!(meta.merge_key.as_deref(), Some("name"));
        assert_eq!(meta.strategies, vec!["merge".to_string()]);
        assert!(root.lookup_map_field("nope").is_err());
    }
}
