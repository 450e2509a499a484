//! The resource.k8s.io/v1 defaulters (k8s.io/kubernetes pkg/apis/resource/v1/defaults.go):
//! `SetDefaults_ExactDeviceRequest` and `SetDefaults_DeviceSubRequest` give a request without
//! an allocation mode `ExactCount`, and an `ExactCount` request without a count one device.
//! `SetDefaults_DeviceTaint` (`timeAdded`: the time of the write) and `SetDefaults_Device`
//! (node allocatable mappings) are not applied.

use super::rules::{child, each, unset};
use crate::value::{Map, Value};

/// A ResourceClaim's spec, or a ResourceClaimTemplate's `spec.spec`.
pub(super) fn claim_spec(spec: Option<&mut Map>) {
    let Some(devices) = spec.and_then(|s| child(s, "devices")) else {
        return;
    };
    each(devices.get_mut("requests"), |request| {
        if let Some(exactly) = child(request, "exactly") {
            device_request(exactly);
        }
        each(request.get_mut("firstAvailable"), device_request);
    });
}

fn device_request(request: &mut Map) {
    if unset(request, "allocationMode") {
        request.insert("allocationMode".into(), Value::String("ExactCount".into()));
    }
    let exact = request.get("allocationMode").and_then(Value::as_str) == Some("ExactCount");
    let no_count = matches!(
        request.get("count"),
        None | Some(Value::Null) | Some(Value::Int(0))
    );
    if exact && no_count {
        request.insert("count".into(), Value::Int(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn requests_get_an_exact_count_of_one_unless_they_say_otherwise() {
        let mut spec = from_json_str(
            r#"{"devices":{"requests":[
              {"name":"a","exactly":{"deviceClassName":"c"}},
              {"name":"b","exactly":{"deviceClassName":"c","allocationMode":"All"}},
              {"name":"c","firstAvailable":[{"name":"x","deviceClassName":"c","count":3}]}]}}"#,
        )
        .unwrap();
        claim_spec(spec.as_map_mut());
        let request = |i: usize, path: &[&str]| {
            let mut keys = vec!["devices", "requests"];
            keys.extend(path);
            let requests = spec.get_path(&keys[..2]).and_then(Value::as_list).unwrap();
            requests[i].get_path(&keys[2..]).cloned()
        };
        let text = |v: Option<Value>| v.and_then(|v| v.as_str().map(str::to_string));
        assert_eq!(
            text(request(0, &["exactly", "allocationMode"])).as_deref(),
            Some("ExactCount")
        );
        assert_eq!(request(0, &["exactly", "count"]), Some(Value::Int(1)));
        assert_eq!(request(1, &["exactly", "count"]), None);
        let alternative = request(2, &["firstAvailable"]).unwrap();
        let first = &alternative.as_list().unwrap()[0];
        assert_eq!(first.get("count"), Some(&Value::Int(3)));
        assert_eq!(
            first.get("allocationMode").and_then(Value::as_str),
            Some("ExactCount")
        );
    }
}
