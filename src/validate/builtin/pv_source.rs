//! A PersistentVolume's volume source, as k8s.io/kubernetes pkg/apis/core/validation
//! `ValidatePersistentVolumeSpec` counts and checks it: exactly one source, in the server's
//! order, then that source's own rules — the pod volume rules where the types are shared
//! ([`super::volume_source`], [`super::legacy_volumes`]), the `*PersistentVolumeSource`
//! variants here (secret references with namespaces, iSCSI formats, csi volume handles).

use super::super::formats;
use super::super::FieldError;
use super::fields::{present, text};
use super::legacy_volumes as legacy;
use super::volume_source::{
    self, count_sources, required, source, Source, CEPHFS, GCE_PERSISTENT_DISK,
};
use crate::kube::KubeVersion;
use crate::validate::field::join;
use crate::value::Value;
use std::sync::LazyLock;

/// The sources in the order `ValidatePersistentVolumeSpec` tests them. `iscsi` also needs the
/// volume's name, so [`check`] calls [`iscsi`] itself; `flexVolume` counts but is never refused
/// (the server does not look at the count before it).
pub(super) const SOURCES: &[Source] = &[
    source("hostPath", volume_source::host_path),
    GCE_PERSISTENT_DISK,
    source("awsElasticBlockStore", legacy::volume_id_and_partition),
    source("glusterfs", glusterfs),
    source("flocker", legacy::flocker),
    source("nfs", volume_source::nfs),
    source("rbd", legacy::rbd),
    source("quobyte", legacy::quobyte),
    CEPHFS,
    source("iscsi", |_, _, _, _| {}),
    source("cinder", cinder),
    source("fc", legacy::fc),
    Source {
        refused_as: "",
        ..source("flexVolume", legacy::flex_volume)
    },
    source("azureFile", azure_file),
    source("vsphereVolume", legacy::vsphere_volume),
    source("photonPersistentDisk", legacy::photon_persistent_disk),
    source("portworxVolume", legacy::portworx_volume),
    source("azureDisk", legacy::azure_disk),
    source("scaleIO", legacy::scale_io),
    source("local", local),
    source("storageos", storageos),
    source("csi", csi),
];

/// The volume sources of `spec` as the server counts them; `on_counted` is told of the one
/// that counts (for `local`'s node affinity rule). Returns how many counted.
pub fn check(
    spec: &Value,
    name: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
    mut on_counted: impl FnMut(&str, &mut Vec<FieldError>),
) -> usize {
    count_sources(SOURCES, spec, "spec", errors, |s, value, at, errors| {
        if s.key == "iscsi" {
            iscsi(value, at, name, errors);
        } else {
            (s.check)(value, at, version, errors);
        }
        on_counted(s.key, errors);
    })
}

fn invalid_messages(at: &str, value: &str, msgs: Vec<String>, errors: &mut Vec<FieldError>) {
    for msg in msgs {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            msg,
        ));
    }
}

/// `validateGlusterfsPersistentVolumeSource`: the pod rules and an `endpointsNamespace` that,
/// when set, is a namespace name.
fn glusterfs(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    legacy::glusterfs(v, at, version, errors);
    let Some(ns) = present(v, "endpointsNamespace") else {
        return;
    };
    let ns = ns.as_str().unwrap_or("");
    let ns_at = join(at, ".endpointsNamespace");
    if ns.is_empty() {
        errors.push(FieldError::invalid(
            ns_at,
            FieldError::string_value(ns),
            "if the endpointnamespace is set, it must be a valid namespace name",
        ));
    } else {
        invalid_messages(&ns_at, ns, formats::dns1123_label(ns), errors);
    }
}

/// A `SecretReference` whose `name` and `namespace` are both required (cinder, storageos).
fn secret_ref_with_namespace(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    if let Some(r) = present(v, "secretRef") {
        required(r, &join(at, ".secretRef"), &["name", "namespace"], errors);
    }
}

/// `validateCinderPersistentVolumeSource`.
fn cinder(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    required(v, at, &["volumeID"], errors);
    secret_ref_with_namespace(v, at, errors);
}

