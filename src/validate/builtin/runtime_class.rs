//! RuntimeClasses (node.k8s.io), as k8s.io/kubernetes pkg/apis/node/validation checks them
//! (`ValidateRuntimeClass`, `ValidateRuntimeClassUpdate`, `validateOverhead`,
//! `validateScheduling`, `validateTolerations`): `handler` a DNS label and immutable,
//! `overhead.podFixed` as container limits, `scheduling` node selector labels and unique
//! tolerations.

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, text};
use super::meta;
use super::resources::{requirements, Context, Level};
use super::toleration;
use crate::kube::VersionRange;
use crate::validate::field::indexed;
use crate::validate::goprint::go_quote;
use crate::value::{Map, Value};

/// `ValidateRuntimeClass`, then on update `ValidateRuntimeClassUpdate` (the handler's
/// immutability), as the strategy's `ValidateUpdate` runs both
/// 1.36 reports an empty `handler` as `Required value` (before, the DNS label messages).
const HANDLER_REQUIRED: VersionRange = VersionRange::since(36);
const TOLERATIONS_PATH: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(34),
        "scheduling.tolerations.tolerations",
    ),
    (VersionRange::since(35), "scheduling.tolerations"),
];

/// (pkg/registry/node/runtimeclass/strategy.go).
pub fn runtime_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let version = w.version();
    let handler = text(object, "handler");
    if handler.is_empty() && HANDLER_REQUIRED.contains(version) {
        errors.push(FieldError::required("handler", ""));
    } else {
        for msg in formats::dns1123_label(handler) {
            errors.push(FieldError::invalid(
                "handler",
                FieldError::string_value(handler),
                msg,
            ));
        }
    }
    if let Some(overhead) = present(object, "overhead") {
        // `ValidateContainerResourceRequirements` of `{limits: podFixed}`.
        let mut limits = Map::default();
        if let Some(fixed) = present(overhead, "podFixed") {
            limits.insert("limits".into(), fixed.clone());
        }
        let list = Value::Map(limits);
        let context = Context::default();
        requirements(
            Some(&list),
            "overhead",
            Level::Container,
            context,
            version,
            errors,
        );
    }
    if let Some(scheduling) = present(object, "scheduling") {
        if let Some(selector) = present(scheduling, "nodeSelector") {
            meta::labels(Some(selector), "scheduling.nodeSelector", version, errors);
        }
        let list = items(scheduling.get("tolerations"));
        // Until 1.34 `validateTolerations` handed `ValidateTolerations` its path with
        // `tolerations` added a second time.
        let path = version.pick(TOLERATIONS_PATH);
        toleration::tolerations(list, path, version, errors);
        let mut seen = Vec::new();
        for (i, t) in list.iter().enumerate() {
            let key = ["key", "operator", "value", "effect"].map(|k| text(t, k));
            if seen.contains(&key) {
                errors.push(FieldError::duplicate(
                    indexed("scheduling.tolerations", i),
                    toleration_value(t),
                ));
            } else {
                seen.push(key);
            }
        }
    }
    if w.live.is_some_and(|old| text(old, "handler") != handler) {
        errors.push(FieldError::invalid(
            "handler",
            FieldError::string_value(handler),
            "field is immutable",
        ));
    }
}

/// A toleration as the server quotes the internal `core.Toleration`: JSON since 1.34 (every
/// field `omitempty`), `%#v` before.
fn toleration_value(t: &Value) -> BadValue {
    // From 1.34 the internal `core.Toleration` is quoted as JSON: no json tags, so Go's field
    // names, every field, a nil pointer as `null`.
    let mut json = Map::default();
    let mut go = Vec::new();
    for (key, go_name) in [
        ("key", "Key"),
        ("operator", "Operator"),
        ("value", "Value"),
        ("effect", "Effect"),
    ] {
        let s = text(t, key);
        json.insert(go_name.into(), Value::from(s));
        go.push(format!("{go_name}:{}", go_quote(s)));
    }
    json.insert("TolerationSeconds".into(), Value::Null);
    let seconds = match present(t, "tolerationSeconds") {
        Some(n) => {
            json.insert("TolerationSeconds".into(), n.clone());
            // A set pointer prints as its address, which kssa cannot know.
            "(*int64)(0xc000000000)"
        }
        None => "(*int64)(nil)",
    };
    BadValue::GoValue {
        value: Value::Map(json),
        go_syntax: format!(
            "core.Toleration{{{}, TolerationSeconds:{seconds}}}",
            go.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const CLASS: &str = r#"{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass",
      "metadata":{"name":"gvisor"},"handler":"runsc",
      "overhead":{"podFixed":{"cpu":"250m","memory":"120Mi"}},
      "scheduling":{"nodeSelector":{"runtime":"gvisor"},
        "tolerations":[{"key":"runtime","operator":"Equal","value":"gvisor","effect":"NoSchedule"}]}}"#;

    #[test]
    fn a_valid_class_passes() {
        assert!(refusal_causes(CLASS, None, 37).is_empty());
        assert!(refusal_causes(CLASS, Some(CLASS), 37).is_empty());
    }

    #[test]
    fn handler_is_a_dns_label_and_immutable() {
        let bad = CLASS.replace(r#""runsc""#, r#""run.sc""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            ["handler: Invalid value: \"run.sc\": must not contain dots"]
        );
        assert_eq!(
            refusal_causes(&bad, Some(CLASS), 36),
            [
                "handler: Invalid value: \"run.sc\": must not contain dots",
                "handler: Invalid value: \"run.sc\": field is immutable",
            ]
        );
    }

    #[test]
    fn overhead_and_scheduling() {
        let bad = CLASS
            .replace(r#""cpu":"250m""#, r#""cpu":"-1","storage":"1Gi""#)
            .replace(r#""runtime":"gvisor""#, r#""runtime":"g visor""#)
            .replace(
                r#""effect":"NoSchedule"}]"#,
                r#""effect":"NoSchedule"},{"key":"runtime","operator":"Equal","value":"gvisor","effect":"NoSchedule","tolerationSeconds":5}]"#,
            );
        let causes = refusal_causes(&bad, None, 34);
        assert_eq!(
            causes[..2],
            [
                "overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
                "overhead.limits[storage]: Invalid value: \"storage\": must be a standard resource for containers",
            ]
        );
        assert_eq!(
            causes[2..],
            [
                "scheduling.nodeSelector: Invalid value: \"g visor\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "scheduling.tolerations.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
                "scheduling.tolerations[1]: Duplicate value: {\"Key\":\"runtime\",\"Operator\":\"Equal\",\"Value\":\"gvisor\",\"Effect\":\"NoSchedule\",\"TolerationSeconds\":5}",
            ]
        );
        // 1.35 stopped adding `tolerations` to the path twice.
        assert_eq!(
            refusal_causes(&bad, None, 35)[3],
            "scheduling.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"
        );
    }

    #[test]
    fn an_empty_handler_is_required_from_1_36() {
        let empty = CLASS.replace(r#""handler":"runsc""#, r#""handler":"""#);
        assert!(refusal(&empty, None, 35)
            .unwrap()
            .contains("handler: Invalid value: \"\": a lowercase RFC 1123 label"));
        assert!(refusal(&empty, None, 36)
            .unwrap()
            .ends_with("handler: Required value"));
    }
}
