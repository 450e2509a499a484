//! A Pod's spec after creation, as k8s.io/kubernetes pkg/apis/core/validation
//! `ValidatePodUpdate` checks it: the number of containers is fixed, `activeDeadlineSeconds`
//! may only be set or lowered, tolerations only added, scheduling gates only removed, and any
//! other change — once images, the deadline, gates, tolerations, a grace period going from
//! negative to 1, and a gated pod's added node selector are set aside — is refused with
//! `spec: Forbidden: pod updates may not change fields other than …`. Until 1.31 a changed spec
//! whose QoS class differs from the stored one is also refused, before that line.
//!
//! The server follows that message with a diff of the stored spec and the new one with the
//! mutable fields set aside: go-cmp's `cmp.Diff` until 1.33, deliberately unstable, which kssa
//! leaves out; from 1.34 `pkg/util/diff.Diff` of the internal `core.PodSpec`s (indented JSON
//! of every field by its Go name, `validate::internal_go`, then go-difflib's unified diff).

use super::super::difflib;
use super::super::internal_go::internal_struct;
use super::super::{BadValue, FieldError};
use super::fields::items;
use super::toleration;
use crate::kube::pod_status::qos_class;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

/// `updatablePodSpecFields` joined with "," — the same text in 1.30–1.37 with each release's
/// default feature gates (`spec.containers[*].resources` joined it only with the
/// InPlacePodVerticalScaling gate on before 1.33, which moved resizing to the `resize`
/// subresource).
const UPDATABLE: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `pkg/util/diff.Diff` prints indented JSON and a line diff from 1.34.
const SPEC_DIFF: VersionRange = VersionRange::since(34);

/// Releases whose `ValidatePodUpdate` refuses a spec change that changes the QoS class (1.32
/// made `status.qosClass` immutable on status writes instead, and resizes check their own).
const QOS_CLASS_COMPARED: VersionRange = VersionRange::until(31);

/// `ValidatePodUpdate`'s spec rules, after the spec itself was validated. `stored_class` is the
/// stored `status.qosClass` (the status an update keeps).
pub fn check(
    new: &Value,
    old: &Value,
    stored_class: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for key in ["containers", "initContainers"] {
        if !container_updates(new, old, key, errors) {
            return;
        }
    }
    let deadline = |s: &Value| s.get("activeDeadlineSeconds").and_then(Value::as_i64);
    match (deadline(new), deadline(old)) {
        (Some(n), _) if !(0..=i64::from(i32::MAX)).contains(&n) => {
            errors.push(FieldError::invalid(
                "spec.activeDeadlineSeconds",
                BadValue::Value(Value::Int(n)),
                super::super::formats::inclusive_range(0, i64::from(i32::MAX)),
            ));
            return;
        }
        (Some(n), Some(o)) if o < n => {
            errors.push(FieldError::invalid(
                "spec.activeDeadlineSeconds",
                BadValue::Value(Value::Int(n)),
                "must be less than or equal to previous value",
            ));
            return;
        }
        // A nil pointer prints as the string "null" (`ErrorBody`).
        (None, Some(_)) => errors.push(FieldError::invalid(
            "spec.activeDeadlineSeconds",
            FieldError::string_value("null"),
            "must not update from a positive integer to nil value",
        )),
        _ => {}
    }
    toleration::only_added(
        items(new.get("tolerations")),
        items(old.get("tolerations")),
        "spec.tolerations",
        version,
        errors,
    );
    only_deleted_gates(new, old, errors);
    if pod_eq(new, old) {
        return;
    }
    if QOS_CLASS_COMPARED.contains(version) {
        qos_class_kept(new, old, stored_class, version, errors);
    }
    let mut munged = new.clone();
    let Some(m) = munged.as_map_mut() else { return };
    for key in ["containers", "initContainers"] {
        let old_images: Vec<Option<&Value>> =
            items(old.get(key)).iter().map(|c| c.get("image")).collect();
        if let Some(Value::List(list)) = m.get_mut(key) {
            for (c, image) in list.iter_mut().zip(old_images) {
                if let Some(c) = c.as_map_mut() {
                    set(c, "image", image);
                }
            }
        }
    }
    for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        set(m, key, old.get(key));
    }
    let grace = |s: &Map| {
        s.get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64)
    };
    let old_grace = old
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if old_grace.is_some_and(|g| g < 0) && grace(m) == Some(1) {
        set(
            m,
            "terminationGracePeriodSeconds",
            old.get("terminationGracePeriodSeconds"),
        );
    }
    if !items(old.get("schedulingGates")).is_empty() {
        gated(m, old, errors);
    }
    if !pod_eq(&munged, old) {
        let mut detail = UPDATABLE.to_string();
        if SPEC_DIFF.contains(version) {
            let spec = |s: &Value| internal_struct("PodSpec", Some(s), version).indented();
            detail.push('\n');
            detail.push_str(&difflib::unified_diff(
                &difflib::split_lines(&spec(old)),
                &difflib::split_lines(&spec(&munged)),
                3,
            ));
        }
        errors.push(FieldError::forbidden("spec", detail));
    }
}

