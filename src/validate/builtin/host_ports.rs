//! Host ports shared by containers of one pod, as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go refuses them (`AccumulateUniqueHostPorts`, called
//! through `checkHostPortConflicts` by `validateContainers` and `validateInitContainers`).

use super::super::FieldError;
use super::fields::{items, text};
use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::HashSet;

/// The key a host port is recorded under: `<protocol>/<hostIP>/<port>`, so that one port may
/// be bound on two host addresses (`TCP//8080` without an address).
fn key(port: &Value, host_port: i64) -> String {
    format!(
        "{}/{}/{host_port}",
        text(port, "protocol"),
        text(port, "hostIP")
    )
}

/// `checkHostPortConflicts` over `containers` listed at `path` (`spec.containers`): every
/// non-zero host port after the first use of its key is a `Duplicate value` at
/// `<path>[i].ports[j].hostPort`.
pub fn conflicts(containers: &[Value], path: &str, errors: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    for (i, c) in containers.iter().enumerate() {
        let ports_at = join(&indexed(path, i), ".ports");
        for (j, p) in items(c.get("ports")).iter().enumerate() {
            let host_port = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            if host_port == 0 {
                continue;
            }
            let key = key(p, host_port);
            if seen.contains(&key) {
                errors.push(FieldError::duplicate(
                    join(&indexed(&ports_at, j), ".hostPort"),
                    FieldError::string_value(&key),
                ));
            } else {
                seen.insert(key);
            }
        }
    }
}

/// The init container `c` alone (init containers run one at a time): the server passes it to
/// [`conflicts`] as a list of one under the init containers' path, so whatever its index the
/// refusal names `initContainers[0]`.
pub fn init_container(c: &Value, list_path: &str, errors: &mut Vec<FieldError>) {
    conflicts(std::slice::from_ref(c), list_path, errors);
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn check(containers: &str) -> Vec<String> {
        messages_of(containers, 37, |list, _, errors| {
            conflicts(items(Some(list)), "spec.containers", errors)
        })
    }

    #[test]
    fn a_host_port_is_bound_once_per_protocol_and_address() {
        let two = r#"[{"ports":[{"containerPort":80,"hostPort":8080,"protocol":"TCP"}]},
            {"ports":[{"containerPort":81,"hostPort":8080,"protocol":"UDP"},
                      {"containerPort":82,"hostPort":8080,"protocol":"TCP"},
                      {"containerPort":83,"hostPort":8080,"protocol":"TCP","hostIP":"10.0.0.1"}]}]"#;
        assert_eq!(
            check(two),
            ["spec.containers[1].ports[1].hostPort: Duplicate value: \"TCP//8080\""]
        );
        assert!(check(r#"[{"ports":[{"containerPort":80},{"containerPort":80}]}]"#).is_empty());
    }

    #[test]
    fn an_init_container_is_checked_alone_at_index_zero() {
        let c = r#"{"ports":[{"containerPort":80,"hostPort":9000,"protocol":"TCP"},
            {"containerPort":81,"hostPort":9000,"protocol":"TCP"}]}"#;
        let got = messages_of(c, 30, |c, _, errors| {
            init_container(c, "spec.initContainers", errors)
        });
        assert_eq!(
            got,
            ["spec.initContainers[0].ports[1].hostPort: Duplicate value: \"TCP//9000\""]
        );
    }
}
