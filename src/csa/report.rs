//! What a migration leaves behind: fields the next server-side apply would prune, and fields
//! nobody applies any more, which no apply will ever remove (kubernetes/kubernetes#99003).

use super::Migration;
use crate::fieldpath::{Path, Set};
use crate::managed::{ManagedFieldsEntry, Operation};

/// The consequences of a migration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationReport {
    /// Fields the migrated Apply entry owns that the next applied configuration does not set
    /// and no other manager owns: that apply removes them from the object (a server default
    /// then comes back, owned by nobody).
    pub pruned: Vec<Path>,
    /// Fields the migrated managers owned that afterwards belong to no Apply entry and to no
    /// other Update manager: nobody applies them, so no apply will ever remove them.
    pub stuck: Vec<Path>,
}

impl MigrationReport {
    pub fn is_empty(&self) -> bool {
        self.pruned.is_empty() && self.stuck.is_empty()
    }
}

fn union<'a>(sets: impl Iterator<Item = &'a Set>) -> Set {
    sets.fold(Set::new(), |acc, s| acc.union(s))
}

/// Compares the entries before and after `migration`. `next_apply` is the field set of the
/// configuration the `to` manager applies next (a manifest, or the last-applied annotation);
/// without it nothing is reported as pruned.
pub fn analyse(
    before: &[ManagedFieldsEntry],
    after: &[ManagedFieldsEntry],
    migration: &Migration,
    next_apply: Option<&Set>,
) -> MigrationReport {
    let is_from = |e: &ManagedFieldsEntry| {
        e.operation == Operation::Update && migration.from.contains(&e.manager)
    };
    let is_migrated = |e: &ManagedFieldsEntry| {
        e.operation == Operation::Apply
            && e.manager == migration.to
            && e.subresource == migration.subresource
    };

    let pruned = match (next_apply, after.iter().find(|e| is_migrated(e))) {
        (Some(next), Some(migrated)) => {
            let others = union(after.iter().filter(|e| !is_migrated(e)).map(|e| &e.fields));
            migrated
                .fields
                .leaves()
                .difference(next)
                .difference(&others)
                .sorted_paths()
        }
        _ => Vec::new(),
    };

    let owned_before = union(before.iter().filter(|e| is_from(e)).map(|e| &e.fields));
    let still_applied_or_kept = union(after.iter().filter(|e| !is_from(e)).map(|e| &e.fields));
    let stuck = owned_before
        .leaves()
        .difference(&still_applied_or_kept)
        .sorted_paths();
    MigrationReport { pruned, stuck }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(
        manager: &str,
        operation: Operation,
        version: &str,
        paths: &[&[&str]],
    ) -> ManagedFieldsEntry {
        ManagedFieldsEntry {
            manager: manager.into(),
            operation,
            api_version: version.into(),
            time: None,
            fields: Set::from_paths(paths.iter().map(|p| Path::fields(p))),
            subresource: String::new(),
        }
    }

    #[test]
    fn dropped_entry_of_another_version_leaves_stuck_fields() {
        let m = Migration::new(vec!["csa".into()], "kubectl", "");
        let before = vec![
            entry("kubectl", Operation::Apply, "v2", &[&["a"]]),
            entry("csa", Operation::Update, "v1", &[&["a"], &["b"]]),
        ];
        let after = vec![before[0].clone()];
        let r = analyse(&before, &after, &m, None);
        assert_eq!(r.stuck, vec![Path::fields(&["b"])]);
        assert!(r.pruned.is_empty());
    }

    #[test]
    fn fields_missing_from_the_next_apply_are_pruned_unless_shared() {
        let m = Migration::new(vec!["csa".into()], "kubectl", "");
        let before = vec![
            entry("csa", Operation::Update, "v1", &[&["a"], &["b"], &["c"]]),
            entry("ctl", Operation::Update, "v1", &[&["c"]]),
        ];
        let mut after = before.clone();
        after[0].manager = "kubectl".into();
        after[0].operation = Operation::Apply;
        let next = Set::from_paths([Path::fields(&["a"])]);
        let r = analyse(&before, &after, &m, Some(&next));
        assert_eq!(r.pruned, vec![Path::fields(&["b"])]);
        assert!(r.stuck.is_empty());
    }
}
