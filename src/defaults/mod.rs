//! What the API server stores after a write: the merged object converted to its typed form and
//! back ([`roundtrip`], over the k8s.io/api Go types of [`gotypes`]), then defaulted — the
//! `SetDefaults_*` rules for built-in kinds ([`rules`], with the ones that differ between
//! Kubernetes versions in [`versioned`]), or a CRD's structural
//! `default`s and pruning ([`structural`]).
//!
//! Ownership never comes from here: managedFields are computed on the merged object first.
//!
//! The same decoding is the server's read path ([`decode_stored`]): every stored object is
//! decoded and defaulted before a diff, a merge or an update looks at it.

mod admission;
mod cluster;
mod dra;
mod extension_kinds;
pub(crate) mod gotypes;
mod image;
pub mod quantity;
pub(crate) mod quantity_text;
mod read;
mod roundtrip;
mod rules;
mod storage;
pub(crate) mod structural;
pub(crate) mod versioned;

use crate::kube::{GroupVersionKind, ResolvedKind};
use crate::value::Value;
use gotypes::GoTypes;

pub(crate) use cluster::limit_range_item;
pub use read::{decode_document, decode_stored, ReadNotes};
pub(crate) use roundtrip::canonical_quantity;

/// The version-dependent rules of what the server stores: each one's description (with the
/// upstream change) and the Kubernetes versions it applies to.
pub fn version_dependent_rules() -> impl Iterator<Item = (&'static str, crate::kube::VersionRange)>
{
    versioned::RULES.iter().map(|r| (r.what, r.versions))
}

/// Which steps run (both for a real server; the conformance vectors check them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The typed round trip only.
    RoundTrip,
    /// The round trip and the defaulters: what the cluster stores.
    Defaulted,
}

/// How a kind is handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindClass {
    /// A Kubernetes built-in type (an `io.k8s.*` definition).
    Builtin,
    /// A custom resource with a structural schema.
    Custom,
    /// No schema: stored as merged.
    Unknown,
}

/// Classifies a resolved kind.
pub fn classify(kind: &ResolvedKind) -> KindClass {
    match (&kind.info, kind.deduced) {
        (_, true) | (None, _) => KindClass::Unknown,
        (Some(info), false) if info.is_builtin() => KindClass::Builtin,
        (Some(_), false) => KindClass::Custom,
    }
}

/// The empty object of a built-in kind as the API server sees it before a create: the typed
/// zero value, with its always-encoded struct fields (`spec: {}`, `status: {}`, …). Custom and
/// unknown kinds are unstructured, so theirs is `{}`.
pub fn zero_object(kind: &ResolvedKind) -> Value {
    let mut zero = Value::Map(crate::value::Map::default());
    if classify(kind) == KindClass::Builtin {
        store(&mut zero, kind, Stage::RoundTrip);
    }
    zero
}

/// Turns a merged object into what the API server would store (`Stage::Defaulted`), in place.
/// `metadata.managedFields` is left as it is.
pub fn store(object: &mut Value, kind: &ResolvedKind, stage: Stage) {
    let managed = take_managed_fields(object);
    match classify(kind) {
        KindClass::Builtin => {
            round_trip(object, &kind.gvk);
            let type_name = kind.info.as_ref().map_or("", |i| i.type_name.as_str());
            if stage == Stage::Defaulted {
                rules::default_object(type_name, object);
                versioned::default(type_name, object, kind.kube_version);
                round_trip(object, &kind.gvk);
            }
            let (schema, root) = (&kind.schema, &kind.type_ref);
            versioned::encode(type_name, schema, root, object, kind.kube_version);
        }
        KindClass::Custom => {
            structural::prune(&kind.schema, &kind.type_ref, object, true);
            if stage == Stage::Defaulted {
                structural::default(&kind.schema, &kind.type_ref, object);
            }
        }
        KindClass::Unknown => {}
    }
    if let Some((index, managed)) = managed {
        if let Some(meta) = object.as_map_mut().and_then(|m| {
            m.entry("metadata".to_string())
                .or_insert_with(|| Value::Map(Default::default()))
                .as_map_mut()
        }) {
            let index = index.min(meta.len());
            meta.shift_insert(index, "managedFields".into(), managed);
        }
    }
}

