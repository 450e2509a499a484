//! The updater: server-side apply and update over a value, its schema and the managers'
//! field sets, with conflicts and pruning as structured-merge-diff defines them.

mod conflict;
mod converter;
mod updater;

pub use conflict::{Conflict, Conflicts};
pub use converter::{ConversionError, Converter, SingleVersion};
pub use updater::{ApplyOutcome, UpdateError, Updated, Updater};
