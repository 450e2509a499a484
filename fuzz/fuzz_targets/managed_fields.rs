//! managedFields decoding: the entries of a document's `metadata.managedFields` (and the bytes
//! as raw FieldsV1), re-encoded, listed and blamed.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use kssa::fieldpath::{from_fields_v1_str, to_fields_v1_string};
use kssa::managed::{blame, decode_managed_fields, encode_managed_fields, ownership};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::deep(|| {
        if let Ok(text) = std::str::from_utf8(data) {
            if let Ok(set) = from_fields_v1_str(text) {
                let encoded = to_fields_v1_string(&set);
                assert_eq!(from_fields_v1_str(&encoded).as_ref(), Ok(&set));
                let _ = set.leaves();
            }
        }
        for doc in common::documents(data).unwrap_or_default() {
            let Ok(entries) = decode_managed_fields(&doc) else {
                continue;
            };
            let _ = encode_managed_fields(&entries);
            let _ = ownership::render_table(&ownership::manager_rows(&entries, Some(0)));
            let _ = blame::blame(&doc, &entries, Some(0));
            let _ = kssa::managed::server::write(
                Some(&doc),
                &doc,
                &kssa::kube::ResolvedKind::deduced(kssa::kube::GroupVersionKind::new(
                    common::text(&doc, "apiVersion"),
                    common::text(&doc, "kind"),
                )),
                &common::requests(kssa::managed::Operation::Update).next().unwrap(),
            );
        }
    });
});
