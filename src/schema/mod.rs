//! The type topology that drives merging, modelled on structured-merge-diff's schema: named
//! types made of atoms (scalar, list, map), element relationships, list keys and key defaults.
//!
//! Named references are resolved to indexes once, when the schema is built, so lookups in the
//! hot paths never hash type names.

pub mod builtin;
pub mod crd;
pub mod generate;
pub mod openapi;
mod smd_yaml;
mod topology;

use crate::names::NameIndex;
use crate::value::Value;
use std::collections::HashMap;

pub use smd_yaml::{parse_smd_schema, parse_smd_schema_value};

/// Name of the type that treats everything below it as one atomic value.
pub const UNTYPED_ATOMIC: &str = "__untyped_atomic_";
/// Name of the type that deduces structure: maps granular, lists atomic.
pub const UNTYPED_DEDUCED: &str = "__untyped_deduced_";

/// Index of a type definition in its [`Schema`].
pub type TypeId = usize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Numeric,
    String,
    Boolean,
    Untyped,
}

/// How the elements of a list or map relate to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementRelationship {
    /// The container is one value: owned and replaced as a whole.
    Atomic,
    /// List items are identified by keys (or by value for scalar lists).
    Associative,
    /// Map fields are owned and merged one by one.
    Separable,
}

/// A reference to a type: a named type or an inline atom, optionally overriding the element
/// relationship of the atom it resolves to.
#[derive(Debug, Clone, Default)]
pub struct TypeRef {
    pub named: Option<String>,
    pub(crate) named_id: Option<TypeId>,
    pub inlined: Atom,
    pub element_relationship: Option<ElementRelationship>,
}

/// A type: any combination of scalar, list and map shapes (a value may take any of them).
#[derive(Debug, Clone, Default)]
pub struct Atom {
    pub scalar: Option<Scalar>,
    pub list: Option<Box<ListType>>,
    pub map: Option<Box<MapType>>,
}

#[derive(Debug, Clone)]
pub struct ListType {
    pub element_type: TypeRef,
    pub element_relationship: ElementRelationship,
    pub keys: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct MapType {
    pub fields: Vec<StructField>,
    pub unions: Vec<Union>,
    pub element_type: TypeRef,
    pub element_relationship: ElementRelationship,
    /// (hash of the name, index into `fields`), sorted: a lookup is one hash and a binary
    /// search over integers, and building it clones no name (schemas are built at every start).
    field_index: NameIndex,
}

impl MapType {
    pub fn new(
        fields: Vec<StructField>,
        unions: Vec<Union>,
        element_type: TypeRef,
        element_relationship: ElementRelationship,
    ) -> MapType {
        let field_index = NameIndex::new(fields.iter().map(|f| f.name.as_str()));
        MapType {
            fields,
            unions,
            element_type,
            element_relationship,
            field_index,
        }
    }

    pub fn field(&self, name: &str) -> Option<&StructField> {
        let i = self.field_index.find(name, |i| &self.fields[i].name)?;
        Some(&self.fields[i])
    }

    /// The type of the value under `name`: the struct field's, else the element type.
    pub fn type_of(&self, name: &str) -> &TypeRef {
        self.field(name)
            .map(|f| &f.type_ref)
            .unwrap_or(&self.element_type)
    }
}

#[derive(Debug, Clone)]
pub struct StructField {
    pub name: String,
    pub type_ref: TypeRef,
    /// Used to complete list keys that an item omits.
    pub default: Option<Value>,
    /// Strategic-merge-patch metadata (`x-kubernetes-patch-strategy`/`-patch-merge-key`).
    pub patch: Option<PatchMeta>,
}

/// How strategic merge patch treats a field; not used by server-side apply itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatchMeta {
    /// Comma-separated strategies as written in the spec: `merge`, `retainKeys`, `replace`.
    pub strategy: String,
    pub merge_key: Option<String>,
}

/// A "one of" group of fields (KEP-1027).
#[derive(Debug, Clone, Default)]
pub struct Union {
    pub discriminator: Option<String>,
    pub deduce_invalid_discriminator: bool,
    pub fields: Vec<UnionField>,
}

#[derive(Debug, Clone)]
pub struct UnionField {
    pub field_name: String,
    pub discriminator_value: String,
}

/// What the API serves for one group/version/kind, and the type describing its objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindInfo {
    /// Empty for the core group.
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The schema type of the kind's objects.
    pub type_name: String,
    /// The resource name in URLs; `None` when the kind is not served as a resource (options,
    /// reviews, events of a watch).
    pub plural: Option<String>,
    pub namespaced: bool,
    pub has_status_subresource: bool,
    /// Served by a CustomResourceDefinition. Its type name may still begin `io.k8s.` (the
    /// group `gateway.networking.k8s.io` reversed), so only this tells it from a built-in.
    pub custom_resource: bool,
}

/// The packages of Kubernetes' own OpenAPI definitions.
const BUILTIN_TYPE_PREFIXES: &[&str] = &[
    "io.k8s.api.",
    "io.k8s.apimachinery.",
    "io.k8s.apiextensions-apiserver.",
    "io.k8s.kube-aggregator.",
];

impl KindInfo {
    /// Whether the kind is one of Kubernetes' built-in types (not a custom resource, even
    /// one whose group ends in `k8s.io`).
    pub fn is_builtin(&self) -> bool {
        !self.custom_resource
            && BUILTIN_TYPE_PREFIXES
                .iter()
                .any(|p| self.type_name.starts_with(p))
    }
}

