//! OpenAPI (v2 `definitions`, v3 `components.schemas`, CRD structural schemas) to the SMD type
//! model, following the rules of kube-openapi's `schemaconv`, which the API server uses.

use super::*;
use crate::value::Map;

/// The reference hard-codes these two as untyped scalars, whatever their OpenAPI says.
const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";
/// What `metadata` of a root or embedded resource refers to.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// Choices the API server makes differently for built-in types and custom resources.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConvertOptions {
    /// Every object keeps unknown fields (a CRD's `spec.preserveUnknownFields`).
    pub preserve_unknown_fields: bool,
    /// Give objects marked `x-kubernetes-embedded-resource` the `apiVersion`, `kind` and
    /// `metadata` (ObjectMeta) fields, as the CRD OpenAPI builder does.
    pub embedded_resources: bool,
}

/// The named definitions of an OpenAPI document: v2 `definitions`, v3 `components.schemas`, or
/// a JSON Schema's `$defs` (the per-version definitions the generator reads).
pub fn document_definitions(doc: &Value) -> Option<&Map> {
    doc.get("definitions")
        .or_else(|| doc.get_path(&["components", "schemas"]))
        .or_else(|| doc.get("$defs"))
        .and_then(Value::as_map)
}

/// Converts named OpenAPI schemas to type definitions, in the order given. Top-level
/// references are skipped; errors of all types are reported together.
pub fn convert_definitions(
    definitions: &Map,
    options: ConvertOptions,
) -> Result<Vec<TypeDef>, SchemaError> {
    let mut errors = Vec::new();
    let mut types = Vec::with_capacity(definitions.len());
    for (name, spec) in definitions {
        if spec.get("$ref").is_some() {
            continue;
        }
        let atom = convert_named(name, spec, options, &mut errors);
        types.push(TypeDef {
            name: name.clone(),
            atom,
        });
    }
    if errors.is_empty() {
        Ok(types)
    } else {
        Err(SchemaError::Invalid(errors.join("\n")))
    }
}

/// Converts one named schema.
pub fn convert_schema(
    name: &str,
    spec: &Value,
    options: ConvertOptions,
) -> Result<TypeDef, SchemaError> {
    let mut errors = Vec::new();
    let atom = convert_named(name, spec, options, &mut errors);
    match errors.is_empty() {
        true => Ok(TypeDef {
            name: name.to_string(),
            atom,
        }),
        false => Err(SchemaError::Invalid(errors.join("\n"))),
    }
}

fn convert_named(
    name: &str,
    spec: &Value,
    options: ConvertOptions,
    errors: &mut Vec<String>,
) -> Atom {
    if name == QUANTITY || name == RAW_EXTENSION {
        return Atom {
            scalar: Some(Scalar::Untyped),
            ..Atom::default()
        };
    }
    let mut c = Converter {
        at: name,
        options,
        errors,
    };
    c.visit(spec, options.preserve_unknown_fields)
}

struct Converter<'a> {
    at: &'a str,
    options: ConvertOptions,
    errors: &'a mut Vec<String>,
}

fn is_true(spec: &Value, ext: &str) -> bool {
    spec.get(ext).and_then(Value::as_bool) == Some(true)
}

/// The name a `$ref` (or a single-element `allOf` holding one) points at: its last segment.
fn ref_name(spec: &Value) -> Option<&str> {
    let r = spec.get("$ref").and_then(Value::as_str).or_else(|| {
        match spec
            .get("allOf")
            .and_then(Value::as_list)
            .map(Vec::as_slice)
        {
            Some([only]) => only.get("$ref").and_then(Value::as_str),
            _ => None,
        }
    })?;
    let name = r.rsplit('/').next().unwrap_or(r);
    (!name.is_empty()).then_some(name)
}

