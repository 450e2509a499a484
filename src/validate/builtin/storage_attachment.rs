//! VolumeAttachments and CSINodes, as k8s.io/kubernetes pkg/apis/storage/validation checks them
//! (`ValidateVolumeAttachment`, `ValidateVolumeAttachmentV1`, `ValidateVolumeAttachmentUpdate`,
//! `ValidateCSINode`, `ValidateCSINodeUpdate`) through their registry strategies
//! (pkg/registry/storage/volumeattachment/strategy.go, csinode/strategy.go).

use super::super::goprint::go_quote;
use super::super::internal_go::internal_struct;
use super::super::{formats, BadValue, FieldError, Write};
use super::affinity::label_name;
use super::fields::{items, present, spec, text};
use super::volume_source::driver_name;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::{Map, Value};
use std::collections::HashSet;

/// `csiNodeIDLongerMaxLength`: the strategy passes `AllowLongNodeID` (1.30–).
const NODE_ID_MAX: usize = 256;

/// MutableCSINodeAllocatableCount (on by default from 1.35; beta and off in 1.34): a driver's `allocatable`
/// may change on update.
const MUTABLE_ALLOCATABLE: VersionRange = VersionRange::since(35);
/// Where `ValidateCSINodeUpdate` reports a changed driver: `CSINodeDriver` until 1.32 (a bare
/// path), `spec.drivers` from 1.33 (read in the 1.32 and 1.33 sources).
const CHANGED_DRIVER_PATH: &[(VersionRange, &str)] = &[
    (VersionRange::until(32), "CSINodeDriver"),
    (VersionRange::since(33), "spec.drivers"),
];

/// The releases whose `ValidateVolumeAttachment` checks the attacher as a CSI driver name and
/// the persistent volume's name itself, on create and update alike; before 1.36 the spec
/// check required an attacher only, and `ValidateVolumeAttachmentV1` added both on create.
const NAMES_IN_SPEC: VersionRange = VersionRange::since(36);

/// The VolumeAttachment strategy's `Validate` (`ValidateVolumeAttachment`, then for new v1
/// objects `ValidateVolumeAttachmentV1` before 1.36) and `ValidateUpdate`
/// (`ValidateVolumeAttachment` and the read-only spec). `status` is cleared on create and kept
/// on update by the strategy, so it is not checked.
pub fn volume_attachment(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let names_in_spec = NAMES_IN_SPEC.contains(w.version());
    let spec = spec(object);
    // validateVolumeAttachmentSpec: the attacher, exactly one source, the node name.
    let attacher = text(spec, "attacher");
    if names_in_spec {
        driver_name(attacher, "spec.attacher", w.version(), errors);
    } else if attacher.is_empty() {
        errors.push(FieldError::required("spec.attacher", ""));
    }
    let source = present(spec, "source").unwrap_or(&Value::Null);
    let pv_name = present(source, "persistentVolumeName").and_then(Value::as_str);
    let inline = present(source, "inlineVolumeSpec");
    const ONE_SOURCE: &str =
        "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
    match (pv_name, inline) {
        (None, None) => errors.push(FieldError::required("spec.source", ONE_SOURCE)),
        (Some(_), Some(_)) => errors.push(FieldError::forbidden("spec.source", ONE_SOURCE)),
        (Some(""), None) => errors.push(FieldError::required(
            "spec.source.persistentVolumeName",
            "must specify non empty persistentVolumeName",
        )),
        // The inline PersistentVolumeSpec is not validated here (see docs/validation.md).
        _ => {}
    }
    let node = text(spec, "nodeName");
    for msg in formats::dns1123_subdomain(node) {
        errors.push(FieldError::invalid(
            "spec.nodeName",
            FieldError::string_value(node),
            msg,
        ));
    }
    if names_in_spec {
        persistent_volume_name(pv_name, errors);
    }
    let Some(old) = w.live else {
        if !names_in_spec {
            // ValidateVolumeAttachmentV1, on create only.
            driver_name(attacher, "spec.attacher", w.version(), errors);
            persistent_volume_name(pv_name, errors);
        }
        return;
    };
    let old_spec = self::spec(old);
    let same = text(old_spec, "attacher") == attacher
        && text(old_spec, "nodeName") == node
        && old_spec
            .get("source")
            .and_then(|s| present(s, "persistentVolumeName"))
            == present(source, "persistentVolumeName")
        && old_spec
            .get("source")
            .and_then(|s| present(s, "inlineVolumeSpec"))
            == inline;
    if !same {
        errors.push(FieldError::invalid(
            "spec",
            attachment_spec_value(attacher, pv_name, inline, node, w.version()),
            "field is immutable",
        ));
    }
}