/// `validateAzureFilePV`: a `secretNamespace`, when given, not empty.
fn azure_file(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    legacy::azure_file(v, at, version, errors);
    if present(v, "secretNamespace").is_some_and(|ns| ns.as_str() == Some("")) {
        errors.push(FieldError::required(join(at, ".secretNamespace"), ""));
    }
}

/// `validateStorageOSPersistentVolumeSource`: the pod rules, the secret's namespace required.
fn storageos(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut without_ref = v.clone();
    if let Some(m) = without_ref.as_map_mut() {
        m.shift_remove("secretRef");
    }
    legacy::storageos(&without_ref, at, version, errors);
    secret_ref_with_namespace(v, at, errors);
}

/// `validateLocalVolumeSource`: a path without backsteps.
fn local(v: &Value, at: &str, _: KubeVersion, errors: &mut Vec<FieldError>) {
    volume_source::backstep_free_path(v, at, errors);
}

/// `validateCSIPersistentVolumeSource`: the driver name (`ValidateCSIDriverName`), a volume
/// handle, and each secret reference's name (a DNS subdomain) and namespace (a DNS label).
fn csi(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    volume_source::csi_driver_name(v, at, version, errors);
    if text(v, "volumeHandle").is_empty() {
        errors.push(FieldError::required(join(at, ".volumeHandle"), ""));
    }
    for key in [
        "controllerPublishSecretRef",
        "controllerExpandSecretRef",
        "nodePublishSecretRef",
        "nodeExpandSecretRef",
    ] {
        let Some(r) = present(v, key) else { continue };
        let ref_at = format!("{at}.{key}");
        for (field, check) in [
            (
                "name",
                formats::dns1123_subdomain as fn(&str) -> Vec<String>,
            ),
            ("namespace", formats::dns1123_label),
        ] {
            let value = text(r, field);
            let field_at = format!("{ref_at}.{field}");
            if value.is_empty() {
                errors.push(FieldError::required(field_at, ""));
            } else {
                invalid_messages(&field_at, value, check(value), errors);
            }
        }
    }
}

/// `iscsiInitiatorIqnRegex` (unanchored at the start, as Go's `MatchString` finds it
/// anywhere), `iscsiInitiatorEuiRegex`, `iscsiInitiatorNaaRegex`; Go's `\d` and `\s` are ASCII.
static IQN: LazyLock<[regex::Regex; 3]> = LazyLock::new(|| {
    [
        r"iqn\.[0-9]{4}-[0-9]{2}\.([[:alnum:].-]+)(:[^,;*&$|\t\n\x0C\r ]+)$",
        r"^eui.[[:alnum:]]{16}$",
        r"^naa.[[:alnum:]]{32}$",
    ]
    .map(|r| regex::Regex::new(r).expect("a valid expression"))
});

/// An IQN or initiator name: one of the three prefixes, then that prefix's form.
fn iqn_format(value: &str, at: &str, errors: &mut Vec<FieldError>) {
    let form = ["iqn", "eui", "naa"]
        .iter()
        .position(|p| value.starts_with(p));
    let valid = form.is_some_and(|i| IQN[i].is_match(value));
    if !valid {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(value),
            "must be valid format",
        ));
    }
}