impl Converter<'_> {
    fn error(&mut self, msg: String) {
        self.errors.push(format!("{}: {msg}", self.at));
    }

    /// A schema's atom; `x-kubernetes-preserve-unknown-fields` holds for everything inline below.
    fn visit(&mut self, spec: &Value, preserve: bool) -> Atom {
        let preserve = preserve || is_true(spec, "x-kubernetes-preserve-unknown-fields");
        let typ = match spec.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::List(ts)) => ts.first().and_then(Value::as_str).unwrap_or(""),
            _ => "",
        };
        match typ {
            // No type accepts any value.
            "" => Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(Box::new(self.list(spec, preserve))),
                map: Some(Box::new(self.object(spec, preserve))),
            },
            "object" => Atom {
                map: Some(Box::new(self.object(spec, preserve))),
                ..Atom::default()
            },
            "array" => Atom {
                list: Some(Box::new(self.list(spec, preserve))),
                ..Atom::default()
            },
            "integer" | "number" => scalar(Scalar::Numeric),
            "boolean" => scalar(Scalar::Boolean),
            "string" => match spec.get("format").and_then(Value::as_str) {
                None | Some("") | Some("byte") => scalar(Scalar::String),
                // int-or-string, date-time and every other format.
                Some(_) => scalar(Scalar::Untyped),
            },
            other => {
                self.error(format!("unrecognized type: '{other}'"));
                scalar(Scalar::Untyped)
            }
        }
    }

    fn type_ref(&mut self, spec: &Value, preserve: bool) -> TypeRef {
        if let Some(name) = ref_name(spec) {
            return TypeRef {
                element_relationship: self.map_relationship(spec),
                ..TypeRef::named(name)
            };
        }
        TypeRef::inline(self.visit(spec, preserve))
    }

    fn map_relationship(&mut self, spec: &Value) -> Option<ElementRelationship> {
        match spec.get("x-kubernetes-map-type")?.as_str() {
            Some("atomic") => Some(ElementRelationship::Atomic),
            Some("granular") => Some(ElementRelationship::Separable),
            other => {
                self.error(format!("unknown map type {other:?}"));
                None
            }
        }
    }

    fn object(&mut self, spec: &Value, preserve: bool) -> MapType {
        let mut props: Vec<(&str, TypeRef, &Value)> = Vec::new();
        let empty = Map::default();
        let properties = spec
            .get("properties")
            .and_then(Value::as_map)
            .unwrap_or(&empty);
        for (name, member) in properties {
            props.push((name, self.type_ref(member, preserve), member));
        }
        let mut fields: Vec<StructField> = props
            .into_iter()
            .map(|(name, type_ref, member)| StructField {
                name: name.to_string(),
                type_ref,
                default: member.get("default").cloned(),
                patch: patch_meta(member),
            })
            .collect();
        if self.options.embedded_resources && is_true(spec, "x-kubernetes-embedded-resource") {
            set_resource_fields(&mut fields);
        }
        fields.sort_by(|a, b| a.name.cmp(&b.name));

        let element_type = match spec.get("additionalProperties") {
            // An object without properties is free-form.
            None if preserve || properties.is_empty() => TypeRef::named(UNTYPED_DEDUCED),
            None | Some(Value::Bool(false)) => TypeRef::default(),
            Some(Value::Bool(true)) => TypeRef::named(UNTYPED_DEDUCED),
            Some(schema) => self.type_ref(schema, preserve),
        };
        let unions = self.unions(spec);
        let relationship = self
            .map_relationship(spec)
            .unwrap_or(ElementRelationship::Separable);
        MapType::new(fields, unions, element_type, relationship)
    }

    fn list(&mut self, spec: &Value, preserve: bool) -> ListType {
        let (element_relationship, keys) = self.list_relationship(spec);
        let element_type = match spec.get("items") {
            Some(items @ Value::Map(_)) => self.type_ref(items, preserve),
            Some(_) => {
                self.error("structural schema arrays must have exactly one member subtype".into());
                TypeRef::named(UNTYPED_DEDUCED)
            }
            None => {
                if spec.get("type").is_some_and(|t| t.as_str() != Some("")) {
                    self.error("`items` must be specified on arrays".into());
                }
                TypeRef::named(UNTYPED_ATOMIC)
            }
        };
        ListType {
            element_type,
            element_relationship,
            keys,
        }
    }

    fn list_relationship(&mut self, spec: &Value) -> (ElementRelationship, Vec<String>) {
        use ElementRelationship::*;
        if let Some(list_type) = spec.get("x-kubernetes-list-type") {
            return match list_type.as_str() {
                Some("atomic") => (Atomic, Vec::new()),
                Some("set") => (Associative, Vec::new()),
                Some("map") => match spec.get("x-kubernetes-list-map-keys") {
                    Some(Value::List(keys)) => (
                        Associative,
                        keys.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect(),
                    ),
                    Some(other) => {
                        self.error(format!("uninterpreted map keys: {other:?}"));
                        (Associative, Vec::new())
                    }
                    None => {
                        self.error("missing map keys".into());
                        (Associative, Vec::new())
                    }
                },
                other => {
                    self.error(format!("unknown list type {other:?}"));
                    (Atomic, Vec::new())
                }
            };
        }
        match spec.get("x-kubernetes-patch-strategy").map(Value::as_str) {
            None => (Atomic, Vec::new()),
            Some(Some("merge" | "merge,retainKeys")) => {
                match spec.get("x-kubernetes-patch-merge-key").map(Value::as_str) {
                    Some(Some(key)) => (Associative, vec![key.to_string()]),
                    Some(None) => {
                        self.error("uninterpreted merge key".into());
                        (Associative, Vec::new())
                    }
                    // Without a merge key the list is a set.
                    None => (Associative, Vec::new()),
                }
            }
            Some(Some("retainKeys")) => (Atomic, Vec::new()),
            Some(other) => {
                self.error(format!("unknown patch strategy {other:?}"));
                (Atomic, Vec::new())
            }
        }
    }

    fn unions(&mut self, spec: &Value) -> Vec<Union> {
        let Some(raw) = spec.get("x-kubernetes-unions") else {
            return Vec::new();
        };
        match parse_unions(raw) {
            Ok(unions) => unions,
            Err(msg) => {
                self.error(msg);
                Vec::new()
            }
        }
    }
}

