//! The `image` volume source (ImageVolume), as k8s.io/kubernetes
//! pkg/apis/core/validation/validation.go checks it (`validateImageVolumeSource`): on Pods a
//! `reference` is required (templates may leave it to be filled in), and the pull policy (which
//! defaulting sets from the reference's tag) is one of the container pull policies.

use super::super::FieldError;
use super::fields::text;
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;

/// `supportedPullPolicies`, sorted.
const PULL_POLICIES: &[&str] = &["Always", "IfNotPresent", "Never"];

/// Whether the volume at `at` belongs to a Pod (`opts.ResourceIsPod`) rather than a template:
/// a Pod's volumes are the only ones directly under `spec`.
fn in_pod(at: &str) -> bool {
    at.starts_with("spec.volumes[")
}

/// `validateImageVolumeSource` at `at` (`spec.volumes[0].image`).
pub fn image(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    if in_pod(at) && text(v, "reference").is_empty() {
        errors.push(FieldError::required(join(at, ".reference"), ""));
    }
    super::pod::required_enum(
        text(v, "pullPolicy"),
        &join(at, ".pullPolicy"),
        PULL_POLICIES,
        errors,
    );
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;
    use super::*;

    fn check(source: &str, at: &str) -> Vec<String> {
        messages_of(source, 37, |v, version, errors| {
            image(v, at, version, errors)
        })
    }

    #[test]
    fn pods_name_an_image_and_a_known_pull_policy() {
        assert_eq!(
            check(r#"{"pullPolicy":"Sometimes"}"#, "spec.volumes[0].image"),
            [
                "spec.volumes[0].image.reference: Required value",
                "spec.volumes[0].image.pullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
            ]
        );
        assert!(check(
            r#"{"pullPolicy":"IfNotPresent"}"#,
            "spec.template.spec.volumes[0].image"
        )
        .is_empty());
    }
}
