//! The request body's size: k8s.io/apiserver's handlers read at most `MaxRequestBodyBytes`
//! (3 MiB by default, `--max-request-body-bytes`) of a create, update or patch body
//! (endpoints/handlers `limitedReadBodyWithRecordMetric`) and answer a larger one with a 413
//! before decoding it. kubectl sends the object as JSON.

use super::{Reason, StatusError, Write};
use crate::value::to_json_string;

/// The API server's default `MaxRequestBodyBytes` (3 MiB).
pub const MAX_REQUEST_BODY_BYTES: usize = 3 << 20;

/// A 413 when the body, as the JSON kubectl sends, is larger than the server reads.
pub fn check_size(w: &Write) -> Result<(), StatusError> {
    if to_json_string(w.body).len() <= MAX_REQUEST_BODY_BYTES {
        return Ok(());
    }
    Err(StatusError::plain(
        Reason::RequestEntityTooLarge,
        format!("Request entity too large: limit is {MAX_REQUEST_BODY_BYTES}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::{KubeVersion, SchemaRegistry};
    use crate::managed::Operation;
    use crate::validate::FieldValidation;
    use crate::value::{Map, Value};

    #[test]
    fn bodies_over_3_mib_are_refused_with_413() {
        let kind = SchemaRegistry::for_version(KubeVersion::NEWEST)
            .resolve("v1", "ConfigMap")
            .unwrap();
        let body = |size: usize| {
            let mut data = Map::default();
            data.insert("big".into(), Value::from("x".repeat(size).as_str()));
            let mut m = Map::default();
            m.insert("data".into(), Value::Map(data));
            Value::Map(m)
        };
        let check = |body: &Value| {
            check_size(&Write {
                kind: &kind,
                operation: Operation::Apply,
                manager: "kubectl",
                subresource: "",
                field_validation: FieldValidation::Strict,
                body,
                live: None,
            })
        };
        assert!(check(&body(1 << 20)).is_ok());
        let e = check(&body(20 << 20)).unwrap_err();
        assert_eq!(e.code(), 413);
        assert_eq!(
            e.kubectl_message(),
            "Error from server (RequestEntityTooLarge): Request entity too large: limit is 3145728"
        );
    }
}
