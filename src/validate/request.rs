//! The request body's size: k8s.io/apiserver's handlers read at most `MaxRequestBodyBytes`
//! (3 MiB by default, `--max-request-body-bytes`) of a create, update or patch body
//! (endpoints/handlers `limitedReadBodyWithRecordMetric`) and answer a larger one with a 413
//! before decoding it. kubectl sends the object as JSON.

use super::{Reason, StatusError, Write};
use crate::value::{to_json_string, Value};

/// The API server's default `MaxRequestBodyBytes` (3 MiB).
pub const MAX_REQUEST_BODY_BYTES: usize = 3 << 20;

/// A 413 when the body, as the JSON kubectl sends, is larger than the server reads.
pub fn check_size(w: &Write) -> Result<(), StatusError> {
    // Writing the JSON only to measure it costs a tenth of a whole diff: a bound that needs no
    // text settles every ordinary object, and only a large one is measured exactly.
    if json_size_bound(w.body, MAX_REQUEST_BODY_BYTES) <= MAX_REQUEST_BODY_BYTES
        || to_json_string(w.body).len() <= MAX_REQUEST_BODY_BYTES
    {
        return Ok(());
    }
    Err(StatusError::plain(
        Reason::RequestEntityTooLarge,
        format!("Request entity too large: limit is {MAX_REQUEST_BODY_BYTES}"),
    ))
}

/// At least the length of `v`'s compact JSON (every string byte counted as a six-byte escape,
/// every number as 24 bytes); stops counting once past `stop`.
fn json_size_bound(v: &Value, stop: usize) -> usize {
    const NUMBER: usize = 24;
    let string = |s: &str| 6 * s.len() + 2;
    match v {
        Value::Null | Value::Bool(_) => 5,
        Value::Int(_) | Value::Float(_) => NUMBER,
        Value::String(s) => string(s),
        Value::List(items) => {
            let mut size = 2 + items.len();
            for item in items {
                size += json_size_bound(item, stop);
                if size > stop {
                    break;
                }
            }
            size
        }
        Value::Map(m) => {
            let mut size = 2 + m.len();
            for (k, item) in m {
                size += string(k) + 1 + json_size_bound(item, stop);
                if size > stop {
                    break;
                }
            }
            size
        }
    }
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
                patch: None,
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

    #[test]
    fn the_size_bound_is_never_below_the_json_length() {
        let v = crate::value::from_json_str(
            r#"{"a":[1,-2.5e300,null,true,"q\"\u0001é<>&"],"b\n":{"c":{}},"d":[]}"#,
        )
        .unwrap();
        assert!(json_size_bound(&v, usize::MAX) >= to_json_string(&v).len());
        assert!(json_size_bound(&v, 10) > 10);
    }
}
