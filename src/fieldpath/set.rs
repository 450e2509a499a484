//! Field sets: a trie of path elements. A path is in the set when its last element is a member
//! of the node its prefix leads to; children hold the sets below each element.
//!
//! Members and children are kept sorted, so every set operation is a linear merge.

use super::element::{Path, PathElement};
use std::cmp::Ordering;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Set {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Set)>,
}

impl Set {
    pub fn new() -> Set {
        Set::default()
    }

    /// A set holding the given paths.
    pub fn from_paths<I: IntoIterator<Item = Path>>(paths: I) -> Set {
        let mut s = Set::new();
        for p in paths {
            s.insert(&p);
        }
        s
    }

    /// Constant time: no operation keeps an empty child (each drops the children left empty),
    /// so a node is empty exactly when it has neither members nor children. A recursive check
    /// would make building a deep set quadratic in its depth.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    pub fn members(&self) -> &[PathElement] {
        &self.members
    }

    pub fn children(&self) -> impl Iterator<Item = (&PathElement, &Set)> {
        self.children.iter().map(|(pe, s)| (pe, s))
    }

    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members.binary_search(pe).is_ok()
    }

    pub fn child(&self, pe: &PathElement) -> Option<&Set> {
        self.children
            .binary_search_by(|(p, _)| p.cmp(pe))
            .ok()
            .map(|i| &self.children[i].1)
    }

    /// The child node for `pe`, created when missing; callers put something in it.
    fn child_mut(&mut self, pe: &PathElement) -> &mut Set {
        let i = match self.children.binary_search_by(|(p, _)| p.cmp(pe)) {
            Ok(i) => i,
            Err(i) => {
                self.children.insert(i, (pe.clone(), Set::new()));
                i
            }
        };
        &mut self.children[i].1
    }

    pub fn insert_member(&mut self, pe: PathElement) {
        if let Err(i) = self.members.binary_search(&pe) {
            self.members.insert(i, pe);
        }
    }

    pub fn insert(&mut self, path: &Path) {
        self.insert_elements(path.elements());
    }

    pub fn insert_elements(&mut self, path: &[PathElement]) {
        match path {
            [] => {}
            [last] => self.insert_member(last.clone()),
            [first, rest @ ..] => self.child_mut(first).insert_elements(rest),
        }
    }

    /// Builds a node from parts that may be unsorted; used by walkers that build bottom-up.
    pub fn from_parts(mut members: Vec<PathElement>, mut children: Vec<(PathElement, Set)>) -> Set {
        members.sort();
        members.dedup();
        children.retain(|(_, s)| !s.is_empty());
        children.sort_by(|a, b| a.0.cmp(&b.0));
        // Equal elements (possible with duplicate list items) are merged.
        let mut merged: Vec<(PathElement, Set)> = Vec::with_capacity(children.len());
        for (pe, s) in children {
            match merged.last_mut() {
                Some((last, ls)) if *last == pe => *ls = ls.union(&s),
                _ => merged.push((pe, s)),
            }
        }
        Set {
            members,
            children: merged,
        }
    }

    pub fn has(&self, path: &Path) -> bool {
        self.has_elements(path.elements())
    }

    pub fn has_elements(&self, path: &[PathElement]) -> bool {
        match path {
            [] => false,
            [last] => self.has_member(last),
            [first, rest @ ..] => self.child(first).is_some_and(|c| c.has_elements(rest)),
        }
    }

    /// Whether the set owns the field at `path` itself, or an atomic container above it (a
    /// member with nothing recorded below).
    pub fn covers(&self, path: &[PathElement]) -> bool {
        matches!(self.reach(path), Reach::Covered)
    }

    /// [`Set::covers`], or the set owns something below `path`.
    pub fn claims(&self, path: &[PathElement]) -> bool {
        match self.reach(path) {
            Reach::Covered => true,
            Reach::Below(node) => !node.is_empty(),
            Reach::Outside => false,
        }
    }

    /// Walks `path` down the set, stopping at an owned field on the way.
    fn reach(&self, path: &[PathElement]) -> Reach<'_> {
        let mut node = self;
        for (i, pe) in path.iter().enumerate() {
            let child = node.child(pe);
            if node.has_member(pe) && (child.is_none() || i + 1 == path.len()) {
                return Reach::Covered;
            }
            match child {
                Some(c) => node = c,
                None => return Reach::Outside,
            }
        }
        Reach::Below(node)
    }

    /// The set below `pe` (empty when there is none).
    pub fn with_prefix(&self, pe: &PathElement) -> Set {
        self.child(pe).cloned().unwrap_or_default()
    }

    pub fn union(&self, other: &Set) -> Set {
        Set {
            members: merge_sorted(&self.members, &other.members, true, true, true),
            children: zip_children(&self.children, &other.children, |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a.union(b)),
                (Some(x), None) | (None, Some(x)) => Some(x.clone()),
                (None, None) => None,
            }),
        }
    }

    pub fn intersection(&self, other: &Set) -> Set {
        Set {
            members: merge_sorted(&self.members, &other.members, false, false, true),
            children: zip_children(&self.children, &other.children, |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a.intersection(b)).filter(|s| !s.is_empty()),
                _ => None,
            }),
        }
    }

    /// Removes the paths of `other`; a child node survives when something is left below it.
    pub fn difference(&self, other: &Set) -> Set {
        Set {
            members: merge_sorted(&self.members, &other.members, true, false, false),
            children: zip_children(&self.children, &other.children, |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a.difference(b)).filter(|s| !s.is_empty()),
                (Some(a), None) => Some(a.clone()),
                _ => None,
            }),
        }
    }

    /// [`Set::difference`] in place: the work follows `other`, so taking a small set out of a
    /// large one copies nothing.
    pub fn subtract(&mut self, other: &Set) {
        if !other.members.is_empty() {
            self.members.retain(|m| !other.has_member(m));
        }
        for (pe, o) in &other.children {
            if let Ok(i) = self.children.binary_search_by(|(p, _)| p.cmp(pe)) {
                self.children[i].1.subtract(o);
                if self.children[i].1.is_empty() {
                    self.children.remove(i);
                }
            }
        }
    }

    /// [`Set::recursive_difference`] in place (see [`Set::subtract`]).
    pub fn recursive_subtract(&mut self, other: &Set) {
        if !other.members.is_empty() {
            self.members.retain(|m| !other.has_member(m));
            self.children.retain(|(pe, _)| !other.has_member(pe));
        }
        for (pe, o) in &other.children {
            if let Ok(i) = self.children.binary_search_by(|(p, _)| p.cmp(pe)) {
                self.children[i].1.recursive_subtract(o);
                if self.children[i].1.is_empty() {
                    self.children.remove(i);
                }
            }
        }
    }

    /// Like [`Set::difference`], but a member of `other` also removes everything below it.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let mut children = Vec::with_capacity(self.children.len());
        for (pe, child) in &self.children {
            if other.has_member(pe) {
                continue;
            }
            match other.child(pe) {
                Some(o) => {
                    let d = child.recursive_difference(o);
                    if !d.is_empty() {
                        children.push((pe.clone(), d));
                    }
                }
                None => children.push((pe.clone(), child.clone())),
            }
        }
        Set {
            members: merge_sorted(&self.members, &other.members, true, false, false),
            children,
        }
    }

    /// The members that have nothing below them, at every level.
    pub fn leaves(&self) -> Set {
        let members = self
            .members
            .iter()
            .filter(|m| self.child(m).is_none())
            .cloned()
            .collect();
        let children = self
            .children
            .iter()
            .map(|(pe, c)| (pe.clone(), c.leaves()))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        Set { members, children }
    }

    /// Number of paths in the set.
    pub fn size(&self) -> usize {
        self.members.len() + self.children.iter().map(|(_, c)| c.size()).sum::<usize>()
    }

    /// Calls `f` with every path: this node's members first, then each child's, in order.
    pub fn iterate(&self, mut f: impl FnMut(&Path)) {
        let mut prefix = Path::root();
        self.iterate_prefix(&mut prefix, &mut f);
    }

    fn iterate_prefix(&self, prefix: &mut Path, f: &mut impl FnMut(&Path)) {
        for m in &self.members {
            prefix.0.push(m.clone());
            f(prefix);
            prefix.0.pop();
        }
        for (pe, c) in &self.children {
            prefix.0.push(pe.clone());
            c.iterate_prefix(prefix, f);
            prefix.0.pop();
        }
    }

    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::with_capacity(self.size());
        self.iterate(|p| out.push(p.clone()));
        out
    }

    /// Every path, in sorted order.
    pub fn sorted_paths(&self) -> Vec<Path> {
        let mut out = self.paths();
        out.sort();
        out
    }

    /// Keeps only paths for which `keep` says yes; used by ignore filters.
    pub fn filter(&self, keep: &impl Fn(&Path) -> bool) -> Set {
        Set::from_paths(self.paths().into_iter().filter(|p| keep(p)))
    }

    /// Paths that start with `prefix`, with the prefix kept.
    pub fn restricted_to(&self, prefix: &[PathElement]) -> Set {
        match prefix {
            [] => self.clone(),
            [first, rest @ ..] => {
                let mut out = Set::new();
                if rest.is_empty() && self.has_member(first) {
                    out.insert_member(first.clone());
                }
                if let Some(c) = self.child(first) {
                    let below = c.restricted_to(rest);
                    if !below.is_empty() {
                        *out.child_mut(first) = below;
                    }
                }
                out
            }
        }
    }
}

