//! The API server's managedFields layer: entries as stored in `metadata.managedFields`, manager
//! identity, and the write path ([`write`]) that applies the server's rules around the engine.
//!
//! ```text
//! write(live: Option<&Value>, object: &Value, kind: &ResolvedKind, req: &WriteRequest)
//!     -> Result<WriteOutcome { object, changed, managed_fields_changed }, WriteError>
//! ```
//! `live` is the stored object (`None`: the write creates it). See [`server`] for the rules.

pub mod age;
pub mod blame;
mod conflict;
mod entry;
pub mod kubectl;
pub mod last_applied;
mod manager;
pub mod neat;
pub mod ownership;
pub mod reset;
pub mod server;
mod state;
pub mod strip;
mod time;

pub use entry::{
    decode_managed_fields, encode_managed_fields, ManagedFieldsEntry, ManagedFieldsError, Operation,
};
pub use manager::ManagerId;
pub use server::{write, ConflictDetail, WriteError, WriteOutcome, WriteRequest};
pub use time::{Time, TimeError};

#[cfg(test)]
mod server_tests;
