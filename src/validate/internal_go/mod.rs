//! Values the API server prints as JSON of its internal (untagged) Go structs: from 1.34,
//! `field.Invalid` quotes and `pkg/util/diff.Diff` (indented JSON, then a line diff) write
//! every field of an internal type under its Go name, in declaration order, nil pointers,
//! slices and maps as `null`, absent values as Go's zero values.
//!
//! The layouts come from `core-1.MINOR.txt`, derived from k8s.io/kubernetes pkg/apis/core/types.go
//! and the JSON tags of k8s.io/api core/v1 by `scripts/gen-internal-types.py`; a v1 object
//! maps onto them field by field (the generated conversions pair fields by Go name).

use super::gojson::marshal_string;
use crate::defaults::canonical_quantity;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A JSON value in a fixed field order, printed as `json.MarshalIndent` with a one-space indent.
pub enum GoJson {
    Null,
    Str(String),
    Raw(String),
    Array(Vec<GoJson>),
    Object(Vec<(String, GoJson)>),
}

impl GoJson {
    /// A scalar of a v1 object as it stands.
    pub fn scalar(v: &Value) -> GoJson {
        match v {
            Value::String(s) => GoJson::Str(s.clone()),
            Value::Null => GoJson::Null,
            other => GoJson::Raw(crate::value::to_json_string(other)),
        }
    }

    /// The same JSON as a value (maps keep their order), for a `field.Invalid` to quote.
    pub fn to_value(&self) -> Value {
        match self {
            GoJson::Null => Value::Null,
            GoJson::Str(s) => Value::from(s.as_str()),
            GoJson::Raw(r) => crate::value::from_json_str(r).unwrap_or(Value::Null),
            GoJson::Array(items) => Value::List(items.iter().map(GoJson::to_value).collect()),
            GoJson::Object(fields) => Value::Map(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// `json.MarshalIndent(v, "", " ")`.
    pub fn indented(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let newline = |out: &mut String, depth: usize| {
            out.push('\n');
            out.push_str(&" ".repeat(depth));
        };
        match self {
            GoJson::Null => out.push_str("null"),
            GoJson::Str(s) => out.push_str(&marshal_string(s)),
            GoJson::Raw(r) => out.push_str(r),
            GoJson::Array(items) if items.is_empty() => out.push_str("[]"),
            GoJson::Object(fields) if fields.is_empty() => out.push_str("{}"),
            GoJson::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    item.write(out, depth + 1);
                }
                newline(out, depth);
                out.push(']');
            }
            GoJson::Object(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    out.push_str(&marshal_string(key));
                    out.push_str(": ");
                    value.write(out, depth + 1);
                }
                newline(out, depth);
                out.push('}');
            }
        }
    }
}

/// One field of an internal struct: its Go name, its v1 JSON name (`None` when v1 has no
/// such field; `^` marks an embedded struct) and its Go type.
struct Field {
    go: &'static str,
    json: Option<&'static str>,
    ty: &'static str,
}

/// The structs of one release, and its named non-struct types with their underlying types.
#[derive(Default)]
struct Layouts {
    structs: HashMap<&'static str, Vec<Field>>,
    named: HashMap<&'static str, &'static str>,
}

/// The tables per release; 1.37, whose sources could not be read, uses 1.36's.
const TABLES: &[(VersionRange, &str)] = &[
    (VersionRange::until(34), include_str!("core-1.34.txt")),
    (VersionRange::between(35, 35), include_str!("core-1.35.txt")),
    (VersionRange::since(36), include_str!("core-1.36.txt")),
];

fn layouts(version: KubeVersion) -> &'static Layouts {
    static PARSED: [OnceLock<Layouts>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let index = TABLES
        .iter()
        .position(|(range, _)| range.contains(version))
        .unwrap_or(TABLES.len() - 1);
    PARSED[index].get_or_init(|| {
        let mut layouts = Layouts::default();
        for line in TABLES[index].1.lines() {
            let mut cols = line.split('\t');
            let (Some(owner), Some(go), Some(json), Some(ty)) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            if owner == "@type" {
                layouts.named.insert(go, ty);
                continue;
            }
            layouts.structs.entry(owner).or_default().push(Field {
                go,
                json: (json != "-").then_some(json),
                ty,
            });
        }
        layouts
    })
}

