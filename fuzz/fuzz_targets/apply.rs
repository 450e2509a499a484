//! Apply through the managedFields layer: the first document is the live object, the second
//! the applied configuration (a single document is applied to nothing: a create), with the
//! kind's built-in schema or the deduced one.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use kssa::managed::{write, Operation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::deep(|| {
        let Some(docs) = common::documents(data) else {
            return;
        };
        let (live, config) = match docs.as_slice() {
            [config] => (None, config),
            [live, config, ..] => (Some(live), config),
            [] => return,
        };
        let Ok(kind) = common::builtin().resolve(
            common::text(config, "apiVersion"),
            common::text(config, "kind"),
        ) else {
            return;
        };
        for req in common::requests(Operation::Apply) {
            if let Ok(outcome) = write(live, config, &kind, &req) {
                // The no-op path: the same configuration applied again.
                let _ = write(Some(&outcome.object), config, &kind, &req);
            }
        }
    });
});
