//! Decodes a value into the Go type of a built-in kind the way the API server does, finding the
//! first value it refuses: either as `runtime.DefaultUnstructuredConverter.FromUnstructured`
//! (an apply: the merged object becomes the typed one; apimachinery runtime/converter.go and
//! structured-merge-diff value/reflectcache.go), or as the JSON serializer
//! (`sigs.k8s.io/json`, case-sensitive, optionally strict: a PUT body; its decode.go
//! `object`/`literalStore` and the `UnmarshalJSON` of `Quantity`, `Time`, `MicroTime`,
//! `IntOrString`).

use super::super::gojson::{self, unmarshal_type_error};
use super::super::gotime::{self, Layout};
use super::super::quantity;
use crate::defaults::gotypes::{
    Decl, DeclId, GoField, GoType, GoTypes, IntWidth, Special, StructDecl,
};
use crate::value::Value;
use std::fmt::Write as _;

/// Which decoder reads the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoder {
    /// `FromUnstructured`: Go struct order, the first error ends the walk; type mismatches
    /// are structured-merge-diff's to report before it runs.
    Unstructured,
    /// The JSON serializer over the body kubectl sends (keys sorted): type errors are kept and
    /// the walk goes on, an `UnmarshalJSON` error ends it; with `strict`, fields the type does
    /// not declare are collected.
    Json { strict: bool },
}

/// One refused value: where, and the decoder's error text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The field path as the server prints paths (`spec.containers[0].resources.limits.cpu`).
    pub path: String,
    pub message: String,
}

/// What decoding found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub failure: Option<Failure>,
    /// Strict decoding: the paths of fields the Go type does not declare, in decoding order.
    pub unknown: Vec<String>,
}

/// Decodes `object` into the Go struct of `group`/`version`/`kind`; `None` when k8s.io/api
/// does not declare the kind (custom resources, unknown kinds).
pub fn decode(
    group: &str,
    version: &str,
    kind: &str,
    object: &Value,
    decoder: Decoder,
) -> Option<Outcome> {
    let types = GoTypes::builtin();
    let root = types.kind(group, version, kind)?;
    Some(walk_from(types, root, object, decoder, String::new()))
}

/// Decodes `value` into the Go type named `type_name` (`meta/v1.ObjectMeta`), as a part of a
/// larger object found at `path`: the paths reported start with it. `None` when k8s.io/api
/// declares no such type.
pub fn decode_named(
    type_name: &str,
    value: &Value,
    decoder: Decoder,
    path: &str,
) -> Option<Outcome> {
    let types = GoTypes::builtin();
    let id = types.named(type_name)?;
    Some(walk_from(types, id, value, decoder, path.to_string()))
}

fn walk_from(
    types: &GoTypes,
    root: DeclId,
    value: &Value,
    decoder: Decoder,
    path: String,
) -> Outcome {
    let mut w = Walker {
        types,
        decoder,
        context: Vec::new(),
        path,
        saved: None,
        unknown: Vec::new(),
    };
    let aborted = w.walk(&GoType::Named(root), value).err();
    Outcome {
        failure: aborted.or(w.saved),
        unknown: w.unknown,
    }
}

struct Walker<'t> {
    types: &'t GoTypes,
    decoder: Decoder,
    /// `encoding/json`'s error context: per struct field walked into, the struct's name and
    /// the field's; the innermost struct and the path of the fields make the context.
    context: Vec<(&'t str, &'t str)>,
    path: String,
    saved: Option<Failure>,
    unknown: Vec<String>,
}

/// `Err`: an error that ends decoding.
type Flow = Result<(), Failure>;

impl<'t> Walker<'t> {
    fn json(&self) -> bool {
        matches!(self.decoder, Decoder::Json { .. })
    }

    fn failure(&self, message: String) -> Failure {
        Failure {
            path: self.path.clone(),
            message,
        }
    }

    /// A type error: JSON keeps the first and goes on; the converter stops.
    fn type_error(&mut self, value: &str, go_type: &str) -> Flow {
        let context = self.context_pair();
        let message = unmarshal_type_error(
            value,
            go_type,
            context.as_ref().map(|(s, f)| (s.as_str(), f.as_str())),
        );
        self.save(message)
    }

    fn save(&mut self, message: String) -> Flow {
        if self.json() {
            if self.saved.is_none() {
                self.saved = Some(self.failure(message));
            }
            Ok(())
        } else {
            Err(self.failure(message))
        }
    }

    /// An `UnmarshalJSON` error ends decoding; JSON adds its context to a type error.
    fn unmarshaler_error(&self, value: &str, go_type: &str) -> Failure {
        let context = if self.json() {
            self.context_pair()
        } else {
            None
        };
        self.failure(unmarshal_type_error(
            value,
            go_type,
            context.as_ref().map(|(s, f)| (s.as_str(), f.as_str())),
        ))
    }

