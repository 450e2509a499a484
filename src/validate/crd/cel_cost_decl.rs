//! The size information the API server's CEL cost estimator reads from a CRD schema:
//! k8s.io/apiserver `pkg/cel/common/schemas.go` `SchemaDeclType` (each node's `MaxElements`
//! and `MinSerializedSize`, bounded by `maxLength`, `maxItems`, `maxProperties`, enums and
//! formats, or else estimated from the 3 MiB request limit), and apiextensions
//! `pkg/apis/apiextensions/validation/cel_validation.go` `extractMaxElements` (how often a node
//! can repeat below its parents).

use super::cel_decl::declares_type_and_object_meta;
use super::cel_values::escape;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `celconfig.MaxRequestSizeBytes`.
pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;

/// A schema node as CEL declares it, with the sizes the estimator uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub kind: DeclKind,
    /// `MaxElements`: characters of a string, bytes, items or properties; 0 for the scalar
    /// types (the server leaves it unset for them).
    pub max_elements: u64,
    /// `MinSerializedSize`: the shortest JSON a value of this node can have.
    pub min_size: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    Bool,
    Int,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    /// `x-kubernetes-int-or-string`.
    IntOrString,
    List(Arc<Decl>),
    /// An object with a schema under `additionalProperties` (string keys).
    Map(Arc<Decl>),
    /// An object with properties, by escaped name.
    Object(BTreeMap<String, Arc<Decl>>),
}

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

fn text<'v>(s: &'v Value, key: &str) -> &'v str {
    s.get(key).and_then(Value::as_str).unwrap_or("")
}

fn int(s: &Value, key: &str) -> Option<i64> {
    s.get(key).and_then(Value::as_i64)
}

fn non_negative(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// The length bound of a string or int-or-string node: four bytes per character of its
/// `maxLength` (`estimateMaxElementsFromMaxLength`), or the request size less the quotes
/// (`estimateMaxStringLengthPerRequest`).
fn string_bound(s: &Value) -> u64 {
    match int(s, "maxLength") {
        Some(max) => non_negative(max).saturating_mul(4),
        None => non_negative(MAX_REQUEST_SIZE_BYTES - 2),
    }
}

fn simple(kind: DeclKind, max_elements: u64, min_size: i64) -> Decl {
    Decl {
        kind,
        max_elements,
        min_size,
    }
}

/// `SchemaDeclType(s, isResourceRoot)`; `None` where the server declares nothing (the node,
/// or the property holding it, is then invisible to CEL).
pub fn decl(s: &Value, resource_root: bool) -> Option<Decl> {
    if flag(s, "x-kubernetes-int-or-string") {
        // Before 1.34 an int-or-string ignored its maxLength; no CRD rule's cost can tell
        // the difference in practice, and the newer reading is kept.
        return Some(simple(DeclKind::IntOrString, string_bound(s), 1));
    }
    let embedded = |c: &Value| flag(c, "x-kubernetes-embedded-resource");
    Some(match text(s, "type") {
        "array" => {
            let items = s.get("items")?;
            let item = decl(items, embedded(items))?;
            let max = match int(s, "maxItems") {
                Some(m) => non_negative(m),
                None => non_negative((MAX_REQUEST_SIZE_BYTES - 2) / (item.min_size + 1)),
            };
            simple(DeclKind::List(Arc::new(item)), max, 2)
        }
        "object" => {
            if let Some(a) = s
                .get("additionalProperties")
                .filter(|a| a.as_map().is_some())
            {
                let value = decl(a, embedded(a))?;
                let max = match int(s, "maxProperties") {
                    Some(m) => non_negative(m),
                    None => non_negative((MAX_REQUEST_SIZE_BYTES - 2) / (value.min_size + 6)),
                };
                return Some(simple(DeclKind::Map(Arc::new(value)), max, 2));
            }
            object(s, resource_root)
        }
        "string" => match text(s, "format") {
            "byte" => {
                let max = int(s, "maxLength").map_or(MAX_REQUEST_SIZE_BYTES - 2, |m| m.max(0));
                simple(DeclKind::Bytes, non_negative(max), 2)
            }
            "duration" => simple(DeclKind::Duration, 32, 3),
            "date" => simple(DeclKind::Timestamp, 12, 12),
            "date-time" => simple(DeclKind::Timestamp, 32, 21),
            _ => {
                let max = match (int(s, "maxLength"), s.get("enum").and_then(Value::as_list)) {
                    (Some(_), _) => string_bound(s),
                    (None, Some(values)) if !values.is_empty() => values
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|v| v.len() as u64)
                        .max()
                        .unwrap_or(0),
                    _ => string_bound(s),
                };
                simple(DeclKind::String, max, 2)
            }
        },
        "boolean" => simple(DeclKind::Bool, 0, 4),
        "number" => simple(DeclKind::Double, 0, 1),
        "integer" => simple(DeclKind::Int, 0, 1),
        _ => return None,
    })
}