/// `ValidatePersistentVolumeName` of a named source.
fn persistent_volume_name(pv_name: Option<&str>, errors: &mut Vec<FieldError>) {
    let Some(pv) = pv_name else {
        return;
    };
    for msg in formats::dns1123_subdomain(pv) {
        errors.push(FieldError::invalid(
            "spec.source.persistentVolumeName",
            FieldError::string_value(pv),
            msg,
        ));
    }
}

/// The internal `storage.VolumeAttachmentSpec` as the server quotes it: Go syntax with pointer
/// addresses before 1.34, JSON with Go's field names after (the inline volume spec as the
/// internal `core.PersistentVolumeSpec`).
fn attachment_spec_value(
    attacher: &str,
    pv: Option<&str>,
    inline: Option<&Value>,
    node: &str,
    version: KubeVersion,
) -> BadValue {
    let mut source = Map::default();
    source.insert(
        "PersistentVolumeName".into(),
        pv.map_or(Value::Null, Value::from),
    );
    source.insert(
        "InlineVolumeSpec".into(),
        inline.map_or(Value::Null, |spec| {
            internal_struct("PersistentVolumeSpec", Some(spec), version).to_value()
        }),
    );
    let mut value = Map::default();
    value.insert("Attacher".into(), Value::from(attacher));
    value.insert("Source".into(), Value::Map(source));
    value.insert("NodeName".into(), Value::from(node));
    let ptr = |set: bool, ty: &str| format!("({ty})({})", if set { "0x…" } else { "nil" });
    let go_syntax = format!(
        "storage.VolumeAttachmentSpec{{Attacher:{}, Source:storage.VolumeAttachmentSource{{PersistentVolumeName:{}, InlineVolumeSpec:{}}}, NodeName:{}}}",
        go_quote(attacher),
        ptr(pv.is_some(), "*string"),
        ptr(inline.is_some(), "*core.PersistentVolumeSpec"),
        go_quote(node)
    );
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax,
    }
}

/// `ValidateCSINode` (the drivers), then on update `ValidateCSINodeUpdate`: a driver listed
/// before keeps its fields (`allocatable` may change from 1.35).
pub fn csi_node(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let drivers = items(spec(object).get("drivers"));
    let mut names = HashSet::new();
    for (i, driver) in drivers.iter().enumerate() {
        csi_node_driver(w, driver, &indexed("spec.drivers", i), &mut names, errors);
    }
    let Some(old) = w.live else {
        return;
    };
    let mutable_allocatable = MUTABLE_ALLOCATABLE.contains(w.version());
    for old_driver in items(spec(old).get("drivers")) {
        for new_driver in drivers {
            if text(old_driver, "name") != text(new_driver, "name") {
                continue;
            }
            let view = |d: &Value| {
                let allocatable = if mutable_allocatable {
                    None
                } else {
                    present(d, "allocatable").cloned()
                };
                (
                    text(d, "nodeID").to_string(),
                    items(d.get("topologyKeys")).to_vec(),
                    allocatable,
                )
            };
            if view(old_driver) != view(new_driver) {
                errors.push(FieldError::invalid(
                    w.version().pick(CHANGED_DRIVER_PATH),
                    driver_value(new_driver, mutable_allocatable),
                    "field is immutable",
                ));
            }
        }
    }
}

