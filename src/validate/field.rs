//! One validation error at one field path, as k8s.io/apimachinery/pkg/util/validation/field
//! (`Error`, `ErrorType`) models it, and how it prints per Kubernetes version (`ErrorBody`).

use super::goprint::{go_quote, go_syntax, go_value};
pub use super::path_text::PathText;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::{to_json_string, Value};

/// apimachinery's `field.ErrorType`: what kind of refusal, with its printed name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// "Unsupported value": not one of the allowed values (enums).
    NotSupported,
    /// "Required value".
    Required,
    /// "Invalid value".
    Invalid,
    /// "Duplicate value".
    Duplicate,
    /// "Forbidden".
    Forbidden,
    /// "Too long".
    TooLong,
    /// "Too many".
    TooMany,
    /// "Not found".
    NotFound,
    /// "Internal error".
    Internal,
    /// "Invalid value" from a type check (`field.TypeInvalid`).
    TypeInvalid,
}

impl ErrorType {
    /// The text apimachinery prints for the type (`ErrorType.String`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Required => "Required value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::NotFound => "Not found",
            ErrorType::Internal => "Internal error",
            ErrorType::TypeInvalid => "Invalid value",
        }
    }

    /// The machine-readable name a `StatusCause` carries (`FieldValueInvalid`, …).
    pub fn cause_type(self) -> &'static str {
        match self {
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// Types whose body never quotes the value (`ErrorBody`: Required, Forbidden, TooLong,
    /// Internal).
    fn omits_value(self) -> bool {
        matches!(
            self,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal
        )
    }
}

/// The value a [`FieldError`] quotes.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// Not printed (`field.OmitValueType`).
    Omitted,
    /// A value as the object holds it. Scalars print the same in every version; maps and lists
    /// print as JSON from 1.34 and, before, as Go prints the unstructured value
    /// (`map[string]interface {}{…}`), which is right for custom resources.
    Value(Value),
    /// A composite value of a typed (built-in) field and the Go syntax (`%#v`) releases before
    /// 1.34 print for it, e.g. `map[string]string{"app":"web"}` (see [`super::goprint`]).
    /// `value` must hold map entries in the order Go's JSON encoder writes them: struct
    /// fields in declaration order, map keys sorted.
    GoValue { value: Value, go_syntax: String },
}

/// apimachinery's `field.Error`: `<field>: <type>[: <value>][: <detail>]`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub error_type: ErrorType,
    /// The field path as the server prints it: `spec.template.spec.containers[0].name`,
    /// `metadata.labels[app]`.
    pub field: String,
    pub bad_value: BadValue,
    pub detail: String,
}

/// How `ErrorBody` prints a composite value, by version: apimachinery v0.34 (Kubernetes 1.34)
/// tries `json.Marshal` first; before, a `fmt.Stringer` or `%#v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ValueStyle {
    GoSyntax,
    Json,
}

const VALUE_STYLE: &[(VersionRange, ValueStyle)] = &[
    (VersionRange::until(33), ValueStyle::GoSyntax),
    (VersionRange::since(34), ValueStyle::Json),
];

/// The detail of `field.TooLong` (apimachinery `TooLong`): v0.32 changed `must have at most N
/// bytes` to `may not be more than N bytes`, v0.34 made the unit singular for 1.
const TOO_LONG_WORDING: &[(VersionRange, &str, bool)] = &[
    (
        VersionRange {
            since: None,
            until: Some(31),
        },
        "must have at most",
        false,
    ),
    (
        VersionRange {
            since: Some(32),
            until: Some(33),
        },
        "may not be more than",
        false,
    ),
    (VersionRange::since(34), "may not be more than", true),
];

/// `field.TooMany`'s detail: the unit became singular for 1 in v0.34.
const TOO_MANY_SINGULAR: VersionRange = VersionRange::since(34);