/// `validateISCSIPersistentVolumeSource`, which needs the volume's name for the length of
/// `<volume name>:<targetPortal>` when an initiator name is given.
fn iscsi(v: &Value, at: &str, pv_name: &str, errors: &mut Vec<FieldError>) {
    let portal = text(v, "targetPortal");
    if portal.is_empty() {
        errors.push(FieldError::required(join(at, ".targetPortal"), ""));
    }
    let initiator = present(v, "initiatorName").map(|i| i.as_str().unwrap_or(""));
    if initiator.is_some() && pv_name.len() + 1 + portal.len() > 64 {
        errors.push(FieldError::invalid(
            join(at, ".targetportal"),
            FieldError::string_value(portal),
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let iqn = text(v, "iqn");
    if iqn.is_empty() {
        errors.push(FieldError::required(join(at, ".iqn"), ""));
    } else {
        iqn_format(iqn, &join(at, ".iqn"), errors);
    }
    legacy::iscsi_lun(v, at, errors);
    legacy::chap_secret_ref(v, at, errors);
    if let Some(r) = present(v, "secretRef") {
        required(r, &join(at, ".secretRef"), &["name"], errors);
    }
    if let Some(initiator) = initiator {
        iqn_format(initiator, &join(at, ".initiatorname"), errors);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    fn pv(source: &str, name: &str) -> Option<String> {
        refusal(
            &format!(
                r#"{{"apiVersion":"v1","kind":"PersistentVolume","metadata":{{"name":"{name}"}},
                "spec":{{"accessModes":["ReadWriteOnce"],"capacity":{{"storage":"1Gi"}},{source}}}}}"#
            ),
            None,
            37,
        )
    }

    const PREFIX: &str = "The PersistentVolume \"pv1\" is invalid: ";

    #[test]
    fn shared_sources_use_the_pod_rules() {
        assert_eq!(
            pv(r#""hostPath":{"path":"/data/../etc","type":"Dir"}"#, "pv1").unwrap(),
            format!("{PREFIX}\n* spec.hostPath.path: Invalid value: \"/data/../etc\": must not contain '..'\n* spec.hostPath.type: Unsupported value: \"Dir\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"")
        );
        assert_eq!(
            pv(r#""nfs":{"server":"","path":"exports"}"#, "pv1").unwrap(),
            format!("{PREFIX}\n* spec.nfs.server: Required value\n* spec.nfs.path: Invalid value: \"exports\": must be an absolute path")
        );
        assert_eq!(
            pv(r#""gcePersistentDisk":{"pdName":""}"#, "pv1").unwrap(),
            format!("{PREFIX}spec.persistentDisk.pdName: Required value")
        );
    }

    #[test]
    fn csi_needs_a_driver_a_handle_and_whole_secret_references() {
        assert_eq!(
            pv(
                r#""csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}"#,
                "pv1"
            ),
            None
        );
        assert_eq!(
            pv(
                r#""csi":{"driver":"Not_A_Driver","nodeStageSecretRef":{},"controllerExpandSecretRef":{"name":"s"}}"#,
                "pv1"
            )
            .unwrap(),
            format!("{PREFIX}\n* spec.csi.driver: Invalid value: \"Not_A_Driver\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n* spec.csi.volumeHandle: Required value\n* spec.csi.controllerExpandSecretRef.namespace: Required value")
        );
    }

    #[test]
    fn local_and_namespaced_secret_references() {
        assert_eq!(
            pv(
                r#""local":{"path":""},"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["node-1"]}]}]}}"#,
                "pv1"
            )
            .unwrap(),
            format!("{PREFIX}spec.local.path: Required value")
        );
        assert_eq!(
            pv(
                r#""cinder":{"volumeID":"v","secretRef":{"name":"s"}}"#,
                "pv1"
            )
            .unwrap(),
            format!("{PREFIX}spec.cinder.secretRef.namespace: Required value")
        );
        assert_eq!(
            pv(r#""glusterfs":{"endpoints":"e","path":"p","endpointsNamespace":""}"#, "pv1").unwrap(),
            format!("{PREFIX}spec.glusterfs.endpointsNamespace: Invalid value: \"\": if the endpointnamespace is set, it must be a valid namespace name")
        );
    }

    #[test]
    fn iscsi_formats() {
        let ok = r#""iscsi":{"targetPortal":"10.0.0.1:3260","iqn":"iqn.2001-04.com.example:storage.disk1","lun":0}"#;
        assert_eq!(pv(ok, "pv1"), None);
        assert_eq!(
            pv(r#""iscsi":{"targetPortal":"10.0.0.1:3260","iqn":"iqn.2001.com.example","lun":0,"initiatorName":"x"}"#, "pv1").unwrap(),
            format!("{PREFIX}\n* spec.iscsi.iqn: Invalid value: \"iqn.2001.com.example\": must be valid format\n* spec.iscsi.initiatorname: Invalid value: \"x\": must be valid format")
        );
        let long = "v".repeat(60);
        let got = pv(
            r#""iscsi":{"targetPortal":"10.0.0.1:3260","iqn":"eui.02004567A425678D","lun":0,"initiatorName":"naa.0123456789abcdef0123456789abcdef"}"#,
            &long,
        )
        .unwrap();
        assert!(got.ends_with("spec.iscsi.targetportal: Invalid value: \"10.0.0.1:3260\": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."), "{got}");
    }
}
