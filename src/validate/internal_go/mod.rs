//! Values the API server prints as JSON of its internal (untagged) Go structs: from 1.34,
//! `field.Invalid` quotes and `pkg/util/diff.Diff` (indented JSON, then a line diff) write
//! every field of an internal type under its Go name, in declaration order, nil pointers,
//! slices and maps as `null`, absent values as Go's zero values.
//!
//! The layouts come from `core.txt`, derived from k8s.io/kubernetes pkg/apis/core/types.go
//! and the JSON tags of k8s.io/api core/v1 by `scripts/gen-internal-types.py`; a v1 object
//! maps onto them field by field (the generated conversions pair fields by Go name).

use super::gojson::marshal_string;
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

fn layouts() -> &'static HashMap<&'static str, Vec<Field>> {
    static LAYOUTS: OnceLock<HashMap<&'static str, Vec<Field>>> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        let mut map: HashMap<&str, Vec<Field>> = HashMap::new();
        for line in include_str!("core.txt").lines() {
            let mut cols = line.split('\t');
            let (Some(owner), Some(go), Some(json), Some(ty)) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            map.entry(owner).or_default().push(Field {
                go,
                json: (json != "-").then_some(json),
                ty,
            });
        }
        map
    })
}

/// The JSON of the internal struct `name` (a `core` type) holding the v1 object `v`; absent
/// is the zero value.
pub fn internal_struct(name: &str, v: Option<&Value>) -> GoJson {
    let mut fields = Vec::new();
    push_fields(name, v, &mut fields);
    GoJson::Object(fields)
}

fn push_fields(name: &str, v: Option<&Value>, out: &mut Vec<(String, GoJson)>) {
    for field in layouts().get(name).into_iter().flatten() {
        if field.json == Some("^") {
            // Embedded: its fields are promoted, read from the same v1 object.
            push_fields(field.ty.trim_start_matches('*'), v, out);
            continue;
        }
        let value = field
            .json
            .and_then(|key| v.and_then(|v| v.get(key)))
            .filter(|v| !v.is_null());
        out.push((field.go.to_string(), typed(field.ty, value)));
    }
}

/// A value of Go type `ty`.
fn typed(ty: &str, v: Option<&Value>) -> GoJson {
    if let Some(element) = ty.strip_prefix('*') {
        return v.map_or(GoJson::Null, |v| typed(element, Some(v)));
    }
    if let Some(element) = ty.strip_prefix("[]") {
        return v.map_or(GoJson::Null, |v| {
            let items = v.as_list().into_iter().flatten();
            GoJson::Array(items.map(|item| typed(element, Some(item))).collect())
        });
    }
    if let Some(rest) = ty.strip_prefix("map[") {
        let element = rest.split_once(']').map_or("string", |(_, e)| e);
        return v.map_or(GoJson::Null, |v| {
            let mut entries: Vec<(String, GoJson)> = v
                .as_map()
                .into_iter()
                .flatten()
                .map(|(k, item)| (k.clone(), typed(element, Some(item))))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            GoJson::Object(entries)
        });
    }
    if layouts().contains_key(ty) {
        return internal_struct(ty, v);
    }
    match (ty, v) {
        (_, Some(v)) => GoJson::scalar(v),
        ("bool", None) => GoJson::Raw("false".into()),
        ("int" | "int32" | "int64", None) => GoJson::Raw("0".into()),
        // Strings and the named string types.
        (_, None) => GoJson::Str(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn sources_print_every_field_in_go_order() {
        let spec = from_json_str(r#"{"nfs":{"server":"10.0.0.1","path":"/exports"}}"#).unwrap();
        let json = internal_struct("PersistentVolumeSource", Some(&spec)).indented();
        assert!(json.starts_with("{\n \"GCEPersistentDisk\": null,\n"));
        assert!(json.contains(
            " \"NFS\": {\n  \"Server\": \"10.0.0.1\",\n  \"Path\": \"/exports\",\n  \"ReadOnly\": false\n },\n"
        ));
        assert!(json.ends_with(" \"CSI\": null\n}"));
    }
}