/// `validateCSINodeDriver`: the name as a CSI driver name, unique; the node ID; the
/// allocatable count; the topology keys (each reported at the driver).
fn csi_node_driver<'v>(
    w: &Write,
    driver: &'v Value,
    at: &str,
    names: &mut HashSet<&'v str>,
    errors: &mut Vec<FieldError>,
) {
    driver_name(
        text(driver, "name"),
        &join(at, ".name"),
        w.version(),
        errors,
    );
    let node_id = text(driver, "nodeID");
    let id_at = join(at, ".nodeID");
    if node_id.is_empty() {
        errors.push(FieldError::required(&id_at, ""));
    }
    if node_id.len() > NODE_ID_MAX {
        errors.push(FieldError::invalid(
            &id_at,
            FieldError::string_value(node_id),
            format!("must be {NODE_ID_MAX} characters or less"),
        ));
    }
    let count = present(driver, "allocatable").and_then(|a| present(a, "count"));
    if let Some(n) = count.and_then(Value::as_i64).filter(|n| *n < 0) {
        errors.push(FieldError::invalid(
            join(at, ".allocatable.count"),
            BadValue::Value(Value::Int(n)),
            "must be greater than or equal to 0",
        ));
    }
    let name = text(driver, "name");
    if !names.insert(name) {
        errors.push(FieldError::duplicate(
            join(at, ".name"),
            FieldError::string_value(name),
        ));
    }
    let mut keys = HashSet::new();
    for key in items(driver.get("topologyKeys")) {
        let key = key.as_str().unwrap_or("");
        if key.is_empty() {
            errors.push(FieldError::required(at, ""));
        }
        if !keys.insert(key) {
            errors.push(FieldError::duplicate(at, FieldError::string_value(key)));
        }
        label_name(key, at, w.version(), errors);
    }
}

