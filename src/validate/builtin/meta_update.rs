//! The immutable fields of `ValidateObjectMetaAccessorUpdate` (k8s.io/apimachinery
//! pkg/api/validation/objectmeta.go) that an update can still change once k8s.io/apiserver's
//! `rest.BeforeUpdate` has restored what it restores from the stored object.

use super::super::field::{BadValue, FieldError};
use super::super::Write;
use crate::value::Value;

/// `ValidateObjectMetaAccessorUpdate`'s immutable fields the registry does not restore
/// (rest.BeforeUpdate restores a missing uid, the creation timestamp, a set deletion timestamp
/// and a removed grace period from the stored object first): a uid naming another object (an
/// apply or patch; a PUT's uid is refused earlier, as a storage precondition, [`crate::validate::precondition::check`]), a
/// deletion timestamp on an object not being deleted, and a changed or added
/// `deletionGracePeriodSeconds`. Empty on create.
pub fn immutable_metadata(w: &Write, object: &Value) -> Vec<FieldError> {
    let Some(live) = w.live else {
        return Vec::new();
    };
    let field = |v: &'_ Value, key: &str| -> Option<Value> {
        v.get_path(&["metadata", key])
            .filter(|x| !x.is_null() && x.as_str() != Some(""))
            .cloned()
    };
    let mut errors = Vec::new();
    if let (Some(old), Some(Value::String(new))) = (field(live, "uid"), field(object, "uid")) {
        if old.as_str() != Some(new.as_str()) {
            errors.push(FieldError::invalid(
                "metadata.uid",
                FieldError::string_value(&new),
                "field is immutable",
            ));
        }
    }
    if let (None, Some(new)) = (
        field(live, "deletionTimestamp"),
        field(object, "deletionTimestamp"),
    ) {
        errors.push(FieldError::invalid(
            "metadata.deletionTimestamp",
            time_value(&new),
            "field is immutable",
        ));
    }
    let grace = |v: &Value| field(v, "deletionGracePeriodSeconds");
    if let Some(new) = grace(object) {
        if grace(live).as_ref() != Some(&new) {
            errors.push(FieldError::invalid(
                "metadata.deletionGracePeriodSeconds",
                BadValue::Value(new),
                "field is immutable",
            ));
        }
    }
    errors
}

/// A `*metav1.Time` as `ErrorBody` prints it: its JSON (RFC 3339 in UTC, whole seconds) from
/// 1.34, `time.Time.String()` before (the server's local zone, UTC in its images).
pub(super) fn time_value(v: &Value) -> BadValue {
    let text = v.as_str().unwrap_or("");
    match chrono::DateTime::parse_from_rfc3339(text) {
        Ok(t) => {
            let utc = t.with_timezone(&chrono::Utc);
            let nanos = utc.timestamp_subsec_nanos();
            let fraction = if nanos == 0 {
                String::new()
            } else {
                format!(".{nanos:09}").trim_end_matches('0').to_string()
            };
            BadValue::GoValue {
                value: Value::from(utc.format("%Y-%m-%dT%H:%M:%SZ").to_string()),
                go_syntax: format!("{}{fraction} +0000 UTC", utc.format("%Y-%m-%d %H:%M:%S")),
            }
        }
        Err(_) => FieldError::string_value(text),
    }
}
