//! Builds one document's value from libyaml events, the way go-yaml v2 decodes into
//! `interface{}` and sigs.k8s.io/yaml turns that into JSON: typed keys stringified, merge keys,
//! anchors and aliases (with go-yaml's alias-ratio guard), and a nesting limit.
//! Iterative, so deep input cannot overflow the stack.

use super::events::{Event, EventReader, Mark, ScalarStyle};
use super::resolve::{resolve_owned, Scalar};
use super::ErrorKind;
use crate::value::{format_float, Map, Value};
use std::collections::HashMap;

/// The deepest nesting kubectl accepts (go-yaml's parser and encoding/json both stop at 10000).
pub const MAX_DEPTH: usize = 10_000;

/// A failure and the place (within the parsed text) it was found at.
pub(crate) type Located = (ErrorKind, Mark);

struct Anchored {
    value: Value,
    /// The typed scalar, kept so an alias used as a key stringifies like the original.
    scalar: Option<Scalar>,
    nodes: u64,
}

/// An open collection; its items and entries so far wait in the composer's shared stacks
/// from `start` on, and it is built once, at its end, at its final size (growing maps and
/// lists item by item was a tenth of reading).
enum Frame {
    Seq { start: usize },
    Map { start: usize, key: Option<KeySlot> },
}

enum KeySlot {
    Field(String),
    Merge,
}

struct Open {
    frame: Frame,
    anchor: Option<String>,
    first_node: u64,
}

/// A finished node on its way to its parent.
struct Node {
    value: Value,
    scalar: Option<Scalar>,
}

#[derive(Default)]
pub(super) struct Composer {
    anchors: HashMap<String, Anchored>,
    stack: Vec<Open>,
    /// The items of the open lists, innermost last.
    items: Vec<Value>,
    /// The entries of the open maps, innermost last.
    entries: Vec<(String, Value)>,
    decoded: u64,
    aliased: u64,
}

/// Reads the first document of the event stream: `Ok(None)` when the stream has none.
/// Returns the value and the 0-based line of its root node.
pub(crate) fn first_document(text: &[u8]) -> Result<Option<(Value, usize)>, Located> {
    match super::fast::document(text) {
        Some(read) => Ok(read),
        None => first_document_libyaml(text),
    }
}

/// [`first_document`] through libyaml's events, for any input.
pub(crate) fn first_document_libyaml(text: &[u8]) -> Result<Option<(Value, usize)>, Located> {
    let mut reader = EventReader::new(text);
    let mut next = || {
        reader
            .next_event()
            .map_err(|e| (ErrorKind::Syntax(e.message), e.mark))
    };
    next()?; // stream start
    match next()? {
        (Event::DocumentStart, _) => {}
        _ => return Ok(None),
    }
    let mut composer = Composer::default();
    let mut root = None;
    let mut root_line = None;
    while root.is_none() {
        let (event, mark) = next()?;
        root_line.get_or_insert(mark.line);
        root = composer.event(event).map_err(|k| (k, mark))?;
    }
    next()?; // document end: reports errors up to the end of this document
    Ok(root.map(|v| (v, root_line.unwrap_or(0))))
}

impl Composer {
    /// Feeds one event; returns the root once it is complete.
    pub(super) fn event(&mut self, event: Event) -> Result<Option<Value>, ErrorKind> {
        let node = match event {
            Event::Scalar {
                anchor,
                tag,
                value,
                style,
            } => {
                self.decoded += 1;
                let scalar = resolve_owned(value, style == ScalarStyle::Plain, tag.as_deref())?;
                // Only keys and anchored nodes need the typed scalar later; a value takes its
                // text without a copy.
                if anchor.is_none() && !self.expecting_key() {
                    let value = match scalar {
                        Scalar::String(s) => Value::String(s),
                        other => scalar_value(&other)?,
                    };
                    return self.attach(Node {
                        value,
                        scalar: None,
                    });
                }
                // A key is stringified from the scalar, so `.inf: x` is fine as a key, and its
                // value is only needed when an alias may repeat it.
                let value = if anchor.is_none() {
                    Value::Null
                } else {
                    match scalar_value(&scalar) {
                        Err(_) if self.expecting_key() => Value::Null,
                        v => v?,
                    }
                };
                let node = Node {
                    value,
                    scalar: Some(scalar),
                };
                if let Some(name) = anchor {
                    self.anchors
                        .insert(name, self.anchored(&node, self.decoded - 1));
                }
                node
            }
            Event::Alias(name) => self.alias(&name)?,
            Event::SequenceStart { anchor } => {
                let start = self.items.len();
                return self.open(Frame::Seq { start }, anchor);
            }
            Event::MappingStart { anchor } => {
                let start = self.entries.len();
                return self.open(Frame::Map { start, key: None }, anchor);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let open = self.stack.pop().expect("balanced events");
                let value = match open.frame {
                    Frame::Seq { start } => {
                        Value::List(self.items.drain(start..).collect::<Vec<_>>().into())
                    }
                    Frame::Map { start, .. } => Value::Map(map_of(self.entries.drain(start..))),
                };
                let node = Node {
                    value,
                    scalar: None,
                };
                if let Some(name) = open.anchor {
                    self.anchors
                        .insert(name, self.anchored(&node, open.first_node));
                }
                node
            }
            _ => return Ok(None),
        };
        self.attach(node)
    }

