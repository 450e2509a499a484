//! Container environment, as k8s.io/kubernetes pkg/apis/core/validation checks it (`ValidateEnv`,
//! `validateEnvVarValueFrom`, `validateObjectFieldSelector`,
//! `validateContainerResourceFieldSelector`, the key selectors, `ValidateEnvFrom`), with the
//! variable-name rule of apimachinery pkg/util/validation (`IsEnvVarName`, `IsRelaxedEnvVarName`).

use super::super::formats;
use super::super::FieldError;
use super::fields::{items, present, text};
use super::meta::NameRule;
use super::pod_options::Strictness;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// The RelaxedEnvironmentVariableValidation feature: alpha (off) in 1.30–1.31, on by default
/// from 1.32 (beta), GA in 1.34 (k8s.io/kubernetes pkg/features).
const RELAXED_NAMES: VersionRange = VersionRange::since(32);

/// `IsEnvVarName`'s `RegexError` (note the server's double spaces before `or`).
const ENV_NAME_MSG: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
/// `IsRelaxedEnvVarName`'s message.
const RELAXED_ENV_NAME_MSG: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";

/// `validEnvDownwardAPIFieldPathExpressions`, sorted as `sets.List` sorts them.
const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];
/// What `ConvertDownwardAPIFieldLabel` (pkg/apis/core/pods) accepts without a subscript.
const CONVERTIBLE_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
    "spec.host",
];
/// `validContainerResourceFieldPathExpressions`, sorted.
pub(super) const RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];
pub(super) const HUGEPAGES_PREFIXES: &[&str] = &["limits.hugepages-", "requests.hugepages-"];

/// The rules an env var is checked by, derived from the release and the stored pod spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvRules {
    /// `AllowRelaxedEnvironmentVariableValidation`.
    pub names: Strictness,
    /// `AllowEnvFilesValidation`: `fileKeyRef` sources are known (EnvFiles, beta and on from
    /// 1.35; in 1.34 only when the stored pod spec already has one, the strategy dropping new
    /// ones otherwise, see [`crate::kube::pod_gates`]).
    pub files: bool,
}

/// EnvFiles is on by default from 1.35.
const ENV_FILES_ON: VersionRange = VersionRange::since(35);
/// 1.34 has the field behind the alpha gate.
const ENV_FILES_FIELD: VersionRange = VersionRange::since(34);

/// `useAllowEnvFilesValidation` for a write over the stored pod spec `old`.
pub fn files_allowed(old: Option<&Value>, version: KubeVersion) -> bool {
    ENV_FILES_ON.contains(version)
        || (ENV_FILES_FIELD.contains(version)
            && old.is_some_and(crate::kube::pod_gates::has_file_key_ref))
}

/// The env var name rule of `version` when no stored object relaxes it.
pub fn names_by_default(version: KubeVersion) -> Strictness {
    Strictness::relaxed_in(RELAXED_NAMES, version)
}

/// The messages for an env var name (or `envFrom` prefix) under `rule`: `IsEnvVarName` (C
/// identifiers, with `-` and `.`) or `IsRelaxedEnvVarName` (printable ASCII but `=`).
pub fn name_messages(name: &str, rule: Strictness) -> Vec<String> {
    let mut msgs = Vec::new();
    if rule == Strictness::Relaxed {
        if name.is_empty() {
            msgs.push("environment variable name must be non-empty".to_string());
        }
        if name.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
            msgs.push(RELAXED_ENV_NAME_MSG.to_string());
        }
        return msgs;
    }
    let b = name.as_bytes();
    let word = |c: u8| c.is_ascii_alphabetic() || matches!(c, b'-' | b'.' | b'_');
    let valid = !b.is_empty() && word(b[0]) && b.iter().all(|&c| word(c) || c.is_ascii_digit());
    if !valid {
        msgs.push(ENV_NAME_MSG.to_string());
    }
    msgs.extend(formats::chdir_prefix(name).map(String::from));
    msgs
}

