//! A container's volume mounts and devices, as k8s.io/kubernetes pkg/apis/core/validation
//! checks them (`ValidateVolumeMounts`, `validateMountPropagation`,
//! `validateMountRecursiveReadOnly`, `ValidateVolumeDevices`), with the server's paths: sub
//! paths, propagation and recursive read-only are reported at the list, not the item.

use super::super::FieldError;
use super::fields::{items, present, text};
use super::volume_source::{local_descending, no_backsteps};

use crate::validate::field::{indexed, join};
use crate::value::Value;
use std::collections::{HashMap, HashSet};

/// The pod's valid volumes by name (`ValidateVolumes`' map of sources).
pub type Volumes<'v> = HashMap<&'v str, &'v Value>;

/// `MountPropagationMode` values, sorted.
const PROPAGATIONS: &[&str] = &["Bidirectional", "HostToContainer", "None"];
/// `RecursiveReadOnlyMode` values, sorted.
const RECURSIVE_READ_ONLY: &[&str] = &["Disabled", "Enabled", "IfPossible"];

/// `ValidateVolumeMounts` then `ValidateVolumeDevices` for the container `c` at `path`.
pub fn check(c: &Value, path: &str, volumes: &Volumes, errors: &mut Vec<FieldError>) {
    let mounts = items(c.get("volumeMounts"));
    let devices = items(c.get("volumeDevices"));
    // Name → path maps (`GetVolumeMountMap`, `GetVolumeDeviceMap`): the last of a name wins.
    let mount_map: HashMap<&str, &str> = mounts
        .iter()
        .map(|m| (text(m, "name"), text(m, "mountPath")))
        .collect();
    let device_map: HashMap<&str, &str> = devices
        .iter()
        .map(|d| (text(d, "name"), text(d, "devicePath")))
        .collect();
    volume_mounts(
        c,
        mounts,
        &device_map,
        &join(path, ".volumeMounts"),
        volumes,
        errors,
    );
    volume_devices(
        devices,
        &mount_map,
        &join(path, ".volumeDevices"),
        volumes,
        errors,
    );
}

fn volume_mounts(
    c: &Value,
    mounts: &[Value],
    devices: &HashMap<&str, &str>,
    path: &str,
    volumes: &Volumes,
    errors: &mut Vec<FieldError>,
) {
    let mut paths = HashSet::new();
    for (i, m) in mounts.iter().enumerate() {
        let at = indexed(path, i);
        let name = text(m, "name");
        if name.is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        }
        if !volumes.contains_key(name) {
            errors.push(not_found(join(&at, ".name"), name));
        }
        let mount_path = text(m, "mountPath");
        if mount_path.is_empty() {
            errors.push(FieldError::required(join(&at, ".mountPath"), ""));
        }
        if !paths.insert(mount_path) {
            errors.push(invalid(
                join(&at, ".mountPath"),
                mount_path,
                "must be unique",
            ));
        }
        if devices.contains_key(name) {
            errors.push(invalid(
                join(&at, ".name"),
                name,
                "must not already exist in volumeDevices",
            ));
        }
        if devices.values().any(|p| *p == mount_path) {
            errors.push(invalid(
                join(&at, ".mountPath"),
                mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub_path = text(m, "subPath");
        if !sub_path.is_empty() {
            local_descending(sub_path, &join(path, ".subPath"), errors);
        }
        let expr = text(m, "subPathExpr");
        if !expr.is_empty() {
            if !sub_path.is_empty() {
                errors.push(invalid(
                    join(&at, ".subPathExpr"),
                    expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            local_descending(expr, &join(path, ".subPathExpr"), errors);
        }
        let propagation = m.get("mountPropagation").and_then(Value::as_str);
        if let Some(mode) = propagation {
            mount_propagation(c, mode, &join(path, ".mountPropagation"), errors);
        }
        recursive_read_only(m, propagation, &join(path, ".recursiveReadOnly"), errors);
    }
}

/// `validateMountPropagation`: a known mode; `Bidirectional` only for privileged containers.
fn mount_propagation(c: &Value, mode: &str, at: &str, errors: &mut Vec<FieldError>) {
    if !PROPAGATIONS.contains(&mode) {
        errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(mode),
            PROPAGATIONS,
        ));
    }
    let privileged = c
        .get_path(&["securityContext", "privileged"])
        .and_then(Value::as_bool)
        == Some(true);
    if mode == "Bidirectional" && !privileged {
        errors.push(FieldError::forbidden(
            at,
            "Bidirectional mount propagation is available only to privileged containers",
        ));
    }
}

/// `validateMountRecursiveReadOnly`.
fn recursive_read_only(
    m: &Value,
    propagation: Option<&str>,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    let Some(mode) = present(m, "recursiveReadOnly").and_then(Value::as_str) else {
        return;
    };
    match mode {
        "Disabled" => {}
        "Enabled" | "IfPossible" => {
            if m.get("readOnly").and_then(Value::as_bool) != Some(true) {
                errors.push(FieldError::forbidden(
                    at,
                    "may only be specified when readOnly is true",
                ));
            }
            if propagation.is_some_and(|p| p != "None") {
                errors.push(FieldError::forbidden(
                    at,
                    "may only be specified when mountPropagation is None or not specified",
                ));
            }
        }
        _ => errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(mode),
            RECURSIVE_READ_ONLY,
        )),
    }
}

/// `ValidateVolumeDevices`: block devices of claims (persistentVolumeClaim or ephemeral).
fn volume_devices(
    devices: &[Value],
    mounts: &HashMap<&str, &str>,
    path: &str,
    volumes: &Volumes,
    errors: &mut Vec<FieldError>,
) {
    let mut paths = HashSet::new();
    let mut names = HashSet::new();
    for (i, d) in devices.iter().enumerate() {
        let at = indexed(path, i);
        let (name, device_path) = (text(d, "name"), text(d, "devicePath"));
        let source = volumes.get(name);
        let is_claim = source.is_some_and(|v| {
            present(v, "persistentVolumeClaim").is_some() || present(v, "ephemeral").is_some()
        });
        if name.is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        }
        if names.contains(name) {
            errors.push(invalid(join(&at, ".name"), name, "must be unique"));
        }
        if source.is_some() && !is_claim {
            errors.push(invalid(
                join(&at, ".name"),
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if source.is_none() {
            errors.push(not_found(join(&at, ".name"), name));
        }
        if device_path.is_empty() {
            errors.push(FieldError::required(join(&at, ".devicePath"), ""));
        }
        if paths.contains(device_path) {
            errors.push(invalid(
                join(&at, ".devicePath"),
                device_path,
                "must be unique",
            ));
        }
        let mut backsteps = Vec::new();
        no_backsteps(device_path, "", &mut backsteps);
        if !device_path.is_empty() && !backsteps.is_empty() {
            errors.push(invalid(
                join(&at, ".devicePath"),
                device_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            paths.insert(device_path);
        }
        if mounts.contains_key(name) {
            errors.push(invalid(
                join(&at, ".name"),
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if mounts.values().any(|p| *p == device_path) {
            errors.push(invalid(
                join(&at, ".devicePath"),
                device_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            names.insert(name);
        }
    }
}

fn invalid(at: impl Into<String>, value: &str, detail: &str) -> FieldError {
    FieldError::invalid(at, FieldError::string_value(value), detail)
}

fn not_found(at: impl Into<String>, value: &str) -> FieldError {
    FieldError::not_found(at, FieldError::string_value(value))
}
