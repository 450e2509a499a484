//! How apiextensions words the refusals whose wording changed between versions, as data keyed
//! by [`KubeVersion`]: a string longer than `maxLength` went through `field.TooLongMaxLength`
//! until 1.31 (`may not be longer than N`) and `field.TooLong` since 1.32
//! (`pkg/apiserver/validation/validation.go`, `kubeOpenAPIResultToFieldErrors`).

use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{BadValue, ErrorType, FieldError};

/// The versions whose apiextensions reports `maxLength` with `field.TooLongMaxLength`.
const TOO_LONG_MAX_LENGTH: VersionRange = VersionRange::until(31);

/// The refusal of a string longer than `max` characters at `field`.
pub fn too_long(field: String, max: i64, version: KubeVersion) -> FieldError {
    if TOO_LONG_MAX_LENGTH.contains(version) {
        let detail = match max >= 0 {
            true => format!("may not be longer than {max}"),
            false => "value is too long".to_string(),
        };
        return FieldError::new(ErrorType::TooLong, field, BadValue::Omitted, detail);
    }
    FieldError::too_long(field, max.max(0) as usize, version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(minor: u8, max: i64) -> String {
        too_long("spec.x".into(), max, KubeVersion::new(minor).unwrap()).detail
    }

    #[test]
    fn too_long_per_version() {
        assert_eq!(detail(30, 5), "may not be longer than 5");
        assert_eq!(detail(31, 1), "may not be longer than 1");
        assert_eq!(detail(32, 1), "may not be more than 1 bytes");
        assert_eq!(detail(34, 1), "may not be more than 1 byte");
        assert_eq!(detail(37, 63), "may not be more than 63 bytes");
    }
}