    fn expecting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Open {
                frame: Frame::Map { key: None, .. },
                ..
            })
        )
    }

    fn open(&mut self, frame: Frame, anchor: Option<String>) -> Result<Option<Value>, ErrorKind> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(ErrorKind::TooDeep);
        }
        if let Some(name) = &anchor {
            // A redefinition hides the old anchor while the new node is open.
            self.anchors.remove(name);
        }
        self.decoded += 1;
        self.stack.push(Open {
            frame,
            anchor,
            first_node: self.decoded - 1,
        });
        Ok(None)
    }

    fn anchored(&self, node: &Node, first_node: u64) -> Anchored {
        Anchored {
            value: node.value.clone(),
            scalar: node.scalar.clone(),
            nodes: self.decoded - first_node,
        }
    }

    fn alias(&mut self, name: &str) -> Result<Node, ErrorKind> {
        if self.stack.iter().any(|o| o.anchor.as_deref() == Some(name)) {
            return Err(ErrorKind::RecursiveAlias(name.to_string()));
        }
        let anchored = self
            .anchors
            .get(name)
            .ok_or_else(|| ErrorKind::UnknownAnchor(name.to_string()))?;
        // go-yaml counts every node an alias expands to; check before copying anything.
        self.decoded += 1 + anchored.nodes;
        self.aliased += anchored.nodes;
        if self.aliased > 100
            && self.decoded > 1000
            && self.aliased as f64 / self.decoded as f64 > allowed_alias_ratio(self.decoded)
        {
            return Err(ErrorKind::ExcessiveAliasing);
        }
        Ok(Node {
            value: anchored.value.clone(),
            scalar: anchored.scalar.clone(),
        })
    }

    /// Hands a finished node to the open collection, or returns it as the root.
    fn attach(&mut self, node: Node) -> Result<Option<Value>, ErrorKind> {
        let Some(parent) = self.stack.last_mut() else {
            return Ok(Some(node.value));
        };
        match &mut parent.frame {
            Frame::Seq { .. } => self.items.push(node.value),
            Frame::Map { start, key } => match key.take() {
                None => *key = Some(map_key(node)?),
                Some(KeySlot::Field(k)) => self.entries.push((k, node.value)),
                Some(KeySlot::Merge) => {
                    // The entries so far become a map for the merge, and its entries again.
                    let mut map = map_of(self.entries.drain(*start..));
                    merge(&mut map, node.value)?;
                    self.entries.extend(map.into_entries());
                }
            },
        }
        Ok(None)
    }
}

/// go-yaml's `allowedAliasRatio`: 99% for small documents down to 10% for very large ones.
fn allowed_alias_ratio(decoded: u64) -> f64 {
    const LOW: f64 = 400_000.0;
    const HIGH: f64 = 4_000_000.0;
    let d = decoded as f64;
    if d <= LOW {
        0.99
    } else if d >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((d - LOW) / (HIGH - LOW))
    }
}

/// A map of `entries` in order; a repeated key keeps its first place and takes the last value,
/// as inserting them one by one does.
fn map_of(entries: impl ExactSizeIterator<Item = (String, Value)>) -> Map {
    let mut map = Map::with_capacity(entries.len());
    for (k, v) in entries {
        map.insert(k, v);
    }
    map
}

/// Entries of a merged map replace earlier ones; in a list of maps, earlier maps win.
fn merge(map: &mut Map, value: Value) -> Result<(), ErrorKind> {
    match value {
        Value::Map(m) => map.extend(m),
        Value::List(items) if items.iter().all(|i| matches!(i, Value::Map(_))) => {
            for item in items.into_iter().rev() {
                if let Value::Map(m) = item {
                    map.extend(m);
                }
            }
        }
        _ => return Err(ErrorKind::BadMerge),
    }
    Ok(())
}