/// The JSON of the internal struct `name` (a `core` type) holding the v1 object `v` in
/// `version`; absent is the zero value.
pub fn internal_struct(name: &str, v: Option<&Value>, version: KubeVersion) -> GoJson {
    Writer {
        layouts: layouts(version),
    }
    .structure(name, v, None)
}

/// A `field.Invalid` value holding the internal struct `name`: its JSON from 1.34, before
/// `%#v` (`go_type{…}`, whose pointers print as addresses only the server knows).
pub fn internal_value(
    name: &str,
    v: Option<&Value>,
    go_type: &str,
    version: KubeVersion,
) -> crate::validate::BadValue {
    crate::validate::BadValue::GoValue {
        value: internal_struct(name, v, version).to_value(),
        go_syntax: format!("{go_type}{{…}}"),
    }
}

struct Writer {
    layouts: &'static Layouts,
}

impl Writer {
    /// `parent` is the v1 object holding `v`: the fields the internal struct has and its v1
    /// counterpart does not are read from it (the pod's `hostNetwork`, `hostPID`, `hostIPC`,
    /// `shareProcessNamespace` and `hostUsers`, which pkg/apis/core/v1 conversion.go
    /// `Convert_v1_PodSpec_To_core_PodSpec` moves into the internal `PodSecurityContext`).
    fn structure(&self, name: &str, v: Option<&Value>, parent: Option<&Value>) -> GoJson {
        let mut fields = Vec::new();
        self.push_fields(name, v, parent, &mut fields);
        GoJson::Object(fields)
    }

    fn push_fields(
        &self,
        name: &str,
        v: Option<&Value>,
        parent: Option<&Value>,
        out: &mut Vec<(String, GoJson)>,
    ) {
        for field in self.layouts.structs.get(name).into_iter().flatten() {
            if field.json == Some("^") {
                // Embedded: its fields are promoted, read from the same v1 object (metav1's
                // ObjectMeta keeps its tags, read from `metadata`).
                if field.ty == "metav1.ObjectMeta" {
                    if let GoJson::Object(meta) = object_meta(v.and_then(|v| v.get("metadata"))) {
                        out.extend(meta);
                    }
                    continue;
                }
                self.push_fields(field.ty.trim_start_matches('*'), v, parent, out);
                continue;
            }
            let value = match field.json {
                Some(key) => v.and_then(|v| v.get(key)),
                None => parent.and_then(|p| p.get(&lower_first(field.go))),
            }
            .filter(|v| !v.is_null());
            let json = if name == "PodSpec" && field.go == "SecurityContext" {
                // Never nil: the conversion always makes one for the host fields.
                let empty = Value::Map(Default::default());
                self.structure("PodSecurityContext", Some(value.unwrap_or(&empty)), v)
            } else {
                self.typed(field.ty, value)
            };
            out.push((field.go.to_string(), json));
        }
    }

    /// A value of Go type `ty`.
    fn typed(&self, ty: &str, v: Option<&Value>) -> GoJson {
        if let Some(element) = ty.strip_prefix('*') {
            return v.map_or(GoJson::Null, |v| self.typed(element, Some(v)));
        }
        if let Some(element) = ty.strip_prefix("[]") {
            return v.map_or(GoJson::Null, |v| {
                let items = v.as_list().into_iter().flatten();
                GoJson::Array(items.map(|item| self.typed(element, Some(item))).collect())
            });
        }
        if let Some(rest) = ty.strip_prefix("map[") {
            let element = rest.split_once(']').map_or("string", |(_, e)| e);
            return v.map_or(GoJson::Null, |v| {
                let mut entries: Vec<(String, GoJson)> = v
                    .as_map()
                    .into_iter()
                    .flatten()
                    .map(|(k, item)| (k.clone(), self.typed(element, Some(item))))
                    .collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                GoJson::Object(entries)
            });
        }
        if self.layouts.structs.contains_key(ty) {
            return self.structure(ty, v, None);
        }
        if let Some(underlying) = self.layouts.named.get(ty) {
            return self.typed(underlying, v);
        }
        match (ty, v) {
            ("resource.Quantity", Some(v)) => {
                let mut q = v.clone();
                canonical_quantity(&mut q);
                GoJson::scalar(&q)
            }
            ("resource.Quantity", None) => GoJson::Str("0".into()),
            ("metav1.LabelSelector", v) => v.map_or(GoJson::Object(Vec::new()), label_selector),
            ("metav1.ObjectMeta", v) => object_meta(v),
            (_, Some(v)) => GoJson::scalar(v),
            ("bool", None) => GoJson::Raw("false".into()),
            ("int" | "int32" | "int64" | "intstr.IntOrString", None) => GoJson::Raw("0".into()),
            // Strings and the named string types.
            (_, None) => GoJson::Str(String::new()),
        }
    }
}

