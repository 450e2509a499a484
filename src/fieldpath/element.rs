//! Path elements and paths: how one field, list item or set member is named.

use crate::value::{to_json_string, Value};
use std::cmp::Ordering;
use std::fmt;

/// The key of a keyed list item: (field name, value) pairs sorted by name.
pub type KeyFields = Vec<(String, Value)>;

/// One step into a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathElement {
    /// A map field: `.name`.
    Field(String),
    /// An item of a list keyed by fields: `[name="nginx"]`.
    Key(KeyFields),
    /// An item of a set, identified by its value: `[="a"]`.
    Value(Value),
    /// An item of an atomic or positional list: `[3]`.
    Index(usize),
}

impl PathElement {
    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    pub fn field(name: &str) -> PathElement {
        PathElement::Field(name.to_string())
    }

    /// A key element from unsorted pairs.
    pub fn key(mut fields: KeyFields) -> PathElement {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    pub fn as_field(&self) -> Option<&str> {
        match self {
            PathElement::Field(f) => Some(f),
            _ => None,
        }
    }
}

fn compare_keys(a: &KeyFields, b: &KeyFields) -> Ordering {
    for (x, y) in a.iter().zip(b.iter()) {
        let c = x.0.cmp(&y.0).then_with(|| x.1.cmp(&y.1));
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => compare_keys(a, b),
            (PathElement::Value(a), PathElement::Value(b)) => a.cmp(b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={}", to_json_string(value))?;
                }
                f.write_str("]")
            }
            PathElement::Value(v) => write!(f, "[={}]", to_json_string(v)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A sequence of path elements from the root of an object.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Path(pub Vec<PathElement>);

impl Path {
    pub fn root() -> Path {
        Path(Vec::new())
    }

    pub fn elements(&self) -> &[PathElement] {
        &self.0
    }

    pub fn child(&self, pe: PathElement) -> Path {
        let mut v = self.0.clone();
        v.push(pe);
        Path(v)
    }

    /// A path of field names, `Path::fields(&["spec", "replicas"])`.
    pub fn fields(names: &[&str]) -> Path {
        Path(names.iter().map(|n| PathElement::field(n)).collect())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pe in &self.0 {
            write!(f, "{pe}")?;
        }
        Ok(())
    }
}

impl From<Vec<PathElement>> for Path {
    fn from(v: Vec<PathElement>) -> Self {
        Path(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_the_reference() {
        let p = Path(vec![
            PathElement::field("spec"),
            PathElement::field("containers"),
            PathElement::key(vec![("name".into(), Value::from("nginx"))]),
            PathElement::field("ports"),
            PathElement::key(vec![
                ("protocol".into(), Value::from("TCP")),
                ("containerPort".into(), Value::Int(80)),
            ]),
        ]);
        assert_eq!(
            p.to_string(),
            r#".spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]"#
        );
        assert_eq!(
            PathElement::Value(Value::from("a")).to_string(),
            r#"[="a"]"#
        );
        assert_eq!(PathElement::Index(3).to_string(), "[3]");
    }

    #[test]
    fn orders_fields_before_keys_values_indexes() {
        let f = PathElement::field("z");
        let k = PathElement::key(vec![("a".into(), Value::Int(1))]);
        let v = PathElement::Value(Value::Int(0));
        let i = PathElement::Index(0);
        assert!(f < k && k < v && v < i);
    }
}
