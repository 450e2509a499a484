//! What the targets share: documents from the fuzzer's bytes, the built-in registry, and the
//! deep-stack thread every library call runs on (input may nest as deep as the reader allows).
#![allow(dead_code)]

use kssa::kube::SchemaRegistry;
use kssa::managed::{Operation, WriteRequest};
use kssa::validate::FieldValidation;
use kssa::value::Value;
use std::sync::OnceLock;

/// The documents of `data` read as a manifest stream; `None` when the reader rejects it.
pub fn documents(data: &[u8]) -> Option<Vec<Value>> {
    kssa::yaml::parse_stream(data)
        .ok()
        .map(|docs| docs.into_iter().map(|d| d.value).collect())
}

pub fn builtin() -> &'static SchemaRegistry {
    static REGISTRY: OnceLock<SchemaRegistry> = OnceLock::new();
    REGISTRY.get_or_init(SchemaRegistry::new)
}

pub fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Runs `work` the way the CLI does: on a thread with the library's deep stack.
pub fn deep<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    kssa::stack::with_deep_stack(work)
}

/// Every combination of the write options that change the code path.
pub fn requests(operation: Operation) -> impl Iterator<Item = WriteRequest<'static>> {
    [false, true].into_iter().flat_map(move |defaulting| {
        [false, true].into_iter().map(move |force| WriteRequest {
            operation,
            manager: if force { "kubectl" } else { "fuzz" },
            force,
            subresource: "",
            now: "2024-01-01T00:00:00Z",
            reset_fields: true,
            normalize_unions: !force,
            defaulting,
            // With defaulting the write is also checked as the server checks it (the built-in
            // rules, CRD schemas, decoding); without, the engine alone.
            validation: defaulting.then_some(FieldValidation::Strict),
            managed_fields: true,
            patch: None,
        })
    })
}
