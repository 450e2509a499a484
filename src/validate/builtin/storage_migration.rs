//! StorageVersionMigrations (storagemigration.k8s.io, served by default from 1.37 as v1), as
//! k8s.io/kubernetes pkg/apis/storagemigration/validation checks them
//! (`ValidateStorageVersionMigration`, `ValidateStorageVersionMigrationUpdate`, in the
//! v1beta1 form whose `spec.resource` is a group and resource): the resource is required, and
//! the group and resource may not change (reported at `group` and `resource`, without the
//! `spec.resource.` prefix, as upstream does).

use super::super::{FieldError, Write};
use super::fields::{present, spec, text};
use crate::value::Value;

const IMMUTABLE: &str = "field is immutable";

pub fn storage_version_migration(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    static NULL: Value = Value::Null;
    let resource = present(spec(object), "resource").unwrap_or(&NULL);
    if text(resource, "resource").is_empty() {
        errors.push(FieldError::required(
            "spec.resource.resource",
            "resource is required",
        ));
    }
    let Some(old) = w.live else {
        return;
    };
    let old_resource = present(spec(old), "resource").unwrap_or(&NULL);
    for key in ["group", "resource"] {
        let value = text(resource, key);
        if value != text(old_resource, key) {
            errors.push(FieldError::invalid(
                key,
                FieldError::string_value(value),
                IMMUTABLE,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const MIGRATION: &str = r#"{"apiVersion":"storagemigration.k8s.io/v1","kind":"StorageVersionMigration",
      "metadata":{"name":"secrets-migration"},
      "spec":{"resource":{"group":"","resource":"secrets"}}}"#;

    #[test]
    fn a_valid_migration_passes() {
        assert!(refusal_causes(MIGRATION, None, 37).is_empty());
        assert!(refusal_causes(MIGRATION, Some(MIGRATION), 37).is_empty());
    }

    #[test]
    fn the_resource_is_required_and_immutable() {
        let empty = MIGRATION.replace(r#""resource":"secrets""#, r#""resource":"""#);
        assert_eq!(
            refusal_causes(&empty, None, 37),
            ["spec.resource.resource: Required value: resource is required"]
        );
        let moved = MIGRATION
            .replace(r#""group":"""#, r#""group":"apps""#)
            .replace("secrets", "deployments");
        assert_eq!(
            refusal_causes(&moved, Some(MIGRATION), 37),
            [
                "group: Invalid value: \"apps\": field is immutable",
                "resource: Invalid value: \"deployments\": field is immutable",
            ]
        );
    }
}
