//! The CEL types of a CRD schema's nodes as the API server declares them to the checker
//! (k8s.io/apiserver `pkg/cel/common/schemas.go` `SchemaDeclType`, apiextensions
//! `pkg/apiserver/schema/cel/model/schemas.go` `WithTypeAndObjectMeta`), as far as kssa's
//! checker tracks them.

use super::cel_values::escape;
use crate::value::Value;
use kube_cel::cel::common::ast::LiteralValue;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The CEL type of a schema node as far as the checker tracks it
/// (`k8s.io/apiserver/pkg/cel/common` `SchemaDeclType`).
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// Unknown or dynamic: nothing is reported below it.
    Dyn,
    /// An object with properties: its (escaped) fields, shared (every rule of a node, and every
    /// field selection, takes a copy of a type that may hold a whole schema).
    Object(Arc<BTreeMap<String, Ty>>),
    Map(Box<Ty>),
    List(Box<Ty>),
    Scalar(Scalar),
    Optional(Box<Ty>),
    /// A library's object type (the admission `authorizer`): the checker gives up on field
    /// selections, indexes and ranges over it.
    Opaque,
}

impl Ty {
    /// An object type with `fields`.
    pub fn object(fields: impl IntoIterator<Item = (String, Ty)>) -> Ty {
        Ty::Object(Arc::new(fields.into_iter().collect()))
    }
}

/// The scalar types a schema declares (and literals have).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    Null,
}

impl Scalar {
    /// The type of a literal.
    pub fn of_literal(l: &LiteralValue) -> Scalar {
        match l {
            LiteralValue::Boolean(_) => Scalar::Bool,
            LiteralValue::Bytes(_) => Scalar::Bytes,
            LiteralValue::Double(_) => Scalar::Double,
            LiteralValue::Int(_) => Scalar::Int,
            LiteralValue::Null => Scalar::Null,
            LiteralValue::String(_) => Scalar::String,
            LiteralValue::UInt(_) => Scalar::Uint,
        }
    }

    /// cel-go's name of the type in its messages, where kssa is sure of it (not for durations
    /// and timestamps, whose names kssa's checker does not track).
    pub fn cel_name(self) -> Option<&'static str> {
        Some(match self {
            Scalar::Bool => "bool",
            Scalar::Int => "int",
            Scalar::Uint => "uint",
            Scalar::Double => "double",
            Scalar::String => "string",
            Scalar::Bytes => "bytes",
            Scalar::Null => "null_type",
            Scalar::Duration | Scalar::Timestamp => return None,
        })
    }
}

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

fn text<'v>(s: &'v Value, key: &str) -> &'v str {
    s.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `SchemaDeclType` of a structural schema node (`resource_root` for a resource's root and
/// embedded resources: `WithTypeAndObjectMeta`); `None` where the server declares no type.
/// Objects that keep unknown fields or have `additionalProperties` are `Dyn`/maps: the checker
/// only reports undefined fields where the schema is closed.
pub fn decl_type(s: &Value, resource_root: bool) -> Option<Ty> {
    if flag(s, "x-kubernetes-int-or-string") {
        return Some(Ty::Dyn);
    }
    let ty = match text(s, "type") {
        "array" => Ty::List(Box::new(decl_type(
            s.get("items")?,
            flag(s.get("items")?, "x-kubernetes-embedded-resource"),
        )?)),
        "object" => {
            if let Some(a) = s
                .get("additionalProperties")
                .filter(|a| a.as_map().is_some())
            {
                return Some(Ty::Map(Box::new(decl_type(
                    a,
                    flag(a, "x-kubernetes-embedded-resource"),
                )?)));
            }
            if s.get("additionalProperties").is_some()
                || flag(s, "x-kubernetes-preserve-unknown-fields")
            {
                return Some(Ty::Dyn);
            }
            let mut fields = BTreeMap::new();
            let props = s.get("properties").and_then(Value::as_map);
            for (name, p) in props.into_iter().flat_map(|m| m.iter()) {
                let embedded = flag(p, "x-kubernetes-embedded-resource");
                if let (Some(t), Some(n)) = (decl_type(p, embedded), escape(name)) {
                    fields.insert(n, t);
                }
            }
            if resource_root {
                with_type_and_object_meta(s, &mut fields);
            }
            Ty::object(fields)
        }
        "string" => Ty::Scalar(match text(s, "format") {
            "byte" => Scalar::Bytes,
            "duration" => Scalar::Duration,
            "date" | "date-time" => Scalar::Timestamp,
            _ => Scalar::String,
        }),
        "boolean" => Ty::Scalar(Scalar::Bool),
        "number" => Ty::Scalar(Scalar::Double),
        "integer" => Ty::Scalar(Scalar::Int),
        _ => return None,
    };
    Some(ty)
}

/// Whether the schema already declares `kind`, `apiVersion`, `metadata.name` and
/// `metadata.generateName` with their types (`WithTypeAndObjectMeta` keeps it as it is then).
pub(super) fn declares_type_and_object_meta(s: &Value) -> bool {
    let prop_type = |path: &[&str]| {
        let mut node = s;
        for p in path {
            node = match node.get("properties").and_then(|m| m.get(p)) {
                Some(n) => n,
                None => return "",
            };
        }
        text(node, "type")
    };
    prop_type(&["kind"]) == "string"
        && prop_type(&["apiVersion"]) == "string"
        && prop_type(&["metadata"]) == "object"
        && prop_type(&["metadata", "name"]) == "string"
        && prop_type(&["metadata", "generateName"]) == "string"
}

/// `WithTypeAndObjectMeta`: `kind`, `apiVersion`, and `metadata` with only `name` and
/// `generateName`, unless the schema already declares all of them as strings.
fn with_type_and_object_meta(s: &Value, fields: &mut BTreeMap<String, Ty>) {
    if declares_type_and_object_meta(s) {
        return;
    }
    let string = Ty::Scalar(Scalar::String);
    fields.insert("kind".into(), string.clone());
    fields.insert("apiVersion".into(), string.clone());
    let meta = [("name", string.clone()), ("generateName", string)];
    fields.insert(
        "metadata".into(),
        Ty::object(meta.into_iter().map(|(k, v)| (k.to_string(), v))),
    );
}
