//! One validation error at one field path, as k8s.io/apimachinery/pkg/util/validation/field
//! (`Error`, `ErrorType`) models it.

use crate::value::Value;

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
}

/// The value a [`FieldError`] quotes.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// Not printed (`field.OmitValueType`).
    Omitted,
    /// A value as the object holds it. Scalars print the same in every version; maps and lists
    /// print as JSON from 1.34 and in Go syntax before, which needs the Go type's name.
    Value(Value),
    /// A composite value and the Go syntax (`%#v`) releases before 1.34 print for it, e.g.
    /// `map[string]string{"app":"web"}`.
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
}