/// The internal `storage.CSINodeDriver` the immutability error quotes (`allocatable` cleared
/// from 1.34, where the server compares copies without it).
fn driver_value(driver: &Value, mutable_allocatable: bool) -> BadValue {
    let keys = items(driver.get("topologyKeys"));
    let allocatable = if mutable_allocatable {
        None
    } else {
        present(driver, "allocatable")
    };
    let mut value = Map::default();
    value.insert("Name".into(), Value::from(text(driver, "name")));
    value.insert("NodeID".into(), Value::from(text(driver, "nodeID")));
    value.insert(
        "TopologyKeys".into(),
        if keys.is_empty() && driver.get("topologyKeys").is_none() {
            Value::Null
        } else {
            Value::List(keys.iter().cloned().collect())
        },
    );
    value.insert(
        "Allocatable".into(),
        allocatable.map_or(Value::Null, |a| {
            let mut m = Map::default();
            m.insert(
                "Count".into(),
                present(a, "count").cloned().unwrap_or(Value::Null),
            );
            Value::Map(m)
        }),
    );
    let quoted: Vec<String> = keys
        .iter()
        .map(|k| go_quote(k.as_str().unwrap_or("")))
        .collect();
    let keys_go = if driver.get("topologyKeys").is_none() {
        "[]string(nil)".to_string()
    } else {
        format!("[]string{{{}}}", quoted.join(", "))
    };
    let go_syntax = format!(
        "storage.CSINodeDriver{{Name:{}, NodeID:{}, TopologyKeys:{keys_go}, Allocatable:(*storage.VolumeNodeResources)({})}}",
        go_quote(text(driver, "name")),
        go_quote(text(driver, "nodeID")),
        if allocatable.is_some() { "0x…" } else { "nil" }
    );
    BadValue::GoValue {
        value: Value::Map(value),
        go_syntax,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refusal, refusal_causes};

    const ATTACHMENT: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
      "metadata":{"name":"csi-123"},
      "spec":{"attacher":"ebs.csi.aws.com","nodeName":"node-1","source":{"persistentVolumeName":"pv-1"}}}"#;

    #[test]
    fn a_valid_attachment_passes() {
        assert_eq!(refusal(ATTACHMENT, None, 37), None);
        assert_eq!(refusal(ATTACHMENT, Some(ATTACHMENT), 30), None);
    }

    #[test]
    fn attachment_create_rules() {
        let bad = ATTACHMENT
            .replace(r#""attacher":"ebs.csi.aws.com""#, r#""attacher":"""#)
            .replace(r#""persistentVolumeName":"pv-1""#, "")
            .replace("node-1", "Node_1");
        // 1.34: an empty attacher also gets the subdomain message (1.35 stops at Required).
        assert_eq!(
            refusal_causes(&bad, None, 34),
            [
                "spec.attacher: Required value",
                "spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
                "spec.nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.attacher: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            ]
        );
        let both = ATTACHMENT.replace(
            r#""persistentVolumeName":"pv-1""#,
            r#""persistentVolumeName":"","inlineVolumeSpec":{}"#,
        );
        assert_eq!(
            refusal_causes(&both, None, 37)[0],
            "spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName"
        );
    }

    #[test]
    fn attachment_spec_is_read_only() {
        let moved = ATTACHMENT.replace("node-1", "node-2");
        assert_eq!(
            refusal(&moved, Some(ATTACHMENT), 33).unwrap(),
            "The VolumeAttachment \"csi-123\" is invalid: spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:\"ebs.csi.aws.com\", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0x…), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:\"node-2\"}: field is immutable"
        );
        assert_eq!(
            refusal(&moved, Some(ATTACHMENT), 34).unwrap(),
            "The VolumeAttachment \"csi-123\" is invalid: spec: Invalid value: {\"Attacher\":\"ebs.csi.aws.com\",\"Source\":{\"PersistentVolumeName\":\"pv-1\",\"InlineVolumeSpec\":null},\"NodeName\":\"node-2\"}: field is immutable"
        );
        // An inline volume is quoted as the internal PersistentVolumeSpec, every field by its
        // Go name, the source's fields promoted.
        let inline = |node: &str| {
            ATTACHMENT.replace("node-1", node).replace(
                r#""persistentVolumeName":"pv-1""#,
                r#""inlineVolumeSpec":{"accessModes":["ReadWriteOnce"],"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}}"#,
            )
        };
        let message = refusal(&inline("node-2"), Some(&inline("node-1")), 36).unwrap();
        assert!(message.contains(r#""Source":{"PersistentVolumeName":null,"InlineVolumeSpec":{"Capacity":null,"GCEPersistentDisk":null,"#), "{message}");
        assert!(message.contains(r#""CSI":{"Driver":"ebs.csi.aws.com","VolumeHandle":"vol-1","ReadOnly":false,"FSType":"","VolumeAttributes":null,"ControllerPublishSecretRef":null,"NodeStageSecretRef":null,"NodePublishSecretRef":null,"ControllerExpandSecretRef":null,"NodeExpandSecretRef":null},"AccessModes":["ReadWriteOnce"],"ClaimRef":null,"PersistentVolumeReclaimPolicy":"","StorageClassName":"","MountOptions":null,"VolumeMode":null,"NodeAffinity":null,"VolumeAttributesClassName":null}},"NodeName":"node-2"}: field is immutable"#), "{message}");
    }

    #[test]
    fn from_1_36_names_are_checked_on_update_too() {
        let named = ATTACHMENT
            .replace("ebs.csi.aws.com", "ebs_csi")
            .replace("pv-1", "PV_1");
        let moved = named.replace("node-1", "Node_2");
        let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let attacher = format!("spec.attacher: Invalid value: \"ebs_csi\": {subdomain}");
        let node = format!("spec.nodeName: Invalid value: \"Node_2\": {subdomain}");
        let pv = format!("spec.source.persistentVolumeName: Invalid value: \"PV_1\": {subdomain}");
        let immutable = "spec: Invalid value: {\"Attacher\":\"ebs_csi\",\"Source\":{\"PersistentVolumeName\":\"PV_1\",\"InlineVolumeSpec\":null},\"NodeName\":\"Node_2\"}: field is immutable";
        assert_eq!(refusal_causes(&named, None, 35), [attacher.as_str(), &pv]);
        assert_eq!(refusal_causes(&named, None, 36), [attacher.as_str(), &pv]);
        assert_eq!(
            refusal_causes(&moved, Some(&named), 35),
            [node.as_str(), immutable]
        );
        assert_eq!(
            refusal_causes(&moved, Some(&named), 36),
            [attacher.as_str(), &node, &pv, immutable]
        );
    }

    const NODE: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"CSINode",
      "metadata":{"name":"node-1"},
      "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-0123","topologyKeys":["topology.ebs.csi.aws.com/zone"],"allocatable":{"count":25}}]}}"#;

    #[test]
    fn csi_node_rules() {
        assert_eq!(refusal(NODE, None, 37), None);
        let bad = NODE
            .replace(r#""nodeID":"i-0123""#, r#""nodeID":"""#)
            .replace(r#""count":25"#, r#""count":-1"#)
            .replace(
                r#"["topology.ebs.csi.aws.com/zone"]"#,
                r#"["zone","zone","","a/b/c"]"#,
            );
        assert_eq!(
            refusal_causes(&bad, None, 34),
            [
                "spec.drivers[0].nodeID: Required value",
                "spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0",
                "spec.drivers[0]: Duplicate value: \"zone\"",
                "spec.drivers[0]: Required value",
                "spec.drivers[0]: Invalid value: \"\": name part must be non-empty",
                "spec.drivers[0]: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "spec.drivers[0]: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ]
        );
        let twice = NODE.replace(
            r#"{"drivers":[{"#,
            r#"{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"x"},{"#,
        );
        assert_eq!(
            refusal_causes(&twice, None, 37),
            ["spec.drivers[1].name: Duplicate value: \"ebs.csi.aws.com\""]
        );
    }

    #[test]
    fn csi_node_drivers_keep_their_fields() {
        let moved = NODE.replace("i-0123", "i-0456");
        assert_eq!(
            refusal(&moved, Some(NODE), 35).unwrap(),
            "The CSINode \"node-1\" is invalid: spec.drivers: Invalid value: {\"Name\":\"ebs.csi.aws.com\",\"NodeID\":\"i-0456\",\"TopologyKeys\":[\"topology.ebs.csi.aws.com/zone\"],\"Allocatable\":null}: field is immutable"
        );
        let recount = NODE.replace(r#""count":25"#, r#""count":30"#);
        assert_eq!(refusal(&recount, Some(NODE), 35), None);
        // MutableCSINodeAllocatableCount is beta and off in 1.34.
        assert_eq!(
            refusal(&recount, Some(NODE), 34).unwrap(),
            "The CSINode \"node-1\" is invalid: spec.drivers: Invalid value: {\"Name\":\"ebs.csi.aws.com\",\"NodeID\":\"i-0123\",\"TopologyKeys\":[\"topology.ebs.csi.aws.com/zone\"],\"Allocatable\":{\"Count\":30}}: field is immutable"
        );
        assert_eq!(
            refusal(&recount, Some(NODE), 33).unwrap(),
            "The CSINode \"node-1\" is invalid: spec.drivers: Invalid value: storage.CSINodeDriver{Name:\"ebs.csi.aws.com\", NodeID:\"i-0123\", TopologyKeys:[]string{\"topology.ebs.csi.aws.com/zone\"}, Allocatable:(*storage.VolumeNodeResources)(0x…)}: field is immutable"
        );
    }
}
