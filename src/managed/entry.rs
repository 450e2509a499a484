//! `metadata.managedFields` entries, decoded and encoded as the API server stores them.

use super::time::{Time, TimeError};
use crate::fieldpath::{from_fields_v1, to_fields_v1, FieldsV1Error, Set};
use crate::value::{Map, Value};
use std::fmt;

/// How a manager wrote its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Apply,
    Update,
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        })
    }
}

/// One `managedFields` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedFieldsEntry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// RFC 3339, as stored; absent in some hand-written snapshots.
    pub time: Option<String>,
    pub fields: Set,
    /// Empty for the main resource.
    pub subresource: String,
}

/// Why `metadata.managedFields` could not be decoded; the texts are the API server's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManagedFieldsError {
    #[error("metadata.managedFields must be a list, got {0}")]
    NotAList(&'static str),
    #[error("managed fields entry {index} must be an object")]
    NotAnEntry { index: usize },
    #[error("operation must be `Apply` or `Update`")]
    Operation { index: usize },
    #[error("apiVersion must not be empty")]
    ApiVersion { index: usize },
    #[error("missing fieldsType in managed fields entry {index}")]
    MissingFieldsType { index: usize },
    #[error("invalid fieldsType {fields_type:?} in managed fields entry {index}")]
    InvalidFieldsType { index: usize, fields_type: String },
    #[error("error decoding versioned set of managed fields entry {index}: {source}")]
    Fields { index: usize, source: FieldsV1Error },
    #[error("invalid time in managed fields entry {index}: {source}")]
    Time { index: usize, source: TimeError },
}

/// Decodes the entries of an object's `metadata.managedFields` (none when absent or null), with
/// the checks of the API server's `decodeManagedFields`, in its order.
pub fn decode_managed_fields(
    object: &Value,
) -> Result<Vec<ManagedFieldsEntry>, ManagedFieldsError> {
    match object.get_path(&["metadata", "managedFields"]) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::List(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| decode_entry(i, item))
            .collect(),
        Some(other) => Err(ManagedFieldsError::NotAList(other.kind_name())),
    }
}

fn decode_entry(index: usize, item: &Value) -> Result<ManagedFieldsEntry, ManagedFieldsError> {
    if item.as_map().is_none() {
        return Err(ManagedFieldsError::NotAnEntry { index });
    }
    let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_string);
    let operation = match text("operation").as_deref() {
        Some("Apply") => Operation::Apply,
        Some("Update") => Operation::Update,
        _ => return Err(ManagedFieldsError::Operation { index }),
    };
    let api_version = text("apiVersion")
        .filter(|v| !v.is_empty())
        .ok_or(ManagedFieldsError::ApiVersion { index })?;
    match text("fieldsType").unwrap_or_default().as_str() {
        "FieldsV1" => {}
        "" => return Err(ManagedFieldsError::MissingFieldsType { index }),
        other => {
            return Err(ManagedFieldsError::InvalidFieldsType {
                index,
                fields_type: other.to_string(),
            })
        }
    }
    let fields = from_fields_v1(item.get("fieldsV1").unwrap_or(&Value::Null))
        .map_err(|source| ManagedFieldsError::Fields { index, source })?;
    let time = text("time");
    if let Some(t) = &time {
        Time::parse(t).map_err(|source| ManagedFieldsError::Time { index, source })?;
    }
    Ok(ManagedFieldsEntry {
        manager: text("manager").unwrap_or_default(),
        operation,
        api_version,
        time,
        fields,
        subresource: text("subresource").unwrap_or_default(),
    })
}

/// Encodes entries in the API server's field order.
pub fn encode_managed_fields(entries: &[ManagedFieldsEntry]) -> Value {
    Value::List(entries.iter().map(encode_entry).collect())
}

fn encode_entry(e: &ManagedFieldsEntry) -> Value {
    let mut m = Map::default();
    m.insert("manager".into(), Value::from(e.manager.as_str()));
    m.insert("operation".into(), Value::from(e.operation.to_string()));
    m.insert("apiVersion".into(), Value::from(e.api_version.as_str()));
    if let Some(t) = &e.time {
        m.insert("time".into(), Value::from(t.as_str()));
    }
    m.insert("fieldsType".into(), Value::from("FieldsV1"));
    m.insert("fieldsV1".into(), to_fields_v1(&e.fields));
    if !e.subresource.is_empty() {
        m.insert("subresource".into(), Value::from(e.subresource.as_str()));
    }
    Value::Map(m)
}
