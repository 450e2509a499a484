//! Update and patch: the first document is the live object, the second a patch applied to it
//! as a merge, JSON and strategic merge patch; each result (and the second document as a whole
//! object) is recorded as an update through the managedFields layer.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use kssa::managed::{write, Operation};
use kssa::patch::{json_patch, merge_patch, strategic_merge_patch, SchemaPatchMeta};
use kssa::value::Value;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::deep(|| {
        let Some(docs) = common::documents(data) else {
            return;
        };
        let [live, patch, ..] = docs.as_slice() else {
            return;
        };
        let Ok(kind) = common::builtin().resolve(
            common::text(live, "apiVersion"),
            common::text(live, "kind"),
        ) else {
            return;
        };
        let meta = SchemaPatchMeta::new(&kind.schema, &kind.type_ref);
        let patched: Vec<Value> = [
            merge_patch(live, patch).ok(),
            json_patch(live, patch).ok(),
            strategic_merge_patch(live, patch, &meta).ok(),
            Some(patch.clone()),
        ]
        .into_iter()
        .flatten()
        .collect();
        for new in &patched {
            let Ok(kind) = common::builtin().resolve(
                common::text(new, "apiVersion"),
                common::text(new, "kind"),
            ) else {
                continue;
            };
            for req in common::requests(Operation::Update) {
                let _ = write(Some(live), new, &kind, &req);
            }
        }
    });
});
