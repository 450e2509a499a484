//! The API server's conflict error (`internal.NewConflictError`).

use super::entry::Operation;
use super::manager::ManagerId;
use super::server::{ConflictDetail, WriteError};
use super::state::Managed;
use crate::merge::Conflicts;

/// The server's conflict error (`NewConflictError`): one line for one conflict, else the paths
/// grouped under each manager, managers in identifier order.
pub(super) fn conflict_error(conflicts: &Conflicts, managed: &Managed) -> WriteError {
    let mut sorted: Vec<&crate::merge::Conflict> = conflicts.0.iter().collect();
    sorted.sort_by(|a, b| a.manager.cmp(&b.manager));
    let details: Vec<ConflictDetail> = sorted
        .iter()
        .map(|c| {
            let id = ManagerId::from_key(&c.manager)
                .unwrap_or_else(|| ManagerId::new(&c.manager, Operation::Update, "", ""));
            ConflictDetail {
                path: c.path.clone(),
                manager: id.manager,
                operation: id.operation,
                api_version: id.api_version,
                subresource: id.subresource,
                time: managed.time(&c.manager).map(|t| t.to_string()),
            }
        })
        .collect();
    let describe =
        |key: &str| ManagerId::from_key(key).map_or_else(|| format!("{key:?}"), |id| id.describe());
    let message = match sorted.as_slice() {
        [one] => format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            describe(&one.manager),
            one.path
        ),
        many => {
            let mut lines = Vec::new();
            let mut last: Option<&str> = None;
            for c in many {
                if last != Some(c.manager.as_str()) {
                    lines.push(format!("conflicts with {}:", describe(&c.manager)));
                    last = Some(&c.manager);
                }
                lines.push(format!("- {}", c.path));
            }
            format!(
                "Apply failed with {} conflicts: {}",
                many.len(),
                lines.join("\n")
            )
        }
    };
    WriteError::Conflicts {
        conflicts: details,
        message,
    }
}