/// Merges two sorted vectors, keeping the items found only on the left, only on the right,
/// and on both sides, as asked.
fn merge_sorted(
    a: &[PathElement],
    b: &[PathElement],
    left: bool,
    right: bool,
    common: bool,
) -> Vec<PathElement> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                if left {
                    out.push(a[i].clone());
                }
                i += 1;
            }
            Ordering::Greater => {
                if right {
                    out.push(b[j].clone());
                }
                j += 1;
            }
            Ordering::Equal => {
                if common {
                    out.push(a[i].clone());
                }
                i += 1;
                j += 1;
            }
        }
    }
    if left {
        out.extend(a[i..].iter().cloned());
    }
    if right {
        out.extend(b[j..].iter().cloned());
    }
    out
}

fn zip_children(
    a: &[(PathElement, Set)],
    b: &[(PathElement, Set)],
    f: impl Fn(Option<&Set>, Option<&Set>) -> Option<Set>,
) -> Vec<(PathElement, Set)> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    loop {
        let (pe, r) = match (a.get(i), b.get(j)) {
            (None, None) => break,
            (Some((pa, sa)), None) => {
                i += 1;
                (pa, f(Some(sa), None))
            }
            (None, Some((pb, sb))) => {
                j += 1;
                (pb, f(None, Some(sb)))
            }
            (Some((pa, sa)), Some((pb, sb))) => match pa.cmp(pb) {
                Ordering::Less => {
                    i += 1;
                    (pa, f(Some(sa), None))
                }
                Ordering::Greater => {
                    j += 1;
                    (pb, f(None, Some(sb)))
                }
                Ordering::Equal => {
                    i += 1;
                    j += 1;
                    (pa, f(Some(sa), Some(sb)))
                }
            },
        };
        if let Some(s) = r {
            out.push((pe.clone(), s));
        }
    }
    out
}