fn scalar(s: Scalar) -> Atom {
    Atom {
        scalar: Some(s),
        ..Atom::default()
    }
}

fn patch_meta(member: &Value) -> Option<PatchMeta> {
    let strategy = member
        .get("x-kubernetes-patch-strategy")
        .and_then(Value::as_str);
    let merge_key = member
        .get("x-kubernetes-patch-merge-key")
        .and_then(Value::as_str);
    if strategy.is_none() && merge_key.is_none() {
        return None;
    }
    Some(PatchMeta {
        strategy: strategy.unwrap_or_default().to_string(),
        merge_key: merge_key.map(str::to_string),
    })
}

/// `apiVersion`, `kind` and `metadata` as the API server gives every resource, replacing
/// whatever the schema said about them.
pub(crate) fn set_resource_fields(fields: &mut Vec<StructField>) {
    fields.retain(|f| !matches!(f.name.as_str(), "apiVersion" | "kind" | "metadata"));
    let field = |name: &str, type_ref| StructField {
        name: name.to_string(),
        type_ref,
        default: None,
        patch: None,
    };
    fields.push(field("apiVersion", TypeRef::inline(scalar(Scalar::String))));
    fields.push(field("kind", TypeRef::inline(scalar(Scalar::String))));
    fields.push(field("metadata", TypeRef::named(OBJECT_META)));
}

/// `x-kubernetes-unions`: a list of `{discriminator, fields-to-discriminateBy}`.
fn parse_unions(raw: &Value) -> Result<Vec<Union>, String> {
    let items = raw
        .as_list()
        .ok_or_else(|| "\"x-kubernetes-unions\" should be a list".to_string())?;
    let mut unions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in items {
        let item = item
            .as_map()
            .ok_or_else(|| "\"x-kubernetes-unions\" items should be maps".to_string())?;
        let discriminator = match item.get("discriminator") {
            None => None,
            Some(Value::String(d)) => Some(d.clone()),
            Some(_) => return Err("\"discriminator\" must be a string".into()),
        };
        let mut fields = Vec::new();
        if let Some(by) = item.get("fields-to-discriminateBy") {
            let by = by.as_map().ok_or_else(|| {
                "\"fields-to-discriminateBy\" must be a map[string]string".to_string()
            })?;
            let mut names: Vec<&String> = by.keys().collect();
            names.sort();
            let mut values = std::collections::HashSet::new();
            for name in names {
                let value = by[name].as_str().ok_or_else(|| {
                    format!("\"fields-to-discriminateBy\"/{name}: value must be a string")
                })?;
                if !values.insert(value) {
                    return Err(format!(
                        "Multiple fields have the same discriminated name: {value}"
                    ));
                }
                fields.push(UnionField {
                    field_name: name.clone(),
                    discriminator_value: value.to_string(),
                });
            }
        }
        for name in discriminator
            .iter()
            .chain(fields.iter().map(|f| &f.field_name))
        {
            if !seen.insert(name.clone()) {
                return Err(format!("{name} field appears multiple times in unions"));
            }
        }
        unions.push(Union {
            discriminator,
            deduce_invalid_discriminator: false,
            fields,
        });
    }
    Ok(unions)
}

