//! Helpers of the status subresource tests ([`super::status_apps`], [`super::status_batch`],
//! [`super::status_core`]).

use crate::kube::{KubeVersion, SchemaRegistry};
use crate::managed::Operation;
use crate::validate::{FieldValidation, Write};
use crate::value::{from_json_str, Value};

/// kubectl's message for a status write of `object` onto `live` (both JSON) at `1.minor`,
/// `None` when it is accepted.
#[track_caller]
pub fn status_write(minor: u8, live: &str, object: &str) -> Option<String> {
    let live = from_json_str(live).unwrap();
    let object = from_json_str(object).unwrap();
    let api_version = object.get("apiVersion").and_then(Value::as_str).unwrap();
    let kind_name = object.get("kind").and_then(Value::as_str).unwrap();
    let kind = SchemaRegistry::for_version(KubeVersion::new(minor).unwrap())
        .resolve(api_version, kind_name)
        .unwrap();
    let w = Write {
        kind: &kind,
        operation: Operation::Update,
        manager: "controller",
        subresource: "status",
        field_validation: FieldValidation::Strict,
        body: &object,
        live: Some(&live),
    };
    w.after(&object, false).err().map(|e| e.kubectl_message())
}