fn lookup<T: Copy>(table: &[(VersionRange, T)], version: KubeVersion) -> T {
    version.pick(table)
}

fn unit(n: usize, singular: &str, plural: &str, singular_for_one: bool) -> String {
    if n == 1 && singular_for_one {
        singular.to_string()
    } else {
        plural.to_string()
    }
}

impl FieldError {
    pub fn new(
        error_type: ErrorType,
        field: impl Into<String>,
        bad_value: BadValue,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError {
            error_type,
            field: field.into(),
            bad_value,
            detail: detail.into(),
        }
    }

    /// `field.Invalid`.
    pub fn invalid(field: impl Into<String>, value: BadValue, detail: impl Into<String>) -> Self {
        FieldError::new(ErrorType::Invalid, field, value, detail)
    }

    /// `field.Required`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError::new(ErrorType::Required, field, BadValue::Omitted, detail)
    }

    /// `field.Forbidden`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError::new(ErrorType::Forbidden, field, BadValue::Omitted, detail)
    }

    /// `field.NotFound`.
    pub fn not_found(field: impl Into<String>, value: BadValue) -> Self {
        FieldError::new(ErrorType::NotFound, field, value, "")
    }

    /// `field.Duplicate`.
    pub fn duplicate(field: impl Into<String>, value: BadValue) -> Self {
        FieldError::new(ErrorType::Duplicate, field, value, "")
    }

    /// `field.NotSupported`: the detail lists the supported values quoted, in the given order.
    pub fn not_supported(field: impl Into<String>, value: BadValue, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        FieldError::new(ErrorType::NotSupported, field, value, detail)
    }

    /// `field.TooLong` with a byte limit, worded as `version` words it.
    pub fn too_long(field: impl Into<String>, max_bytes: usize, version: KubeVersion) -> Self {
        let (words, singular) = TOO_LONG_WORDING
            .iter()
            .find(|(range, _, _)| range.contains(version))
            .map(|(_, w, s)| (*w, *s))
            .expect("version tables cover every embedded version");
        let detail = format!(
            "{words} {max_bytes} {}",
            unit(max_bytes, "byte", "bytes", singular)
        );
        FieldError::new(ErrorType::TooLong, field, BadValue::Omitted, detail)
    }

    /// `field.TooMany`: `actual` items where at most `max` are allowed.
    pub fn too_many(
        field: impl Into<String>,
        actual: usize,
        max: usize,
        version: KubeVersion,
    ) -> Self {
        let detail = format!(
            "must have at most {max} {}",
            unit(max, "item", "items", TOO_MANY_SINGULAR.contains(version))
        );
        FieldError::new(
            ErrorType::TooMany,
            field,
            BadValue::Value(Value::Int(actual as i64)),
            detail,
        )
    }

    /// A string bad value (the common case).
    pub fn string_value(s: &str) -> BadValue {
        BadValue::Value(Value::String(s.to_string()))
    }

    /// A string of a named Go type with a `String()` method (`core.ResourceName`): releases
    /// before 1.34 print it bare (`ErrorBody`'s `fmt.Stringer` case), later ones quote it as JSON.
    pub fn stringer_value(s: &str) -> BadValue {
        BadValue::GoValue {
            value: Value::String(s.to_string()),
            go_syntax: s.to_string(),
        }
    }

    /// apimachinery's `ErrorBody`: the message without the field path.
    pub fn body(&self, version: KubeVersion) -> String {
        let mut s = self.error_type.as_str().to_string();
        if !self.error_type.omits_value() {
            if let Some(v) = self.printed_value(version) {
                s.push_str(": ");
                s.push_str(&v);
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// `field.Error.Error()`: `<field>: <body>`.
    pub fn message(&self, version: KubeVersion) -> String {
        format!("{}: {}", self.field, self.body(version))
    }

    fn printed_value(&self, version: KubeVersion) -> Option<String> {
        let style = lookup(VALUE_STYLE, version);
        match &self.bad_value {
            BadValue::Omitted => None,
            BadValue::Value(v) => Some(match v {
                Value::List(_) | Value::Map(_) if style == ValueStyle::Json => to_json_string(v),
                Value::Null if style == ValueStyle::Json => "null".to_string(),
                _ => go_value(v),
            }),
            BadValue::GoValue { value, go_syntax } => Some(match style {
                ValueStyle::Json => to_json_string(value),
                ValueStyle::GoSyntax => go_syntax.clone(),
            }),
        }
    }
}

/// A composite typed value with its Go syntax computed from `go_type` (see
/// [`super::goprint::go_syntax`]).
pub fn typed_value(value: Value, go_type: &super::goprint::GoType) -> BadValue {
    let go_syntax = go_syntax(&value, go_type);
    BadValue::GoValue { value, go_syntax }
}

/// `path` then `suffix` (`spec` + `.replicas`): field paths are built for every object
/// validated, and the formatting machinery costs ten times a concatenation.
pub fn join(path: &str, suffix: &str) -> PathText {
    PathText::concat(&[path, suffix])
}

/// `path[i]`.
pub fn indexed(path: &str, i: usize) -> PathText {
    PathText::concat(&[path, "[", itoa::Buffer::new().format(i), "]"])
}

/// `path[key]`, for map entries (`limits[cpu]`).
pub fn keyed(path: &str, key: &str) -> PathText {
    PathText::concat(&[path, "[", key, "]"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::goprint::GoType;
    use crate::value::Map;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    fn labels() -> Value {
        let mut m = Map::default();
        m.insert("app".into(), Value::from("web"));
        Value::Map(m)
    }

    #[test]
    fn composite_values_print_as_go_syntax_before_1_34_and_json_since() {
        let e = FieldError::invalid(
            "spec.template.metadata.labels",
            typed_value(labels(), &GoType::StringMap),
            "`selector` does not match template `labels`",
        );
        assert_eq!(
            e.message(v(33)),
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`"
        );
        assert_eq!(
            e.message(v(34)),
            "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"
        );
    }

    #[test]
    fn scalars_print_the_same_everywhere() {
        let e = FieldError::not_supported(
            "spec.ports[0].protocol",
            FieldError::string_value("TCPP"),
            &["SCTP", "TCP", "UDP"],
        );
        for minor in [30, 37] {
            assert_eq!(
                e.message(v(minor)),
                "spec.ports[0].protocol: Unsupported value: \"TCPP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
            );
        }
        let port = FieldError::invalid(
            "spec.ports[0].port",
            BadValue::Value(Value::Int(70000)),
            "must be between 1 and 65535, inclusive",
        );
        assert_eq!(
            port.body(v(30)),
            "Invalid value: 70000: must be between 1 and 65535, inclusive"
        );
    }

    #[test]
    fn size_limits_are_worded_per_version() {
        let at =
            |minor| FieldError::too_long("metadata.annotations", 262144, v(minor)).body(v(minor));
        assert_eq!(at(31), "Too long: must have at most 262144 bytes");
        assert_eq!(at(32), "Too long: may not be more than 262144 bytes");
        assert_eq!(at(37), "Too long: may not be more than 262144 bytes");
        assert_eq!(
            FieldError::too_long("x", 1, v(34)).body(v(34)),
            "Too long: may not be more than 1 byte"
        );
        assert_eq!(
            FieldError::too_many("x", 3, 1, v(33)).body(v(33)),
            "Too many: 3: must have at most 1 items"
        );
    }

    #[test]
    fn required_and_forbidden_never_quote_a_value() {
        let e = FieldError::required("spec.containers[0].name", "");
        assert_eq!(e.message(v(37)), "spec.containers[0].name: Required value");
        let f = FieldError::forbidden("spec", "updates are forbidden");
        assert_eq!(f.body(v(30)), "Forbidden: updates are forbidden");
    }
}
