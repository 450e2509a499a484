//! CSIStorageCapacities and VolumeAttributesClasses, as k8s.io/kubernetes
//! pkg/apis/storage/validation checks them (`ValidateCSIStorageCapacity`,
//! `ValidateCSIStorageCapacityUpdate`, `ValidateVolumeAttributesClass`,
//! `ValidateVolumeAttributesClassUpdate`) through their registry strategies.

use super::super::{formats, FieldError, Write};
use super::affinity::label_name;
use super::fields::{present, text};
use super::resources::Amount;
use super::selector;
use super::storage;
use crate::kube::VersionRange;
use crate::value::Value;

/// The CSIStorageCapacity strategy's `Validate`, and on update the same followed by
/// `ValidateCSIStorageCapacityUpdate` (the inputs of the CSI `GetCapacity` call are immutable).
pub fn csi_storage_capacity(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let topology = present(object, "nodeTopology");
    if let Some(s) = topology {
        // An update keeps invalid label values the stored topology already had
        // (`hasInvalidLabelValueInLabelSelector` in the strategy's `ValidateUpdate`).
        let stored_invalid = w
            .live
            .and_then(|old| present(old, "nodeTopology"))
            .is_some_and(|old| selector::is_invalid(old, w.version()));
        let values = selector::Values::allowing_invalid_if(stored_invalid);
        selector::validate_with(s, "nodeTopology", values, w.version(), errors);
    }
    let class = text(object, "storageClassName");
    for msg in formats::dns1123_subdomain(class) {
        errors.push(FieldError::invalid(
            "storageClassName",
            FieldError::string_value(class),
            msg,
        ));
    }
    Amount::non_negative(object.get("capacity"), "capacity", errors);
    let Some(old) = w.live else {
        return;
    };
    if !selector::semantic_eq(topology, present(old, "nodeTopology")) {
        errors.push(FieldError::invalid(
            "nodeTopology",
            selector::quoted(topology),
            "field is immutable",
        ));
    }
    if class != text(old, "storageClassName") {
        errors.push(FieldError::invalid(
            "storageClassName",
            FieldError::string_value(class),
            "field is immutable",
        ));
    }
}

/// The releases whose strategy's `ValidateUpdate` is `ValidateVolumeAttributesClassUpdate`
/// alone (its own rules first); before 1.35 it ran `ValidateVolumeAttributesClass` first and
/// appended the update's errors (pkg/registry/storage/volumeattributesclass/strategy.go).
const UPDATE_RULES_FIRST: VersionRange = VersionRange::since(35);

/// `ValidateVolumeAttributesClass` (the driver name as a StorageClass provisioner, at least
/// one parameter) and on update `ValidateVolumeAttributesClassUpdate`'s own rules
/// (`driverName` and `parameters` may not change), in the strategy's order of the release.
pub fn volume_attributes_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let mut create = Vec::new();
    volume_attributes_class_create(w, object, &mut create);
    if !UPDATE_RULES_FIRST.contains(w.version()) {
        errors.append(&mut create);
    }
    let driver = text(object, "driverName");
    let params = present(object, "parameters");
    if let Some(old) = w.live {
        if driver != text(old, "driverName") {
            errors.push(FieldError::forbidden(
                "driverName",
                "updates to driverName are forbidden.",
            ));
        }
        // reflect.DeepEqual of the maps; an empty map is taken as absent.
        let map = |v: Option<&Value>| v.and_then(Value::as_map).filter(|m| !m.is_empty()).cloned();
        if map(params) != map(present(old, "parameters")) {
            errors.push(FieldError::forbidden(
                "parameters",
                "updates to parameters are forbidden.",
            ));
        }
    }
    errors.append(&mut create);
}

