//! The status a strategy's `PrepareForCreate` gives a new object where it is more than the
//! empty status the reset fields leave (k8s.io/kubernetes pkg/registry, kube-aggregator):
//!
//! - Pod: `phase: Pending`, the QoS class, a scheduling-gated condition ([`super::pod_status`]);
//! - PersistentVolume (core/persistentvolume/strategy.go): `phase: Pending` and
//!   `lastPhaseTransitionTime` the time of the write (1.30 behind
//!   PersistentVolumeLastPhaseTransitionTime, beta and on);
//! - APIService (apiregistration/apiservice/strategy.go): one without `spec.service` (served
//!   by the API server itself) is `Available` at once (`NewLocalAvailableAPIServiceCondition`).

use super::KubeVersion;
use crate::value::access::{present, text};
use crate::value::{List, Map, Value};

/// Sets the created status of `object`; `sent` is what the client sent, `now` the write's time
/// (RFC 3339). Kinds whose strategy leaves the status empty are left alone.
pub fn set(object: &mut Value, sent: &Value, version: KubeVersion, now: &str) {
    let status = match (text(object, "apiVersion"), text(object, "kind")) {
        ("v1", "Pod") => return super::pod_status::created(object, sent, version, now),
        ("v1", "PersistentVolume") => map(&[
            ("phase", Value::String("Pending".into())),
            ("lastPhaseTransitionTime", Value::String(now.into())),
        ]),
        ("apiregistration.k8s.io/v1", "APIService")
            if object
                .get("spec")
                .is_none_or(|s| present(s, "service").is_none()) =>
        {
            let condition = map(&[
                ("type", Value::String("Available".into())),
                ("status", Value::String("True".into())),
                ("lastTransitionTime", Value::String(now.into())),
                ("reason", Value::String("Local".into())),
                (
                    "message",
                    Value::String("Local APIServices are always available".into()),
                ),
            ]);
            map(&[("conditions", Value::List(List::from(vec![condition])))])
        }
        _ => return,
    };
    if let Some(o) = object.as_map_mut() {
        o.insert("status".into(), status);
    }
}

fn map(entries: &[(&str, Value)]) -> Value {
    Value::Map(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect::<Map>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_json_str, to_json_string};

    fn status(object: &str) -> String {
        let mut object = from_json_str(object).unwrap();
        let sent = object.clone();
        set(
            &mut object,
            &sent,
            KubeVersion::default(),
            "2026-01-02T03:04:05Z",
        );
        to_json_string(object.get("status").unwrap_or(&Value::Null))
    }

    #[test]
    fn volumes_record_their_pending_phase_time() {
        assert_eq!(
            status(r#"{"apiVersion":"v1","kind":"PersistentVolume","status":{"phase":"Bound"}}"#),
            r#"{"phase":"Pending","lastPhaseTransitionTime":"2026-01-02T03:04:05Z"}"#
        );
    }

    #[test]
    fn local_api_services_are_available_at_once() {
        let local = r#"{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","spec":{"group":"apps"},"status":{}}"#;
        assert!(status(local).contains(r#""reason":"Local""#));
        let remote = local.replace(
            r#""group""#,
            r#""service":{"name":"m","namespace":"k"},"group""#,
        );
        assert_eq!(status(&remote), "{}");
    }
}
