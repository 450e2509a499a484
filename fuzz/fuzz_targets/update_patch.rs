//! Update and patch: the first document is the live object, the second a patch applied to it
//! as a merge, JSON and strategic merge patch; each result (and the second document as a whole
//! object) is recorded as an update through the managedFields layer.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use kssa::managed::{write, Operation, WriteRequest};
use kssa::patch::{json_patch, merge_patch, strategic_merge_patch, SchemaPatchMeta};
use kssa::validate::{Patch, PatchType};
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
        // Each result with the patch that made it, which the server's refusals quote; the
        // second document as a whole object is a PUT.
        let patched: Vec<(Value, Option<PatchType>)> = [
            merge_patch(live, patch).ok().map(|v| (v, Some(PatchType::Merge))),
            json_patch(live, patch).ok().map(|v| (v, Some(PatchType::Json))),
            strategic_merge_patch(live, patch, &meta)
                .ok()
                .map(|v| (v, Some(PatchType::Strategic))),
            Some((patch.clone(), None)),
        ]
        .into_iter()
        .flatten()
        .collect();
        for (new, patch_type) in &patched {
            let Ok(kind) = common::builtin().resolve(
                common::text(new, "apiVersion"),
                common::text(new, "kind"),
            ) else {
                continue;
            };
            for req in common::requests(Operation::Update) {
                let req = WriteRequest {
                    patch: patch_type.map(|patch_type| Patch {
                        patch_type,
                        document: patch,
                    }),
                    ..req
                };
                let _ = write(Some(live), new, &kind, &req);
            }
        }
    });
});