/// `ValidateEnv` at `path` (`…containers[i].env`), names checked by `names`.
pub fn env(
    vars: &[Value],
    path: &str,
    rules: EnvRules,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    for (i, v) in vars.iter().enumerate() {
        let at = indexed(path, i);
        let name = text(v, "name");
        if name.is_empty() {
            errors.push(FieldError::required(join(&at, ".name"), ""));
        } else {
            for msg in name_messages(name, rules.names) {
                errors.push(FieldError::invalid(
                    join(&at, ".name"),
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
        if let Some(from) = present(v, "valueFrom") {
            value_from(v, from, &join(&at, ".valueFrom"), rules, version, errors);
        }
    }
}

/// `validateEnvVarValueFrom`.
fn value_from(
    var: &Value,
    from: &Value,
    path: &str,
    rules: EnvRules,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let mut sources = 0;
    if let Some(r) = present(from, "fieldRef") {
        sources += 1;
        field_ref(
            r,
            &join(path, ".fieldRef"),
            ENV_FIELD_PATHS,
            version,
            errors,
        );
    }
    if let Some(r) = present(from, "resourceFieldRef") {
        sources += 1;
        resource_field_ref(r, &join(path, ".resourceFieldRef"), errors);
    }
    for key in ["configMapKeyRef", "secretKeyRef"] {
        if let Some(r) = present(from, key) {
            sources += 1;
            key_selector(r, &format!("{path}.{key}"), errors);
        }
    }
    if let Some(r) = present(from, "fileKeyRef") {
        sources += 1;
        file_key_selector(r, &join(path, ".fileKeyRef"), errors);
    }
    let detail = if sources == 0 {
        if rules.files {
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"
        } else {
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
        }
    } else if !text(var, "value").is_empty() {
        "may not be specified when `value` is not empty"
    } else if sources > 1 {
        "may not have more than one field specified at a time"
    } else {
        return;
    };
    errors.push(FieldError::invalid(
        path,
        FieldError::string_value(""),
        detail,
    ));
}

/// `validateFileKeySelector`: a key (a relaxed env var name), a volume name (a DNS label) and a
/// path without backsteps, each required.
fn file_key_selector(r: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let key = text(r, "key");
    if key.is_empty() {
        errors.push(FieldError::required(join(path, ".key"), ""));
    }
    for msg in name_messages(key, Strictness::Relaxed)
        .into_iter()
        .filter(|_| !key.is_empty())
    {
        errors.push(FieldError::invalid(
            join(path, ".key"),
            FieldError::string_value(key),
            msg,
        ));
    }
    let volume = text(r, "volumeName");
    if volume.is_empty() {
        errors.push(FieldError::required(join(path, ".volumeName"), ""));
    }
    for msg in formats::dns1123_label(volume)
        .into_iter()
        .filter(|_| !volume.is_empty())
    {
        errors.push(FieldError::invalid(
            join(path, ".volumeName"),
            FieldError::string_value(volume),
            msg,
        ));
    }
    let file = text(r, "path");
    if file.is_empty() {
        errors.push(FieldError::required(join(path, ".path"), ""));
    } else {
        super::volume_source::no_backsteps(file, &join(path, ".path"), errors);
    }
}

/// `validateFileKeyRefVolumes` (the last rule of `ValidatePodSpec`, 1.34+): the volume each
/// `fileKeyRef` names must be one of the pod's, an `emptyDir`. Containers are visited as
/// `VisitContainersWithPath` visits them: init containers, containers, ephemeral containers.
pub fn file_key_ref_volumes(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let volumes = items(spec.get("volumes"));
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for (i, c) in items(spec.get(key)).iter().enumerate() {
            for (j, var) in items(c.get("env")).iter().enumerate() {
                let Some(r) = var.get("valueFrom").and_then(|f| present(f, "fileKeyRef")) else {
                    continue;
                };
                let name = text(r, "volumeName");
                let at = format!("{path}.{key}[{i}].env[{j}].valueFrom.fileKeyRef.volumeName");
                match volumes.iter().find(|v| text(v, "name") == name) {
                    None => errors.push(FieldError::not_found(at, FieldError::string_value(name))),
                    Some(v) if present(v, "emptyDir").is_none() => {
                        errors.push(FieldError::invalid(
                            at,
                            FieldError::string_value(name),
                            "referenced volume must be of type emptyDir",
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
    }
}

/// `validateObjectFieldSelector` with the paths `supported` (env vars' or volume files').
pub(super) fn field_ref(
    r: &Value,
    path: &str,
    supported: &[&str],
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let api_version = text(r, "apiVersion");
    let field_path = text(r, "fieldPath");
    if api_version.is_empty() {
        errors.push(FieldError::required(join(path, ".apiVersion"), ""));
        return;
    }
    if field_path.is_empty() {
        errors.push(FieldError::required(join(path, ".fieldPath"), ""));
        return;
    }
    let conversion = if api_version != "v1" {
        Some(format!("unsupported pod version: {api_version}"))
    } else if let Some((base, _)) = subscripted(field_path) {
        (!matches!(base, "metadata.annotations" | "metadata.labels"))
            .then(|| format!("field label does not support subscript: {field_path}"))
    } else if !CONVERTIBLE_FIELD_PATHS.contains(&field_path) {
        Some(format!("field label not supported: {field_path}"))
    } else {
        None
    };
    if let Some(err) = conversion {
        errors.push(FieldError::invalid(
            join(path, ".fieldPath"),
            FieldError::string_value(field_path),
            format!("error converting fieldPath: {err}"),
        ));
        return;
    }
    let internal = if field_path == "spec.host" {
        "spec.nodeName"
    } else {
        field_path
    };
    if let Some((base, key)) = subscripted(internal) {
        subscript_key(base, key, path, version, errors);
    } else if !supported.contains(&internal) {
        errors.push(FieldError::not_supported(
            join(path, ".fieldPath"),
            FieldError::string_value(internal),
            supported,
        ));
    }
}

/// The key of `metadata.labels['key']` or `metadata.annotations['key']`: a qualified name
/// (`ValidateQualifiedName`; an annotation key is lower-cased first), reported at the
/// `fieldRef` itself with the key as the value (`validateObjectFieldSelector`,
/// pkg/apis/core/validation/validation.go). Other subscripted paths were refused by the
/// conversion already.
fn subscript_key(
    base: &str,
    key: &str,
    path: &str,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let key = match base {
        "metadata.annotations" => key.to_lowercase(),
        "metadata.labels" => key.to_string(),
        _ => return,
    };
    for msg in formats::label_key(&key, version) {
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(&key),
            msg,
        ));
    }
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']` is `("metadata.labels", "key")`.
fn subscripted(path: &str) -> Option<(&str, &str)> {
    let inner = path.strip_suffix("']")?;
    let (base, key) = inner.split_once("['")?;
    (!base.is_empty()).then_some((base, key))
}

/// `validateContainerResourceFieldSelector` for env vars (no container name required); the
/// divisor is not checked.
fn resource_field_ref(r: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let resource = text(r, "resource");
    if resource.is_empty() {
        errors.push(FieldError::required(join(path, ".resource"), ""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource)
        && !HUGEPAGES_PREFIXES.iter().any(|p| resource.starts_with(p))
    {
        errors.push(FieldError::not_supported(
            join(path, ".resource"),
            FieldError::string_value(resource),
            RESOURCE_FIELD_PATHS,
        ));
    }
}

/// `validateConfigMapKeySelector` / `validateSecretKeySelector`.
fn key_selector(r: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let name = text(r, "name");
    for msg in NameRule::Subdomain.messages(name, false) {
        errors.push(FieldError::invalid(
            join(path, ".name"),
            FieldError::string_value(name),
            msg,
        ));
    }
    let key = text(r, "key");
    if key.is_empty() {
        errors.push(FieldError::required(join(path, ".key"), ""));
    } else {
        for msg in formats::config_map_key(key) {
            errors.push(FieldError::invalid(
                join(path, ".key"),
                FieldError::string_value(key),
                msg,
            ));
        }
    }
}

/// `ValidateEnv` then `ValidateEnvFrom` of the container `c` at `path`, names checked by
/// `names` (`AllowRelaxedEnvironmentVariableValidation`).
pub fn container(
    c: &Value,
    path: &str,
    rules: EnvRules,
    version: KubeVersion,
    errors: &mut Vec<FieldError>,
) {
    let (vars, sources) = (items(c.get("env")), items(c.get("envFrom")));
    env(vars, &join(path, ".env"), rules, version, errors);
    env_from(sources, &join(path, ".envFrom"), rules.names, errors);
}

/// `ValidateEnvFrom` at `path` (`…containers[i].envFrom`), prefixes checked by `names`.
pub fn env_from(sources: &[Value], path: &str, names: Strictness, errors: &mut Vec<FieldError>) {
    for (i, s) in sources.iter().enumerate() {
        let at = indexed(path, i);
        let prefix = text(s, "prefix");
        if !prefix.is_empty() {
            for msg in name_messages(prefix, names) {
                errors.push(FieldError::invalid(
                    join(&at, ".prefix"),
                    FieldError::string_value(prefix),
                    msg,
                ));
            }
        }
        let mut count = 0;
        for key in ["configMapRef", "secretRef"] {
            let Some(r) = present(s, key) else { continue };
            count += 1;
            let name = text(r, "name");
            let name_path = format!("{at}.{key}.name");
            if name.is_empty() {
                errors.push(FieldError::required(name_path, ""));
                continue;
            }
            for msg in NameRule::Subdomain.messages(name, true) {
                errors.push(FieldError::invalid(
                    &name_path,
                    FieldError::string_value(name),
                    msg,
                ));
            }
        }
        let detail = match count {
            0 => "must specify one of: `configMapRef` or `secretRef`",
            1 => continue,
            _ => "may not have more than one field specified at a time",
        };
        // The server's path is the list's, not the item's.
        errors.push(FieldError::invalid(
            path,
            FieldError::string_value(""),
            detail,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn v(minor: u8) -> KubeVersion {
        KubeVersion::new(minor).unwrap()
    }

    fn messages(vars: &str, minor: u8) -> Vec<String> {
        let vars = from_json_str(vars).unwrap();
        let mut errors = Vec::new();
        env(
            vars.as_list().unwrap(),
            "spec.containers[0].env",
            EnvRules {
                names: names_by_default(v(minor)),
                files: ENV_FILES_ON.contains(v(minor)),
            },
            v(minor),
            &mut errors,
        );
        errors.iter().map(|e| e.message(v(minor))).collect()
    }

    #[test]
    fn a_value_from_names_one_source_listed_per_release() {
        let vars = r#"[{"name":"A","valueFrom":{}}]"#;
        assert_eq!(
            messages(vars, 34),
            ["spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"]
        );
        assert_eq!(
            messages(vars, 35),
            ["spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"]
        );
    }

    #[test]
    fn file_key_refs_name_a_key_a_volume_and_a_path() {
        let vars = r#"[{"name":"A","valueFrom":{"fileKeyRef":{"key":"K=1","volumeName":"Vol","path":"../a.env"}}},
            {"name":"B","valueFrom":{"fileKeyRef":{}}}]"#;
        assert_eq!(
            messages(vars, 36),
            [
                "spec.containers[0].env[0].valueFrom.fileKeyRef.key: Invalid value: \"K=1\": a valid environment variable name must consist only of printable ASCII characters other than '='",
                "spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value: \"Vol\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.containers[0].env[0].valueFrom.fileKeyRef.path: Invalid value: \"../a.env\": must not contain '..'",
                "spec.containers[0].env[1].valueFrom.fileKeyRef.key: Required value",
                "spec.containers[0].env[1].valueFrom.fileKeyRef.volumeName: Required value",
                "spec.containers[0].env[1].valueFrom.fileKeyRef.path: Required value",
            ]
        );
    }

    #[test]
    fn names_are_c_identifiers_until_1_31_and_printable_ascii_since_1_32() {
        let vars = r#"[{"name":"1ST VALUE","value":"x"}]"#;
        assert_eq!(
            messages(vars, 31),
            [format!(
                "spec.containers[0].env[0].name: Invalid value: \"1ST VALUE\": {ENV_NAME_MSG}"
            )]
        );
        assert!(messages(vars, 32).is_empty());
        assert_eq!(
            messages(r#"[{"name":"A=B"}]"#, 37),
            [format!(
                "spec.containers[0].env[0].name: Invalid value: \"A=B\": {RELAXED_ENV_NAME_MSG}"
            )]
        );
    }

    #[test]
    fn value_from_has_one_source_and_no_value() {
        let both =
            r#"[{"name":"A","value":"x","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}]"#;
        assert_eq!(
            messages(both, 37),
            ["spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"]
        );
        let two = r#"[{"name":"A","valueFrom":{"secretKeyRef":{"name":"s","key":"k"},"configMapKeyRef":{"name":"c","key":"k"}}}]"#;
        assert_eq!(
            messages(two, 30),
            ["spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"]
        );
    }

    #[test]
    fn field_refs_name_a_supported_path() {
        assert_eq!(
            messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.phase"}}}]"#, 37),
            ["spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"status.phase\": supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\""]
        );
        assert_eq!(
            messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.nam"}}}]"#, 37),
            ["spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.nam\": error converting fieldPath: field label not supported: metadata.nam"]
        );
        assert!(messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['app']"}}}]"#, 37).is_empty());
    }

    #[test]
    fn subscripts_are_qualified_names() {
        assert!(messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.annotations['Example.com/Owner']"}}}]"#, 37).is_empty());
        assert_eq!(
            messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['app name']"}}}]"#, 34),
            ["spec.containers[0].env[0].valueFrom.fieldRef: Invalid value: \"app name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
        assert_eq!(
            messages(r#"[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.annotations['A/B/C']"}}}]"#, 35),
            ["spec.containers[0].env[0].valueFrom.fieldRef: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
        );
    }
}
