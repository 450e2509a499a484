//! The CEL compilation of DRA device selectors (`selectors[i].cel.expression` of
//! ResourceClaims, ResourceClaimTemplates and DeviceClasses), as k8s.io/kubernetes
//! pkg/apis/resource/validation/validation.go `validateCELSelector` runs it through
//! k8s.io/dynamic-resource-allocation cel/compile.go (`newCompiler`, `CompileCELExpression`),
//! on kssa's checker (`crate::validate::crd::cel_compile`).

use super::super::FieldError;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::crd::cel_compile::{check_in, Checked, Env, Scalar, Ty};
use std::collections::BTreeMap;

/// The releases whose selectors kssa compiles: the `device` variable is introduced at 1.31
/// (`IntroducedVersion`), so new expressions see it from the release after.
const COMPILED: VersionRange = VersionRange::since(32);

/// The semver library is added unversioned (`environment.UnversionedLib(library.SemverLib)`).
const UNGATED: &[&str] = &["semver", "isSemver"];

/// The error of one selector expression at `at`, if kssa sees one: `compilation failed: …`,
/// or a scalar result other than a bool (`must evaluate to bool or the unknown type, not …`).
/// The expression is compiled with every library of the release (as the server compiles a
/// stored one): kssa does not track which selectors the stored object had, and more libraries
/// can only mean fewer errors. Cost estimates are not reproduced.
pub(super) fn selector(source: &str, at: &str, version: KubeVersion) -> Option<FieldError> {
    if !COMPILED.contains(version) {
        return None;
    }
    let vars = [("device".to_string(), device_type())];
    let env = Env {
        vars: &vars,
        ungated: UNGATED,
    };
    let detail = match check_in(source, &env, version, true) {
        Checked::Failed(issues) => format!("compilation failed: {issues}"),
        Checked::Typed(Ty::Scalar(s)) if s != Scalar::Bool => {
            let got = s.cel_name()?;
            format!("must evaluate to bool or the unknown type, not {got}")
        }
        Checked::Typed(_) | Checked::Unknown => return None,
    };
    Some(FieldError::invalid(
        at,
        FieldError::string_value(source),
        detail,
    ))
}

/// `kubernetes.DRADevice`: `driver`, and maps of domains to maps of attributes and capacities
/// (the attribute and quantity types are not tracked). `allowMultipleAllocations` is declared
/// only with the DRAConsumableCapacity feature; kssa declares it always, refusing less.
fn device_type() -> Ty {
    let by_domain = || Ty::Map(Box::new(Ty::Map(Box::new(Ty::Dyn))));
    let fields: BTreeMap<String, Ty> = [
        ("driver", Ty::Scalar(Scalar::String)),
        ("allowMultipleAllocations", Ty::Scalar(Scalar::Bool)),
        ("attributes", by_domain()),
        ("capacity", by_domain()),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_string(), t))
    .collect();
    Ty::object(fields)
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    /// The cause of the refusal of the Kubernetes docs' example DeviceClass (kssa's
    /// `valid-deviceclass` case) with the selector `expression`.
    fn cause(expression: &str, minor: u8) -> Option<String> {
        let class = format!(
            r#"{{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
  "metadata":{{"name":"resource.example.com"}},
  "spec":{{"selectors":[{{"cel":{{"expression":{expression:?}}}}}]}}}}"#
        );
        let message = refusal(&class, None, minor)?;
        Some(message.split_once("is invalid: ").unwrap().1.to_string())
    }

    #[test]
    fn the_device_is_declared_with_its_fields() {
        let ok = "device.driver == \"resource-driver.example.com\" && \
                  device.attributes[\"resource-driver.example.com\"].model == \"a\" && \
                  device.capacity[\"x\"].memory.compareTo(quantity(\"1Gi\")) >= 0 && \
                  isSemver(\"1.0.0\")";
        assert_eq!(cause(ok, 34), None);
        assert_eq!(
            cause("device.drivr == \"x\"", 37).unwrap(),
            "spec.selectors[0].cel.expression: Invalid value: \"device.drivr == \\\"x\\\"\": \
             compilation failed: ERROR: <input>:1:7: undefined field 'drivr'\n | device.drivr == \"x\"\n | ......^"
        );
        assert_eq!(
            cause("dev.driver == \"x\"", 37).unwrap(),
            "spec.selectors[0].cel.expression: Invalid value: \"dev.driver == \\\"x\\\"\": \
             compilation failed: ERROR: <input>:1:1: undeclared reference to 'dev' (in container '')\n | dev.driver == \"x\"\n | ^"
        );
        assert_eq!(
            cause("device.driver", 37).unwrap(),
            "spec.selectors[0].cel.expression: Invalid value: \"device.driver\": must evaluate to bool or the unknown type, not string"
        );
    }
}