/// Where a path ends up in a set ([`Set::reach`]).
enum Reach<'a> {
    /// The path's field, or an atomic container above it, is a member.
    Covered,
    /// The path leads out of the set.
    Outside,
    /// The whole path is in the set; what is recorded below it.
    Below(&'a Set),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(names: &[&str]) -> Path {
        Path::fields(names)
    }

    #[test]
    fn union_intersection_difference() {
        let a = Set::from_paths([p(&["a"]), p(&["b", "c"]), p(&["b", "d"])]);
        let b = Set::from_paths([p(&["b", "c"]), p(&["e"])]);
        assert_eq!(a.union(&b).size(), 4);
        assert_eq!(a.intersection(&b).paths(), vec![p(&["b", "c"])]);
        assert_eq!(
            a.difference(&b).sorted_paths(),
            vec![p(&["a"]), p(&["b", "d"])]
        );
    }

    #[test]
    fn recursive_difference_removes_below_members() {
        let a = Set::from_paths([p(&["b"]), p(&["b", "c"]), p(&["x"])]);
        let b = Set::from_paths([p(&["b"])]);
        assert_eq!(
            a.difference(&b).sorted_paths(),
            vec![p(&["b", "c"]), p(&["x"])]
        );
        assert_eq!(a.recursive_difference(&b).paths(), vec![p(&["x"])]);
    }

    #[test]
    fn leaves_drop_members_with_children() {
        let a = Set::from_paths([p(&["b"]), p(&["b", "c"]), p(&["x"])]);
        assert_eq!(a.leaves().sorted_paths(), vec![p(&["b", "c"]), p(&["x"])]);
    }
}

#[cfg(test)]
mod laws {
    use super::*;
    use crate::fieldpath::fieldsv1::properties_support::set;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn subtract_is_difference_in_place(a in set(), b in set()) {
            let mut c = a.clone();
            c.subtract(&b);
            prop_assert_eq!(c, a.difference(&b));
        }

        #[test]
        fn recursive_subtract_is_recursive_difference_in_place(a in set(), b in set()) {
            let mut c = a.clone();
            c.recursive_subtract(&b);
            prop_assert_eq!(c, a.recursive_difference(&b));
        }

        #[test]
        fn union_and_intersection_are_commutative(a in set(), b in set()) {
            prop_assert_eq!(a.union(&b), b.union(&a));
            prop_assert_eq!(a.intersection(&b), b.intersection(&a));
        }

        #[test]
        fn paths_behave_as_sets(a in set(), b in set()) {
            let has = |s: &Set, p: &Path| s.has(p);
            for p in a.paths().into_iter().chain(b.paths()) {
                prop_assert_eq!(has(&a.union(&b), &p), has(&a, &p) || has(&b, &p));
                prop_assert_eq!(has(&a.intersection(&b), &p), has(&a, &p) && has(&b, &p));
                prop_assert_eq!(has(&a.difference(&b), &p), has(&a, &p) && !has(&b, &p));
            }
        }

        #[test]
        fn difference_and_union_recover(a in set(), b in set()) {
            prop_assert_eq!(a.difference(&b).union(&a.intersection(&b)), a.clone());
            prop_assert!(a.recursive_difference(&b).intersection(&b).is_empty());
            prop_assert_eq!(a.union(&a), a.clone());
            prop_assert!(a.difference(&a).is_empty());
        }
    }
}
