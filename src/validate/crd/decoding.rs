//! What the server's decoder finds in the body of a custom resource write (a PUT or POST;
//! an apply goes through the field manager instead), before the field manager and validation
//! run: apiextensions-apiserver `pkg/apiserver/customresource_handler.go`,
//! `schemaCoercingDecoder.Decode` and `unstructuredSchemaCoercer.apply`. In its order:
//!
//! 1. the root `metadata`, decoded as an `ObjectMeta` (`objectmeta.GetObjectMetaWithOptions`):
//!    a value of the wrong type ends decoding; fields ObjectMeta does not declare are unknown
//!    (strictly decoded only when the request's field validation is strict or warn);
//! 2. the fields pruning removes (`pruning.PruneWithOptions`): fields no schema node declares,
//!    outside `x-kubernetes-preserve-unknown-fields`, paths sorted as strings, map keys joined
//!    with `.`; skipped when the CRD sets `spec.preserveUnknownFields`;
//! 3. embedded resources (`objectmeta.CoerceWithOptions`): `apiVersion` and `kind` must be
//!    strings, `metadata` decodes as an `ObjectMeta` (the first failure ends decoding), and
//!    the unknown fields of those `metadata`, sorted.
//!
//! Unknown fields are named only under strict or warn field validation (`returnUnknownFieldPaths`
//! follows the serializer's strictness); they become the request's strict decoding error, or its
//! warnings.

use super::schema::SchemaNode;
use crate::validate::decode::walk::{self, Decoder};
use crate::validate::field::{BadValue, FieldError};
use crate::value::Value;

/// Why the decoder refuses the body, as the error text `transformDecodeError` quotes.
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeFailure {
    /// A root `metadata` value of the wrong type: the JSON decoder's message, and where.
    Metadata(walk::Failure),
    /// An embedded resource's field error (`spec.template.kind: Invalid value: 5: must be a
    /// string`), worded per version by the caller.
    Embedded(FieldError),
}

/// What decoding a custom resource's body found.
#[derive(Debug, Default)]
pub struct Decoded {
    pub failure: Option<DecodeFailure>,
    /// The unknown fields, in the order the server lists them.
    pub unknown: Vec<String>,
}

/// Decodes `body` against its CRD version's `schema`; `prune` is false when the CRD sets
/// `spec.preserveUnknownFields`; `strict` when unknown fields are collected.
pub fn decode(schema: &SchemaNode, prune: bool, strict: bool, body: &Value) -> Decoded {
    let mut decoded = Decoded::default();
    if let Some(meta) = body.get("metadata") {
        let outcome = object_meta(meta, "metadata", strict);
        if let Some(failure) = outcome.failure {
            decoded.failure = Some(DecodeFailure::Metadata(failure));
            return decoded;
        }
        decoded.unknown.extend(outcome.unknown);
    }
    // Without strict decoding the pruned fields are dropped unnamed.
    if prune && strict {
        let mut pruned = Vec::new();
        prune_fields(body, Some(schema), true, &mut String::new(), &mut pruned);
        pruned.sort_unstable();
        decoded.unknown.extend(pruned);
    }
    let mut embedded = Vec::new();
    if let Err(e) = coerce(body, schema, "", strict, &mut embedded) {
        decoded.failure = Some(DecodeFailure::Embedded(e));
        return decoded;
    }
    embedded.sort_unstable();
    decoded.unknown.extend(embedded);
    decoded
}

/// `metadata` at `path` decoded as `meta/v1.ObjectMeta`.
fn object_meta(meta: &Value, path: &str, strict: bool) -> walk::Outcome {
    walk::decode_named("meta/v1.ObjectMeta", meta, Decoder::Json { strict }, path)
        .unwrap_or_default()
}

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

fn record(path: &str, key: &str, unknown: &mut Vec<String>) {
    let mut p = path.to_string();
    push_key(&mut p, key);
    unknown.push(p);
}

