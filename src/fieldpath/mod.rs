//! Field paths and field sets: naming the parts of an object and recording who owns which.

mod element;
mod fieldsv1;
mod managed;
mod set;

pub use element::{KeyFields, Path, PathElement};
pub use fieldsv1::{
    element_key, from_fields_v1, from_fields_v1_str, parse_element_key, to_fields_v1,
    to_fields_v1_string, FieldsV1Error,
};
pub use managed::{ManagedFields, VersionedSet};
pub use set::Set;
