//! Conversion between the API versions managers wrote in. The product serves one schema per
//! object, so its converter is the identity; tests plug in multi-version converters.

use crate::schema::TypeRef;
use crate::value::Value;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// The version is no longer served: managers at it are dropped, not failed.
    #[error("version {0} is not served")]
    MissingVersion(String),
    #[error("{0}")]
    Failed(String),
}

pub trait Converter {
    /// The schema type of objects at `version`.
    fn type_ref(&self, version: &str) -> Result<TypeRef, ConversionError>;
    /// Converts a value from one version to another.
    fn convert(&self, value: &Value, from: &str, to: &str) -> Result<Value, ConversionError>;
}

/// Every version shares one type and values need no conversion.
#[derive(Debug, Clone)]
pub struct SingleVersion(pub TypeRef);

impl Converter for SingleVersion {
    fn type_ref(&self, _version: &str) -> Result<TypeRef, ConversionError> {
        Ok(self.0.clone())
    }

    fn convert(&self, value: &Value, _from: &str, _to: &str) -> Result<Value, ConversionError> {
        Ok(value.clone())
    }
}