#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    pub atom: Atom,
}

/// A set of named types with references resolved.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    types: Vec<TypeDef>,
    index: HashMap<String, TypeId>,
}

/// What a [`TypeRef`] resolves to, borrowed from the schema, with the reference's element
/// relationship override applied on read.
#[derive(Debug, Clone, Copy)]
pub struct Resolved<'a> {
    pub scalar: Option<Scalar>,
    pub list: Option<&'a ListType>,
    pub map: Option<&'a MapType>,
    relationship_override: Option<ElementRelationship>,
}

impl<'a> Resolved<'a> {
    pub fn list_relationship(&self) -> Option<ElementRelationship> {
        self.list
            .map(|l| self.relationship_override.unwrap_or(l.element_relationship))
    }

    pub fn map_relationship(&self) -> Option<ElementRelationship> {
        self.map
            .map(|m| self.relationship_override.unwrap_or(m.element_relationship))
    }
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum SchemaError {
    #[error("no type found matching: {0}")]
    UnknownType(String),
    #[error("invalid schema: {0}")]
    Invalid(String),
}

impl Schema {
    /// Builds a schema, resolving every named reference.
    pub fn new(types: Vec<TypeDef>) -> Schema {
        let index = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let mut schema = Schema { types, index };
        let index = schema.index.clone();
        for t in &mut schema.types {
            link_atom(&mut t.atom, &index);
        }
        schema
    }

    /// The deduced schema: maps granular, lists atomic, everything else an untyped scalar.
    pub fn deduced() -> Schema {
        Schema::new(untyped_types())
    }

    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    pub fn find(&self, name: &str) -> Option<TypeId> {
        self.index.get(name).copied()
    }

    pub fn type_def(&self, id: TypeId) -> &TypeDef {
        &self.types[id]
    }

    /// A reference to the named type, checked.
    pub fn type_ref(&self, name: &str) -> Result<TypeRef, SchemaError> {
        let id = self
            .find(name)
            .ok_or_else(|| SchemaError::UnknownType(name.to_string()))?;
        Ok(TypeRef {
            named: Some(name.to_string()),
            named_id: Some(id),
            ..TypeRef::default()
        })
    }

    /// Resolves a reference; `None` when it names a type this schema lacks.
    pub fn resolve<'a>(&'a self, tr: &'a TypeRef) -> Option<Resolved<'a>> {
        let atom = match (&tr.named, tr.named_id) {
            (_, Some(id)) => &self.types[id].atom,
            (Some(name), None) => &self.types[*self.index.get(name)?].atom,
            (None, None) => &tr.inlined,
        };
        // An element relationship only makes sense on a container.
        if tr.element_relationship.is_some() && atom.list.is_none() && atom.map.is_none() {
            return None;
        }
        Some(Resolved {
            scalar: atom.scalar,
            list: atom.list.as_deref(),
            map: atom.map.as_deref(),
            relationship_override: tr.element_relationship,
        })
    }

    /// Adds types that are not defined yet (the untyped helpers, for instance).
    pub fn with_types_added(mut self, extra: Vec<TypeDef>) -> Schema {
        for t in extra {
            if !self.index.contains_key(&t.name) {
                self.types.push(t);
            }
        }
        Schema::new(self.types)
    }
}

fn link_ref(tr: &mut TypeRef, index: &HashMap<String, TypeId>) {
    match &tr.named {
        Some(name) => tr.named_id = index.get(name).copied(),
        None => link_atom(&mut tr.inlined, index),
    }
}

fn link_atom(atom: &mut Atom, index: &HashMap<String, TypeId>) {
    if let Some(list) = &mut atom.list {
        link_ref(&mut list.element_type, index);
    }
    if let Some(map) = &mut atom.map {
        for f in &mut map.fields {
            link_ref(&mut f.type_ref, index);
        }
        link_ref(&mut map.element_type, index);
    }
}

impl TypeRef {
    pub fn named(name: &str) -> TypeRef {
        TypeRef {
            named: Some(name.to_string()),
            ..TypeRef::default()
        }
    }

    pub fn inline(atom: Atom) -> TypeRef {
        TypeRef {
            inlined: atom,
            ..TypeRef::default()
        }
    }
}

/// The two untyped helper types every schema carries, as the reference's converters add them.
pub fn untyped_types() -> Vec<TypeDef> {
    let untyped = |list_elem: &str, map_elem: &str, map_rel| Atom {
        scalar: Some(Scalar::Untyped),
        list: Some(Box::new(ListType {
            element_type: TypeRef::named(list_elem),
            element_relationship: ElementRelationship::Atomic,
            keys: Vec::new(),
        })),
        map: Some(Box::new(MapType::new(
            Vec::new(),
            Vec::new(),
            TypeRef::named(map_elem),
            map_rel,
        ))),
    };
    vec![
        TypeDef {
            name: UNTYPED_ATOMIC.to_string(),
            atom: untyped(UNTYPED_ATOMIC, UNTYPED_ATOMIC, ElementRelationship::Atomic),
        },
        TypeDef {
            name: UNTYPED_DEDUCED.to_string(),
            atom: untyped(
                UNTYPED_ATOMIC,
                UNTYPED_DEDUCED,
                ElementRelationship::Separable,
            ),
        },
    ]
}
