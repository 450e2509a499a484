//! CRD loading: the first document as a schema document (CRD, OpenAPI or SMD schema YAML); the
//! kinds it serves resolve, and the following documents are applied with it and created by an
//! update that is validated.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use kssa::kube::SchemaRegistry;
use kssa::managed::{write, Operation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::deep(|| {
        let Some(docs) = common::documents(data) else {
            return;
        };
        let Some((schema, objects)) = docs.split_first() else {
            return;
        };
        let mut registry = SchemaRegistry::without_builtin();
        let Ok(kinds) = registry.add_document(schema) else {
            return;
        };
        for info in &kinds {
            let api_version = match info.group.as_str() {
                "" => info.version.clone(),
                group => format!("{group}/{}", info.version),
            };
            let _ = registry.resolve(&api_version, &info.kind);
        }
        for object in objects {
            let Ok(kind) = registry.resolve(
                common::text(object, "apiVersion"),
                common::text(object, "kind"),
            ) else {
                continue;
            };
            for req in common::requests(Operation::Apply).take(2) {
                let _ = write(None, object, &kind, &req);
            }
            // A create by PUT or POST, checked as the server checks it: the custom resource's
            // body goes through the CRD's decoder (unknown, pruned and embedded fields) and its
            // schema and rules.
            if let Some(req) = common::requests(Operation::Update).find(|r| r.validation.is_some())
            {
                let _ = write(None, object, &kind, &req);
            }
        }
    });
});
