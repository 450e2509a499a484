//! Finding a field among a type's fields by name: by hash first, so a lookup compares one
//! name, not the half-dozen a binary search over names would (string comparisons were the
//! most of what looking up struct fields cost).

use std::hash::BuildHasher;

/// Positions of a list of names, sorted by the names' hashes.
#[derive(Debug, Clone, Default)]
pub(crate) struct NameIndex(Vec<(u64, u32)>);

fn name_hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

impl NameIndex {
    pub fn new<'n>(names: impl Iterator<Item = &'n str>) -> NameIndex {
        let mut index: Vec<(u64, u32)> = names
            .enumerate()
            .map(|(i, name)| (name_hash(name), i as u32))
            .collect();
        index.sort_unstable();
        NameIndex(index)
    }

    /// The position of `name`, given the name at each position.
    pub fn find<'n>(&self, name: &str, name_at: impl Fn(usize) -> &'n str) -> Option<usize> {
        let hash = name_hash(name);
        let first = self.0.partition_point(|&(h, _)| h < hash);
        self.0[first..]
            .iter()
            .take_while(|&&(h, _)| h == hash)
            .map(|&(_, i)| i as usize)
            .find(|&i| name_at(i) == name)
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
}