/// The typed round trip of a whole object (managedFields included) of a kind k8s.io/api
/// declares at `gvk`, deprecated and removed versions too: what the API server's JSON
/// serializer makes of it. Other kinds are left as they are.
pub fn round_trip(object: &mut Value, gvk: &GroupVersionKind) {
    let types = GoTypes::builtin();
    if let Some(root) = types.kind(&gvk.group, &gvk.version, &gvk.kind) {
        roundtrip::round_trip(types, root, object);
    }
}

/// Removes `metadata.managedFields`, returning it with its position.
fn take_managed_fields(object: &mut Value) -> Option<(usize, Value)> {
    let meta = object.as_map_mut()?.get_mut("metadata")?.as_map_mut()?;
    let (index, _, v) = meta.shift_remove_full("managedFields")?;
    Some((index, v))
}

/// The fields of `stored` that neither `applied` nor `live` has: what only the server fills in
/// (defaults and round-trip zero values), as dotted paths (`.spec.replicas`, list items by index).
pub fn server_filled(applied: &Value, live: Option<&Value>, stored: &Value) -> Vec<String> {
    let mut out = Vec::new();
    filled(applied, live, stored, &mut String::new(), &mut out);
    out
}

fn filled(
    applied: &Value,
    live: Option<&Value>,
    stored: &Value,
    path: &mut String,
    out: &mut Vec<String>,
) {
    // A part the server kept as it was applied (the merge and the round trip share what they
    // do not change) holds nothing it filled in.
    if Value::same_shared(applied, stored) {
        return;
    }
    let len = path.len();
    match stored {
        Value::Map(m) => {
            for (i, (k, v)) in m.iter().enumerate() {
                if k == "managedFields" {
                    continue;
                }
                path.push('.');
                path.push_str(k);
                let a = field_near(applied, k, i);
                let l = live.and_then(|l| field_near(l, k, i));
                match (a, l) {
                    (None, None) => out.push(path.clone()),
                    _ => filled(a.unwrap_or(&Value::Null), l, v, path, out),
                }
                path.truncate(len);
            }
        }
        Value::List(items) => {
            for (i, v) in items.iter().enumerate() {
                let a = applied.as_list().and_then(|l| l.get(i));
                let l = live.and_then(Value::as_list).and_then(|l| l.get(i));
                if a.is_none() && l.is_none() {
                    continue;
                }
                path.push('[');
                path.push_str(itoa::Buffer::new().format(i));
                path.push(']');
                filled(a.unwrap_or(&Value::Null), l, v, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// The field `key` of `v`, looked for first at position `i`: the stored object keeps the
/// order of the fields it was given, so the field is nearly always there.
fn field_near<'v>(v: &'v Value, key: &str, i: usize) -> Option<&'v Value> {
    let m = v.as_map()?;
    match m.get_index(i) {
        Some((k, found)) if k == key => Some(found),
        _ => m.get(key),
    }
}

/// [`store`] for a write over `previous`: fields that were already stored keep their place, as
/// the typed encoder writes every object in one (struct) order; new fields follow.
pub fn store_over(object: &mut Value, previous: &Value, kind: &ResolvedKind) {
    store(object, kind, Stage::Defaulted);
    // managedFields keep the order the field sets encode to, whatever was stored before.
    let managed = managed_fields_mut(object).map(std::mem::take);
    align_order(object, previous);
    if let (Some(managed), Some(slot)) = (managed, managed_fields_mut(object)) {
        *slot = managed;
    }
}

fn managed_fields_mut(object: &mut Value) -> Option<&mut Value> {
    object
        .as_map_mut()?
        .get_mut("metadata")?
        .as_map_mut()?
        .get_mut("managedFields")
}

fn align_order(v: &mut Value, previous: &Value) {
    match (v, previous) {
        (Value::Map(m), Value::Map(p)) => {
            m.sort_by_cached_key(|k, _| p.get_index_of(k).unwrap_or(usize::MAX));
            for (k, child) in m.iter_mut() {
                if let Some(pc) = p.get(k) {
                    align_order(child, pc);
                }
            }
        }
        (Value::List(items), Value::List(p)) => {
            for (item, pi) in items.iter_mut().zip(p) {
                align_order(item, pi);
            }
        }
        _ => {}
    }
}