    fn context_pair(&self) -> Option<(String, String)> {
        let (strukt, _) = self.context.last()?;
        let fields: Vec<&str> = self.context.iter().map(|(_, f)| *f).collect();
        Some((strukt.to_string(), fields.join(".")))
    }

    fn walk(&mut self, ty: &GoType, v: &Value) -> Flow {
        if v.is_null() {
            return Ok(());
        }
        match ty {
            GoType::String => self.scalar(ty, v, matches!(v, Value::String(_))),
            GoType::Bool => self.scalar(ty, v, matches!(v, Value::Bool(_))),
            GoType::Float => self.scalar(ty, v, matches!(v, Value::Int(_) | Value::Float(_))),
            GoType::Int(width) => self.integer(*width, ty, v),
            GoType::Bytes => match v {
                Value::String(s) => match gojson::base64_error_offset(s.as_bytes()) {
                    None => Ok(()),
                    Some(offset) => {
                        let text = format!("illegal base64 data at input byte {offset}");
                        match self.decoder {
                            Decoder::Unstructured => {
                                Err(self.failure(format!("error decoding from json: {text}")))
                            }
                            Decoder::Json { .. } => self.save(text),
                        }
                    }
                },
                Value::List(items) => self.items(&BYTE, items),
                _ => self.mismatch(ty, v),
            },
            GoType::Any | GoType::Opaque => Ok(()),
            GoType::Pointer(inner) => self.walk(inner, v),
            GoType::Slice(inner) => match v {
                Value::List(items) => self.items(inner, items),
                _ => self.mismatch(ty, v),
            },
            GoType::Map(inner) => match v {
                Value::Map(m) if self.json() => {
                    for (key, item) in sorted(m) {
                        self.entry(inner, key, item)?;
                    }
                    Ok(())
                }
                Value::Map(m) => {
                    for (key, item) in m.iter() {
                        self.entry(inner, key, item)?;
                    }
                    Ok(())
                }
                _ => self.mismatch(ty, v),
            },
            GoType::Named(id) => match self.types.decl(*id) {
                Decl::Alias(inner) => {
                    // Errors name the named type (`v1.Protocol`), not what it is made of.
                    match (inner, v) {
                        (GoType::String, Value::String(_))
                        | (GoType::Bool, Value::Bool(_))
                        | (GoType::Map(_), Value::Map(_))
                        | (GoType::Slice(_), Value::List(_))
                        | (GoType::Int(_) | GoType::Float, _)
                        | (GoType::Bytes, Value::String(_))
                        | (GoType::Named(_) | GoType::Pointer(_), _)
                        | (GoType::Any | GoType::Opaque, _) => self.walk(inner, v),
                        _ => self.mismatch(ty, v),
                    }
                }
                Decl::Special(special) => self.special(*special, v),
                Decl::Struct(decl) => match v {
                    Value::Map(m) => self.structure(*id, decl, m),
                    _ => self.mismatch(ty, v),
                },
            },
        }
    }

    fn scalar(&mut self, ty: &GoType, v: &Value, fits: bool) -> Flow {
        if fits {
            Ok(())
        } else {
            self.mismatch(ty, v)
        }
    }

    /// A value of the wrong JSON kind: JSON's `UnmarshalTypeError`; the converter leaves it to
    /// structured-merge-diff, which refuses it first.
    fn mismatch(&mut self, ty: &GoType, v: &Value) -> Flow {
        if !self.json() {
            return Ok(());
        }
        let name = self.type_name(ty);
        self.type_error(json_kind(v), &name)
    }

    fn integer(&mut self, width: IntWidth, ty: &GoType, v: &Value) -> Flow {
        match (self.decoder, v) {
            // The converter converts any integer (wrapping, as Go's conversion does) and a
            // whole float; a fraction it refuses.
            (Decoder::Unstructured, Value::Float(f)) if f.fract() != 0.0 => {
                Err(self.failure(format!("cannot convert float64 to {}", width.go_name())))
            }
            (Decoder::Unstructured, _) => Ok(()),
            (Decoder::Json { .. }, Value::Int(_) | Value::Float(_)) => {
                let Some(text) = gojson::marshal_scalar(v) else {
                    return Ok(());
                };
                if parse_int(&text).is_some_and(|n| width.holds(n)) {
                    Ok(())
                } else {
                    self.type_error(&format!("number {text}"), width.go_name())
                }
            }
            (Decoder::Json { .. }, _) => self.mismatch(ty, v),
        }
    }

