//! The typed round trip of a built-in object: what decoding into the `k8s.io/api` Go struct and
//! encoding it again does, without defaulting. Unknown fields and `null`s go, zero values of
//! `omitempty` fields go, value structs and fields without `omitempty` appear, and quantities
//! take their canonical form.

use super::fields::{FieldFacts, GoFields};
use super::quantity;
use crate::schema::{MapType, Scalar, Schema, StructField, TypeRef};
use crate::value::{format_float, Map, Value};

pub(crate) const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// Walks a value with its schema and the Go field facts.
pub(crate) struct RoundTrip<'a> {
    pub schema: &'a Schema,
    pub facts: &'a GoFields,
}

impl RoundTrip<'_> {
    /// Round-trips `v`, typed by `tr`, in place.
    pub fn value(&self, tr: &TypeRef, v: &mut Value) {
        if tr.named.as_deref() == Some(QUANTITY) {
            canonical_quantity(v);
            return;
        }
        let Some(resolved) = self.schema.resolve(tr) else {
            return;
        };
        match v {
            Value::Map(m) => {
                if let Some(mt) = resolved.map {
                    self.map(tr.named.as_deref(), mt, m);
                }
            }
            Value::List(items) => {
                if let Some(lt) = resolved.list {
                    for item in items {
                        self.value(&lt.element_type, item);
                    }
                }
            }
            _ => {}
        }
    }

    fn map(&self, definition: Option<&str>, mt: &MapType, m: &mut Map) {
        if mt.fields.is_empty() {
            for v in m.values_mut() {
                self.value(&mt.element_type, v);
            }
            return;
        }
        let open = !is_empty_ref(&mt.element_type);
        let facts = |f: &StructField| self.field_facts(definition, f);
        m.retain(|name, v| match mt.field(name) {
            None => {
                if open {
                    self.value(&mt.element_type, v);
                }
                open
            }
            Some(f) => {
                let facts = facts(f);
                if v.is_null() {
                    return facts.always || facts.value_struct;
                }
                self.value(&f.type_ref, v);
                !self.omitted(f, facts, v)
            }
        });
        for f in &mt.fields {
            let facts = facts(f);
            let present = m.get(&f.name).is_some_and(|v| !v.is_null());
            if present || !(facts.always || facts.value_struct) {
                continue;
            }
            if let Some(zero) = self.zero(f, facts) {
                m.insert(f.name.clone(), zero);
                if let Some(v) = m.get_mut(&f.name) {
                    self.value(&f.type_ref, v);
                }
            }
        }
    }

    /// Facts from the data files plus the rules that hold for every built-in type: object
    /// metadata, `spec` and `status` are value structs.
    fn field_facts(&self, definition: Option<&str>, f: &StructField) -> FieldFacts {
        let mut facts = definition
            .map(|d| self.facts.get(d, &f.name))
            .unwrap_or_default();
        let is_struct = self.is_struct(&f.type_ref);
        if f.type_ref.named.as_deref() == Some(OBJECT_META)
            || (is_struct && matches!(f.name.as_str(), "spec" | "status"))
        {
            facts.value_struct = true;
        }
        facts
    }

    fn is_struct(&self, tr: &TypeRef) -> bool {
        self.schema
            .resolve(tr)
            .and_then(|r| r.map)
            .is_some_and(|m| !m.fields.is_empty())
    }

    /// Whether the encoder leaves out `v` (`omitempty` and the zero value).
    fn omitted(&self, f: &StructField, facts: FieldFacts, v: &Value) -> bool {
        if facts.always || facts.value_struct {
            return false;
        }
        match v {
            Value::String(s) => s.is_empty() && !facts.pointer,
            Value::Int(0) | Value::Bool(false) => facts.omit_zero,
            Value::Float(x) => *x == 0.0 && facts.omit_zero,
            Value::List(l) => l.is_empty(),
            Value::Map(m) => m.is_empty() && !self.is_struct(&f.type_ref),
            _ => false,
        }
    }

    /// What the encoder writes for a field that is always encoded but missing.
    fn zero(&self, f: &StructField, facts: FieldFacts) -> Option<Value> {
        if f.type_ref.named.as_deref() == Some(INT_OR_STRING) {
            return Some(Value::Int(0));
        }
        let resolved = self.schema.resolve(&f.type_ref)?;
        if let Some(m) = resolved.map {
            return match (facts.value_struct, m.fields.is_empty()) {
                (true, _) => Some(Value::Map(Map::new())),
                (false, true) => Some(Value::Null),
                // A pointer struct without omitempty would encode as null; leave it out.
                (false, false) => None,
            };
        }
        if resolved.list.is_some() {
            return Some(Value::Null);
        }
        match resolved.scalar? {
            Scalar::String => Some(Value::String(String::new())),
            Scalar::Numeric => Some(Value::Int(0)),
            Scalar::Boolean => Some(Value::Bool(false)),
            Scalar::Untyped => None,
        }
    }
}

fn is_empty_ref(tr: &TypeRef) -> bool {
    tr.named.is_none()
        && tr.inlined.scalar.is_none()
        && tr.inlined.list.is_none()
        && tr.inlined.map.is_none()
}

/// Rewrites a quantity (string or number) to its canonical string; leaves anything else.
pub(crate) fn canonical_quantity(v: &mut Value) {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_float(*f),
        _ => return,
    };
    if let Some(c) = quantity::canonicalize(&text) {
        *v = Value::String(c);
    }
}
