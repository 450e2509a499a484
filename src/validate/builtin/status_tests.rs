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
        patch: None,
        live: Some(&live),
    };
    w.after(&object, false).err().map(|e| e.kubectl_message())
}

mod tests {
    use crate::kube::{KubeVersion, SchemaRegistry};
    use crate::managed::Operation;
    use crate::validate::{FieldValidation, Write};
    use crate::value::from_json_str;

    #[track_caller]
    fn create_through_status(api_version: &str, kind: &str) -> Option<String> {
        let object = from_json_str(&format!(
            r#"{{"apiVersion":"{api_version}","kind":"{kind}","metadata":{{"name":"web","namespace":"default"}},"status":{{}}}}"#
        ))
        .unwrap();
        let kind = SchemaRegistry::for_version(KubeVersion::NEWEST)
            .resolve(api_version, kind)
            .unwrap();
        let w = Write {
            kind: &kind,
            operation: Operation::Apply,
            manager: "controller",
            subresource: "status",
            field_validation: FieldValidation::Strict,
            body: &object,
            patch: None,
            live: None,
        };
        w.after(&object, false).err().map(|e| e.kubectl_message())
    }

    #[test]
    fn a_status_write_never_creates() {
        assert_eq!(
            create_through_status("apps/v1", "Deployment").unwrap(),
            "Error from server (NotFound): deployments.apps \"web\" not found"
        );
        assert_eq!(
            create_through_status("v1", "Pod").unwrap(),
            "Error from server (NotFound): pods \"web\" not found"
        );
    }
}