/// The JSON field name for a key node, as sigs.k8s.io/yaml stringifies typed keys.
fn map_key(node: Node) -> Result<KeySlot, ErrorKind> {
    let Some(scalar) = node.scalar else {
        return Err(ErrorKind::BadKey(node.value.kind_name()));
    };
    Ok(KeySlot::Field(match scalar {
        Scalar::Merge => return Ok(KeySlot::Merge),
        Scalar::String(s) => s,
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(f) => float_key(f),
        Scalar::Null => return Err(ErrorKind::BadKey("null")),
        Scalar::Uint(_) => return Err(ErrorKind::BadKey("integer beyond int64")),
    }))
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with YAML spellings for the non-finite
/// (sigs.k8s.io/yaml `convertToJSONableObject`, float64 keys). The bit size 32 rounds to
/// float32 first, so a finite key beyond float32's range prints as an infinity: `1e39` is `.inf`.
fn float_key(f: f64) -> String {
    let f = f as f32;
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

/// A resolved scalar as kubectl ends up with it: `.inf`/`.nan` cannot be encoded as JSON,
/// uint64 becomes float64, and whole floats that print without a dot become ints.
fn scalar_value(s: &Scalar) -> Result<Value, ErrorKind> {
    Ok(match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(*b),
        Scalar::Int(i) => Value::Int(*i),
        Scalar::Uint(u) => Value::Float(*u as f64),
        Scalar::Float(f) => json_number(*f)?,
        Scalar::String(s) => Value::String(s.clone()),
        Scalar::Merge => Value::String("<<".into()),
    })
}

/// The value encoding/json then unstructured decoding make of a float64.
pub(crate) fn json_number(f: f64) -> Result<Value, ErrorKind> {
    if !f.is_finite() {
        return Err(ErrorKind::NonFinite(f));
    }
    let text = format_float(f);
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Int(i));
        }
    }
    Ok(Value::Float(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Result<Value, ErrorKind> {
        first_document(text.as_bytes())
            .map(|d| d.map(|(v, _)| v).unwrap_or(Value::Null))
            .map_err(|(k, _)| k)
    }

    #[test]
    fn float_keys_use_float32_g_format() {
        assert_eq!(float_key(1.234567891234), "1.2345679");
        assert_eq!(float_key(1e-7), "1e-07");
        assert_eq!(float_key(1e21), "1e+21");
        assert_eq!(float_key(1000.0), "1000");
        assert_eq!(float_key(16777217.0), "1.6777216e+07");
        assert_eq!(float_key(0.1), "0.1");
    }

    #[test]
    fn float_keys_beyond_float32_round_to_infinity_or_zero() {
        assert_eq!(float_key(1e39), ".inf");
        assert_eq!(float_key(-1e39), "-.inf");
        assert_eq!(float_key(f64::MAX), ".inf");
        assert_eq!(float_key(1e-50), "0");
        assert_eq!(float_key(-1e-50), "-0");
        assert_eq!(
            doc("data:\n  1e39: a\n").unwrap(),
            crate::value::from_json_str(r#"{"data":{".inf":"a"}}"#).unwrap()
        );
        assert!(doc("{\n999999999999999999999999999999999999999").is_err());
        assert_eq!(
            doc("{999999999999999999999999999999999999999: x}").unwrap(),
            crate::value::from_json_str(r#"{".inf":"x"}"#).unwrap()
        );
    }

    #[test]
    fn merge_keys_apply_in_document_order() {
        let v = doc("b: &b {x: 1, z: 2}\nv:\n  x: 9\n  <<: *b\n  z: 3\n").unwrap();
        assert_eq!(v.get_path(&["v", "x"]), Some(&Value::Int(1)));
        assert_eq!(v.get_path(&["v", "z"]), Some(&Value::Int(3)));
        assert_eq!(doc("v:\n  <<: 1\n"), Err(ErrorKind::BadMerge));
    }

    #[test]
    fn aliases_are_guarded() {
        assert_eq!(
            doc("a: &x [*x]\n"),
            Err(ErrorKind::RecursiveAlias("x".into()))
        );
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
            let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
            let refs = vec![format!("*{prev}"); 9].join(", ");
            bomb.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        assert_eq!(doc(&bomb), Err(ErrorKind::ExcessiveAliasing));
    }

    #[test]
    fn keys_are_typed_then_stringified() {
        let v = doc("0644: a\nyes: b\n1.0: c\n").unwrap();
        let keys: Vec<_> = v.as_map().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["420", "true", "1"]);
        assert_eq!(doc("~: x\n"), Err(ErrorKind::BadKey("null")));
        assert_eq!(doc("[a]: x\n"), Err(ErrorKind::BadKey("list")));
    }

    #[test]
    fn nesting_is_limited() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(doc(&deep), Err(ErrorKind::TooDeep));
    }
}
