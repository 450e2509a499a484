//! How the errors of custom resource validation are worded per Kubernetes version: the details
//! of apimachinery's `field.TooLong`/`field.TooMany` and how apiextensions calls them, and the
//! values they quote. Version-dependent wording is data here, keyed by [`KubeVersion`].

use crate::kube::{KubeVersion, VersionRange};
use crate::patch::gofmt::go_syntax;
use crate::validate::field::BadValue;
use crate::value::Value;

/// The wording of one range of versions.
struct Wording {
    versions: VersionRange,
    /// apiextensions 1.30–1.31 call `field.TooLongMaxLength` ("may not be longer than N");
    /// 1.32 switched to `field.TooLong` ("may not be more than N bytes").
    too_long_in_bytes: bool,
    /// From 1.34 `field.TooLong` and `field.TooMany` say "1 byte", "1 item".
    singular_units: bool,
}

/// Disjoint ranges; apimachinery `pkg/util/validation/field/errors.go` and apiextensions
/// `pkg/apiserver/validation/validation.go` (`kubeOpenAPIResultToFieldErrors`) of each release.
const WORDINGS: &[Wording] = &[
    Wording {
        versions: VersionRange::until(31),
        too_long_in_bytes: false,
        singular_units: false,
    },
    Wording {
        versions: VersionRange {
            since: Some(32),
            until: Some(33),
        },
        too_long_in_bytes: true,
        singular_units: false,
    },
    Wording {
        versions: VersionRange::since(34),
        too_long_in_bytes: true,
        singular_units: true,
    },
];

fn wording(version: KubeVersion) -> &'static Wording {
    WORDINGS
        .iter()
        .find(|w| w.versions.contains(version))
        .unwrap_or(&WORDINGS[WORDINGS.len() - 1])
}

/// The detail of a `maxLength` refusal.
pub fn too_long(version: KubeVersion, max: i64) -> String {
    let w = wording(version);
    if !w.too_long_in_bytes {
        return format!("may not be longer than {max}");
    }
    let unit = if w.singular_units && max == 1 {
        "byte"
    } else {
        "bytes"
    };
    format!("may not be more than {max} {unit}")
}

/// The detail of a `maxItems`/`maxProperties` refusal.
pub fn too_many(version: KubeVersion, max: i64) -> String {
    let unit = if wording(version).singular_units && max == 1 {
        "item"
    } else {
        "items"
    };
    format!("must have at most {max} {unit}")
}

/// A value of the object as an error quotes it: scalars as they are, maps and lists with the
/// Go syntax releases before 1.34 print (`map[string]interface {}{"name":"a"}`).
pub fn bad_value(v: &Value) -> BadValue {
    match v {
        Value::Map(_) | Value::List(_) => BadValue::GoValue {
            value: v.clone(),
            go_syntax: go_syntax(v),
        },
        // Before 1.34 a nil value printed as the quoted string "null"; since as JSON `null`.
        Value::Null => BadValue::GoValue {
            value: Value::Null,
            go_syntax: "\"null\"".to_string(),
        },
        other => BadValue::Value(other.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    #[test]
    fn too_long_per_version() {
        assert_eq!(too_long(v(30), 5), "may not be longer than 5");
        assert_eq!(too_long(v(31), 1), "may not be longer than 1");
        assert_eq!(too_long(v(32), 1), "may not be more than 1 bytes");
        assert_eq!(too_long(v(34), 1), "may not be more than 1 byte");
        assert_eq!(too_long(v(37), 63), "may not be more than 63 bytes");
    }

    #[test]
    fn too_many_per_version() {
        assert_eq!(too_many(v(33), 1), "must have at most 1 items");
        assert_eq!(too_many(v(34), 1), "must have at most 1 item");
        assert_eq!(too_many(v(36), 3), "must have at most 3 items");
    }

    #[test]
    fn composite_values_keep_their_go_syntax() {
        let m: Value = serde_yaml::from_str("{name: a}").unwrap();
        match bad_value(&m) {
            BadValue::GoValue { go_syntax, .. } => {
                assert_eq!(go_syntax, r#"map[string]interface {}{"name":"a"}"#)
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(bad_value(&Value::Int(3)), BadValue::Value(Value::Int(3)));
    }
}