/// `qos.GetPodQOS(oldPod) != qos.ComputePodQOS(newPod)`: the stored class (computed from the
/// stored spec when the status lacks it) against the new spec's. The error, at `metadata`,
/// quotes the class the update keeps in the status.
fn qos_class_kept(
    new: &Value,
    old: &Value,
    stored_class: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let old_class = match stored_class {
        "" => qos_class(old, version),
        class => class,
    };
    if old_class != qos_class(new, version) {
        errors.push(FieldError::invalid(
            "metadata",
            FieldError::string_value(stored_class),
            "Pod QoS is immutable",
        ));
    }
}

fn set(m: &mut Map, key: &str, value: Option<&Value>) {
    match value {
        Some(v) => {
            m.insert(key.into(), v.clone());
        }
        None => {
            m.shift_remove(key);
        }
    }
}

/// `ValidateContainerUpdates`: `false` when the number of containers changed (the server
/// stops there).
fn container_updates(new: &Value, old: &Value, key: &str, errors: &mut Vec<FieldError>) -> bool {
    let (n, o) = (items(new.get(key)), items(old.get(key)));
    if n.len() != o.len() {
        errors.push(FieldError::forbidden(
            format!("spec.{key}"),
            "pod updates may not add or remove containers",
        ));
        return false;
    }
    for (i, c) in n.iter().enumerate() {
        let image = c.get("image").and_then(Value::as_str).unwrap_or("");
        if image.is_empty() {
            errors.push(FieldError::required(format!("spec.{key}[{i}].image"), ""));
        }
        if image.trim() != image {
            errors.push(FieldError::invalid(
                format!("spec.{key}[{i}].image"),
                FieldError::string_value(image),
                "must not have leading or trailing whitespace",
            ));
        }
    }
    true
}

