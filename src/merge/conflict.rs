//! Conflicts: fields another manager owns that an apply would change.

use crate::fieldpath::{ManagedFields, Path};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Conflict {
    pub manager: String,
    pub path: Path,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "conflict with {:?}: {}", self.manager, self.path)
    }
}

/// Conflicts sorted by manager, then in field-set order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Conflicts(pub Vec<Conflict>);

impl Conflicts {
    /// The conflicts recorded per manager (manager order is the map's, sorted).
    pub fn from_managers(sets: &ManagedFields) -> Conflicts {
        let mut out = Vec::new();
        for (manager, vs) in sets {
            vs.set.iterate(|p| {
                out.push(Conflict {
                    manager: manager.clone(),
                    path: p.clone(),
                })
            });
        }
        Conflicts(out)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Conflicting paths grouped by manager, managers sorted.
    pub fn by_manager(&self) -> Vec<(&str, Vec<&Path>)> {
        let mut groups: Vec<(&str, Vec<&Path>)> = Vec::new();
        let mut sorted: Vec<&Conflict> = self.0.iter().collect();
        sorted.sort_by(|a, b| a.manager.cmp(&b.manager));
        for c in sorted {
            match groups.last_mut() {
                Some((m, paths)) if *m == c.manager => paths.push(&c.path),
                _ => groups.push((&c.manager, vec![&c.path])),
            }
        }
        groups
    }
}

impl fmt::Display for Conflicts {
    /// The reference's wording: one line per manager, a list when a manager has several.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(f, "{one}");
        }
        for (i, (manager, paths)) in self.by_manager().into_iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            match paths.as_slice() {
                [one] => write!(f, "conflict with {manager:?}: {one}")?,
                many => {
                    write!(f, "conflicts with {manager:?}:")?;
                    for p in many {
                        write!(f, "\n- {p}")?;
                    }
                }
            }
        }
        Ok(())
    }
}
