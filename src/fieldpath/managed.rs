//! Ownership as the engine sees it: manager name → the fields it owns at one API version.

use super::set::Set;
use std::collections::BTreeMap;

/// The fields one manager owns, at the API version it wrote them in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionedSet {
    pub set: Set,
    pub api_version: String,
    /// Whether the manager wrote them by apply (as opposed to update).
    pub applied: bool,
}

impl VersionedSet {
    pub fn new(set: Set, api_version: impl Into<String>, applied: bool) -> VersionedSet {
        VersionedSet {
            set,
            api_version: api_version.into(),
            applied,
        }
    }
}

/// Every manager's fields, keyed by manager identity (sorted, so iteration is deterministic).
pub type ManagedFields = BTreeMap<String, VersionedSet>;