    fn items(&mut self, inner: &GoType, items: &[Value]) -> Flow {
        for (i, item) in items.iter().enumerate() {
            let len = self.path.len();
            let _ = write!(self.path, "[{i}]");
            let flow = self.walk(inner, item);
            self.path.truncate(len);
            flow?;
        }
        Ok(())
    }

    fn special(&mut self, special: Special, v: &Value) -> Flow {
        match special {
            Special::Quantity => match quantity::unmarshal_error(v) {
                Some(e) if !self.skips_composite(v) => Err(self.failure(e.message())),
                _ => Ok(()),
            },
            Special::Time | Special::MicroTime => {
                let layout = if special == Special::Time {
                    Layout::Rfc3339
                } else {
                    Layout::Rfc3339Micro
                };
                match v {
                    Value::String(s) => match gotime::parse_error(layout, s) {
                        Some(message) => Err(self.failure(message)),
                        None => Ok(()),
                    },
                    _ if self.skips_composite(v) => Ok(()),
                    _ => Err(self.unmarshaler_error(json_kind(v), "string")),
                }
            }
            Special::IntOrString => match v {
                Value::String(_) => Ok(()),
                _ if self.skips_composite(v) => Ok(()),
                Value::Int(_) | Value::Float(_) => {
                    let text = gojson::marshal_scalar(v).unwrap_or_default();
                    if parse_int(&text).is_some_and(|n| IntWidth::I32.holds(n)) {
                        Ok(())
                    } else {
                        Err(self.unmarshaler_error(&format!("number {text}"), "int32"))
                    }
                }
                _ => Err(self.unmarshaler_error(json_kind(v), "int32")),
            },
            Special::Raw => Ok(()),
        }
    }

    /// Maps and lists where a scalar type is expected: structured-merge-diff refuses them
    /// before the converter runs.
    fn skips_composite(&self, v: &Value) -> bool {
        !self.json() && matches!(v, Value::Map(_) | Value::List(_))
    }

    fn entry(&mut self, inner: &GoType, key: &str, item: &Value) -> Flow {
        let len = self.path.len();
        self.push_key(key);
        let flow = self.walk(inner, item);
        self.path.truncate(len);
        flow
    }

    fn structure(&mut self, id: usize, decl: &'t StructDecl, m: &crate::value::Map) -> Flow {
        let strukt = struct_name(self.types.decl_name(id));
        match self.decoder {
            Decoder::Unstructured => {
                // The fields present, in Go order.
                let mut present: Vec<_> = m
                    .iter()
                    .filter_map(|(key, item)| Some((decl.field(key)?, item)))
                    .collect();
                present.sort_unstable_by_key(|((i, _), _)| *i);
                for ((_, f), item) in present {
                    self.field(strukt, f, item)?;
                }
            }
            Decoder::Json { strict } => {
                for (key, item) in sorted(m) {
                    match decl.field(key) {
                        Some((_, f)) => self.field(strukt, f, item)?,
                        None if strict => {
                            let path = if self.path.is_empty() {
                                key.clone()
                            } else {
                                format!("{}.{key}", self.path)
                            };
                            self.unknown.push(path);
                        }
                        None => {}
                    }
                }
            }
        }
        Ok(())
    }

    fn field(&mut self, strukt: &'t str, f: &'t GoField, item: &Value) -> Flow {
        self.context.push((strukt, &f.json));
        let len = self.path.len();
        self.push_key(&f.json);
        let flow = self.walk(&f.ty, item);
        self.path.truncate(len);
        self.context.pop();
        flow
    }

    fn push_key(&mut self, key: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    /// `reflect.Type.String()`: `int32`, `[]v1.Container`, `map[string]string`, `v1.Protocol`.
    fn type_name(&self, ty: &GoType) -> String {
        match ty {
            GoType::String => "string".into(),
            GoType::Bool => "bool".into(),
            GoType::Int(w) => w.go_name().into(),
            GoType::Float => "float64".into(),
            GoType::Bytes => "[]uint8".into(),
            GoType::Any | GoType::Opaque => "interface {}".into(),
            GoType::Pointer(t) => format!("*{}", self.type_name(t)),
            GoType::Slice(t) => format!("[]{}", self.type_name(t)),
            GoType::Map(t) => format!("map[string]{}", self.type_name(t)),
            GoType::Named(id) => qualified_name(self.types.decl_name(*id)).to_string(),
        }
    }
}

/// Map entries as JSON decodes the body kubectl sends: keys sorted. (The converter meets
/// them in the order the object holds them.)
fn sorted(m: &crate::value::Map) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// The element type of `[]byte` given as a list of numbers.
static BYTE: GoType = GoType::Int(IntWidth::U8);

/// What `encoding/json` calls a JSON value in a type error where it quotes no literal.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::Map(_) => "object",
        Value::List(_) => "array",
        Value::Null => "null",
    }
}

