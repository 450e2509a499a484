//! Finding a field among a type's fields by name: through a small hash table, so a lookup
//! hashes the name once, probes a slot or two and compares one name, not the half-dozen a
//! binary search over names would (string comparisons, then the binary search over hashes,
//! were the most of what looking up struct fields cost).

use std::hash::BuildHasher;

/// Positions of a list of names in an open-addressing table (linear probing, at most half
/// full): each slot holds the high half of a name's hash and its position plus one (zero:
/// empty).
#[derive(Debug, Clone, Default)]
pub(crate) struct NameIndex {
    slots: Vec<(u32, u32)>,
}

fn name_hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

/// The slot a hash starts probing at. FxHash mixes its last word by one multiplication, which
/// leaves the low bits weakest: the slot comes from the high ones.
fn home(hash: u64, mask: usize) -> usize {
    (hash >> 40) as usize & mask
}

impl NameIndex {
    pub fn new<'n>(names: impl Iterator<Item = &'n str>) -> NameIndex {
        let hashes: Vec<u64> = names.map(name_hash).collect();
        if hashes.is_empty() {
            return NameIndex::default();
        }
        let size = (hashes.len() * 2).next_power_of_two();
        let mask = size - 1;
        let mut slots = vec![(0u32, 0u32); size];
        for (i, &hash) in hashes.iter().enumerate() {
            let mut at = home(hash, mask);
            while slots[at].1 != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = ((hash >> 32) as u32, i as u32 + 1);
        }
        NameIndex { slots }
    }

    /// The position of `name`, given the name at each position.
    pub fn find<'n>(&self, name: &str, name_at: impl Fn(usize) -> &'n str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let hash = name_hash(name);
        let (high, mask) = ((hash >> 32) as u32, self.slots.len() - 1);
        let mut at = home(hash, mask);
        loop {
            let (h, i) = self.slots[at];
            if i == 0 {
                return None;
            }
            if h == high && name_at(i as usize - 1) == name {
                return Some(i as usize - 1);
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_name_and_no_other() {
        let names = ["spec", "status", "metadata", "kind", "apiVersion", ""];
        let index = NameIndex::new(names.iter().copied());
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, |j| names[j]), Some(i));
        }
        assert_eq!(index.find("specs", |j| names[j]), None);
    }

    #[test]
    fn many_names_and_none() {
        let names: Vec<String> = (0..300).map(|i| format!("field{i}")).collect();
        let index = NameIndex::new(names.iter().map(String::as_str));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, |j| &names[j]), Some(i));
        }
        assert_eq!(index.find("field300", |j| &names[j]), None);
        let empty = NameIndex::new(std::iter::empty());
        assert_eq!(empty.find("spec", |_| unreachable!()), None);
    }

    #[test]
    fn duplicate_names_find_the_first() {
        let names = ["a", "b", "a"];
        let index = NameIndex::new(names.iter().copied());
        assert_eq!(index.find("a", |j| names[j]), Some(0));
    }
}
