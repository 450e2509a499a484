//! The API server's managedFields layer: entries as stored in `metadata.managedFields`, and the
//! rules the server applies around the engine.

pub mod blame;
mod entry;
pub mod ownership;
pub mod strip;
pub mod time;

pub use entry::{
    decode_managed_fields, encode_managed_fields, ManagedFieldsEntry, ManagedFieldsError, Operation,
};