/// `strconv.ParseInt(text, 10, 64)`: an optional sign and decimal digits, within int64.
fn parse_int(text: &str) -> Option<i128> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i128 = text.parse().ok()?;
    IntWidth::I64.holds(n).then_some(n)
}

/// `PodSpec` of `core/v1.PodSpec` (`reflect.Type.Name()`).
fn struct_name(decl: &str) -> &str {
    decl.rsplit_once('.').map_or(decl, |(_, name)| name)
}

/// `v1.PodSpec` of `core/v1.PodSpec` (`reflect.Type.String()`: the package's last element).
fn qualified_name(decl: &str) -> &str {
    decl.rsplit_once('/').map_or(decl, |(_, rest)| rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn apply(kind: (&str, &str, &str), json: &str) -> Option<Failure> {
        let v = from_json_str(json).unwrap();
        decode(kind.0, kind.1, kind.2, &v, Decoder::Unstructured)
            .unwrap()
            .failure
    }

    fn put(kind: (&str, &str, &str), json: &str) -> Outcome {
        let v = from_json_str(json).unwrap();
        decode(kind.0, kind.1, kind.2, &v, Decoder::Json { strict: true }).unwrap()
    }

    const POD: (&str, &str, &str) = ("", "v1", "Pod");
    const DEPLOY: (&str, &str, &str) = ("apps", "v1", "Deployment");

    #[test]
    fn converter_refuses_fractions_quantities_base64_and_times() {
        let f = apply(POD, r#"{"spec":{"terminationGracePeriodSeconds":1.5}}"#).unwrap();
        assert_eq!(f.message, "cannot convert float64 to int64");
        assert_eq!(f.path, "spec.terminationGracePeriodSeconds");
        assert_eq!(
            apply(POD, r#"{"spec":{"terminationGracePeriodSeconds":30.0}}"#),
            None
        );
        let f = apply(
            POD,
            r#"{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"abc"}}}]}}"#,
        )
        .unwrap();
        assert!(f.message.starts_with("quantities must match"), "{f:?}");
        assert_eq!(f.path, "spec.containers[0].resources.limits.cpu");
        let f = apply(("", "v1", "Secret"), r#"{"data":{"k":"not base64"}}"#).unwrap();
        assert_eq!(
            f.message,
            "error decoding from json: illegal base64 data at input byte 3"
        );
        let f = apply(POD, r#"{"metadata":{"creationTimestamp":"yesterday"}}"#).unwrap();
        assert!(f.message.starts_with("parsing time \"yesterday\""), "{f:?}");
        let f = apply(
            ("", "v1", "Service"),
            r#"{"spec":{"ports":[{"port":80,"targetPort":8080.5}]}}"#,
        )
        .unwrap();
        assert_eq!(
            f.message,
            "json: cannot unmarshal number 8080.5 into Go value of type int32"
        );
    }

    #[test]
    fn converter_leaves_type_mismatches_and_ranges_alone() {
        assert_eq!(apply(DEPLOY, r#"{"spec":{"replicas":"3"}}"#), None);
        assert_eq!(apply(DEPLOY, r#"{"spec":{"replicas":3000000000}}"#), None);
    }

    #[test]
    fn json_names_the_go_struct_field() {
        let o = put(DEPLOY, r#"{"spec":{"replicas":3000000000}}"#);
        assert_eq!(
            o.failure.unwrap().message,
            "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        let o = put(
            DEPLOY,
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":"80"}]}]}}}}"#,
        );
        assert_eq!(
            o.failure.unwrap().message,
            "json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32"
        );
        let o = put(
            ("", "v1", "Service"),
            r#"{"spec":{"ports":[{"port":80,"targetPort":1.5}]}}"#,
        );
        assert_eq!(
            o.failure.unwrap().message,
            "json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32"
        );
        let o = put(("", "v1", "Secret"), r#"{"data":{"k":"a"}}"#);
        assert_eq!(
            o.failure.unwrap().message,
            "illegal base64 data at input byte 0"
        );
    }

    #[test]
    fn strict_json_collects_unknown_fields_with_indices() {
        let o = put(
            POD,
            r#"{"spec":{"containers":[{"name":"a","imagePullPolicyy":"x"}],"foo":1},"bar":2}"#,
        );
        assert_eq!(o.failure, None);
        assert_eq!(
            o.unknown,
            ["bar", "spec.containers[0].imagePullPolicyy", "spec.foo"]
        );
    }

    #[test]
    fn kinds_outside_k8s_api_are_not_decoded() {
        let v = from_json_str("{}").unwrap();
        assert!(decode("example.com", "v1", "Widget", &v, Decoder::Unstructured).is_none());
    }
}