fn volume_attributes_class_create(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let driver = text(object, "driverName");
    let params = present(object, "parameters");
    // validateProvisioner.
    if driver.is_empty() {
        errors.push(FieldError::required("driverName", ""));
    } else {
        label_name(&driver.to_lowercase(), "driverName", w.version(), errors);
    }
    // validateParameters with allowEmpty false.
    let count = params.and_then(Value::as_map).map_or(0, |m| m.len());
    storage::parameters(w, params, errors);
    if count == 0 {
        errors.push(FieldError::required(
            "parameters",
            "must contain at least one key/value pair",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const CAPACITY: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
      "metadata":{"name":"csisc-1","namespace":"kube-system"},
      "nodeTopology":{"matchLabels":{"topology.hostpath.csi/node":"node-1"}},
      "storageClassName":"csi-hostpath-fast","capacity":"10Gi"}"#;

    #[test]
    fn capacity_rules() {
        assert_eq!(refusal(CAPACITY, None, 37), None);
        let bad = CAPACITY
            .replace("csi-hostpath-fast", "Fast")
            .replace("10Gi", "-1Gi")
            .replace(r#""node-1""#, r#""-bad-""#);
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "nodeTopology.matchLabels: Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "storageClassName: Invalid value: \"Fast\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "capacity: Invalid value: \"-1Gi\": must be greater than or equal to 0",
            ]
        );
    }

    #[test]
    fn capacity_inputs_are_immutable() {
        let moved = CAPACITY
            .replace("node-1", "node-2")
            .replace("csi-hostpath-fast", "slow")
            .replace("10Gi", "20Gi");
        assert_eq!(
            refusal_causes(&moved, Some(CAPACITY), 37),
            [
                "nodeTopology: Invalid value: {\"matchLabels\":{\"topology.hostpath.csi/node\":\"node-2\"}}: field is immutable",
                "storageClassName: Invalid value: \"slow\": field is immutable",
            ]
        );
        let grown = CAPACITY.replace("10Gi", "20Gi");
        assert_eq!(refusal(&grown, Some(CAPACITY), 37), None);
    }

    #[test]
    fn an_update_keeps_invalid_topology_values_already_stored() {
        let expressions = |values: &str| {
            CAPACITY.replace(
                r#"{"matchLabels":{"topology.hostpath.csi/node":"node-1"}}"#,
                &format!(
                    r#"{{"matchExpressions":[{{"key":"zone","operator":"In","values":{values}}}]}}"#
                ),
            )
        };
        let stored = expressions(r#"["-bad-"]"#);
        let message = "nodeTopology.matchExpressions[0].values[0]: Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        assert_eq!(refusal_causes(&stored, None, 36), [message]);
        let grown = stored.replace("10Gi", "20Gi");
        assert_eq!(refusal(&grown, Some(&stored), 36), None);
        assert_eq!(
            refusal_causes(&grown, Some(&expressions(r#"["a"]"#)), 36)[0],
            message
        );
    }

    const CLASS: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttributesClass",
      "metadata":{"name":"silver"},"driverName":"pd.csi.storage.gke.io",
      "parameters":{"provisioned-iops":"3000","provisioned-throughput":"50"}}"#;

    #[test]
    fn attributes_class_rules() {
        assert_eq!(refusal(CLASS, None, 34), None);
        let bad = CLASS.replace("pd.csi.storage.gke.io", "pd csi").replace(
            r#"{"provisioned-iops":"3000","provisioned-throughput":"50"}"#,
            "{}",
        );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "driverName: Invalid value: \"pd csi\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "parameters: Required value: must contain at least one key/value pair",
            ]
        );
    }

    #[test]
    fn attributes_class_updates() {
        let changed = CLASS
            .replace("pd.csi.storage.gke.io", "ebs.csi.aws.com")
            .replace("3000", "4000");
        assert_eq!(
            refusal_causes(&changed, Some(CLASS), 34),
            [
                "driverName: Forbidden: updates to driverName are forbidden.",
                "parameters: Forbidden: updates to parameters are forbidden.",
            ]
        );
        let renamed = CLASS.replace("pd.csi.storage.gke.io", "ebs csi");
        let name_error = "driverName: Invalid value: \"ebs csi\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let forbidden = "driverName: Forbidden: updates to driverName are forbidden.";
        assert_eq!(
            refusal_causes(&renamed, Some(CLASS), 34),
            [name_error, forbidden]
        );
        assert_eq!(
            refusal_causes(&renamed, Some(CLASS), 35),
            [forbidden, name_error]
        );
    }
}
