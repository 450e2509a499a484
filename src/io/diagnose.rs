//! Turning the library's findings about an object into positioned input errors: which node of
//! the manifest or snapshot each kind of problem is about.

use super::{Anchor, InputError, Origin};
use crate::managed::ManagedFieldsError;
use crate::typed::ValidationError;

/// A schema validation error: an undeclared field at its key, a repeated list key at the second
/// item that has it, a bad list element at the element, anything else at the offending value.
pub fn validation_error(origin: &Origin, e: &ValidationError) -> InputError {
    let (node, anchor) = validation_node(e);
    InputError::invalid_value(origin, &e.path, &e.message).pointing_at(node, anchor)
}

/// The node a validation error is about, and which part of it.
pub fn validation_node(e: &ValidationError) -> (String, Anchor) {
    let message = e.message.as_str();
    if let Some(key) = message.strip_prefix("duplicate entries for key ") {
        return (format!("{}{key}", e.path), Anchor::Duplicate);
    }
    let element = message
        .strip_prefix("element ")
        .and_then(|r| r.split_once(':'))
        .filter(|(i, _)| i.parse::<usize>().is_ok());
    if let Some((index, _)) = element {
        return (format!("{}[{index}]", e.path), Anchor::Value);
    }
    if message == crate::typed::FIELD_NOT_DECLARED {
        return (e.path.clone(), Anchor::Key);
    }
    (e.path.clone(), Anchor::Value)
}

/// A `metadata.managedFields` that cannot be decoded, at the entry or field that is wrong.
pub fn managed_fields_error(origin: &Origin, e: &ManagedFieldsError) -> InputError {
    use ManagedFieldsError as E;
    let entry = |i: &usize, field: &str| format!("[{i}]{field}");
    let (node, anchor) = match e {
        E::NotAList(_) => (String::new(), Anchor::Value),
        E::NotAnEntry { index } | E::MissingFieldsType { index } => {
            (entry(index, ""), Anchor::Value)
        }
        E::Operation { index } => (entry(index, ".operation"), Anchor::Value),
        E::ApiVersion { index } => (entry(index, ".apiVersion"), Anchor::Value),
        E::InvalidFieldsType { index, .. } => (entry(index, ".fieldsType"), Anchor::Value),
        E::Fields { index, .. } => (entry(index, ".fieldsV1"), Anchor::Key),
        E::Time { index, .. } => (entry(index, ".time"), Anchor::Value),
    };
    let path = ".metadata.managedFields";
    InputError::invalid(origin, path, e).pointing_at(format!("{path}{node}"), anchor)
}