fn lower_first(go: &str) -> String {
    let mut chars = go.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

/// `metav1.LabelSelector` as its `json` tags write it (`omitempty` on every field).
fn label_selector(selector: &Value) -> GoJson {
    let mut fields = Vec::new();
    if let Some(Value::Map(labels)) = selector
        .get("matchLabels")
        .filter(|v| !v.is_null_or_empty())
    {
        let mut entries: Vec<(String, GoJson)> = labels
            .iter()
            .map(|(k, v)| (k.clone(), GoJson::scalar(v)))
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        fields.push(("matchLabels".into(), GoJson::Object(entries)));
    }
    if let Some(Value::List(exprs)) = selector
        .get("matchExpressions")
        .filter(|v| !v.is_null_or_empty())
    {
        let text =
            |e: &Value, k: &str| GoJson::Str(e.get(k).and_then(Value::as_str).unwrap_or("").into());
        let exprs = exprs
            .iter()
            .map(|e| {
                let mut req = vec![
                    ("key".into(), text(e, "key")),
                    ("operator".into(), text(e, "operator")),
                ];
                if let Some(Value::List(values)) = e.get("values").filter(|v| !v.is_null_or_empty())
                {
                    req.push((
                        "values".into(),
                        GoJson::Array(values.iter().map(GoJson::scalar).collect()),
                    ));
                }
                GoJson::Object(req)
            })
            .collect();
        fields.push(("matchExpressions".into(), GoJson::Array(exprs)));
    }
    GoJson::Object(fields)
}

/// `metav1.ObjectMeta` by its `json` tags: every field `omitempty` in Go order, except
/// `creationTimestamp`, a struct that `omitempty` keeps (`null` when zero).
fn object_meta(meta: Option<&Value>) -> GoJson {
    let mut fields = Vec::new();
    for key in crate::kube::OBJECT_META_ORDER.iter().copied() {
        let value = meta.and_then(|m| m.get(key));
        match value {
            Some(v) if !v.is_null_or_empty() => fields.push((key.to_string(), json_value(v))),
            _ if key == "creationTimestamp" => fields.push((key.to_string(), GoJson::Null)),
            _ => {}
        }
    }
    GoJson::Object(fields)
}

/// A v1 value whose maps Go writes with sorted keys.
fn json_value(v: &Value) -> GoJson {
    match v {
        Value::Map(m) => {
            let mut entries: Vec<(String, GoJson)> =
                m.iter().map(|(k, v)| (k.clone(), json_value(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            GoJson::Object(entries)
        }
        Value::List(l) => GoJson::Array(l.iter().map(json_value).collect()),
        other => GoJson::scalar(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn sources_print_every_field_in_go_order() {
        let spec = from_json_str(r#"{"nfs":{"server":"10.0.0.1","path":"/exports"}}"#).unwrap();
        let v = KubeVersion::new(36).unwrap();
        let json = internal_struct("PersistentVolumeSource", Some(&spec), v).indented();
        assert!(json.starts_with("{\n \"GCEPersistentDisk\": null,\n"));
        assert!(json.contains(
            " \"NFS\": {\n  \"Server\": \"10.0.0.1\",\n  \"Path\": \"/exports\",\n  \"ReadOnly\": false\n },\n"
        ));
        assert!(json.ends_with(" \"CSI\": null\n}"));
    }
}
