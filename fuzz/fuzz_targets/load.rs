//! Loading: a manifest stream (YAML or JSON) read into documents, printed back as YAML and
//! read again, and the same bytes as a JSON value.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::deep(|| {
        if let Some(docs) = common::documents(data) {
            for doc in &docs {
                let text = kssa::yaml::to_yaml_string(doc);
                let _ = kssa::yaml::parse_document(&text);
                let _ = kssa::value::to_json_string(doc);
            }
        }
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = kssa::value::from_json_str(text);
        }
    });
});