/// An object with properties: its fields, and the size of `{}` plus the required properties
/// without a default.
fn object(s: &Value, resource_root: bool) -> Decl {
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_list)
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // Each property's declaration (`None`: not exposed) and whether it has a default.
    let mut props: Vec<(&str, Option<Decl>, bool)> = s
        .get("properties")
        .and_then(Value::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, p)| {
                    let d = decl(p, flag(p, "x-kubernetes-embedded-resource"));
                    (k.as_str(), d, p.get("default").is_some())
                })
                .collect()
        })
        .unwrap_or_default();
    if resource_root && !declares_type_and_object_meta(s) {
        for (name, d) in type_and_object_meta() {
            match props.iter_mut().find(|(n, ..)| *n == name) {
                Some(slot) => *slot = (name, Some(d), false),
                None => props.push((name, Some(d), false)),
            }
        }
    }
    let mut fields = BTreeMap::new();
    let mut min_size = 2i64;
    for (name, field, has_default) in props {
        let Some(field) = field else { continue };
        if required.contains(&name) && !has_default {
            min_size += name.len() as i64 + field.min_size + 4;
        }
        if let Some(escaped) = escape(name) {
            fields.insert(escaped, Arc::new(field));
        }
    }
    simple(DeclKind::Object(fields), 0, min_size)
}

/// The properties `WithTypeAndObjectMeta` puts in: unbounded strings, and a `metadata` with
/// only `name` and `generateName`.
fn type_and_object_meta() -> [(&'static str, Decl); 3] {
    let string = || {
        simple(
            DeclKind::String,
            non_negative(MAX_REQUEST_SIZE_BYTES - 2),
            2,
        )
    };
    let meta = BTreeMap::from([
        ("name".to_string(), Arc::new(string())),
        ("generateName".to_string(), Arc::new(string())),
    ]);
    [
        ("kind", string()),
        ("apiVersion", string()),
        ("metadata", simple(DeclKind::Object(meta), 0, 2)),
    ]
}

/// `extractMaxElements`: how many times a child of `s` can occur in one `s` (`None`: no bound).
pub fn max_children(s: &Value) -> Option<u64> {
    match text(s, "type") {
        "object" if s.get("additionalProperties").is_some() => {
            int(s, "maxProperties").map(non_negative)
        }
        "array" => int(s, "maxItems").map(non_negative),
        _ => Some(1),
    }
}

/// `maxCardinality`: how many values of at least `min_size` bytes one request can hold.
pub fn request_cardinality(min_size: i64) -> u64 {
    non_negative(MAX_REQUEST_SIZE_BYTES / (min_size + 1))
}

impl Decl {
    /// The declaration of the property `name` of an object (`None`: not exposed to CEL).
    pub fn property(&self, name: &str) -> Option<Arc<Decl>> {
        match &self.kind {
            DeclKind::Object(fields) => fields.get(escape(name)?.as_str()).cloned(),
            _ => None,
        }
    }

    /// The declaration of a list's items or a map's values.
    pub fn element(&self) -> Option<Arc<Decl>> {
        match &self.kind {
            DeclKind::List(e) | DeclKind::Map(e) => Some(e.clone()),
            _ => None,
        }
    }

    /// The node at `path` below this one (`sizeEstimator.EstimateSize`): the first element
    /// (the variable) is skipped; `@items`/`@values` step into elements, `@keys` into map keys.
    pub fn at_path(&self, path: &[String]) -> Option<&Decl> {
        let mut node = self;
        for name in path.iter().skip(1) {
            node = match (name.as_str(), &node.kind) {
                ("@items" | "@values", DeclKind::List(e) | DeclKind::Map(e)) => e,
                ("@keys", DeclKind::Map(_)) => return Some(&MAP_KEY),
                ("@items" | "@values" | "@keys", _) => return None,
                (field, DeclKind::Object(fields)) => fields.get(field)?,
                _ => return None,
            };
        }
        Some(node)
    }
}

/// The key type of every schema map (`apiservercel.StringType`: no `MaxElements`).
static MAP_KEY: Decl = Decl {
    kind: DeclKind::String,
    max_elements: 0,
    min_size: 2,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn decl_of(json: &str) -> Decl {
        decl(&crate::value::from_json_str(json).unwrap(), false).unwrap()
    }

    #[test]
    fn sizes_follow_the_bounds_or_the_request_limit() {
        // apiserver schemas_test.go `TestEstimateMaxLengthJSON` figures.
        let list = decl_of(r#"{"type":"array","items":{"type":"string"}}"#);
        assert_eq!(list.max_elements, 1048575);
        let strings = decl_of(r#"{"type":"string"}"#);
        assert_eq!(strings.max_elements, 3145726);
        let bounded = decl_of(r#"{"type":"string","maxLength":10}"#);
        assert_eq!(bounded.max_elements, 40);
        let map = decl_of(r#"{"type":"object","additionalProperties":{"type":"string"}}"#);
        assert_eq!(map.max_elements, 393215);
        let objects = decl_of(
            r#"{"type":"array","items":{"type":"object","required":["name"],
                "properties":{"name":{"type":"string"}}}}"#,
        );
        // {} plus "name":"" with quotes and colon: 2 + 4 + 2 + 4 = 12 bytes.
        assert_eq!(objects.max_elements, 3145726 / 13);
        let enums = decl_of(r#"{"type":"string","enum":["a","bcd"]}"#);
        assert_eq!(enums.max_elements, 3);
    }

    #[test]
    fn paths_step_into_fields_items_and_values() {
        let root = decl_of(
            r#"{"type":"object","properties":{"tags":{"type":"array",
                "items":{"type":"string","maxLength":5}}}}"#,
        );
        let path: Vec<String> = ["self", "tags", "@items"].map(String::from).to_vec();
        assert_eq!(root.at_path(&path).unwrap().max_elements, 20);
        assert!(root.at_path(&["self".into(), "nope".into()]).is_none());
    }
}
