//! Maps and lists shared copy-on-write: cloning a value is a reference-count increment, and a
//! container is copied (one level, its children still shared) only when it is changed while
//! shared. The engine hands out subtrees of the live object and of the applied configuration
//! (atomic lists, untouched items, unchanged objects) without deep copies, as the reference's
//! typed values point into the objects they were built from.

use super::Value;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// The entries of a [`Map`]: field name to value, in insertion order.
pub type Entries = indexmap::IndexMap<String, Value, rustc_hash::FxBuildHasher>;

/// Maps up to this many entries are searched by comparing keys rather than through the index.
const SCANNED_LEN: usize = 8;

/// An insertion-ordered map of field name to value, shared copy-on-write.
#[derive(Clone, Default)]
pub struct Map(Arc<Entries>);

/// A list of values, shared copy-on-write.
#[derive(Clone, Default)]
pub struct List(Arc<Vec<Value>>);

impl Map {
    pub fn with_capacity(n: usize) -> Map {
        Map(Arc::new(Entries::with_capacity_and_hasher(
            n,
            Default::default(),
        )))
    }

    /// Kept for the call sites written against `IndexMap`'s constructor.
    pub fn with_capacity_and_hasher(n: usize, _: rustc_hash::FxBuildHasher) -> Map {
        Map::with_capacity(n)
    }

    // `Map::is_empty` and `Map::len` as paths (`is_some_and(Map::is_empty)`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The position of `key`. Most maps of an object hold a handful of fields, where comparing
    /// the keys in turn (a length check rejects most of them) is cheaper than hashing the key
    /// and probing the index: lookups were a twentieth of a merge's instructions.
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        if self.0.len() <= SCANNED_LEN {
            self.0.keys().position(|k| k == key)
        } else {
            self.0.get_index_of(key)
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.get_index_of(key).map(|i| &self.0[i])
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The value under `key`, the map copied first if shared (as through `DerefMut`).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.get_index_of(key)?;
        Some(&mut Arc::make_mut(&mut self.0)[i])
    }

    /// Whether both are the same shared map (then they are equal without comparing entries).
    pub fn ptr_eq(a: &Map, b: &Map) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The entries, copied only if shared.
    pub fn into_entries(self) -> Entries {
        Arc::unwrap_or_clone(self.0)
    }
}

impl List {
    pub fn new() -> List {
        List::default()
    }

    pub fn with_capacity(n: usize) -> List {
        List(Arc::new(Vec::with_capacity(n)))
    }

    pub fn ptr_eq(a: &List, b: &List) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The items, copied only if shared.
    pub fn into_vec(self) -> Vec<Value> {
        Arc::unwrap_or_clone(self.0)
    }
}

impl Deref for Map {
    type Target = Entries;
    fn deref(&self) -> &Entries {
        &self.0
    }
}

impl DerefMut for Map {
    fn deref_mut(&mut self) -> &mut Entries {
        Arc::make_mut(&mut self.0)
    }
}

impl Deref for List {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for List {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        Arc::make_mut(&mut self.0)
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Entries> for Map {
    fn from(entries: Entries) -> Map {
        Map(Arc::new(entries))
    }
}

impl From<Vec<Value>> for List {
    fn from(items: Vec<Value>) -> List {
        List(Arc::new(items))
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        Map(Arc::new(iter.into_iter().collect()))
    }
}

impl FromIterator<Value> for List {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> List {
        List(Arc::new(iter.into_iter().collect()))
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        (**self).extend(iter);
    }
}

impl Extend<Value> for List {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        (**self).extend(iter);
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = indexmap::map::IntoIter<String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_entries().into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = indexmap::map::Iter<'a, String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a String, &'a mut Value);
    type IntoIter = indexmap::map::IterMut<'a, String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter_mut()
    }
}

impl IntoIterator for List {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut List {
    type Item = &'a mut Value;
    type IntoIter = std::slice::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter_mut()
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        // Maps usually share their key order: compare by position, look up otherwise.
        Map::ptr_eq(self, other)
            || self.len() == other.len()
                && self.iter().zip(other.iter()).all(|((ka, va), (kb, vb))| {
                    if ka == kb {
                        va == vb
                    } else {
                        other.get(ka) == Some(va)
                    }
                })
    }
}

impl Eq for Map {}

impl PartialEq for List {
    fn eq(&self, other: &List) -> bool {
        List::ptr_eq(self, other) || *self.0 == *other.0
    }
}

impl Eq for List {}

impl std::hash::Hash for List {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_until_changed() {
        let mut a: Map = [("x".to_string(), Value::Int(1))].into_iter().collect();
        let b = a.clone();
        assert!(Map::ptr_eq(&a, &b));
        a.insert("y".into(), Value::Int(2));
        assert!(!Map::ptr_eq(&a, &b));
        assert_eq!(b.len(), 1);
        assert_eq!(a.len(), 2);
    }

    #[test]
    fn a_unique_list_is_changed_in_place() {
        let mut l: List = vec![Value::Int(1)].into();
        let before = Arc::as_ptr(&l.0);
        l.push(Value::Int(2));
        assert_eq!(Arc::as_ptr(&l.0), before);
        assert_eq!(l.into_vec(), vec![Value::Int(1), Value::Int(2)]);
    }
}