/// `prune`: `schema` is `None` below a node that declares nothing there (every field of a map
/// is then unknown); the resource root keeps its type and object metadata (`embedded`).
fn prune_fields(
    v: &Value,
    schema: Option<&SchemaNode>,
    embedded: bool,
    path: &mut String,
    unknown: &mut Vec<String>,
) {
    if let Some(s) = schema.filter(|s| s.preserve_unknown_fields) {
        return keep_unknown(v, s, embedded, path, unknown);
    }
    let len = path.len();
    match v {
        Value::Map(m) => {
            let Some(s) = schema else {
                m.keys().for_each(|k| record(path, k, unknown));
                return;
            };
            for (k, item) in m.iter() {
                if (embedded || s.embedded_resource) && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                match child_schema(s, k) {
                    Some(child) => {
                        push_key(path, k);
                        prune_fields(item, child, false, path, unknown);
                        path.truncate(len);
                    }
                    None => record(path, k, unknown),
                }
            }
        }
        Value::List(items) => {
            let item_schema = schema.and_then(|s| s.items.as_deref());
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                prune_fields(item, item_schema, false, path, unknown);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// `skipPrune`: a node keeping unknown fields still prunes below the fields it declares.
fn keep_unknown(
    v: &Value,
    s: &SchemaNode,
    embedded: bool,
    path: &mut String,
    unknown: &mut Vec<String>,
) {
    let len = path.len();
    match v {
        Value::Map(m) => {
            for (k, item) in m.iter() {
                if (embedded || s.embedded_resource) && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(child) = child_schema(s, k) {
                    push_key(path, k);
                    prune_fields(item, child, false, path, unknown);
                    path.truncate(len);
                }
            }
        }
        Value::List(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    path.push_str(&format!("[{i}]"));
                    keep_unknown(item, item_schema, false, path, unknown);
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
}

/// The schema a map's field `key` is pruned with: `Some(None)` for `additionalProperties:
/// true` (a schema-less map value: every field below it is unknown), `None` when the field is
/// not declared at all.
fn child_schema<'s>(s: &'s SchemaNode, key: &str) -> Option<Option<&'s SchemaNode>> {
    if let Some(property) = s.properties.get(key) {
        return Some(Some(property));
    }
    if let Some(additional) = s.additional_properties.as_deref() {
        return Some(Some(additional));
    }
    s.additional_properties_any.then_some(None)
}

/// `field.Path.Child`: `spec`, `spec.template`.
fn child_path(path: &str, key: &str) -> String {
    match path {
        "" => key.to_string(),
        _ => format!("{path}.{key}"),
    }
}

/// `coerce` over the embedded resources: paths are field paths (`spec.templates[web]` for a
/// map value); the first failure ends the walk.
fn coerce(
    v: &Value,
    s: &SchemaNode,
    path: &str,
    strict: bool,
    unknown: &mut Vec<String>,
) -> Result<(), FieldError> {
    match v {
        Value::Map(m) => {
            for (k, item) in m.iter() {
                if s.embedded_resource {
                    let child = child_path(path, k);
                    match k.as_str() {
                        "apiVersion" | "kind" if item.as_str().is_none() => {
                            return Err(FieldError::invalid(
                                child.clone(),
                                BadValue::Value(item.clone()),
                                "must be a string",
                            ));
                        }
                        "metadata" => {
                            let outcome = object_meta(item, &child, strict);
                            if let Some(failure) = outcome.failure {
                                return Err(FieldError::invalid(
                                    child.as_str(),
                                    BadValue::Value(item.clone()),
                                    failure.message,
                                ));
                            }
                            unknown.extend(outcome.unknown);
                        }
                        _ => {}
                    }
                }
                if let Some(property) = s.properties.get(k) {
                    coerce(item, property, &child_path(path, k), strict, unknown)?;
                } else if let Some(additional) = s.additional_properties.as_deref() {
                    let child = crate::validate::field::keyed(path, k);
                    coerce(item, additional, child.as_str(), strict, unknown)?;
                }
            }
        }
        Value::List(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    let child = crate::validate::field::indexed(path, i);
                    coerce(item, item_schema, child.as_str(), strict, unknown)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn schema(json: &str) -> SchemaNode {
        SchemaNode::parse(&from_json_str(json).unwrap())
    }

    fn body(json: &str) -> Value {
        from_json_str(json).unwrap()
    }

    const SCHEMA: &str = r#"{"type":"object","properties":{
        "spec":{"type":"object","properties":{
            "replicas":{"type":"integer"},
            "labels":{"type":"object","additionalProperties":{"type":"object","properties":{"a":{"type":"string"}}}},
            "ports":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
            "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"object","properties":{"x":{"type":"string"}}}}},
            "template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
            "any":{"type":"object","additionalProperties":true}
        }}}}"#;

    #[test]
    fn unknown_fields_are_listed_metadata_first_then_sorted() {
        let s = schema(SCHEMA);
        let b = body(
            r#"{"apiVersion":"x/v1","kind":"X","metadata":{"name":"a","zzz":1,"labels":{"k":"v"},"aaa":{}},
            "spec":{"replica":2,"replicas":1,"ports":[{"name":"a","nmae":"b"}],
                "labels":{"one":{"a":"x","b":"y"}},
                "extra":{"free":1,"known":{"x":"1","y":2}},
                "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","bogus":1},"spec":{"c":1},"status":{}},
                "any":{"k":{"deep":1},"s":"scalar"}},
            "status":{"x":1}}"#,
        );
        let decoded = decode(&s, true, true, &b);
        assert_eq!(decoded.failure, None);
        assert_eq!(
            decoded.unknown,
            [
                "metadata.aaa",
                "metadata.zzz",
                "spec.any.k.deep",
                "spec.extra.known.y",
                "spec.labels.one.b",
                "spec.ports[0].nmae",
                "spec.replica",
                "spec.template.spec.c",
                "spec.template.status",
                "status",
                "spec.template.metadata.bogus",
            ]
        );
    }

    #[test]
    fn a_crd_keeping_unknown_fields_prunes_nothing_but_metadata_is_still_decoded() {
        let s = schema(SCHEMA);
        let b = body(r#"{"metadata":{"name":"a","nmae":"b"},"spec":{"replica":2}}"#);
        assert_eq!(decode(&s, false, true, &b).unknown, ["metadata.nmae"]);
    }

    #[test]
    fn metadata_of_the_wrong_type_ends_decoding() {
        let s = schema(SCHEMA);
        let b = body(r#"{"metadata":{"name":"a","labels":{"k":5}},"spec":{"replica":2}}"#);
        let decoded = decode(&s, true, true, &b);
        let Some(DecodeFailure::Metadata(f)) = decoded.failure else {
            panic!("{decoded:?}")
        };
        assert_eq!(f.path, "metadata.labels.k");
        assert!(
            f.message.starts_with("json: cannot unmarshal number"),
            "{}",
            f.message
        );
        assert!(decoded.unknown.is_empty());
    }

    #[test]
    fn an_embedded_kind_that_is_no_string_ends_decoding() {
        let s = schema(SCHEMA);
        let b = body(r#"{"spec":{"template":{"kind":5}}}"#);
        let Some(DecodeFailure::Embedded(e)) = decode(&s, true, true, &b).failure else {
            panic!()
        };
        assert_eq!(e.field.as_str(), "spec.template.kind");
    }

    #[test]
    fn without_strict_decoding_no_field_is_named() {
        let s = schema(SCHEMA);
        let b = body(
            r#"{"metadata":{"name":"a","nmae":"b"},"spec":{"replica":2,"template":{"metadata":{"bogus":1}}}}"#,
        );
        assert!(decode(&s, true, false, &b).unknown.is_empty());
    }
}