/// The kinds a document describes: each `x-kubernetes-group-version-kind` of a definition (the
/// first definition naming a kind wins), with plural, scope and status subresource read from
/// the document's `paths` (namespaced: served under `/namespaces/{namespace}/`; status: a
/// `.../{name}/status` path exists). Sorted by group, version and kind.
pub fn document_kinds(doc: &Value) -> Vec<KindInfo> {
    let mut kinds: Vec<KindInfo> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (name, spec) in document_definitions(doc).into_iter().flatten() {
        for gvk in spec
            .get("x-kubernetes-group-version-kind")
            .and_then(Value::as_list)
            .into_iter()
            .flatten()
        {
            let Some((group, version, kind)) = gvk_of(gvk) else {
                continue;
            };
            if seen.insert((group, version, kind)) {
                kinds.push(KindInfo {
                    group: group.to_string(),
                    version: version.to_string(),
                    kind: kind.to_string(),
                    type_name: name.clone(),
                    plural: None,
                    namespaced: false,
                    has_status_subresource: false,
                    custom_resource: false,
                });
            }
        }
    }
    kinds.sort_by(|a, b| (&a.group, &a.version, &a.kind).cmp(&(&b.group, &b.version, &b.kind)));
    for (path, item) in doc
        .get("paths")
        .and_then(Value::as_map)
        .into_iter()
        .flatten()
    {
        let Some(resource) = ResourcePath::parse(path) else {
            continue;
        };
        let Some((group, version, kind)) = item
            .as_map()
            .into_iter()
            .flat_map(|ops| ops.values())
            .find_map(|op| op.get("x-kubernetes-group-version-kind").and_then(gvk_of))
        else {
            continue;
        };
        let Ok(i) = kinds.binary_search_by(|k| {
            (k.group.as_str(), k.version.as_str(), k.kind.as_str()).cmp(&(group, version, kind))
        }) else {
            continue;
        };
        let info = &mut kinds[i];
        match resource.subresource {
            None => {
                info.plural
                    .get_or_insert_with(|| resource.plural.to_string());
                info.namespaced |= resource.namespaced;
            }
            Some("status") => info.has_status_subresource = true,
            Some(_) => {}
        }
    }
    kinds
}

fn gvk_of(v: &Value) -> Option<(&str, &str, &str)> {
    Some((
        v.get("group").and_then(Value::as_str).unwrap_or(""),
        v.get("version")?.as_str()?,
        v.get("kind")?.as_str()?,
    ))
}

/// An API path split into what the kind index needs.
struct ResourcePath<'a> {
    namespaced: bool,
    plural: &'a str,
    subresource: Option<&'a str>,
}

impl<'a> ResourcePath<'a> {
    /// `/api/v1/...` or `/apis/<group>/<version>/...`, then `[namespaces/{namespace}/]<plural>`,
    /// then optionally `/{name}` and one subresource. Watch paths are skipped.
    fn parse(path: &'a str) -> Option<ResourcePath<'a>> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let rest = match segments.as_slice() {
            ["api", _version, rest @ ..] => rest,
            ["apis", _group, _version, rest @ ..] => rest,
            _ => return None,
        };
        let (namespaced, rest) = match rest {
            ["namespaces", "{namespace}", rest @ ..] if !rest.is_empty() => (true, rest),
            _ => (false, rest),
        };
        match rest {
            ["watch", ..] => None,
            [plural] | [plural, "{name}"] => Some(ResourcePath {
                namespaced,
                plural,
                subresource: None,
            }),
            [plural, "{name}", sub] => Some(ResourcePath {
                namespaced,
                plural,
                subresource: Some(sub),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