/// `validateOnlyDeletedSchedulingGates` (the server ranges over a map: kssa reports in list
/// order).
fn only_deleted_gates(new: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let name = |g: &Value| {
        g.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let old_names: Vec<String> = items(old.get("schedulingGates")).iter().map(name).collect();
    let new_gates = items(new.get("schedulingGates"));
    // The map keeps the last index of a repeated name.
    let mut added: Vec<(usize, String)> = Vec::new();
    for (i, g) in new_gates.iter().enumerate() {
        let n = name(g);
        if old_names.contains(&n) {
            continue;
        }
        added.retain(|(_, m)| *m != n);
        added.push((i, n));
    }
    added.sort();
    for (i, n) in added {
        errors.push(FieldError::forbidden(
            format!("spec.schedulingGates[{i}].name"),
            format!("only deletion is allowed, but found new scheduling gate '{n}'"),
        ));
    }
}

/// Gated pods: node selector entries may be added (`validateNodeSelectorMutation`); node
/// affinity changes are set aside unchecked.
fn gated(m: &mut Map, old: &Value, errors: &mut Vec<FieldError>) {
    let old_selector = old.get("nodeSelector");
    if !pod_eq_opt(m.get("nodeSelector"), old_selector) {
        let kept = old_selector
            .and_then(Value::as_map)
            .into_iter()
            .flatten()
            .all(|(k, v)| m.get("nodeSelector").and_then(|s| s.get(k)) == Some(v));
        if !kept {
            let shown = m.get("nodeSelector").cloned().unwrap_or(Value::Null);
            errors.push(FieldError::invalid(
                "spec.nodeSelector",
                super::super::field::typed_value(shown, &super::super::goprint::GoType::StringMap),
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            ));
        }
        set(m, "nodeSelector", old_selector);
    }
    let node_affinity = |v: Option<&Value>| v.and_then(|a| a.get("nodeAffinity")).cloned();
    let old_affinity = old.get("affinity");
    if node_affinity(m.get("affinity")) != node_affinity(old_affinity) {
        match m.get_mut("affinity").and_then(Value::as_map_mut) {
            Some(a) => match node_affinity(old_affinity) {
                Some(na) => {
                    a.insert("nodeAffinity".into(), na);
                }
                None => {
                    a.shift_remove("nodeAffinity");
                }
            },
            None => set(m, "affinity", old_affinity),
        }
    }
}

fn pod_eq(a: &Value, b: &Value) -> bool {
    pod_eq_opt(Some(a), Some(b))
}

/// `apiequality.Semantic.DeepEqual` on the internal types, approximated: absent, null, empty
/// lists and maps, `""`, `false` and `0` are the zero value (non-pointer Go fields).
fn pod_eq_opt(a: Option<&Value>, b: Option<&Value>) -> bool {
    fn zero(v: Option<&Value>) -> bool {
        match v {
            None | Some(Value::Null) => true,
            Some(Value::List(l)) => l.is_empty(),
            Some(Value::Map(m)) => m.is_empty() || m.values().all(|v| zero(Some(v))),
            Some(Value::String(s)) => s.is_empty(),
            Some(Value::Bool(b)) => !b,
            Some(Value::Int(n)) => *n == 0,
            _ => false,
        }
    }
    match (a, b) {
        (Some(Value::Map(x)), Some(Value::Map(y))) => x
            .keys()
            .chain(y.keys())
            .all(|k| pod_eq_opt(x.get(k.as_str()), y.get(k.as_str()))),
        (Some(Value::List(x)), Some(Value::List(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| pod_eq_opt(Some(p), Some(q)))
        }
        _ if zero(a) && zero(b) => true,
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn messages(new: &str, old: &str) -> Vec<String> {
        messages_at(37, new, old, "")
    }

    fn messages_at(minor: u8, new: &str, old: &str, stored_class: &str) -> Vec<String> {
        let (new, old) = (from_json_str(new).unwrap(), from_json_str(old).unwrap());
        let v = KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&new, &old, stored_class, v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn the_qos_class_is_compared_until_1_31() {
        let limited = OLD.replace(
            r#""image":"nginx:1.26","#,
            r#""image":"nginx:1.26","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}},"#,
        );
        let forbidden = format!("spec: Forbidden: {UPDATABLE}");
        let refused =
            |class: &str| format!("metadata: Invalid value: \"{class}\": Pod QoS is immutable");
        assert_eq!(
            messages_at(31, &limited, OLD, "BestEffort"),
            [refused("BestEffort"), forbidden.clone()]
        );
        assert_eq!(
            messages_at(30, &limited, OLD, ""),
            [refused(""), forbidden.clone()]
        );
        // The stored class wins over the stored spec's.
        assert_eq!(
            messages_at(30, &limited, OLD, "Guaranteed"),
            std::slice::from_ref(&forbidden)
        );
        assert_eq!(messages_at(32, &limited, OLD, "BestEffort"), [forbidden]);
    }

    const OLD: &str = r#"{"containers":[{"name":"web","image":"nginx:1.26","ports":[{"containerPort":80}]}],
        "tolerations":[{"key":"a","operator":"Exists"}],"terminationGracePeriodSeconds":30}"#;

    #[test]
    fn images_and_added_tolerations_may_change() {
        let new = OLD.replace("1.26", "1.27").replace(
            r#""operator":"Exists"}"#,
            r#""operator":"Exists"},{"key":"b","operator":"Exists"}"#,
        );
        assert!(messages(&new, OLD).is_empty());
    }

    #[test]
    fn other_fields_may_not() {
        let new = OLD.replace("80", "8080");
        assert_eq!(
            messages_at(33, &new, OLD, ""),
            [format!("spec: Forbidden: {UPDATABLE}")]
        );
        // From 1.34 the internal specs' diff follows, every field under its Go name.
        let [message] = &messages(&new, OLD)[..] else {
            panic!("one error")
        };
        let diff = message
            .strip_prefix(&format!("spec: Forbidden: {UPDATABLE}\n"))
            .expect("the line, then the diff");
        assert!(diff.starts_with("@@ -"), "{diff}");
        assert!(diff.contains("\n-     \"ContainerPort\": 80,\n+     \"ContainerPort\": 8080,\n"));
        let removed = OLD.replace(r#"{"key":"a","operator":"Exists"}"#, "");
        assert_eq!(
            messages(&removed, OLD),
            ["spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"]
        );
    }

    #[test]
    fn containers_may_not_be_added_and_deadlines_only_shrink() {
        let two = OLD.replace(r#"}]}],"#, r#"}]},{"name":"b","image":"busybox"}],"#);
        assert_eq!(
            messages(&two, OLD),
            ["spec.containers: Forbidden: pod updates may not add or remove containers"]
        );
        let old = OLD.replace(
            "\"terminationGracePeriodSeconds\":30",
            "\"terminationGracePeriodSeconds\":30,\"activeDeadlineSeconds\":60",
        );
        let longer = old.replace(":60", ":120");
        assert_eq!(
            messages(&longer, &old),
            ["spec.activeDeadlineSeconds: Invalid value: 120: must be less than or equal to previous value"]
        );
        assert_eq!(
            messages(OLD, &old),
            ["spec.activeDeadlineSeconds: Invalid value: \"null\": must not update from a positive integer to nil value"]
        );
    }

    #[test]
    fn scheduling_gates_may_only_be_removed() {
        let old = OLD.replace(
            "\"terminationGracePeriodSeconds\"",
            "\"schedulingGates\":[{\"name\":\"x\"}],\"terminationGracePeriodSeconds\"",
        );
        let added = old.replace(r#"[{"name":"x"}]"#, r#"[{"name":"x"},{"name":"y"}]"#);
        assert_eq!(
            messages(&added, &old),
            ["spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'y'"]
        );
        let with_selector = old.replace(
            "\"schedulingGates\"",
            "\"nodeSelector\":{\"zone\":\"a\"},\"schedulingGates\"",
        );
        assert!(messages(&with_selector, &old).is_empty());
        assert!(messages(OLD, &old).is_empty());
    }
}
