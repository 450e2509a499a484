//! Probes and lifecycle handlers of containers, as k8s.io/kubernetes pkg/apis/core/validation
//! checks them (`validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`,
//! `validateProbe`, `validateHandler`, `validateLifecycle`, and the init-container rules of
//! `validateInitContainers`).

use super::super::{BadValue, FieldError};
use super::fields::present;
use super::pod::port_number;
use super::pod_misc::{self, SleepBounds};
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::join;
use crate::value::Value;

/// `IsHTTPHeaderName`'s message (apimachinery pkg/util/validation).
const HTTP_HEADER_MSG: &str = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
/// `supportedHTTPSchemes`, sorted.
const HTTP_SCHEMES: &[&str] = &["HTTP", "HTTPS"];
const INIT_FORBIDDEN: &str = "may not be set for init containers without restartPolicy=Always";

fn int(v: &Value, key: &str) -> i64 {
    v.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// `validateContainers`' handler part: the lifecycle, then the three probes, of a container of
/// the pod `spec`; `zero_sleep` is `AllowPodLifecycleSleepActionZeroValue`.
pub fn container(
    c: &Value,
    path: &str,
    spec: &Value,
    zero_sleep: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if let Some(lifecycle) = present(c, "lifecycle") {
        let bounds = SleepBounds {
            grace: pod_misc::grace_period(spec),
            zero_allowed: zero_sleep,
        };
        self::lifecycle(
            lifecycle,
            &join(path, ".lifecycle"),
            bounds,
            version,
            errors,
        );
    }
    for (key, kind) in [
        ("livenessProbe", Kind::Liveness),
        ("readinessProbe", Kind::Readiness),
        ("startupProbe", Kind::Startup),
    ] {
        if let Some(p) = present(c, key) {
            probe(p, &format!("{path}.{key}"), kind, version, errors);
        }
    }
}

/// `validateInitContainerRestartPolicy` before the ContainerRestartRules feature: an init
/// container's `restartPolicy` may only be `Always`. While the feature is alpha (1.34) the
/// strategy drops any other value (`dropContainerRestartRules`, pkg/api/pod/util.go); once on
/// by default (1.35) the other values are checked by [`super::restart_rules::check_init`].
const ONLY_ALWAYS: VersionRange = VersionRange::until(33);

/// `validateInitContainers`' restart policy; whether the init container is restartable (a
/// sidecar, checked as a regular container) or not (no lifecycle, no probe).
pub fn init_container(
    c: &Value,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) -> bool {
    let policy = c.get("restartPolicy").and_then(Value::as_str);
    let only_always = ONLY_ALWAYS.contains(version);
    if let Some(p) = policy.filter(|p| *p != "Always" && only_always) {
        errors.push(FieldError::not_supported(
            join(path, ".restartPolicy"),
            FieldError::string_value(p),
            &["Always"],
        ));
    }
    policy == Some("Always")
}

/// The handler part of `validateInitContainers`, after the duplicate-name check.
pub fn init_container_handlers(
    c: &Value,
    path: &str,
    sidecar: bool,
    spec: &Value,
    zero_sleep: bool,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    if sidecar {
        container(c, path, spec, zero_sleep, version, errors);
        return;
    }
    for key in [
        "lifecycle",
        "livenessProbe",
        "readinessProbe",
        "startupProbe",
    ] {
        if present(c, key).is_some() {
            errors.push(FieldError::forbidden(
                format!("{path}.{key}"),
                INIT_FORBIDDEN,
            ));
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Liveness,
    Readiness,
    Startup,
}

/// `validateProbe` and the rule of its kind.
fn probe(p: &Value, path: &str, kind: Kind, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let types = ["exec", "httpGet", "tcpSocket", "grpc"];
    let no_sleep = SleepBounds {
        grace: None,
        zero_allowed: false,
    };
    handler(p, path, &types, no_sleep, version, errors);
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        let n = int(p, key);
        if n < 0 {
            errors.push(FieldError::invalid(
                format!("{path}.{key}"),
                BadValue::Value(Value::Int(n)),
                "must be greater than or equal to 0",
            ));
        }
    }
    let grace = p
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if let Some(g) = grace.filter(|g| *g <= 0) {
        errors.push(FieldError::invalid(
            join(path, ".terminationGracePeriodSeconds"),
            BadValue::Value(Value::Int(g)),
            "must be greater than 0",
        ));
    }
    match kind {
        Kind::Liveness | Kind::Startup => {
            let n = int(p, "successThreshold");
            if n != 1 {
                errors.push(FieldError::invalid(
                    join(path, ".successThreshold"),
                    BadValue::Value(Value::Int(n)),
                    "must be 1",
                ));
            }
        }
        Kind::Readiness => {
            if let Some(g) = grace {
                errors.push(FieldError::invalid(
                    join(path, ".terminationGracePeriodSeconds"),
                    BadValue::Value(Value::Int(g)),
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
}

/// `validateLifecycle`: each hook is a handler (`sleep` allowed, `grpc` not), sleeping within
/// the pod's grace period.
fn lifecycle(
    l: &Value,
    path: &str,
    sleep: SleepBounds,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for hook in ["postStart", "preStop"] {
        if let Some(h) = present(l, hook) {
            handler(
                h,
                &format!("{path}.{hook}"),
                &["exec", "httpGet", "tcpSocket", "sleep"],
                sleep,
                version,
                errors,
            );
        }
    }
}

/// `validateHandler`: exactly one of the handler `types`, each checked; a sleep against the
/// pod's grace period ([`pod_misc::sleep`]).
fn handler(
    h: &Value,
    path: &str,
    types: &[&str],
    sleep: SleepBounds,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let mut count = 0;
    for t in types {
        let Some(action) = present(h, t) else {
            continue;
        };
        let at = format!("{path}.{t}");
        if count > 0 {
            errors.push(FieldError::forbidden(
                at,
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        count += 1;
        match *t {
            "exec"
                if action
                    .get("command")
                    .and_then(Value::as_list)
                    .is_none_or(Vec::is_empty) =>
            {
                errors.push(FieldError::required(join(&at, ".command"), ""));
            }
            "httpGet" => http_get(action, &at, errors),
            "tcpSocket" => port_num_or_name(action.get("port"), &join(&at, ".port"), errors),
            "grpc" => port_number(int(action, "port"), &join(&at, ".port"), errors),
            "sleep" => pod_misc::sleep(action, &at, sleep, version, errors),
            _ => {}
        }
    }
    if count == 0 {
        errors.push(FieldError::required(path, "must specify a handler type"));
    }
}

/// `validateHTTPGetAction`.
fn http_get(action: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if action
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
    {
        errors.push(FieldError::required(join(path, ".path"), ""));
    }
    port_num_or_name(action.get("port"), &join(path, ".port"), errors);
    let scheme = action.get("scheme").and_then(Value::as_str).unwrap_or("");
    if !HTTP_SCHEMES.contains(&scheme) {
        errors.push(FieldError::not_supported(
            join(path, ".scheme"),
            FieldError::string_value(scheme),
            HTTP_SCHEMES,
        ));
    }
    for header in action
        .get("httpHeaders")
        .and_then(Value::as_list)
        .into_iter()
        .flatten()
    {
        let name = header.get("name").and_then(Value::as_str).unwrap_or("");
        let valid =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !valid {
            errors.push(FieldError::invalid(
                join(path, ".httpHeaders"),
                FieldError::string_value(name),
                HTTP_HEADER_MSG,
            ));
        }
    }
}

/// `ValidatePortNumOrName`: a number in 1–65535 or an IANA service name; absent is the
/// number 0.
pub fn port_num_or_name(port: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
    match port {
        Some(Value::String(s)) => {
            for msg in super::super::formats::port_name(s) {
                errors.push(FieldError::invalid(path, FieldError::string_value(s), msg));
            }
        }
        Some(Value::Int(n)) => port_number(*n, path, errors),
        None | Some(Value::Null) => port_number(0, path, errors),
        // Other kinds are the decoder's to refuse.
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn messages(c: &str) -> Vec<String> {
        let spec = Value::Null;
        messages_of(c, 37, |c, v, errors| {
            container(c, "spec.containers[0]", &spec, false, v, errors)
        })
    }

    #[test]
    fn a_probe_needs_exactly_one_handler() {
        assert_eq!(
            messages(r#"{"livenessProbe":{"successThreshold":1}}"#),
            ["spec.containers[0].livenessProbe: Required value: must specify a handler type"]
        );
        assert_eq!(
            messages(
                r#"{"readinessProbe":{"exec":{"command":["true"]},"tcpSocket":{"port":80},"successThreshold":1}}"#
            ),
            ["spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"]
        );
    }

    #[test]
    fn liveness_and_startup_succeed_once() {
        assert_eq!(
            messages(
                r#"{"startupProbe":{"httpGet":{"path":"/","port":"http","scheme":"HTTP"},"successThreshold":2}}"#
            ),
            ["spec.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1"]
        );
    }

    #[test]
    fn ports_are_numbers_or_names() {
        assert_eq!(
            messages(r#"{"livenessProbe":{"tcpSocket":{"port":"Web_Port"},"successThreshold":1,"periodSeconds":-1}}"#),
            [
                "spec.containers[0].livenessProbe.tcpSocket.port: Invalid value: \"Web_Port\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                "spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
        assert_eq!(
            messages(r#"{"lifecycle":{"preStop":{"httpGet":{"path":"/q","port":0,"scheme":"FTP"}}}}"#),
            [
                "spec.containers[0].lifecycle.preStop.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
                "spec.containers[0].lifecycle.preStop.httpGet.scheme: Unsupported value: \"FTP\": supported values: \"HTTP\", \"HTTPS\"",
            ]
        );
    }
}
